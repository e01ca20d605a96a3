"""Workspace symbols: the features of a repository and the ids their documents declare.

The list of every symbol of a snapshot (features, contracts, tests, bindings, gates, actions,
providers, capabilities, tasks) is built once per revision from the documents' outlines;
a query only filters it, so typing in the symbol picker costs a scan of that list.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from gemstack_lsp.core.repo import Document, Feature
from gemstack_lsp.core.text import Span
from gemstack_lsp.host import Snapshot
from gemstack_lsp.host.cancel import check_cancelled
from gemstack_lsp.ide.navigation import index_feature
from gemstack_lsp.ide.outline import outline

__all__ = ["SymbolEntry", "all_symbols", "fuzzy_match", "index_unit", "workspace_symbols"]

#: Outline entries that structure a document rather than declare something.
_STRUCTURE = frozenset({"heading", "block", "key"})


@dataclass(frozen=True, slots=True)
class SymbolEntry:
    """One workspace symbol: an outline item of a feature document, or the feature itself.

    ``kind`` is an outline kind or ``feature``; ``span`` is the name's span in ``path``;
    ``container`` is the feature's name (``specs`` for a feature itself).
    """

    name: str
    kind: str
    path: str
    span: Span
    container: str


def fuzzy_match(query: str, name: str) -> bool:
    """Every character of ``query`` appears in ``name`` in order (case-insensitive).

    One greedy pass over ``name`` (each query character is looked for after the previous
    one's match): linear in the lengths of both, whatever they hold."""
    if not query:
        return True
    return _subsequence(query.lower(), name.lower())


def _subsequence(query: str, name: str) -> bool:
    at = 0
    for ch in query:
        at = name.find(ch, at) + 1
        if not at:
            return False
    return True


def _declared(doc: Document, container: str) -> tuple[SymbolEntry, ...]:
    """The symbols one feature document declares."""
    if doc.text is None:
        return ()
    return tuple(
        SymbolEntry(item.name, item.kind, doc.path, item.selection, container)
        for top in outline(doc.path, doc.text)
        for item in top.walk()
        if item.kind not in _STRUCTURE
    )


def _feature_entry(doc: Document, name: str, folder: str) -> SymbolEntry:
    """The feature itself: its spec's first outline item, or its folder when it has no spec."""
    items = outline(doc.path, doc.text) if doc.text is not None else ()
    first = items[0].selection if items else Span(0, 0)
    return SymbolEntry(name, "feature", doc.path if doc.exists else folder, first, "specs")


def _collect(snapshot: Snapshot) -> tuple[SymbolEntry, ...]:
    """Every symbol of the snapshot. Each document's part is a summary the host keeps while
    the document is unchanged (``Snapshot.per_document``): a revision re-reads only the
    documents it changed, never the whole repository."""
    out: list[SymbolEntry] = []
    for n, feature in enumerate(snapshot.repo.features(), 1):
        check_cancelled()
        out.extend(_feature_symbols(snapshot, feature))
        if n % RETAIN_EVERY == 0:
            snapshot.retain()
    return tuple(out)


#: A walk over every feature lets the host forget unheld parses after this many features.
RETAIN_EVERY = 32


def _feature_symbols(snapshot: Snapshot, feature: Feature) -> list[SymbolEntry]:
    folder, name = feature.path, feature.name
    out = [
        snapshot.per_document(
            feature.spec,
            ("ide.symbols.feature", name),
            functools.partial(_feature_entry, name=name, folder=folder),
        )
    ]
    declared = functools.partial(_declared, container=name)
    for path in (feature.spec, feature.plan, feature.tasks):
        out.extend(snapshot.per_document(path, ("ide.symbols", name), declared))
    return out


def index_unit(snapshot: Snapshot, feature: str) -> None:
    """Bring the symbols and the occurrences of one feature's documents up to date (the host
    calls it after the feature's analysis, while its parses are at hand:
    ``AnalysisHost.unit_hooks``), so the workspace indexes are built by the analysis pass,
    never by a first query."""
    _feature_symbols(snapshot, Feature(feature))
    index_feature(snapshot, feature)


def all_symbols(snapshot: Snapshot) -> tuple[SymbolEntry, ...]:
    """Every workspace symbol of ``snapshot``, in repository order (built once per revision)."""
    return snapshot.derived(("ide.workspace-symbols",), _collect)


def workspace_symbols(snapshot: Snapshot, query: str, limit: int | None = None) -> list[SymbolEntry]:
    """The features and the ids they declare whose names match ``query`` (fuzzy, in order),
    at most ``limit`` of them."""
    entries = all_symbols(snapshot)
    if not query:
        return list(entries[:limit])
    wanted = query.lower()
    out: list[SymbolEntry] = []
    for n, entry in enumerate(entries):
        if n % 512 == 0:
            check_cancelled()
        if _subsequence(wanted, entry.name.lower()):
            out.append(entry)
            if limit is not None and len(out) >= limit:
                break
    return out
