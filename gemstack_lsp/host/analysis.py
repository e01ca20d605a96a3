"""The analysis host of one repository root: inputs, revisions, and what is derived from them."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence

from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.memo import Memo
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.reader import OverlayReader, Reader, normalize_relpath
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.host.snapshot import Snapshot


class AnalysisHost:
    """Owns the inputs of one repository (disk files and editor buffers) and everything derived.

    Mutations (``set_buffer``, ``remove_buffer``, ``file_changed``, ``set_options``) bump the
    revision; ``snapshot()`` gives the immutable view of the current revision.
    """

    def __init__(self, root: str, disk: Reader, options: AnalysisOptions | None = None) -> None:
        self.root = root
        self._disk = disk
        self.options = options or AnalysisOptions()
        self.memo = Memo()
        self.revision = 0
        self._buffers: dict[str, str] = {}
        self._lock = threading.RLock()
        self._snapshot: Snapshot | None = None
        self._results: dict[int, list[Finding]] = {}

    # --- inputs ------------------------------------------------------------------------

    @property
    def buffers(self) -> Mapping[str, str]:
        return dict(self._buffers)

    def set_buffer(self, rel: str, text: str) -> None:
        """An editor buffer now holds ``text`` for the file at ``rel`` (it wins over the disk)."""
        with self._lock:
            self._buffers[normalize_relpath(rel)] = text
            self._bump()

    def remove_buffer(self, rel: str) -> None:
        """The buffer of ``rel`` was closed: the disk is the truth again."""
        with self._lock:
            if self._buffers.pop(normalize_relpath(rel), None) is not None:
                self._bump()

    def file_changed(self, rel: str | None = None) -> None:
        """The file at ``rel`` changed on disk (``None``: anything may have)."""
        with self._lock:
            forget = getattr(self._disk, "forget", None)
            if callable(forget):
                forget(rel)
            self._bump()

    def set_options(self, options: AnalysisOptions) -> None:
        with self._lock:
            if options != self.options:
                self.options = options
                self._bump()

    def _bump(self) -> None:
        self.revision += 1
        self._snapshot = None

    # --- snapshots ---------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        with self._lock:
            if self._snapshot is None:
                repo = GemstackRepo(self.root, OverlayReader(self._disk, dict(self._buffers)))
                self._snapshot = Snapshot(self, self.revision, repo, self.options)
            return self._snapshot

    def _findings_of(self, snap: Snapshot) -> Sequence[Finding]:
        found = self._results.get(snap.revision)
        if found is None:
            with self.memo.active():
                found = analyze(snap.repo, snap.options)
            self._results = {snap.revision: found}
        return found

    def _findings_by_path_of(self, snap: Snapshot) -> Mapping[str, tuple[Finding, ...]]:
        def group(s: Snapshot) -> Mapping[str, tuple[Finding, ...]]:
            out: dict[str, list[Finding]] = {}
            for f in s.findings():
                out.setdefault(f.path, []).append(f)
            return {k: tuple(v) for k, v in out.items()}

        return snap.derived(("findings-by-path",), group)
