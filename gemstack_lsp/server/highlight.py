"""textDocument/documentHighlight: the mentions of the id under the cursor in the document
(``ide.highlight``): declarations are writes, the other mentions reads. Latency lane."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from gemstack_lsp.ide.highlight import document_highlights
from gemstack_lsp.server import convert, convert_authoring
from gemstack_lsp.server.context import RequestView
from gemstack_lsp.server.requests import request

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer


def document_highlight(view: RequestView, params: lsp.DocumentHighlightParams) -> list[lsp.DocumentHighlight] | None:
    ctx = view.document(params.text_document.uri)
    if ctx is None or ctx.snapshot is None or ctx.rel is None or not ctx.settings.navigation:
        return None
    offset = convert.to_offset(ctx.source, params.position, ctx.encoding)
    found = document_highlights(ctx.snapshot, ctx.rel, offset)
    return convert_authoring.to_highlights(found, ctx.source, ctx.encoding) or None


def register(server: GemstackServer) -> None:
    request(server, lsp.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)(document_highlight)
