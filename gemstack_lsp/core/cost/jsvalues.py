"""How the reference (JavaScript) prints and orders values, for messages that must match it.

The reference builds its messages by string concatenation and ``JSON.stringify``; these
helpers reproduce what V8 prints for the JSON values a ledger can hold, and the order in
which ``Object.keys`` lists an object's keys.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections.abc import Iterable
from typing import Any

_INTEGER_KEY = re.compile(r"^(?:0|[1-9][0-9]*)$")

#: JavaScript's ``String.prototype.trim`` whitespace.
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def js_trim(text: str) -> str:
    return text.strip(JS_WHITESPACE)


def js_number(value: float | int) -> str:
    """``String(n)`` for a finite double: ``50`` not ``50.0``, ``1e-7`` not ``1e-07``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    if value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    text = repr(value)
    if "e" in text:
        mantissa, exp = text.split("e")
        sign = "-" if exp.startswith("-") else "+"
        digits = exp.lstrip("+-").lstrip("0") or "0"
        text = f"{mantissa}e{sign}{digits}"
        if mantissa.endswith(".0"):
            text = f"{mantissa[:-2]}e{sign}{digits}"
    return text


def js_string(value: Any) -> str:
    """``String(value)`` / ``'' + value`` for a JSON value (``None`` is ``null``, a missing value ``undefined``)."""
    if value is _UNDEFINED:
        return "undefined"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return js_number(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ",".join("" if v is None else js_string(v) for v in value)
    return "[object Object]"


def js_json(value: Any) -> str:
    """``JSON.stringify(value)`` (compact) for a JSON value; ``undefined`` for a missing one."""
    if value is _UNDEFINED:
        return "undefined"
    if value is None or isinstance(value, (bool, str)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (int, float)):
        return js_number(value)
    if isinstance(value, list):
        return "[" + ",".join(js_json(v) for v in value) + "]"
    if isinstance(value, dict):
        items = (json.dumps(str(k), ensure_ascii=False) + ":" + js_json(value[k]) for k in js_keys(value))
        return "{" + ",".join(items) + "}"
    return "null"


class _Undefined:
    """JavaScript's ``undefined``: a key that is absent."""

    def __repr__(self) -> str:
        return "undefined"


UNDEFINED: Any = _Undefined()
_UNDEFINED = UNDEFINED


def js_keys(keys: Iterable[str]) -> list[str]:
    """``Object.keys`` order: integer-like keys first, ascending, then the others in insertion order."""
    keys = list(keys)
    ints = sorted((k for k in keys if _INTEGER_KEY.match(k) and int(k) < 2**32 - 1), key=int)
    seen = set(ints)
    return ints + [k for k in keys if k not in seen]


def is_js_number(value: Any) -> bool:
    """``typeof value === 'number'`` for a parsed JSON value (booleans are not numbers)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


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
    if value is None or isinstance(value, bool) or value is _UNDEFINED:
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
