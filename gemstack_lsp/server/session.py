"""What the server knows of its client: open buffers, workspace folders, settings, capabilities.

A ``Session`` is plain state, touched only on the event loop. Analysis takes a snapshot of it
(``snapshot(root)``): a ``GemstackRepo`` reading the editor's buffers first and the disk
second, so unsaved edits count and nothing is ever written.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from gemstack_lsp import containment
from gemstack_lsp.core.feature import CAPSULE_NAME, CLOSURE_NAME, LEDGER_NAME, SPECS_DIR
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.i18n import Language, language_of_locale
from gemstack_lsp.core.text import Encoding, SourceText
from gemstack_lsp.server import convert
from gemstack_lsp.server.configuration import Configuration
from gemstack_lsp.server.settings import Settings
from gemstack_lsp.uris import path_to_uri, uri_to_path

if TYPE_CHECKING:
    # The analysis (host, repository, indexes) is imported when a repository is first
    # analysed, after ``initialize`` is answered.
    from gemstack_lsp.core.repo import GemstackRepo
    from gemstack_lsp.host import AnalysisHost, Snapshot

#: Files outside specs/ and .gemstack/ that analysis reads (by base name).
GEMSTACK_ARTIFACTS = frozenset({LEDGER_NAME, CAPSULE_NAME, CLOSURE_NAME})

#: Seconds the Git state of a root (for closure evidence) is reused before Git is asked again.
REPOSITORY_STATE_TTL = 10.0

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


@record
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
    #: ``workspace/didChangeConfiguration`` may be registered dynamically.
    dynamic_configuration: bool = False
    #: Document symbols may be nested (``DocumentSymbol``), not flat ``SymbolInformation``.
    hierarchical_symbols: bool = False
    #: Completion items may use snippet syntax (placeholders).
    snippets: bool = False
    #: Completion documentation may be Markdown (else it is sent as plain text).
    markdown_completion_docs: bool = False
    #: Document links may carry a tooltip.
    link_tooltips: bool = False
    #: The client honours ``workspace/codeLens/refresh``.
    code_lens_refresh: bool = False
    #: Workspace edits may carry snippet text edits (LSP 3.18 ``snippetEditSupport``).
    snippet_edits: bool = False
    #: Workspace edits may carry change annotations (a rename through a frozen phase asks first).
    change_annotations: bool = False
    #: The client's name from ``initialize`` (``clientInfo.name``; "" when it sent none).
    name: str = ""

    @classmethod
    def from_capabilities(cls, caps: lsp.ClientCapabilities) -> ClientFeatures:
        td = caps.text_document
        ws = caps.workspace
        win = caps.window
        wse = ws.workspace_edit if ws else None
        hover_formats = td.hover.content_format if td and td.hover else None
        item = td.completion.completion_item if td and td.completion else None
        return cls(
            pull_diagnostics=bool(td and td.diagnostic is not None),
            diagnostic_refresh=bool(ws and ws.diagnostics and ws.diagnostics.refresh_support),
            dynamic_watchers=bool(
                ws and ws.did_change_watched_files and ws.did_change_watched_files.dynamic_registration
            ),
            work_done_progress=bool(win and win.work_done_progress),
            apply_edit=bool(ws and ws.apply_edit),
            document_changes=bool(wse and wse.document_changes),
            change_annotations=bool(wse and wse.document_changes and wse.change_annotation_support is not None),
            create_files=bool(
                wse
                and wse.document_changes
                and wse.resource_operations
                and lsp.ResourceOperationKind.Create in wse.resource_operations
            ),
            code_action_literals=bool(td and td.code_action and td.code_action.code_action_literal_support),
            markdown_hover=hover_formats is None or lsp.MarkupKind.Markdown in hover_formats,
            configuration=bool(ws and ws.configuration),
            dynamic_configuration=bool(
                ws and ws.did_change_configuration and ws.did_change_configuration.dynamic_registration
            ),
            hierarchical_symbols=bool(
                td and td.document_symbol and td.document_symbol.hierarchical_document_symbol_support
            ),
            snippets=bool(item and item.snippet_support),
            # No declared format: plain text, which every client shows as it is.
            markdown_completion_docs=bool(
                item and item.documentation_format and lsp.MarkupKind.Markdown in item.documentation_format
            ),
            link_tooltips=bool(td and td.document_link and td.document_link.tooltip_support),
            code_lens_refresh=bool(ws and ws.code_lens and ws.code_lens.refresh_support),
            snippet_edits=bool(wse and wse.snippet_edit_support),
        )


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
        #: The settings in force, per workspace folder, and their layers (their one owner).
        self.configuration = Configuration()
        self._root_cache: dict[str, containment.Root | None] = {}
        #: One analysis host per repository root: the inputs (buffers over the disk) and
        #: everything derived from them.
        self._hosts: dict[str, AnalysisHost] = {}
        self.initialization_options: Any = None
        #: The client said the workspace is not trusted (``initializationOptions.trusted`` is
        #: false: VS Code's Restricted Mode): no git runs and no command writes a file.
        self.restricted = False
        #: The language of every message the client is shown: Spanish when ``initialize``'s
        #: ``locale`` starts with ``es``, else English (``core/i18n.py``).
        self.language: Language = "en"

    # --- lifecycle ---------------------------------------------------------------------

    def initialize(self, params: lsp.InitializeParams) -> None:
        caps = params.capabilities
        client_name = params.client_info.name if params.client_info else ""
        self.client = replace(ClientFeatures.from_capabilities(caps), name=client_name)
        offered = caps.general.position_encodings if caps.general else None
        self.encoding = convert.choose_encoding(offered)
        for folder in params.workspace_folders or ():
            self.add_folder(folder.uri)
        if not self.folders:
            root_uri = params.root_uri or (path_to_uri(params.root_path) if params.root_path else None)
            if root_uri:
                self.add_folder(root_uri)
        self.initialization_options = params.initialization_options
        options = params.initialization_options
        self.restricted = isinstance(options, dict) and options.get("trusted") is False
        self.language = language_of_locale(params.locale)

    def add_folder(self, uri: str) -> None:
        path = uri_to_path(uri)
        if path is not None:
            self.folders[uri] = _real(path)
            self._root_cache.clear()

    def remove_folder(self, uri: str) -> None:
        self.folders.pop(uri, None)
        self._root_cache.clear()

    def forget_roots(self) -> None:
        """Drop cached root lookups (a specs/ or .gemstack/ folder may have appeared)."""
        self._root_cache.clear()

    def forget_file(self, root: str, rel: str | None) -> None:
        """A watcher reported a change at ``rel`` (``None``: anywhere in the repository)."""
        host = self._hosts.get(root)
        if host is not None:
            host.file_changed(rel)

    # --- settings ----------------------------------------------------------------------

    def folder_of(self, path: str) -> str | None:
        """The URI of the innermost workspace folder holding an absolute path."""
        best: tuple[int, str] | None = None
        for uri, folder in list(self.folders.items()):
            inside = path == folder or path.startswith(folder.rstrip("/") + "/")
            if inside and (best is None or len(folder) > best[0]):
                best = (len(folder), uri)
        return best[1] if best else None

    def settings_for(self, uri: str) -> Settings:
        """The settings that apply to a document, folder or repository root URI."""
        path = uri_to_path(uri)
        if path is None:
            return self.configuration.defaults
        return self.configuration.settings_of_folder(self.folder_of(_real(path)))

    def settings_for_root(self, root: str) -> Settings:
        return self.settings_for(path_to_uri(root))

    # --- repositories ------------------------------------------------------------------

    def root_of(self, path: str) -> str | None:
        """The real path of the Gemstack repository root holding an absolute path: the nearest
        folder above it with ``specs/`` or ``.gemstack/`` that the containment rule accepts
        (``gemstack_lsp.containment``: never a folder reached through a symlink leading out of
        an enclosing repository or workspace folder)."""
        root = self._root(os.path.dirname(path))
        return root.real if root is not None else None

    def _root(self, directory: str) -> containment.Root | None:
        directory = os.path.normpath(directory)
        if directory not in self._root_cache:
            self._root_cache[directory] = containment.owning_root(directory, self._anchors())
        return self._root_cache[directory]

    def _anchors(self) -> list[str]:
        """The workspace folders, as the client named them and as they really are."""
        anchors = list(self.folders.values())
        anchors.extend(p for p in map(uri_to_path, self.folders) if p is not None)
        return anchors

    def where(self, uri: str) -> containment.Location | None:
        """Where a URI stands under the containment rule (``None`` for a non-file URI)."""
        path = uri_to_path(uri)
        if path is None:
            return None
        lexical = os.path.normpath(path)
        return containment.locate_in(lexical, self._root(os.path.dirname(lexical)))

    def locate(self, uri: str) -> tuple[str | None, str | None, str | None]:
        """(absolute path, repository root, path relative to the root) of a URI; root and
        relative path are ``None`` outside every repository and for a path whose real path
        leaves the repository that holds it (a symlink out is never a repository file)."""
        where = self.where(uri)
        if where is None:
            return None, None, None
        if where.root is None or where.rel is None:
            return where.path, None, None
        return where.path, where.root.real, where.rel

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
        """True when the real path of an absolute path lies in a workspace folder (for a client
        that named no folder: in the repository of an open document)."""
        real = _real(path)
        bases = list(self.folders.values()) or self.roots()
        return any(containment.is_within(real, base) for base in bases)

    # --- documents ---------------------------------------------------------------------

    def open(self, uri: str, text: str, version: int, language_id: str) -> OpenDocument:
        path, root, rel = self.locate(uri)
        doc = OpenDocument(uri, text, version, language_id, path, root, rel)
        self.documents[uri] = doc
        if doc.root is not None and doc.rel is not None and doc.gemstack:
            self.host(doc.root).set_buffer(doc.rel, text)
        return doc

    def change(
        self, uri: str, version: int, changes: Iterable[lsp.TextDocumentContentChangeEvent]
    ) -> OpenDocument | None:
        doc = self.documents.get(uri)
        if doc is None:
            return None
        doc.text = convert.apply_changes(doc.text, changes, self.encoding)
        doc.version = version
        if doc.root is not None and doc.rel is not None and doc.gemstack:
            self.host(doc.root).set_buffer(doc.rel, doc.text)
        return doc

    def close(self, uri: str) -> OpenDocument | None:
        doc = self.documents.pop(uri, None)
        if doc is not None and doc.root is not None and doc.rel is not None and doc.gemstack:
            self.host(doc.root).remove_buffer(doc.rel)
        return doc

    def buffers(self, root: str) -> dict[str, str]:
        """The open buffers of one repository, by repository-relative path."""
        return {d.rel: d.text for d in self.documents.values() if d.root == root and d.rel is not None}

    def versions(self, root: str) -> dict[str, int]:
        """URI -> version of the open buffers of one repository."""
        return {d.uri: d.version for d in self.documents.values() if d.root == root}

    def host(self, root: str) -> AnalysisHost:
        """The analysis host of one repository root (created on first use)."""
        host = self._hosts.get(root)
        if host is None:
            from gemstack_lsp.fs import DiskReader
            from gemstack_lsp.host.analysis import AnalysisHost

            host = self._hosts[root] = AnalysisHost(root, DiskReader(root, run_git=not self.restricted))
            host.unit_hooks.append(self._index_hook(host))  # the workspace indexes follow the analysis
            for doc in self.documents.values():
                if doc.root == root and doc.rel is not None and doc.gemstack:
                    host.set_buffer(doc.rel, doc.text)
        return host

    @staticmethod
    def _index_hook(host: AnalysisHost) -> Callable[[Snapshot, str], None]:
        """The unit hook that keeps the workspace-symbol and occurrence indexes of a feature up
        to date as the analysis passes, except for a feature with an open buffer: that is typed
        into, and re-indexing it on every keystroke is work no keystroke needs (about a fifth of
        a keystroke's analysis); a workspace query reads the few such documents again itself
        (their parts are per-document, kept while unchanged). It runs on the analysis thread
        and reads only the host's own inputs (its buffers), never the session."""

        from gemstack_lsp.ide.symbols import index_unit

        def hook(snapshot: Snapshot, feature: str) -> None:
            prefix = f"{SPECS_DIR}/{feature}/"  # the unit is a feature's name
            if any(rel.startswith(prefix) for rel in host.buffers):
                return
            index_unit(snapshot, feature)

        return hook

    def hosts(self) -> dict[str, AnalysisHost]:
        return dict(self._hosts)

    def drop_host(self, root: str) -> None:
        """Forget a repository that left the workspace, and everything derived from it."""
        self._hosts.pop(root, None)

    def snapshot(self, root: str, buffers: Mapping[str, str] | None = None) -> GemstackRepo:
        """The repository of one root as the editor holds it, or with other ``buffers``
        (regenerating a capsule from the buffers a command was given)."""
        if buffers is None:
            return self.host(root).snapshot().repo
        from gemstack_lsp.core.reader import OverlayReader
        from gemstack_lsp.core.repo import GemstackRepo
        from gemstack_lsp.fs import DiskReader

        return GemstackRepo(root, OverlayReader(DiskReader(root, run_git=not self.restricted), buffers))

    def snapshot_of(self, root: str) -> Snapshot:
        """The current snapshot of one repository root (its buffers as the editor holds them)."""
        return self.host(root).snapshot()
