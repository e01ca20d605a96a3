"""textDocument/semanticTokens/full, /full/delta and /range: Gemstack ids and finding codes
(``ide.semantic_tokens``, whose docstring is the legend's documentation).

A full answer carries a ``resultId``; the server keeps the last answer of each document (at
most ``KEPT`` documents) so that a delta request is answered with one edit of the integers
between what the client has and what it needs, or in full when the client's result is no
longer kept. Latency lane: these requests follow typing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from gemstack_lsp.ide.semantic_tokens import semantic_tokens
from gemstack_lsp.server import convert, convert_authoring
from gemstack_lsp.server.context import DocumentContext, RequestView
from gemstack_lsp.server.requests import request

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer


def _data(ctx: DocumentContext, within: lsp.Range | None = None) -> list[int] | None:
    if ctx.snapshot is None or ctx.rel is None or not ctx.settings.semantic_tokens:
        return None
    span = convert.to_span(ctx.source, within, ctx.encoding) if within is not None else None
    tokens = semantic_tokens(ctx.snapshot, ctx.rel, span)
    return convert_authoring.encode_tokens(tokens, ctx.source, ctx.encoding)


def full(view: RequestView, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens | None:
    ctx = view.document(params.text_document.uri)
    data = _data(ctx) if ctx is not None else None
    if ctx is None or data is None:
        return None
    return lsp.SemanticTokens(data=data, result_id=view.token_results.keep(ctx.uri, data))


def full_delta(
    view: RequestView, params: lsp.SemanticTokensDeltaParams
) -> lsp.SemanticTokens | lsp.SemanticTokensDelta | None:
    ctx = view.document(params.text_document.uri)
    data = _data(ctx) if ctx is not None else None
    if ctx is None or data is None:
        return None
    results = view.token_results
    old = results.previous(ctx.uri, params.previous_result_id)
    result_id = results.keep(ctx.uri, data)
    if old is None:
        return lsp.SemanticTokens(data=data, result_id=result_id)
    return lsp.SemanticTokensDelta(edits=convert_authoring.token_edits(old, data), result_id=result_id)


def range_(view: RequestView, params: lsp.SemanticTokensRangeParams) -> lsp.SemanticTokens | None:
    ctx = view.document(params.text_document.uri)
    data = _data(ctx, params.range) if ctx is not None else None
    if data is None:
        return None
    return lsp.SemanticTokens(data=data)


def register(server: GemstackServer) -> None:
    legend = convert_authoring.LEGEND
    request(server, lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, legend, stat="semanticTokens")(full)
    request(server, lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA, legend, stat="semanticTokens")(full_delta)
    request(server, lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, legend, stat="semanticTokens")(range_)
