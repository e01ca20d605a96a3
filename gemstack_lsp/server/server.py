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
import importlib
import logging
import os
import stat
import sys
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import Any

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, PyglsError
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from gemstack_lsp import __version__
from gemstack_lsp.core.printable import printable
from gemstack_lsp.server import builtins, requests, rpc
from gemstack_lsp.server.diagnostics import Diagnostics
from gemstack_lsp.server.features import LazyFeature
from gemstack_lsp.server.session import Session
from gemstack_lsp.server.token_results import TokenResults
from gemstack_lsp.uris import uri_to_path

log = logging.getLogger(__name__)


class GemstackProtocol(LanguageServerProtocol):
    """pygls's protocol object, kept for what pygls offers publicly: the handler registry
    (``fm``), the progress helper and the typed client methods of ``LanguageServer``, which call
    the public ``notify``/``send_request``. The JSON-RPC layer itself is ours
    (``server/rpc.py``): those public methods are routed to the server's ``Endpoint``, and
    messages never reach pygls's dispatch (``handle_message`` refuses to run it)."""

    def __init__(self, server: Any, converter: Any) -> None:
        super().__init__(server, converter)
        self.endpoint = rpc.Endpoint(
            converter,
            lookup=self.handler_of,
            report=server.report_server_error,
            on_request=partial(requests.dispatch, server),
        )
        self.server = server
        #: Our own handlers of the methods pygls builds in (``builtins.py``), by method.
        self.builtins: dict[str, Callable[[Any], Any]] = builtins.handlers(server, self)

    def handler_of(self, method: str) -> Callable[[Any], Any] | None:
        handler: Callable[[Any], Any] | None = self.builtins.get(method) or self.fm.features.get(method)
        if handler is None and method in self.server.lazy_methods:
            try:
                self.server.load_feature(self.server.lazy_methods[method])  # its first message
            except Exception as exc:  # a module that cannot load: its message is still answered
                log.exception("loading the handler of %s failed", method)
                return partial(_raise, exc)
            handler = self.fm.features.get(method)
        return handler

    def handle_message(self, message: Any) -> None:
        """Not used: every message goes through ``Endpoint.receive`` (a decoded one: ``handle``)."""
        if isinstance(message, dict):
            self.endpoint.handle(message)
            return
        raise TypeError("messages are handled by gemstack_lsp.server.rpc.Endpoint")

    def set_writer(self, writer: Any, include_headers: bool = True) -> None:
        self.writer = writer
        self.endpoint.writer = writer

    def notify(self, method: str, params: Any | None = None) -> None:
        self.endpoint.notify(method, params)

    def send_request(
        self,
        method: str,
        params: Any | None = None,
        callback: Callable[[Any], None] | None = None,
        msg_id: Any = None,
    ) -> Future[Any]:
        return self.endpoint.send_request(method, params, callback, msg_id)

    def send_request_async(self, method: str, params: Any | None = None, msg_id: Any = None) -> asyncio.Future[Any]:
        return asyncio.wrap_future(self.endpoint.send_request(method, params, msg_id=msg_id))


def _raise(error: Exception, params: Any) -> Any:
    raise error


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
        #: Set to stop reading the connection (``shutdown``).
        self.stop_event = threading.Event()
        #: The feature modules declared and not loaded yet (``server/features.py``), by method
        #: and by command.
        self.lazy_methods: dict[str, LazyFeature] = {}
        self.lazy_commands: dict[str, LazyFeature] = {}
        #: Every feature declared, loaded or not, in the order of declaration; the modules loaded.
        self.declared: list[LazyFeature] = []
        self.loaded: set[str] = set()
        #: Freeze the objects the analysis modules create when they are loaded after
        #: ``initialize`` (``lifecycle._preload_analysis``): set for the server a process serves.
        self.freeze_preloaded = False

    def declare(self, feature: LazyFeature) -> None:
        """Register ``feature``'s module on the first message of one of its methods or commands;
        until then its methods, options and commands are declared (``initialize``)."""
        self.declared.append(feature)
        for method, _ in feature.methods:
            self.lazy_methods[method] = feature
        for command in feature.commands:
            self.lazy_commands[command] = feature

    def load_feature(self, feature: LazyFeature) -> None:
        """Import a declared feature module and register its handlers (once)."""
        if feature.module in self.loaded:
            return
        self.loaded.add(feature.module)
        for method, _ in feature.methods:
            self.lazy_methods.pop(method, None)
        for command in feature.commands:
            self.lazy_commands.pop(command, None)
        importlib.import_module(f"gemstack_lsp.server.{feature.module}").register(self)

    def load_features(self) -> None:
        """Load every declared feature module now."""
        for feature in self.declared:
            self.load_feature(feature)

    @property
    def endpoint(self) -> rpc.Endpoint:
        """The JSON-RPC layer of the connection (``server/rpc.py``)."""
        return self.protocol.endpoint

    async def serve(self, stream: Any, writer: Any) -> None:
        """Serve one connection: frames read from ``stream`` (``read(n)`` coroutine, as an
        ``asyncio.StreamReader``), messages written to ``writer`` (``write(bytes)``, ``close()``),
        until the input ends or the server stops."""
        from gemstack_lsp.server import transport

        self.protocol.set_writer(writer)
        await transport.serve(self.stop_event, transport.FrameReader(stream), self.endpoint)

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
        msg_id = rpc.current_id()
        if msg_id is not None and msg_id in self.endpoint.cancelled:
            return True
        task = asyncio.current_task()
        return bool(task is not None and task.cancelling())

    def shutdown(self) -> None:
        self.diagnostics.executor.shutdown(wait=False, cancel_futures=True)
        self.request_executor.shutdown(wait=False, cancel_futures=True)
        self.background_executor.shutdown(wait=False, cancel_futures=True)
        self.stop_event.set()
        super().shutdown()  # type: ignore[no-untyped-call]


#: glibc's ``mallopt`` parameter for the number of malloc arenas.
_M_ARENA_MAX = -8
#: The arenas the server's threads share (glibc's default is 8 per core).
MALLOC_ARENAS = 2


def limit_malloc_arenas() -> bool:
    """Let the server's threads share ``MALLOC_ARENAS`` malloc arenas (glibc only; call before
    any thread starts). By default glibc gives each thread that allocates an arena of its own:
    the request and background workers' first requests grew the resident set of a 2,000-feature
    session by 15-20 MiB that was never given back (peak 300 MiB; about 285 MiB with two
    arenas), for no measurable speed (Python's threads take turns under the GIL). A
    ``MALLOC_ARENA_MAX`` in the environment wins. True when the limit was set."""
    if os.environ.get("MALLOC_ARENA_MAX") or not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        import platform

        if platform.libc_ver()[0] != "glibc":
            return False
        return bool(ctypes.CDLL(None).mallopt(_M_ARENA_MAX, MALLOC_ARENAS))
    except (OSError, AttributeError, ValueError):
        return False


#: The collector's youngest-generation threshold while serving (CPython's default is 700).
GC_THRESHOLD = 5000


def tune_gc() -> None:
    """Collect the youngest generation after ``GC_THRESHOLD`` net allocations instead of 700.

    A keystroke's analysis allocates and frees thousands of objects: at 700 the collector ran
    about twice per keystroke (and a full collection every 75), 0.3 ms of a keystroke's 6 in
    the 009 spec, while what a keystroke leaves alive is a few hundred objects; at 5,000 it
    runs about once in 30 keystrokes. What it would collect (reference cycles) waits for at
    most 5,000 more objects."""
    import gc

    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_THRESHOLD, middle, old)


class StdoutWriter:
    """Writes each message to a binary stream and flushes it."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def write(self, data: bytes) -> None:
        self.stream.write(data)
        self.stream.flush()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.stream.close()


async def _pipe_reader(fd: int) -> asyncio.StreamReader:
    """An ``asyncio.StreamReader`` over ``fd``: a pipe or socket is watched by the loop (no
    reader thread), so messages already received are handled back to back and a
    ``$/cancelRequest`` right behind its request cancels it before it starts; a file or a
    terminal, which the loop cannot watch, is read by a thread that feeds the stream."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 26)
    mode = os.fstat(fd).st_mode
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(fd, "rb", closefd=False))
        return reader

    def pump() -> None:
        while True:
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:
                chunk = b""
            try:
                if chunk:
                    loop.call_soon_threadsafe(reader.feed_data, chunk)
                else:
                    loop.call_soon_threadsafe(reader.feed_eof)
                    return
            except RuntimeError:  # the loop is closed
                return

    threading.Thread(target=pump, name="gemstack-stdin", daemon=True).start()
    return reader


async def _serve_stdio(server: GemstackServer) -> None:
    """Frames are read by our own reader (``server/transport.py``), which answers a malformed
    frame with a parse error and reads on."""
    reader = await _pipe_reader(sys.stdin.fileno())
    await server.serve(reader, StdoutWriter(sys.stdout.buffer))


def serve_stdio(server: GemstackServer) -> None:
    """Serve one client on stdin/stdout until it sends ``exit`` or closes the pipe."""
    limit_malloc_arenas()
    tune_gc()
    server.freeze_preloaded = True
    try:
        asyncio.run(_serve_stdio(server))
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    finally:
        server.shutdown()


def serve_tcp(server: GemstackServer, host: str, port: int) -> None:
    """Serve one client at a time on a TCP socket (``gemstack-lsp serve --tcp``)."""
    limit_malloc_arenas()
    tune_gc()
    server.freeze_preloaded = True

    listening: list[asyncio.Server] = []
    exits: list[Any] = []

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        log.info("a client connected")
        try:
            await server.serve(reader, writer)
        except SystemExit as exc:  # ``exit``: the process ends once the loop has
            exits.append(exc.code)
        finally:
            server.shutdown()
            for socket_server in listening:
                socket_server.close()

    async def main() -> None:
        socket_server = await asyncio.start_server(connection, host, port)
        listening.append(socket_server)
        log.info("serving on %s", ", ".join(str(s.getsockname()) for s in socket_server.sockets))
        with contextlib.suppress(asyncio.CancelledError):
            async with socket_server:
                await socket_server.serve_forever()

    with contextlib.suppress(BrokenPipeError, KeyboardInterrupt):
        asyncio.run(main())
    if exits:
        raise SystemExit(exits[0])
