"""`gemstack-lsp serve`: run the language server over stdio (or TCP for debugging).

Nothing here imports pygls until ``run``: the CLI builds this parser for every invocation.
"""

from __future__ import annotations

import argparse
import gc
import logging
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (the default)")
    parser.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP address instead (debugging)")
    parser.add_argument(
        "--log-level", default="warning", choices=("error", "warning", "info", "debug"), help="stderr log level"
    )


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
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(RedactingFormatter("%(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=getattr(logging, str(args.log_level).upper()), handlers=[handler])
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

    if args.tcp:
        host, port = _address(args.tcp)
        serve_tcp(host, port)
    else:
        serve_stdio()
    return 0
