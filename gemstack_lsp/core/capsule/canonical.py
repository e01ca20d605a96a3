"""Canonical JSON as the reference CLI writes it: sorted keys and arrays, JS number and string forms.

The capsule must be byte-identical to what the reference's serializer would print for the same
value, so every rule here follows ``reference/gemstack-cli.md`` section 4:

- object keys sorted by UTF-16 code units (not code points);
- each array element canonicalized, then the array sorted by a rule chosen from its *first*
  element (strings: all elements by string order; objects with ``path``, else ``id``, else
  ``feature``: by that member); other arrays keep their order. The reference sorts before it
  canonicalizes the elements; the two differ only for an array whose order depends on the string
  form of a nested array, where sorting first is not idempotent (docs/capsule.md);
- ``JSON.stringify(value, null, 2)`` layout plus one final newline, numbers printed as JavaScript
  prints them (``2.0`` -> ``2``, ``1e21`` -> ``1e+21``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from collections.abc import Callable, Mapping
from typing import Any

from gemstack_lsp.core.jscompat import (
    UNDEFINED,
    Undefined,
    has_astral,
    js_property_order,
    js_string,
    js_trim,
    json_stringify,
    sort_utf16,
    utf16_key,
)
from gemstack_lsp.core.jsonspan import TOO_DEEP, too_deep
from gemstack_lsp.core.text import utf8

JsonValue = Any


def _js_to_number(value: JsonValue) -> float:
    """JavaScript ``ToNumber`` for the JSON value kinds (objects and arrays give NaN)."""
    if value is None:
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        text = js_trim(value)
        if text == "":
            return 0.0
        try:
            return float(int(text, 16)) if text.lower().startswith("0x") else float(text)
        except ValueError:
            return math.nan
    return math.nan


def _js_less(a: JsonValue, b: JsonValue) -> bool:
    """JavaScript's ``a < b`` for JSON values (string/string compares code units, else numbers)."""
    if isinstance(a, Undefined) or isinstance(b, Undefined):
        return False
    if isinstance(a, str) and isinstance(b, str):
        return utf16_key(a) < utf16_key(b)
    if isinstance(a, dict | list) or isinstance(b, dict | list):
        # Objects become strings ("[object Object]", or the joined array); a faithful enough
        # emulation for the shapes a capsule can hold.
        sa, sb = js_string(a), js_string(b)
        if isinstance(a, dict | list) and isinstance(b, dict | list):
            return utf16_key(sa) < utf16_key(sb)
        if isinstance(a, str) or isinstance(b, str):
            return utf16_key(sa) < utf16_key(sb)
    x, y = _js_to_number(a), _js_to_number(b)
    return x < y


def _js_compare(a: JsonValue, b: JsonValue) -> int:
    """The reference comparator ``a < b ? -1 : (a > b ? 1 : 0)`` with JavaScript semantics."""
    if _js_less(a, b):
        return -1
    if _js_less(b, a):
        return 1
    return 0


def _member(item: JsonValue, key: str) -> JsonValue:
    return item.get(key, UNDEFINED) if isinstance(item, dict) else UNDEFINED


def _array_sort_key(first: JsonValue) -> Callable[[JsonValue], JsonValue] | None:
    """The member an array is sorted by, chosen from its first element (``None``: keep order)."""
    if isinstance(first, str):
        return lambda item: item
    if isinstance(first, dict):
        for key in ("path", "id", "feature"):
            if key in first:
                return functools.partial(_member, key=key)
    return None


def canonicalize(value: JsonValue) -> JsonValue:
    """The canonical form of a JSON value: keys and arrays ordered as the reference orders them."""
    if isinstance(value, Mapping):
        return {k: canonicalize(value[k]) for k in js_property_order(sort_utf16(value))}
    if isinstance(value, list | tuple):
        # The elements are canonicalized before the array is sorted (the reference sorts first):
        # a nested array compares by its string form, which its own sorting changes, so sorting
        # first would make a second canonicalization reorder the array. Arrays of strings and of
        # objects sorted by a string member (every array a capsule holds) order the same either way.
        items = [canonicalize(v) for v in value]
        if items:
            key = _array_sort_key(items[0])
            if key is not None:
                get = key
                members = [get(item) for item in items]
                if all(isinstance(m, str) for m in members):
                    # All strings: a plain stable sort on code units gives the comparator's order.
                    order = has_astral("".join(members))
                    ranked = sorted(
                        range(len(items)), key=(lambda i: utf16_key(members[i])) if order else members.__getitem__
                    )
                    items = [items[i] for i in ranked]
                else:
                    items = sorted(items, key=functools.cmp_to_key(lambda a, b: _js_compare(get(a), get(b))))
        return items
    return value


def canonical_text(value: JsonValue) -> str:
    """The reference's capsule serialization: canonicalized, 2-space indent, one final newline."""
    return json_stringify(canonicalize(value), 2) + "\n"


def canonical_bytes(value: JsonValue) -> bytes:
    return utf8(canonical_text(value))


def compact_json(value: JsonValue) -> str:
    """Compact ``JSON.stringify(value)`` (no spaces, members in the given order)."""
    return json_stringify(value)


def semantic_hash(capsule: Mapping[str, JsonValue]) -> str:
    """SHA-256 of the compact canonical capsule without ``generated_at`` (the volatile field)."""
    stripped = {k: v for k, v in capsule.items() if k != "generated_at"}
    return hashlib.sha256(utf8(compact_json(canonicalize(stripped)))).hexdigest()


def _reject_constant(name: str) -> JsonValue:
    raise ValueError(f"Unexpected token {name[0]} in JSON (NaN and Infinity are not JSON)")


def parse_json(text: str) -> JsonValue:
    """Strict JSON as ``JSON.parse`` accepts it (no NaN or Infinity); raises ``ValueError``.

    Nesting deeper than ``jsonspan.MAX_DEPTH`` is refused as a ``ValueError`` (a
    ``JSONDecodeError`` at the bracket) too, so a hostile document becomes a parse finding rather
    than a crash, and every walk over the value may recurse.
    """
    deep = too_deep(text)
    if deep is not None:
        raise json.JSONDecodeError(TOO_DEEP, text, deep)
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise json.JSONDecodeError(TOO_DEEP, text, 0) from None
