"""Workspace symbols: the features of a repository and the ids their documents declare.

The list of every symbol of a snapshot (features, contracts, tests, bindings, gates, actions,
providers, capabilities, tasks) is built once per revision from the documents' outlines;
a query only filters it, so typing in the symbol picker costs a scan of that list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.text import Span
from gemstack_lsp.host import Snapshot
from gemstack_lsp.ide.outline import document_outline, outline

__all__ = ["SymbolEntry", "all_symbols", "fuzzy_match", "workspace_symbols"]

#: Outline entries that structure a document rather than declare something.
_STRUCTURE = frozenset({"heading", "block", "key"})


@dataclass(frozen=True)
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
    """Every character of ``query`` appears in ``name`` in order (case-insensitive)."""
    if not query:
        return True
    it = iter(name.lower())
    return all(ch in it for ch in query.lower())


@per_text
def _declared(path: str, text: str, container: str) -> tuple[SymbolEntry, ...]:
    """The symbols one feature document declares (a pure function of its text: kept across
    the revisions that leave the document unchanged)."""
    return tuple(
        SymbolEntry(item.name, item.kind, path, item.selection, container)
        for top in outline(path, text)
        for item in top.walk()
        if item.kind not in _STRUCTURE
    )


def _collect(snapshot: Snapshot) -> tuple[SymbolEntry, ...]:
    repo = snapshot.repo
    out: list[SymbolEntry] = []
    for feature in repo.features():
        spec = repo.document(feature.spec)
        items = document_outline(snapshot, feature.spec)
        first = items[0].selection if items else Span(0, 0)
        out.append(SymbolEntry(feature.name, "feature", feature.spec if spec.exists else feature.path, first, "specs"))
        for path in (feature.spec, feature.plan, feature.tasks):
            text = repo.document(path).text
            if text is not None:
                out.extend(_declared(path, text, feature.name))
    return tuple(out)


def all_symbols(snapshot: Snapshot) -> tuple[SymbolEntry, ...]:
    """Every workspace symbol of ``snapshot``, in repository order (built once per revision)."""
    return snapshot.derived(("ide.workspace-symbols",), _collect)


def workspace_symbols(snapshot: Snapshot, query: str) -> list[SymbolEntry]:
    """The features and the ids they declare whose names match ``query`` (fuzzy, in order)."""
    entries = all_symbols(snapshot)
    if not query:
        return list(entries)
    # ``fuzzy_match`` as one regular expression: the query's characters in order, anything between.
    pattern = re.compile(".*?".join(re.escape(ch) for ch in query.lower()))
    return [entry for entry in entries if pattern.search(entry.name.lower())]
