"""What a request handler knows of the document it serves: one typed value, read once.

``document_context(server, uri)`` gathers, on the worker thread the handler runs on, the
snapshot of the repository holding the document (``None`` outside every repository), the
document's text as of that snapshot, the position encoding, the settings in force for it and
the client's features. Handlers read nothing else from the session, so nothing they do races
the event loop applying the next edit.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gemstack_lsp.core.text import Encoding, SourceText
from gemstack_lsp.host import Snapshot
from gemstack_lsp.server import convert
from gemstack_lsp.server.session import ClientFeatures
from gemstack_lsp.server.settings import Settings

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer

__all__ = ["DocumentContext", "document_context", "open_uris"]


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
        return self.open_uris.get((root, rel)) or convert.path_to_uri(os.path.join(root, rel))


def open_uris(server: GemstackServer) -> dict[tuple[str, str], str]:
    """(root, relative path) -> URI of the open documents (read from a copy of the session's)."""
    documents = list(server.session.documents.values())
    return {(d.root, d.rel): d.uri for d in documents if d.root is not None and d.rel is not None}


def document_context(server: GemstackServer, uri: str) -> DocumentContext | None:
    """The document at ``uri`` as of the current snapshot (a repository file need not be open);
    ``None`` for a document that is neither open nor readable in a repository."""
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
