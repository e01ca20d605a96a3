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
import functools
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from decimal import Decimal
from json.encoder import encode_basestring
from typing import Any, TypeGuard

from gemstack_lsp.core.frozen import record

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
#
# V8 reads a date string in two passes over one stream of tokens. First it tries the ECMAScript
# date-time string format (``YYYY``, ``YYYY-MM``, ``YYYY-MM-DD``, each optionally followed by
# ``THH:mm``, ``:ss``, ``.sss`` and ``Z`` or ``+HH:mm``); where that format stops matching, its
# older, Safari-compatible parser continues from the token that did not fit, keeping the date
# fields already read. What the older parser accepts, summarised:
#
# - numbers not followed by ``:`` or ``.`` are date fields (at most three; one ``-`` after each is
#   skipped), read as year-month-day when the first is not a possible day (1..31), otherwise as
#   month-day-year; a missing day or month is 1 and a missing year is 2001 (``"9/1"``);
# - a month name (any word starting with its first three letters: ``Sep``, ``September``) fixes
#   the month, and the numbers are then day-year or, when the first is not a day, year-day;
# - a two-digit year 0..49 is 20xx and 50..99 is 19xx (only outside the ISO format);
# - ``n:`` starts a time (``10:00``, ``10:00:00``, ``10:00:00.123``), ``AM``/``PM`` after it shift a
#   12-hour clock, ``UT``/``UTC``/``GMT``/``Z`` and the US zones (``EST``, ``PDT``...) after a number
#   set the offset, and ``+hhmm``, ``+hh`` or ``+hh:mm`` after a time or ``GMT`` do too;
# - other words before the first number are ignored (``Tue,``), after it they make the string
#   invalid; text in parentheses and any other punctuation (``,``, ``/``) is ignored;
# - a day beyond the month's length rolls over into the next month (``2026-02-30`` is 2 March).
#
# A date-only ISO string is UTC. A date-time without a zone is local time to V8; here it is read
# as UTC, so that a result never depends on the machine it runs on (the tests run Node with
# ``TZ=UTC``). Every step reads each character once: the parse is linear in the string's length.

_MAX_TIME_MS = 8_640_000_000_000_000
_NONE = 2**31 - 1  # An empty slot of a composer (as in V8, a value no field can hold).
_MONTH_WORDS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_ZONE_WORDS = {
    "ut": 0,
    "utc": 0,
    "z": 0,
    "gmt": 0,
    "cdt": -5,
    "cst": -6,
    "edt": -4,
    "est": -5,
    "mdt": -6,
    "mst": -7,
    "pdt": -7,
    "pst": -8,
}
_MAX_DIGITS = 9


@record
class _DateToken:
    """One token of a date string: a number (value and digit count), a symbol (``: - + . )``),
    a word (its kind: month, am/pm, zone, the ``T`` separator, or another word), white space,
    something else, or the end."""

    kind: str  # "number", "symbol", "word", "space", "other", "end"
    value: int = 0
    length: int = 0
    symbol: str = ""
    word: str = ""  # "month", "ampm", "zone", "t", "" for any other word

    def is_fixed(self, length: int) -> bool:
        return self.kind == "number" and self.length == length

    def is_symbol(self, symbol: str) -> bool:
        return self.kind == "symbol" and self.symbol == symbol

    @property
    def is_sign(self) -> bool:
        return self.kind == "symbol" and self.symbol in "+-"

    @property
    def is_z(self) -> bool:
        return self.kind == "word" and self.word == "zone" and self.length == 1 and self.value == 0


_END_TOKEN = _DateToken("end")


class _DateScanner:
    """Tokens of a date string with one token of look-ahead (``peek``, ``next``, ``skip``)."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._pos = 0
        self._next = self._scan()

    def peek(self) -> _DateToken:
        return self._next

    def next(self) -> _DateToken:
        token = self._next
        self._next = self._scan()
        return token

    def skip(self, symbol: str) -> bool:
        if self._next.is_symbol(symbol):
            self.next()
            return True
        return False

    def _scan(self) -> _DateToken:
        text, pos = self._text, self._pos
        if pos >= len(text):
            return _END_TOKEN
        ch = text[pos]
        if "0" <= ch <= "9":
            start = pos
            while pos < len(text) and text[pos] == "0":
                pos += 1
            value = digits = 0
            while pos < len(text) and "0" <= text[pos] <= "9":
                if digits < _MAX_DIGITS:
                    value = value * 10 + ord(text[pos]) - 48
                digits += 1
                pos += 1
            self._pos = pos
            return _DateToken("number", value, pos - start)
        if ch in ":-+.)":
            self._pos = pos + 1
            return _DateToken("symbol", symbol=ch)
        if ch >= "A" and ch not in JS_WHITESPACE:
            start = pos
            while pos < len(text) and text[pos] >= "A" and text[pos] not in JS_WHITESPACE:
                pos += 1
            self._pos = pos
            return _word_token(text[start : min(pos, start + 3)], pos - start)
        if ch in JS_WHITESPACE:
            start = pos
            while pos < len(text) and text[pos] in JS_WHITESPACE:
                pos += 1
            self._pos = pos
            return _DateToken("space", length=pos - start)
        if ch == "(":
            depth = 0
            while pos < len(text):
                if text[pos] == ")":
                    depth -= 1
                elif text[pos] == "(":
                    depth += 1
                pos += 1
                if depth <= 0:
                    break
            self._pos = pos
            return _DateToken("other")
        self._pos = pos + 1
        return _DateToken("other")


def _word_token(prefix: str, length: int) -> _DateToken:
    """A word's token from its first three characters (ASCII letters folded to lower case) and
    its length: a month name may be longer than three letters, any other keyword may not."""
    key = "".join(chr(ord(c) | 0x20) if "A" <= c <= "Z" else c for c in prefix)
    if key in _MONTH_WORDS:
        return _DateToken("word", _MONTH_WORDS.index(key) + 1, length, word="month")
    if length <= 3:
        if key in ("am", "pm"):
            return _DateToken("word", 0 if key == "am" else 12, length, word="ampm")
        if key in _ZONE_WORDS:
            return _DateToken("word", _ZONE_WORDS[key], length, word="zone")
        if key == "t":
            return _DateToken("word", 0, length, word="t")
    return _DateToken("word", 0, length)


class _Day:
    """Up to three date numbers, a month name, and whether they came in the ISO format."""

    def __init__(self) -> None:
        self.comp: list[int] = []
        self.named_month = _NONE
        self.iso = False

    def add(self, n: int) -> bool:
        if len(self.comp) == 3:
            return False
        self.comp.append(n)
        return True

    def write(self) -> tuple[int, int, int] | None:
        """(year, month 1..12, day 1..31) or ``None`` when the fields name no date."""
        if not self.comp:
            return None
        comp = self.comp + [1] * (3 - len(self.comp))
        year = 0
        if self.named_month == _NONE:
            if self.iso or not 1 <= comp[0] <= 31:
                year, month, day = comp
            else:
                month, day, year = comp
        else:
            month = self.named_month
            if not 1 <= comp[0] <= 31:
                year, day = comp[0], comp[1]
            else:
                day, year = comp[0], comp[1]
        if not self.iso:
            if 0 <= year <= 49:
                year += 2000
            elif 50 <= year <= 99:
                year += 1900
        if not 1 <= month <= 12 or not 1 <= day <= 31:
            return None
        return year, month, day


class _Time:
    """Hour, minute, second and millisecond as they are read, and an AM/PM shift."""

    def __init__(self) -> None:
        self.comp: list[int] = []
        self.hour_offset = _NONE

    @property
    def empty(self) -> bool:
        return not self.comp

    def add(self, n: int) -> bool:
        if len(self.comp) == 4:
            return False
        self.comp.append(n)
        return True

    def add_final(self, n: int) -> bool:
        if not self.add(n):
            return False
        self.comp += [0] * (4 - len(self.comp))
        return True

    def expecting(self, n: int) -> bool:
        i = len(self.comp)
        return (i == 1 and 0 <= n <= 59) or (i == 2 and 0 <= n <= 59) or (i == 3 and 0 <= n <= 999)

    def write(self) -> tuple[int, int, int, int] | None:
        hour, minute, second, milli = self.comp + [0] * (4 - len(self.comp))
        if self.hour_offset != _NONE:
            if not 0 <= hour <= 12:
                return None
            hour = hour % 12 + self.hour_offset
        in_range = 0 <= hour <= 23 and 0 <= minute <= 59 and 0 <= second <= 59 and 0 <= milli <= 999
        if not in_range and (hour, minute, second, milli) != (24, 0, 0, 0):
            return None  # Only 24:00:00.000 may pass the 23rd hour.
        return hour, minute, second, milli


class _Zone:
    """The UTC offset as it is read: sign, hours, minutes (each may still be empty)."""

    def __init__(self) -> None:
        self.sign = _NONE
        self.hour = _NONE
        self.minute = _NONE

    def set(self, offset_hours: int) -> None:
        self.sign = -1 if offset_hours < 0 else 1
        self.hour = abs(offset_hours)
        self.minute = 0

    @property
    def empty(self) -> bool:
        return self.hour == _NONE

    @property
    def is_utc(self) -> bool:
        return self.hour == 0 and self.minute == 0

    def expecting(self, n: int) -> bool:
        return self.hour != _NONE and self.minute == _NONE and 0 <= n <= 59

    def write(self) -> int | None:
        """The offset in seconds, or ``None`` for local time."""
        if self.sign == _NONE:
            return None
        hour = 0 if self.hour == _NONE else self.hour
        minute = 0 if self.minute == _NONE else self.minute
        total = hour * 3600 + minute * 60
        return -total if self.sign < 0 else total


def _milliseconds(token: _DateToken) -> int:
    """The first three significant digits of a fraction, as its digit count places them."""
    number, length = token.value, token.length
    if length == 1:
        return number * 100
    if length == 2:
        return number * 10
    if length > 3:
        factor = 1
        for _ in range(min(length, _MAX_DIGITS) - 3):
            factor *= 10
        return number // factor
    return number


def _parse_iso(scanner: _DateScanner, day: _Day, time: _Time, zone: _Zone) -> _DateToken | None:
    """Read the ECMAScript date-time format; the first token it could not use (``_END_TOKEN``
    when the whole string matched), or ``None`` when a time part makes the string invalid."""
    if scanner.peek().is_sign:
        sign_token = scanner.next()
        if not scanner.peek().is_fixed(6):
            return sign_token
        year = scanner.next().value
        if sign_token.symbol == "-" and year == 0:
            return sign_token
        day.add(-year if sign_token.symbol == "-" else year)
    elif scanner.peek().is_fixed(4):
        day.add(scanner.next().value)
    else:
        return scanner.next()
    if scanner.skip("-"):
        if not scanner.peek().is_fixed(2) or not 1 <= scanner.peek().value <= 12:
            return scanner.next()
        day.add(scanner.next().value)
        if scanner.skip("-"):
            if not scanner.peek().is_fixed(2) or not 1 <= scanner.peek().value <= 31:
                return scanner.next()
            day.add(scanner.next().value)
    if not (scanner.peek().kind == "word" and scanner.peek().word == "t"):
        if scanner.peek().kind != "end":
            return scanner.next()
    else:
        scanner.next()
        if not scanner.peek().is_fixed(2) or not 0 <= scanner.peek().value <= 24:
            return None
        hour_is_24 = scanner.peek().value == 24
        time.add(scanner.next().value)
        if not scanner.skip(":"):
            return None
        if not scanner.peek().is_fixed(2) or not 0 <= scanner.peek().value <= 59:
            return None
        if hour_is_24 and scanner.peek().value > 0:
            return None
        time.add(scanner.next().value)
        if scanner.skip(":"):
            if not scanner.peek().is_fixed(2) or not 0 <= scanner.peek().value <= 59:
                return None
            if hour_is_24 and scanner.peek().value > 0:
                return None
            time.add(scanner.next().value)
            if scanner.skip("."):
                if scanner.peek().kind != "number" or (hour_is_24 and scanner.peek().value > 0):
                    return None
                time.add(_milliseconds(scanner.next()))
        if scanner.peek().is_z:
            scanner.next()
            zone.set(0)
        elif scanner.peek().is_sign:
            zone.sign = 1 if scanner.next().symbol == "+" else -1
            if scanner.peek().is_fixed(4):
                hourmin = scanner.next().value
                hour, minute = divmod(hourmin, 100)
                if not 0 <= hour <= 23 or not 0 <= minute <= 59:
                    return None
                zone.hour, zone.minute = hour, minute
            else:
                if not scanner.peek().is_fixed(2) or not 0 <= scanner.peek().value <= 23:
                    return None
                zone.hour = scanner.next().value
                if not scanner.skip(":"):
                    return None
                if not scanner.peek().is_fixed(2) or not 0 <= scanner.peek().value <= 59:
                    return None
                zone.minute = scanner.next().value
        if scanner.peek().kind != "end":
            return None
    if zone.empty and time.empty:
        zone.set(0)
    day.iso = True
    return _END_TOKEN


def _parse_legacy(scanner: _DateScanner, token: _DateToken, day: _Day, time: _Time, zone: _Zone) -> bool:
    """Read the rest of the string as V8's older parser does, from ``token`` on; False when invalid."""
    has_number = bool(day.comp)
    while token.kind != "end":
        if token.kind == "number":
            has_number = True
            n = token.value
            if scanner.skip(":"):
                if scanner.skip(":"):
                    if not time.empty:
                        return False
                    time.add(n)
                    time.add(0)
                else:
                    if not time.add(n):
                        return False
                    if scanner.peek().is_symbol("."):
                        scanner.next()
            elif scanner.skip(".") and time.expecting(n):
                time.add(n)
                if scanner.peek().kind != "number":
                    return False
                time.add_final(_milliseconds(scanner.next()))
            elif zone.expecting(n):
                zone.minute = n
            elif time.expecting(n):
                time.add_final(n)
                peek = scanner.peek()
                if peek.kind not in ("end", "space") and not peek.is_z and not peek.is_sign:
                    return False
            else:
                if not day.add(n):
                    return False
                scanner.skip("-")
        elif token.kind == "word":
            if token.word == "ampm" and not time.empty:
                time.hour_offset = token.value
            elif token.word == "month":
                day.named_month = token.value
                scanner.skip("-")
            elif token.word == "zone" and has_number:
                zone.set(token.value)
            else:
                if has_number or scanner.peek().kind == "number":
                    return False
        elif token.is_sign and (zone.is_utc or not time.empty):
            zone.sign = 1 if token.symbol == "+" else -1
            n = length = 0
            if scanner.peek().kind == "number":
                number = scanner.next()
                n, length = number.value, number.length
            has_number = True
            if scanner.peek().is_symbol(":"):
                zone.hour, zone.minute = n, _NONE
            elif length in (1, 2):
                zone.hour, zone.minute = n, 0
            elif length in (3, 4):
                zone.hour, zone.minute = n // 100, n % 100
            else:
                return False
        elif (token.is_sign or token.is_symbol(")")) and has_number:
            return False
        token = scanner.next()
    return True


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to the given proleptic Gregorian date (any year; day may overflow)."""
    y = year - (1 if month <= 2 else 0)
    era = y // 400
    yoe = y - era * 400
    mp = (month + 9) % 12
    doy = (153 * mp + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def js_date_parse_ms(value: Any) -> int | None:
    """``Date.parse(value)``: milliseconds since 1970-01-01T00:00:00Z, or ``None`` for NaN.

    A non-string is converted with ``String`` first, as JavaScript does (``Date.parse(2026)``
    reads the year 2026; ``true`` and ``null`` are NaN). See the section comment above for the
    forms accepted; a date-time without a zone is read as UTC.
    """
    return _date_parse_ms(value if isinstance(value, str) else js_string(value))


@functools.lru_cache(maxsize=1024)
def _date_parse_ms(text: str) -> int | None:
    """``js_date_parse_ms`` of a string: kept, as a repository's ledgers repeat a few dates."""
    scanner = _DateScanner(text)
    day, time, zone = _Day(), _Time(), _Zone()
    rest = _parse_iso(scanner, day, time, zone)
    if rest is None or not _parse_legacy(scanner, rest, day, time, zone):
        return None
    ymd, hms, offset = day.write(), time.write(), zone.write()
    if ymd is None or hms is None:
        return None
    year, month, mday = ymd
    hour, minute, second, milli = hms
    ms = _days_from_civil(year, month, 1) + mday - 1
    total = ms * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000 + milli
    if offset is not None:
        total -= offset * 1000
    if abs(total) > _MAX_TIME_MS:
        return None
    return total


_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


def js_date_parse(value: Any) -> dt.datetime | None:
    """``Date.parse`` as an aware UTC datetime: ``None`` for NaN, and for the valid JavaScript
    dates Python's datetime cannot hold (before year 1 or after 9999; use ``js_date_parse_ms``
    where those matter)."""
    ms = js_date_parse_ms(value)
    if ms is None:
        return None
    try:
        return _EPOCH + dt.timedelta(milliseconds=ms)
    except OverflowError:
        return None
