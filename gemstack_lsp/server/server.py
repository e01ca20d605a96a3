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
import inspect
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
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    PyglsError,
)
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from gemstack_lsp import __version__
from gemstack_lsp.core.printable import printable
from gemstack_lsp.server import convert, requests
from gemstack_lsp.server.diagnostics import Diagnostics
from gemstack_lsp.server.requests import RequestFailed
from gemstack_lsp.server.session import Session
from gemstack_lsp.server.token_results import TokenResults
from gemstack_lsp.uris import uri_to_path

log = logging.getLogger(__name__)


class Unstructured:
    """A message whose params do not fit its method's types (answered ``InvalidParams``)."""

    def __init__(self, data: dict[str, Any], reason: str) -> None:
        self.data = data
        self.reason = reason


class GemstackProtocol(LanguageServerProtocol):
    """pygls's protocol, with what this server needs of it:

    - the open buffers are the session's alone: pygls's own copy of each document is never
      kept (its did-open/change/close built-ins only call our handlers);
    - a request whose params cannot be read is answered ``InvalidParams`` with the reason (a
      negative position, a missing field, params omitted), a notification is logged once;
    - an expected refusal is answered without a traceback in the log; a cancellation for a
      request already answered is not worth a warning.
    """

    _server: GemstackServer

    def __init__(self, server: Any, converter: Any) -> None:
        super().__init__(server, converter)
        self.cancelled: set[str | int] = set()
        self._invalid_notified: set[str] = set()
        #: Writes of an asynchronous writer (WebSocket) still under way.
        self.pending_writes: set[asyncio.Future[Any]] = set()
        #: Documents a change arrived for without an open: each is logged once.
        self.unknown_documents: set[str] = set()

    @lsp_method(lsp.INITIALIZE)
    def lsp_initialize(self, params: lsp.InitializeParams) -> Generator[Any, Any, lsp.InitializeResult]:
        self._server.session.initialize(params)
        result: lsp.InitializeResult = yield from super().lsp_initialize(params)
        session = self._server.session
        result.capabilities.position_encoding = convert.encoding_kind(session.encoding)
        if not session.client.pull_diagnostics:
            # Push-only clients: never advertise pull, so no client gets both.
            result.capabilities.diagnostic_provider = None
        return result

    @lsp_method(lsp.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: lsp.DidOpenTextDocumentParams) -> Generator[Any, Any, None]:
        if (handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: lsp.DidCloseTextDocumentParams) -> Generator[Any, Any, None]:
        if (handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None

    def structure_message(self, data: dict[str, Any]) -> Any:
        if "jsonrpc" not in data or "method" not in data:
            return super().structure_message(data)
        message_type = self.get_message_type(data["method"])
        if message_type is None:
            return super().structure_message(data)
        try:
            return self._converter.structure(data, message_type)
        except Exception as exc:
            return Unstructured(data, _reason(exc))

    def handle_message(self, message: Any) -> None:
        data = message.data if isinstance(message, Unstructured) else message if isinstance(message, dict) else None
        version = data.get("jsonrpc") if data is not None else getattr(message, "jsonrpc", None)
        msg_id = data.get("id") if data is not None else getattr(message, "id", None)
        method = data.get("method") if data is not None else getattr(message, "method", None)
        if version != "2.0":
            # JSON-RPC 2.0 only: a request is told so (a notification has no one to tell).
            if msg_id is not None and method is not None:
                self._refuse(
                    msg_id, JsonRpcInvalidRequest(f'Invalid Request: "jsonrpc" must be "2.0", not {version!r}')
                )
            else:
                log.warning("ignoring a message whose jsonrpc is %r", version)
            return
        if self._shutdown and method is not None and method != lsp.EXIT and msg_id is not None:
            self._refuse(msg_id, JsonRpcInvalidRequest(f"Invalid Request: {method} after shutdown"))
            return
        if not isinstance(message, Unstructured):
            super().handle_message(message)
            return
        method = str(message.data.get("method"))
        msg_id = message.data.get("id")
        if msg_id is None:
            if method not in self._invalid_notified:
                self._invalid_notified.add(method)
                log.warning("ignoring %s with invalid params: %s", method, message.reason)
            return
        log.info("refusing %s (id %s): invalid params: %s", method, msg_id, message.reason)
        self._send_response(
            msg_id,
            error=JsonRpcInvalidParams(f"Invalid params for {method}: {message.reason}").to_response_error(),
        )

    def _handle_request(self, msg_id: Any, method_name: str, params: Any) -> None:
        # The request's view is taken now, in the request's context, before the next message
        # (an edit) is handled: its handler's task starts later, with this context.
        try:
            requests.dispatch(self._server, method_name, params)
        except Exception:  # the handler takes its view itself then
            log.exception("could not take the view of %s", method_name)
        super()._handle_request(msg_id, method_name, params)

    def _refuse(self, msg_id: Any, error: JsonRpcException) -> None:
        log.info("refusing request %s: %s", msg_id, error.message)
        self._send_response(msg_id, error=error.to_response_error())

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams) -> Generator[Any, Any, None]:
        """A change to a document that was never opened is a routine refusal: ignored and
        logged once per document (pygls would raise, with a traceback, on every keystroke)."""
        uri = params.text_document.uri
        if uri not in self._server.session.documents:
            if uri not in self.unknown_documents:
                if len(self.unknown_documents) > 1000:
                    self.unknown_documents.clear()
                self.unknown_documents.add(uri)
                log.info("didChange for a document that is not open, ignored: %s", uri)
            return
        if (handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    def _send_data(self, data: Any) -> None:
        """Send a message, as pygls does, except that no message quotes a secret: its JSON text
        is made once and redacted when a secret pattern matches it (``transport.outgoing_text``)."""
        from gemstack_lsp.server.transport import outgoing_text

        if not data:
            return
        if self.writer is None:
            log.error("unable to send data: no transport")
            return
        try:
            body = outgoing_text(data, self._serialize_message).encode(self.CHARSET)
            if self._include_headers:
                header = (
                    f"Content-Length: {len(body)}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
                ).encode(self.CHARSET)
                body = header + body
            result = self.writer.write(body)
            if inspect.isawaitable(result):
                task = asyncio.ensure_future(result)
                self.pending_writes.add(task)
                task.add_done_callback(self.pending_writes.discard)
        except BrokenPipeError:
            log.warning("the client's pipe is closed: a message was not sent")
            raise
        except Exception as error:
            log.exception("sending a message failed")
            self._server._report_server_error(error, JsonRpcInternalError)

    def _send_handler_result(self, future: Any, *, msg_id: Any) -> None:
        """Answer a request; a routine refusal (an argument outside the workspace, a document
        that is not open) is logged once, without a traceback, and not reported as a server
        error."""
        error = None if future.cancelled() else future.exception()
        expected = isinstance(error, RequestFailed) and error.expected
        if isinstance(error, RequestFailed) or (
            isinstance(error, JsonRpcException) and getattr(error, "routine", False)
        ):
            self._request_futures.pop(msg_id, None)
            if expected or not isinstance(error, RequestFailed):
                log.info("request %s refused: %s", msg_id, error.message)
            self._send_response(msg_id, error=error.to_response_error())
            return
        super()._send_handler_result(future, msg_id=msg_id)

    def _handle_cancel_notification(self, msg_id: str | int) -> None:
        self.cancelled.add(msg_id)
        if len(self.cancelled) > 1000:
            self.cancelled.clear()
            self.cancelled.add(msg_id)
        future = self._request_futures.pop(msg_id, None)
        if future is None:
            log.debug("cancel for request %s, already answered", msg_id)
            return
        future.cancel()


def _reason(exc: Exception) -> str:
    """What is wrong with a message's params, in a line (cattrs' paths into the message)."""
    try:
        from cattrs import transform_error

        details = transform_error(exc, path="$")
    except Exception:
        details = [str(exc)]
    text = "; ".join(details) or str(exc)
    return text if len(text) <= 500 else text[:497] + "..."


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
        #: Where request handlers run (``server/requests.py``): never on the event loop; the
        #: latency-sensitive lane and the background lane (workspace symbols, references, ...).
        self.request_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gemstack-request")
        self.background_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gemstack-background")
        #: The methods registered with ``requests.request`` (their views are taken at dispatch),
        #: and their handlers.
        self.view_methods: dict[str, Any] = {}
        #: The requests dispatched and not yet answered (an edit outdates them).
        self.inflight = requests.InFlight()
        #: The last semantic-token answer of each document (for deltas; handed to requests).
        self.token_results = TokenResults()

    def settings_changed(self, folder_uri: str | None) -> None:
        """New settings for a folder (``None``: the defaults): analyse what they cover again."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return  # before the loop runs (initialize): the first analysis will use them
        folder = uri_to_path(folder_uri) if folder_uri else None
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
            self.window_log_message(
                lsp.LogMessageParams(
                    type=lsp.MessageType.Error, message=printable(f"gemstack: {error}", keep_lines=True)
                )
            )

    def log(self, message: str, kind: lsp.MessageType = lsp.MessageType.Info) -> None:
        self.window_log_message(lsp.LogMessageParams(type=kind, message=printable(message, keep_lines=True)))

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
        self.background_executor.shutdown(wait=False, cancel_futures=True)
        super().shutdown()  # type: ignore[no-untyped-call]


async def _serve_stdio(server: GemstackServer) -> None:
    """Read stdin through an asyncio pipe (no reader thread): messages already received are
    handled back to back, so a ``$/cancelRequest`` right behind its request cancels it
    before it starts. Frames are read by our own reader (``server/transport.py``), which
    answers a malformed frame with a parse error and reads on."""
    from pygls.io_ import StdoutWriter

    from gemstack_lsp.server import transport

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 26)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin.buffer)
    server._stop_event = threading.Event()
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    await transport.serve(
        server._stop_event,
        transport.FrameReader(reader),
        server.protocol,
        error_handler=server.report_server_error,
    )


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
