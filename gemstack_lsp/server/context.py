"""What a request handler knows of the server: one typed value, taken on the event loop.

``document_context(server, uri)`` gathers the snapshot of the repository holding the document
(``None`` outside every repository), the document's text as of that snapshot, the position
encoding, the settings in force for it and the client's features.

A request's ``RequestView`` is taken on the event loop when the request is dispatched, before
any later message (an edit) is applied and before the request goes to a worker
(``take_view``): the document context of the document it names, the snapshot, settings and
open URIs of every repository, the versions of the open buffers and the diagnostics last
published for the document. While the handler runs on its worker the view is installed
(``installed``), and ``document_context`` and the ``view_*`` helpers answer from it: the
handler reads nothing of the session, which the event loop goes on changing.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from gemstack_lsp.core.text import Encoding, SourceText
from gemstack_lsp.host import Snapshot
from gemstack_lsp.server.session import ClientFeatures
from gemstack_lsp.server.settings import Settings
from gemstack_lsp.uris import path_to_uri

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer

__all__ = [
    "DocumentContext",
    "RequestView",
    "current_view",
    "document_context",
    "installed",
    "open_uris",
    "take_view",
]


@dataclass(frozen=True)
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


def document_context(server: GemstackServer, uri: str) -> DocumentContext | None:
    """The document at ``uri`` as of the current snapshot (a repository file need not be open);
    ``None`` for a document that is neither open nor readable in a repository. Inside a request
    the snapshot is the one its view was taken with."""
    view = _VIEW.get()
    if view is not None and uri in view.documents:
        return view.documents[uri]
    return _document_context_now(server, uri)


def _document_context_now(server: GemstackServer, uri: str) -> DocumentContext | None:
    session = server.session
    settings = session.settings_for(uri)
    found = server.snapshot_for(uri)
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


@dataclass(frozen=True)
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

    @property
    def reads(self) -> frozenset[str]:
        """The roots whose change outdates this request: the named document's, else all."""
        named = [ctx.snapshot.root for ctx in self.documents.values() if ctx is not None and ctx.snapshot]
        return frozenset(named) if self.documents else frozenset(self.roots)


_VIEW: contextvars.ContextVar[RequestView | None] = contextvars.ContextVar("gemstack_request_view", default=None)


def current_view() -> RequestView | None:
    """The view of the request being handled (``None`` outside one)."""
    return _VIEW.get()


@contextlib.contextmanager
def installed(view: RequestView) -> Iterator[RequestView]:
    """Run the block (a handler, on its worker) with ``view`` as the request's view."""
    token = _VIEW.set(view)
    try:
        yield view
    finally:
        _VIEW.reset(token)


def uri_in(params: Any) -> str | None:
    """The document URI a request's params name, if they name one."""
    document = getattr(params, "text_document", None)
    uri = getattr(document, "uri", None)
    if isinstance(uri, str):
        return uri
    if isinstance(params, Mapping):
        value = params.get("uri")
        if value is None and isinstance(params.get("textDocument"), Mapping):
            value = params["textDocument"].get("uri")
        return value if isinstance(value, str) else None
    return None


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
    )
