"""textDocument/selectionRange: value, member, object, block, section, document
(``ide.selection``). Latency lane."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from gemstack_lsp.ide.selection import selection_chains
from gemstack_lsp.server import convert, convert_authoring
from gemstack_lsp.server.context import RequestView
from gemstack_lsp.server.requests import request

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer


def selection_range(view: RequestView, params: lsp.SelectionRangeParams) -> list[lsp.SelectionRange] | None:
    ctx = view.document(params.text_document.uri)
    if ctx is None or ctx.snapshot is None or ctx.rel is None:
        return None
    offsets = [convert.to_offset(ctx.source, p, ctx.encoding) for p in params.positions]
    chains = selection_chains(ctx.snapshot, ctx.rel, offsets)
    return convert_authoring.to_selection_ranges(chains, ctx.source, ctx.encoding, params.positions)


def register(server: GemstackServer) -> None:
    request(server, lsp.TEXT_DOCUMENT_SELECTION_RANGE)(selection_range)
