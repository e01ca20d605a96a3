"""The last semantic-token answer of each document, for ``textDocument/semanticTokens/full/delta``.

The one piece of server state a request handler writes: a delta request is answered with the
edits between the answer the client holds (named by its ``resultId``) and the new one, so the
answers given must be kept. The store is the server's (one per server, handed to each request
in its view) and guarded by a lock, as the handlers run on workers.
"""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict

#: How many documents' last answers are kept for deltas.
KEPT = 256


class TokenResults:
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
