"""Folding ranges: sections under headings, Gemstack blocks, tasks, and JSON objects and
arrays, as plain data (zero-based, inclusive line numbers).

A heading's section folds from the heading to its last line (the line before the next
heading of the same or a higher level, blank lines at its end left out); a Gemstack block
from its opening fence to its closing fence; a task of tasks.md from its header to its last
metadata line; an object or an array that spans lines (inside a Gemstack block, or anywhere
in a Gemstack JSON file) from the line of its opening bracket to the line before its closing
bracket, so the bracket stays visible, as JSON editors fold.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gemstack_lsp.core.jsonspan import JsonArray, JsonNode, JsonObject, iter_nodes, parse_json
from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.text import SourceText, Span
from gemstack_lsp.host import Snapshot
from gemstack_lsp.ide.outline import OutlineItem, gemstack_blocks, outline

__all__ = ["Fold", "document_folds", "folds"]


@dataclass(frozen=True, order=True)
class Fold:
    """A foldable range of lines; ``kind`` is heading, block, task or json."""

    start_line: int
    end_line: int
    kind: str


def _span_lines(source: SourceText, span: Span) -> tuple[int, int]:
    end = span.end
    while end > span.start and source.text[end - 1] in "\r\n":
        end -= 1
    return source.line_of(span.start), source.line_of(end)


def _json_folds(source: SourceText, nodes: Iterable[JsonNode]) -> Iterable[Fold]:
    for node in nodes:
        if not isinstance(node, JsonObject | JsonArray) or node.span.end <= node.span.start:
            continue
        first = source.line_of(node.span.start)
        close = node.span.end - 1
        last = source.line_of(close)
        if last <= first:
            continue
        line_start = source.line_start(last)
        if node.complete and source.text[line_start:close].strip() == "":
            last -= 1  # the closing bracket stays visible
        if last > first:
            yield Fold(first, last, "json")


def _outline_folds(source: SourceText, items: Iterable[OutlineItem]) -> Iterable[Fold]:
    for item in items:
        if item.kind in ("heading", "block", "task"):
            first, last = _span_lines(source, item.span)
            if last > first:
                yield Fold(first, last, item.kind)
        yield from _outline_folds(source, item.children)


@per_text
def folds(path: str, text: str) -> tuple[Fold, ...]:
    """The folding ranges of a document (``path`` says which kind of document it is)."""
    source = SourceText(text)
    out: set[Fold] = set()
    if path.endswith(".md"):
        out.update(_outline_folds(source, outline(path, text)))
        for block in gemstack_blocks(text):
            out.update(_json_folds(source, iter_nodes(block.result.value)))
    elif path.endswith(".json"):
        out.update(_json_folds(source, iter_nodes(parse_json(text).value)))
    # One range per start line (clients keep one), the widest.
    best: dict[int, Fold] = {}
    for fold in sorted(out):
        if fold.start_line not in best or fold.end_line > best[fold.start_line].end_line:
            best[fold.start_line] = fold
    return tuple(best[k] for k in sorted(best))


def document_folds(snapshot: Snapshot, path: str) -> tuple[Fold, ...]:
    """The folding ranges of the document at ``path`` as of ``snapshot``."""

    def compute(snap: Snapshot) -> tuple[Fold, ...]:
        text = snap.repo.document(path).text
        return folds(path, text) if text is not None else ()

    return snapshot.derived(("ide.folds", path), compute)
