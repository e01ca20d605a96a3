"""textDocument/documentSymbol: a document's outline (``ide.outline``), nested or flat."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from gemstack_lsp import ide
from gemstack_lsp.server import convert_ide
from gemstack_lsp.server.context import RequestView
from gemstack_lsp.server.requests import request

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer


def document_symbol(
    view: RequestView, params: lsp.DocumentSymbolParams
) -> list[lsp.DocumentSymbol] | list[lsp.SymbolInformation] | None:
    uri = params.text_document.uri
    ctx = view.document(uri)
    if ctx is None or not ctx.settings.navigation:
        return None
    if ctx.snapshot is not None and ctx.rel is not None:
        items = ide.document_outline(ctx.snapshot, ctx.rel)
    else:
        items = ide.outline(uri, ctx.text)
    if ctx.client.hierarchical_symbols:
        return convert_ide.to_document_symbols(items, ctx.source, ctx.encoding)
    return convert_ide.to_symbol_information(items, uri, ctx.source, ctx.encoding)


def register(server: GemstackServer) -> None:
    request(server, lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)(document_symbol)
