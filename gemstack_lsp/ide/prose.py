"""Ids a Markdown document mentions in its prose, as navigation resolves them.

Navigation resolves a word of prose (a contract id in backticks in a table, a test id in a
sentence) by value when the repository declares something of that name (``target_at``).
Semantic tokens, document highlights and rename need every such mention of a document at
once: ``prose_words(text)`` lists the id-shaped words outside the document's Gemstack blocks
(a pure function of the text, memoised by content), and ``prose_mentions`` keeps those the
snapshot's occurrence index declares.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.text import Span
from gemstack_lsp.host import Snapshot
from gemstack_lsp.ide.navigation import document_occurrences, occurrence_index
from gemstack_lsp.ide.outline import gemstack_blocks

__all__ = ["ProseWord", "prose_mentions", "prose_words"]

#: A word of the characters ids are made of (navigation's ``_PROSE_ID``) that starts and ends
#: with a letter, a digit or ``_``: the punctuation that ends a sentence or a clause (``.``,
#: ``:``, ``-``) is not part of it, as navigation trims it.
_WORD = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_.:\-]*[A-Za-z0-9_])?")


@dataclass(frozen=True)
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


def prose_mentions(snapshot: Snapshot, path: str) -> tuple[ProseWord, ...]:
    """The words of the Markdown document at ``path`` that name something the repository
    declares, other than those that are occurrences of the index (task metadata)."""

    def compute(snap: Snapshot) -> tuple[ProseWord, ...]:
        text = snap.repo.document(path).text
        if text is None or not path.endswith(".md"):
            return ()
        index = occurrence_index(snap)
        taken = sorted((o.span for o in document_occurrences(snap, path)), key=lambda s: s.start)
        out = []
        j = 0
        for word in prose_words(text):
            while j < len(taken) and taken[j].end <= word.span.start:
                j += 1
            if j < len(taken) and taken[j].start < word.span.end:
                continue  # metadata of a task: an occurrence of the index already
            if index.declared_kinds(word.value):
                out.append(word)
        return tuple(out)

    return snapshot.derived(("ide.prose-mentions", path), compute)
