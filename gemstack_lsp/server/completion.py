"""textDocument/completion: schema-driven keys, values, ids and snippets (``ide.completion``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from gemstack_lsp import ide
from gemstack_lsp.server import convert, convert_ide
from gemstack_lsp.server.context import document_context
from gemstack_lsp.server.requests import request

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer

#: Characters after which clients ask for completions unprompted.
TRIGGER_CHARACTERS = ['"', "`", ",", "=", ":"]


def completion(server: GemstackServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
    ctx = document_context(server, params.text_document.uri)
    if ctx is None or ctx.snapshot is None or ctx.rel is None or not ctx.settings.completion:
        return None
    server.stats["completion"] += 1
    offset = convert.to_offset(ctx.source, params.position, ctx.encoding)
    candidates = ide.complete(ctx.snapshot, ctx.rel, offset)
    return lsp.CompletionList(
        # Items narrowed by the typed text: a client that re-filters its cached list (on a
        # backspace, say) would otherwise never see the items the first request left out.
        is_incomplete=any(c.narrowed for c in candidates),
        items=convert_ide.to_completion_items(
            candidates, ctx.source, ctx.encoding, ctx.client.snippets, ctx.client.markdown_completion_docs
        ),
    )


def register(server: GemstackServer) -> None:
    request(server, lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=TRIGGER_CHARACTERS))(
        completion
    )
