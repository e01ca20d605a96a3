"""`gemstack-lsp serve`: run the language server over stdio (or TCP for debugging).

Nothing here imports pygls until ``run``: the CLI builds this parser for every invocation.
How editors start the server (``serve``, ``serve --stdio``) is understood without building the
parser (``run_argv``): it is on the way to the answer to ``initialize``.
"""

from __future__ import annotations

import gc
import logging
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

#: ``--log-level``'s default.
DEFAULT_LOG_LEVEL = "warning"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (the default)")
    parser.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP address instead (debugging)")
    parser.add_argument(
        "--log-level", default=DEFAULT_LOG_LEVEL, choices=("error", "warning", "info", "debug"), help="stderr log level"
    )


def run_argv(argv: Sequence[str]) -> int:
    """Run with ``argv``: ``[]`` and ``["--stdio"]`` directly, anything else through the parser."""
    if list(argv) in ([], ["--stdio"]):
        return serve(None, DEFAULT_LOG_LEVEL)
    from gemstack_lsp.cli import SUBCOMMANDS
    from gemstack_lsp.commands.parser import Parser

    help_text = SUBCOMMANDS["serve"][1]
    parser = Parser(prog="gemstack-lsp serve", description=help_text)
    add_arguments(parser)
    return run(parser.parse_args(list(argv)))


def _address(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit():
        from gemstack_lsp.core import i18n

        raise SystemExit(i18n.ui("serve.tcp_address", i18n.current_language(), value=repr(value)))
    return host or "127.0.0.1", int(port)


class RedactingFormatter(logging.Formatter):
    """No log line (tracebacks included) quotes a secret-looking value, and a message cannot
    forge a log line or drive a terminal: its line breaks and control characters are escaped
    (a traceback keeps its lines)."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        from gemstack_lsp.core.printable import printable

        record.message = printable(record.message)
        return super().formatMessage(record)

    def format(self, record: logging.LogRecord) -> str:
        from gemstack_lsp.core.redact import redact

        return redact(super().format(record))


def run(args: argparse.Namespace) -> int:
    return serve(args.tcp, str(args.log_level))


def serve(tcp: str | None, log_level: str) -> int:
    """Serve on stdin/stdout, or on the TCP address ``tcp`` (``HOST:PORT``), logging at ``log_level``."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(RedactingFormatter("%(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=getattr(logging, log_level.upper()), handlers=[handler])
    # The server's imports (lsprotocol's hundreds of classes, then ours) create objects that
    # live as long as the process: the collector's passes over them while they are created
    # were a quarter of the start-up, and frozen afterwards they are never scanned again (a
    # keystroke's collections then look at the analysis's objects only).
    gc.disable()
    try:
        from gemstack_lsp.server.app import serve_stdio, serve_tcp
    finally:
        gc.freeze()
        gc.enable()

    if tcp:
        host, port = _address(tcp)
        serve_tcp(host, port)
    else:
        serve_stdio()
    return 0
