"""Start the Gemstack language server for the end-to-end tests, with optional test hooks.

``GEMSTACK_TEST_AUDIT=1`` records every file write and every non-local socket the server
process makes (Python audit events) and answers them on the ``test/audit`` request.
``GEMSTACK_TEST_WATCH=<folder>`` also records every open (reads included) and every directory
listing of a path inside that folder (a folder the server must never look into).
``GEMSTACK_TEST_FAKE=1`` adds one check that reports ``FAKE-FINDING`` markers in specs/ (a
catalogued code with a fix), so the diagnostics machinery is tested on exact, known spans.
``test/raise`` raises inside a handler (the server must answer an error and carry on).
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Iterable
from typing import Any

sys.dont_write_bytecode = True

EVENTS: list[str] = []
WATCHED = os.environ.get("GEMSTACK_TEST_WATCH") or None
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


def _watched(path: Any) -> bool:
    if WATCHED is None or isinstance(path, int) or path is None:
        return False
    text = os.fsdecode(path) if isinstance(path, bytes | os.PathLike) else str(path)
    return text == WATCHED or text.startswith(WATCHED.rstrip("/") + "/")


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event in ("open", "os.listdir", "os.scandir") and args and _watched(args[0]):
        EVENTS.append(f"touched-watched {event} {args[0]!r}")
        return
    if event == "open":
        path, mode, flags = args
        writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and flags & _WRITE_FLAGS
        )
        if writes and path not in ("/dev/null",) and not isinstance(path, int):
            EVENTS.append(f"open-for-write {path!r} {mode!r} {flags!r}")
    elif event in (
        "os.rename",
        "os.remove",
        "os.unlink",
        "os.mkdir",
        "os.rmdir",
        "os.symlink",
        "os.link",
        "os.truncate",
        "os.chmod",
        "shutil.copyfile",
        "shutil.rmtree",
    ):
        EVENTS.append(f"{event} {args!r}")
    elif event == "socket.__new__":
        family = args[1] if len(args) > 1 else None
        if family not in (socket.AF_UNIX, -1, None):
            EVENTS.append(f"socket {args!r}")
    elif event in ("socket.connect", "socket.bind", "socket.getaddrinfo", "socket.sendto", "socket.gethostbyname"):
        EVENTS.append(f"{event} {args!r}")


def _fake_check(repo: Any, feature: Any, options: Any) -> Iterable[Any]:
    from gemstack_lsp.core.findings import Finding, Fix, TextEdit
    from gemstack_lsp.core.text import Span

    marker = "FAKE-FINDING"
    if True:
        for path in (feature.spec, feature.plan, feature.tasks):
            doc = repo.document(path)
            if doc.text is None:
                continue
            start = doc.text.find(marker)
            while start >= 0:
                span = Span(start, start + len(marker))
                yield Finding(
                    "JSON_DUPLICATE_KEY",
                    "fake finding for the LSP tests",
                    path,
                    span,
                    subject=marker,
                    fixes=(Fix("Replace the fake marker", (TextEdit(path, span, "fixed-marker"),), preferred=True),),
                )
                start = doc.text.find(marker, start + 1)


def main() -> None:
    if os.environ.get("GEMSTACK_TEST_AUDIT") == "1":
        sys.addaudithook(_audit)
    if os.environ.get("GEMSTACK_TEST_FAKE") == "1":
        from gemstack_lsp.core import rules

        original = rules.feature_checks

        def patched() -> list[Any]:
            return [*original(), ("fake", _fake_check)]

        rules.feature_checks = patched
    from gemstack_lsp.server.app import create_server
    from gemstack_lsp.server.server import serve_stdio

    server = create_server()

    @server.feature("test/audit")
    def audit(params: Any) -> list[str]:
        return list(EVENTS)

    @server.feature("test/raise")
    def boom(params: Any) -> None:
        raise RuntimeError("deliberate failure inside a handler")

    serve_stdio(server)


if __name__ == "__main__":
    main()
