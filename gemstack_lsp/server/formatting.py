"""textDocument/formatting and /rangeFormatting: Gemstack blocks and Gemstack JSON files in
upstream's layout (``ide.formatting``). A document of a frozen phase is refused with the
reason (``RequestFailed``), never formatted. Latency lane."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from gemstack_lsp.core.text import Span
from gemstack_lsp.ide.formatting import FormatRefused, format_document
from gemstack_lsp.server import convert
from gemstack_lsp.server.context import RequestView
from gemstack_lsp.server.requests import RequestRefused, request

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer


def _format(view: RequestView, uri: str, within: lsp.Range | None) -> list[lsp.TextEdit] | None:
    ctx = view.document(uri)
    if ctx is None or ctx.snapshot is None or ctx.rel is None or not ctx.settings.formatting:
        return None
    span: Span | None = convert.to_span(ctx.source, within, ctx.encoding) if within is not None else None
    try:
        edits = format_document(ctx.snapshot, ctx.rel, span)
    except FormatRefused as exc:
        raise RequestRefused(str(exc)) from None
    return [lsp.TextEdit(range=convert.to_range(ctx.source, e.span, ctx.encoding), new_text=e.new_text) for e in edits]


def formatting(view: RequestView, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
    return _format(view, params.text_document.uri, None)


def range_formatting(view: RequestView, params: lsp.DocumentRangeFormattingParams) -> list[lsp.TextEdit] | None:
    return _format(view, params.text_document.uri, params.range)


def register(server: GemstackServer) -> None:
    request(server, lsp.TEXT_DOCUMENT_FORMATTING)(formatting)
    request(server, lsp.TEXT_DOCUMENT_RANGE_FORMATTING)(range_formatting)
