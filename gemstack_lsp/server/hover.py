"""textDocument/hover: what Gemstack knows about the thing under the cursor (``ide.hover``).

Outside a Gemstack repository only finding codes mean something (a CI log, a note): they
get the catalogue's explanation. Inside one, the diagnostics the client has under the cursor
add their codes' explanations to the sections of the word itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from gemstack_lsp import ide
from gemstack_lsp.server import convert, convert_ide
from gemstack_lsp.server.context import DocumentContext, RequestView
from gemstack_lsp.server.requests import request

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer


def _codes_under_cursor(view: RequestView, ctx: DocumentContext, offset: int) -> list[str]:
    """The finding codes of the diagnostics the client was last given under ``offset``."""
    codes: list[str] = []
    for d in view.published.get(ctx.uri, ()):
        span = convert.to_span(ctx.source, d.range, ctx.encoding)
        if span.contains(offset) and isinstance(d.code, str) and d.code not in codes:
            codes.append(d.code)
    return codes


def hover(view: RequestView, params: lsp.HoverParams) -> lsp.Hover | None:
    ctx = view.document(params.text_document.uri)
    if ctx is None or not ctx.settings.hover:
        return None
    offset = convert.to_offset(ctx.source, params.position, ctx.encoding)
    if ctx.snapshot is None or ctx.rel is None:
        info = ide.code_hover(ctx.text, offset, view.language)
        return (
            convert_ide.to_hover(info, ctx.source, ctx.encoding, ctx.client.markdown_hover)
            if info is not None
            else None
        )
    options = ide.HoverOptions(ctx.settings.environment, ctx.settings.max_ledger_age_days, view.language)
    info = ide.hover(ctx.snapshot, ctx.rel, offset, options, _codes_under_cursor(view, ctx, offset))
    if info is None:
        return None
    return convert_ide.to_hover(info, ctx.source, ctx.encoding, ctx.client.markdown_hover)


def register(server: GemstackServer) -> None:
    request(server, lsp.TEXT_DOCUMENT_HOVER)(hover)
