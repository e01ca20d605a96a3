"""One revision of a repository, immutable: its files, its findings and the indexes over them."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.identity import IS_GEMSTACK
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.repo import Document, GemstackRepo
from gemstack_lsp.core.rules import combine
from gemstack_lsp.host.cancel import check_cancelled

if TYPE_CHECKING:
    from gemstack_lsp.host.analysis import AnalysisHost, StoredUnit

T = TypeVar("T")


class Snapshot:
    """A repository as of one revision of the host's inputs.

    ``repo`` reads the files as they were at that revision (the buffers it was taken with,
    then the disk). ``findings_by_path()`` are the findings of that revision, grouped by
    file, computed once and shared by every caller; an unchanged file keeps the very same
    tuple from one revision to the next, so a consumer can tell what changed by identity.
    ``derived(key, compute)`` memoises any other datum of the revision (an index, the
    repository facts completion needs), computed at most once however many requests ask;
    ``per_document(path, key, compute)`` keeps a summary of one document across revisions,
    for as long as the document does not change.
    """

    def __init__(self, host: AnalysisHost, revision: int, repo: GemstackRepo, options: AnalysisOptions) -> None:
        self._host = host
        self.revision = revision
        self.repo = repo
        self.options = options
        self._derived: dict[Hashable, Any] = {}
        #: Reentrant: a derived datum may be computed from others (an index from outlines).
        self._lock = threading.RLock()
        self._groups: Mapping[str, tuple[Finding, ...]] | None = None

    @property
    def root(self) -> str:
        return self.repo.root

    @property
    def current(self) -> bool:
        """True while no change reached the host since this snapshot was taken."""
        return self._host.revision == self.revision

    def document(self, path: str) -> Document:
        return self.repo.document(path)

    # --- units -------------------------------------------------------------------------

    def units(self) -> tuple[str, ...]:
        """Every unit of analysis: ``""`` (the repository-level files), then each feature."""
        return self._host.unit_keys(self)

    def unit_set(self) -> frozenset[str]:
        """``units()`` as a set."""
        return self._host.unit_key_set(self)

    def pending(self, keys: Iterable[str] | None = None) -> list[str]:
        """The units (of ``keys``, else all) whose stored result is stale or missing."""
        return self._host.stale(self.units() if keys is None else keys)

    def compute(self, keys: Iterable[str]) -> None:
        """Bring these units up to date (the stale ones run; the others are reused)."""
        self._host.analyze(self, list(keys))

    # --- findings ----------------------------------------------------------------------

    def findings_by_path(self) -> Mapping[str, tuple[Finding, ...]]:
        """Every finding of this revision, grouped by file (computing what is stale)."""
        with self._lock:
            if self._groups is None:
                self._host.analyze(self)
                if self.current:
                    self._groups = MappingProxyType(self._host.groups())
                else:
                    # Inputs moved on while this revision was analysed: what the host holds
                    # now is a later revision's; compute this one's from its own units.
                    self._groups = self._own_groups()
            return self._groups

    def findings(self) -> Sequence[Finding]:
        """Every finding of this revision, sorted by path and position."""
        groups = self.findings_by_path()
        return [f for path in sorted(groups) for f in groups[path]]

    def findings_in(self, path: str) -> tuple[Finding, ...]:
        """The findings on one file, from the units now stored (no analysis is started: a
        hover or a code action reads what diagnostics already computed)."""
        if self._groups is not None:
            return self._groups.get(path, ())
        return self._host.group(path)

    def _own_groups(self) -> Mapping[str, tuple[Finding, ...]]:
        units: list[StoredUnit] = []
        for key in self.units():
            check_cancelled()
            stored = self._host.fresh(key)
            if stored is None or stored.revision > self.revision:
                stored = self._host.compute_unit(self, key)
            units.append(stored)
        out: dict[str, list[Finding]] = {}
        for f in combine(u.result for u in units):
            out.setdefault(f.path, []).append(f)
        return MappingProxyType({p: tuple(v) for p, v in out.items()})

    # --- derived data ------------------------------------------------------------------

    def derived(self, key: Hashable, compute: Callable[[Snapshot], T]) -> T:
        """The datum ``key`` of this revision, computed once by ``compute(self)``."""
        try:
            return self._derived[key]  # type: ignore[no-any-return]
        except KeyError:
            pass
        with self._lock:
            if key not in self._derived:
                with self._host.memo.active():
                    self._derived[key] = compute(self)
            return self._derived[key]  # type: ignore[no-any-return]

    def is_gemstack(self) -> bool:
        """Whether the repository is a Gemstack repository at this revision (``core.identity``):
        read from the units' results when every unit is current (in a spec-kit repository the
        answer reads every feature's documents, which the analysis has done already), else
        asked of the files."""
        return self.derived(IS_GEMSTACK, lambda snap: snap._host.is_gemstack(snap))

    def per_document(self, path: str, key: Hashable, compute: Callable[[Document], T]) -> T:
        """A summary of the document at ``path``, kept across revisions while it is unchanged."""
        return self._host.per_document(self, path, key, compute)

    def retain(self) -> None:
        """Let the host forget parses of texts it no longer holds (a long walk over every
        document calls it now and then, so it never holds more than one analysis does)."""
        self._host.retain_memo()
