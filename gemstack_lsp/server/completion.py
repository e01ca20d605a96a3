"""textDocument/completion: schema-driven keys, values, ids and snippets (``ide.completion``)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from gemstack_lsp import ide
from gemstack_lsp.core.i18n import COMPLETION, Language, localize
from gemstack_lsp.ide import Candidate
from gemstack_lsp.server import convert, convert_ide
from gemstack_lsp.server.context import RequestView
from gemstack_lsp.server.requests import request

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer

#: Characters after which clients ask for completions unprompted.
TRIGGER_CHARACTERS = ['"', "`", ",", "=", ":"]


def completion(view: RequestView, params: lsp.CompletionParams) -> lsp.CompletionList | None:
    ctx = view.document(params.text_document.uri)
    if ctx is None or ctx.snapshot is None or ctx.rel is None or not ctx.settings.completion:
        return None
    offset = convert.to_offset(ctx.source, params.position, ctx.encoding)
    language = view.language  # labels, details and documentation in the client's language
    candidates = ide.complete(ctx.snapshot, ctx.rel, offset, language)
    if language != "en":
        candidates = [_localized(c, language) for c in candidates]
    return lsp.CompletionList(
        # Items narrowed by the typed text: a client that re-filters its cached list (on a
        # backspace, say) would otherwise never see the items the first request left out.
        is_incomplete=any(c.narrowed for c in candidates),
        items=convert_ide.to_completion_items(
            candidates, ctx.source, ctx.encoding, ctx.client.snippets, ctx.client.markdown_completion_docs
        ),
    )


def _localized(candidate: Candidate, language: Language) -> Candidate:
    """A completion item's texts in ``language``: the static ones the server writes (a block's
    description, a snippet's name). A JSON Schema's titles and descriptions come from
    ``ide.complete`` already in ``language`` (``core.schemas.localized_schema``) and match no
    template, so they pass through unchanged."""

    def text(value: str | None) -> str | None:
        return None if value is None else localize(COMPLETION, value, language)

    if candidate.kind == "snippet":  # a snippet's name ("New contract"); other labels are JSON text
        label = localize(COMPLETION, candidate.label, language)
        candidate = dataclasses.replace(candidate, label=label, filter=label)
    return dataclasses.replace(candidate, detail=text(candidate.detail), documentation=text(candidate.documentation))


def register(server: GemstackServer) -> None:
    request(server, lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=TRIGGER_CHARACTERS))(
        completion
    )
