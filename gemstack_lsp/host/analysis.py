"""The analysis host of one repository root: inputs, revisions, and what is derived from them.

The host is the only owner of derived data. Its inputs are file contents (``FileStore``: the
disk, and editor buffers over it); every change bumps the revision. What it derives is kept
per unit of analysis (``core.rules``: one unit per feature, one for the repository-level
files): a unit's result is kept with the set of paths and folder listings the unit read
while it ran, and a change to one of them, and only that, marks the unit stale. An edit to one
spec therefore re-runs that feature alone (plus the repository unit when it read the file);
an edit to ``.gemstack/state.json`` re-runs exactly the units that read it. Inside a unit,
its parts (``GemstackRepo.part``) are kept the same way (``PartStore``): the repository unit,
which re-runs on every edit of the active feature's documents, redoes only the part that read
them.

The findings of the repository are kept grouped by file, and a file's group is rebuilt only
when a unit that reports on it ran again: publishing, the CLI and the IDE layer read the
groups of one ``Snapshot``, which is immutable once taken.

Memory is bounded by the repository: unit results (findings) and per-document summaries are
kept per path and replaced, never accumulated; texts and their parses are kept only for open
buffers (and their previous version) and a bounded number of recently read files; the memo of
parses forgets every text the store no longer holds.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.identity import is_gemstack_repository
from gemstack_lsp.core.memo import Memo
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.reader import Reader, normalize_relpath
from gemstack_lsp.core.repo import Feature
from gemstack_lsp.core.rules import UnitResult, analyze_feature, analyze_repository, combine
from gemstack_lsp.host.cancel import check_cancelled
from gemstack_lsp.host.files import FileStore
from gemstack_lsp.host.snapshot import Snapshot
from gemstack_lsp.host.tracked import PartStore, SnapshotRepo

T = TypeVar("T")

#: During a long analysis the memo forgets unheld texts after this many units. Often: what a
#: unit made is freed while it is still in the processor's caches (``check`` of 500 features
#: spent 6 to 9 % less after every second unit than after every sixteenth).
RETAIN_EVERY = 2

#: The key of the repository-level unit (feature units are keyed by the feature's name).
REPOSITORY_UNIT = ""
#: What one unit reports on one file: (findings, cost findings, findings reported only in a
#: Gemstack repository).
Contribution = tuple[tuple[Finding, ...], tuple[Finding, ...], tuple[Finding, ...]]


@record
class StoredUnit:
    """One unit's result, the revision it was computed at and what it read."""

    key: str
    result: UnitResult
    revision: int
    deps: frozenset[str]
    #: The findings grouped by path: (findings, cost findings, findings reported only in a
    #: Gemstack repository) per file.
    by_path: Mapping[str, Contribution]


@dataclass
class HostStats:
    """Counters for tests and benchmarks."""

    units_computed: int = 0
    units_reused: int = 0
    groups_rebuilt: int = 0


class AnalysisHost:
    """Owns the inputs of one repository (disk files and editor buffers) and everything derived.

    Mutations (``set_buffer``, ``remove_buffer``, ``file_changed``, ``set_options``) bump the
    revision; ``snapshot()`` gives the immutable view of the current revision. Mutations come
    from one thread (the server's event loop, or the CLI); snapshots may be read and their
    units computed on worker threads.
    """

    def __init__(
        self,
        root: str,
        disk: Reader,
        options: AnalysisOptions | None = None,
        *,
        recent_documents: int | None = None,
    ) -> None:
        self.root = root
        self.options = options or AnalysisOptions()
        self.memo = Memo()
        self.revision = 0
        self.stats = HostStats()
        kwargs = {} if recent_documents is None else {"recent": recent_documents}
        self.files = FileStore(disk, root, **kwargs)
        self._lock = threading.RLock()
        self._snapshot: Snapshot | None = None
        self._units: dict[str, StoredUnit] = {}
        self._stale: set[str] = set()
        #: The unit keys of the last feature list (``unit_keys``): (that list, its keys, as a set).
        self._keys: tuple[list[Feature], tuple[str, ...], frozenset[str]] | None = None
        #: Keys every one of which has a stored result (``_all_current``), until one is dropped.
        self._all_stored: tuple[str, ...] | None = None
        #: Dependency (path or listing key) -> the units that read it.
        self._dependents: dict[str, set[str]] = {}
        #: Path -> unit -> (findings, cost findings, Gemstack-only findings) that unit reports
        #: on the path.
        self._contrib: dict[str, dict[str, Contribution]] = {}
        self._groups: dict[str, tuple[Finding, ...]] = {}
        #: Every file's findings as ``groups`` last returned them (in path order), and the paths
        #: whose group was dropped since: the next ``groups`` rebuilds only those. ``None``:
        #: rebuilt in full (every group was dropped).
        self._all_groups: dict[str, tuple[Finding, ...]] | None = None
        self._dropped: set[str] = set()
        #: Unit -> the paths its last two results reported on (what publishing must look at).
        self._touched: dict[str, frozenset[str]] = {}
        self._declaring: set[str] = set()
        #: The units whose files make the repository a Gemstack repository (``UnitResult.gemstack``).
        self._gemstack: set[str] = set()
        #: The date the units were computed for (ledger staleness is counted in days).
        self._day: dt.date | None = None
        #: (path, key) -> (change revision of the path, value): per-document summaries.
        self._per_document: dict[tuple[str, Hashable], tuple[int, Any]] = {}
        #: The pieces of units (``GemstackRepo.part``) kept while what they read is unchanged.
        self.parts = PartStore()
        #: Called with (snapshot, feature name) after a feature unit ran, while the parses of
        #: its documents are at hand: the IDE layer keeps its per-document summaries (the
        #: workspace-symbol index) current here, so no query has to build them.
        self.unit_hooks: list[Callable[[Snapshot, str], None]] = []

    # --- inputs ------------------------------------------------------------------------

    @property
    def buffers(self) -> Mapping[str, str]:
        """The texts of the open buffers, by repository-relative path."""
        return self.files.buffer_texts()

    def set_buffer(self, rel: str, text: str) -> None:
        """An editor buffer now holds ``text`` for the file at ``rel`` (it wins over the disk)."""
        with self._lock:
            changed = self.files.set_buffer(rel, text, self.revision + 1)
            if changed:
                self._bump(changed)

    def remove_buffer(self, rel: str) -> None:
        """The buffer of ``rel`` was closed: the disk is the truth again."""
        with self._lock:
            changed = self.files.remove_buffer(rel, self.revision + 1)
            if changed:
                self._bump(changed)

    def file_changed(self, rel: str | None = None) -> None:
        """The file or folder at ``rel`` changed on disk (``None``: anything may have)."""
        with self._lock:
            changed = self.files.invalidate(rel, self.revision + 1)
            if rel is None:
                self._stale.update(self._units)
                self.parts.clear()
            self._bump(changed)

    def set_options(self, options: AnalysisOptions) -> None:
        with self._lock:
            if options != self.options:
                self.options = options
                self._stale.update(self._units)
                self.parts.clear()
                self._bump([])

    def _bump(self, changed: Iterable[str]) -> None:
        self.revision += 1
        self._snapshot = None
        for key in changed:
            self._stale.update(self._dependents.get(key, ()))

    # --- snapshots ---------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        """The immutable view of the current revision (the same object until the next change)."""
        with self._lock:
            today = self.options.clock().date()
            if self._day != today:
                # Staleness of ledgers is counted in days: a new day may change any unit.
                if self._day is not None:
                    self._stale.update(self._units)
                    self.parts.clear()
                    self.revision += 1
                    self._snapshot = None
                self._day = today
            if self._snapshot is None:
                repo = SnapshotRepo(
                    self.root, self.files, self.files.buffers(), revision=self.revision, parts=self.parts
                )
                self._snapshot = Snapshot(self, self.revision, repo, self.options)
            return self._snapshot

    def unit_keys(self, snap: Snapshot) -> tuple[str, ...]:
        """Every unit of a snapshot: the repository unit, then each feature's.

        Made again only when the feature list is another (the store keeps one list while the
        specs/ listing is unchanged): a keystroke at 2,000 features reuses the same keys."""
        return self._unit_keys(snap)[0]

    def unit_key_set(self, snap: Snapshot) -> frozenset[str]:
        """``unit_keys`` as a set."""
        return self._unit_keys(snap)[1]

    def _unit_keys(self, snap: Snapshot) -> tuple[tuple[str, ...], frozenset[str]]:
        repo = snap.repo
        if not isinstance(repo, SnapshotRepo):
            keys = (REPOSITORY_UNIT, *(f.name for f in repo.features()))
            return keys, frozenset(keys)
        features = repo.shared_features()
        kept = self._keys
        if kept is None or kept[0] is not features:
            keys = (REPOSITORY_UNIT, *(f.name for f in features))
            kept = self._keys = (features, keys, frozenset(keys))
        return kept[1], kept[2]

    def _all_current(self, keys: Sequence[str]) -> bool:
        """True when every unit of ``keys`` has a result and none is stale (under the lock): at
        2,000 features a keystroke asks this several times, and the answer is one comparison
        when the keys are the ones found complete before and no unit was dropped since."""
        if self._stale:
            return False
        if self._all_stored is keys:
            return True
        units = self._units
        if all(k in units for k in keys):
            if isinstance(keys, tuple):
                self._all_stored = keys
            return True
        return False

    def fresh(self, key: str) -> StoredUnit | None:
        """The stored result of a unit when nothing it read has changed since."""
        with self._lock:
            if key in self._stale:
                return None
            return self._units.get(key)

    def stale(self, keys: Iterable[str]) -> list[str]:
        """The units of ``keys`` (in order) that ``fresh`` has no result for, under one hold of
        the lock: at 2,000 features each keystroke asks this of every unit."""
        keys = keys if isinstance(keys, Sequence) else list(keys)
        with self._lock:
            if self._all_current(keys):
                return []
            stale, units = self._stale, self._units
            return [k for k in keys if k in stale or k not in units]

    def compute_unit(self, snap: Snapshot, key: str) -> StoredUnit:
        """Run one unit against a snapshot (outside the host's lock) and keep its result when
        it is still current."""
        repo = snap.repo
        assert isinstance(repo, SnapshotRepo)
        with self.memo.active(), repo.tracking() as deps:
            if key == REPOSITORY_UNIT:
                result = analyze_repository(repo, snap.options)
            else:
                result = analyze_feature(repo, Feature(key), snap.options)
        stored = StoredUnit(key, result, snap.revision, frozenset(deps), _by_path(result))
        if key != REPOSITORY_UNIT and self.unit_hooks:
            with self.memo.active():
                for hook in self.unit_hooks:
                    hook(snap, key)
        with self._lock:
            self.stats.units_computed += 1
            current = snap.revision == self.revision or all(
                self.files.changed_at(d) <= snap.revision for d in stored.deps
            )
            if current and key in snap.unit_set():  # a set: a linear search was O(features) a unit
                self._store(stored)
        return stored

    def adopt(self, snap: Snapshot, key: str, result: UnitResult, deps: frozenset[str]) -> None:
        """Keep a unit's result computed elsewhere (another process over the same inputs, at
        ``snap``'s revision), as ``compute_unit`` keeps its own."""
        stored = StoredUnit(key, result, snap.revision, deps, _by_path(result))
        with self._lock:
            self.stats.units_computed += 1
            if snap.revision == self.revision:
                self._store(stored)

    def _store(self, stored: StoredUnit) -> None:
        key = stored.key
        old = self._units.get(key)
        if old is not None:
            for dep in old.deps - stored.deps:
                users = self._dependents.get(dep)
                if users is not None:
                    users.discard(key)
                    if not users:
                        del self._dependents[dep]
        for dep in stored.deps:
            self._dependents.setdefault(dep, set()).add(key)
        self._units[key] = stored
        self._stale.discard(key)
        touched = set(stored.by_path) | (set(old.by_path) if old is not None else set())
        self._touched[key] = frozenset(touched)
        for path in touched:
            entry = stored.by_path.get(path)
            contributions = self._contrib.setdefault(path, {})
            if entry is None:
                contributions.pop(key, None)
                if not contributions:
                    del self._contrib[path]
            else:
                contributions[key] = entry
            self._drop_group(path)
        was = (bool(self._declaring), bool(self._gemstack))
        for units, member in ((self._declaring, stored.result.cost_declared), (self._gemstack, stored.result.gemstack)):
            if member:
                units.add(key)
            else:
                units.discard(key)
        if was != (bool(self._declaring), bool(self._gemstack)):
            # Cost findings appear or give way to the legacy notice; the repository becomes a
            # Gemstack repository or stops being one: any file's group may change.
            self._groups.clear()
            self._all_groups = None
        notice = self._notice_path()
        if notice is not None:
            self._drop_group(notice)
        if old is not None and old.result.legacy_notice is not None:
            self._drop_group(old.result.legacy_notice.path)

    def _drop_group(self, path: str) -> None:
        self._groups.pop(path, None)
        if self._all_groups is not None:
            self._dropped.add(path)

    def forget_units(self, keep: Iterable[str]) -> None:
        """Drop the results of units that no longer exist (a feature folder went away)."""
        keep = set(keep)
        with self._lock:
            for key in [k for k in self._units if k not in keep]:
                self._store(
                    StoredUnit(key, UnitResult(()), self.revision, frozenset(), {}),
                )
                del self._units[key]
                self._all_stored = None
                self._stale.discard(key)
                self._declaring.discard(key)
                self._gemstack.discard(key)
                for users in self._dependents.values():
                    users.discard(key)

    def _notice_path(self) -> str | None:
        repo_unit = self._units.get(REPOSITORY_UNIT)
        notice = repo_unit.result.legacy_notice if repo_unit is not None else None
        return notice.path if notice is not None else None

    # --- findings ----------------------------------------------------------------------

    def group(self, path: str) -> tuple[Finding, ...]:
        """The findings on one file from the units stored now (rebuilt only when one changed)."""
        with self._lock:
            found = self._groups.get(path)
            if found is not None:
                return found
            self.stats.groups_rebuilt += 1
            # Each unit's part on this file, and one more carrying what is repository-wide
            # (whether any unit declares a cost source; the legacy notice when it is here):
            # ``rules.combine`` of these is exactly the file's share of ``combine`` of all units.
            parts = [
                UnitResult(plain, cost, gemstack_only=gated)
                for plain, cost, gated in self._contrib.get(path, {}).values()
            ]
            notice_path = self._notice_path()
            notice = self._units[REPOSITORY_UNIT].result.legacy_notice if notice_path == path else None
            parts.append(
                UnitResult((), cost_declared=bool(self._declaring), legacy_notice=notice, gemstack=bool(self._gemstack))
            )
            group = tuple(combine(parts))
            self._groups[path] = group
            return group

    def paths_of(self, keys: Iterable[str]) -> set[str]:
        """The files whose findings the last computation of these units may have changed."""
        with self._lock:
            out: set[str] = set()
            for key in keys:
                out |= self._touched.get(key, frozenset())
            notice = self._notice_path()
            if notice is not None:
                out.add(notice)
            return out

    def is_gemstack(self, snap: Snapshot) -> bool:
        """Whether ``snap``'s repository is a Gemstack repository: from the stored units when
        they are all current at its revision, else from its files."""
        with self._lock:
            if snap.revision == self.revision and self._all_current(self.unit_keys(snap)):
                return bool(self._gemstack)
        return is_gemstack_repository(snap.repo)

    def _listed_notice(self) -> str | None:
        """The file of the legacy notice when it is reported (no unit declares a cost source,
        and the repository is a Gemstack repository)."""
        return None if self._declaring or not self._gemstack else self._notice_path()

    def paths_with_findings(self) -> list[str]:
        with self._lock:
            paths = set(self._contrib)
            notice = self._listed_notice()
            if notice is not None:
                paths.add(notice)
            return sorted(paths)

    def groups(self) -> dict[str, tuple[Finding, ...]]:
        """Every file's findings from the units stored now (``group`` of each path with
        findings, in path order, the empty ones left out), under one hold of the lock.

        Kept from one call to the next: only the files whose group a stored unit dropped since
        are grouped again (a keystroke at 2,000 features regroups the edited feature's files,
        not 2,000), and the paths are sorted again only when one gains its first finding."""
        with self._lock:
            full = self._all_groups
            if full is None:
                full = {}
                for path in self.paths_with_findings():
                    found = self.group(path)
                    if found:
                        full[path] = found
            elif self._dropped:
                notice = self._listed_notice()
                added = False
                for path in self._dropped:
                    found = self.group(path) if path in self._contrib or path == notice else ()
                    if found:
                        added = added or path not in full
                        full[path] = found
                    else:
                        full.pop(path, None)
                if added:
                    full = dict(sorted(full.items()))
            self._all_groups = full
            self._dropped = set()
            return dict(full)

    def retain_memo(self) -> None:
        """Forget parses of texts the store no longer holds."""
        self.memo.retain(self.files.live_texts())

    # --- per-document summaries ------------------------------------------------------------

    def per_document(self, snap: Snapshot, rel: str, key: Hashable, compute: Callable[[Any], T]) -> T:
        """A summary of one document (``compute(document)``), kept while the document is
        unchanged, across revisions. Summaries are small (symbols, ids): one per path and key."""
        rel = normalize_relpath(rel)
        changed = self.files.changed_at(rel)
        found = self._per_document.get((rel, key))
        if found is not None and found[0] == changed and changed <= snap.revision:
            return found[1]  # type: ignore[no-any-return]
        with self.memo.active():
            value = compute(snap.repo.document(rel))
        if changed <= snap.revision and self.files.changed_at(rel) == changed:
            self._per_document[(rel, key)] = (changed, value)
        return value

    def sizes(self) -> dict[str, int]:
        """How much the host holds (tests bound these by the repository, never by edits)."""
        with self._lock:
            return {
                "units": len(self._units),
                "groups": len(self._groups),
                "paths": len(self._contrib),
                "dependencies": len(self._dependents),
                "documents": self.files.kept,
                "memo_texts": self.memo.texts,
                "per_document": len(self._per_document),
                "parts": len(self.parts),
            }

    # --- whole analyses ------------------------------------------------------------------

    def analyze(self, snap: Snapshot, keys: Sequence[str] | None = None) -> None:
        """Make every unit (or ``keys``) of a snapshot current, computing the stale ones."""
        every = keys is None
        keys = self.unit_keys(snap) if keys is None else keys
        with self._lock:
            todo = self.stale(keys)
            self.stats.units_reused += len(keys) - len(todo)
        for n, key in enumerate(todo, 1):
            check_cancelled()  # a request that needs the analysis stops here when cancelled
            self.compute_unit(snap, key)
            if n % RETAIN_EVERY == 0 and n < len(todo):  # the last one is followed by a retain
                self.retain_memo()  # a long pass never holds more parses than a short one
        if every and len(self._units) > len(keys):
            self.forget_units(keys)
        if todo:
            self.retain_memo()


def _by_path(result: UnitResult) -> dict[str, Contribution]:
    kinds: tuple[dict[str, list[Finding]], ...] = ({}, {}, {})
    for found, kind in zip((result.findings, result.cost, result.gemstack_only), kinds, strict=True):
        for f in found:
            kind.setdefault(f.path, []).append(f)
    paths = set(kinds[0]) | set(kinds[1]) | set(kinds[2])
    return {p: (tuple(kinds[0].get(p, ())), tuple(kinds[1].get(p, ())), tuple(kinds[2].get(p, ()))) for p in paths}


__all__ = ["REPOSITORY_UNIT", "AnalysisHost", "HostStats", "StoredUnit", "replace"]
