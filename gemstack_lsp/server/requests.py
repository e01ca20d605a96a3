"""How request handlers run: on a worker thread, against a snapshot, and always answered.

``request(server, METHOD, options)`` registers a plain synchronous handler
``fn(server, params) -> result``. It runs on the server's request executor, never on the
event loop, so an edit is applied (and its diagnostics published) while a hover or a
workspace symbol search is computed. Every request gets an answer:

- a request the client cancelled before it started is answered ``RequestCancelled`` without
  running; one cancelled while it runs is answered ``RequestCancelled`` at once, and the
  handler, which polls ``host.cancel.check_cancelled()`` in its loops, stops early;
- a handler that refuses (``RequestRefused``: an unknown document, an argument outside the
  workspace) is answered ``RequestFailed`` with its message, logged once without a traceback;
- a handler that fails is answered ``RequestFailed`` naming the method and the error (the
  traceback goes to the log, once).

Params that do not fit the method's types never reach a handler: the protocol answers them
``InvalidParams`` (``server.py``).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from pygls.exceptions import JsonRpcException, JsonRpcRequestCancelled

from gemstack_lsp.host.cancel import Cancelled, cancellation

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer

log = logging.getLogger(__name__)

P = TypeVar("P")
R = TypeVar("R")

Handler = Callable[["GemstackServer", P], R]

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


def _run(token: threading.Event, fn: Handler[P, R], server: GemstackServer, params: P) -> R:
    with cancellation(token):
        return fn(server, params)


def request(server: GemstackServer, method: str, options: Any = None) -> Callable[[Handler[P, R]], Handler[P, R]]:
    """Register ``fn`` for ``method``; it runs off the event loop (see the module docstring)."""

    def register(fn: Handler[P, R]) -> Handler[P, R]:
        @server.feature(method, options)
        async def handler(params: P) -> R:
            if await server.checkpoint():
                raise JsonRpcRequestCancelled()
            token = threading.Event()
            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(server.request_executor, _run, token, fn, server, params)
            try:
                return await asyncio.shield(future)
            except asyncio.CancelledError:
                token.set()  # the worker stops at its next check; the client is answered now
                raise
            except Cancelled:
                raise JsonRpcRequestCancelled() from None
            except RequestRefused as exc:
                raise RequestFailed(str(exc), expected=True) from None
            except JsonRpcException:
                raise
            except Exception as exc:
                log.exception("%s failed", method)
                raise RequestFailed(
                    f"gemstack-lsp could not answer {method}: {type(exc).__name__}: {exc}", expected=False
                ) from None

        handler.__name__ = fn.__name__
        return fn

    return register
