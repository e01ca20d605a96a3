"""Placeholder until this feature lands (language server part 2): registers nothing yet."""

from __future__ import annotations

from typing import Any


def register(server: Any) -> None:
    """Wire this feature's LSP handlers onto the server."""
    return None
