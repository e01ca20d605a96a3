"""Selection ranges: what "expand selection" grows through, as plain data.

From the cursor outwards: inside a Gemstack block or a Gemstack JSON file, the characters of
a string (without its quotes), the value, the member (``"key": value``), the object or array
that holds it, and so on up to the block's JSON; then the fenced block, the task (tasks.md),
each section (a heading and what follows it, innermost first) and the whole document. In
prose: the id-shaped word, its line, the sections and the document. Each range contains the
one before it and is larger.
"""

from __future__ import annotations

from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jsonspan import JsonArray, JsonNode, JsonObject, JsonString, parse_json
from gemstack_lsp.core.text import SourceText, Span
from gemstack_lsp.host import Snapshot
from gemstack_lsp.ide.outline import OutlineItem, gemstack_blocks, outline
from gemstack_lsp.ide.prose import prose_words

__all__ = ["SelectionChain", "selection_chain", "selection_chains"]


@record
class SelectionChain:
    """The ranges around one cursor, innermost first."""

    spans: tuple[Span, ...]


def _json_chain(root: JsonNode | None, offset: int) -> list[Span]:
    """Spans from ``root`` down to the node under ``offset`` (outermost first)."""
    out: list[Span] = []
    node = root
    while node is not None and node.span.start <= offset <= node.span.end:
        out.append(node.span)
        nxt: JsonNode | None = None
        if isinstance(node, JsonObject):
            for member in node.members:
                if member.span.start <= offset <= member.span.end:
                    out.append(member.span)
                    nxt = member.key if member.key.span.start <= offset <= member.key.span.end else member.value
                    break
        elif isinstance(node, JsonArray):
            nxt = next((i for i in node.items if i.span.start <= offset <= i.span.end), None)
        elif isinstance(node, JsonString) and node.span.end - node.span.start >= 2:
            inner = Span(node.span.start + 1, node.span.end - 1)
            if inner.start <= offset <= inner.end:
                out.append(inner)
        node = nxt
    return out


def _outline_chain(items: tuple[OutlineItem, ...], offset: int) -> list[Span]:
    """Sections and tasks holding ``offset`` (outermost first)."""
    out: list[Span] = []
    level = items
    while True:
        item = next((i for i in level if i.kind in ("heading", "task") and i.span.contains(offset)), None)
        if item is None:
            # A block is no range of this chain (it comes from the blocks), but its section is.
            return out
        out.append(item.span)
        level = item.children


def selection_chain(path: str, text: str, offset: int) -> SelectionChain:
    """The selection ranges around ``offset`` in ``text`` (the document at ``path``)."""
    source = SourceText(text)
    outer: list[Span] = [Span(0, len(text))]
    inner: list[Span] = []
    if path.endswith(".json"):
        inner = _json_chain(parse_json(text).value, offset)
    elif path.endswith(".md"):
        outer += _outline_chain(outline(path, text), offset)
        block = next((b for b in gemstack_blocks(text) if b.fence.span.start <= offset <= b.fence.span.end), None)
        if block is not None:
            outer.append(block.fence.span)
            inner = _json_chain(block.result.value, offset)
        else:
            line = source.span_of_line(source.line_of(offset))
            outer.append(line)
            word = next((w for w in prose_words(text) if w.span.contains(offset)), None)
            if word is not None:
                inner = [word.span]
    chain: list[Span] = []
    for span in [*outer, *inner]:
        if chain and not (chain[-1].start <= span.start and span.end <= chain[-1].end):
            continue  # not inside the previous range: a partial tree while typing
        if chain and span == chain[-1]:
            continue
        chain.append(span)
    return SelectionChain(tuple(reversed(chain)))


def selection_chains(snapshot: Snapshot, path: str, offsets: list[int]) -> list[SelectionChain]:
    """One chain per cursor of the document at ``path`` (empty chains when it cannot be read)."""

    def compute(snap: Snapshot) -> list[SelectionChain]:
        text = snap.repo.document(path).text
        if text is None:
            return [SelectionChain(()) for _ in offsets]
        return [selection_chain(path, text, o) for o in offsets]

    # Computed under the snapshot's memo: the outline and blocks are those every feature shares.
    return snapshot.derived(("ide.selection", path, tuple(offsets)), compute)
