"""Semantic tokens: the Gemstack ids and finding codes of a document, as plain data.

What is marked, wherever it appears (the values of Gemstack blocks, task headers and task
metadata in tasks.md, the keys of ledgers and registries, the strings of the capsule and of
closure.json, and the ids a Markdown document's prose mentions). A bare string or a word of
prose is marked when the document's scope declares it: its feature's documents and the
repository's registries (``prose.scoped_declarations``), so that the tokens of a document cost
the same in a repository of 1 feature or of 2,000.

====================  ==================  =============================================
Gemstack kind         LSP token type      modifiers
====================  ==================  =============================================
contract id           ``variable``        ``declaration`` where it is declared,
                                          ``readonly`` when a frozen phase freezes it
test id               ``function``        ``declaration`` in the test matrix
task id               ``event``           ``declaration`` on the task's header
billable action id    ``method``          ``declaration`` in spec.md
provider id           ``class``           ``declaration`` in a registry
capability id         ``property``        ``declaration`` in a registry
finding code          ``enumMember``      (none)
====================  ==================  =============================================

Only standard LSP token types and modifiers are used, so every theme colours them. A JSON
string's token covers its characters without the quotes (when the string has no escapes), so
a client's JSON colouring of the quotes stays. Paths are not marked (document links show
them). ``LEGEND_TYPES`` and ``LEGEND_MODIFIERS`` are the legend the server advertises; a
token's type index and modifier bits are positions in them.
"""

from __future__ import annotations

import re

from gemstack_lsp.core.findings import CATALOGUE
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jsonspan import JsonString, iter_nodes, parse_json
from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.text import Span
from gemstack_lsp.host import Snapshot
from gemstack_lsp.ide.frozen import contract_freeze
from gemstack_lsp.ide.navigation import file_occurrences
from gemstack_lsp.ide.prose import prose_mentions, prose_words, scoped_declarations

__all__ = [
    "KIND_TOKEN_TYPES",
    "LEGEND_MODIFIERS",
    "LEGEND_TYPES",
    "SemanticToken",
    "semantic_tokens",
]

#: The Gemstack kind of a token -> its LSP token type.
KIND_TOKEN_TYPES = {
    "contract": "variable",
    "test": "function",
    "task": "event",
    "action": "method",
    "provider": "class",
    "capability": "property",
    "code": "enumMember",
}

#: The token types of the legend, in order (a token's type is its index here).
LEGEND_TYPES: tuple[str, ...] = tuple(dict.fromkeys(KIND_TOKEN_TYPES.values()))

#: The token modifiers of the legend, in order (bit ``1 << i`` for the i-th).
LEGEND_MODIFIERS: tuple[str, ...] = ("declaration", "readonly")

#: When a bare string or a prose word names several kinds, the one its token shows.
_PRIORITY = ("contract", "test", "task", "action", "provider", "capability")

_CODE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")


@record
class SemanticToken:
    """One token: its span (on one line), its Gemstack kind and its modifiers."""

    span: Span
    kind: str
    declaration: bool = False
    readonly: bool = False

    @property
    def token_type(self) -> str:
        return KIND_TOKEN_TYPES[self.kind]

    @property
    def modifiers(self) -> tuple[str, ...]:
        return tuple(m for m, on in (("declaration", self.declaration), ("readonly", self.readonly)) if on)


def _unquoted(text: str, span: Span, value: str) -> Span:
    """The span of a JSON string's characters when the string is written without escapes."""
    if span.end - span.start == len(value) + 2 and text[span.start] == '"' and text[span.end - 1] == '"':
        return Span(span.start + 1, span.end - 1)
    return span


def _kind_of(kinds: frozenset[str]) -> str | None:
    return next((k for k in _PRIORITY if k in kinds), None)


@per_text
def _json_codes(text: str) -> tuple[tuple[str, Span], ...]:
    """The JSON strings of a document whose value is a finding code of the catalogue."""
    root = parse_json(text).value
    return tuple((n.value, n.span) for n in iter_nodes(root) if isinstance(n, JsonString) and n.value in CATALOGUE)


def _compute(snapshot: Snapshot, path: str) -> tuple[SemanticToken, ...]:
    text = snapshot.repo.document(path).text
    if text is None:
        return ()
    declared = scoped_declarations(snapshot, path)
    feature = snapshot.repo.feature_of(path)
    frozen_cache: dict[str, bool] = {}

    def frozen(value: str) -> bool:
        if feature is None:
            return False
        if value not in frozen_cache:
            frozen_cache[value] = contract_freeze(snapshot, feature, value) is not None
        return frozen_cache[value]

    tokens: list[SemanticToken] = []

    def add(span: Span, kind: str, value: str, declaration: bool = False) -> None:
        covered = text[span.start : span.end]
        if not covered or "\n" in covered or "\r" in covered:
            return  # a token lies on one line
        tokens.append(SemanticToken(span, kind, declaration, kind == "contract" and frozen(value)))

    for occ in file_occurrences(path, text):
        if occ.kind == "path":
            continue
        kind: str | None = occ.kind
        if occ.kind == "string":
            kind = "code" if occ.value in CATALOGUE else _kind_of(declared.get(occ.value, frozenset()))
        if kind is None:
            continue
        span = _unquoted(text, occ.span, occ.value)
        if text[span.start : span.end] != occ.value:
            continue  # an id written with escapes: no token rather than one on the wrong characters
        add(span, kind, occ.value, occ.declaration)
    if path.endswith(".md"):
        for word in prose_mentions(snapshot, path):
            kind = _kind_of(declared.get(word.value, frozenset()))
            if kind is not None:
                add(word.span, kind, word.value)
        for word in prose_words(text):
            if word.value in CATALOGUE and _CODE.fullmatch(word.value):
                add(word.span, "code", word.value)
    elif path.endswith(".json"):
        for value, span in _json_codes(text):
            add(_unquoted(text, span, value), "code", value)
    tokens.sort(key=lambda t: (t.span.start, -t.span.end))
    out: list[SemanticToken] = []
    for tok in tokens:
        if out and tok.span.start < out[-1].span.end:
            continue  # overlapping: the first (outermost) wins
        out.append(tok)
    return tuple(out)


def semantic_tokens(snapshot: Snapshot, path: str, within: Span | None = None) -> tuple[SemanticToken, ...]:
    """The tokens of the document at ``path``, in document order (those meeting ``within``
    when it is given), computed once per revision."""
    tokens = snapshot.derived(("ide.semantic-tokens", path), lambda snap: _compute(snap, path))
    if within is None:
        return tokens
    return tuple(t for t in tokens if t.span.start < within.end and t.span.end > within.start)
