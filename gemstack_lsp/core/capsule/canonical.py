"""Canonical JSON as the reference CLI writes it: sorted keys and arrays, JS number and string forms.

The capsule must be byte-identical to what the reference's serializer would print for the same
value, so every rule here follows ``reference/gemstack-cli.md`` section 4:

- object keys sorted by UTF-16 code units (not code points);
- arrays sorted first by a rule chosen from their *first* element (strings: all elements by
  string order; objects with ``path``, else ``id``, else ``feature``: by that member), then each
  element canonicalized; other arrays keep their order;
- ``JSON.stringify(value, null, 2)`` layout plus one final newline, numbers printed as JavaScript
  prints them (``2.0`` -> ``2``, ``1e21`` -> ``1e+21``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal
from json.encoder import encode_basestring
from typing import Any

JsonValue = Any

_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")


def utf16_key(text: str) -> bytes:
    """A sort key that orders strings by UTF-16 code units, as JavaScript's ``<`` does."""
    return text.encode("utf-16-be", "surrogatepass")


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def sort_utf16(strings: Iterable[str]) -> list[str]:
    """Strings sorted by UTF-16 code units (stable).

    Without astral characters code-unit order is code-point order, Python's own.
    """
    items = list(strings)
    if any(_ASTRAL.search(s) for s in items):
        return sorted(items, key=utf16_key)
    return sorted(items)


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
    if isinstance(a, _Undefined) or isinstance(b, _Undefined):
        return False
    if isinstance(a, str) and isinstance(b, str):
        return utf16_key(a) < utf16_key(b)
    if isinstance(a, dict | list) or isinstance(b, dict | list):
        # Objects become strings ("[object Object]", or the joined array); a faithful enough
        # emulation for the shapes a capsule can hold.
        sa, sb = _js_string(a), _js_string(b)
        if isinstance(a, dict | list) and isinstance(b, dict | list):
            return utf16_key(sa) < utf16_key(sb)
        if isinstance(a, str) or isinstance(b, str):
            return utf16_key(sa) < utf16_key(sb)
    x, y = _js_to_number(a), _js_to_number(b)
    return x < y


def _js_string(value: JsonValue) -> str:
    if isinstance(value, dict):
        return "[object Object]"
    if isinstance(value, list):
        return ",".join("" if v is None else _js_string(v) for v in value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return js_number(value)
    return str(value)


def _js_compare(a: JsonValue, b: JsonValue) -> int:
    """The reference comparator ``a < b ? -1 : (a > b ? 1 : 0)`` with JavaScript semantics."""
    if _js_less(a, b):
        return -1
    if _js_less(b, a):
        return 1
    return 0


class _Undefined:
    """JavaScript's ``undefined``: every comparison with it is false."""


UNDEFINED = _Undefined()


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


_ARRAY_INDEX = re.compile(r"(?:0|[1-9][0-9]*)")


def is_array_index(key: str) -> bool:
    """True for keys JavaScript treats as integer indices (they come first in property order)."""
    return bool(_ARRAY_INDEX.fullmatch(key)) and int(key) < 2**32 - 1


def js_property_order(keys: Sequence[str]) -> list[str]:
    """Keys in JavaScript's own-property order: integer indices ascending, then the rest as given."""
    if not any(k[:1].isdigit() for k in keys):
        return list(keys)
    indices = sorted((k for k in keys if is_array_index(k)), key=int)
    return indices + [k for k in keys if not is_array_index(k)]


def canonicalize(value: JsonValue) -> JsonValue:
    """The canonical form of a JSON value: keys and arrays ordered as the reference orders them."""
    if isinstance(value, Mapping):
        return {k: canonicalize(value[k]) for k in js_property_order(sort_utf16(value))}
    if isinstance(value, list | tuple):
        items = list(value)
        if items:
            key = _array_sort_key(items[0])
            if key is not None:
                get = key
                members = [get(item) for item in items]
                if all(isinstance(m, str) for m in members):
                    # All strings: a plain stable sort on code units gives the comparator's order.
                    order = _ASTRAL.search("".join(members)) is not None
                    ranked = sorted(
                        range(len(items)), key=(lambda i: utf16_key(members[i])) if order else members.__getitem__
                    )
                    items = [items[i] for i in ranked]
                else:
                    items = sorted(items, key=functools.cmp_to_key(lambda a, b: _js_compare(get(a), get(b))))
        return [canonicalize(v) for v in items]
    return value


def js_number(value: float | int) -> str:
    """A number printed as JavaScript's ``Number.prototype.toString`` (and ``JSON.stringify``) does."""
    if isinstance(value, bool):
        raise TypeError("booleans are not numbers")
    if isinstance(value, int) and abs(value) < 10**21:
        # JavaScript numbers are doubles: an integer beyond 2**53 prints as its double.
        if abs(value) <= 2**53:
            return str(value)
        value = float(value)
    number = float(value)
    if math.isnan(number) or math.isinf(number):
        return "null"
    if number == 0:
        return "0"
    sign = "-" if number < 0 else ""
    _, digits_t, exp = Decimal(repr(abs(number))).normalize().as_tuple()
    digits = "".join(str(d) for d in digits_t)
    assert isinstance(exp, int)
    k = len(digits)
    n = k + exp
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
        text = f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + text


def js_string_literal(text: str) -> str:
    """A string as ``JSON.stringify`` writes it (non-ASCII raw, lone surrogates escaped)."""
    out: str = encode_basestring(text)
    if _LONE_SURROGATE.search(out):
        out = _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", out)
    return out


def _dump(value: JsonValue, indent: str | None, level: int, parts: list[str]) -> None:
    if value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif isinstance(value, int | float):
        parts.append(js_number(value))
    elif isinstance(value, str):
        parts.append(js_string_literal(value))
    elif isinstance(value, Mapping):
        if not value:
            parts.append("{}")
            return
        parts.append("{")
        first = True
        for k in js_property_order([str(key) for key in value]):
            v = value[k]
            if not first:
                parts.append(",")
            first = False
            if indent is not None:
                parts.append("\n" + indent * (level + 1))
            parts.append(js_string_literal(str(k)))
            parts.append(": " if indent is not None else ":")
            _dump(v, indent, level + 1, parts)
        if indent is not None:
            parts.append("\n" + indent * level)
        parts.append("}")
    elif isinstance(value, Sequence):
        if not value:
            parts.append("[]")
            return
        parts.append("[")
        for i, v in enumerate(value):
            if i:
                parts.append(",")
            if indent is not None:
                parts.append("\n" + indent * (level + 1))
            _dump(v, indent, level + 1, parts)
        if indent is not None:
            parts.append("\n" + indent * level)
        parts.append("]")
    else:
        raise TypeError(f"not a JSON value: {type(value).__name__}")


def js_stringify(value: JsonValue, indent: int | None = None) -> str:
    """``JSON.stringify(value, null, indent)``: members in the given order, nothing sorted."""
    parts: list[str] = []
    _dump(value, " " * indent if indent else None, 0, parts)
    return "".join(parts)


def canonical_text(value: JsonValue) -> str:
    """The reference's capsule serialization: canonicalized, 2-space indent, one final newline."""
    return js_stringify(canonicalize(value), 2) + "\n"


def canonical_bytes(value: JsonValue) -> bytes:
    return canonical_text(value).encode("utf-8", "surrogatepass")


def compact_json(value: JsonValue) -> str:
    """Compact ``JSON.stringify(value)`` (no spaces, members in the given order)."""
    return js_stringify(value, None)


def semantic_hash(capsule: Mapping[str, JsonValue]) -> str:
    """SHA-256 of the compact canonical capsule without ``generated_at`` (the volatile field)."""
    stripped = {k: v for k, v in capsule.items() if k != "generated_at"}
    return hashlib.sha256(compact_json(canonicalize(stripped)).encode("utf-8", "surrogatepass")).hexdigest()


def _reject_constant(name: str) -> JsonValue:
    raise ValueError(f"Unexpected token {name[0]} in JSON (NaN and Infinity are not JSON)")


def parse_json(text: str) -> JsonValue:
    """Strict JSON as ``JSON.parse`` accepts it (no NaN or Infinity); raises ``ValueError``.

    Nesting deeper than Python's decoder can follow is refused as a ``ValueError`` too, so a
    hostile document becomes a parse finding rather than a crash.
    """
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise ValueError("JSON nesting is too deep to read") from None


# JavaScript's whitespace for trim() and \s (differs from Python's str.strip()).
JS_WHITESPACE = (
    "\t\n\x0b\x0c\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
JS_WS_CLASS = "[" + re.escape(JS_WHITESPACE) + "]"


def js_trim(text: str) -> str:
    """JavaScript ``String.prototype.trim``."""
    return text.strip(JS_WHITESPACE)


def js_trim_end(text: str) -> str:
    return text.rstrip(JS_WHITESPACE)
