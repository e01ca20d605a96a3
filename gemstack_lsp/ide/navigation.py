"""Navigation: go to definition, find references and document links, as plain data.

Every Gemstack identifier a file names is an ``Occurrence``: a contract id, a test id, a task
id, a billable action, a provider, a capability, or a repository path. Declarations are where
the identifier is defined (the ``"id"`` of a contract in ``gemstack-contracts``, a test in
``gemstack-test-matrix``, a task header in tasks.md, a provider in ``gemstack-capabilities`` or
in a ledger's ``providers`` map...); every other mention is a reference (a test binding's
``test_id``, ``gemstack:tests=``, ``depends=``, the capsule's and closure evidence's strings).
An id mentioned in a Markdown document's prose (a contract id in backticks in one of plan.md's
tables, a test or task id in a sentence) is no occurrence of the index, but the cursor on it
resolves like a capsule string: by value, to what declares it.

Scope, like marksman's per-folder index: contract, test, task and action ids are looked up in
the feature that holds the document (spec, plan, tasks, capsule, closure, ledger), then in the
rest of the repository; providers and capabilities repository-wide. Strings of the capsule
and of closure.json have no kind of their own: they are matched by value.

``file_occurrences(path, text)`` is a pure function of one document (``per_text``); the
``OccurrenceIndex`` over every file of a snapshot is built once per revision
(``occurrence_index``) and shared by definitions, references, links and completion.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jsonspan import JsonArray, JsonNode, JsonObject, JsonString, iter_nodes, parse_json
from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.reader import normalize_relpath
from gemstack_lsp.core.repo import CAPSULE_NAME, CLOSURE_NAME, LEDGER_NAME, Document, Feature
from gemstack_lsp.core.tasks import parse_tasks
from gemstack_lsp.core.text import Span
from gemstack_lsp.host import Snapshot
from gemstack_lsp.host.cancel import check_cancelled
from gemstack_lsp.ide.outline import gemstack_blocks, item_refs

__all__ = [
    "FEATURE_KINDS",
    "REGISTRY_FILES",
    "Occurrence",
    "OccurrenceIndex",
    "definitions",
    "document_links",
    "file_occurrences",
    "occurrence_at",
    "occurrence_index",
    "references",
    "target_at",
]

#: Repository-level provider registries (reference load order after the feature's ledger).
REGISTRY_FILES = (LEDGER_NAME, f".gemstack/{LEDGER_NAME}", ".gemstack/providers.json")

#: Kinds whose ids live per feature (the same id may mean different things in two features).
FEATURE_KINDS = frozenset({"contract", "test", "task", "action"})


@dataclass(frozen=True, slots=True)
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


def _block_occurrences(path: str, text: str) -> Iterator[Occurrence]:
    name = path.rsplit("/", 1)[-1]
    for block in gemstack_blocks(text):
        root = block.result.value
        if not isinstance(root, JsonArray):
            continue
        for item in root.items:
            for ref, s in item_refs(block.kind, item):
                yield Occurrence(path, s.span, ref.symbol, s.value, ref.declares_in(name))


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


@per_text
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
    """The identifier of a block, a task or an artifact under ``offset`` (a cursor just after it counts)."""
    return _occurrence_in(file_occurrences(path, text), offset)


def _occurrence_in(occurrences: Iterable[Occurrence], offset: int) -> Occurrence | None:
    for occ in occurrences:
        if occ.span.contains(offset):
            return occ
    return None


# ---------------------------------------------------------------------------------------------
# Across the repository


def _feature_files(feature: Feature) -> tuple[str, ...]:
    return (feature.spec, feature.plan, feature.tasks, feature.capsule, feature.closure, feature.ledger)


@record
class OccurrenceIndex:
    """Every occurrence of a snapshot's files, by file and by value (each in file order).

    ``files`` lists the files navigation reads, in order: each feature's documents, then the
    repository-level registries. ``by_value`` keeps that order, so a filtered list reads as if
    the files had been scanned one after the other.
    """

    files: tuple[str, ...]
    by_file: Mapping[str, tuple[Occurrence, ...]]
    by_value: Mapping[str, tuple[Occurrence, ...]]

    def declared_kinds(self, value: str) -> frozenset[str]:
        """The kinds (other than paths) something is declared as under the name ``value``."""
        return frozenset(o.kind for o in self.by_value.get(value, ()) if o.declaration and o.kind != "path")


def _build_index(snapshot: Snapshot) -> OccurrenceIndex:
    repo = snapshot.repo
    files: list[str] = []
    for feature in repo.features():
        files.extend(_feature_files(feature))
    files.extend(REGISTRY_FILES)
    by_file: dict[str, tuple[Occurrence, ...]] = {}
    by_value: dict[str, list[Occurrence]] = {}
    for n, path in enumerate(files, 1):
        if path in by_file:
            continue
        if n % 64 == 0:
            check_cancelled()
            snapshot.retain()  # a walk over every file holds no more parses than one analysis
        found = kept_occurrences(snapshot, path)
        by_file[path] = found
        for occ in found:
            by_value.setdefault(occ.value, []).append(occ)
    return OccurrenceIndex(tuple(files), by_file, {k: tuple(v) for k, v in by_value.items()})


def _document_occurrences(doc: Document) -> tuple[Occurrence, ...]:
    return file_occurrences(doc.path, doc.text) if doc.text is not None else ()


def kept_occurrences(snapshot: Snapshot, path: str) -> tuple[Occurrence, ...]:
    """The occurrences of one file, kept by the host while the file is unchanged (across
    revisions): an index of a new revision reads again only the files that changed."""
    return snapshot.per_document(path, ("ide.occurrences",), _document_occurrences)


def index_feature(snapshot: Snapshot, feature: str) -> None:
    """Bring the occurrences of one feature's files up to date (an ``AnalysisHost.unit_hooks``
    entry: called after the feature's analysis, while its parses are at hand)."""
    for path in _feature_files(Feature(feature)):
        kept_occurrences(snapshot, path)


def occurrence_index(snapshot: Snapshot) -> OccurrenceIndex:
    """The occurrence index of ``snapshot``, built once per revision."""
    return snapshot.derived(("ide.occurrence-index",), _build_index)


def document_occurrences(snapshot: Snapshot, path: str) -> tuple[Occurrence, ...]:
    """The occurrences of the document at ``path`` as of ``snapshot`` (any file, indexed or not)."""
    found = occurrence_index(snapshot).by_file.get(path)
    if found is not None:
        return found

    def compute(snap: Snapshot) -> tuple[Occurrence, ...]:
        text = snap.repo.document(path).text
        return file_occurrences(path, text) if text is not None else ()

    return snapshot.derived(("ide.occurrences", path), compute)


#: An id in prose: the characters ids are made of (contract, test, task, action, capability).
_PROSE_ID = re.compile(r"[A-Za-z0-9_.:\-]")


def _prose_word(text: str, offset: int) -> tuple[str, Span] | None:
    start = offset
    while start > 0 and _PROSE_ID.match(text[start - 1]):
        start -= 1
    end = offset
    while end < len(text) and _PROSE_ID.match(text[end]):
        end += 1
    raw = text[start:end]
    word = raw.strip(".:-")
    if not word:
        return None
    lead = start + raw.index(word)
    return word, Span(lead, lead + len(word))


def target_at(snapshot: Snapshot, path: str, offset: int) -> Occurrence | None:
    """The identifier under ``offset`` in the document at ``path``: an occurrence of the index,
    or in a Markdown document an id its prose mentions (matched by value, like a capsule string)."""
    occ = _occurrence_in(document_occurrences(snapshot, path), offset)
    if occ is not None or not path.endswith(".md"):
        return occ
    text = snapshot.repo.document(path).text
    if text is None:
        return None
    found = _prose_word(text, offset)
    if found is None:
        return None
    word, span = found
    if not occurrence_index(snapshot).declared_kinds(word):
        return None
    return Occurrence(path, span, "string", word)


def _scopes(snapshot: Snapshot, path: str, kind: str) -> list[frozenset[str]]:
    """Where to look for an identifier of ``kind`` named in ``path``: nearest scope first."""
    everything = frozenset(occurrence_index(snapshot).files)
    feature = snapshot.repo.feature_of(path)
    if feature is not None and kind in FEATURE_KINDS | {"string"}:
        own = frozenset(_feature_files(feature))
        return [own, everything - own]
    if feature is not None:
        own = frozenset((*_feature_files(feature), *REGISTRY_FILES))
        return [own, everything - own]
    return [everything]


def _kinds_of(index: OccurrenceIndex, occ: Occurrence) -> frozenset[str]:
    """The kinds an occurrence may be: its own, or for a bare string every kind declared with its value."""
    if occ.kind != "string":
        return frozenset({occ.kind})
    return index.declared_kinds(occ.value)


def definitions(snapshot: Snapshot, path: str, occ: Occurrence) -> list[Occurrence]:
    """Where the identifier ``occ`` (found in ``path``) is declared, nearest scope first.

    A path's definition is the file it names (an empty span at its start) when it exists.
    """
    if occ.kind == "path":
        target = normalize_relpath(occ.value)
        if not target or ".." in target.split("/") or occ.value.startswith(("/", "\\")):
            return []
        if snapshot.repo.document(target).readable:
            return [Occurrence(target, Span(0, 0), "path", target, True)]
        return []
    index = occurrence_index(snapshot)
    kinds = _kinds_of(index, occ)
    candidates = [o for o in index.by_value.get(occ.value, ()) if o.declaration and o.kind in kinds]
    for scope in _scopes(snapshot, path, occ.kind):
        found = [o for o in candidates if o.path in scope]
        if found:
            # From a re-declaration (a contract inherited in plan.md), go to the others.
            others = [o for o in found if not (o.path == path and o.span == occ.span)]
            return others or found
    return []


def references(snapshot: Snapshot, path: str, occ: Occurrence, include_declaration: bool = True) -> list[Occurrence]:
    """Every mention of ``occ``'s identifier in its scope (the holding feature, or the repository)."""
    index = occurrence_index(snapshot)
    kinds = _kinds_of(index, occ)
    if not kinds:
        return []
    scopes = _scopes(snapshot, path, occ.kind)
    files = scopes[0] if any(k in FEATURE_KINDS for k in kinds) and len(scopes) > 1 else frozenset(index.files)
    out = []
    for o in index.by_value.get(occ.value, ()):
        if o.path not in files:
            continue
        if o.kind not in kinds and o.kind != "string":
            continue
        if o.declaration and not include_declaration:
            continue
        out.append(o)
    return out


def document_links(snapshot: Snapshot, path: str) -> tuple[Occurrence, ...]:
    """The paths the document at ``path`` names that resolve to files of the repository;
    each link's ``value`` is the repository-relative path of its target."""

    def compute(snap: Snapshot) -> tuple[Occurrence, ...]:
        out = []
        for occ in document_occurrences(snap, path):
            if occ.kind != "path":
                continue
            target = definitions(snap, path, occ)
            if target:
                out.append(Occurrence(path, occ.span, "path", target[0].path))
        return tuple(out)

    return snapshot.derived(("ide.links", path), compute)
