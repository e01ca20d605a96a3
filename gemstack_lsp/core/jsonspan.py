"""Strict JSON with a span for every node, and the valid prefix kept when the text is broken.

``parse_json`` accepts exactly what ``JSON.parse`` accepts (no NaN or Infinity, no comments,
no trailing commas, no single quotes, no raw control characters in strings). Every node
carries the span of its text in the document: offsets are mapped through a base offset or a
function (a fenced block inside a blockquote is not one slice of its document). On the first
syntax error parsing stops, the error points at the offending token, and the nodes read so far
are returned as a partial tree (open containers are marked incomplete) so that hover and
completion keep working while the user types. Repeated keys are reported; ``to_python`` keeps
the last value, as ``JSON.parse`` does.

Why our own parser rather than tree-sitter-json. Measured 2026-12-02 (tree-sitter 0.26.1 and
tree-sitter-json 0.24.8 from PyPI, CPython 3.11), on the six JSON blocks of the 009 spec
(about 8 kB together) and on a 1.37 MB array of non-ASCII objects:

====================================  ===============  ==============
                                      009 blocks       1.37 MB array
====================================  ===============  ==============
this module (tree with spans)         0.93 ms          607 ms
tree-sitter, parse only               0.37 ms          144 ms
tree-sitter, parse + visit all nodes  0.84 ms          264 ms
json.loads (no spans)                 0.035 ms         11 ms
====================================  ===============  ==============

Once its nodes are visited (which spans for every node require) tree-sitter is no faster on
block-sized input, and it is not strict: it accepts ``//`` comments and raw control characters
in strings without an error, it neither decodes string escapes nor numbers, it reports byte
offsets, and its recovery yields ERROR/MISSING nodes rather than a message naming the token.
Matching ``JSON.parse`` (what the reference runs) would mean a second, strict pass on top of
it, plus a native dependency. Gemstack blocks are small, so this pure-Python parser it is.
"""

from __future__ import annotations

import json as _json
import json.scanner
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from json import JSONDecodeError
from json import decoder as _decoder
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jscompat import UNDEFINED, js_typeof
from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.text import Span, trusted_span

OffsetMap: TypeAlias = int | Callable[[int], int]

#: A path to a node: object keys and array indices from the root.
JsonPath: TypeAlias = tuple[str | int, ...]


class _LazySpan:
    """A node's ``span`` made when it is first read, from the start and end the fast parse
    kept (``_parse_valid``; a member's runs from its key's start to its value's end); a node
    built with its span (the other parses, ``shifted``, a constructor call) has it from the
    start. Either way ``node.span`` is the same ``Span``, equality, hashing, ``repr`` and
    pickling see it, and the dataclass's fields are unchanged.

    Nodes are slotted (no instance dictionary): a feature's blocks make some thousand of them,
    and a dictionary each was a third of their objects, of the time to make them and of the
    time to free them.
    """

    __slots__ = ("_e", "_s")

    if not TYPE_CHECKING:  # a ``__getattr__`` would let the type checker accept any attribute

        def __getattr__(self, name: str) -> Any:
            # Called only for an attribute no slot holds yet: ``span`` before it is made.
            if name != "span":
                raise AttributeError(name)
            try:
                start, end = self._s, self._e
            except AttributeError:
                if not isinstance(self, JsonMember):
                    raise AttributeError(name) from None
                start, end = self.key.span.start, self.value.span.end  # from its key to its value
            span = trusted_span(start, end)
            _set(self, "span", span)
            return span


class _IndexedSpan(_LazySpan):
    """An object node: ``_index`` (key -> last value) kept beside its fields once built."""

    __slots__ = ("_index",)
    _index: dict[str, JsonNode]


_set = object.__setattr__


@dataclass(frozen=True, slots=True)
class JsonString(_LazySpan):
    value: str
    span: Span

    def to_python(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class JsonNumber(_LazySpan):
    value: int | float
    raw: str
    span: Span

    def to_python(self) -> int | float:
        return self.value


@dataclass(frozen=True, slots=True)
class JsonBool(_LazySpan):
    value: bool
    span: Span

    def to_python(self) -> bool:
        return self.value


@dataclass(frozen=True, slots=True)
class JsonNull(_LazySpan):
    span: Span

    @property
    def value(self) -> None:
        return None

    def to_python(self) -> None:
        return None


@dataclass(frozen=True, slots=True)
class JsonMember(_LazySpan):
    """One ``"key": value`` pair; its span runs from the key to the end of the value."""

    key: JsonString
    value: JsonNode
    span: Span


@dataclass(frozen=True, slots=True)
class JsonObject(_IndexedSpan):
    """An object. ``complete`` is False in a partial tree; ``pending_key`` is a key still waiting
    for its value there."""

    members: tuple[JsonMember, ...]
    span: Span
    complete: bool = True
    pending_key: JsonString | None = None

    def to_python(self) -> dict[str, Any]:
        result: dict[str, Any] = _to_python(self)
        return result

    def get(self, key: str) -> JsonNode | None:
        """The value of ``key`` (the last one when the key repeats, as ``JSON.parse`` keeps it).

        The rules ask an object for most of its keys in turn: the first call indexes the
        members by key (kept beside the fields, in the instance's dictionary; the members never
        change), and every call is then one lookup."""
        try:
            index: dict[str, JsonNode] = self._index
        except AttributeError:
            index = {m.key.value: m.value for m in self.members}
            _set(self, "_index", index)
        return index.get(key)

    def member(self, key: str) -> JsonMember | None:
        """The member that holds ``key`` (the last one when the key repeats)."""
        found: JsonMember | None = None
        for m in self.members:
            if m.key.value == key:
                found = m
        return found

    def keys(self) -> list[str]:
        """The distinct keys, in first-appearance order (the index's order: a repeated key
        keeps the place it first had)."""
        try:
            return list(self._index)
        except AttributeError:
            return list(dict.fromkeys(m.key.value for m in self.members))


@dataclass(frozen=True, slots=True)
class JsonArray(_LazySpan):
    items: tuple[JsonNode, ...]
    span: Span
    complete: bool = True

    def to_python(self) -> list[Any]:
        result: list[Any] = _to_python(self)
        return result


JsonNode: TypeAlias = JsonObject | JsonArray | JsonString | JsonNumber | JsonBool | JsonNull


#: The longest integer kept exact (longer ones are read as floats, as a double would hold them).
MAX_EXACT_INT_DIGITS = 400
_MAX_EXACT_INT_DIGITS = MAX_EXACT_INT_DIGITS

#: The deepest nesting ``capsule.canonical.parse_json`` reads (``too_deep``). This parser has
#: no limit, as ``JSON.parse`` has none, and every walk over its trees is iterative; the capsule
#: reader turns the text into plain Python values that ``repr``, ``==`` and the canonicalizer
#: recurse over, so a deeper capsule is unparsable there. No Gemstack artifact comes near it.
MAX_DEPTH = 256

TOO_DEEP = f"JSON nested deeper than {MAX_DEPTH} levels is not read"

#: The most values (scalars and containers) one document may hold. A span-keeping node costs
#: some hundred bytes where its text may cost two (``0,``): without a bound, an 8 MB array of
#: zeros cost 2 GB. No Gemstack artifact comes near it (a 2,000-provider ledger holds about
#: 50,000 values); a document with more is a parse error at the value past the limit, so memory
#: stays bounded (about 100 MB at most) whatever the file's size.
MAX_VALUES = 200_000

TOO_MANY_VALUES = f"More than {MAX_VALUES:,} JSON values: the document is not read (a limit that bounds memory)"


def _to_python(root: JsonObject | JsonArray, max_depth: int | None = None) -> Any:
    """Plain Python values for a container, without recursion (nesting depth is unbounded).

    Objects keep the last value of a repeated key, as ``JSON.parse`` does. With ``max_depth``,
    containers that deep are left empty (see ``to_python_within``).
    """
    out: dict[str, Any] | list[Any] = {} if isinstance(root, JsonObject) else []
    stack: list[tuple[JsonObject | JsonArray, dict[str, Any] | list[Any], int]] = [(root, out, 1)]
    while stack:
        node, target, depth = stack.pop()
        if max_depth is not None and depth >= max_depth:
            continue
        pairs: list[tuple[str | None, JsonNode]] = (
            [(m.key.value, m.value) for m in node.members]
            if isinstance(node, JsonObject)
            else [(None, item) for item in node.items]
        )
        for key, child in pairs:
            value: Any
            if isinstance(child, JsonObject | JsonArray):
                value = {} if isinstance(child, JsonObject) else []
                stack.append((child, value, depth + 1))
            else:
                value = child.to_python()
            if isinstance(target, dict):
                target[key or ""] = value
            else:
                target.append(value)
    return out


#: How deep ``to_python_within`` keeps containers for a schema validator.
SCHEMA_DEPTH = 64


def to_python_within(node: JsonNode, max_depth: int = SCHEMA_DEPTH) -> Any:
    """``node.to_python()`` with every container ``max_depth`` levels down left empty.

    For third-party code that recurses over values (``jsonschema``, whose messages ``repr`` the
    instance): the Gemstack schemas describe a few levels only, so a validator sees the same
    types and members there, and a document nested thousands deep cannot exhaust its stack.
    """
    if isinstance(node, JsonObject | JsonArray):
        return _to_python(node, max_depth)
    return node.to_python()


#: ``plain_json``'s answer for a text it does not read (and ``BlockSource.plain``'s for a block
#: whose JSON did not parse).
NOT_PLAIN: Any = type("NotPlain", (), {"__repr__": lambda self: "NOT_PLAIN", "__slots__": ()})()


class _RepeatedKey(ValueError):
    pass


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        raise _RepeatedKey  # its finding needs the key's span: the tree is made at once
    return value


def _integer(text: str) -> int | float:
    # As the tree's numbers: exact while Python can read them.
    return int(text) if len(text) <= MAX_EXACT_INT_DIGITS else float(text)


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def member_place(text: str, path: Sequence[str]) -> tuple[Span, Span] | None:
    """The spans of the key and of the value of the member at ``path`` (object keys from the
    root) in a text ``plain_json`` reads (valid JSON, no repeated key); ``None`` when there is
    no such member. The members before it are skipped by the C scanner, without a tree: the
    place of one finding in a document that has no other."""
    if not path:
        return None
    ws = _WS.match
    scan = _scan_once
    at = ws(text, 0).end()  # type: ignore[union-attr]
    key_span = None
    for key in path:
        if not text.startswith("{", at):
            return None
        at = ws(text, at + 1).end()  # type: ignore[union-attr]
        while text.startswith('"', at):
            name, end = _scanstring(text, at + 1, True)
            key_start = at
            at = ws(text, end).end() + 1  # type: ignore[union-attr]  # past the ":"
            at = ws(text, at).end()  # type: ignore[union-attr]
            if name == key:
                key_span = Span(key_start, end)
                break
            at = ws(text, scan(text, at)[1]).end()  # type: ignore[union-attr]
            if not text.startswith(",", at):
                return None  # the object ended: no such key
            at = ws(text, at + 1).end()  # type: ignore[union-attr]
        else:
            return None  # an empty object
    assert key_span is not None
    return key_span, Span(at, scan(text, at)[1])


#: The C scanner's reading of one value: (the value, the index after it).
_scan_once: Callable[[str, int], tuple[Any, int]] = _json.scanner.make_scanner(_json.JSONDecoder())  # type: ignore[arg-type]


@per_text
def plain_json(text: str) -> Any:
    """``text`` as the plain values ``parse_json(text).value.to_python()`` would give, read by
    the C parser: when the text is valid JSON with no repeated key and no more values than
    ``MAX_VALUES``; ``NOT_PLAIN`` for any other text (the tree then says why)."""
    if len(text) >= 2 * MAX_VALUES:
        return NOT_PLAIN
    try:
        return _json.loads(text, object_pairs_hook=_object, parse_int=_integer, parse_constant=_constant)
    except (ValueError, RecursionError):
        return NOT_PLAIN


@record
class JsonError:
    span: Span
    message: str


@record
class JsonResult:
    """The parse outcome: a tree (partial when there is an error), the error, repeated keys."""

    value: JsonNode | None
    errors: tuple[JsonError, ...]
    duplicate_keys: tuple[JsonMember, ...]

    @property
    def ok(self) -> bool:
        return not self.errors and self.value is not None


def type_name(node: JsonNode | None) -> str:
    """The JavaScript ``typeof`` of a node's value (``null`` and arrays are "object")."""
    if node is None:
        return js_typeof(UNDEFINED)
    return js_typeof(node.value if isinstance(node, JsonString | JsonNumber | JsonBool) else None)


#: The C-accelerated string scanner of the standard library (typeshed does not declare it).
_scanstring: Callable[[str, int, bool], tuple[str, int]] = vars(_decoder)["scanstring"]

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_WORD = re.compile(r"[A-Za-z0-9_$+\-.]+")


class _Syntax(Exception):
    def __init__(self, start: int, end: int, message: str) -> None:
        super().__init__(message)
        self.start = start
        self.end = end
        self.message = message


@dataclass
class _Frame:
    start: int
    is_object: bool
    items: list[JsonNode]
    members: list[JsonMember]
    keys: set[str]
    pending: JsonString | None = None


def _describe(text: str, i: int) -> tuple[int, int, str]:
    """The token at ``i`` (its extent and how to name it in a message)."""
    if i >= len(text):
        return i, i, "end of JSON input"
    c = text[i]
    if c == "/" and text.startswith(("//", "/*"), i):
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = len(text) if j < 0 else j
        else:
            j = text.find("*/", i + 2)
            j = len(text) if j < 0 else j + 2
        return i, j, "comment (comments are not allowed in JSON)"
    if c == "'":
        j = text.find("'", i + 1)
        nl = text.find("\n", i + 1)
        j = j + 1 if j >= 0 and (nl < 0 or j < nl) else i + 1
        return i, j, "single-quoted string (JSON strings use double quotes)"
    m = _WORD.match(text, i)
    if m is not None:
        word = m.group(0)
        if word in ("NaN", "Infinity", "-Infinity", "+Infinity", "undefined"):
            return i, m.end(), f"{word} (not valid JSON)"
        return i, m.end(), f"token '{word}'"
    if ord(c) < 0x20:
        return i, i + 1, f"control character U+{ord(c):04X}"
    return i, i + 1, f"token '{c}'"


class _Parser:
    def __init__(self, text: str, offsets: OffsetMap) -> None:
        self.text = text
        if isinstance(offsets, int):
            base = offsets
            self.span: Callable[[int, int], Span] = lambda s, e: Span(base + s, base + e)
        else:
            fn = offsets

            def mapped(s: int, e: int) -> Span:
                start = fn(s)
                return Span(start, max(start, fn(e)))

            self.span = mapped
        self.stack: list[_Frame] = []
        self.duplicates: list[JsonMember] = []
        self.root: JsonNode | None = None
        self.values = 0

    def ws(self, i: int) -> int:
        text = self.text
        if i < len(text) and text[i] not in " \t\n\r":
            return i
        m = _WS.match(text, i)
        return m.end() if m is not None else i

    def unexpected(self, i: int, expected: str) -> _Syntax:
        s, e, what = _describe(self.text, i)
        if s >= len(self.text):
            return _Syntax(s, e, f"Unexpected end of JSON input (expected {expected})")
        return _Syntax(s, e, f"Unexpected {what}, expected {expected}")

    def scalar(self, i: int) -> tuple[JsonNode, int]:
        text = self.text
        c = text[i] if i < len(text) else ""
        if c == '"':
            return self.string(i)
        if c == "-" or c.isdigit():
            m = _NUMBER.match(text, i)
            if m is None:
                raise self.unexpected(i, "a value")
            raw = m.group(0)
            # JSON numbers are doubles in JavaScript; integers stay exact while Python can parse
            # them (a few hundred digits is already beyond any double).
            exact = not (m.group(1) or m.group(2)) and len(raw) <= _MAX_EXACT_INT_DIGITS
            value: int | float = int(raw) if exact else float(raw)
            return JsonNumber(value, raw, self.span(i, m.end())), m.end()
        for word, node_value in (("true", True), ("false", False)):
            if text.startswith(word, i):
                return JsonBool(node_value, self.span(i, i + len(word))), i + len(word)
        if text.startswith("null", i):
            return JsonNull(self.span(i, i + 4)), i + 4
        raise self.unexpected(i, "a value")

    def string(self, i: int) -> tuple[JsonString, int]:
        try:
            value, end = _scanstring(self.text, i + 1, True)
        except JSONDecodeError as exc:
            pos = exc.pos
            if exc.msg.startswith("Unterminated string"):
                nl = self.text.find("\n", i)
                end_at = len(self.text) if nl < 0 else nl
                raise _Syntax(i, end_at, "Unterminated string") from None
            if exc.msg.startswith("Invalid control character"):
                c = self.text[pos]
                raise _Syntax(pos, pos + 1, f"Bad control character U+{ord(c):04X} in string") from None
            if exc.msg.startswith("Invalid \\uXXXX"):
                raise _Syntax(pos, min(pos + 6, len(self.text)), "Bad Unicode escape in string") from None
            raise _Syntax(pos, min(pos + 2, len(self.text)), "Bad escaped character in string") from None
        return JsonString(value, self.span(i, end)), end

    def run(self) -> JsonResult:
        text = self.text
        n = len(text)
        i = self.ws(0)
        stack = self.stack
        state: Literal["value", "key", "after"] = "value"
        node: JsonNode | None = None
        try:
            while True:
                if state == "value":
                    self.values += 1
                    if self.values > MAX_VALUES:
                        raise _Syntax(i, min(n, i + 1), TOO_MANY_VALUES)
                    c = text[i] if i < n else ""
                    if c == "[" or c == "{":
                        stack.append(_Frame(i, c == "{", [], [], set()))
                        i = self.ws(i + 1)
                        close = "}" if c == "{" else "]"
                        if i < n and text[i] == close:
                            node = self.pop(i + 1, True)
                            i += 1
                            state = "after"
                        else:
                            state = "key" if c == "{" else "value"
                        continue
                    node, i = self.scalar(i)
                    state = "after"
                    continue
                if state == "key":
                    if i >= n or text[i] != '"':
                        raise self.unexpected(i, "a double-quoted property name")
                    key, i = self.string(i)
                    stack[-1].pending = key
                    i = self.ws(i)
                    if i >= n or text[i] != ":":
                        raise self.unexpected(i, "':' after the property name")
                    i = self.ws(i + 1)
                    state = "value"
                    continue
                # state == "after": a value is complete.
                assert node is not None
                if not stack:
                    self.root = node
                    i = self.ws(i)
                    if i < n:
                        s, e, what = _describe(text, i)
                        raise _Syntax(s, e, f"Unexpected {what} after the JSON value")
                    break
                frame = stack[-1]
                if frame.is_object:
                    pending = frame.pending
                    assert pending is not None
                    member = JsonMember(pending, node, Span(pending.span.start, node.span.end))
                    if pending.value in frame.keys:
                        self.duplicates.append(member)
                    frame.keys.add(pending.value)
                    frame.members.append(member)
                    frame.pending = None
                else:
                    frame.items.append(node)
                node = None
                i = self.ws(i)
                c = text[i] if i < n else ""
                close = "}" if frame.is_object else "]"
                if c == ",":
                    j = self.ws(i + 1)
                    if j < n and text[j] in "]}":
                        raise _Syntax(i, i + 1, f"Trailing comma before '{text[j]}'")
                    i = j
                    state = "key" if frame.is_object else "value"
                    continue
                if c == close:
                    node = self.pop(i + 1, True)
                    i += 1
                    state = "after"
                    continue
                raise self.unexpected(i, f"',' or '{close}'")
        except _Syntax as err:
            return self.partial(err)
        return JsonResult(self.root, (), tuple(self.duplicates))

    def pop(self, end: int, complete: bool) -> JsonNode:
        frame = self.stack.pop()
        span = self.span(frame.start, end)
        if frame.is_object:
            return JsonObject(tuple(frame.members), span, complete, frame.pending)
        return JsonArray(tuple(frame.items), span, complete)

    def partial(self, err: _Syntax) -> JsonResult:
        """Close the open containers at the error, keeping what was read."""
        node: JsonNode | None = self.root
        while self.stack:
            closed = self.pop(max(err.start, self.stack[-1].start + 1), False)
            if not self.stack:
                node = closed
                break
            parent = self.stack[-1]
            if not parent.is_object:
                parent.items.append(closed)
            elif parent.pending is not None:
                key = parent.pending
                parent.members.append(JsonMember(key, closed, Span(key.span.start, closed.span.end)))
                parent.pending = None
        error = JsonError(self.span(err.start, err.end), err.message)
        return JsonResult(node, (error,), tuple(self.duplicates))


_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]')


def too_deep(text: str) -> int | None:
    """The offset of the first bracket that opens a container deeper than ``MAX_DEPTH`` (or ``None``).

    A scan that skips strings (``parse_json`` itself has no limit); on malformed text the answer
    is only as good as the brackets are balanced.
    """
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return None  # not that many brackets at all (two counts in C, where the scan is Python)
    depth = 0
    for m in _STRING_OR_BRACKET.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return m.start()
        elif c in "]}":
            depth = max(0, depth - 1)
    return None


def parse_json(text: str, offsets: OffsetMap = 0) -> JsonResult:
    """Parse ``text`` as strict JSON; spans are ``offsets + i`` or ``offsets(i)`` for text index ``i``.

    Text that the C parser of the standard library accepts (nearly every block, nearly every
    time) is walked once more by ``_parse_valid``, which knows it is valid and skips every
    check; anything else (an error to locate, a constant ``JSON.parse`` refuses, an integer
    Python will not read, a document deep enough to exhaust the C parser's stack) takes the
    error-tolerant ``_Parser``. Both give the same tree."""
    if isinstance(offsets, int) and _valid(text):
        return _parse_valid(text, offsets)
    return _Parser(text, offsets).run()


def parse_valid_json(text: str, base: int = 0) -> JsonResult | None:
    """``parse_json(text, base)`` when ``text`` takes the fast path (valid JSON, nearly every
    block), else ``None``: the caller then knows the parse would be the slow, tolerant one."""
    return _parse_valid(text, base) if _valid(text) else None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _valid(text: str) -> bool:
    """True when ``text`` is JSON that ``_parse_valid`` may read: the C parser accepts it and
    it is too short to hold more than ``MAX_VALUES`` values (a value takes at least one
    character and all but one of them a separator, so ``n`` characters hold at most
    ``(n + 1) / 2``)."""
    if len(text) >= 2 * MAX_VALUES:
        return False
    try:
        _loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        return False
    return True


_loads = __import__("json").loads


#: The slots' own setters, for the parse that makes nodes by the thousand (``_parse_valid``).
_SET_START = _LazySpan.__dict__["_s"].__set__
_SET_END = _LazySpan.__dict__["_e"].__set__
_SET_STRING = JsonString.__dict__["value"].__set__
_SET_NUMBER = JsonNumber.__dict__["value"].__set__
_SET_RAW = JsonNumber.__dict__["raw"].__set__
_SET_BOOL = JsonBool.__dict__["value"].__set__
_SET_KEY = JsonMember.__dict__["key"].__set__
_SET_MEMBER_VALUE = JsonMember.__dict__["value"].__set__
_SET_MEMBERS = JsonObject.__dict__["members"].__set__
_SET_OBJECT_COMPLETE = JsonObject.__dict__["complete"].__set__
_SET_PENDING = JsonObject.__dict__["pending_key"].__set__
_SET_INDEX = _IndexedSpan.__dict__["_index"].__set__
_SET_ITEMS = JsonArray.__dict__["items"].__set__
_SET_ARRAY_COMPLETE = JsonArray.__dict__["complete"].__set__


def _parse_valid(text: str, base: int) -> JsonResult:
    """The tree ``_Parser(text, base).run()`` gives, for a ``text`` that ``_valid`` accepted:
    one pass with no error paths, containers kept on an explicit stack.

    Every node is made by setting a new instance's slots through their own setters (the fields
    the frozen dataclass's ``__init__`` would set through ``object.__setattr__``, at twice the
    cost); its values are valid by construction. Its span is not made: the node keeps its
    start and end (``_s``, ``_e``) and makes the ``Span`` the first time it is read
    (``_LazySpan``). A clean analysis reads the span of few nodes (a finding's, an item's),
    and spans were a third of the objects."""
    ws = _WS.match
    scan = _scanstring
    number = _NUMBER.match
    new = object.__new__
    set_s, set_e = _SET_START, _SET_END
    duplicates: list[JsonMember] = []
    # Open containers: [start, is_object, children, index (key -> last value), key waiting
    # for its value]. The index is the one ``JsonObject.get`` would build on its first call.
    stack: list[list[Any]] = []
    i = ws(text, 0).end()  # type: ignore[union-attr]
    node: Any
    while True:
        # A value starts at i.
        c = text[i]
        if c == '"':
            value, end = scan(text, i + 1, True)
            node = new(JsonString)
            _SET_STRING(node, value)
            set_s(node, base + i)
            set_e(node, base + end)
            i = end
        elif c == "{" or c == "[":
            j = ws(text, i + 1).end()  # type: ignore[union-attr]
            if text[j] == "}" or text[j] == "]":
                if c == "{":
                    node = new(JsonObject)
                    _SET_MEMBERS(node, ())
                    _SET_OBJECT_COMPLETE(node, True)
                    _SET_PENDING(node, None)
                else:
                    node = new(JsonArray)
                    _SET_ITEMS(node, ())
                    _SET_ARRAY_COMPLETE(node, True)
                set_s(node, base + i)
                set_e(node, base + j + 1)
                i = j + 1
            else:
                if c == "[":
                    stack.append([i, False, [], None, None])
                    i = j
                    continue
                value, end = scan(text, j + 1, True)
                key = new(JsonString)
                _SET_STRING(key, value)
                set_s(key, base + j)
                set_e(key, base + end)
                stack.append([i, True, [], {}, key])
                i = end + 1 if text[end] == ":" else ws(text, end).end() + 1  # type: ignore[union-attr]
                if text[i] in " \t\n\r":
                    i = ws(text, i).end()  # type: ignore[union-attr]
                continue
        elif c == "t" or c == "f":
            node = new(JsonBool)
            _SET_BOOL(node, c == "t")
            set_s(node, base + i)
            i += 4 if c == "t" else 5
            set_e(node, base + i)
        elif c == "n":
            node = new(JsonNull)
            set_s(node, base + i)
            set_e(node, base + i + 4)
            i += 4
        else:
            m = number(text, i)
            assert m is not None
            raw = m.group(0)
            exact = not (m.group(1) or m.group(2)) and len(raw) <= _MAX_EXACT_INT_DIGITS
            node = new(JsonNumber)
            _SET_NUMBER(node, int(raw) if exact else float(raw))
            _SET_RAW(node, raw)
            set_s(node, base + i)
            i = m.end()
            set_e(node, base + i)
        # A value is complete: it joins its container; closed containers complete in turn.
        while True:
            if not stack:
                return JsonResult(node, (), tuple(duplicates))
            frame = stack[-1]
            if frame[1]:
                key = frame[4]
                member = new(JsonMember)
                _SET_KEY(member, key)
                _SET_MEMBER_VALUE(member, node)
                index = frame[3]
                name = key.value
                if name in index:
                    duplicates.append(member)
                index[name] = node
                frame[2].append(member)
            else:
                frame[2].append(node)
            if text[i] in " \t\n\r":
                i = ws(text, i).end()  # type: ignore[union-attr]
            if text[i] == ",":
                i = ws(text, i + 1).end()  # type: ignore[union-attr]
                if frame[1]:
                    value, end = scan(text, i + 1, True)
                    key = new(JsonString)
                    _SET_STRING(key, value)
                    set_s(key, base + i)
                    set_e(key, base + end)
                    frame[4] = key
                    i = end + 1 if text[end] == ":" else ws(text, end).end() + 1  # type: ignore[union-attr]
                    if text[i] in " \t\n\r":
                        i = ws(text, i).end()  # type: ignore[union-attr]
                break
            stack.pop()
            if frame[1]:
                node = new(JsonObject)
                _SET_MEMBERS(node, tuple(frame[2]))
                _SET_OBJECT_COMPLETE(node, True)
                _SET_PENDING(node, None)
                _SET_INDEX(node, frame[3])
            else:
                node = new(JsonArray)
                _SET_ITEMS(node, tuple(frame[2]))
                _SET_ARRAY_COMPLETE(node, True)
            set_s(node, base + frame[0])
            i += 1
            set_e(node, base + i)


def shifted(result: JsonResult, delta: int) -> JsonResult:
    """``result`` with every span moved ``delta`` code points: equal to parsing the same text
    at a base offset ``delta`` further (an edit above a block moves it without changing it).
    Rebuilding the nodes costs about half of a parse. Iterative: nesting depth is unbounded."""
    if delta == 0:
        return result

    def sp(span: Span) -> Span:
        # As ``_parse_valid`` makes them: a moved span of a valid span is valid.
        return trusted_span(span.start + delta, span.end + delta)

    def leaf(node: JsonNode) -> JsonNode:
        # A copy of the leaf (whatever its kind) with its span moved.
        if isinstance(node, JsonString):
            return key(node)
        if isinstance(node, JsonNumber):
            return JsonNumber(node.value, node.raw, sp(node.span))
        if isinstance(node, JsonBool):
            return JsonBool(node.value, sp(node.span))
        return JsonNull(sp(node.span))

    def key(node: JsonString) -> JsonString:
        return JsonString(node.value, sp(node.span))

    members: dict[int, JsonMember] = {}
    done: dict[int, JsonNode] = {}

    def moved(node: JsonNode) -> JsonNode:
        return done.pop(id(node)) if isinstance(node, JsonObject | JsonArray) else leaf(node)

    root = result.value
    stack: list[tuple[JsonNode, bool]] = [(root, False)] if isinstance(root, JsonObject | JsonArray) else []
    while stack:
        node, expanded = stack.pop()
        if not expanded:
            stack.append((node, True))
            children = [m.value for m in node.members] if isinstance(node, JsonObject) else node.items  # type: ignore[union-attr]
            stack.extend((c, False) for c in children if isinstance(c, JsonObject | JsonArray))
            continue
        if isinstance(node, JsonObject):
            new_members = []
            for m in node.members:
                member = JsonMember(key(m.key), moved(m.value), sp(m.span))
                members[id(m)] = member
                new_members.append(member)
            pending = key(node.pending_key) if node.pending_key is not None else None
            done[id(node)] = JsonObject(tuple(new_members), sp(node.span), node.complete, pending)
        else:
            assert isinstance(node, JsonArray)
            done[id(node)] = JsonArray(tuple(moved(c) for c in node.items), sp(node.span), node.complete)
    value = None if root is None else moved(root)
    duplicates = tuple(members.get(id(m)) or JsonMember(key(m.key), m.value, sp(m.span)) for m in result.duplicate_keys)
    errors = tuple(JsonError(sp(e.span), e.message) for e in result.errors)
    return JsonResult(value, errors, duplicates)


# ---------------------------------------------------------------------------------------------
# Where is an offset?


@record
class JsonLocation:
    """What lies at an offset: the key path to it, the innermost node, and the kind of position.

    ``is_key`` is True on a property name or where one may be typed (an object's gap);
    otherwise the position is a value (an existing value, an array's gap or the value slot
    after ``"key":``). ``container`` is the object or array the position belongs to.
    """

    path: tuple[str | int, ...]
    node: JsonNode | None
    is_key: bool
    container: JsonObject | JsonArray | None


def locate(root: JsonNode | None, offset: int) -> JsonLocation:
    """What lies at a document offset (a span's end counts as inside it).

    In a gap of a container (between members, or after ``"key":`` with no value yet) the node
    is ``None`` and the path leads to the slot: the container's path, plus the key or the index
    the slot would take.
    """
    path: list[str | int] = []
    container: JsonObject | JsonArray | None = None
    node = root
    if node is None or not node.span.contains(offset):
        return JsonLocation((), None, False, None)
    while True:
        at_edge = offset == node.span.start or (offset == node.span.end and _complete(node))
        if isinstance(node, JsonObject) and not at_edge:
            child: JsonNode | None = None
            for m in node.members:
                if m.key.span.contains(offset):
                    return JsonLocation((*path, m.key.value), m.key, True, node)
                if m.value.span.contains(offset):
                    child = m.value
                    path.append(m.key.value)
                    break
                if m.key.span.end < offset < m.value.span.start:
                    return JsonLocation((*path, m.key.value), None, False, node)
            if child is None:
                pk = node.pending_key
                if pk is not None and pk.span.contains(offset):
                    return JsonLocation((*path, pk.value), pk, True, node)
                if pk is not None and offset > pk.span.end:
                    return JsonLocation((*path, pk.value), None, False, node)
                return JsonLocation(tuple(path), None, True, node)
            container, node = node, child
            continue
        if isinstance(node, JsonArray) and not at_edge:
            index = len(node.items)
            item_hit: JsonNode | None = None
            for k, item in enumerate(node.items):
                if item.span.contains(offset):
                    item_hit = item
                    index = k
                    break
                if item.span.start > offset:
                    index = k
                    break
            if item_hit is None:
                return JsonLocation((*path, index), None, False, node)
            path.append(index)
            container, node = node, item_hit
            continue
        return JsonLocation(tuple(path), node, False, container)


def _complete(node: JsonNode) -> bool:
    return not isinstance(node, JsonObject | JsonArray) or node.complete


def node_path_at(root: JsonNode | None, offset: int) -> tuple[list[str | int], JsonNode | None]:
    """The key path to the innermost node at ``offset``, and that node (``None`` in a gap)."""
    loc = locate(root, offset)
    return list(loc.path), loc.node


def iter_nodes(root: JsonNode | None) -> list[JsonNode]:
    """Every node of a tree in document order (keys are not included)."""
    out: list[JsonNode] = []
    todo: list[JsonNode] = [root] if root is not None else []
    while todo:
        node = todo.pop()
        out.append(node)
        if isinstance(node, JsonObject):
            todo.extend(m.value for m in reversed(node.members))
        elif isinstance(node, JsonArray):
            todo.extend(reversed(node.items))
    return out


# ---------------------------------------------------------------------------------------------
# Where is a path?


def node_at(root: JsonNode | None, path: Iterable[str | int]) -> JsonNode | None:
    """The node at a key path (the last value of a repeated key), or ``None`` when the path leads nowhere."""
    node = root
    for step in path:
        if isinstance(node, JsonObject) and isinstance(step, str):
            node = node.get(step)
        elif isinstance(node, JsonArray) and isinstance(step, int) and 0 <= step < len(node.items):
            node = node.items[step]
        else:
            return None
        if node is None:
            return None
    return node


def value_span(root: JsonNode | None, path: Iterable[str | int]) -> Span | None:
    """The span of the value at ``path``, or of its nearest existing ancestor (``None`` without a root)."""
    if root is None:
        return None
    node: JsonNode = root
    for step in path:
        child = node_at(node, (step,))
        if child is None:
            break
        node = child
    return node.span


def member_span(root: JsonNode | None, path: JsonPath) -> Span | None:
    """The span of ``"key": value`` at ``path`` (the value's span for an array item or the root)."""
    if path and isinstance(path[-1], str):
        parent = node_at(root, path[:-1])
        if isinstance(parent, JsonObject):
            member = parent.member(path[-1])
            if member is not None:
                return member.span
    return value_span(root, path)
