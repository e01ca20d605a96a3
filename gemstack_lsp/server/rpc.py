"""The server's JSON-RPC endpoint: every message read, dispatched and answered here.

pygls keeps what it does well and exposes publicly: the registry of handlers
(``FeatureManager``: ``server.feature``/``server.command`` and their options), the capabilities
builder, the typed client methods (``server.window_log_message(...)``, which call the
protocol's public ``notify``/``send_request``) and lsprotocol's converter. The rest, the JSON-RPC
layer itself, is this module's: no private name of pygls is read, written or overridden
(``tests/server/test_rpc.py`` checks it).

``Endpoint.receive(body)`` takes one frame's body (``transport.serve`` reads the frames):

- a body that is not JSON is answered with a parse error (-32700, ``id: null``), JSON that is
  no JSON-RPC message (a batch, a scalar) with an invalid request (-32600); a message whose
  ``jsonrpc`` is not ``"2.0"`` is refused by id when it is a request, dropped otherwise;
- a request is answered exactly once: its result, or an error. Params that do not fit the
  method's types are refused ``InvalidParams`` (-32602) with the reason; an unknown method
  ``MethodNotFound`` (-32601); a request after ``shutdown`` ``InvalidRequest`` (a notification
  then is dropped, but ``exit``); a handler that raises an error it chose (``JsonRpcException``:
  ``ContentModified``, ``RequestFailed``...) answers with that error, any other exception
  ``InternalError`` (-32603);
- ``$/cancelRequest`` cancels the request's task (answered ``RequestCancelled``, -32800) and
  is remembered, so a handler that polls ``is_cancelled`` stops too;
- a response resolves the future of the request the server sent (``send_request``).

Each request runs in its own ``contextvars`` context, where ``current_id()`` is its id and where
the ``on_request`` hook ran (it takes the request's view, ``requests.dispatch``) before any later
message is handled. Handlers are plain functions or coroutine functions (run as tasks).

Outgoing messages are made into JSON once, with lsprotocol's converter, and redacted when a
secret pattern matches (``transport.outgoing_text``); a message is written in one call under a
lock, so messages sent from several threads never interleave.
"""

from __future__ import annotations

import asyncio
import contextvars
import enum
import inspect
import itertools
import json
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future
from functools import partial
from typing import Any

from lsprotocol import types as lsp
from pygls.exceptions import (
    FeatureNotificationError,
    FeatureRequestError,
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcMethodNotFound,
    JsonRpcParseError,
    JsonRpcRequestCancelled,
)

log = logging.getLogger(__name__)

MsgId = str | int
Handler = Callable[[Any], Any]

#: The id of the request being handled, in its context (``None`` outside requests).
_CURRENT_ID: contextvars.ContextVar[MsgId | None] = contextvars.ContextVar("gemstack_request_id", default=None)

#: How many cancelled ids are remembered (a handler that runs late still sees its own).
CANCELLED_KEPT = 1000


def current_id() -> MsgId | None:
    """The id of the request whose handler is running (in its context), else ``None``."""
    return _CURRENT_ID.get()


class InvalidParams(Exception):
    """A message's params do not fit its method's types."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def reason_of(exc: Exception) -> str:
    """What is wrong with a message's params, in a line (cattrs' paths into the message)."""
    try:
        from cattrs import transform_error

        details = transform_error(exc, path="$.params")
    except Exception:
        details = [str(exc)]
    text = "; ".join(details) or str(exc)
    return text if len(text) <= 500 else text[:497] + "..."


def _is_routine(error: BaseException) -> bool:
    """An error answer that is no server fault: logged in a line, never reported."""
    return (
        bool(getattr(error, "routine", False))
        or isinstance(error, JsonRpcRequestCancelled)
        or (isinstance(error, JsonRpcException) and error.code == lsp.LSPErrorCodes.ContentModified)
    )


class Endpoint:
    """One connection's JSON-RPC layer (see the module docstring)."""

    def __init__(
        self,
        converter: Any,
        *,
        lookup: Callable[[str], Handler | None],
        report: Callable[[Exception, type[Any]], None],
        on_request: Callable[[str, Any], None] | None = None,
    ) -> None:
        self.converter = converter
        #: The handler of a method (built-in or registered), ``None`` when there is none.
        self.lookup = lookup
        #: Where errors outside any answer go (the server's ``report_server_error``).
        self.report = report
        self.on_request = on_request
        self.writer: Any = None
        self.write_lock = threading.Lock()
        #: True once ``shutdown`` was answered: later requests are refused.
        self.shutting_down = False
        #: Ids the client cancelled (the last ``CANCELLED_KEPT``).
        self.cancelled: set[MsgId] = set()
        #: Requests whose handler is a running task, by id.
        self.running: dict[MsgId, asyncio.Future[Any]] = {}
        #: Requests the server sent, waiting for the client's answer: (future, response type).
        self.outgoing: dict[MsgId, tuple[Future[Any], Any]] = {}
        self.outgoing_ids = itertools.count(1)
        #: Methods whose notifications had invalid params (each is logged once).
        self.invalid_notified: set[str] = set()
        #: Writes of an asynchronous writer still under way.
        self.pending_writes: set[asyncio.Future[Any]] = set()

    # --- reading ------------------------------------------------------------------------------

    def receive(self, body: bytes) -> None:
        """Handle one frame's body: parse, dispatch, answer. Raises only ``SystemExit``
        (``exit``) and ``BrokenPipeError`` (the client is gone)."""
        if body.lstrip()[:1] == b"[":
            # A JSON-RPC batch: LSP has none; one error answers it (its ids are not read).
            self.malformed("batches are not supported by the Language Server Protocol", JsonRpcInvalidRequest)
            return
        try:
            data = json.loads(body)
        except ValueError as exc:  # not JSON, not UTF-8
            self.malformed(f"the body is not JSON: {type(exc).__name__} at {_where(exc)}")
            return
        except RecursionError:
            self.malformed("the body is nested too deeply", JsonRpcInvalidRequest)
            return
        if not isinstance(data, dict):
            self.malformed(f"not a JSON-RPC message (a JSON {type(data).__name__})", JsonRpcInvalidRequest)
            return
        try:
            self.handle(data)
        except (SystemExit, KeyboardInterrupt, BrokenPipeError):
            raise  # exit, or the client is gone: the connection ends
        except Exception as exc:  # a message we cannot take: log it, never stop reading
            log.exception("unable to handle a message")
            self.report(exc, JsonRpcParseError)

    def malformed(self, reason: str, error_type: type[JsonRpcException] = JsonRpcParseError) -> None:
        """Answer what could not be read as a message with an error whose id is null."""
        log.warning("malformed message: %s", reason)
        self.respond_error(None, error_type(message=f"{error_type.MESSAGE}: {reason}"))

    def handle(self, data: dict[str, Any]) -> None:
        """Dispatch one decoded message."""
        version = data.get("jsonrpc")
        msg_id = data.get("id")
        method = data.get("method")
        if msg_id is not None and (not isinstance(msg_id, (str, int)) or isinstance(msg_id, bool)):
            self.respond_error(None, JsonRpcInvalidRequest("Invalid Request: an id is a string or a number"))
            return
        if version != "2.0":
            # JSON-RPC 2.0 only: a request is told so (a notification has no one to tell).
            if msg_id is not None and method is not None:
                self.refuse(msg_id, JsonRpcInvalidRequest(f'Invalid Request: "jsonrpc" must be "2.0", not {version!r}'))
            else:
                log.warning("ignoring a message whose jsonrpc is %r", version)
            return
        if method is None:
            if msg_id is not None and ("result" in data or "error" in data):
                self.response(msg_id, data)
            elif msg_id is not None:
                self.refuse(msg_id, JsonRpcInvalidRequest("Invalid Request: no method, no result, no error"))
            else:
                log.warning("ignoring a message with neither a method nor an id")
            return
        if not isinstance(method, str):
            self.respond_error(msg_id, JsonRpcInvalidRequest("Invalid Request: the method is not a string"))
            return
        if msg_id is not None:
            self.request(msg_id, method, data)
        else:
            self.notification(method, data)

    def params_of(self, method: str, data: dict[str, Any]) -> Any:
        """The message's params as its method's type (raw JSON for a method lsprotocol does
        not know); ``InvalidParams`` when they do not fit."""
        params = data.get("params")
        types = lsp.METHOD_TO_TYPES.get(method)
        if types is None:
            return params
        params_type = types[2]
        if params_type is None:
            return None
        if params is None:
            raise InvalidParams("$.params: required, and missing")
        try:
            return self.converter.structure(params, params_type)
        except Exception as exc:
            raise InvalidParams(reason_of(exc)) from None

    def request(self, msg_id: MsgId, method: str, data: dict[str, Any]) -> None:
        if self.shutting_down and method != lsp.EXIT:
            self.refuse(msg_id, JsonRpcInvalidRequest(f"Invalid Request: {method} after shutdown"))
            return
        handler = self.lookup(method)
        if handler is None:
            log.warning("request %s: unknown method %r", msg_id, method)
            self.respond_error(msg_id, JsonRpcMethodNotFound.of(method))
            return
        try:
            params = self.params_of(method, data)
        except InvalidParams as exc:
            log.info("refusing %s (id %s): invalid params: %s", method, msg_id, exc.reason)
            self.respond_error(msg_id, JsonRpcInvalidParams(f"Invalid params for {method}: {exc.reason}"))
            return
        contextvars.copy_context().run(self.start_request, msg_id, method, handler, params)

    def start_request(self, msg_id: MsgId, method: str, handler: Handler, params: Any) -> None:
        """Run a request's handler (in the request's own context)."""
        _CURRENT_ID.set(msg_id)
        if self.on_request is not None:
            try:
                self.on_request(method, params)
            except Exception:  # the handler takes its view itself then
                log.exception("could not prepare %s", method)
        try:
            result = handler(params)
        except Exception as exc:
            self.answer_failure(msg_id, method, exc)
            return
        if not inspect.isawaitable(result):
            self.respond(msg_id, result)
            return
        task = asyncio.ensure_future(result)
        self.running[msg_id] = task
        task.add_done_callback(partial(self.finish_request, msg_id, method))

    def finish_request(self, msg_id: MsgId, method: str, task: asyncio.Future[Any]) -> None:
        if self.running.get(msg_id) is task:
            del self.running[msg_id]
        if task.cancelled():
            self.respond_error(msg_id, JsonRpcRequestCancelled(f'Request with id "{msg_id}" is canceled'))
            return
        error = task.exception()
        if error is None:
            self.respond(msg_id, task.result())
        elif isinstance(error, Exception):
            self.answer_failure(msg_id, method, error)
        else:  # a BaseException out of a task: still an answer
            self.respond_error(msg_id, JsonRpcInternalError(f"{type(error).__name__}"))

    def answer_failure(self, msg_id: MsgId, method: str, error: Exception) -> None:
        """Answer a request whose handler raised. An error the handler chose is its answer;
        a routine one (a refusal, an outdated or cancelled request) is logged in a line, and
        an unexpected one is logged with its traceback and reported."""
        if isinstance(error, JsonRpcException):
            if _is_routine(error) or getattr(error, "expected", None) is not None:
                if getattr(error, "expected", True):  # a RequestFailed that is no refusal was logged
                    log.info("request %s (%s) refused: %s", msg_id, method, error.message)
                self.respond_error(msg_id, error)
                return
            log.error("request %s (%s) failed: %s", msg_id, method, error.message, exc_info=error)
            self.respond_error(msg_id, error)
            self.report(error, FeatureRequestError)
            return
        internal = JsonRpcInternalError.of((type(error), error, error.__traceback__))  # type: ignore[no-untyped-call]
        log.error("request %s (%s) failed", msg_id, method, exc_info=error)
        self.respond_error(msg_id, internal)
        self.report(error, FeatureRequestError)

    def notification(self, method: str, data: dict[str, Any]) -> None:
        if method == lsp.CANCEL_REQUEST:
            params = data.get("params")
            msg_id = params.get("id") if isinstance(params, dict) else None
            if isinstance(msg_id, (str, int)):
                self.cancel(msg_id)
            return
        if self.shutting_down and method != lsp.EXIT:
            log.debug("ignoring %s after shutdown", method)
            return
        handler = self.lookup(method)
        if handler is None:
            if method.startswith("$/"):
                log.debug("ignoring %s", method)
            else:
                log.warning("ignoring a notification for the unknown method %r", method)
            return
        try:
            params = self.params_of(method, data)
        except InvalidParams as exc:
            if method not in self.invalid_notified:
                self.invalid_notified.add(method)
                log.warning("ignoring %s with invalid params: %s", method, exc.reason)
            return
        contextvars.copy_context().run(self.start_notification, method, handler, params)

    def start_notification(self, method: str, handler: Handler, params: Any) -> None:
        try:
            result = handler(params)
        except (SystemExit, KeyboardInterrupt):
            raise
        except Exception as exc:
            self.notification_failed(method, exc)
            return
        if inspect.isawaitable(result):
            task = asyncio.ensure_future(result)
            task.add_done_callback(partial(self.finish_notification, method))

    def finish_notification(self, method: str, task: asyncio.Future[Any]) -> None:
        if task.cancelled():
            return
        error = task.exception()
        if isinstance(error, Exception):
            self.notification_failed(method, error)

    def notification_failed(self, method: str, error: Exception) -> None:
        log.error("handling %s failed", method, exc_info=error)
        internal = JsonRpcInternalError.of((type(error), error, error.__traceback__))  # type: ignore[no-untyped-call]
        self.report(internal, FeatureNotificationError)

    def response(self, msg_id: MsgId, data: dict[str, Any]) -> None:
        """The client's answer to a request the server sent."""
        waiting = self.outgoing.pop(msg_id, None)
        if waiting is None:
            log.warning("a response to the unknown request %r", msg_id)
            return
        future, response_type = waiting
        if future.done():
            return
        error = data.get("error")
        if error is not None:
            try:
                structured = self.converter.structure(error, lsp.ResponseError)
                future.set_exception(JsonRpcException.from_error(structured))
            except Exception:
                future.set_exception(JsonRpcInternalError(f"an unreadable error answer: {error!r}"))
            return
        result = data.get("result")
        if response_type is not None:
            try:
                result = self.converter.structure(
                    {"id": msg_id, "jsonrpc": "2.0", "result": result}, response_type
                ).result
            except Exception as exc:
                future.set_exception(JsonRpcInvalidParams(f"an answer that does not fit: {reason_of(exc)}"))
                return
        future.set_result(result)

    def cancel(self, msg_id: MsgId) -> None:
        """The client cancelled request ``msg_id``: its task is cancelled (it is then answered
        ``RequestCancelled``); the id is remembered for a handler that polls."""
        if len(self.cancelled) >= CANCELLED_KEPT:
            self.cancelled.clear()
        self.cancelled.add(msg_id)
        task = self.running.pop(msg_id, None)
        if task is None:
            log.debug("cancel for request %s, already answered", msg_id)
            return
        task.cancel()

    def cancel_running(self, but: MsgId | None = None) -> None:
        """Cancel every running request but ``but`` (``shutdown``)."""
        for msg_id, task in list(self.running.items()):
            if msg_id != but and not task.done():
                task.cancel()

    # --- writing ------------------------------------------------------------------------------

    def respond(self, msg_id: MsgId, result: Any) -> None:
        self.send({"jsonrpc": "2.0", "id": msg_id, "result": self.unstructure(result)})

    def respond_error(self, msg_id: MsgId | None, error: JsonRpcException) -> None:
        body: dict[str, Any] = {"code": error.code, "message": error.message}
        if error.data is not None:
            body["data"] = self.unstructure(error.data)
        self.send({"jsonrpc": "2.0", "id": msg_id, "error": body})

    def refuse(self, msg_id: MsgId, error: JsonRpcException) -> None:
        log.info("refusing request %s: %s", msg_id, error.message)
        self.respond_error(msg_id, error)

    def notify(self, method: str, params: Any = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = self.unstructure(params)
        self.send(message)

    def send_request(
        self, method: str, params: Any = None, callback: Callable[[Any], None] | None = None, msg_id: Any = None
    ) -> Future[Any]:
        """Send a request to the client: a future of its (structured) answer."""
        if msg_id is None:
            msg_id = f"gemstack-{next(self.outgoing_ids)}"
        future: Future[Any] = Future()
        if callback is not None:
            future.add_done_callback(lambda f: None if f.cancelled() or f.exception() else callback(f.result()))
        types = lsp.METHOD_TO_TYPES.get(method)
        self.outgoing[msg_id] = (future, types[1] if types is not None else None)
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": msg_id, "method": method}
        if params is not None:
            message["params"] = self.unstructure(params)
        self.send(message)
        return future

    def unstructure(self, value: Any) -> Any:
        """A value as JSON-ready data (attrs classes through lsprotocol's converter)."""
        if value is None or isinstance(value, (str, int, float, bool)):
            return value
        return self.converter.unstructure(value)

    def serialize(self, value: Any) -> Any:
        """``json.dumps``'s fallback for what ``unstructure`` left (enums, plain objects)."""
        if hasattr(value, "__attrs_attrs__"):
            return self.converter.unstructure(value)
        if isinstance(value, enum.Enum):
            return value.value
        return value.__dict__

    def send(self, message: dict[str, Any]) -> None:
        """Write one message (never raises but ``BrokenPipeError``: the client is gone)."""
        from gemstack_lsp.server.transport import outgoing_text

        writer = self.writer
        if writer is None:
            log.error("unable to send a message: no transport")
            return
        try:
            body = outgoing_text(message, self.serialize).encode("utf-8")
            data = b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
            with self.write_lock:
                result = writer.write(data)
            if inspect.isawaitable(result):
                task = asyncio.ensure_future(result)
                self.pending_writes.add(task)
                task.add_done_callback(self.pending_writes.discard)
        except BrokenPipeError:
            log.warning("the client's pipe is closed: a message was not sent")
            raise
        except Exception as error:
            log.exception("sending a message failed")
            self.report(error, JsonRpcInternalError)


def _where(exc: ValueError) -> str:
    position = getattr(exc, "pos", None) or getattr(exc, "start", None)
    return f"byte {position}" if isinstance(position, int) else "the start"
