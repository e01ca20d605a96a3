"""Source text with a line index: offsets to (line, column) in UTF-16, UTF-8 or code points, and back.

Offsets everywhere in the core are indices into the decoded Python ``str`` (code points).
Columns are counted in the unit the caller names: LSP's default is UTF-16 code units,
clients may negotiate UTF-8 bytes, and ``"utf-32"`` means code points.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Literal, NamedTuple

from gemstack_lsp.core.memo import per_text

Encoding = Literal["utf-16", "utf-8", "utf-32"]


@dataclass(frozen=True, order=True)
class Position:
    """A zero-based line and a column counted in some encoding's code units."""

    line: int
    character: int


@dataclass(frozen=True, init=False, slots=True)
class Span:
    """A half-open range ``[start, end)`` of code-point offsets into one document's text."""

    start: int
    end: int

    def __init__(self, start: int, end: int) -> None:
        # The most numerous object of an analysis, and the one the workspace indexes keep by
        # the hundred thousand: two slots, no dictionary (56 bytes instead of 160). Its fields
        # are set through their slots' own setters, as cheap as filling a dictionary and half
        # the cost of the frozen dataclass's ``object.__setattr__``, once they are valid.
        if start < 0 or end < start:
            raise ValueError(f"invalid span {start}..{end}")
        _set_start(self, start)
        _set_end(self, end)

    def contains(self, offset: int) -> bool:
        """True when ``offset`` lies inside the span (the end counts, as a cursor there touches it)."""
        return self.start <= offset <= self.end


#: The slots' own setters (a frozen dataclass refuses ``setattr``; these bypass it, once).
_set_start = Span.__dict__["start"].__set__
_set_end = Span.__dict__["end"].__set__
_new_span = object.__new__


def trusted_span(start: int, end: int) -> Span:
    """``Span(start, end)`` for offsets known to be valid (``0 <= start <= end``), made without
    checking them: for the parsers that make spans by the thousand."""
    span = _new_span(Span)
    _set_start(span, start)
    _set_end(span, end)
    return span


#: A UTF-16 surrogate code point. Python keeps a JSON ``"\\ud800"`` escape as a lone one in a
#: ``str``, which the UTF-8 codec refuses to encode.
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def well_formed(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (JavaScript's ``toWellFormed``).

    Two halves that stand next to each other form the pair they spell, as they would in a
    JavaScript string; everything else is returned unchanged (the common case costs one search).
    """
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def utf8(text: str) -> bytes:
    """``text`` as UTF-8 bytes the way Node.js encodes a string: lone surrogates become U+FFFD.

    Every place that turns user text into bytes (a hash, a file, an output stream) goes
    through here, so a ``"\\ud800"`` escape in a JSON file can never make an encoder raise.
    """
    return well_formed(text).encode("utf-8")


def _units(ch: str, encoding: Encoding) -> int:
    cp = ord(ch)
    if encoding == "utf-16":
        return 2 if cp > 0xFFFF else 1
    if encoding == "utf-8":
        if cp < 0x80:
            return 1
        if cp < 0x800:
            return 2
        if cp < 0x10000:
            return 3
        return 4
    return 1


def column_width(text: str, encoding: Encoding) -> int:
    """The length of ``text`` in code units of ``encoding``."""
    if encoding == "utf-32" or text.isascii():
        return len(text)
    if encoding == "utf-16":
        return len(text.encode("utf-16-le", "surrogatepass")) // 2
    return len(text.encode("utf-8", "surrogatepass"))


class LineTable(NamedTuple):
    """Every line of a text without its break, and the offset where each starts.

    Lines end at ``\n``, ``\r\n`` or a lone ``\r``; the last line is what follows the last
    break (empty when the text ends with one). Shared, never to be modified.
    """

    lines: list[str]
    starts: list[int]


#: A line break's first character.
_BREAK = re.compile(r"[\r\n]")
#: One line and its break; the break group is empty on the last line.
_LINE = re.compile(r"([^\r\n]*)(\r\n|\r|\n|)")


@per_text
def line_table(text: str) -> LineTable:
    """The lines of ``text`` and their starts: built once per text while a memo is active, for
    every reader of the same document (the fence scan, the task parser, positions).

    Without a ``\r`` (nearly every file) a split and a C-level accumulation; otherwise one
    linear pass of a regular expression."""
    if "\r" not in text:
        parts = text.split("\n")
        return LineTable(parts, list(accumulate(map((1).__add__, map(len, parts[:-1])), initial=0)))
    lines: list[str] = []
    starts: list[int] = []
    for lm in _LINE.finditer(text):
        lines.append(lm.group(1))
        starts.append(lm.start(1))
        if not lm.group(2):
            break
    return LineTable(lines, starts)


@dataclass
class SourceText:
    """A document's text and the offsets at which its lines start.

    Lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r``, as LSP defines them.
    """

    text: str
    _starts: list[int] | None = field(default=None, init=False, repr=False)

    @property
    def _line_starts(self) -> list[int]:
        """The line index, built on first use (most documents an analysis reads are never
        asked for a position)."""
        if self._starts is None:
            self._starts = line_table(self.text).starts
        return self._starts

    @property
    def line_count(self) -> int:
        return len(self._line_starts)

    def line_start(self, line: int) -> int:
        """Offset of the first character of ``line`` (clamped to the document)."""
        if line < 0:
            return 0
        if line >= len(self._line_starts):
            return len(self.text)
        return self._line_starts[line]

    def line_end(self, line: int) -> int:
        """Offset just past the last character of ``line``, before its line break."""
        if line == 0 and self._starts is None:
            # The first line (a whole-file finding's): its end is the first break, found without
            # indexing every line.
            found = _BREAK.search(self.text)
            return found.start() if found is not None else len(self.text)
        if line + 1 < len(self._line_starts):
            end = self._line_starts[line + 1]
            while end > self._line_starts[line] and self.text[end - 1] in "\r\n":
                end -= 1
            return end
        return len(self.text)

    def line_text(self, line: int) -> str:
        return self.text[self.line_start(line) : self.line_end(line)]

    def line_of(self, offset: int) -> int:
        """The zero-based line holding ``offset``."""
        return self._locate(max(0, min(offset, len(self.text))))[0]

    def position(self, offset: int, encoding: Encoding = "utf-16") -> Position:
        """The (line, column) of a code-point offset."""
        offset = max(0, min(offset, len(self.text)))
        line, start = self._locate(offset)
        return Position(line, column_width(self.text[start:offset], encoding))

    def _locate(self, offset: int) -> tuple[int, int]:
        """The line holding ``offset`` (within the text) and where it starts. Before the line
        index is built, a text whose breaks up to ``offset`` are all ``\n`` is counted instead
        (``check`` places a few findings in files it never indexed)."""
        starts = self._starts
        if starts is None:
            text = self.text
            if text.find("\r", 0, offset) < 0:
                return text.count("\n", 0, offset), text.rfind("\n", 0, offset) + 1
            starts = self._line_starts
        line = bisect.bisect_right(starts, offset) - 1
        return line, starts[line]

    def offset(self, position: Position, encoding: Encoding = "utf-16") -> int:
        """The code-point offset of an LSP position.

        A column past the end of the line clamps to the line end; a column inside a
        multi-unit character lands before that character.
        """
        if position.line < 0:
            return 0
        if position.line >= len(self._line_starts):
            return len(self.text)
        start = self._line_starts[position.line]
        end = self.line_end(position.line)
        if encoding == "utf-32":
            return min(start + max(position.character, 0), end)
        remaining = position.character
        i = start
        while i < end and remaining > 0:
            w = _units(self.text[i], encoding)
            if w > remaining:
                break
            remaining -= w
            i += 1
        return i

    def range(self, span: Span, encoding: Encoding = "utf-16") -> tuple[Position, Position]:
        return self.position(span.start, encoding), self.position(span.end, encoding)

    def span_of_line(self, line: int) -> Span:
        """The span covering ``line``'s text without its line break."""
        return Span(self.line_start(line), self.line_end(line))


def decode_utf8(data: bytes) -> tuple[str, bool, int | None]:
    """Decode bytes as UTF-8 for analysis.

    Returns the text (a leading BOM removed, invalid sequences replaced by U+FFFD so that
    analysis can go on), whether a BOM was present, and the byte offset of the first
    invalid sequence (``None`` when the bytes are valid UTF-8).
    """
    bom = data.startswith(b"\xef\xbb\xbf")
    body = data[3:] if bom else data
    try:
        return body.decode("utf-8"), bom, None
    except UnicodeDecodeError as exc:
        return body.decode("utf-8", errors="replace"), bom, exc.start + (3 if bom else 0)
