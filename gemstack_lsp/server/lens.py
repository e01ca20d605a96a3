"""textDocument/codeLens: the capsule state and the gate preview (``ide.lens``), and refreshes.

A lens on spec.md depends on other files (tasks.md, the capsule, the ledger): the client
re-asks for the lenses of a document it edits, not for those of the others. So when an
analysis changes a repository's findings, clients that support it are asked to refresh.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from gemstack_lsp import ide
from gemstack_lsp.core.i18n import LENS_TITLE, localize
from gemstack_lsp.server import convert_ide
from gemstack_lsp.server.context import RequestView
from gemstack_lsp.server.requests import request
from gemstack_lsp.server.settings import analysis_options

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer


def code_lens(view: RequestView, params: lsp.CodeLensParams) -> list[lsp.CodeLens] | None:
    ctx = view.document(params.text_document.uri)
    if ctx is None or ctx.snapshot is None or ctx.rel is None or not ctx.settings.code_lens:
        return None
    options = analysis_options(ctx.settings, ctx.snapshot.options)
    language = view.language  # the lens titles in the client's language
    infos = ide.code_lenses(ctx.snapshot, ctx.rel, options, language)
    shown = [replace(i, title=localize(LENS_TITLE, i.title, language)) for i in infos]
    return [convert_ide.to_code_lens(i, ctx.source, ctx.encoding) for i in shown]


def register(server: GemstackServer) -> None:
    # The lenses' refresh requests are sent from the server's start (``authoring_refresh.watch_lenses``).
    request(server, lsp.TEXT_DOCUMENT_CODE_LENS, lsp.CodeLensOptions(resolve_provider=False))(code_lens)
