"""workspace/semanticTokens/refresh and workspace/inlayHint/refresh, sent when an analysis
changes a repository's findings.

Tokens and hints of a document depend on other files: a contract frozen by state.json (the
``readonly`` modifier, the ``frozen`` hint), an id that another document declares (a prose
mention is marked only once something declares it), a test's result in closure.json. A
client re-asks for the tokens and hints of the document it edits, not of the others; as for
code lenses (``server/lens.py``), a client that supports the refresh requests is asked to
refresh after an analysis that changed any file's findings. The first analysis of a repository
counts too: an edit made while it ran is part of it, and a refresh the client did not need
costs one request.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer

log = logging.getLogger(__name__)


def _quiet(future: Future[Any]) -> None:
    """A refresh the client declined (or the pipe closed) is nobody's error."""
    if not future.cancelled() and future.exception() is not None:
        log.debug("refresh declined: %s", future.exception())


def _supports(server: GemstackServer) -> tuple[bool, bool]:
    """(semantic tokens refresh, inlay hint refresh) as the client declared them."""
    ws = server.client_capabilities.workspace
    tokens = bool(ws and ws.semantic_tokens and ws.semantic_tokens.refresh_support)
    hints = bool(ws and ws.inlay_hint and ws.inlay_hint.refresh_support)
    return tokens, hints


def register(server: GemstackServer) -> None:
    def on_analysis(root: str, changed: frozenset[str]) -> None:
        if not changed:
            return
        tokens, hints = _supports(server)
        settings = server.session.settings_for_root(root)
        try:
            if tokens and settings.semantic_tokens:
                server.workspace_semantic_tokens_refresh(None).add_done_callback(_quiet)
            if hints and settings.inlay_hints:
                server.workspace_inlay_hint_refresh(None).add_done_callback(_quiet)
        except Exception as exc:  # the client went away: there is nobody to refresh
            log.debug("refresh not sent: %s", exc)

    server.diagnostics.listeners.append(on_analysis)


def watch_lenses(server: GemstackServer) -> None:
    """Ask the client to refresh its lenses when an analysis changes a repository's findings.

    A lens on spec.md depends on other files (tasks.md, the capsule, the ledger): the client
    re-asks for the lenses of a document it edits, not for those of the others. The first
    analysis of a repository is not followed by a refresh (the client asks for lenses anyway).
    Installed with the server, before the lenses' own module is loaded (``server/lens.py``).
    """
    seen: set[str] = set()

    def on_analysis(root: str, changed: frozenset[str]) -> None:
        first = root not in seen
        seen.add(root)
        if first or not changed or not server.session.client.code_lens_refresh:
            return
        if not server.session.settings_for_root(root).code_lens:
            return
        future = server.workspace_code_lens_refresh(None)
        future.add_done_callback(lambda f: f.cancelled() or f.exception())

    server.diagnostics.listeners.append(on_analysis)
