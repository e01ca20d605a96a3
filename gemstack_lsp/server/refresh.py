"""workspace/codeLens/refresh, workspace/semanticTokens/refresh and workspace/inlayHint/refresh,
sent once a burst of analyses that changed a repository's findings has settled.

Lenses, tokens and hints of a document depend on other files: a lens on spec.md on tasks.md,
the capsule and the ledger; tokens on a contract frozen by state.json (the ``readonly``
modifier) or an id another document declares (a prose mention is marked only once something
declares it); hints on closure.json's results. A client re-asks for the lenses, tokens and
hints of the document it edits, never of the others, so those are what a refresh is for.

Typing analyses the repository on every keystroke, and each of those analyses changes the
edited document's findings. Sent after each one, the refreshes would make the client re-ask
for every visible document's lenses, tokens and hints several times a second while the user
types, for documents that will change again a keystroke later. So the refreshes of a
repository wait until its analyses have been quiet for ``QUIET`` seconds (a trailing
debounce): one round of refresh requests per pause in the typing, whatever the number of
keystrokes. A save, a watched file or a command's write is one analysis, refreshed ``QUIET``
seconds after it.

What each client is asked follows what it declared (``refreshSupport``) and the repository's
settings at the moment the requests are sent. The first analysis of a repository asks for the
tokens and hints (an edit made while it ran is part of it; a refresh the client did not need
costs one request), not for the lenses, which the client asks for once that analysis is
published.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer

__all__ = ["QUIET", "register"]

log = logging.getLogger(__name__)

#: Seconds a repository's analyses must have been quiet before its refreshes are sent.
QUIET = 0.25


def _quiet(future: Future[Any]) -> None:
    """A refresh the client declined (or the pipe closed) is nobody's error."""
    if not future.cancelled() and future.exception() is not None:
        log.debug("refresh declined: %s", future.exception())


class _Refreshes:
    """The pending refreshes of each repository and the timer that sends them (on the loop)."""

    def __init__(self, server: GemstackServer) -> None:
        self.server = server
        self.seen: set[str] = set()
        #: root -> whether its lenses are due too (not after a repository's first analysis).
        self.pending: dict[str, bool] = {}
        self.timers: dict[str, asyncio.TimerHandle] = {}

    def on_analysis(self, root: str, changed: frozenset[str]) -> None:
        """A diagnostics listener: called on the loop after an analysis of ``root``."""
        if not changed:
            return
        first = root not in self.seen
        self.seen.add(root)
        self.pending[root] = self.pending.get(root, False) or not first
        timer = self.timers.pop(root, None)
        if timer is not None:
            timer.cancel()
        self.timers[root] = asyncio.get_running_loop().call_later(QUIET, self.flush, root)

    def flush(self, root: str) -> None:
        self.timers.pop(root, None)
        lenses = self.pending.pop(root, False)
        server = self.server
        if server.endpoint.shutting_down:
            return  # the client asked the server to shut down: it asks for nothing more
        client = server.session.client
        settings = server.session.settings_for_root(root)
        ws = server.client_capabilities.workspace
        try:
            if lenses and client.code_lens_refresh and settings.code_lens:
                server.workspace_code_lens_refresh(None).add_done_callback(_quiet)
            if ws and ws.semantic_tokens and ws.semantic_tokens.refresh_support and settings.semantic_tokens:
                server.workspace_semantic_tokens_refresh(None).add_done_callback(_quiet)
            if ws and ws.inlay_hint and ws.inlay_hint.refresh_support and settings.inlay_hints:
                server.workspace_inlay_hint_refresh(None).add_done_callback(_quiet)
        except Exception as exc:  # the client went away: there is nobody to refresh
            log.debug("refresh not sent: %s", exc)


def register(server: GemstackServer) -> None:
    server.diagnostics.listeners.append(_Refreshes(server).on_analysis)
