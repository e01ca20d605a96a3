"""What the server knows of its client: open buffers, workspace folders, settings, capabilities.

A ``Session`` is plain state, touched only on the event loop. Analysis takes a snapshot of it
(``snapshot(root)``): a ``GemstackRepo`` reading the editor's buffers first and the disk
second, so unsaved edits count and nothing is ever written.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from lsprotocol import types as lsp

from gemstack_lsp.core.reader import DirEntry, FileContent, OverlayReader, ReadStatus, normalize_relpath
from gemstack_lsp.core.repo import CAPSULE_NAME, CLOSURE_NAME, LEDGER_NAME, SPECS_DIR, GemstackRepo
from gemstack_lsp.core.text import Encoding, SourceText
from gemstack_lsp.fs import DiskReader
from gemstack_lsp.host import AnalysisHost, Snapshot
from gemstack_lsp.server import convert
from gemstack_lsp.server.settings import Settings

#: Files outside specs/ and .gemstack/ that analysis reads (by base name).
GEMSTACK_ARTIFACTS = frozenset({LEDGER_NAME, CAPSULE_NAME, CLOSURE_NAME})

#: Glob patterns for the file watchers the server registers.
WATCHED_GLOBS = (
    "**/specs/**",
    "**/.gemstack/**",
    "**/cost-ledger.json",
    "**/context-capsule.json",
    "**/closure.json",
)


def is_gemstack_path(rel: str) -> bool:
    """True for a repository-relative path that analysis reads (a change to it matters)."""
    parts = PurePosixPath(rel).parts
    if not parts:
        return False
    return parts[0] in (SPECS_DIR, ".gemstack") or parts[-1] in GEMSTACK_ARTIFACTS


def is_plan_path(rel: str) -> bool:
    """A gitnexus plan file (``docs/plans/*gitnexus-plan*.md``) for the safe plan writer."""
    parts = PurePosixPath(rel).parts
    return (
        len(parts) == 3
        and parts[0] == "docs"
        and parts[1] == "plans"
        and "gitnexus-plan" in parts[2]
        and parts[2].endswith(".md")
    )


@dataclass
class OpenDocument:
    """A buffer the client opened: its text as the editor holds it, and where it lives."""

    uri: str
    text: str
    version: int
    language_id: str
    #: Absolute path (``None`` for a non-file URI).
    path: str | None
    #: The Gemstack repository root holding it, and its path relative to that root.
    root: str | None
    rel: str | None
    _source: SourceText | None = field(default=None, repr=False)

    @property
    def gemstack(self) -> bool:
        return self.rel is not None and is_gemstack_path(self.rel)

    @property
    def source(self) -> SourceText:
        if self._source is None or self._source.text is not self.text:
            self._source = SourceText(self.text)
        return self._source


@dataclass(frozen=True)
class ClientFeatures:
    """The client capabilities the server acts on, read once at initialize."""

    pull_diagnostics: bool = False
    diagnostic_refresh: bool = False
    dynamic_watchers: bool = False
    work_done_progress: bool = False
    apply_edit: bool = False
    document_changes: bool = False
    create_files: bool = False
    code_action_literals: bool = False
    markdown_hover: bool = True
    configuration: bool = False

    @classmethod
    def from_capabilities(cls, caps: lsp.ClientCapabilities) -> ClientFeatures:
        td = caps.text_document
        ws = caps.workspace
        win = caps.window
        wse = ws.workspace_edit if ws else None
        hover_formats = td.hover.content_format if td and td.hover else None
        return cls(
            pull_diagnostics=bool(td and td.diagnostic is not None),
            diagnostic_refresh=bool(ws and ws.diagnostics and ws.diagnostics.refresh_support),
            dynamic_watchers=bool(
                ws and ws.did_change_watched_files and ws.did_change_watched_files.dynamic_registration
            ),
            work_done_progress=bool(win and win.work_done_progress),
            apply_edit=bool(ws and ws.apply_edit),
            document_changes=bool(wse and wse.document_changes),
            create_files=bool(
                wse
                and wse.document_changes
                and wse.resource_operations
                and lsp.ResourceOperationKind.Create in wse.resource_operations
            ),
            code_action_literals=bool(td and td.code_action and td.code_action.code_action_literal_support),
            markdown_hover=hover_formats is None or lsp.MarkupKind.Markdown in hover_formats,
            configuration=bool(ws and ws.configuration),
        )


class CachedDiskReader:
    """A ``DiskReader`` that remembers the bytes of plain files between analyses.

    A cached file is served again only while ``lstat`` says it is the same regular file
    (inode, size, mtime, ctime) and every folder on its path is still a real folder; only
    files whose path involves no symlink are cached, and never one modified in the last two
    seconds. So every refusal ``DiskReader`` makes (a link leaving the repository, a
    directory, a file too large) is still made on each read, and keystrokes cost no disk
    reads for unchanged files.
    """

    def __init__(self, root: str) -> None:
        self._disk = DiskReader(root)
        self._root = str(self._disk.root)
        self._files: dict[str, tuple[tuple[int, int, int, int], FileContent]] = {}
        self._dirs: dict[str, tuple[int, int, int, int]] = {}

    def read(self, path: str) -> FileContent:
        rel = normalize_relpath(path)
        full = os.path.join(self._root, rel)
        try:
            st = os.lstat(full)
        except FileNotFoundError:
            self._files.pop(rel, None)
            return self._missing(rel, full)
        except OSError:
            self._files.pop(rel, None)
            return self._disk.read(rel)
        key = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        hit = self._files.get(rel)
        if hit is not None and hit[0] == key and stat.S_ISREG(st.st_mode) and self._plain_dirs(rel):
            return hit[1]
        content = self._disk.read(rel)
        if content.ok and stat.S_ISREG(st.st_mode) and _settled(st) and os.path.realpath(full) == full:
            self._files[rel] = (key, content)
        else:
            self._files.pop(rel, None)
        return content

    def _plain_dirs(self, rel: str) -> bool:
        """True when every folder between the root and ``rel`` is a real folder, not a link
        (a folder swapped for a link keeps the files' inodes, so their metadata cannot tell)."""
        parts = rel.split("/")[:-1]
        path = self._root
        for part in parts:
            path = os.path.join(path, part)
            try:
                if not stat.S_ISDIR(os.lstat(path).st_mode):
                    return False
            except OSError:
                return False
        return True

    def _missing(self, rel: str, full: str) -> FileContent:
        """A file that does not exist, answered from the cache while its folder is unchanged
        (a real folder, same inode and mtime: nothing was added to or removed from it)."""
        parent = os.path.dirname(full)
        try:
            pst = os.lstat(parent)
        except OSError:
            return self._disk.read(rel)
        key = (pst.st_ino, pst.st_size, pst.st_mtime_ns, pst.st_ctime_ns)
        if stat.S_ISDIR(pst.st_mode) and self._dirs.get(parent) == key and self._plain_dirs(rel):
            return FileContent(rel, ReadStatus.MISSING)
        content = self._disk.read(rel)
        real_dir = stat.S_ISDIR(pst.st_mode) and os.path.realpath(parent) == parent
        if content.status is ReadStatus.MISSING and real_dir and _settled(pst):
            self._dirs[parent] = key
        return content

    def list_dir(self, path: str) -> list[DirEntry] | None:
        return self._disk.list_dir(path)

    def forget(self, rel: str | None = None) -> None:
        """Drop the cached file ``rel`` (everything when ``None``): a watcher saw it change."""
        if rel is None:
            self._files.clear()
            self._dirs.clear()
            return
        rel = normalize_relpath(rel)
        self._files.pop(rel, None)
        self._dirs.pop(os.path.dirname(os.path.join(self._root, rel)), None)


#: A file modified this recently may change again within the file system's timestamp
#: granularity without its metadata changing (git's "racily clean" problem): not cached yet.
_RACY_NS = 2_000_000_000


def _settled(st: os.stat_result) -> bool:
    return time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) > _RACY_NS


def _analysis_key(settings: Settings) -> tuple[object, ...]:
    """The settings that change what analysis reports (the others need no new analysis)."""
    return (settings.diagnostics, settings.environment, settings.max_ledger_age_days)


def _real(path: str) -> str:
    return os.path.realpath(path)


class Session:
    """Open documents, workspace folders, per-folder settings and the negotiated client features."""

    def __init__(self) -> None:
        self.encoding: Encoding = "utf-16"
        self.client = ClientFeatures()
        self.documents: dict[str, OpenDocument] = {}
        #: Workspace folder URI -> absolute (resolved) path.
        self.folders: dict[str, str] = {}
        self.default_settings = Settings()
        self._folder_settings: dict[str, Settings] = {}
        self._root_cache: dict[str, str | None] = {}
        self._disk: dict[str, CachedDiskReader] = {}
        self._hosts: dict[str, AnalysisHost] = {}
        self.initialization_options: Any = None
        #: Called with a folder URI (``None`` for the defaults) when its settings change.
        self.on_settings_changed: Callable[[str | None], None] | None = None

    # --- lifecycle ---------------------------------------------------------------------

    def initialize(self, params: lsp.InitializeParams) -> None:
        caps = params.capabilities
        self.client = ClientFeatures.from_capabilities(caps)
        offered = caps.general.position_encodings if caps.general else None
        self.encoding = convert.choose_encoding(offered)
        for folder in params.workspace_folders or ():
            self.add_folder(folder.uri)
        if not self.folders:
            root_uri = params.root_uri or (convert.path_to_uri(params.root_path) if params.root_path else None)
            if root_uri:
                self.add_folder(root_uri)
        self.initialization_options = params.initialization_options

    def add_folder(self, uri: str) -> None:
        path = convert.uri_to_path(uri)
        if path is not None:
            self.folders[uri] = _real(path)
            self._root_cache.clear()

    def remove_folder(self, uri: str) -> None:
        self.folders.pop(uri, None)
        self._folder_settings.pop(uri, None)
        self._root_cache.clear()

    def forget_roots(self) -> None:
        """Drop cached root lookups (a specs/ or .gemstack/ folder may have appeared)."""
        self._root_cache.clear()

    def forget_file(self, root: str, rel: str) -> None:
        """A watcher reported a change: never serve that file from the cache again."""
        disk = self._disk.get(root)
        if disk is not None:
            disk.forget(rel)
        host = self._hosts.get(root)
        if host is not None:
            # The host's snapshots (``snapshot_for``) move to a new revision too.
            host.file_changed(rel)

    # --- settings ----------------------------------------------------------------------

    def set_default_settings(self, settings: Settings) -> None:
        changed = _analysis_key(settings) != _analysis_key(self.default_settings)
        self.default_settings = settings
        if changed and self.on_settings_changed is not None:
            self.on_settings_changed(None)

    def set_folder_settings(self, folder_uri: str, settings: Settings) -> None:
        """Settings for one workspace folder (from ``workspace/configuration``); the folder's
        repositories are analysed again when a setting that analysis uses changed."""
        previous = self._folder_settings.get(folder_uri, self.default_settings)
        changed = _analysis_key(previous) != _analysis_key(settings)
        self._folder_settings[folder_uri] = settings
        if changed and self.on_settings_changed is not None:
            self.on_settings_changed(folder_uri)

    def folder_of(self, path: str) -> str | None:
        """The URI of the innermost workspace folder holding an absolute path."""
        best: tuple[int, str] | None = None
        for uri, folder in self.folders.items():
            inside = path == folder or path.startswith(folder.rstrip("/") + "/")
            if inside and (best is None or len(folder) > best[0]):
                best = (len(folder), uri)
        return best[1] if best else None

    def settings_for(self, uri: str) -> Settings:
        """The settings that apply to a document, folder or repository root URI."""
        path = convert.uri_to_path(uri)
        if path is None:
            return self.default_settings
        folder = self.folder_of(_real(path))
        if folder is not None and folder in self._folder_settings:
            return self._folder_settings[folder]
        return self.default_settings

    def settings_for_root(self, root: str) -> Settings:
        return self.settings_for(convert.path_to_uri(root))

    # --- repositories ------------------------------------------------------------------

    def root_of(self, path: str) -> str | None:
        """The Gemstack repository root holding an absolute path: the nearest folder above it
        with ``specs/`` or ``.gemstack/``."""
        directory = _real(os.path.dirname(path))
        seen: list[str] = []
        root: str | None = None
        while True:
            if directory in self._root_cache:
                root = self._root_cache[directory]
                break
            seen.append(directory)
            if os.path.isdir(os.path.join(directory, SPECS_DIR)) or os.path.isdir(os.path.join(directory, ".gemstack")):
                root = directory
                break
            parent = os.path.dirname(directory)
            if parent == directory:
                break
            directory = parent
        for d in seen:
            self._root_cache[d] = root
        return root

    def locate(self, uri: str) -> tuple[str | None, str | None, str | None]:
        """(absolute path, repository root, path relative to the root) of a URI."""
        path = convert.uri_to_path(uri)
        if path is None:
            return None, None, None
        real = os.path.join(_real(os.path.dirname(path)), os.path.basename(path))
        root = self.root_of(real)
        if root is None:
            return real, None, None
        rel = os.path.relpath(real, root).replace(os.sep, "/")
        if rel.startswith("../"):
            return real, None, None
        return real, root, rel

    def folder_roots(self) -> list[str]:
        """Repository roots of the workspace folders (a folder that is itself one, or lies in one)."""
        roots: set[str] = set()
        for folder in self.folders.values():
            root = self.root_of(os.path.join(folder, ".")) if os.path.isdir(folder) else None
            if root is not None:
                roots.add(root)
        return sorted(roots)

    def roots(self) -> list[str]:
        """Every repository root the server tracks: the folders' and those of open documents."""
        roots = set(self.folder_roots())
        roots.update(d.root for d in self.documents.values() if d.root is not None and d.gemstack)
        return sorted(roots)

    def root_for_uri(self, uri: str) -> str | None:
        doc = self.documents.get(uri)
        if doc is not None:
            return doc.root
        return self.locate(uri)[1]

    def inside_workspace(self, path: str) -> bool:
        """True when an absolute path lies in a workspace folder or a tracked repository root."""
        real = _real(path)
        for base in [*self.folders.values(), *self.roots()]:
            if real == base or real.startswith(base.rstrip("/") + "/"):
                return True
        return False

    # --- documents ---------------------------------------------------------------------

    def open(self, uri: str, text: str, version: int, language_id: str) -> OpenDocument:
        path, root, rel = self.locate(uri)
        doc = OpenDocument(uri, text, version, language_id, path, root, rel)
        self.documents[uri] = doc
        return doc

    def change(
        self, uri: str, version: int, changes: Iterable[lsp.TextDocumentContentChangeEvent]
    ) -> OpenDocument | None:
        doc = self.documents.get(uri)
        if doc is None:
            return None
        doc.text = convert.apply_changes(doc.text, changes, self.encoding)
        doc.version = version
        return doc

    def close(self, uri: str) -> OpenDocument | None:
        return self.documents.pop(uri, None)

    def buffers(self, root: str) -> dict[str, str]:
        """The open buffers of one repository, by repository-relative path."""
        return {d.rel: d.text for d in self.documents.values() if d.root == root and d.rel is not None}

    def versions(self, root: str) -> dict[str, int]:
        """URI -> version of the open buffers of one repository."""
        return {d.uri: d.version for d in self.documents.values() if d.root == root}

    def snapshot(self, root: str, buffers: Mapping[str, str] | None = None) -> GemstackRepo:
        """A fresh repository snapshot: the editor's buffers overlaid on the disk."""
        disk = self._disk.get(root)
        if disk is None:
            disk = self._disk[root] = CachedDiskReader(root)
        reader = OverlayReader(disk, self.buffers(root) if buffers is None else buffers)
        return GemstackRepo(root, reader)

    def host(self, root: str) -> AnalysisHost:
        """The analysis host of one repository root (created on first use)."""
        host = self._hosts.get(root)
        if host is None:
            disk = self._disk.get(root)
            if disk is None:
                disk = self._disk[root] = CachedDiskReader(root)
            host = self._hosts[root] = AnalysisHost(root, disk)
        for rel, text in self.buffers(root).items():
            if host.buffers.get(rel) != text:
                host.set_buffer(rel, text)
        for rel in set(host.buffers) - set(self.buffers(root)):
            host.remove_buffer(rel)
        return host

    def snapshot_of(self, root: str) -> Snapshot:
        """The current snapshot of one repository root (its buffers as the editor holds them)."""
        return self.host(root).snapshot()

    def uri_of(self, root: str, rel: str) -> str:
        """The URI of a repository file: an open document's own URI when it is open."""
        for doc in self.documents.values():
            if doc.root == root and doc.rel == rel:
                return doc.uri
        return convert.path_to_uri(os.path.join(root, rel))
