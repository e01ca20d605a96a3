"""Document highlights: every mention, in one document, of the id under the cursor.

The id is what navigation finds under the cursor (a block value, a task's id or metadata, a
ledger key, a capsule string, or an id in prose that the document's scope declares: its
feature's documents and the registries, ``prose.scoped_declarations``, so that a highlight
costs the same in any size of repository); its mentions in the same document are the
occurrences of the same value and kind, and the prose words that name it.
A declaration (the contract's ``"id"``, the matrix entry, the task header, the registry
key) is a write; every other mention a read. A finding code under the cursor highlights the
other mentions of that code.
"""

from __future__ import annotations

from gemstack_lsp.core.findings import CATALOGUE
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.text import Span
from gemstack_lsp.host import Snapshot
from gemstack_lsp.ide.navigation import Occurrence, file_occurrences, occurrence_at
from gemstack_lsp.ide.prose import free_words, prose_mentions, prose_words, scoped_declarations

__all__ = ["Highlight", "document_highlights"]


@record
class Highlight:
    """One mention: its span and whether it declares the id (a write) or names it (a read)."""

    span: Span
    write: bool = False


def _inner(text: str, span: Span, value: str) -> Span:
    """A JSON string's span without its quotes (when it is written without escapes)."""
    if span.end - span.start == len(value) + 2 and text[span.start : span.start + 1] == '"':
        return Span(span.start + 1, span.end - 1)
    return span


def _code_highlights(snapshot: Snapshot, path: str, offset: int) -> tuple[Highlight, ...]:
    text = snapshot.repo.document(path).text
    if text is None or not path.endswith(".md"):
        return ()
    words = prose_words(text)
    under = next((w for w in words if w.span.contains(offset) and w.value in CATALOGUE), None)
    if under is None:
        return ()
    return tuple(Highlight(w.span) for w in words if w.value == under.value)


def _target(snapshot: Snapshot, path: str, text: str, offset: int) -> tuple[Occurrence, frozenset[str]] | None:
    """The id under ``offset`` and the kinds it may be, from the document and its scope only."""
    declared = scoped_declarations(snapshot, path)
    occ = occurrence_at(path, text, offset)
    if occ is not None:
        kinds = frozenset({occ.kind}) if occ.kind != "string" else declared.get(occ.value, frozenset())
        return occ, kinds
    if not path.endswith(".md"):
        return None
    word = next((w for w in free_words(path, text) if w.span.contains(offset)), None)
    if word is None or word.value not in declared:
        return None
    return Occurrence(path, word.span, "string", word.value), declared[word.value]


def document_highlights(snapshot: Snapshot, path: str, offset: int) -> tuple[Highlight, ...]:
    """The mentions in the document at ``path`` of the id under ``offset``, in document order
    (computed under the snapshot's memo, so the document's parse is the one every feature shares)."""
    return snapshot.derived(("ide.highlights", path, offset), lambda snap: _highlights(snap, path, offset))


def _highlights(snapshot: Snapshot, path: str, offset: int) -> tuple[Highlight, ...]:
    text = snapshot.repo.document(path).text
    if text is None:
        return ()
    found_target = _target(snapshot, path, text, offset)
    if found_target is None or found_target[0].kind == "path":
        return _code_highlights(snapshot, path, offset)
    occ, kinds = found_target
    found: dict[int, Highlight] = {}
    for other in file_occurrences(path, text):
        if other.value != occ.value:
            continue
        if occ.kind != "string" and other.kind not in kinds and other.kind != "string":
            continue
        span = _inner(text, other.span, other.value)
        found[span.start] = Highlight(span, other.declaration)
    for word in prose_mentions(snapshot, path):
        if word.value == occ.value:
            found.setdefault(word.span.start, Highlight(word.span))
    span = _inner(text, occ.span, occ.value)
    found.setdefault(span.start, Highlight(span, occ.declaration))
    return tuple(found[k] for k in sorted(found))
