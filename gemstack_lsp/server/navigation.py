"""Navigation: go to definition, find references, document links and workspace symbols.

Every Gemstack identifier a file names is an ``Occurrence``: a contract id, a test id, a task
id, a billable action, a provider, a capability, or a repository path. Declarations are where
the identifier is defined (the ``"id"`` of a contract in ``gemstack-contracts``, a test in
``gemstack-test-matrix``, a task header in tasks.md, a provider in ``gemstack-capabilities`` or
in a ledger's ``providers`` map...); every other mention is a reference (a test binding's
``test_id``, ``gemstack:tests=``, ``depends=``, the capsule's and closure evidence's strings).

Scope, like marksman's per-folder index: contract, test, task and action ids are looked up in
the feature that holds the document (spec, plan, tasks, capsule, closure, ledger), then in the
rest of the repository; providers and capabilities repository-wide. Strings of the capsule
and of closure.json have no kind of their own: they are matched by value.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from gemstack_lsp.core.blocks.contracts import CONTRACT_KINDS
from gemstack_lsp.core.jsonspan import JsonArray, JsonNode, JsonObject, JsonString, iter_nodes, parse_json
from gemstack_lsp.core.reader import normalize_relpath
from gemstack_lsp.core.repo import CAPSULE_NAME, CLOSURE_NAME, LEDGER_NAME, Feature, GemstackRepo
from gemstack_lsp.core.tasks import parse_tasks
from gemstack_lsp.core.text import SourceText, Span
from gemstack_lsp.server import convert
from gemstack_lsp.server.symbols import (
    SYMBOL_KINDS,
    document_view,
    feature_enabled,
    gemstack_blocks,
    outline,
    session_of,
)

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

__all__ = [
    "REGISTRY_FILES",
    "Occurrence",
    "SymbolEntry",
    "definitions",
    "document_links",
    "file_occurrences",
    "occurrence_at",
    "references",
    "register",
    "workspace_symbols",
]

#: Repository-level provider registries (reference load order after the feature's ledger).
REGISTRY_FILES = (LEDGER_NAME, f".gemstack/{LEDGER_NAME}", ".gemstack/providers.json")

#: Kinds whose ids live per feature (the same id may mean different things in two features).
FEATURE_KINDS = frozenset({"contract", "test", "task", "action"})


@dataclass(frozen=True)
class Occurrence:
    """One mention of an identifier in one file.

    ``kind`` is contract, test, task, action, provider, capability, path, or string (a capsule
    or closure value that may name any of them).
    """

    path: str
    span: Span
    kind: str
    value: str
    declaration: bool = False


# ---------------------------------------------------------------------------------------------
# What each file mentions


def _strings(node: JsonNode | None) -> Iterator[JsonString]:
    for n in iter_nodes(node):
        if isinstance(n, JsonString):
            yield n


def _array_strings(node: JsonNode | None) -> Iterator[JsonString]:
    if isinstance(node, JsonArray):
        for item in node.items:
            if isinstance(item, JsonString):
                yield item


def _str(item: JsonObject, key: str) -> JsonString | None:
    node = item.get(key)
    return node if isinstance(node, JsonString) and node.value else None


def _block_occurrences(path: str, text: str) -> Iterator[Occurrence]:
    name = path.rsplit("/", 1)[-1]
    for block in gemstack_blocks(text):
        root = block.result.value
        if not isinstance(root, JsonArray):
            continue
        for item in root.items:
            if not isinstance(item, JsonObject):
                continue

            kind = block.kind
            if kind in CONTRACT_KINDS and (s := _str(item, "id")):
                yield Occurrence(path, s.span, "contract", s.value, True)
            elif kind == "gemstack-test-matrix" and (s := _str(item, "id")):
                yield Occurrence(path, s.span, "test", s.value, True)
            elif kind == "gemstack-test-bindings":
                if s := _str(item, "test_id"):
                    yield Occurrence(path, s.span, "test", s.value)
                if s := _str(item, "file"):
                    yield Occurrence(path, s.span, "path", s.value)
            elif kind == "gemstack-billable-actions":
                if s := _str(item, "id"):
                    yield Occurrence(path, s.span, "action", s.value, name == "spec.md")
                if s := _str(item, "capability_id"):
                    yield Occurrence(path, s.span, "capability", s.value)
                for p in _array_strings(item.get("providers")):
                    yield Occurrence(path, p.span, "provider", p.value)
            elif kind == "gemstack-capabilities":
                if s := _str(item, "provider_id"):
                    yield Occurrence(path, s.span, "provider", s.value, True)
                for c in _array_strings(item.get("capabilities")):
                    yield Occurrence(path, c.span, "capability", c.value, True)


def _task_occurrences(path: str, text: str) -> Iterator[Occurrence]:
    kinds = {"tests": "test", "depends": "task", "files": "path", "actions": "action"}
    for task in parse_tasks(text).tasks:
        yield Occurrence(path, task.id_span, "task", task.id, True)
        for kind, ref in task.refs():
            if ref.value:
                yield Occurrence(path, ref.span, kinds[kind], ref.value)


def _registry_occurrences(path: str, root: JsonNode | None) -> Iterator[Occurrence]:
    providers = root.get("providers") if isinstance(root, JsonObject) else None
    if not isinstance(providers, JsonObject):
        return
    for member in providers.members:
        yield Occurrence(path, member.key.span, "provider", member.key.value, True)
        caps = member.value.get("capabilities") if isinstance(member.value, JsonObject) else None
        if isinstance(caps, JsonObject):
            for cap in caps.members:
                yield Occurrence(path, cap.key.span, "capability", cap.key.value, True)
        for c in _array_strings(caps):
            yield Occurrence(path, c.span, "capability", c.value, True)


def _evidence_occurrences(path: str, root: JsonNode | None) -> Iterator[Occurrence]:
    """A capsule's or closure.json's strings: source paths as paths, everything else by value."""
    paths: set[int] = set()
    if isinstance(root, JsonObject):
        prov = root.get("provenance")
        sources = prov.get("sources") if isinstance(prov, JsonObject) else None
        if isinstance(sources, JsonArray):
            for src in sources.items:
                p = src.get("path") if isinstance(src, JsonObject) else None
                if isinstance(p, JsonString) and p.value:
                    paths.add(p.span.start)
                    yield Occurrence(path, p.span, "path", p.value)
    for s in _strings(root):
        if s.span.start not in paths and s.value:
            yield Occurrence(path, s.span, "string", s.value)


@functools.lru_cache(maxsize=256)
def file_occurrences(path: str, text: str) -> tuple[Occurrence, ...]:
    """Every identifier ``text`` (the file at repository-relative ``path``) mentions, in order."""
    name = path.rsplit("/", 1)[-1]
    out: list[Occurrence] = []
    if name.endswith(".md"):
        out.extend(_block_occurrences(path, text))
        if name == "tasks.md":
            out.extend(_task_occurrences(path, text))
    elif name.endswith(".json"):
        root = parse_json(text).value
        if name in (LEDGER_NAME, "providers.json"):
            out.extend(_registry_occurrences(path, root))
        elif name in (CAPSULE_NAME, CLOSURE_NAME):
            out.extend(_evidence_occurrences(path, root))
    out.sort(key=lambda o: o.span.start)
    return tuple(out)


def occurrence_at(path: str, text: str, offset: int) -> Occurrence | None:
    """The identifier under ``offset`` (a cursor just after it counts)."""
    for occ in file_occurrences(path, text):
        if occ.span.contains(offset):
            return occ
    return None


# ---------------------------------------------------------------------------------------------
# Across the repository


def _feature_files(feature: Feature) -> list[str]:
    return [feature.spec, feature.plan, feature.tasks, feature.capsule, feature.closure, feature.ledger]


def _repo_files(repo: GemstackRepo) -> list[str]:
    files: list[str] = []
    for feature in repo.features():
        files.extend(_feature_files(feature))
    files.extend(REGISTRY_FILES)
    return files


def _occurrences_in(repo: GemstackRepo, paths: Iterable[str]) -> Iterator[Occurrence]:
    for path in paths:
        doc = repo.document(path)
        if doc.text is not None:
            yield from file_occurrences(path, doc.text)


def _scopes(repo: GemstackRepo, path: str, kind: str) -> list[list[str]]:
    """Where to look for an identifier of ``kind`` named in ``path``: nearest scope first."""
    feature = repo.feature_of(path)
    everything = _repo_files(repo)
    if feature is not None and kind in FEATURE_KINDS | {"string"}:
        own = _feature_files(feature)
        return [own, [p for p in everything if p not in own]]
    if feature is not None:
        own = [*_feature_files(feature), *REGISTRY_FILES]
        return [own, [p for p in everything if p not in own]]
    return [everything]


def _kinds_of(repo: GemstackRepo, occ: Occurrence) -> set[str]:
    """The kinds an occurrence may be: its own, or for a bare string every kind declared with its value."""
    if occ.kind != "string":
        return {occ.kind}
    kinds = {
        o.kind
        for o in _occurrences_in(repo, _repo_files(repo))
        if o.declaration and o.value == occ.value and o.kind != "path"
    }
    return kinds


def definitions(repo: GemstackRepo, path: str, occ: Occurrence) -> list[Occurrence]:
    """Where the identifier ``occ`` (found in ``path``) is declared, nearest scope first.

    A path's definition is the file it names (an empty span at its start) when it exists.
    """
    if occ.kind == "path":
        target = normalize_relpath(occ.value)
        if not target or ".." in target.split("/") or occ.value.startswith(("/", "\\")):
            return []
        if repo.document(target).readable:
            return [Occurrence(target, Span(0, 0), "path", target, True)]
        return []
    kinds = _kinds_of(repo, occ)
    for scope in _scopes(repo, path, occ.kind if occ.kind != "string" else "string"):
        found = [o for o in _occurrences_in(repo, scope) if o.declaration and o.value == occ.value and o.kind in kinds]
        if found:
            # From a re-declaration (a contract inherited in plan.md), go to the others.
            others = [o for o in found if not (o.path == path and o.span == occ.span)]
            return others or found
    return []


def references(repo: GemstackRepo, path: str, occ: Occurrence, include_declaration: bool = True) -> list[Occurrence]:
    """Every mention of ``occ``'s identifier in its scope (the holding feature, or the repository)."""
    kinds = _kinds_of(repo, occ) if occ.kind == "string" else {occ.kind}
    if not kinds:
        return []
    scopes = _scopes(repo, path, occ.kind)
    files = scopes[0] if any(k in FEATURE_KINDS for k in kinds) and len(scopes) > 1 else _repo_files(repo)
    out = []
    for o in _occurrences_in(repo, files):
        if o.value != occ.value:
            continue
        if o.kind not in kinds and o.kind != "string":
            continue
        if o.declaration and not include_declaration:
            continue
        out.append(o)
    return out


def document_links(repo: GemstackRepo, path: str, text: str) -> list[Occurrence]:
    """The paths ``text`` names that resolve to files of the repository."""
    out = []
    for occ in file_occurrences(path, text):
        if occ.kind != "path":
            continue
        target = definitions(repo, path, occ)
        if target:
            out.append(Occurrence(path, occ.span, "path", target[0].path))
    return out


@dataclass(frozen=True)
class SymbolEntry:
    """One workspace symbol: an outline item of a feature document, or the feature itself."""

    name: str
    kind: str
    path: str
    span: Span
    container: str


def _fuzzy(query: str, name: str) -> bool:
    """Every character of ``query`` appears in ``name`` in order (case-insensitive)."""
    if not query:
        return True
    it = iter(name.lower())
    return all(ch in it for ch in query.lower())


def workspace_symbols(repo: GemstackRepo, query: str) -> list[SymbolEntry]:
    """The features and the ids they declare (contracts, tests, tasks, actions, providers) matching ``query``."""
    out: list[SymbolEntry] = []
    for feature in repo.features():
        spec = repo.document(feature.spec)
        if _fuzzy(query, feature.name):
            first = outline(feature.spec, spec.text)[0].selection if spec.text else Span(0, 0)
            out.append(
                SymbolEntry(feature.name, "feature", feature.spec if spec.exists else feature.path, first, "specs")
            )
        for path in (feature.spec, feature.plan, feature.tasks):
            doc = repo.document(path)
            if doc.text is None:
                continue
            for top in outline(path, doc.text):
                for item in top.walk():
                    if item.kind in ("heading", "block", "key"):
                        continue
                    if _fuzzy(query, item.name):
                        out.append(SymbolEntry(item.name, item.kind, path, item.selection, feature.name))
    return out


# ---------------------------------------------------------------------------------------------
# LSP


def _location(server: Any, root: str, repo: GemstackRepo, occ: Occurrence) -> lsp.Location:
    session = session_of(server)
    doc = repo.document(occ.path)
    source = doc.source or SourceText("")
    return lsp.Location(
        uri=session.uri_of(root, occ.path),
        range=convert.to_range(source, occ.span, session.encoding),
    )


def _target(server: Any, uri: str, position: lsp.Position) -> tuple[str, GemstackRepo, str, Occurrence] | None:
    """(root, snapshot, path, occurrence) under the cursor, or ``None``."""
    if not feature_enabled(server, uri, "navigation"):
        return None
    view = document_view(server, uri)
    if view is None or view.root is None or view.rel is None:
        return None
    offset = convert.to_offset(view.source, position, view.encoding)
    occ = occurrence_at(view.rel, view.text, offset)
    if occ is None:
        return None
    repo = session_of(server).snapshot(view.root)
    return view.root, repo, view.rel, occ


def _tooltips(server: Any) -> bool:
    try:
        td = server.client_capabilities.text_document
        return bool(td and td.document_link and td.document_link.tooltip_support)
    except Exception:
        return False


def register(server: LanguageServer) -> None:
    """Install definition, references, document links and workspace symbols."""

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def _definition(ls: Any, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
        found = _target(ls, params.text_document.uri, params.position)
        if found is None:
            return None
        root, repo, path, occ = found
        return [_location(ls, root, repo, d) for d in definitions(repo, path, occ)] or None

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    def _references(ls: Any, params: lsp.ReferenceParams) -> list[lsp.Location] | None:
        found = _target(ls, params.text_document.uri, params.position)
        if found is None:
            return None
        root, repo, path, occ = found
        refs = references(repo, path, occ, params.context.include_declaration)
        return [_location(ls, root, repo, r) for r in refs] or None

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_LINK)
    def _document_link(ls: Any, params: lsp.DocumentLinkParams) -> list[lsp.DocumentLink] | None:
        uri = params.text_document.uri
        if not feature_enabled(ls, uri, "navigation"):
            return None
        view = document_view(ls, uri)
        if view is None or view.root is None or view.rel is None:
            return None
        repo = session_of(ls).snapshot(view.root)
        links = []
        for occ in document_links(repo, view.rel, view.text):
            links.append(
                lsp.DocumentLink(
                    range=convert.to_range(view.source, occ.span, view.encoding),
                    target=session_of(ls).uri_of(view.root, occ.value),
                    tooltip=occ.value if _tooltips(ls) else None,
                )
            )
        return links

    @server.feature(lsp.WORKSPACE_SYMBOL)
    def _workspace_symbol(ls: Any, params: lsp.WorkspaceSymbolParams) -> list[lsp.SymbolInformation]:
        session = session_of(ls)
        out: list[lsp.SymbolInformation] = []
        for root in session.roots():
            if not session.settings_for_root(root).navigation:
                continue
            repo = session.snapshot(root)
            for entry in workspace_symbols(repo, params.query):
                doc = repo.document(entry.path)
                source = doc.source or SourceText("")
                out.append(
                    lsp.SymbolInformation(
                        name=entry.name,
                        kind=SYMBOL_KINDS[entry.kind],
                        location=lsp.Location(
                            uri=session.uri_of(root, entry.path),
                            range=convert.to_range(source, entry.span, session.encoding),
                        ),
                        container_name=f"{os.path.basename(root)}/{entry.container}",
                    )
                )
        return out
