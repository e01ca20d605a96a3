"""One revision of a repository, immutable: its files, its findings and the indexes over them."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.repo import GemstackRepo

if TYPE_CHECKING:
    from gemstack_lsp.host.analysis import AnalysisHost

T = TypeVar("T")


class Snapshot:
    """A repository as of one revision of the host's inputs.

    ``repo`` reads the files as they were at that revision (buffers first, then the disk);
    ``findings()`` are every finding of that revision, computed once and shared by every
    caller; ``derived(key, compute)`` memoises any other datum of the revision (an index, the
    repository facts completion needs), computed at most once however many requests ask.
    """

    def __init__(self, host: AnalysisHost, revision: int, repo: GemstackRepo, options: AnalysisOptions) -> None:
        self._host = host
        self.revision = revision
        self.repo = repo
        self.options = options
        self._derived: dict[Hashable, Any] = {}
        #: Reentrant: a derived datum may be computed from others (an index from outlines).
        self._lock = threading.RLock()

    @property
    def root(self) -> str:
        return self.repo.root

    def findings(self) -> Sequence[Finding]:
        """Every finding of this revision, sorted by path and position."""
        return self._host._findings_of(self)

    def findings_by_path(self) -> Mapping[str, tuple[Finding, ...]]:
        """The findings of this revision grouped by file (an unchanged file keeps its tuple)."""
        return self._host._findings_by_path_of(self)

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
