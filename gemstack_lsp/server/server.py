"""The Gemstack language server: a pygls ``LanguageServer`` with its capabilities and lifecycle.

``create_server()`` builds the server and wires every feature module onto it; each module
registers its own handlers (``register(server)``), one file per LSP area. The server adds no
analysis of its own: diagnostics, hovers and actions all come from ``gemstack_lsp.core``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import stat
import sys
import threading
from collections import Counter
from collections.abc import Generator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, PyglsError
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from gemstack_lsp import __version__
from gemstack_lsp.host import Snapshot
from gemstack_lsp.server import convert
from gemstack_lsp.server.diagnostics import Diagnostics
from gemstack_lsp.server.session import WATCHED_GLOBS, Session
from gemstack_lsp.server.settings import parse_settings

log = logging.getLogger(__name__)

#: Custom request answering analysis counters (tests and benchmarks).
STATUS_REQUEST = "gemstack/status"


class GemstackProtocol(LanguageServerProtocol):
    """pygls's protocol with the position encoding chosen by us and cancellations remembered."""

    _server: GemstackServer

    def __init__(self, server: Any, converter: Any) -> None:
        super().__init__(server, converter)
        self.cancelled: set[str | int] = set()

    @lsp_method(lsp.INITIALIZE)
    def lsp_initialize(self, params: lsp.InitializeParams) -> Generator[Any, Any, lsp.InitializeResult]:
        self._server.session.initialize(params)
        result: lsp.InitializeResult = yield from super().lsp_initialize(params)
        session = self._server.session
        kind = convert.encoding_kind(session.encoding)
        result.capabilities.position_encoding = kind
        # pygls chose its own encoding for its workspace copy of the buffers: align it.
        workspace = self.workspace
        workspace._position_encoding = kind
        from pygls.workspace.position_codec import PositionCodec

        workspace._position_codec = PositionCodec(encoding=kind)
        if not session.client.pull_diagnostics:
            # Push-only clients: never advertise pull, so no client gets both.
            result.capabilities.diagnostic_provider = None
        return result

    def _handle_cancel_notification(self, msg_id: str | int) -> None:
        self.cancelled.add(msg_id)
        if len(self.cancelled) > 1000:
            self.cancelled.clear()
            self.cancelled.add(msg_id)
        if msg_id not in self._request_futures:
            # The request was answered already (clients cancel what they no longer need, often
            # just after the answer left): nothing to cancel, and nothing worth a warning.
            log.debug("cancel for request %s, which was already answered", msg_id)
            return
        super()._handle_cancel_notification(msg_id)


class GemstackServer(LanguageServer):
    """The server: a session (buffers, folders, settings) and the diagnostics engine."""

    protocol: GemstackProtocol

    def __init__(self) -> None:
        super().__init__("gemstack-lsp", __version__, protocol_cls=GemstackProtocol, max_workers=4)
        self.session = Session()
        self.diagnostics = Diagnostics(self)
        #: How often each costly handler actually computed (cancelled requests do not count).
        self.stats: Counter[str] = Counter()
        #: Plan URI -> the read-plan receipt taken when it was opened (or why there is none).
        self.plan_receipts: dict[str, dict[str, Any] | str] = {}
        self.plan_receipt_tasks: dict[str, asyncio.Task[None]] = {}
        self.session.on_settings_changed = self._settings_changed
        #: Where request handlers run (``server/requests.py``): never on the event loop.
        self.request_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gemstack-request")

    def snapshot_for(self, uri: str) -> tuple[Snapshot, str] | None:
        """The snapshot of the repository holding ``uri`` and the document's repository-relative
        path; ``None`` outside every Gemstack repository."""
        doc = self.session.documents.get(uri)
        if doc is not None:
            root, rel = doc.root, doc.rel
        else:
            _, root, rel = self.session.locate(uri)
        if root is None or rel is None:
            return None
        return self.session.snapshot_of(root), rel

    def _settings_changed(self, folder_uri: str | None) -> None:
        """New settings for a folder (``None``: the defaults): analyse what they cover again."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return  # before the loop runs (initialize): the first analysis will use them
        folder = convert.uri_to_path(folder_uri) if folder_uri else None
        for root in self.session.roots():
            if folder is None or root == folder or root.startswith(folder.rstrip("/") + "/") or folder.startswith(root):
                self.diagnostics.schedule(root)

    async def checkpoint(self) -> bool:
        """Let messages already received run (a ``$/cancelRequest`` behind this request), then
        say whether the request was cancelled. Costly handlers call this before computing."""
        for _ in range(3):
            await asyncio.sleep(0)
        return self.is_cancelled()

    def report_server_error(self, error: Exception, source: type[PyglsError] | type[JsonRpcException]) -> None:
        """Log an error in a handler; requests already answer it as an LSP error."""
        log.error("handler error (%s): %s", getattr(source, "__name__", source), error)
        with contextlib.suppress(Exception):  # the pipe may be gone
            self.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Error, message=f"gemstack: {error}"))

    def log(self, message: str, kind: lsp.MessageType = lsp.MessageType.Info) -> None:
        self.window_log_message(lsp.LogMessageParams(type=kind, message=message))

    def is_cancelled(self) -> bool:
        """True when the client cancelled the request being handled (call from its handler)."""
        msg_id = self.protocol.msg_id
        if msg_id is not None and msg_id in self.protocol.cancelled:
            return True
        task = asyncio.current_task()
        return bool(task is not None and task.cancelling())

    def shutdown(self) -> None:
        self.diagnostics.executor.shutdown(wait=False, cancel_futures=True)
        self.request_executor.shutdown(wait=False, cancel_futures=True)
        super().shutdown()  # type: ignore[no-untyped-call]


def _register_lifecycle(server: GemstackServer) -> None:
    session = server.session
    engine = server.diagnostics

    @server.feature(lsp.INITIALIZE)
    def initialize(params: lsp.InitializeParams) -> None:
        # Load the analysis modules while the client digests our capabilities: the first
        # diagnostics need them a round trip from now.
        engine.executor.submit(_preload_analysis)
        settings, errors = parse_settings(_gemstack_section(params.initialization_options))
        session.set_default_settings(settings)
        for message in errors:
            log.warning("%s", message)
        config = _configuration()
        if config is not None:
            config.initialize(server, params)

    @server.feature(lsp.INITIALIZED)
    async def initialized(params: lsp.InitializedParams) -> None:
        # Workspace-wide diagnostics first: files that are not open get theirs too.
        engine.schedule_all()
        if session.client.dynamic_watchers:
            try:
                await server.client_register_capability_async(
                    lsp.RegistrationParams(
                        registrations=[
                            lsp.Registration(
                                id="gemstack-watched-files",
                                method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                                register_options=lsp.DidChangeWatchedFilesRegistrationOptions(
                                    watchers=[lsp.FileSystemWatcher(glob_pattern=g) for g in WATCHED_GLOBS]
                                ),
                            )
                        ]
                    )
                )
            except Exception as exc:  # a client that offers and then refuses
                log.info("registering file watchers failed: %s", exc)
        config = _configuration()
        if config is not None:
            await config.initialized(server)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: lsp.DidOpenTextDocumentParams) -> None:
        engine.did_open(params)
        if "gitnexus-plan" in params.text_document.uri:
            from gemstack_lsp.server.commands import take_plan_receipt

            take_plan_receipt(server, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: lsp.DidChangeTextDocumentParams) -> None:
        engine.did_change(params)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: lsp.DidCloseTextDocumentParams) -> None:
        engine.did_close(params)
        server.plan_receipts.pop(params.text_document.uri, None)
        server.plan_receipt_tasks.pop(params.text_document.uri, None)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE, lsp.SaveOptions(include_text=False))
    def did_save(params: lsp.DidSaveTextDocumentParams) -> None:
        engine.did_save(params)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def did_change_watched_files(params: lsp.DidChangeWatchedFilesParams) -> None:
        engine.did_change_watched_files(params)
        config = _configuration()
        if config is not None:
            for change in params.changes:
                await config.project_file_changed(server, change.uri)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    async def did_change_workspace_folders(params: lsp.DidChangeWorkspaceFoldersParams) -> None:
        before = set(session.roots())
        for removed in params.event.removed:
            session.remove_folder(removed.uri)
        for added in params.event.added:
            session.add_folder(added.uri)
        after = set(session.roots())
        for root in sorted(before - after):
            engine.clear_root(root)
        for root in sorted(after - before):
            engine.schedule(root)
        config = _configuration()
        if config is not None:
            await config.folders_changed(
                server, [f.uri for f in params.event.added], [f.uri for f in params.event.removed]
            )

    @server.feature(
        lsp.TEXT_DOCUMENT_DIAGNOSTIC,
        lsp.DiagnosticOptions(identifier="gemstack", inter_file_dependencies=True, workspace_diagnostics=True),
    )
    async def document_diagnostic(
        params: lsp.DocumentDiagnosticParams,
    ) -> lsp.RelatedFullDocumentDiagnosticReport | lsp.RelatedUnchangedDocumentDiagnosticReport:
        return await engine.document_report(params)

    @server.feature(lsp.WORKSPACE_DIAGNOSTIC)
    async def workspace_diagnostic(params: lsp.WorkspaceDiagnosticParams) -> lsp.WorkspaceDiagnosticReport:
        return await engine.workspace_report(params)

    @server.feature(STATUS_REQUEST)
    async def status(params: Any) -> dict[str, Any]:
        # Wait for pending analyses so the counters describe a settled server.
        for root in session.roots():
            if engine.state(root).requested:
                await engine.current(root, engine.state(root).requested)
        out = engine.status()
        out["stats"] = dict(server.stats)
        out["threads"] = threading.active_count()
        return out


def _preload_analysis() -> None:
    from gemstack_lsp.core import rules

    rules._checks()


def _gemstack_section(raw: Any) -> Any:
    """Initialization options may hold the settings directly or under a ``gemstack`` key."""
    if isinstance(raw, dict) and isinstance(raw.get("gemstack"), dict):
        return raw["gemstack"]
    return raw


def create_server() -> GemstackServer:
    """A fully wired server, not yet started."""
    from gemstack_lsp.server import actions, capsule_state, commands, completion, hover, lens, navigation, symbols

    server = GemstackServer()
    _register_lifecycle(server)
    hover.register(server)
    actions.register(server)
    commands.register(server)
    capsule_state.register(server)
    # Language server part 2: each module wires its own handlers.
    for module in (lens, navigation, completion, symbols):
        module.register(server)
    _register_settings(server)
    return server


def _configuration() -> Any:
    """Part 2's settings module (workspace/configuration), when it is present."""
    try:
        from gemstack_lsp.server import configuration
    except ImportError:
        return None
    return configuration


def _register_settings(server: GemstackServer) -> None:
    config = _configuration()
    register = getattr(config, "register", None)
    if callable(register):
        register(server)


async def _serve_stdio(server: GemstackServer) -> None:
    """Read stdin through an asyncio pipe (no reader thread): messages already received are
    handled back to back, so a ``$/cancelRequest`` right behind its request cancels it
    before it starts."""
    from pygls.io_ import StdoutWriter, run_async

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 26)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin.buffer)
    server._stop_event = threading.Event()
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    await run_async(
        stop_event=server._stop_event,
        reader=_EofSafeReader(reader),
        protocol=server.protocol,
        logger=log,
        error_handler=server.report_server_error,
    )


class _EofSafeReader:
    """An asyncio ``StreamReader`` that returns ``b""`` at end of input instead of raising."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    async def readline(self) -> bytes:
        return await self._reader.readline()

    async def readexactly(self, n: int) -> bytes:
        try:
            return await self._reader.readexactly(n)
        except asyncio.IncompleteReadError:
            return b""


def serve_stdio(server: GemstackServer | None = None) -> None:
    """Serve one client on stdin/stdout until it sends ``exit`` or closes the pipe."""
    server = server or create_server()
    mode = os.fstat(sys.stdin.fileno()).st_mode
    if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
        # stdin is a file or a terminal: asyncio cannot watch it, pygls's threaded reader can.
        server.start_io()
        return
    try:
        asyncio.run(_serve_stdio(server))
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    finally:
        server.shutdown()


def serve_tcp(host: str, port: int) -> None:
    create_server().start_tcp(host, port)
