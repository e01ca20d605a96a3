"""Insertion edits in a JSON document that keep its layout: add a member to an object.

Fixes (``Add ledger entry``, ``Add freshness_date``) are computed as exact text edits so that an
editor applies them without re-formatting the file: the new member is written with the
indentation the object's existing members use (or one level deeper than the object's line
when it is empty); a one-line object, or an empty one in a one-line document, stays on one line.
"""

from __future__ import annotations

import json
from typing import Any

from gemstack_lsp.core.jsonspan import JsonObject
from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.text import Span


def _line_start(text: str, offset: int) -> int:
    return max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1


def _leading(text: str, offset: int) -> str | None:
    """The whitespace before ``offset`` on its line, or ``None`` when other text precedes it."""
    start = _line_start(text, offset)
    prefix = text[start:offset]
    return prefix if not prefix.strip(" \t") else None


def _line_indent(text: str, offset: int) -> str:
    start = _line_start(text, offset)
    line = text[start:offset]
    return line[: len(line) - len(line.lstrip(" \t"))]


@per_text
def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


@per_text
def indent_unit(text: str) -> str:
    """The document's indentation step: a tab, or the smallest positive run of leading spaces (2 by default)."""
    smallest = 0
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        if line.startswith("\t"):
            return "\t"
        n = len(line) - len(stripped)
        if n and stripped and (smallest == 0 or n < smallest):
            smallest = n
    return " " * (smallest or 2)


def _dump(value: Any, unit: str, base: str, nl: str) -> str:
    text = json.dumps(value, indent=unit, ensure_ascii=False)
    return text.replace("\n", nl + base)


def insert_member(text: str, obj: JsonObject, key: str, value: Any) -> tuple[Span, str]:
    """The edit (span to replace, new text) that adds ``"key": value`` as the last member of ``obj``."""
    nl = _newline(text)
    unit = indent_unit(text)
    key_text = json.dumps(key, ensure_ascii=False)
    if obj.members:
        last = obj.members[-1]
        indent = _leading(text, last.key.span.start)
        if indent is None:
            compact = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
            return Span(last.value.span.end, last.value.span.end), f", {key_text}: {compact}"
        new = f",{nl}{indent}{key_text}: {_dump(value, unit, indent, nl)}"
        return Span(last.value.span.end, last.value.span.end), new
    if "\n" not in text.strip() and "\r" not in text.strip():
        # A one-line document stays on one line.
        compact = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
        return Span(obj.span.start, obj.span.end), "{" + f"{key_text}: {compact}" + "}"
    outer = _line_indent(text, obj.span.start)
    inner = outer + unit
    new = "{" + nl + inner + key_text + ": " + _dump(value, unit, inner, nl) + nl + outer + "}"
    return Span(obj.span.start, obj.span.end), new
