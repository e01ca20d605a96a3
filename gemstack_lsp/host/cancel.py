"""Cancellation of work done for a request: a token the caller sets, polled by long loops.

The server gives each request handler a token (``cancellation``); the IDE layer and the host
call ``check_cancelled()`` between units of work (a feature, a document), so a request the
client no longer wants stops early instead of holding the worker. Outside a request nothing
is ever cancelled.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Iterator

_TOKEN: contextvars.ContextVar[threading.Event | None] = contextvars.ContextVar("gemstack_cancel", default=None)


class Cancelled(Exception):
    """Raised by ``check_cancelled`` when the work's request was cancelled."""


def cancelled() -> bool:
    """True when the request the current work is done for was cancelled."""
    token = _TOKEN.get()
    return token is not None and token.is_set()


def check_cancelled() -> None:
    """Stop the current work when its request was cancelled."""
    if cancelled():
        raise Cancelled()


@contextlib.contextmanager
def cancellation(token: threading.Event) -> Iterator[threading.Event]:
    """Run the block for a request whose cancellation sets ``token``."""
    reset = _TOKEN.set(token)
    try:
        yield token
    finally:
        _TOKEN.reset(reset)
