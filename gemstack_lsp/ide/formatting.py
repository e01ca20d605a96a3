"""Formatting of Gemstack JSON blocks and Gemstack JSON files, as plain data (text edits).

The layout is the one upstream Gemstack writes (``JSON.stringify(value, null, 2)``): two
spaces per level, one member or item per line, ``"key": value`` with one space, empty
objects and arrays as ``{}`` and ``[]``, no trailing whitespace, the document's own line
break. Formatting never changes the meaning: keys keep their order (a repeated key is kept,
every time it appears), and every scalar is written exactly as it was (a string keeps its
escapes, a number its digits: ``1.0`` stays ``1.0``). Formatting is stable and idempotent:
formatted text formats to itself.

What is formatted:

- in a Markdown document, the body of every Gemstack fenced block (``gemstack-contracts``...)
  whose JSON parses, that is not nested in a list or a quote and not indented (such a block's
  lines carry a container prefix the layout would have to repeat: it is left as it is); a
  range formatting formats the blocks the range meets;
- a Gemstack JSON file that parses: any ``cost-ledger.json``, ``.gemstack/providers.json``,
  ``.gemstack/state.json`` (a range formatting formats the whole file), keeping its final line
  break or its lack of one;
- never a derived file: ``context-capsule.json`` and ``closure.json`` are written by their
  generators and their recorded hashes are computed over their bytes, so reformatting one by
  hand would be a change nobody generated (regenerate them instead). They get no edits.

A document of a frozen phase (see ``ide.frozen``) is not formatted: ``FormatRefused`` says
why, as rename does, because any change to it breaks the hash state.json recorded.
"""

from __future__ import annotations

from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jsonspan import JsonArray, JsonNode, JsonObject, parse_json
from gemstack_lsp.core.repo import CAPSULE_NAME, CLOSURE_NAME, LEDGER_NAME
from gemstack_lsp.core.text import Span
from gemstack_lsp.host import Snapshot
from gemstack_lsp.ide.frozen import document_freeze
from gemstack_lsp.ide.outline import gemstack_blocks

__all__ = ["FORMATTED_FILES", "FormatEdit", "FormatRefused", "format_document", "format_json"]

#: Gemstack JSON files that are formatted: any ledger, and these repository files.
FORMATTED_FILES = frozenset({".gemstack/providers.json", ".gemstack/state.json"})

#: Derived files: never formatted.
DERIVED_FILES = frozenset({CAPSULE_NAME, CLOSURE_NAME})

_INDENT = "  "


class FormatRefused(Exception):
    """Formatting would change a frozen artifact; the message says why and what to do."""


@record
class FormatEdit:
    """Replace ``span`` of the document with ``new_text``."""

    span: Span
    new_text: str


def _write(node: JsonNode, text: str, depth: int, out: list[str], nl: str) -> None:
    """Append the layout of ``node``; scalars are copied from ``text`` as written."""
    if isinstance(node, JsonObject):
        if not node.members:
            out.append("{}")
            return
        out.append("{")
        for i, member in enumerate(node.members):
            out.append(nl + _INDENT * (depth + 1))
            out.append(text[member.key.span.start : member.key.span.end])
            out.append(": ")
            _write(member.value, text, depth + 1, out, nl)
            if i + 1 < len(node.members):
                out.append(",")
        out.append(nl + _INDENT * depth + "}")
    elif isinstance(node, JsonArray):
        if not node.items:
            out.append("[]")
            return
        out.append("[")
        for i, item in enumerate(node.items):
            out.append(nl + _INDENT * (depth + 1))
            _write(item, text, depth + 1, out, nl)
            if i + 1 < len(node.items):
                out.append(",")
        out.append(nl + _INDENT * depth + "]")
    else:
        out.append(text[node.span.start : node.span.end])


def format_json(body: str, nl: str = "\n", final_break: bool = True) -> str | None:
    """``body`` (one JSON value) in the layout, ending with a line break unless
    ``final_break`` is false; ``None`` when it does not parse (a broken value is never
    reformatted)."""
    result = parse_json(body)
    if not result.ok or result.value is None or result.duplicate_keys:
        return None
    out: list[str] = []
    _write(result.value, body, 0, out, nl)
    if final_break:
        out.append(nl)
    return "".join(out)


def _line_break(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _markdown_edits(text: str, within: Span | None) -> list[FormatEdit]:
    nl = _line_break(text)
    edits: list[FormatEdit] = []
    for block in gemstack_blocks(text):
        fence = block.fence
        if within is not None and not (fence.span.start <= within.end and within.start <= fence.span.end):
            continue
        if fence.in_container or fence.indent or fence.close_span is None or not fence.segments:
            continue
        # The body as the document holds it: from its first line to the closing fence's line.
        start = fence.body_span.start
        end = fence.close_span.start
        raw = text[start:end]
        formatted = format_json(raw, nl)
        if formatted is None or formatted == raw:
            continue
        edits.append(FormatEdit(Span(start, end), formatted))
    return edits


def format_document(snapshot: Snapshot, path: str, within: Span | None = None) -> tuple[FormatEdit, ...]:
    """The edits that format the document at ``path`` (those of the blocks ``within`` meets,
    when given). Raises ``FormatRefused`` for a document of a frozen phase that would change."""
    return snapshot.derived(("ide.formatting", path, within), lambda snap: _format(snap, path, within))


def _format(snapshot: Snapshot, path: str, within: Span | None) -> tuple[FormatEdit, ...]:
    text = snapshot.repo.document(path).text
    name = path.rsplit("/", 1)[-1]
    if text is None or name in DERIVED_FILES:
        return ()
    edits: list[FormatEdit] = []
    if name.endswith(".md"):
        edits = _markdown_edits(text, within)
    elif name == LEDGER_NAME or path in FORMATTED_FILES:
        # A file keeps its final line break, or its lack of one (upstream writes both).
        formatted = format_json(text, _line_break(text), text.endswith(("\n", "\r")))
        if formatted is not None and formatted != text:
            edits = [FormatEdit(Span(0, len(text)), formatted)]
    if edits and (frozen := document_freeze(snapshot, path)) is not None:
        raise FormatRefused(
            f"{name} belongs to the frozen {frozen.phase} phase of {frozen.feature} ({frozen.reason}): formatting "
            f"it would change its recorded hash (FROZEN_ARTIFACT_CHANGED). The Gemstack way to change a frozen "
            f"artifact is an amendment of the {frozen.phase} phase; the document was not formatted."
        )
    return tuple(edits)
