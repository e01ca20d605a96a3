"""What JavaScript does that Python does differently: whitespace, trim, String(number), typeof,
UTF-16 order, property order.

The reference tools run in V8. Every message, sort and serialization that must match them byte
for byte goes through these helpers rather than Python's own ``str.strip``, ``\\s``,
``str(float)``, ``isinstance(x, int)``, ``sorted`` or ``json.dumps``:

- whitespace: ``trim``, ``trimEnd`` and a regular expression's ``\\s`` and ``.`` know a
  different set of characters than Python (no U+001C..U+001F or U+0085, but U+FEFF);
- numbers: ``String(n)`` and ``JSON.stringify(n)`` print the shortest round-trip digits in
  their own layout (``2.0`` -> ``2``, ``1e21`` -> ``1e+21``, ``1e-7``), integers are doubles,
  and ``JSON.stringify`` writes ``null`` for NaN and the infinities;
- values: ``String(value)`` and ``typeof`` of parsed JSON values (``null`` is an "object", a
  boolean is not a number), and ``undefined`` for a member that is absent;
- order: strings compare by UTF-16 code units, and an object lists its integer-like keys first;
- dates: ``Date.parse`` of the date strings a cost ledger holds.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from decimal import Decimal
from json.encoder import encode_basestring
from typing import Any, TypeGuard

# ---------------------------------------------------------------------------------------------
# Whitespace

#: What ``String.prototype.trim`` removes and ``\s`` matches: WhiteSpace and LineTerminator.
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
#: A regular-expression class for JavaScript's ``\s``.
JS_WS_CLASS = "[" + re.escape(JS_WHITESPACE) + "]"
#: A regular-expression class for JavaScript's ``.``: anything but a line terminator.
JS_DOT = "[^\n\r\u2028\u2029]"


def js_trim(text: str) -> str:
    """``String.prototype.trim``."""
    return text.strip(JS_WHITESPACE)


def js_trim_start(text: str) -> str:
    """``String.prototype.trimStart``."""
    return text.lstrip(JS_WHITESPACE)


def js_trim_end(text: str) -> str:
    """``String.prototype.trimEnd``."""
    return text.rstrip(JS_WHITESPACE)


# ---------------------------------------------------------------------------------------------
# Values


class Undefined:
    """JavaScript's ``undefined``: the value of a member that is absent (use ``UNDEFINED``)."""

    def __repr__(self) -> str:
        return "undefined"


UNDEFINED: Any = Undefined()


def is_js_number(value: Any) -> TypeGuard[int | float]:
    """``typeof value === 'number'`` for a parsed JSON value (booleans are not numbers)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def js_typeof(value: Any) -> str:
    """``typeof value`` for a parsed JSON value (``None`` is JSON ``null``, an "object")."""
    if value is UNDEFINED:
        return "undefined"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "object"


def js_number(value: float) -> str:
    """``String(n)``: ``Number.prototype.toString`` with the shortest round-trip digits.

    ``2.0`` -> ``2``, ``-0`` -> ``0``, ``1e21`` -> ``1e+21``, ``1e-7`` -> ``1e-7``,
    ``0.000001`` -> ``0.000001``; ``NaN``, ``Infinity``, ``-Infinity``. An integer is printed as
    the double JavaScript holds for it (``2**60`` -> ``1152921504606847000``; beyond the largest
    double, ``Infinity``). A boolean prints as ``String`` prints it.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if abs(value) <= 2**53:
            return str(value)
        try:
            value = float(value)
        except OverflowError:
            return "Infinity" if value > 0 else "-Infinity"
    number = float(value)
    if math.isnan(number):
        return "NaN"
    if math.isinf(number):
        return "Infinity" if number > 0 else "-Infinity"
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


def json_number(value: float) -> str:
    """A number as ``JSON.stringify`` writes it: ``String(n)``, but ``null`` when not finite."""
    text = js_number(value)
    return "null" if text in ("NaN", "Infinity", "-Infinity") else text


def js_string(value: Any) -> str:
    """``String(value)`` (and ``${value}``) for a parsed JSON value or ``UNDEFINED``.

    ``null``, ``true``, numbers as ``js_number``, arrays joined by commas (their ``null``
    members empty), objects ``[object Object]``.
    """
    if value is UNDEFINED:
        return "undefined"
    if value is None:
        return "null"
    if isinstance(value, bool | int | float):
        return js_number(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple):
        return _join_array(value)
    return "[object Object]"


def js_double(value: int | float) -> float:
    """The double JavaScript holds for a JSON number (``2**53 + 1`` -> ``2**53``; beyond the
    largest double, an infinity, as ``JSON.parse`` gives)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _join_array(value: list[Any] | tuple[Any, ...]) -> str:
    """``Array.prototype.join`` with commas, nested arrays flattened, without recursion."""
    parts: list[str] = []
    stack: list[Iterator[Any]] = [iter(value)]
    first = [True]
    while stack:
        item = next(stack[-1], _END)
        if item is _END:
            stack.pop()
            first.pop()
            continue
        if not first[-1]:
            parts.append(",")
        first[-1] = False
        if isinstance(item, list | tuple):
            stack.append(iter(item))
            first.append(True)
        elif item is not None and item is not UNDEFINED:
            parts.append(js_string(item))
    return "".join(parts)


_END = object()


def js_strict_equal(a: Any, b: Any) -> bool:
    """``a === b`` for JSON scalars (``true !== 1``, ``1 === 1.0``).

    Numbers compare as the doubles JavaScript reads them as: ``9007199254740993`` and
    ``9007199254740992`` are the same number to ``JSON.parse``, so they are equal here too.
    """
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return js_double(a) == js_double(b)
    return type(a) is type(b) and a == b


# ---------------------------------------------------------------------------------------------
# Order


def utf16_key(text: str) -> bytes:
    """A sort key that orders strings by UTF-16 code units, as JavaScript's ``<`` and ``sort`` do."""
    return text.encode("utf-16-be", "surrogatepass")


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def has_astral(text: str) -> bool:
    """True when ``text`` holds a character beyond the BMP (where code-unit order departs)."""
    return _ASTRAL.search(text) is not None


def sort_utf16(strings: Iterable[str]) -> list[str]:
    """Strings sorted by UTF-16 code units (stable).

    Without astral characters code-unit order is code-point order, Python's own.
    """
    items = list(strings)
    if any(has_astral(s) for s in items):
        return sorted(items, key=utf16_key)
    return sorted(items)


_ARRAY_INDEX = re.compile(r"(?:0|[1-9][0-9]*)")


def is_array_index(key: str) -> bool:
    """True for keys JavaScript treats as integer indices (they come first in property order)."""
    return bool(_ARRAY_INDEX.fullmatch(key)) and int(key) < 2**32 - 1


def js_property_order(keys: Iterable[str]) -> list[str]:
    """``Object.keys`` order: integer-like keys ascending, then the others as given."""
    keys = list(keys)
    if not any(k[:1].isdigit() for k in keys):
        return keys
    indices = sorted((k for k in keys if is_array_index(k)), key=int)
    return indices + [k for k in keys if not is_array_index(k)]


# ---------------------------------------------------------------------------------------------
# JSON.stringify

_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")


def js_string_literal(text: str) -> str:
    """A string as ``JSON.stringify`` writes it (non-ASCII raw, lone surrogates escaped)."""
    out: str = encode_basestring(text)
    if _LONE_SURROGATE.search(out):
        out = _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", out)
    return out


def _dump(value: Any, indent: str | None, level: int, parts: list[str]) -> None:
    """Append ``value``'s JSON text to ``parts``, without recursion (nesting depth is unbounded)."""
    # The work list holds text to append and (value, level) pairs still to write, last first.
    todo: list[str | tuple[Any, int]] = [(value, level)]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        value, level = item
        if value is None:
            parts.append("null")
        elif value is True:
            parts.append("true")
        elif value is False:
            parts.append("false")
        elif isinstance(value, int | float):
            parts.append(json_number(value))
        elif isinstance(value, str):
            parts.append(js_string_literal(value))
        elif isinstance(value, Mapping | Sequence):
            is_object = isinstance(value, Mapping)
            if not value:
                parts.append("{}" if is_object else "[]")
                continue
            parts.append("{" if is_object else "[")
            tasks: list[str | tuple[Any, int]] = []
            children: list[tuple[str | None, Any]]
            if isinstance(value, Mapping):
                children = [(k, value[k]) for k in js_property_order([str(key) for key in value])]
            else:
                children = [(None, v) for v in value]
            for i, (key, child) in enumerate(children):
                if i:
                    tasks.append(",")
                if indent is not None:
                    tasks.append("\n" + indent * (level + 1))
                if key is not None:
                    tasks.append(js_string_literal(key) + (": " if indent is not None else ":"))
                tasks.append((child, level + 1))
            if indent is not None:
                tasks.append("\n" + indent * level)
            tasks.append("}" if is_object else "]")
            todo.extend(reversed(tasks))
        else:
            raise TypeError(f"not a JSON value: {type(value).__name__}")


def json_stringify(value: Any, indent: int | None = None) -> str:
    """``JSON.stringify(value, null, indent)``: members in property order, nothing sorted.

    ``UNDEFINED`` gives ``undefined``, as ``${JSON.stringify(undefined)}`` prints it.
    """
    if value is UNDEFINED:
        return "undefined"
    parts: list[str] = []
    _dump(value, " " * indent if indent else None, 0, parts)
    return "".join(parts)


# ---------------------------------------------------------------------------------------------
# Date.parse

_ISO = re.compile(
    r"^([+-]\d{6}|\d{4})(?:-(\d{2})(?:-(\d{2}))?)?"
    r"(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2})?)?$"
)
_SLASHED = re.compile(r"^(\d{4})/(\d{1,2})/(\d{1,2})$")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_WORDY = re.compile(r"^(?:[A-Za-z]{3,9},?\s+)?([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})$")


def js_date_parse(value: Any) -> dt.datetime | None:
    """``Date.parse`` for the date strings ledgers hold, as an aware UTC datetime (``None`` for NaN).

    ISO 8601 dates and date-times are read as V8 reads them, except that a date-time without a
    zone is taken as UTC rather than the machine's local time, so results never depend on the
    host. ``YYYY/MM/DD`` and ``Aug 31 2026``-style dates (V8's legacy parser) are accepted too.
    """
    text = js_string(value) if not isinstance(value, str) else value
    if value is None or isinstance(value, bool) or value is UNDEFINED:
        return None
    text = js_trim(text) if not _ISO.match(text) else text
    m = _ISO.match(text)
    try:
        if m:
            year = int(m.group(1))
            month = int(m.group(2) or 1)
            day = int(m.group(3) or 1)
            hour = int(m.group(4) or 0)
            minute = int(m.group(5) or 0)
            second = int(m.group(6) or 0)
            frac = m.group(7) or ""
            micro = int((frac + "000000")[:6]) if frac else 0
            if hour == 24 and minute == 0 and second == 0 and micro == 0:
                base = dt.datetime(year, month, day, tzinfo=dt.UTC) + dt.timedelta(days=1)
            else:
                base = dt.datetime(year, month, day, hour, minute, second, micro, tzinfo=dt.UTC)
            zone = m.group(8)
            if zone and zone != "Z":
                sign = 1 if zone[0] == "+" else -1
                offset = dt.timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6]))
                if offset >= dt.timedelta(hours=24):
                    return None
                base -= sign * offset
            return base
        m2 = _SLASHED.match(text)
        if m2:
            return dt.datetime(int(m2.group(1)), int(m2.group(2)), int(m2.group(3)), tzinfo=dt.UTC)
        m3 = _WORDY.match(text)
        if m3:
            month_name = m3.group(1)[:3].lower()
            if month_name in _MONTHS:
                return dt.datetime(int(m3.group(3)), _MONTHS.index(month_name) + 1, int(m3.group(2)), tzinfo=dt.UTC)
    except (ValueError, OverflowError):
        return None
    return None
