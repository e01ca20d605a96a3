"""textDocument/foldingRange: sections, Gemstack blocks, tasks and JSON objects and arrays
(``ide.folding``). Latency lane."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from gemstack_lsp.ide.folding import document_folds
from gemstack_lsp.server import convert_authoring
from gemstack_lsp.server.context import RequestView
from gemstack_lsp.server.requests import request

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer


def folding_range(view: RequestView, params: lsp.FoldingRangeParams) -> list[lsp.FoldingRange] | None:
    ctx = view.document(params.text_document.uri)
    if ctx is None or ctx.snapshot is None or ctx.rel is None:
        return None
    return convert_authoring.to_folding_ranges(document_folds(ctx.snapshot, ctx.rel))


def register(server: GemstackServer) -> None:
    request(server, lsp.TEXT_DOCUMENT_FOLDING_RANGE)(folding_range)
