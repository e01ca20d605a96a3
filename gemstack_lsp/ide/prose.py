"""Ids a Markdown document mentions in its prose, as navigation resolves them.

Navigation resolves a word of prose (a contract id in backticks in a table, a test id in a
sentence) by value when the repository declares something of that name (``target_at``).
Semantic tokens, document highlights and rename need every such mention of a document at
once: ``prose_words(text)`` lists the id-shaped words outside the document's Gemstack blocks
(a pure function of the text, memoised by content), ``free_words`` those that are no
occurrence, and ``prose_mentions`` those declared in the document's scope: its feature's
documents and the repository's registries (``scoped_declarations``), so that the answer costs
the same in a repository of 1 feature or of 2,000.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.text import Span
from gemstack_lsp.host import Snapshot
from gemstack_lsp.ide.navigation import REGISTRY_FILES, file_occurrences
from gemstack_lsp.ide.outline import gemstack_blocks

__all__ = ["ProseWord", "free_words", "prose_mentions", "prose_words", "scope_files", "scoped_declarations"]

#: A word of the characters ids are made of (navigation's ``_PROSE_ID``) that starts and ends
#: with a letter, a digit or ``_``: the punctuation that ends a sentence or a clause (``.``,
#: ``:``, ``-``) is not part of it, as navigation trims it.
_WORD = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_.:\-]*[A-Za-z0-9_])?")


@record
class ProseWord:
    """An id-shaped word of prose and where it is."""

    value: str
    span: Span


@per_text
def prose_words(text: str) -> tuple[ProseWord, ...]:
    """Every id-shaped word of a Markdown text outside its Gemstack blocks, in order."""
    fenced = [b.fence.span for b in gemstack_blocks(text)]
    out: list[ProseWord] = []
    k = 0
    for m in _WORD.finditer(text):
        start = m.start()
        while k < len(fenced) and fenced[k].end <= start:
            k += 1
        if k < len(fenced) and fenced[k].start <= start:
            continue
        out.append(ProseWord(m.group(), Span(start, m.end())))
    return tuple(out)


@per_text
def free_words(path: str, text: str) -> tuple[ProseWord, ...]:
    """The prose words of a Markdown text that are not occurrences (task metadata, task ids of
    headers are occurrences already), in order."""
    taken = sorted((o.span for o in file_occurrences(path, text)), key=lambda s: s.start)
    out = []
    j = 0
    for word in prose_words(text):
        while j < len(taken) and taken[j].end <= word.span.start:
            j += 1
        if j < len(taken) and taken[j].start < word.span.end:
            continue
        out.append(word)
    return tuple(out)


def scope_files(snapshot: Snapshot, path: str) -> tuple[str, ...]:
    """The files whose declarations a document's prose may name without reading the whole
    repository: its feature's documents and the repository's registries."""
    feature = snapshot.repo.feature_of(path)
    own = (feature.spec, feature.plan, feature.tasks, feature.ledger) if feature is not None else ()
    return (*own, *REGISTRY_FILES)


def scoped_declarations(snapshot: Snapshot, path: str) -> Mapping[str, frozenset[str]]:
    """Value -> kinds declared in the scope of the document at ``path`` (``scope_files``),
    computed once per revision and scope.

    Latency-sensitive features (semantic tokens, highlights) use it instead of the repository's
    occurrence index, whose cost grows with the repository: their answer depends on a handful
    of files, not on every feature's.
    """
    files = scope_files(snapshot, path)

    def compute(snap: Snapshot) -> Mapping[str, frozenset[str]]:
        found: dict[str, set[str]] = {}
        for f in files:
            text = snap.repo.document(f).text
            for occ in file_occurrences(f, text) if text is not None else ():
                if occ.declaration and occ.kind != "path":
                    found.setdefault(occ.value, set()).add(occ.kind)
        return {k: frozenset(v) for k, v in found.items()}

    return snapshot.derived(("ide.scoped-declarations", files), compute)


def prose_mentions(snapshot: Snapshot, path: str) -> tuple[ProseWord, ...]:
    """The words of the Markdown document at ``path`` that name something declared in its
    scope (``scoped_declarations``), other than occurrences (task metadata)."""

    def compute(snap: Snapshot) -> tuple[ProseWord, ...]:
        text = snap.repo.document(path).text
        if text is None or not path.endswith(".md"):
            return ()
        declared = scoped_declarations(snap, path)
        return tuple(w for w in free_words(path, text) if w.value in declared)

    return snapshot.derived(("ide.prose-mentions", path), compute)
