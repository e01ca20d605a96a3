"""How request handlers run: against a view taken on the loop, on a worker of their lane,
cancelled when an edit outdates them, and always answered.

``request(server, METHOD, options)`` registers a plain synchronous handler
``fn(view, params) -> result``. When the request is dispatched, on the event loop and before
any later message is applied, its ``RequestView`` is taken (``context.take_view``: the
snapshots, the named document, settings, versions); the handler then runs on a worker with
that view as its argument (it never sees the server), never on the event loop, so an edit is
applied (and its diagnostics published) while a hover or a workspace symbol search is
computed.

Two lanes: background requests (``BACKGROUND``: workspace symbols, references, rename,
workspace diagnostics, commands) run on their own worker, so a hover or a completion never
waits behind them. An edit (``didChange``) outdates every running or queued request whose
view read the edited repository (``InFlight.outdate``): it is answered ``ContentModified``
(-32801) at once and its worker stops at its next ``check_cancelled``; commands and the
server's own ``gemstack/*`` requests are never outdated. Every request gets an answer:

- a request the client cancelled before it started is answered ``RequestCancelled`` without
  running; one cancelled while it runs is answered ``RequestCancelled`` at once, and the
  handler, which polls ``host.cancel.check_cancelled()`` in its loops, stops early;
- a handler that refuses (``RequestRefused``: an unknown document, an argument outside the
  workspace) is answered ``RequestFailed`` with its message, logged once without a traceback;
- a handler that fails is answered ``RequestFailed`` naming the method and the error, in the
  client's language (the traceback goes to the log, once).

Params that do not fit the method's types never reach a handler: the protocol answers them
``InvalidParams`` (``server.py``).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcRequestCancelled

from gemstack_lsp.core.i18n import REFUSAL, Language, localize, ui
from gemstack_lsp.host.cancel import Cancelled, cancellation
from gemstack_lsp.server.context import RequestView, take_view

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer

log = logging.getLogger(__name__)

P = TypeVar("P")
R = TypeVar("R")

#: A request handler: a function of the request's view and its params, never of the server.
Handler = Callable[[RequestView, P], R]

#: LSP's RequestFailed: the request was valid but the server could not answer it.
REQUEST_FAILED = -32803


class RequestRefused(Exception):
    """An expected refusal: answered ``RequestFailed`` with this message, no traceback."""


class RequestFailed(JsonRpcException):
    """The error response of a request that could not be answered (LSP RequestFailed)."""

    CODE = REQUEST_FAILED
    MESSAGE = "Request failed"

    def __init__(self, message: str, *, expected: bool) -> None:
        super().__init__(message, REQUEST_FAILED)
        #: True for a refusal the user caused (logged without a traceback).
        self.expected = expected


#: LSP's ContentModified: the document changed since the request was made.
CONTENT_MODIFIED = -32801

#: Requests that may take long and that no keystroke waits for: they run on the background lane.
BACKGROUND = frozenset(
    {
        lsp.WORKSPACE_SYMBOL,
        lsp.TEXT_DOCUMENT_REFERENCES,
        lsp.TEXT_DOCUMENT_RENAME,
        lsp.WORKSPACE_EXECUTE_COMMAND,
        lsp.WORKSPACE_DIAGNOSTIC,
    }
)


def outdated_by_edits(method: str) -> bool:
    """True for a request an edit makes pointless (a read of the text as it was)."""
    return method != lsp.WORKSPACE_EXECUTE_COMMAND and not method.startswith("gemstack/")


class ContentModified(JsonRpcException):
    """The answer of a request an edit outdated while it waited or ran."""

    CODE = CONTENT_MODIFIED
    MESSAGE = "Content modified"

    def __init__(self, method: str, language: Language = "en") -> None:
        super().__init__(ui("internal.content_modified", language, method=method), CONTENT_MODIFIED)


@dataclass
class Pending:
    """One dispatched request: its view, its cancellation token and whether an edit outdated it."""

    method: str
    view: RequestView
    token: threading.Event
    outdated: asyncio.Future[None]


class InFlight:
    """The requests dispatched and not yet answered (touched on the event loop only)."""

    def __init__(self) -> None:
        self._pending: dict[int, Pending] = {}
        self._next = 0
        #: How many requests an edit outdated (for tests and the status request).
        self.outdated = 0

    def add(self, method: str, view: RequestView) -> tuple[int, Pending]:
        self._next += 1
        pending = Pending(method, view, threading.Event(), asyncio.get_running_loop().create_future())
        self._pending[self._next] = pending
        return self._next, pending

    def remove(self, key: int) -> None:
        self._pending.pop(key, None)

    def outdate(self, root: str | None) -> int:
        """An edit reached ``root`` (``None``: an edit outside every repository): every request
        whose view read it stops and answers ``ContentModified``. Returns how many did."""
        count = 0
        for pending in self._pending.values():
            if pending.outdated.done() or not outdated_by_edits(pending.method):
                continue
            if root is not None and root in pending.view.reads:
                pending.token.set()
                pending.outdated.set_result(None)
                count += 1
        self.outdated += count
        return count


_TAKEN: contextvars.ContextVar[tuple[int, Pending] | None] = contextvars.ContextVar("gemstack_taken", default=None)


def dispatch(server: GemstackServer, method: str, params: Any) -> None:
    """Take a request's view and register it at dispatch (the protocol calls this in the
    request's context, before the handler's task starts and before the next message, maybe
    an edit that outdates it, is handled)."""
    if method in server.view_methods:
        _TAKEN.set(server.inflight.add(method, take_view(server, method, params)))


def _run(token: threading.Event, view: RequestView, fn: Handler[P, R], params: P) -> R:
    if token.is_set():
        raise Cancelled()  # outdated or cancelled while it waited in the queue
    with cancellation(token):
        return fn(view, params)


def _consume(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()  # an answer nobody waits for any more (outdated): not an error


def request(
    server: GemstackServer, method: str, options: Any = None, *, stat: str | None = None
) -> Callable[[Handler[P, R]], Handler[P, R]]:
    """Register ``fn`` for ``method``; it runs off the event loop (see the module docstring).
    Each answer it computes is counted on the loop in ``server.stats[stat]`` (default: the
    method's last segment, ``hover`` for ``textDocument/hover``)."""

    background = method in BACKGROUND
    counted = stat or method.rsplit("/", 1)[-1]

    def register(fn: Handler[P, R]) -> Handler[P, R]:
        server.view_methods[method] = fn

        @server.feature(method, options)
        async def handler(params: P) -> R:
            taken = _TAKEN.get()
            key, pending = (
                taken if taken is not None else server.inflight.add(method, take_view(server, method, params))
            )
            try:
                result = await _answer(pending, fn, params)
                server.stats[counted] += 1  # on the loop: an answer computed
                return result
            finally:
                server.inflight.remove(key)

        async def _answer(pending: Pending, fn: Handler[P, R], params: P) -> R:
            if await server.checkpoint():
                raise JsonRpcRequestCancelled()
            if pending.outdated.done():
                raise ContentModified(method, server.session.language)
            token = pending.token
            loop = asyncio.get_running_loop()
            executor = server.background_executor if background else server.request_executor
            future: asyncio.Future[R] = loop.run_in_executor(executor, _run, token, pending.view, fn, params)
            future.add_done_callback(_consume)
            waited: set[asyncio.Future[Any]] = {future, pending.outdated}
            try:
                await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
                if not future.done():
                    raise ContentModified(method, server.session.language)  # the worker stops at its next check
                return future.result()
            except asyncio.CancelledError:
                token.set()  # the worker stops at its next check; the client is answered now
                raise
            except Cancelled:
                if pending.outdated.done():
                    raise ContentModified(method, server.session.language) from None
                raise JsonRpcRequestCancelled() from None
            except RequestRefused as exc:
                # The refusal in the client's language (rename, formatting).
                raise RequestFailed(localize(REFUSAL, str(exc), server.session.language), expected=True) from None
            except JsonRpcException:
                raise
            except Exception as exc:
                log.exception("%s failed", method)
                error = f"{type(exc).__name__}: {exc}"  # Python's own words, quoted as they are
                message = ui("internal.request", server.session.language, method=method, error=error)
                raise RequestFailed(message, expected=False) from None

        handler.__name__ = fn.__name__
        return fn

    return register
