"""A whole server in the test's own process: raw frames in, parsed messages out.

The server is the one ``gemstack-lsp serve`` runs (``app.create_server``), fed through the same
framed reader (``GemstackServer.serve``) from an in-memory stream, its output collected by a writer
that parses each frame. No subprocess, so a test costs milliseconds, not a server start-up.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from gemstack_lsp.server.app import create_server
from gemstack_lsp.server.server import GemstackServer


def frame(message: Any) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def request(msg_id: int, method: str, params: Any = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}


def notification(method: str, params: Any = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": method, "params": params}


class Collector:
    """pygls's writer interface: every frame written, parsed."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()

    def write(self, data: bytes) -> None:
        for body in re.split(rb"Content-Length: \d+\r\n(?:[^\r\n]+\r\n)*\r\n", data)[1:]:
            self.messages.append(json.loads(body))
        self.arrived.set()

    def close(self) -> None:
        pass


class InProcess:
    """A running server and the two ends of its connection."""

    def __init__(self) -> None:
        self.server: GemstackServer = create_server()
        self.out = Collector()
        self.input = asyncio.StreamReader()
        self.task = asyncio.ensure_future(self.server.serve(self.input, self.out))

    def send(self, *messages: Any) -> None:
        for message in messages:
            self.input.feed_data(message if isinstance(message, bytes) else frame(message))

    async def answer(self, msg_id: int | None, timeout: float = 30) -> dict[str, Any]:
        """The response with ``msg_id`` (``None``: an answer to a message with no readable id)."""

        async def wait() -> dict[str, Any]:
            while True:
                for m in self.out.messages:
                    if "method" not in m and m.get("id") == msg_id:
                        return m
                self.out.arrived.clear()
                await self.out.arrived.wait()

        return await asyncio.wait_for(wait(), timeout)

    async def published(self, uri: str, version: int | None = None, timeout: float = 60) -> dict[str, Any]:
        """The first diagnostics published for ``uri`` (at ``version``, when given)."""

        async def wait() -> dict[str, Any]:
            while True:
                for m in self.out.messages:
                    if m.get("method") == "textDocument/publishDiagnostics":
                        params = m["params"]
                        if params["uri"] == uri and (version is None or params.get("version") == version):
                            return m
                self.out.arrived.clear()
                await self.out.arrived.wait()

        return await asyncio.wait_for(wait(), timeout)

    async def close(self) -> None:
        self.input.feed_eof()
        await asyncio.wait_for(self.task, 10)
        self.server.shutdown()
