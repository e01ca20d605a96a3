"""What a request handler knows of the server: one immutable value, taken on the event loop.

Request handlers are functions of ``(view, params)``: a ``RequestView`` holds everything a
handler may read, taken on the event loop when the request is dispatched (``take_view``),
before any later message (an edit) is applied and before the request goes to a worker. It
holds the document context of the document the request names (the snapshot of its
repository, its text as of that snapshot, the position encoding, the settings in force, the
client's features), the snapshots, settings and open URIs of every repository, the versions of
the open buffers, the diagnostics last published for the document and the client's language.
Snapshots are immutable and freeze the disk documents they read, so nothing a handler reads
changes while it runs; the handler never sees the server, whose session the event loop goes
on changing. (The one thing a handler writes is the semantic-token store, ``token_results``.)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import field
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.i18n import Language
from gemstack_lsp.core.text import Encoding, SourceText
from gemstack_lsp.server.session import ClientFeatures
from gemstack_lsp.server.settings import Settings
from gemstack_lsp.server.token_results import TokenResults
from gemstack_lsp.uris import path_to_uri

if TYPE_CHECKING:
    from gemstack_lsp.host import Snapshot
    from gemstack_lsp.server.server import GemstackServer

__all__ = [
    "DocumentContext",
    "RequestView",
    "open_uris",
    "take_view",
]


@record
class DocumentContext:
    """A document as a request handler sees it.

    ``snapshot`` and ``rel`` are the repository snapshot and the document's path in it, or both
    ``None`` for a document outside every Gemstack repository (then ``text`` is its buffer).
    """

    uri: str
    text: str
    source: SourceText
    encoding: Encoding
    settings: Settings
    client: ClientFeatures
    snapshot: Snapshot | None
    rel: str | None
    #: (repository root, relative path) -> URI of every open document (locations use their URIs).
    open_uris: Mapping[tuple[str, str], str]

    def uri_of(self, root: str, rel: str) -> str:
        """The URI of a repository file: an open document's own URI when it is open."""
        return self.open_uris.get((root, rel)) or path_to_uri(os.path.join(root, rel))


def open_uris(server: GemstackServer) -> dict[tuple[str, str], str]:
    """(root, relative path) -> URI of the open documents (read from a copy of the session's)."""
    documents = list(server.session.documents.values())
    return {(d.root, d.rel): d.uri for d in documents if d.root is not None and d.rel is not None}


def _snapshot_of(server: GemstackServer, uri: str) -> tuple[Snapshot, str] | None:
    """The snapshot of the repository holding ``uri`` and the document's repository-relative
    path; ``None`` outside every Gemstack repository."""
    session = server.session
    doc = session.documents.get(uri)
    if doc is not None:
        root, rel = doc.root, doc.rel
    else:
        _, root, rel = session.locate(uri)
    if root is None or rel is None:
        return None
    return session.snapshot_of(root), rel


def _document_context_now(server: GemstackServer, uri: str) -> DocumentContext | None:
    session = server.session
    settings = session.settings_for(uri)
    found = _snapshot_of(server, uri)
    if found is not None:
        snapshot, rel = found
        document = snapshot.repo.document(rel)
        if document.text is None or document.source is None:
            return None
        return DocumentContext(
            uri,
            document.text,
            document.source,
            session.encoding,
            settings,
            session.client,
            snapshot,
            rel,
            open_uris(server),
        )
    doc = session.documents.get(uri)
    if doc is None:
        return None
    text = doc.text
    return DocumentContext(uri, text, SourceText(text), session.encoding, settings, session.client, None, None, {})


# ---------------------------------------------------------------------------------------------
# The view of one request


@record
class RequestView:
    """Everything a request handler may read of the server, as of the request's dispatch."""

    method: str
    #: URI -> its document context (the document the request names, when it names one).
    documents: Mapping[str, DocumentContext | None]
    #: Every repository root the server tracks, its snapshot and its settings.
    roots: tuple[str, ...]
    snapshots: Mapping[str, Snapshot]
    root_settings: Mapping[str, Settings]
    open_uris: Mapping[tuple[str, str], str]
    #: URI -> version of every open buffer.
    versions: Mapping[str, int]
    #: URI -> (absolute path, root, relative path) of the document the request names.
    located: Mapping[str, tuple[str | None, str | None, str | None]]
    #: URI -> the settings in force for the document the request names.
    settings: Mapping[str, Settings]
    #: URI -> the diagnostics last published for the document the request names.
    published: Mapping[str, tuple[lsp.Diagnostic, ...]] = field(default_factory=dict)
    #: The language of the client's messages, its features and the position encoding.
    language: Language = "en"
    client: ClientFeatures = field(default_factory=ClientFeatures)
    encoding: Encoding = "utf-16"
    #: Repository root -> URI -> version of its open buffers.
    root_versions: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    #: The server's store of semantic-token answers (the one thing a handler writes: behind a
    #: lock, for deltas; see ``token_results``).
    token_results: TokenResults = field(default_factory=TokenResults)

    def document(self, uri: str) -> DocumentContext | None:
        """The document the request names, as of the view (``None``: not open, not readable
        in a repository, or not the named document)."""
        return self.documents.get(uri)

    def snapshot_for(self, uri: str) -> tuple[Snapshot, str] | None:
        """The snapshot and repository-relative path of the document the request names."""
        _, root, rel = self.located.get(uri, (None, None, None))
        if root is None or rel is None or root not in self.snapshots:
            return None
        return self.snapshots[root], rel

    @property
    def reads(self) -> frozenset[str]:
        """The roots whose change outdates this request: the named document's, else all."""
        named = [ctx.snapshot.root for ctx in self.documents.values() if ctx is not None and ctx.snapshot]
        return frozenset(named) if self.documents else frozenset(self.roots)


def uri_in(params: Any) -> str | None:
    """The document URI a request's params name, if they name one: ``textDocument.uri`` or
    ``uri``, whether the params arrive as lsprotocol objects, as pygls's objects of a custom
    request (keys as sent) or as mappings."""

    def get(obj: Any, key: str) -> Any:
        if isinstance(obj, Mapping):
            return obj.get(key)
        return getattr(obj, key, None)

    document = get(params, "text_document") or get(params, "textDocument")
    uri = get(document, "uri") if document is not None else get(params, "uri")
    return uri if isinstance(uri, str) and uri else None


def _versions_by_root(server: GemstackServer) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for d in server.session.documents.values():
        if d.root is not None:
            out.setdefault(d.root, {})[d.uri] = d.version
    return out


def take_view(server: GemstackServer, method: str, params: Any) -> RequestView:
    """The view of a request, taken now (on the event loop, when the request is dispatched)."""
    session = server.session
    roots = tuple(session.roots())
    snapshots = {root: session.snapshot_of(root) for root in roots}
    uri = uri_in(params)
    documents: dict[str, DocumentContext | None] = {}
    located: dict[str, tuple[str | None, str | None, str | None]] = {}
    settings: dict[str, Settings] = {}
    published: dict[str, tuple[lsp.Diagnostic, ...]] = {}
    if uri is not None:
        documents[uri] = _document_context_now(server, uri)
        doc = session.documents.get(uri)
        located[uri] = (doc.path, doc.root, doc.rel) if doc is not None else session.locate(uri)
        settings[uri] = session.settings_for(uri)
        ctx = documents[uri]
        if ctx is not None and ctx.snapshot is not None:
            state = server.diagnostics.roots.get(ctx.snapshot.root)
            report = state.reports.get(uri) if state is not None else None
            if report is not None:
                published[uri] = tuple(report.diagnostics)
    return RequestView(
        method,
        documents,
        roots,
        snapshots,
        {root: session.settings_for_root(root) for root in roots},
        open_uris(server),
        {d.uri: d.version for d in session.documents.values()},
        located,
        settings,
        published,
        session.language,
        session.client,
        session.encoding,
        _versions_by_root(server),
        server.token_results,
    )
