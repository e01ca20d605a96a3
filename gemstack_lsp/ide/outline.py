"""Document outlines: the headings, Gemstack blocks and ids of a document, as plain data.

A Markdown document's outline is its ATX headings, nested by level; under each heading come
the Gemstack blocks it holds (``gemstack-contracts``...), and under each block its items named
by their id (a contract, a test, a binding, a gate, a billable action, a provider). In
tasks.md the tasks (``T001: ...``) sit under their headings. A JSON artifact's outline is its
top-level keys, with a ledger's providers and their capabilities.

``outline(path, text)`` and ``gemstack_blocks(text)`` are pure functions of a document's text
(``per_text``: an unchanged document keeps them across revisions); ``document_outline`` and
``document_blocks`` give them for a document of a snapshot.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate

from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks.base import parse_fence_json
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jsonspan import JsonArray, JsonNode, JsonObject, JsonResult, JsonString, parse_json
from gemstack_lsp.core.markdown import Fence, scan_fences
from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.tasks import parse_tasks
from gemstack_lsp.core.text import SourceText, Span
from gemstack_lsp.host import Snapshot

__all__ = [
    "ID_KEYS",
    "BlockJson",
    "OutlineItem",
    "block_json",
    "document_blocks",
    "document_outline",
    "gemstack_blocks",
    "item_id",
    "item_refs",
    "outline",
]

#: The key naming an item, per block kind (from ``core.kinds``).
ID_KEYS = {k.name: k.id_key for k in kinds.BLOCKS}

#: The item kind of each block, and the keys whose values make its detail (from ``core.kinds``).
_ITEM_KIND = {k.name: (k.item, k.detail_keys) for k in kinds.BLOCKS}

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
#: The start of a line (after any line break, or the text's start) with "#" in its first four characters.
_HASH_NEAR_LINE_START = re.compile(r"(?<![^\r\n])[^\r\n]{0,3}#")


@record
class OutlineItem:
    """One entry of a document's outline.

    ``kind`` is one of heading, block, contract, test, binding, gate, action, provider,
    capability, task, key. ``span`` covers the whole entry, ``selection`` its name.
    """

    name: str
    kind: str
    span: Span
    selection: Span
    detail: str | None = None
    children: tuple[OutlineItem, ...] = ()

    def walk(self) -> Iterator[OutlineItem]:
        yield self
        for child in self.children:
            yield from child.walk()


@record
class BlockJson:
    """A Gemstack block of a Markdown document and its JSON parsed with document spans."""

    fence: Fence
    result: JsonResult

    @property
    def kind(self) -> str:
        assert self.fence.kind is not None
        return self.fence.kind


def block_json(fence: Fence) -> JsonResult:
    """The JSON of a fence's body, every span a document offset (partial while it is broken):
    the parse the checks use (``blocks.base.parse_fence_json``, the body trimmed as the
    reference trims it), shared with them while the block is unchanged."""
    return parse_fence_json(fence)


@per_text
def gemstack_blocks(text: str) -> tuple[BlockJson, ...]:
    """Every Gemstack block of a Markdown text, with its parsed JSON (memoised by content)."""
    return tuple(BlockJson(f, block_json(f)) for f in scan_fences(text) if f.kind is not None)


def item_id(kind: str, item: JsonNode) -> JsonString | None:
    """The id string of a block item (``None`` when the item has none yet)."""
    if not isinstance(item, JsonObject):
        return None
    node = item.get(ID_KEYS.get(kind, "id"))
    return node if isinstance(node, JsonString) else None


def item_refs(kind: str, item: JsonNode) -> Iterator[tuple[kinds.Ref, JsonString]]:
    """The non-empty strings of a block item that name Gemstack symbols, each with the
    registry's ``Ref`` saying what it names (in the order of the kind's ``refs``)."""
    entry = kinds.block_kind(kind)
    if entry is None or not isinstance(item, JsonObject):
        return
    for ref in entry.refs:
        if ref.many:
            node = item.get(ref.keys[0])
            if isinstance(node, JsonArray):
                for value in node.items:
                    if isinstance(value, JsonString) and value.value:
                        yield ref, value
            continue
        for key in ref.keys:
            node = item.get(key)
            if isinstance(node, JsonString) and node.value:
                yield ref, node
                break


def _detail(item: JsonObject, keys: tuple[str, ...]) -> str | None:
    parts = []
    for key in keys:
        node = item.get(key)
        if isinstance(node, JsonString) and node.value:
            parts.append(node.value)
    return " · ".join(parts) or None


def _block_item(block: BlockJson) -> OutlineItem:
    fence = block.fence
    kind, detail_keys = _ITEM_KIND.get(block.kind, ("key", ()))
    children: list[OutlineItem] = []
    root = block.result.value
    if isinstance(root, JsonArray):
        for item in root.items:
            ident = item_id(block.kind, item)
            if ident is None or not isinstance(item, JsonObject):
                continue
            # What an item declares in a list (a provider's capabilities) is outlined below it.
            grand = tuple(
                OutlineItem(s.value, ref.symbol, s.span, s.span)
                for ref, s in item_refs(block.kind, item)
                if ref.many and ref.declares
            )
            children.append(
                OutlineItem(
                    ident.value or "(empty id)",
                    kind,
                    item.span,
                    ident.span,
                    _detail(item, detail_keys),
                    grand,
                )
            )
    if not block.result.ok:
        detail: str | None = "invalid JSON"
    elif isinstance(root, JsonArray):
        count = len(root.items)
        detail = f"{count} item{'s' if count != 1 else ''}"
    else:
        detail = None  # one object (a spec delta): its keys are not items
    return OutlineItem(block.kind, "block", fence.span, fence.open_span, detail, tuple(children))


def _headings(text: str, source: SourceText, hidden: list[Span]) -> list[tuple[int, str, Span, int]]:
    """(level, title, line span, line) of every ATX heading outside code blocks."""
    out: list[tuple[int, str, Span, int]] = []
    # The line ranges of the hidden spans (code blocks), as (first, last) pairs.
    ranges = sorted((source.line_of(span.start), source.line_of(span.end)) for span in hidden)
    firsts = [first for first, _ in ranges]
    # The largest last line among the ranges that start at or before each one.
    reach = list(accumulate((last for _, last in ranges), max))
    # Only a line with a "#" among its first four characters can be a heading: one search
    # finds those lines (a per-line walk over a 900-line spec cost 3 ms a keystroke).
    for start in _hash_line_starts(text):
        line = source.line_of(start)
        k = bisect.bisect_right(firsts, line) - 1
        if k >= 0 and reach[k] >= line:
            continue  # inside a code block
        line_text = source.line_text(line)
        m = _ATX.match(line_text)
        if m is None:
            continue
        title = (m.group(2) or "").strip()
        out.append((len(m.group(1)), title, source.span_of_line(line), line))
    return out


def _hash_line_starts(text: str) -> list[int]:
    """The offsets of the lines with a "#" among their first four characters."""
    if "\r" in text:
        return [m.start() for m in _HASH_NEAR_LINE_START.finditer(text)]
    out: list[int] = []
    pos = 0
    for line in text.split("\n"):  # a third of the regular expression's time
        if "#" in line[:4]:
            out.append(pos)
        pos += len(line) + 1
    return out


@dataclass
class _Open:
    level: int
    name: str
    start: int
    selection: Span
    children: list[OutlineItem]


def _markdown_outline(path: str, text: str) -> list[OutlineItem]:
    source = SourceText(text)
    fences = scan_fences(text)
    leaves: list[OutlineItem] = [_block_item(b) for b in gemstack_blocks(text)]
    if path.rsplit("/", 1)[-1] == "tasks.md":
        for task in parse_tasks(text).tasks:
            leaves.append(
                OutlineItem(
                    f"{task.id}: {task.title}" if task.title else task.id,
                    "task",
                    task.span,
                    task.id_span,
                    "done" if task.done else "open",
                )
            )
    leaves.sort(key=lambda i: i.span.start)
    headings = _headings(text, source, [f.span for f in fences])

    root: list[OutlineItem] = []
    stack: list[_Open] = []

    def close_until(level: int, end: int) -> None:
        while stack and stack[-1].level >= level:
            top = stack.pop()
            item = OutlineItem(
                top.name or "(empty heading)",
                "heading",
                Span(top.start, max(end, top.selection.end)),
                top.selection,
                None,
                tuple(top.children),
            )
            (stack[-1].children if stack else root).append(item)

    li = 0
    for level, title, span, _line in headings:
        while li < len(leaves) and leaves[li].span.start < span.start:
            (stack[-1].children if stack else root).append(leaves[li])
            li += 1
        # A heading's section ends where the next heading of the same or a higher level begins.
        end = span.start
        while end > 0 and text[end - 1] in "\r\n":
            end -= 1
        close_until(level, end)
        stack.append(_Open(level, title, span.start, span, []))
    while li < len(leaves):
        (stack[-1].children if stack else root).append(leaves[li])
        li += 1
    close_until(0, len(text.rstrip("\r\n")))
    return root


def _json_outline(text: str) -> list[OutlineItem]:
    result = parse_json(text)
    root = result.value
    if not isinstance(root, JsonObject):
        return []
    out: list[OutlineItem] = []
    for member in root.members:
        children: tuple[OutlineItem, ...] = ()
        if member.key.value == "providers" and isinstance(member.value, JsonObject):
            children = tuple(_provider_item(m.key, m.value) for m in member.value.members)
        span = Span(member.key.span.start, member.value.span.end)
        out.append(OutlineItem(member.key.value, "key", span, member.key.span, None, children))
    return out


def _provider_item(key: JsonString, value: JsonNode) -> OutlineItem:
    caps: list[OutlineItem] = []
    detail = None
    if isinstance(value, JsonObject):
        ptype = value.get("type")
        detail = ptype.value if isinstance(ptype, JsonString) else None
        node = value.get("capabilities")
        if isinstance(node, JsonObject):
            caps = [
                OutlineItem(m.key.value, "capability", Span(m.key.span.start, m.value.span.end), m.key.span)
                for m in node.members
            ]
        elif isinstance(node, JsonArray):
            caps = [OutlineItem(c.value, "capability", c.span, c.span) for c in node.items if isinstance(c, JsonString)]
    return OutlineItem(key.value, "provider", Span(key.span.start, value.span.end), key.span, detail, tuple(caps))


@per_text
def outline(path: str, text: str) -> tuple[OutlineItem, ...]:
    """The outline of a document, by its (repository-relative or absolute) path's extension."""
    name = path.rsplit("/", 1)[-1].lower()
    if name.endswith(".md"):
        return tuple(_markdown_outline(path, text))
    if name.endswith(".json"):
        return tuple(_json_outline(text))
    return ()


def document_outline(snapshot: Snapshot, path: str) -> tuple[OutlineItem, ...]:
    """The outline of the document at ``path`` as of ``snapshot`` (computed once per revision)."""

    def compute(snap: Snapshot) -> tuple[OutlineItem, ...]:
        text = snap.repo.document(path).text
        return outline(path, text) if text is not None else ()

    return snapshot.derived(("ide.outline", path), compute)


def document_blocks(snapshot: Snapshot, path: str) -> tuple[BlockJson, ...]:
    """The Gemstack blocks of the Markdown document at ``path`` as of ``snapshot``."""

    def compute(snap: Snapshot) -> tuple[BlockJson, ...]:
        text = snap.repo.document(path).text
        return gemstack_blocks(text) if text is not None else ()

    return snapshot.derived(("ide.blocks", path), compute)
