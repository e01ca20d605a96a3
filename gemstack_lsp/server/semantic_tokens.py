"""textDocument/semanticTokens/full, /full/delta and /range: Gemstack ids and finding codes
(``ide.semantic_tokens``, whose docstring is the legend's documentation).

A full answer carries a ``resultId``; the server keeps the last answer of each document (at
most ``KEPT`` documents) so that a delta request is answered with one edit of the integers
between what the client has and what it needs, or in full when the client's result is no
longer kept. Latency lane: these requests follow typing.
"""

from __future__ import annotations

import itertools
import threading
import weakref
from collections import OrderedDict
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from gemstack_lsp.ide.semantic_tokens import semantic_tokens
from gemstack_lsp.server import convert, convert_authoring
from gemstack_lsp.server.context import DocumentContext, document_context
from gemstack_lsp.server.requests import request

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer

#: How many documents' last answers are kept for deltas.
KEPT = 256


class _Results:
    """The last answer (result id, integers) of each document, least recently used dropped."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_uri: OrderedDict[str, tuple[str, list[int]]] = OrderedDict()
        self._ids = itertools.count(1)

    def keep(self, uri: str, data: list[int]) -> str:
        with self._lock:
            result_id = str(next(self._ids))
            self._by_uri[uri] = (result_id, data)
            self._by_uri.move_to_end(uri)
            while len(self._by_uri) > KEPT:
                self._by_uri.popitem(last=False)
            return result_id

    def previous(self, uri: str, result_id: str) -> list[int] | None:
        with self._lock:
            kept = self._by_uri.get(uri)
            return kept[1] if kept is not None and kept[0] == result_id else None


_RESULTS: weakref.WeakKeyDictionary[GemstackServer, _Results] = weakref.WeakKeyDictionary()
_RESULTS_LOCK = threading.Lock()


def _results(server: GemstackServer) -> _Results:
    with _RESULTS_LOCK:
        found = _RESULTS.get(server)
        if found is None:
            found = _RESULTS[server] = _Results()
        return found


def _data(ctx: DocumentContext, within: lsp.Range | None = None) -> list[int] | None:
    if ctx.snapshot is None or ctx.rel is None or not ctx.settings.semantic_tokens:
        return None
    span = convert.to_span(ctx.source, within, ctx.encoding) if within is not None else None
    tokens = semantic_tokens(ctx.snapshot, ctx.rel, span)
    return convert_authoring.encode_tokens(tokens, ctx.source, ctx.encoding)


def full(server: GemstackServer, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens | None:
    ctx = document_context(server, params.text_document.uri)
    data = _data(ctx) if ctx is not None else None
    if ctx is None or data is None:
        return None
    server.stats["semanticTokens"] += 1
    return lsp.SemanticTokens(data=data, result_id=_results(server).keep(ctx.uri, data))


def full_delta(
    server: GemstackServer, params: lsp.SemanticTokensDeltaParams
) -> lsp.SemanticTokens | lsp.SemanticTokensDelta | None:
    ctx = document_context(server, params.text_document.uri)
    data = _data(ctx) if ctx is not None else None
    if ctx is None or data is None:
        return None
    server.stats["semanticTokens"] += 1
    results = _results(server)
    old = results.previous(ctx.uri, params.previous_result_id)
    result_id = results.keep(ctx.uri, data)
    if old is None:
        return lsp.SemanticTokens(data=data, result_id=result_id)
    return lsp.SemanticTokensDelta(edits=convert_authoring.token_edits(old, data), result_id=result_id)


def range_(server: GemstackServer, params: lsp.SemanticTokensRangeParams) -> lsp.SemanticTokens | None:
    ctx = document_context(server, params.text_document.uri)
    data = _data(ctx, params.range) if ctx is not None else None
    if data is None:
        return None
    server.stats["semanticTokens"] += 1
    return lsp.SemanticTokens(data=data)


def register(server: GemstackServer) -> None:
    legend = convert_authoring.LEGEND
    request(server, lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, legend)(full)
    request(server, lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA, legend)(full_delta)
    request(server, lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, legend)(range_)
