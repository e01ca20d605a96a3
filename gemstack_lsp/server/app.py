"""The composition root: a ``GemstackServer`` with every feature module wired onto it.

Each module registers its own handlers (``register(server)``), one file per LSP area. The
diagnostics path is registered when the server is created: the lifecycle and diagnostics
(``lifecycle``), settings (``settings_sync``) and the refresh requests sent after analyses
(``refresh``). The other features (hover, code actions, commands, code lenses,
navigation, completion, document symbols, then the authoring features: semantic tokens,
document highlights, folding and selection ranges, rename, formatting and inlay hints) are
declared (``server/features.py``) and each module is loaded on its first message, so that
``initialize`` is answered without importing them.
"""

from __future__ import annotations

from gemstack_lsp.server import lifecycle, refresh, server, settings_sync
from gemstack_lsp.server.features import LAZY_FEATURES
from gemstack_lsp.server.server import GemstackServer

__all__ = ["create_server", "serve_stdio", "serve_tcp"]


def create_server(*, load_features: bool = False) -> GemstackServer:
    """A fully wired server, not yet started; ``load_features`` loads every feature module now
    instead of on its first message."""
    ls = GemstackServer()
    lifecycle.register(ls)
    settings_sync.register(ls)
    refresh.register(ls)
    for feature in LAZY_FEATURES:
        ls.declare(feature)
    if load_features:
        ls.load_features()
    return ls


def serve_stdio() -> None:
    """Serve one client on stdin/stdout until it sends ``exit`` or closes the pipe."""
    server.serve_stdio(create_server())


def serve_tcp(host: str, port: int) -> None:
    server.serve_tcp(create_server(), host, port)
