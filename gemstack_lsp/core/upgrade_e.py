"""What the swarm (``swarm.json``) and visual QA (``visual-qa.json``) checks share.

Gemstack 1.4 ("Upgrade E") added two per-feature manifests that ``gemstack verify`` checks in
its stages 5.3 and 5.4, for the active feature only. The reference's libraries read them with
plain JavaScript property access, so this module offers the few JavaScript readings the checks
need on span-carrying JSON nodes: truthiness, ``String(value)``, ``Number(value)``, and the
JSON path of a node for messages. It also holds the message helper both checks use: every
message has an English template and a Spanish one with the same named placeholders (the
``ENGLISH`` and ``SPANISH`` tables of each check module, keyed by finding code, one tuple of
templates per code, index for index), so a translation layer can match and translate them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from typing import Any

from gemstack_lsp.core import jscompat
from gemstack_lsp.core.jsonspan import JsonArray, JsonBool, JsonNode, JsonNull, JsonNumber, JsonObject, JsonString
from gemstack_lsp.core.text import Span

__all__ = [
    "js_number_of",
    "js_text",
    "js_truthy",
    "opening",
    "say",
    "templates",
]


def js_truthy(node: JsonNode | None) -> bool:
    """JavaScript's truthiness of a member's value (``None``: the member is absent)."""
    if node is None or isinstance(node, JsonNull):
        return False
    if isinstance(node, JsonBool):
        return node.value
    if isinstance(node, JsonNumber):
        value = jscompat.js_double(node.value)
        return value != 0 and not math.isnan(value)
    if isinstance(node, JsonString):
        return node.value != ""
    return True


def js_text(node: JsonNode | None) -> str:
    """``${value}`` of a member's value (``undefined`` when absent)."""
    return jscompat.js_string(jscompat.UNDEFINED if node is None else node.to_python())


_DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)\Z")
_RADIX = {"0x": 16, "0o": 8, "0b": 2}


def _string_to_number(text: str) -> float:
    """``Number(string)``: JavaScript's StringToNumber (whitespace trimmed, ``""`` is 0)."""
    text = jscompat.js_trim(text)
    if text == "":
        return 0.0
    if text in ("Infinity", "+Infinity"):
        return math.inf
    if text == "-Infinity":
        return -math.inf
    prefix = text[:2].lower()
    if prefix in _RADIX:
        digits = text[2:]
        if not digits or "_" in digits:
            return math.nan
        try:
            return jscompat.js_double(int(digits, _RADIX[prefix]))
        except ValueError:
            return math.nan
    if _DECIMAL.match(text):
        return float(text)
    return math.nan


def js_number_of(node: JsonNode) -> float:
    """``Number(value)`` as a relational comparison coerces it (objects through their string)."""
    if isinstance(node, JsonNumber):
        return jscompat.js_double(node.value)
    if isinstance(node, JsonBool):
        return 1.0 if node.value else 0.0
    if isinstance(node, JsonNull):
        return 0.0
    if isinstance(node, JsonString):
        return _string_to_number(node.value)
    return _string_to_number(js_text(node))


def opening(node: JsonNode) -> Span:
    """The first character of a node (an object's ``{``): where an absent member is reported."""
    return Span(node.span.start, min(node.span.start + 1, node.span.end))


def path_text(*steps: str | int) -> str:
    """``waves[0].tasks[1].write_set`` from its steps."""
    out = ""
    for step in steps:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else step)
    return out


def say(table: Mapping[str, tuple[str, ...]], code: str, index: int, **values: Any) -> str:
    """The English message ``index`` of ``code`` with its placeholders filled."""
    return table[code][index].format(**values)


def templates() -> Iterator[tuple[str, str, str]]:
    """Every (code, English template, Spanish template) of the swarm and visual QA messages, for a
    translation layer to register (placeholders are ``str.format`` fields, the same in both)."""
    from gemstack_lsp.core import swarm, visual_qa

    for module in (swarm, visual_qa):
        for code, english in module.ENGLISH.items():
            for en, es in zip(english, module.SPANISH[code], strict=True):
                yield code, en, es


def members(node: JsonNode | None) -> JsonObject | None:
    """The node when it is an object (the only kind whose members JavaScript can read)."""
    return node if isinstance(node, JsonObject) else None


def items(node: JsonNode | None) -> tuple[JsonNode, ...]:
    """The items of an array node (none otherwise)."""
    return node.items if isinstance(node, JsonArray) else ()
