"""The real server in the test process, on its own thread and event loop, for pytest-lsp's client.

``attach(client, fake=...)`` starts a fresh ``create_server()`` (the composition root
``gemstack-lsp serve`` runs), fed through the same framed reader (``GemstackServer.serve``) as the
stdio server, and connects it to a pygls client in place of ``client.start_io``: bytes the
client writes are fed to the server's stream on the server's loop, frames the server writes
(from any of its threads) are fed to the client's stream on the test's loop. The protocol is
the same byte stream as over a pipe; only the process boundary is gone, so a test no longer
pays for a server start-up.

What cannot be had in one process stays with the subprocess (``make_client(..., subprocess=True)``
or the ``subprocess_server`` marker): audit hooks (process-wide, never removed), stderr, exit
codes, the environment read at start.

Two pieces of process state are shared by the servers here, and restored when the last one
stops: ``launch_server.py``'s ``GEMSTACK_TEST_FAKE`` check (``rules.feature_checks`` is patched
while a server that asked for it runs; a test may not run a fake and a plain server side by
side), and the level of the ``gemstack_lsp`` logger, which the server sets from the client's
``logLevel`` setting (one server per process in production).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from typing import Any

from pygls.io_ import run_async

from gemstack_lsp.core import rules
from gemstack_lsp.server.app import create_server
from gemstack_lsp.server.server import GemstackServer
from tests.lsp import launch_server

log = logging.getLogger(__name__)

#: How long the server's thread may take to stop once its input has ended.
JOIN = 30.0

_fake_lock = threading.Lock()
_fake_users = 0
_plain_users = 0
_original_checks: Callable[[], list[Any]] | None = None
_original_level: int | None = None


def _acquire_process_state(fake: bool) -> None:
    global _fake_users, _plain_users, _original_checks, _original_level
    with _fake_lock:
        if (fake and _plain_users) or (not fake and _fake_users):
            raise RuntimeError("an in-process fake server and a plain one cannot run side by side")
        if _fake_users + _plain_users == 0:
            _original_level = logging.getLogger("gemstack_lsp").level
        if not fake:
            _plain_users += 1
            return
        if _fake_users == 0:
            original = _original_checks = rules.feature_checks

            def patched() -> list[Any]:
                return [*original(), ("fake", launch_server._fake_check)]

            rules.feature_checks = patched
        _fake_users += 1


def _release_process_state(fake: bool) -> None:
    global _fake_users, _plain_users, _original_checks, _original_level
    with _fake_lock:
        if fake:
            _fake_users -= 1
            if _fake_users == 0 and _original_checks is not None:
                rules.feature_checks = _original_checks
                _original_checks = None
        else:
            _plain_users -= 1
        if _fake_users + _plain_users == 0 and _original_level is not None:
            logging.getLogger("gemstack_lsp").setLevel(_original_level)
            _original_level = None


class _ToClient:
    """The server's writer: each frame is handed to the client's stream on the client's loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, stream: asyncio.StreamReader) -> None:
        self._loop = loop
        self._stream = stream
        self.closed = False

    def write(self, data: bytes) -> None:
        if self.closed:
            raise BrokenPipeError("the client's end is closed")
        try:
            self._loop.call_soon_threadsafe(self._stream.feed_data, bytes(data))
        except RuntimeError as exc:  # the client's loop is closed
            raise BrokenPipeError(str(exc)) from exc

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(RuntimeError):
            self._loop.call_soon_threadsafe(self._stream.feed_eof)


class _ToServer:
    """The client's writer: bytes are handed to the server's stream on the server's loop."""

    def __init__(self, server: InProcessServer) -> None:
        self._server = server

    def write(self, data: bytes) -> None:
        self._server.feed(bytes(data))

    def close(self) -> None:
        self._server.feed_eof()


class InProcessServer:
    """One server on its own thread; ``stop()`` ends its input and joins the thread."""

    def __init__(self, client_loop: asyncio.AbstractEventLoop, to_client: asyncio.StreamReader, fake: bool) -> None:
        self.fake = fake
        self.server: GemstackServer = create_server()
        self._register_test_features()
        self.writer = _ToClient(client_loop, to_client)
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._input: asyncio.StreamReader | None = None
        self.error: BaseException | None = None
        self._registered = False
        self._thread = threading.Thread(target=self._run, name="gemstack-inprocess-server", daemon=True)
        #: The client's reading task and its stop event (``attach``).
        self.connection: asyncio.Task[None] | None = None
        self.client_stop = threading.Event()

    def _register_test_features(self) -> None:
        @self.server.feature("test/audit")
        def audit(params: Any) -> list[str]:
            return []  # audit hooks are process-wide: audited tests run the server in a subprocess

        @self.server.feature("test/raise")
        def boom(params: Any) -> None:
            raise RuntimeError("deliberate failure inside a handler")

    def start(self) -> None:
        _acquire_process_state(self.fake)
        self._registered = True
        self._thread.start()
        if not self._ready.wait(JOIN):
            raise RuntimeError("the in-process server did not start")

    def _run(self) -> None:
        try:
            asyncio.run(self._serve())
        except SystemExit:
            pass  # the ``exit`` notification: pygls ends the "process"
        except BaseException as exc:  # raised again by stop()
            self.error = exc
            log.exception("the in-process server failed")
        finally:
            self._ready.set()
            self.writer.close()
            with contextlib.suppress(Exception):
                self.server.shutdown()

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._input = asyncio.StreamReader(limit=1 << 26)
        self._ready.set()
        await self.server.serve(self._input, self.writer)

    def _call(self, fn: Callable[..., Any], *args: Any) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(fn, *args)

    def feed(self, data: bytes) -> None:
        if self._input is not None:
            self._call(self._input.feed_data, data)

    def feed_eof(self) -> None:
        if self._input is not None:
            self._call(self._input.feed_eof)

    def stop(self) -> None:
        """End the server's input (a closed pipe), join its thread, release the fake check."""
        try:
            if self._thread.is_alive():
                self.feed_eof()
                self._thread.join(JOIN)
            if self._thread.is_alive():
                raise RuntimeError("the in-process server did not stop")
            # ``shutdown()`` does not wait for work already running on the server's executors:
            # wait here, so no analysis of this test's files outlives the test.
            for executor in (
                self.server.diagnostics.executor,
                self.server.request_executor,
                self.server.background_executor,
            ):
                executor.shutdown(wait=True, cancel_futures=True)
            self.client_stop.set()
            if self.connection is not None and not self.connection.done():
                self.connection.cancel()
            if self.error is not None:
                raise RuntimeError("the in-process server failed") from self.error
        finally:
            if self._registered:
                self._registered = False
                _release_process_state(self.fake)


async def attach(client: Any, *, fake: bool) -> InProcessServer:
    """Start a fresh in-process server and connect ``client`` (a pygls client) to it."""
    loop = asyncio.get_running_loop()
    to_client = asyncio.StreamReader(limit=1 << 26)
    server = InProcessServer(loop, to_client, fake)
    server.start()
    client.protocol.set_writer(_ToServer(server))
    # The client's reading loop (pygls's public ``run_async``): it ends when the server's
    # writer closes the stream (``stop()``).
    server.connection = asyncio.create_task(
        run_async(
            stop_event=server.client_stop,
            reader=to_client,
            protocol=client.protocol,
            logger=logging.getLogger("pygls.client"),
            error_handler=client.report_server_error,
        )
    )
    return server
