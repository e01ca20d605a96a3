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
from typing import Literal

from gemstack_lsp.core.memo import per_text

Encoding = Literal["utf-16", "utf-8", "utf-32"]

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True, order=True)
class Position:
    """A zero-based line and a column counted in some encoding's code units."""

    line: int
    character: int


@dataclass(frozen=True, init=False)
class Span:
    """A half-open range ``[start, end)`` of code-point offsets into one document's text."""

    start: int
    end: int

    def __init__(self, start: int, end: int) -> None:
        # The most numerous object of an analysis: its fields are set straight into the
        # instance's dictionary, as the frozen dataclass's own ``__init__`` sets them (through
        # ``object.__setattr__``, at twice the cost), once they are known to be valid.
        if start < 0 or end < start:
            raise ValueError(f"invalid span {start}..{end}")
        d = self.__dict__
        d["start"] = start
        d["end"] = end

    def contains(self, offset: int) -> bool:
        """True when ``offset`` lies inside the span (the end counts, as a cursor there touches it)."""
        return self.start <= offset <= self.end


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


@per_text
def line_starts(text: str) -> list[int]:
    """The offsets at which the lines of ``text`` start (a line ends at ``\\n``, ``\\r\\n`` or a
    lone ``\\r``; a final line break starts one more, empty line). Kept per text while a memo
    is active: ``SourceText`` and the fence scanner (``markdown._lines``) share one. Read-only."""
    if "\r" not in text:
        # Nearly every file: a split and C-level accumulation (a third of the time).
        lengths = map(len, text.split("\n")[:-1])
        return list(accumulate(map((1).__add__, lengths), initial=0))
    # One linear pass (searching "\r" from every line start was quadratic without any "\r").
    return [0, *(m.end() for m in _LINE_BREAK.finditer(text))]


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
        asked for a position), and shared with every other user of the same text's index
        while a memo is active (``line_starts``)."""
        if self._starts is None:
            self._starts = line_starts(self.text)
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
        offset = max(0, min(offset, len(self.text)))
        return bisect.bisect_right(self._line_starts, offset) - 1

    def position(self, offset: int, encoding: Encoding = "utf-16") -> Position:
        """The (line, column) of a code-point offset."""
        offset = max(0, min(offset, len(self.text)))
        line = self.line_of(offset)
        start = self._line_starts[line]
        return Position(line, column_width(self.text[start:offset], encoding))

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
