"""The repository model: one Gemstack repository seen through a ``Reader``.

``GemstackRepo`` is a snapshot: it memoises every file it reads, so all checks of one
analysis see the same bytes, and decoding happens once per file. Parsing of Markdown and
JSON is memoised by content in the modules that parse (so an unchanged document costs
nothing on the next keystroke).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TypeVar

from gemstack_lsp.core.feature import CAPSULE_NAME as CAPSULE_NAME
from gemstack_lsp.core.feature import CLOSURE_NAME as CLOSURE_NAME
from gemstack_lsp.core.feature import FEATURE_DOCS as FEATURE_DOCS
from gemstack_lsp.core.feature import LEDGER_NAME as LEDGER_NAME
from gemstack_lsp.core.feature import SPECS_DIR as SPECS_DIR
from gemstack_lsp.core.feature import Feature as Feature
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.reader import (
    FileContent,
    Reader,
    ReadStatus,
    RepositoryState,
    normalize_relpath,
    repository_state_of,
)
from gemstack_lsp.core.state import GemstackState, active_feature_of, parse_state
from gemstack_lsp.core.text import SourceText, decode_utf8

T = TypeVar("T")

STATE_PATH = ".gemstack/state.json"

_FEATURE_NAME = re.compile(r"^[^.\s][^/\\]*$")


@record
class Document:
    """A file as analysis sees it: the read outcome and, when readable, its decoded text."""

    path: str
    content: FileContent
    text: str | None = None
    source: SourceText | None = None
    has_bom: bool = False
    #: Byte offset of the first invalid UTF-8 sequence, if any.
    invalid_utf8_at: int | None = None

    @property
    def exists(self) -> bool:
        return self.content.status is not ReadStatus.MISSING

    @property
    def readable(self) -> bool:
        return self.text is not None

    @property
    def data(self) -> bytes | None:
        return self.content.data


@dataclass
class GemstackRepo:
    """A repository root (absolute, for messages and writing) and the reader that serves its files."""

    root: str
    reader: Reader
    _docs: dict[str, Document] = field(default_factory=dict, init=False, repr=False)
    _features: list[Feature] | None = field(default=None, init=False, repr=False)
    #: Memoised ``state()`` and ``active_feature()`` (a one-element list once computed).
    _state: list[GemstackState | None] = field(default_factory=list, init=False, repr=False)
    _active: list[Feature | None] = field(default_factory=list, init=False, repr=False)
    _repository: list[RepositoryState] = field(default_factory=list, init=False, repr=False)

    def document(self, path: str) -> Document:
        """The file at a repository-relative path, read and decoded once per snapshot."""
        rel = normalize_relpath(path)
        doc = self._docs.get(rel)
        if doc is None:
            doc = decode_document(self.reader.read(rel))
            self._docs[rel] = doc
        return doc

    def exists(self, path: str) -> bool:
        return self.document(path).exists

    def part(self, key: Hashable, compute: Callable[[], T]) -> T:
        """One piece of a unit of analysis, ``compute()``, named ``key`` (unique in the
        repository). An analysis host keeps it across revisions while nothing it read changed
        (``host/tracked.py``): a unit that re-runs because one file changed then redoes only the
        pieces that read that file. Here, with no host, it is simply computed."""
        return compute()

    def features(self) -> list[Feature]:
        """Every folder under ``specs/`` (sorted by name), whether or not it has a spec.md yet."""
        if self._features is None:
            entries = self.reader.list_dir(SPECS_DIR) or []
            self._features = [Feature(e.name) for e in entries if e.is_dir and is_feature_name(e.name)]
        return list(self._features)

    def state(self) -> GemstackState | None:
        """``.gemstack/state.json`` parsed with spans; ``None`` when the file does not exist or
        cannot be read (an unreadable file is the documents check's finding)."""
        if not self._state:
            doc = self.document(STATE_PATH)
            self._state.append(parse_state(doc.text, doc.has_bom) if doc.text is not None else None)
        return self._state[0]

    def active_feature(self) -> Feature | None:
        """The feature state.json's ``active_spec`` names, resolved as the reference does
        (see ``state.active_feature_of``); ``None`` when there is none."""
        if not self._active:
            self._active.append(active_feature_of(self))
        return self._active[0]

    def repository_state(self) -> RepositoryState:
        """The root's version-control state (for closure evidence), asked once per snapshot."""
        if not self._repository:
            self._repository.append(repository_state_of(self.reader))
        return self._repository[0]

    def feature_of(self, path: str) -> Feature | None:
        """The feature a repository-relative path belongs to, if any."""
        parts = normalize_relpath(path).split("/")
        if len(parts) >= 2 and parts[0] == SPECS_DIR:
            return Feature(parts[1])
        return None


def is_feature_name(name: str) -> bool:
    """True when a folder under ``specs/`` named ``name`` is a feature (not hidden, no separator)."""
    return _FEATURE_NAME.match(name) is not None


def decode_document(content: FileContent) -> Document:
    """Decode a read outcome into a ``Document`` (invalid UTF-8 is replaced, and remembered).

    The analysis host keeps the decoded document of each file it holds, so an unchanged file
    is decoded and line-indexed once, not on every analysis.
    """
    if not content.ok or content.data is None:
        return Document(content.path, content)
    text, bom, bad = decode_utf8(content.data)
    return Document(content.path, content, text, SourceText(text), bom, bad)
