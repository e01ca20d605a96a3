"""textDocument/inlayHint: test results from closure.json, frozen contracts, tests bound to a
file (``ide.inlay_hints``), each kind switched by its own setting. Latency lane."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from gemstack_lsp.core.i18n import INLAY_HINT, localize
from gemstack_lsp.ide.inlay_hints import InlayHintOptions, inlay_hints
from gemstack_lsp.server import convert, convert_authoring
from gemstack_lsp.server.context import RequestView
from gemstack_lsp.server.requests import request

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer


def inlay_hint(view: RequestView, params: lsp.InlayHintParams) -> list[lsp.InlayHint] | None:
    ctx = view.document(params.text_document.uri)
    if ctx is None or ctx.snapshot is None or ctx.rel is None or not ctx.settings.inlay_hints:
        return None
    s = ctx.settings
    options = InlayHintOptions(s.inlay_hints_test_results, s.inlay_hints_frozen_contracts, s.inlay_hints_bindings)
    within = convert.to_span(ctx.source, params.range, ctx.encoding)
    hints = inlay_hints(ctx.snapshot, ctx.rel, within, options)
    language = view.language  # labels and tooltips in the client's language
    if language != "en":
        hints = tuple(
            replace(
                h,
                label=localize(INLAY_HINT, h.label, language),
                tooltip=None if h.tooltip is None else localize(INLAY_HINT, h.tooltip, language),
            )
            for h in hints
        )
    return convert_authoring.to_inlay_hints(hints, ctx.source, ctx.encoding)


def register(server: GemstackServer) -> None:
    request(server, lsp.TEXT_DOCUMENT_INLAY_HINT)(inlay_hint)
