"""Where each node of a (valid) capsule JSON text sits, so a finding can point at it.

``locate(text)`` walks JSON that has already parsed and records, for every JSON path
(a tuple of keys and indices), the span of the value and, for object members, the span from
the key to the end of the value. Malformed text yields whatever was found before the error.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from gemstack_lsp.core.text import Span

JsonPath = tuple[str | int, ...]

_LITERAL = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")
_WS = " \t\n\r"


class _Stop(Exception):
    pass


@dataclass
class JsonLocations:
    """Spans of the values and members of one JSON document."""

    values: dict[JsonPath, Span] = field(default_factory=dict)
    members: dict[JsonPath, Span] = field(default_factory=dict)
    keys: dict[JsonPath, Span] = field(default_factory=dict)

    def value(self, path: Sequence[str | int]) -> Span | None:
        """The span of the value at ``path``, or of its nearest located ancestor."""
        p = tuple(path)
        while p:
            if p in self.values:
                return self.values[p]
            p = p[:-1]
        return self.values.get(())

    def member(self, path: Sequence[str | int]) -> Span | None:
        """The span of ``"key": value`` at ``path`` (the value's span for array items)."""
        p = tuple(path)
        return self.members.get(p) or self.value(p)

    def key(self, path: Sequence[str | int]) -> Span | None:
        """The span of the key string of the member at ``path``."""
        p = tuple(path)
        return self.keys.get(p) or self.member(p)


def _skip_ws(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i] in _WS:
        i += 1
    return i


def _string_end(text: str, i: int) -> int:
    """``i`` is at an opening quote; returns the offset after the closing quote."""
    j = i + 1
    n = len(text)
    while j < n:
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == '"':
            return j + 1
        j += 1
    raise _Stop


def _value(text: str, i: int, path: JsonPath, out: JsonLocations) -> int:
    i = _skip_ws(text, i)
    if i >= len(text):
        raise _Stop
    c = text[i]
    start = i
    if c == "{":
        i = _skip_ws(text, i + 1)
        if i < len(text) and text[i] == "}":
            i += 1
        else:
            while True:
                i = _skip_ws(text, i)
                if i >= len(text) or text[i] != '"':
                    raise _Stop
                key_end = _string_end(text, i)
                key = json.loads(text[i:key_end])
                member_start = i
                child = (*path, key)
                out.keys[child] = Span(i, key_end)
                i = _skip_ws(text, key_end)
                if i >= len(text) or text[i] != ":":
                    raise _Stop
                i = _value(text, i + 1, child, out)
                out.members[child] = Span(member_start, i)
                i = _skip_ws(text, i)
                if i < len(text) and text[i] == ",":
                    i += 1
                    continue
                if i < len(text) and text[i] == "}":
                    i += 1
                    break
                raise _Stop
    elif c == "[":
        i = _skip_ws(text, i + 1)
        if i < len(text) and text[i] == "]":
            i += 1
        else:
            index = 0
            while True:
                i = _value(text, i, (*path, index), out)
                index += 1
                i = _skip_ws(text, i)
                if i < len(text) and text[i] == ",":
                    i += 1
                    continue
                if i < len(text) and text[i] == "]":
                    i += 1
                    break
                raise _Stop
    elif c == '"':
        i = _string_end(text, i)
    else:
        m = _LITERAL.match(text, i)
        if m is None:
            raise _Stop
        i = m.end()
    out.values[path] = Span(start, i)
    return i


def locate(text: str) -> JsonLocations:
    """Spans for every value, member and key of a JSON document (best effort on bad input)."""
    out = JsonLocations()
    with contextlib.suppress(_Stop, ValueError):
        _value(text, 0, (), out)
    return out
