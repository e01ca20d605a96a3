"""How request handlers run: on a worker thread, against a snapshot, and always answered.

``request(server, METHOD, options)`` registers a plain synchronous handler
``fn(server, params) -> result``. The handler runs on the server's request executor, never on
the event loop, so an edit is applied while a hover is computed; a request the client
cancelled before it started is answered ``RequestCancelled`` without running.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from pygls.exceptions import JsonRpcRequestCancelled

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer

P = TypeVar("P")
R = TypeVar("R")

Handler = Callable[["GemstackServer", P], R]


def request(server: GemstackServer, method: str, options: Any = None) -> Callable[[Handler[P, R]], Handler[P, R]]:
    """Register ``fn`` for ``method``; it runs off the event loop (see the module docstring)."""

    def register(fn: Handler[P, R]) -> Handler[P, R]:
        @server.feature(method, options)
        async def handler(params: P) -> R:
            if await server.checkpoint():
                raise JsonRpcRequestCancelled()
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(server.request_executor, fn, server, params)

        handler.__name__ = fn.__name__
        return fn

    return register
