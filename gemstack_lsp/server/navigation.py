"""Definition, references, document links and workspace symbols (``ide.navigation``, ``ide.symbols``)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from gemstack_lsp import ide
from gemstack_lsp.host import Snapshot
from gemstack_lsp.server import convert, convert_ide
from gemstack_lsp.server.context import DocumentContext, RequestView
from gemstack_lsp.server.requests import request
from gemstack_lsp.uris import path_to_uri

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer


def _locations(ctx: DocumentContext, snapshot: Snapshot, found: list[ide.Occurrence]) -> list[lsp.Location] | None:
    out = [
        convert_ide.to_location(
            ctx.uri_of(snapshot.root, occ.path), snapshot.repo.document(occ.path).source, occ.span, ctx.encoding
        )
        for occ in found
    ]
    return out or None


def _target(
    view: RequestView, uri: str, position: lsp.Position
) -> tuple[DocumentContext, Snapshot, str, ide.Occurrence] | None:
    """The document, its snapshot and path, and the identifier under the cursor."""
    ctx = view.document(uri)
    if ctx is None or ctx.snapshot is None or ctx.rel is None or not ctx.settings.navigation:
        return None
    offset = convert.to_offset(ctx.source, position, ctx.encoding)
    occ = ide.target_at(ctx.snapshot, ctx.rel, offset)
    if occ is None:
        return None
    return ctx, ctx.snapshot, ctx.rel, occ


def definition(view: RequestView, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
    found = _target(view, params.text_document.uri, params.position)
    if found is None:
        return None
    ctx, snapshot, rel, occ = found
    return _locations(ctx, snapshot, ide.definitions(snapshot, rel, occ))


def references(view: RequestView, params: lsp.ReferenceParams) -> list[lsp.Location] | None:
    found = _target(view, params.text_document.uri, params.position)
    if found is None:
        return None
    ctx, snapshot, rel, occ = found
    return _locations(ctx, snapshot, ide.references(snapshot, rel, occ, params.context.include_declaration))


def document_link(view: RequestView, params: lsp.DocumentLinkParams) -> list[lsp.DocumentLink] | None:
    ctx = view.document(params.text_document.uri)
    if ctx is None or ctx.snapshot is None or ctx.rel is None or not ctx.settings.navigation:
        return None
    root = ctx.snapshot.root
    return [
        lsp.DocumentLink(
            range=convert.to_range(ctx.source, link.span, ctx.encoding),
            target=ctx.uri_of(root, link.value),
            tooltip=link.value if ctx.client.link_tooltips else None,
        )
        for link in ide.document_links(ctx.snapshot, ctx.rel)
    ]


#: At most this many workspace symbols per answer (the first matches in repository order): a
#: picker shows a screenful, and 150,000 symbols of a large repository help nobody.
WORKSPACE_SYMBOL_LIMIT = 256


def workspace_symbol(view: RequestView, params: lsp.WorkspaceSymbolParams) -> list[lsp.SymbolInformation]:
    encoding = view.encoding
    uris = view.open_uris
    out: list[lsp.SymbolInformation] = []
    for root in view.roots:
        if not view.root_settings[root].navigation or len(out) >= WORKSPACE_SYMBOL_LIMIT:
            continue
        snapshot = view.snapshots[root]
        for entry in ide.workspace_symbols(snapshot, params.query, WORKSPACE_SYMBOL_LIMIT - len(out)):
            uri = uris.get((root, entry.path)) or path_to_uri(os.path.join(root, entry.path))
            out.append(
                lsp.SymbolInformation(
                    name=entry.name,
                    kind=convert_ide.SYMBOL_KINDS[entry.kind],
                    location=convert_ide.to_location(
                        uri, snapshot.repo.document(entry.path).source, entry.span, encoding
                    ),
                    container_name=f"{os.path.basename(root)}/{entry.container}",
                )
            )
    return out


def register(server: GemstackServer) -> None:
    request(server, lsp.TEXT_DOCUMENT_DEFINITION)(definition)
    request(server, lsp.TEXT_DOCUMENT_REFERENCES)(references)
    request(server, lsp.TEXT_DOCUMENT_DOCUMENT_LINK)(document_link)
    request(server, lsp.WORKSPACE_SYMBOL, stat="workspaceSymbol")(workspace_symbol)
