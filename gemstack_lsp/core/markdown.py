"""The fenced code blocks of a Markdown document, as CommonMark reads them and as the reference sees them.

``scan_fences`` follows the CommonMark block structure far enough to find every fenced code
block exactly: backtick and tilde fences of three or more characters indented up to three
columns, closing fences of the same character at least as long, blocks inside blockquotes and
list items (with the container prefixes and the fence's own indentation removed from the
content lines, tabs expanded to four-column stops), blocks that run to the end of their
container, and the constructs that hide a fence-looking line (indented code, HTML blocks,
another fence).

The reference gemstack CLI reads blocks differently (section 9.0 of the reference notes): a
block opens on a line whose right-trimmed text is exactly ```` ```gemstack-<name> ```` and closes
at the next line whose right-trimmed text is exactly ```` ``` ````, with no notion of
surrounding Markdown. ``reference_blocks`` reproduces that reading byte for byte, and every
``Fence`` says whether the reference sees it the same way (``reference_visible``) and, if not,
why (``reference_issue``). ``reference_only_blocks`` lists the opposite case: lines the
reference would take for a block that Markdown does not give as one.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from itertools import accumulate

from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jscompat import JS_WS_CLASS, js_trim, js_trim_end
from gemstack_lsp.core.kinds import BLOCK_NAMES, REFERENCE_NAMES
from gemstack_lsp.core.memo import active_memo, per_text
from gemstack_lsp.core.text import Span, line_table

#: The Gemstack block kinds (info string words) this project knows: see ``gemstack_lsp.core.kinds``.
BLOCK_KINDS = BLOCK_NAMES

#: The kinds the reference gemstack CLI itself extracts.
REFERENCE_KINDS = REFERENCE_NAMES


@record
class Segment:
    """A run of body characters and the document offset of its first character.

    A synthetic segment stands for spaces CommonMark makes out of a partly consumed tab; all
    its characters map to the offset of that tab.
    """

    body_start: int
    doc_start: int
    length: int
    synthetic: bool = False


@record
class Fence:
    """One fenced code block of a document.

    Spans cover whole lines (without their line break), container prefixes included.
    ``body`` is the content as CommonMark gives it: container prefixes and up to ``indent``
    columns of indentation removed, each line ended by ``\\n``.
    """

    info: str
    kind: str | None
    fence_char: str
    fence_len: int
    indent: int
    open_line: int
    open_span: Span
    close_line: int | None
    close_span: Span | None
    body: str
    segments: tuple[Segment, ...]
    in_container: bool
    container: str | None
    terminated: bool
    reference_visible: bool = False
    reference_issue: str | None = None
    #: ``body_start`` of every segment, for bisection.
    segment_starts: tuple[int, ...] = field(default=(), repr=False, compare=False)

    def body_offset_to_doc(self, i: int) -> int:
        """The document offset of body offset ``i`` (the end of the body maps past its last line)."""
        segs = self.segments
        if not segs:
            return self.open_span.end
        k = 0
        if len(segs) > 1:
            starts = self.segment_starts or tuple(seg.body_start for seg in segs)
            k = max(bisect.bisect_right(starts, i) - 1, 0)
        seg = segs[k]
        if seg.synthetic:
            return seg.doc_start
        return seg.doc_start + min(i - seg.body_start, seg.length)

    @property
    def contiguous_base(self) -> int | None:
        """The document offset of body offset 0 when the body is one verbatim slice of the document."""
        if len(self.segments) == 1 and not self.segments[0].synthetic and self.segments[0].length == len(self.body):
            return self.segments[0].doc_start
        if not self.segments:
            return self.open_span.end
        return None

    @property
    def body_span(self) -> Span:
        """The document region the body came from (empty, after the opening line, when there is none)."""
        if not self.segments:
            return Span(self.open_span.end, self.open_span.end)
        last = self.segments[-1]
        end = last.doc_start + (0 if last.synthetic else last.length)
        return Span(self.segments[0].doc_start, max(end, self.segments[0].doc_start))

    @property
    def span(self) -> Span:
        """From the opening fence line to the closing fence line (or the end of the body)."""
        end = self.close_span.end if self.close_span is not None else self.body_span.end
        return Span(self.open_span.start, max(end, self.open_span.end))


@record
class ReferenceBlock:
    """A block as the reference extracts it.

    ``body`` is the lines between the fences joined with ``\\n`` (line endings normalised to
    ``\\n``, as the reference hashes and reads them); ``json_text`` is that body trimmed with
    JavaScript's whitespace set, the text the reference hands to ``JSON.parse``. ``line_starts``
    holds the document offset of each body line, for ``body_offset_to_doc``.
    """

    kind: str
    open_line: int
    close_line: int
    open_span: Span
    close_span: Span
    body: str
    body_span: Span
    line_starts: tuple[int, ...] = ()

    @functools.cached_property
    def _body_line_starts(self) -> tuple[int, ...]:
        starts = [0]
        for line in self.body.split("\n")[:-1]:
            starts.append(starts[-1] + len(line) + 1)
        return tuple(starts)

    def body_offset_to_doc(self, i: int) -> int:
        """The document offset of body offset ``i`` (the body's ``\n`` stand for the document's breaks)."""
        if not self.line_starts:
            return self.body_span.start
        k = max(bisect.bisect_right(self._body_line_starts, i) - 1, 0)
        return self.line_starts[k] + i - self._body_line_starts[k]

    @property
    def contiguous_base(self) -> int | None:
        """The document offset of body offset 0 when the body is one verbatim slice of the document."""
        if len(self.line_starts) <= 1 or self.body_span.end - self.body_span.start == len(self.body):
            return self.body_span.start
        return None

    @property
    def json_text(self) -> str:
        return js_trim(self.body)


@record
class ReferenceMismatch:
    """A line the reference takes for a Gemstack block that Markdown does not read as one."""

    kind: str
    span: Span
    line: int
    message: str


# ---------------------------------------------------------------------------------------------
# Lines


class _Lines:
    """(start, end) of every line (``lines[i]``), a line ending at ``\\n``, ``\\r\\n`` or a lone
    ``\\r``; a final line break ends the last line and opens no new one.

    A view of the document's shared line table (``text.line_table``): ``texts`` and ``starts``
    are its lists (the scan reads a line's text from there rather than slicing the document),
    ``count`` the lines seen here (the table's last, empty line after a final break is not one).
    """

    __slots__ = ("count", "starts", "texts")

    def __init__(self, text: str) -> None:
        table = line_table(text)
        self.texts = table.lines
        self.starts = table.starts
        n = len(self.texts)
        self.count = n - 1 if n > 1 and not self.texts[-1] else n

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, i: int) -> tuple[int, int]:
        if i < 0:
            i += self.count
        if not 0 <= i < self.count:
            raise IndexError(i)
        start = self.starts[i]
        return start, start + len(self.texts[i])


@per_text
def _lines(text: str) -> _Lines:
    """The lines of ``text`` (see ``_Lines``)."""
    return _Lines(text)


# ---------------------------------------------------------------------------------------------
# CommonMark block structure (only as far as fences need it)

#: The characters a heading, fence, HTML block, thematic break or list item can start with.
_BLOCK_START_CHARS = frozenset("#`~<*_-+=0123456789")
#: A setext heading underline: a run of "=" or of "-" (any length, even one) under a paragraph.
#: It turns the paragraph into a heading, so what follows is no paragraph continuation.
_SETEXT = re.compile(r"(?:=+|-+)[ \t]*$")
_ATX = re.compile(r"#{1,6}(?:[ \t]|$)")
_THEMATIC = re.compile(r"(?:(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}|(?:-[ \t]*){3,})$")
_FENCE_OPEN = re.compile(r"(`{3,})(?!.*`)|(~{3,})")
_BULLET = re.compile(r"[*+-]")
_ORDERED = re.compile(r"(\d{1,9})([.)])")
_HTML_START = (
    re.compile(r"<(?:script|pre|textarea|style)(?:\s|>|$)", re.I),
    re.compile(r"<!--"),
    re.compile(r"<[?]"),
    re.compile(r"<![A-Za-z]"),
    re.compile(r"<!\[CDATA\["),
    re.compile(
        r"</?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|"
        r"details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|"
        r"h[123456]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|"
        r"optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|"
        r"track|ul)(?:\s|/?>|$)",
        re.I,
    ),
    re.compile(
        r"(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[a-zA-Z_:][a-zA-Z0-9_.:-]*"
        r"(?:\s*=\s*(?:[^\"'=<>`\x00-\x20]+|'[^']*'|\"[^\"]*\"))?)*\s*/?>"
        r"|</[A-Za-z][A-Za-z0-9-]*\s*>)\s*$"
    ),
)
_HTML_END = (
    re.compile(r"</(?:script|pre|textarea|style)>", re.I),
    re.compile(r"-->"),
    re.compile(r"\?>"),
    re.compile(r">"),
    re.compile(r"\]\]>"),
)


class _Cursor:
    """A position in one line, in characters and in tab-expanded columns (commonmark.js's model)."""

    __slots__ = ("column", "offset", "partial", "s")

    def __init__(self, s: str) -> None:
        self.s = s
        self.offset = 0
        self.column = 0
        self.partial = False

    def next_nonspace(self) -> tuple[int, int]:
        """The index of the next character that is not a space or tab, and the columns up to it."""
        s = self.s
        i = self.offset
        cols = self.column
        n = len(s)
        while i < n:
            c = s[i]
            if c == " ":
                cols += 1
            elif c == "\t":
                cols += 4 - cols % 4
            else:
                break
            i += 1
        return i, cols - self.column

    def peek(self, i: int) -> str:
        return self.s[i] if i < len(self.s) else ""

    def advance(self, count: int, columns: bool) -> None:
        s = self.s
        while count > 0 and self.offset < len(s):
            c = s[self.offset]
            if c == "\t" and columns:
                to_tab = 4 - self.column % 4
                if to_tab > count:
                    self.partial = True
                    self.column += count
                    count = 0
                else:
                    self.partial = False
                    self.column += to_tab
                    self.offset += 1
                    count -= to_tab
            else:
                self.partial = False
                self.offset += 1
                self.column += 1
                count -= 1

    def advance_to(self, index: int, indent: int) -> None:
        """Move to ``index`` (the next non-space), ``indent`` columns ahead."""
        self.offset = index
        self.column += indent
        self.partial = False


@dataclass
class _Container:
    kind: str  # "blockquote" or "list item"
    width: int = 0
    blank_start: bool = False
    has_content: bool = False


@dataclass
class _OpenFence:
    char: str
    length: int
    indent: int
    info: str
    depth: int
    open_line: int
    open_span: Span
    containers: tuple[str, ...]
    parts: list[str]
    segments: list[Segment]
    body_len: int = 0


# The language word of an info string ends at any JavaScript whitespace (markdown-it and
# commonmark.js split on ``\s``), so a no-break space after the kind still names the kind.
_INFO_WORD_END = re.compile(JS_WS_CLASS)


def _kind_of(info: str) -> str | None:
    if info in BLOCK_KINDS:
        return info
    if info.isascii() and info.isprintable() and " " not in info:
        return None  # one word (no JavaScript whitespace), not a kind
    first = _INFO_WORD_END.split(info, maxsplit=1)[0]
    return first if first in BLOCK_KINDS else None


def _parse_list_marker(cur: _Cursor, nn: int, indent: int, interrupts_para: bool) -> int | None:
    """Open a list item at the cursor if one starts there: returns its content width, else None."""
    s = cur.s
    rest = s[nn:]
    m = _BULLET.match(rest)
    if m is None:
        m = _ORDERED.match(rest)
        if m is None or (interrupts_para and m.group(1) != "1"):
            return None
    marker_len = m.end()
    after = cur.peek(nn + marker_len)
    if after not in ("", " ", "\t"):
        return None
    if interrupts_para and not s[nn + marker_len :].strip(" \t"):
        return None
    cur.advance_to(nn, indent)
    cur.advance(marker_len, True)
    start_col, start_off = cur.column, cur.offset
    while cur.column - start_col < 5 and cur.peek(cur.offset) in (" ", "\t") and cur.peek(cur.offset):
        cur.advance(1, True)
    blank_item = cur.offset >= len(s)
    spaces = cur.column - start_col
    if spaces >= 5 or spaces < 1 or blank_item:
        padding = marker_len + 1
        cur.column, cur.offset, cur.partial = start_col, start_off, False
        if cur.peek(cur.offset) in (" ", "\t") and cur.peek(cur.offset):
            cur.advance(1, True)
    else:
        padding = marker_len + spaces
    return indent + padding


def _describe_containers(containers: tuple[str, ...]) -> str | None:
    if not containers:
        return None
    return " > ".join(containers)


@per_text
def _scan_commonmark(text: str) -> tuple[Fence, ...]:
    """Every fence of ``text`` as CommonMark reads it.

    When ``text`` is a small edit of a text scanned before (the memo's ``recent`` scans), only
    the lines from the last clean line before the edit to the first clean line after it are
    scanned again (``_rescan``); the fences before and after are reused, moved by the edit."""
    memo = active_memo()
    scan: _Scan | None = None
    if memo is not None:
        for old_text, old_scan in memo.recent(_RECENT_COMMONMARK):
            scan = _rescan(old_text, old_scan, text)
            if scan is not None:
                break
    if scan is None:
        # Without a run of three backticks or tildes no line can open a fence: the scan would
        # stop at its first line, having found nothing.
        no_fence = not _has(text, "```") and not _has(text, "~~~")
        scan = _Scan((), ()) if no_fence else _scan_lines(text, 0, 0, ())
    if memo is not None:
        memo.remember(_RECENT_COMMONMARK, text, scan)
    return scan.fences


_RECENT_COMMONMARK = "markdown.commonmark"
#: Lines that are paragraph text (up to three spaces, then a character no block starts with)
#: or blank, each with its line break.
_PLAIN_RUN = re.compile(r"(?:(?:[ ]{0,3}[^\s#`~<*_+=0-9>\-][^\r\n]*|[ \t]*)(?:\r\n|\r|\n))+")
#: An edit larger than this is scanned in full.
_REUSE_LIMIT = 65536


@record
class _Scan:
    """A scan's fences and its clean lines: the lines at whose start no container, fence,
    paragraph or HTML block is open (what follows them does not depend on what came before)."""

    fences: tuple[Fence, ...]
    clean: tuple[int, ...]
    #: Where a partial scan stopped (a clean line), when it did.
    stopped: int | None = None


def _common_affixes(old: str, new: str) -> tuple[int, int]:
    """The lengths of the longest common prefix and (then) suffix of two texts.

    A binary search of slice comparisons (done in C): linear in the texts' length."""
    lo, hi = 0, min(len(old), len(new))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[lo:mid] == new[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    prefix = lo
    lo, hi = 0, min(len(old), len(new)) - prefix
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[len(old) - mid : len(old) - lo] == new[len(new) - mid : len(new) - lo]:
            lo = mid
        else:
            hi = mid - 1
    return prefix, lo


def _shift_fence(f: Fence, delta: int, line_delta: int) -> Fence:
    return replace(
        f,
        open_line=f.open_line + line_delta,
        open_span=Span(f.open_span.start + delta, f.open_span.end + delta),
        close_line=f.close_line + line_delta if f.close_line is not None else None,
        close_span=Span(f.close_span.start + delta, f.close_span.end + delta) if f.close_span is not None else None,
        segments=tuple(Segment(g.body_start, g.doc_start + delta, g.length, g.synthetic) for g in f.segments),
    )


def _rescan(old: str, scan: _Scan, new: str) -> _Scan | None:
    """The scan of ``new`` from the scan of ``old``, when ``new`` is a small edit of ``old``.

    Lines before the edit are the same in both texts, so the state at the last clean line
    before it is the clean state: scanning starts there. Lines after the edit are the old lines
    moved by the edit; once the scan of ``new`` reaches a clean line after the edit whose old
    counterpart was clean too, the rest is the old scan moved. ``None`` when the texts are
    equal or the edit is large."""
    if old is new:
        return scan
    quarter = min(len(old), len(new)) // 4
    if not _shares(old, new, quarter):
        # Not an edit of this text but mostly another one (another file read in turn, as
        # ``check`` and a workspace pass read them): neither a quarter at its top nor one at
        # its end is kept, so a rescan would redo most of the scan and first pay for finding
        # the common parts. A whole scan is cheaper.
        return None
    prefix, suffix = _common_affixes(old, new)
    old_end, new_end = len(old) - suffix, len(new) - suffix
    if max(old_end, new_end) - prefix > _REUSE_LIMIT:
        return None
    old_starts = _line_starts(old)
    new_lines = _lines(new)
    # The first line the edit touches (in both texts) and the last old line it touches.
    first = bisect.bisect_right(old_starts, prefix) - 1
    last_old = bisect.bisect_right(old_starts, old_end) - 1
    line_delta = len(new_lines) - len(old_starts)
    delta = new_end - old_end
    k = bisect.bisect_right(scan.clean, first) - 1
    start = scan.clean[k] if k >= 0 else 0
    # Old clean lines after the edit (a line break changed at the end of a line can merge
    # the next one into the edit: the line after the last touched one is the first candidate).
    old_clean_after = frozenset(c for c in scan.clean if c > last_old + 1)
    part = _scan_lines(new, start, new_lines.starts[start], old_clean_after, line_delta, last_old + 1 + line_delta)
    before = tuple(f for f in scan.fences if f.open_line < start)
    clean_before = scan.clean[: k + 1] if k >= 0 else ()
    if part.stopped is None:
        return _Scan(before + part.fences, clean_before[:-1] + part.clean if clean_before else part.clean)
    resume_old = part.stopped - line_delta
    after = tuple(_shift_fence(f, delta, line_delta) for f in scan.fences if f.open_line >= resume_old)
    clean_after = tuple(c + line_delta for c in scan.clean if c > resume_old)
    clean = (clean_before[:-1] if clean_before else ()) + part.clean + clean_after
    return _Scan(before + part.fences + after, clean)


def _shares(old: str, new: str, n: int) -> bool:
    """True when the two texts have the same first or the same last ``n`` characters (compared
    64, then 1,024 characters first: two different texts mostly differ there already)."""
    lo, ln = len(old), len(new)
    head = tail = True
    for k in (64, 1024, n):
        k = min(k, n)
        head = head and old[:k] == new[:k]
        tail = tail and old[lo - k :] == new[ln - k :]
        if not (head or tail):
            return False
    return True


@per_text
def _line_starts(text: str) -> list[int]:
    """The start of every line of ``_lines``."""
    lines = _lines(text)
    return lines.starts if lines.count == len(lines.starts) else lines.starts[: lines.count]


@per_text
def _runs(text: str, kind: int) -> list[int]:
    """Where every run of ```` ``` ```` (``kind`` 0) or ``~~~`` (1) starts, non-overlapping, in
    order: found once per text for the fence scan and for the reference's reading."""
    run = _FENCE_RUNS[kind]
    return [m.start() for m in run.finditer(text)] if _has(text, run.pattern) else []


def _has(text: str, run: str) -> bool:
    """``run in text``, its first character looked for first: one character is found by a
    fast scan, where an absent three-character run costs a slow one (some 40 µs over 45 kB
    of non-ASCII text, as ``~~~`` in most documents)."""
    return run[0] in text and run in text


#: Where a fence can open or close: a run of three backticks or tildes (searched for as literals
#: by the regular-expression engine, twice as fast as ``str.find`` over text that is not ASCII).
_FENCE_RUNS = (re.compile("```"), re.compile("~~~"))
#: Where an HTML block of types 1 to 5 (the ones a blank line does not end) starts without its
#: end condition (``_HTML_END``, looked for from the same ``<``) on the rest of its line: the
#: start, then the end's absence, as lookaheads, so one search of the text finds them all.
_HTML_LONG_START = re.compile(
    r"<(?:(?=(?i:script|pre|textarea|style)(?:\s|>|$))(?![^\r\n]*</(?i:script|pre|textarea|style)>)"
    r"|(?=!--)(?![^\r\n]*-->)"
    r"|(?=\?)(?![^\r\n]*\?>)"
    r"|(?=![A-Za-z])(?![^\r\n]*>)"
    r"|(?=!\[CDATA\[)(?![^\r\n]*\]\]>))"
)
#: A blank line (spaces and tabs only) and the start of the line after it when that line
#: starts with neither a space, a tab nor ">": a barrier (see ``_Landmarks``), in a text with
#: any line breaks (one whose lines all end with "\n" has its barriers found line by line).
_BARRIER_ANY = re.compile(r"(?:^|\r\n|\r(?!\n)|\n)[ \t]*(?:\r\n|\r(?!\n)|\n)(?=[^ \t>\r\n])")


@record
class _Landmarks:
    """The places of a document that can matter to its fences, found by regular expressions,
    as text offsets in ascending order.

    ``fences``: every run of ```` ``` ```` or ``~~~`` (a line without one can neither open nor
    close a fence). ``hot``: those, and every place where an HTML block of types 1 to 5 may
    start without its end on the same line (no other line can leave such a block open; it
    hides the fence lines after it). A barrier is the start of a line that follows a blank
    line and starts with a character other than a space, a tab or ">"; ``before[i]`` is the
    last barrier at or before ``hot[i]`` (-1 when there is none).

    At a barrier whose blank line is reached with no fence and no HTML block of types 1 to 5
    open, the scanner's state is clean whatever came before: the blank line ended every
    paragraph and every HTML block of types 6 and 7, and a line at column 0 that is not ">"
    continues no block quote and no list item (a list item's content is indented at least two
    columns), so each container closes. From a line where no fence is open the scan can
    therefore jump to the last barrier before the next hot place; past the last fence run,
    with no fence open, there is no fence left to find. Only the barriers before hot places
    are wanted: in a text whose lines all end with "\n" they are looked for from each hot
    place back to the one before, not by a search of the whole text, and only after an empty
    line (one of spaces is rarer, and a barrier missed costs a few lines read one by one).
    """

    fences: list[int]
    hot: list[int]
    before: list[int]


def _landmarks(text: str) -> _Landmarks:
    fences = _runs(text, 0)
    tildes = _runs(text, 1)
    if tildes:
        fences = sorted(fences + tildes)
    hot = fences
    if "<" in text:
        risky = [m.start() for m in _HTML_LONG_START.finditer(text)]
        if risky:
            hot = sorted(fences + risky)
    before: list[int] = []
    if "\r" in text:
        barriers = [m.end() for m in _BARRIER_ANY.finditer(text) if m.end() > 0]
        for at in hot:
            b = bisect.bisect_right(barriers, at) - 1
            before.append(barriers[b] if b >= 0 else -1)
        return _Landmarks(fences, hot, before)
    # A barrier here is a line after an empty line ("\n\n", found by searching back from each
    # hot place to the one before it, in C) that starts with a character other than a space,
    # a tab, ">" or a line break. A blank line holding spaces or tabs is not looked for: a
    # barrier missed only makes the scan read the lines to the hot place one by one.
    last = -1  # the last barrier at or before the previous hot place
    floor = 0  # where the previous hot place's line starts: no barrier is looked for before it
    for at in hot:
        line_start = text.rfind("\n", 0, at) + 1
        limit = line_start
        while (p := text.rfind("\n\n", floor, limit)) >= 0:
            if text[p + 2] not in " \t>\n":  # p + 2 <= line_start <= at: inside the text
                last = p + 2
                break
            limit = p + 1
        floor = max(floor, line_start)
        before.append(last)
    return _Landmarks(fences, hot, before)


def _line_end(text: str, at: int, plain_breaks: bool) -> int:
    """Where the line that starts at ``at`` ends: its break, or the end of the text."""
    if plain_breaks:
        end = text.find("\n", at)
        return end if end >= 0 else len(text)
    found = _BREAK.search(text, at)
    return found.start() if found is not None else len(text)


def _after_break(text: str, end: int) -> int:
    """Where the next line starts, after the break at ``end`` (the end of a line)."""
    if end >= len(text):
        return end
    return end + 2 if text.startswith("\r\n", end) else end + 1


def _breaks(text: str, start: int, end: int, plain_breaks: bool) -> int:
    """How many line breaks lie in ``text[start:end]`` (a ``\r\n`` is one)."""
    if plain_breaks:
        return text.count("\n", start, end)
    return text.count("\n", start, end) + text.count("\r", start, end) - text.count("\r\n", start, end)


def _split_breaks(segment: str, plain_breaks: bool) -> list[str]:
    """The lines of ``segment`` (which ends with a line break), without their breaks."""
    lines = segment.split("\n") if plain_breaks else _BREAK_RUN.split(segment)
    lines.pop()  # what follows the final break
    return lines


_BREAK = re.compile(r"[\r\n]")
_BREAK_RUN = re.compile(r"\r\n|\r|\n")


@functools.lru_cache(maxsize=64)
def _closing_fence(char: str, length: int) -> re.Pattern[str]:
    """A line that closes a fence of ``length`` ``char`` characters outside containers, with the
    line break before it (a pattern that starts with a literal is searched for fastest)."""
    return re.compile(rf"\n {{0,3}}{re.escape(char)}{{{length},}}[ \t]*$", re.M)


def _scan_lines(
    text: str,
    first: int,
    first_at: int,
    resume: Collection[int],
    line_delta: int = 0,
    after: int = 0,
) -> _Scan:
    """Scan the lines of ``text`` from line ``first`` (starting at offset ``first_at``, a clean
    start) to the end, or, when ``resume`` holds old clean lines, up to the first clean line
    ``ln`` past ``after`` whose old counterpart ``ln - line_delta`` is in ``resume``
    (``stopped`` says which).

    No table of every line is made: the scan keeps the line it is at and where it starts,
    reads a line's text only where it looks at that line, and counts the breaks it jumps over
    (a long document's table cost more than the rest of its scan)."""
    stack: list[_Container] = []
    fences: list[Fence] = []
    fence: _OpenFence | None = None
    para_depth: int | None = None  # depth of the open paragraph, if any
    html: tuple[int, int] | None = None  # (html block type index, depth)

    def finish(f: _OpenFence, close_line: int | None, close_span: Span | None) -> None:
        segments = f.segments
        fences.append(
            Fence(
                f.info,
                _kind_of(f.info),
                f.char,
                f.length,
                f.indent,
                f.open_line,
                f.open_span,
                close_line,
                close_span,
                f.parts[0] if len(f.parts) == 1 else "".join(f.parts),
                tuple(segments),
                bool(f.containers),
                _describe_containers(f.containers) if f.containers else None,
                close_line is not None,
                segment_starts=(segments[0].body_start,)
                if len(segments) == 1
                else tuple([g.body_start for g in segments]),
            )
        )

    clean: list[int] = []
    plain_breaks = "\r" not in text
    marks = _landmarks(text)
    # The line to look at next and where it starts: the one after the last (set where that
    # line is read), or the one a fast path skipped to (every ``continue`` comes here).
    next_ln, next_at = first, first_at
    while True:
        ln, at = next_ln, next_at
        if at >= len(text) and (at or ln):
            break  # past the last line (an empty text has one, empty line)
        if fence is None and (html is None or html[0] >= 5):
            # Nothing before the next hot place can open a fence or leave a block open that
            # hides one: jump to the last barrier before it (``_Landmarks``), or stop when no
            # fence run is left.
            if bisect.bisect_left(marks.fences, at) == len(marks.fences):
                break
            barrier = marks.before[bisect.bisect_left(marks.hot, at)]
            if barrier > at:
                stack.clear()
                para_depth = None
                html = None
                next_ln, next_at = ln + _breaks(text, at, barrier, plain_breaks), barrier
                continue
        if fence is not None and not stack and fence.indent == 0 and plain_breaks:
            # The body of a fence outside containers, opened at the margin, is its lines as
            # they are: one search finds the closing fence.
            body_start = at
            closing = _closing_fence(fence.char, fence.length).search(text, body_start - 1)
            if closing is None:
                # Unterminated: the body is every line to the end of the document, each ended
                # by "\n" (the last one's has no counterpart in the document).
                fence.segments.append(Segment(0, body_start, len(text) - body_start))
                fence.parts.append(text[body_start:] if text.endswith("\n") else text[body_start:] + "\n")
                break
            close_start = closing.start() + 1
            close = ln + text.count("\n", body_start, close_start)
            if close > ln:
                fence.segments.append(Segment(0, body_start, close_start - body_start))
                fence.parts.append(text[body_start:close_start])
            close_end = _line_end(text, close_start, True)
            finish(fence, close, Span(close_start, close_end))
            fence = None
            next_ln, next_at = close + 1, _after_break(text, close_end)
            continue
        if fence is None and html is None and not stack:
            if para_depth is None:
                if ln > after and (ln - line_delta) in resume:
                    return _Scan(tuple(fences), tuple(clean), ln)
                clean.append(ln)
            # Outside every container, fence and HTML block, a run of paragraph lines and blank
            # lines changes nothing but the open paragraph: one regular expression passes it.
            plain = _PLAIN_RUN.match(text, at)
            if plain is not None:
                run_end = plain.end()
                run_lines = _split_breaks(text[at:run_end], plain_breaks)
                skip_to = ln + len(run_lines)
                blank = False
                for j, line_text in enumerate(run_lines, ln):
                    blank = not line_text.strip(" \t")
                    if blank and j + 1 < skip_to:
                        if j + 1 > after and (j + 1 - line_delta) in resume:
                            return _Scan(tuple(fences), tuple(clean), j + 1)
                        clean.append(j + 1)
                para_depth = None if blank else 0
                next_ln, next_at = skip_to, run_end
                continue
        ls = at
        le = _line_end(text, at, plain_breaks)
        s = text[ls:le]
        next_ln, next_at = ln + 1, _after_break(text, le)
        cur = _Cursor(s)
        # 1. Continue the open containers.
        matched = 0
        for c in stack:
            nn, indent = cur.next_nonspace()
            if c.kind == "blockquote":
                if indent <= 3 and cur.peek(nn) == ">":
                    cur.advance_to(nn, indent)
                    cur.advance(1, False)
                    if cur.peek(cur.offset) in (" ", "\t") and cur.peek(cur.offset):
                        cur.advance(1, True)
                    matched += 1
                    continue
                break
            if nn >= len(s):
                if c.blank_start and not c.has_content:
                    break
                cur.advance_to(nn, indent)
                matched += 1
                continue
            if indent >= c.width:
                cur.advance(c.width, True)
                matched += 1
                continue
            break
        all_matched = matched == len(stack)

        # 2. Inside a fence: a closing fence or a content line, when every container continues.
        if fence is not None:
            if all_matched:
                nn, indent = cur.next_nonspace()
                rest = s[nn:]
                run = len(rest) - len(rest.lstrip(fence.char))
                if indent <= 3 and run >= fence.length and not rest[run:].strip(" \t"):
                    finish(fence, ln, Span(ls, le))
                    fence = None
                    continue
                i = fence.indent
                while i > 0 and cur.peek(cur.offset) in (" ", "\t") and cur.peek(cur.offset):
                    cur.advance(1, True)
                    i -= 1
                if cur.partial:
                    pad = 4 - cur.column % 4
                    fence.segments.append(Segment(fence.body_len, ls + cur.offset, pad, True))
                    fence.parts.append(" " * pad)
                    fence.body_len += pad
                    cur.offset += 1
                piece = s[cur.offset :]
                # The content and its line break map verbatim onto the document; a segment
                # that continues the previous one in the document extends it.
                # The body's "\n" after the document's last line has no counterpart to map to.
                mapped = len(piece) + (1 if le < len(text) else 0)
                segs = fence.segments
                if segs and not segs[-1].synthetic and segs[-1].doc_start + segs[-1].length == ls + cur.offset:
                    last = segs[-1]
                    segs[-1] = Segment(last.body_start, last.doc_start, last.length + mapped)
                else:
                    segs.append(Segment(fence.body_len, ls + cur.offset, mapped))
                fence.parts.append(piece + "\n")
                fence.body_len += len(piece) + 1
                for c in stack:
                    c.has_content = True
                continue
            finish(fence, None, None)
            fence = None

        if html is not None:
            # An HTML block takes every line until its end condition, while its containers continue.
            if all_matched and html[1] == matched:
                rest = s[cur.offset :]
                if html[0] < 5:
                    if _HTML_END[html[0]].search(rest):
                        html = None
                    continue
                if rest.strip(" \t"):
                    continue
            html = None

        # 3. Open new containers, then look at the leaf.
        depth = matched
        blank = not s[cur.offset :].strip(" \t")
        lazy_possible = para_depth is not None and not all_matched and not blank
        started = False
        leaf: str | None = None
        interrupts = para_depth is not None and para_depth == depth and all_matched
        while True:
            nn, indent = cur.next_nonspace()
            if indent >= 4:
                if not interrupts and not lazy_possible and nn < len(s) and html is None:
                    leaf = "indented"
                break
            ch = cur.peek(nn)
            if ch == ">":
                if not started:
                    del stack[depth:]
                    started = True
                cur.advance_to(nn, indent)
                cur.advance(1, False)
                if cur.peek(cur.offset) in (" ", "\t") and cur.peek(cur.offset):
                    cur.advance(1, True)
                for c in stack:  # a nested container is content of every enclosing one
                    c.has_content = True
                stack.append(_Container("blockquote"))
                depth += 1
                interrupts = lazy_possible = False
                html = None
                continue
            if ch not in _BLOCK_START_CHARS:
                break
            rest = s[nn:]
            if _ATX.match(rest) or (interrupts and _SETEXT.match(rest)):
                leaf = "heading"
                break
            m = _FENCE_OPEN.match(rest)
            if m is not None:
                leaf = "fence"
                if not started:
                    del stack[depth:]
                    started = True
                marker = m.group(1) or m.group(2)
                info = rest[len(marker) :].strip(" \t")
                for c in stack:
                    c.has_content = True
                fence = _OpenFence(
                    char=marker[0],
                    length=len(marker),
                    indent=indent,
                    info=info,
                    depth=depth,
                    open_line=ln,
                    open_span=Span(ls, le),
                    containers=tuple(c.kind for c in stack),
                    parts=[],
                    segments=[],
                )
                break
            html_type = _html_start(rest, interrupts or lazy_possible)
            if html_type is not None:
                leaf = "html"
                if not started:
                    del stack[depth:]
                    started = True
                end_re = _HTML_END[html_type] if html_type < 5 else None
                if end_re is None or not end_re.search(rest):
                    html = (html_type, depth)
                break
            if _THEMATIC.match(rest):
                leaf = "thematic"
                break
            width = _parse_list_marker(cur, nn, indent, interrupts)
            if width is not None:
                if not started:
                    del stack[depth:]
                    started = True
                blank_item = not s[cur.offset :].strip(" \t")
                for c in stack:
                    c.has_content = True
                stack.append(_Container("list item", width, blank_start=blank_item))
                depth += 1
                interrupts = lazy_possible = False
                html = None
                continue
            break

        if leaf is None and not started and lazy_possible and html is None:
            # A lazy paragraph continuation keeps every container open.
            continue
        if not started:
            del stack[depth:]
        # What is left after the container markers decides (an empty list item has no content yet).
        empty = not s[cur.offset :].strip(" \t")
        if not empty:
            for c in stack:
                c.has_content = True
        para_depth = None if leaf is not None or empty else depth

    if fence is not None:
        finish(fence, None, None)
    return _Scan(tuple(fences), tuple(clean))


def _html_start(rest: str, in_paragraph: bool) -> int | None:
    for i, pattern in enumerate(_HTML_START):
        if i == 6 and in_paragraph:
            return None
        if pattern.match(rest):
            return i
    return None


# ---------------------------------------------------------------------------------------------
# The reference's reading


@per_text
def _reference_all(text: str) -> dict[str, tuple[ReferenceBlock, ...]]:
    if "```" not in text:
        return {kind: () for kind in BLOCK_KINDS}  # no line can open a block
    plain_breaks = "\r" not in text
    # Only a line that starts with ``` can open or close a block (trimming is at the end):
    # (line, start, end, trimmed text) of each, its line counted from the one before.
    marks: list[tuple[int, int, int, str]] = []
    line, counted = 0, 0
    for at in _runs(text, 0):
        if at == 0 or text[at - 1] in "\r\n":
            line += _breaks(text, counted, at, plain_breaks)
            counted = at
            end = _line_end(text, at, plain_breaks)
            marks.append((line, at, end, js_trim_end(text[at:end])))
    out: dict[str, tuple[ReferenceBlock, ...]] = {}
    openers = {"```" + k: k for k in BLOCK_KINDS}
    present = {openers[m[3]] for m in marks if m[3] in openers}
    for kind in BLOCK_KINDS:
        if kind not in present:
            out[kind] = ()
            continue
        opener = "```" + kind
        blocks: list[ReferenceBlock] = []
        start: tuple[int, int, int, str] | None = None
        for mark in marks:
            if start is None:
                if mark[3] == opener:
                    start = mark
            elif mark[3] == "```":
                blocks.append(_reference_block(text, kind, start, mark, plain_breaks))
                start = None
        out[kind] = tuple(blocks)
    return out


def _reference_block(
    text: str, kind: str, opening: tuple[int, int, int, str], closing: tuple[int, int, int, str], plain_breaks: bool
) -> ReferenceBlock:
    """The block between two fence lines (line, start, end, trimmed text): its body is the
    lines between them joined by ``\n``."""
    open_line, open_start, open_end, _ = opening
    close_line, close_start, close_end, _ = closing
    body_start = _after_break(text, open_end)
    if open_line + 1 < close_line:
        lines = _split_breaks(text[body_start:close_start], plain_breaks)
        if plain_breaks:
            starts = list(accumulate(map((1).__add__, map(len, lines[:-1])), initial=body_start))
            body = text[body_start : close_start - 1]
        else:
            breaks = _BREAK_RUN.finditer(text, body_start, close_start)
            starts = [body_start, *[m.end() for m in breaks][:-1]]
            body = "\n".join(lines)
        body_span = Span(body_start, starts[-1] + len(lines[-1]))
    else:
        starts, body, body_span = [], "", Span(open_end, open_end)
    return ReferenceBlock(
        kind=kind,
        open_line=open_line,
        close_line=close_line,
        open_span=Span(open_start, open_end),
        close_span=Span(close_start, close_end),
        body=body,
        body_span=body_span,
        line_starts=tuple(starts),
    )


def reference_blocks(text: str, kind: str) -> list[ReferenceBlock]:
    """The blocks of ``kind`` the reference would extract from ``text``, in document order.

    An unterminated block is dropped, as the reference drops it.
    """
    kind = kind if kind.startswith("gemstack-") else "gemstack-" + kind
    return list(_reference_all(text).get(kind, ()))


def _issue(fence: Fence, text: str, refs: tuple[ReferenceBlock, ...]) -> str | None:
    """Why the reference would not read ``fence`` as Markdown does (``None`` when it would)."""
    assert fence.kind is not None
    ref = next((r for r in refs if r.open_line == fence.open_line), None)
    if ref is not None and fence.terminated and ref.close_line == fence.close_line:
        return None
    reasons: list[str] = []
    if fence.in_container:
        reasons.append(f"it is inside a {fence.container}")
    line = text[fence.open_span.start : fence.open_span.end]
    lead = len(line) - len(line.lstrip(" \t"))
    if lead and not fence.in_container:
        reasons.append(f"its opening fence is indented {lead} space{'s' if lead != 1 else ''}")
    if fence.fence_char == "~":
        reasons.append("it uses a tilde fence")
    elif fence.fence_len != 3:
        reasons.append(f"its fence has {fence.fence_len} backticks, not 3")
    if fence.info != fence.kind:
        reasons.append(f'its info string "{fence.info}" has words after {fence.kind}')
    if reasons:
        return "; ".join(reasons)
    # The opening line is one the reference recognises: the difference is in the closing.
    if not fence.terminated:
        if ref is None:
            return "it is unterminated, and the reference drops an unterminated block"
        return f"it is unterminated, and the reference would close it at line {ref.close_line + 1} instead"
    assert fence.close_span is not None
    close_text = text[fence.close_span.start : fence.close_span.end]
    if close_text.strip(" \t") != js_trim_end(close_text).strip(" \t"):
        why = "its closing fence line is not a bare ```"
    else:
        stripped = close_text.lstrip(" \t")
        lead = len(close_text) - len(stripped)
        run = len(stripped) - len(stripped.lstrip("`"))
        if lead:
            why = f"its closing fence is indented {lead} space{'s' if lead != 1 else ''}"
        elif run > 3:
            why = f"it is closed by a longer fence of {run} backticks"
        else:
            why = f"the reference does not end it at line {(fence.close_line or 0) + 1}"
    if ref is None:
        return f"{why}, and the reference drops it as unterminated"
    return f"{why}, so the reference reads on to line {ref.close_line + 1}"


@per_text
def scan_fences(text: str) -> tuple[Fence, ...]:
    """Every fenced code block of ``text`` in document order, with its reference visibility."""
    fences = _scan_commonmark(text)
    refs = _reference_all(text)
    out: list[Fence] = []
    for f in fences:
        if f.kind is None:
            out.append(f)
            continue
        issue = _issue(f, text, refs[f.kind])
        out.append(_seen_by_reference(f, issue))
    return tuple(out)


def _seen_by_reference(fence: Fence, issue: str | None) -> Fence:
    """``fence`` with its reference visibility: ``dataclasses.replace`` without its look at the
    fields on every call (a ``record`` keeps its fields in the instance's dictionary)."""
    seen = object.__new__(Fence)
    fields = seen.__dict__
    fields.update(fence.__dict__)
    fields["reference_visible"] = issue is None
    fields["reference_issue"] = issue
    return seen


def fences_of_kind(text: str, kind: str) -> tuple[Fence, ...]:
    """The fences of one Gemstack kind, in document order."""
    return tuple(f for f in scan_fences(text) if f.kind == kind)


@per_text
def reference_only_blocks(text: str) -> tuple[ReferenceMismatch, ...]:
    """Blocks the reference would read where Markdown has no Gemstack block of that kind opening.

    Typical causes: a ```` ```gemstack-<name> ```` line inside another code block (a format
    example in a ```` ```` ```` fence), or an HTML block or indented code hiding it.
    """
    fences = _scan_commonmark(text)
    by_line = {f.open_line: f for f in fences}
    refs = _reference_all(text)
    out: list[ReferenceMismatch] = []
    for kind, blocks in refs.items():
        for r in blocks:
            f = by_line.get(r.open_line)
            if f is not None and f.kind == kind:
                continue
            if f is not None:
                why = f'Markdown reads its info string as "{f.info}", not {kind}'
            else:
                outer = next(
                    (
                        g
                        for g in fences
                        if g.open_line < r.open_line and (g.close_line is None or g.close_line > r.open_line)
                    ),
                    None,
                )
                if outer is not None:
                    why = f"in Markdown this line is content of the code block opened on line {outer.open_line + 1}"
                else:
                    why = "in Markdown this line does not open a code block here"
            out.append(
                ReferenceMismatch(
                    kind=kind,
                    span=r.open_span,
                    line=r.open_line,
                    message=(
                        f"The reference gemstack CLI would read a {kind} block here (lines "
                        f"{r.open_line + 1}-{r.close_line + 1}), but {why}."
                    ),
                )
            )
    out.sort(key=lambda m: m.line)
    return tuple(out)
