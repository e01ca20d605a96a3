"""The composition root: a ``GemstackServer`` with every feature module wired onto it.

Each module registers its own handlers (``register(server)``), one file per LSP area: the
lifecycle and diagnostics (``lifecycle``), settings (``settings_sync``), hover, code actions,
commands, code lenses, navigation, completion and document symbols; then the authoring
features: semantic tokens, document highlights, folding and selection ranges, rename,
formatting and inlay hints; and the refresh requests that follow an analysis (``refresh``).
"""

from __future__ import annotations

from gemstack_lsp.server import (
    actions,
    capsule_state,
    commands,
    completion,
    folding,
    formatting,
    highlight,
    hover,
    inlay_hints,
    lens,
    lifecycle,
    navigation,
    refresh,
    rename,
    selection_range,
    semantic_tokens,
    server,
    settings_sync,
    symbols,
)
from gemstack_lsp.server.server import GemstackServer

__all__ = ["create_server", "serve_stdio", "serve_tcp"]


def create_server() -> GemstackServer:
    """A fully wired server, not yet started."""
    ls = GemstackServer()
    lifecycle.register(ls)
    for module in (hover, actions, commands, capsule_state, lens, navigation, completion, symbols, settings_sync):
        module.register(ls)
    # The authoring features (issue 20): one module per method family.
    authoring = (semantic_tokens, highlight, folding, selection_range, rename, formatting, inlay_hints)
    for module in (*authoring, refresh):
        module.register(ls)
    return ls


def serve_stdio() -> None:
    """Serve one client on stdin/stdout until it sends ``exit`` or closes the pipe."""
    server.serve_stdio(create_server())


def serve_tcp(host: str, port: int) -> None:
    server.serve_tcp(create_server(), host, port)
