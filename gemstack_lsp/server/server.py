"""The Gemstack language server: a pygls ``LanguageServer``, its protocol and its transports.

``GemstackServer`` holds the session, the diagnostics engine and the request executor;
``lifecycle`` installs the document, workspace and diagnostic handlers, and the composition
root (``gemstack_lsp.server.app.create_server``) wires every feature module onto a server.
The server adds no analysis of its own: diagnostics come from ``gemstack_lsp.core`` through
the analysis host, hovers, completions and the like from ``gemstack_lsp.ide``.
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
from gemstack_lsp.server.session import Session

log = logging.getLogger(__name__)


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

    def settings_changed(self, folder_uri: str | None) -> None:
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


def serve_stdio(server: GemstackServer) -> None:
    """Serve one client on stdin/stdout until it sends ``exit`` or closes the pipe."""
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
