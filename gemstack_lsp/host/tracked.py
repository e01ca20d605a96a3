"""A repository as one snapshot sees it, recording what each unit of analysis reads.

``SnapshotRepo`` is the ``GemstackRepo`` the host hands to the checks: it serves the buffers
the snapshot was taken with, then the disk through the host's ``FileStore``. While a unit of
analysis runs inside ``tracking()``, every document it asks for and every folder it lists is
recorded: those are the unit's dependencies, and a later change to any of them, and only
then, makes the unit run again. Repository-level facts every unit shares (state.json parsed,
the active feature, the list of features) are computed once per snapshot, and each unit that
uses one still records what that fact was computed from.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextvars import ContextVar
from typing import TypeVar

from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.reader import DirEntry, FileContent, GitCommit, RepositoryState, normalize_relpath
from gemstack_lsp.core.repo import SPECS_DIR, Document, Feature, GemstackRepo, is_feature_name
from gemstack_lsp.core.state import GemstackState
from gemstack_lsp.host.files import REPOSITORY_STATE, FileStore, listing_key

T = TypeVar("T")


class _Scope:
    """What one unit of analysis read, and the documents it saw (one answer per path)."""

    def __init__(self, docs: dict[str, Document] | None = None) -> None:
        self.deps: set[str] = set()
        self.docs: dict[str, Document] = {} if docs is None else docs


@record
class _Part:
    """A piece of a unit (``GemstackRepo.part``): its value, what it read, and the revision of
    the snapshot it was computed in."""

    value: object
    deps: frozenset[str]
    revision: int
    #: The store's epoch it was computed in (options and the day are the same within one).
    epoch: int


class PartStore:
    """The pieces of units a host keeps across revisions: one entry per key (a fixed, small set
    of names per repository), replaced when recomputed, never accumulated.

    ``clear`` starts a new epoch (the options changed, a new day began, anything may have
    changed on disk): a snapshot uses and keeps only the parts of the epoch it was taken in."""

    def __init__(self) -> None:
        self._parts: dict[Hashable, _Part] = {}
        self._lock = threading.Lock()
        self.epoch = 0
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, epoch: int) -> _Part | None:
        found = self._parts.get(key)
        return found if found is not None and found.epoch == epoch else None

    def put(self, key: Hashable, part: _Part) -> None:
        with self._lock:
            found = self._parts.get(key)
            if part.epoch == self.epoch and (found is None or found.revision <= part.revision):
                self._parts[key] = part

    def clear(self) -> None:
        with self._lock:
            self._parts.clear()
            self.epoch += 1

    def __len__(self) -> int:
        return len(self._parts)


_SCOPE: ContextVar[_Scope | None] = ContextVar("gemstack_tracking_scope", default=None)
#: Where the feature folders are: a path below holds one feature's file.
_FEATURE_FOLDERS = SPECS_DIR + "/"


class _TrackingReader:
    """The reader of a ``SnapshotRepo``: buffers, then the store; listings are recorded."""

    def __init__(self, repo: SnapshotRepo) -> None:
        self._repo = repo

    def read(self, path: str) -> FileContent:
        return self._repo.document(path).content

    def list_dir(self, path: str) -> list[DirEntry] | None:
        return self._repo.list_dir(path)

    def repository_state(self) -> RepositoryState:
        return self._repo.repository_state()

    def recent_commits(self, limit: int) -> tuple[GitCommit, ...] | None:
        return self._repo.recent_commits(limit)


class SnapshotRepo(GemstackRepo):
    """The repository of one snapshot: its buffers, then the disk, with dependency tracking."""

    def __init__(
        self,
        root: str,
        store: FileStore,
        buffers: Mapping[str, Document],
        *,
        revision: int = 0,
        parts: PartStore | None = None,
    ) -> None:
        super().__init__(root, _TrackingReader(self))
        self._store = store
        self._buffer_docs = dict(buffers)
        self._revision = revision
        self._parts = parts
        self._epoch = parts.epoch if parts is not None else 0
        self._lock = threading.Lock()
        #: Shared facts of this snapshot: name -> (value, the dependencies it was computed from).
        self._facts: dict[str, tuple[object, frozenset[str]]] = {}
        #: The documents outside feature folders this snapshot has read (state.json, the root
        #: ledger, providers.json, files that blocks name): every unit reads them, and a
        #: snapshot sees one version of each. Bounded by the repository's files.
        self._shared_docs: dict[str, Document] = {}

    @property
    def buffers(self) -> Mapping[str, Document]:
        return self._buffer_docs

    # --- tracking ----------------------------------------------------------------------

    @contextlib.contextmanager
    def tracking(self) -> Iterator[set[str]]:
        """Record what the code in the block reads; yields the set of dependencies."""
        scope = _Scope()
        token = _SCOPE.set(scope)
        try:
            yield scope.deps
        finally:
            _SCOPE.reset(token)

    @staticmethod
    def _note(key: str) -> _Scope | None:
        scope = _SCOPE.get()
        if scope is not None:
            scope.deps.add(key)
        return scope

    def _fact(self, name: str, compute: Callable[[], T]) -> T:
        """A fact shared by every unit of this snapshot; each caller records its dependencies."""
        found = self._facts.get(name)
        if found is None:
            with self.tracking() as deps:
                value = compute()
            found = (value, frozenset(deps))
            with self._lock:
                found = self._facts.setdefault(name, found)
        scope = _SCOPE.get()
        if scope is not None:
            scope.deps.update(found[1])
        return found[0]  # type: ignore[return-value]

    def _unchanged(self, deps: frozenset[str], revision: int) -> bool:
        """True when none of ``deps`` changed after ``revision`` (and this snapshot's)."""
        limit = min(revision, self._revision)
        changed_at = self._store.changed_at
        return all(changed_at(d) <= limit for d in deps)

    def part(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The piece ``key`` of a unit, kept by the host while nothing it read changed: reused
        when every path and listing it read is as it was when it was computed (each caller
        still records those as its own dependencies), else computed again in a scope of its own
        (what it reads is its dependencies, and the enclosing unit's)."""
        parts = self._parts
        outer = _SCOPE.get()
        if parts is None:
            return compute()
        found = parts.get(key, self._epoch)
        if found is not None and self._unchanged(found.deps, found.revision):
            parts.hits += 1
            if outer is not None:
                outer.deps.update(found.deps)
            return found.value  # type: ignore[return-value]
        parts.misses += 1
        scope = _Scope(outer.docs if outer is not None else None)
        token = _SCOPE.set(scope)
        try:
            value = compute()
        finally:
            _SCOPE.reset(token)
        deps = frozenset(scope.deps)
        if outer is not None:
            outer.deps.update(deps)
        if self._unchanged(deps, self._revision):
            parts.put(key, _Part(value, deps, self._revision, self._epoch))
        return value

    # --- GemstackRepo ------------------------------------------------------------------

    def document(self, path: str) -> Document:
        rel = normalize_relpath(path)
        scope = self._note(rel)
        if scope is not None:
            doc = scope.docs.get(rel)
            if doc is None:
                doc = scope.docs[rel] = self._read(rel)
            return doc
        return self._read(rel)

    def _read(self, rel: str) -> Document:
        doc = self._buffer_docs.get(rel)
        if doc is not None:
            return doc
        if rel.startswith(_FEATURE_FOLDERS):
            return self._store.disk_document(rel)  # one unit's: read (and kept) once by the store
        doc = self._shared_docs.get(rel)
        if doc is None:
            doc = self._shared_docs.setdefault(rel, self._store.disk_document(rel))
        return doc

    def list_dir(self, path: str) -> list[DirEntry] | None:
        rel = normalize_relpath(path)
        self._note(listing_key(rel))
        return _merged(self._store.list_dir(rel), _buffer_entries(self._buffer_docs, rel))

    def features(self) -> list[Feature]:
        return list(self.shared_features())

    def shared_features(self) -> list[Feature]:
        """``features()`` without the copy: the list the store keeps while the feature list is
        unchanged, the very same object from one snapshot to the next (never to be modified)."""
        return self._fact("features", self._feature_list)

    def _feature_list(self) -> list[Feature]:
        """The feature list, kept by the store from one snapshot to the next while the store
        serves the very same listing of specs/ and the buffers name no folder it lacks (at
        2,000 features, building it again cost a few milliseconds a keystroke)."""
        rel = normalize_relpath(SPECS_DIR)
        self._note(listing_key(rel))
        disk = self._store.list_dir(rel)
        extra = _buffer_entries(self._buffer_docs, rel)
        kept = self._store.features_kept
        if disk is not None and kept is not None and kept[0] is disk and all(e.name in kept[1] for e in extra):
            return kept[2]
        entries = _merged(disk, extra) or []
        value = [Feature(e.name) for e in entries if e.is_dir and is_feature_name(e.name)]
        if disk is not None:
            names = frozenset(e.name for e in disk)
            if all(e.name in names for e in extra):
                self._store.features_kept = (disk, names, value)
        return value

    def state(self) -> GemstackState | None:
        return self._fact("state", lambda: GemstackRepo.state(self))

    def active_feature(self) -> Feature | None:
        return self._fact("active", lambda: GemstackRepo.active_feature(self))

    def repository_state(self) -> RepositoryState:
        """Git's view of the working tree, where a buffer that differs from its file makes the
        tree dirty (as it would be once saved)."""
        return self._fact("repository", self._repository_state)

    def recent_commits(self, limit: int) -> tuple[GitCommit, ...] | None:
        """The newest commits (Git's state: a unit that asks depends on it)."""
        self._note(REPOSITORY_STATE)
        return self._store.recent_commits(limit)

    def _repository_state(self) -> RepositoryState:
        self._note(REPOSITORY_STATE)
        state = self._store.repository_state()
        if state.type != "git" or state.working_tree_clean is not True:
            return state
        for rel, doc in self._buffer_docs.items():
            self._note(rel)
            on_disk = self._store.disk_document(rel)
            if not on_disk.content.ok or on_disk.data != doc.data:
                return RepositoryState(state.type, state.commit, False, state.known)
        return state


def _merged(disk: list[DirEntry] | None, extra: list[DirEntry]) -> list[DirEntry] | None:
    """A folder's entries on disk and those only open buffers hold, sorted by name."""
    if disk is None and not extra:
        return None
    merged = {e.name: e for e in extra}
    merged.update({e.name: e for e in disk or []})
    return [merged[k] for k in sorted(merged)]


def _buffer_entries(buffers: Mapping[str, Document], directory: str) -> list[DirEntry]:
    """Entries of ``directory`` that exist only as open buffers (a new file not yet saved)."""
    prefix = directory + "/" if directory else ""
    out: dict[str, DirEntry] = {}
    for rel in buffers:
        if not rel.startswith(prefix):
            continue
        name, sep, _ = rel[len(prefix) :].partition("/")
        if name:
            out.setdefault(name, DirEntry(name, is_dir=bool(sep), is_file=not sep))
    return list(out.values())


__all__ = ["SPECS_DIR", "PartStore", "SnapshotRepo"]
