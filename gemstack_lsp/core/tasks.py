"""tasks.md metadata: task headers, checkboxes and the ``<!-- gemstack:... -->`` comments beneath them.

The grammar is the reference's (``gemstack-cli.md`` section 9.5). A task header is a
column-0 list item ``- [ ] **T001: Title**``; ids follow the 1.4 rule (``[A-Za-z0-9_-]+``), so
both 1.3's ``T001`` and 1.4's ``UD-T001`` are tasks here, and ``Task.reference_v1_3`` tells
whether the 1.3 reference would see the header too. Each line after a header, up to the next
header, may carry one metadata comment; the first kind found on a line wins, in the order
validation_required, tests, files, depends, then our own ``actions`` (the billable actions a
task invokes). A later comment of the same kind replaces an earlier one, as in the reference.

Every id inside a comment keeps its exact span, so hover and go-to-definition can use it.
Parsing is memoised by text: an unchanged tasks.md costs nothing on the next keystroke.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from gemstack_lsp.core.findings import Finding, Fix, TextEdit
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jscompat import JS_WHITESPACE, JS_WS_CLASS
from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.text import SourceText, Span, line_table

#: JavaScript's ``\s``: the reference's regular expressions run in V8 (its ``.`` is read by hand,
#: see ``_header_title``).
_WS = JS_WS_CLASS
#: One line and its break (``\n``, ``\r\n`` or a lone ``\r``, as LSP and the reference's
#: line-ending normalisation split them); the break group is empty on the last line.
_LINE = re.compile(r"([^\r\n]*)(\r\n|\r|\n|)")


def _line_table(text: str) -> tuple[list[str], list[int]]:
    r"""Every line of ``text`` as ``_LINE`` reads them (ended by ``\r\n``, ``\r`` or ``\n``; the
    last one may be empty) and the offset where each starts: the document's shared line table
    (``text.line_table``), made once for the fence scan, the task parser and the checklist."""
    return line_table(text)


#: The reference's task header is ``^[*-]\s+\[[ xX]\]\s+\*\*([A-Za-z0-9_-]+):\s*(.*?)\*\*``. Its
#: ``\s*(.*?)`` can take a run of blanks two ways, which a backtracking engine tries in quadratic
#: time when no ``**`` follows; so only the part up to the colon is a regular expression here
#: and ``_header_title`` reads the rest in one pass, with the same result.
TASK_HEADER = re.compile(rf"^[*-]{_WS}+\[([ xX])\]{_WS}+\*\*([A-Za-z0-9_-]+):")
#: The 1.3.0 reference's header, whose ids are only ``T<digits>``.
TASK_HEADER_V1_3 = re.compile(rf"^[*-]{_WS}+\[([ xX])\]{_WS}+\*\*(T[0-9]+):")
#: What JavaScript's ``\s`` matches and its ``.`` does not: the line terminators.
_LINE_TERMINATORS = "\n\r\u2028\u2029"
_TERMINATOR = re.compile("[\n\r\u2028\u2029]")


def _header_title(line: str, pos: int) -> tuple[int, int] | None:
    r"""Where ``\s*(.*?)\*\*`` puts the title after the colon at ``pos``: (start, end) of the
    group, the closing ``**`` at ``end``; ``None`` when the reference's header does not match.

    The greedy ``\s*`` takes the whole run of blanks and the lazy ``.*?`` stops at the first
    ``**`` after it; giving blanks back to ``.*?`` never helps (they hold no ``**``), so the
    header matches exactly when that ``**`` exists with no line terminator before it.
    """
    start = pos
    while start < len(line) and line[start] in JS_WHITESPACE:
        start += 1
    end = line.find("**", start)
    if end < 0:
        return None
    for ch in _LINE_TERMINATORS:
        if line.find(ch, start, end) >= 0:
            return None
    return start, end


#: The 1.3.0 reference's id rule: only ``T<digits>``.
REFERENCE_V1_3_ID = re.compile(r"^T[0-9]+$")

#: Metadata comment kinds, in the order the reference tries them on a line.
COMMENT_KINDS = ("validation_required", "tests", "files", "depends", "actions")

#: The reference's comments are ``<!--\s*gemstack:<kind>=(.*?)\s*-->``; as with the header, only the
#: part up to ``=`` is a regular expression here (``_comment_value`` reads the rest in one pass).
_VALIDATION_PATTERN = re.compile(rf"<!--{_WS}*gemstack:validation_required=(true|false){_WS}*-->")
_COMMENT_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("validation_required", _VALIDATION_PATTERN),
    ("tests", re.compile(rf"<!--{_WS}*gemstack:tests=")),
    ("files", re.compile(rf"<!--{_WS}*gemstack:files=")),
    ("depends", re.compile(rf"<!--{_WS}*gemstack:depends=")),
    ("actions", re.compile(rf"<!--{_WS}*gemstack:actions=")),
)


def _comment_value(line: str, pattern: re.Pattern[str]) -> tuple[int, int, int, int] | None:
    r"""Where ``<!--\s*gemstack:<kind>=(.*?)\s*-->`` matches first in ``line``: (comment start,
    comment end, value start, value end), or ``None``.

    The lazy value ends at the first ``-->`` after ``=``, less the blanks before it; it may hold
    no line terminator (``.`` matches none). A terminator only blocks the openings before it, so
    the search resumes after it: every character is looked at a bounded number of times.
    """
    pos = 0
    while True:
        m = pattern.search(line, pos)
        if m is None:
            return None
        close = line.find("-->", m.end())
        if close < 0:
            return None
        end = close
        while end > m.end() and line[end - 1] in JS_WHITESPACE:
            end -= 1
        if _TERMINATOR.search(line, m.end(), end) is None:
            return m.start(), close + 3, m.end(), end
        blocked = max(line.rfind(ch, m.end(), end) for ch in _LINE_TERMINATORS)
        if blocked < 0:
            return m.start(), close + 3, m.end(), end
        pos = blocked + 1


@record
class TaskRef:
    """One id or path named inside a metadata comment, with its exact span."""

    value: str
    span: Span


@record
class TaskComment:
    """One ``<!-- gemstack:<kind>=... -->`` comment under a task header."""

    kind: str
    #: The whole comment, ``<!--`` to ``-->``.
    span: Span
    #: The text after ``=`` up to the trailing blanks before ``-->``.
    value_span: Span
    #: The comma-separated items (empty for ``validation_required``).
    items: tuple[TaskRef, ...] = ()
    #: The boolean of a ``validation_required`` comment.
    flag: bool | None = None


@record
class Task:
    """One task of tasks.md and the metadata declared under it."""

    id: str
    id_span: Span
    title: str
    title_span: Span
    done: bool
    #: The ``[ ]`` / ``[x]`` box, brackets included.
    checkbox_span: Span
    #: The header from the list marker to the closing ``**``.
    header_span: Span
    #: The header line and every line up to the next header (line breaks excluded at the end).
    span: Span
    comments: tuple[TaskComment, ...] = ()

    @property
    def reference_v1_3(self) -> bool:
        """True when the 1.3.0 reference recognises this header (its ids are ``T<digits>``)."""
        return REFERENCE_V1_3_ID.match(self.id) is not None

    def comment(self, kind: str) -> TaskComment | None:
        """The comment of ``kind`` that takes effect (the last one), if any."""
        found = None
        for c in self.comments:
            if c.kind == kind:
                found = c
        return found

    def _items(self, kind: str) -> tuple[TaskRef, ...]:
        c = self.comment(kind)
        return c.items if c is not None else ()

    @property
    def validation_required(self) -> bool | None:
        c = self.comment("validation_required")
        return c.flag if c is not None else None

    @property
    def tests(self) -> tuple[TaskRef, ...]:
        return self._items("tests")

    @property
    def files(self) -> tuple[TaskRef, ...]:
        """Declared files, with ``\\`` turned into ``/`` as the reference does."""
        return self._items("files")

    @property
    def depends(self) -> tuple[TaskRef, ...]:
        return self._items("depends")

    @property
    def actions(self) -> tuple[TaskRef, ...]:
        """The billable actions the task invokes (``<!-- gemstack:actions=a,b -->``)."""
        return self._items("actions")

    def refs(self) -> Iterator[tuple[str, TaskRef]]:
        """Every effective (kind, item) pair, for hover and navigation."""
        for kind in ("tests", "files", "depends", "actions"):
            for ref in self._items(kind):
                yield kind, ref


@record
class TaskList:
    """All tasks of one tasks.md, in document order."""

    tasks: tuple[Task, ...]

    def by_id(self, task_id: str) -> Task | None:
        for t in self.tasks:
            if t.id == task_id:
                return t
        return None

    def task_at(self, offset: int) -> Task | None:
        """The task whose section holds ``offset``."""
        for t in self.tasks:
            if t.span.contains(offset):
                return t
        return None

    @property
    def completed(self) -> int:
        return sum(1 for t in self.tasks if t.done)

    def findings(self, path: str, text: str) -> list[Finding]:
        """TASK_VALIDATION_MISSING for each task without a usable validation declaration."""
        out: list[Finding] = []
        for t in self.tasks:
            required = t.validation_required
            if required is None:
                out.append(
                    Finding(
                        "TASK_VALIDATION_MISSING",
                        f"Task {t.id} must explicitly declare validation_required",
                        path,
                        t.header_span,
                        subject=t.id,
                        phase="tasks",
                        fixes=_declare_validation_fixes(path, text, t),
                    )
                )
            elif required and not t.tests:
                out.append(
                    Finding(
                        "TASK_VALIDATION_MISSING",
                        f"Task {t.id} has validation_required=true but specifies no tests",
                        path,
                        t.header_span,
                        subject=t.id,
                        phase="tasks",
                    )
                )
        return out


def _declare_validation_fixes(path: str, text: str, task: Task) -> tuple[Fix, ...]:
    """Insert a ``validation_required`` comment on the line after the header."""
    src = SourceText(text)
    line = src.line_of(task.header_span.start)
    end = src.line_end(line)
    newline = "\r\n" if text.startswith("\r\n", end) else ("\r" if text.startswith("\r", end) else "\n")
    fixes = []
    for value in ("false", "true"):
        edit = TextEdit(path, Span(end, end), f"{newline}  <!-- gemstack:validation_required={value} -->")
        fixes.append(Fix(f"Declare validation_required={value} for {task.id}", (edit,)))
    return tuple(fixes)


def _js_trim_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """``start`` and ``end`` moved past JavaScript whitespace at either end of ``text[start:end]``."""
    piece = text[start:end]
    kept = piece.strip(JS_WHITESPACE)
    if not kept:
        return end, end
    start += len(piece) - len(piece.lstrip(JS_WHITESPACE))
    return start, start + len(kept)


def _split_items(text: str, start: int, end: int, kind: str, base: int = 0) -> tuple[TaskRef, ...]:
    """The comma-separated items of ``text[start:end]``, trimmed, each with its span (``base``
    plus its offset in ``text``; empty items are skipped)."""
    items: list[TaskRef] = []
    pos = base + start
    for piece in text[start:end].split(","):
        value = piece.strip(JS_WHITESPACE)
        if value:
            a = pos + len(piece) - len(piece.lstrip(JS_WHITESPACE))
            span = Span(a, a + len(value))
            if kind == "files":
                value = value.replace("\\", "/")
            items.append(TaskRef(value, span))
        pos += len(piece) + 1
    return tuple(items)


#: What each comment pattern must find in a line, as a literal.
_COMMENT_NAMES = {kind: f"gemstack:{kind}=" for kind in COMMENT_KINDS}


def _comment_on_line(line_start: int, line: str) -> TaskComment | None:
    """The metadata comment of ``line`` (which starts at document offset ``line_start``), if any."""
    last_close = line.rfind("-->")
    if last_close < 0:
        return None
    for kind, pattern in _COMMENT_PATTERNS:
        if _COMMENT_NAMES[kind] not in line:
            continue  # the pattern cannot match: a search for a literal rules it out first
        if kind == "validation_required":
            m = pattern.search(line)
            if m is None:
                continue
            span = Span(line_start + m.start(), line_start + m.end())
            value_span = Span(line_start + m.start(1), line_start + m.end(1))
            return TaskComment(kind, span, value_span, flag=m.group(1) == "true")
        found = _comment_value(line, pattern)
        if found is None:
            continue
        span = Span(line_start + found[0], line_start + found[1])
        value_span = Span(line_start + found[2], line_start + found[3])
        return TaskComment(kind, span, value_span, _split_items(line, found[2], found[3], kind, line_start))
    return None


@dataclass
class _Header:
    """A task header seen while scanning, waiting for the lines under it."""

    id: str
    id_span: Span
    title: str
    title_span: Span
    done: bool
    checkbox_span: Span
    header_span: Span
    last_end: int
    comments: list[TaskComment]

    def build(self) -> Task:
        return Task(
            self.id,
            self.id_span,
            self.title,
            self.title_span,
            self.done,
            self.checkbox_span,
            self.header_span,
            Span(self.header_span.start, self.last_end),
            tuple(self.comments),
        )


@per_text
def parse_tasks(text: str, *, reference_v1_3: bool = False) -> TaskList:
    """Parse tasks.md text (already decoded; a BOM is the caller's finding).

    With ``reference_v1_3`` only ``T<digits>`` headers open a task, exactly as the 1.3.0
    reference reads the file (other headers' comments then fall to the task before them).
    """
    header = TASK_HEADER_V1_3 if reference_v1_3 else TASK_HEADER
    tasks: list[Task] = []
    current: _Header | None = None
    lines, starts = _line_table(text)
    for line_text, start in zip(lines, starts, strict=True):
        end = start + len(line_text)
        m = header.match(line_text) if line_text[:1] in ("-", "*") else None
        title = _header_title(line_text, m.end()) if m is not None else None
        if m is not None and title is not None:
            if current is not None:
                tasks.append(current.build())
            t0, t1 = _js_trim_bounds(text, start + title[0], start + title[1])
            current = _Header(
                id=m.group(2),
                id_span=Span(start + m.start(2), start + m.end(2)),
                title=text[t0:t1],
                title_span=Span(t0, t1),
                done=m.group(1) in "xX",
                checkbox_span=Span(start + m.start(1) - 1, start + m.end(1) + 1),
                header_span=Span(start, start + title[1] + 2),
                last_end=end,
                comments=[],
            )
        elif current is not None:
            if line_text.strip(JS_WHITESPACE):
                current.last_end = end
            if "gemstack:" in line_text:
                comment = _comment_on_line(start, line_text)
                if comment is not None:
                    current.comments.append(comment)
    if current is not None:
        tasks.append(current.build())
    return TaskList(tuple(tasks))


# ---------------------------------------------------------------------------------------------
# Task formats the reference cannot read, and lifecycle headers the boxes contradict.

#: A checklist item anywhere in a line's indentation: ``- [ ] ...``, ``* [x] ...``, ``+ [ ] ...``.
_CHECKLIST_ITEM = re.compile(r"^[ \t]*[*+-][ \t]+\[([ xX])\]")
#: A heading that carries a box: ``### [ ] T001 — ...`` (upstream 006).
_CHECKLIST_HEADING = re.compile(r"^#{1,6}[ \t]+\[([ xX])\]")
#: The start of a fenced code block (its lines are examples, not tasks).
_FENCE = re.compile(r"^[ \t]{0,3}(?:```|~~~)")
#: A header line such as ``**Lifecycle Status**: `TASKS_COMPLETE` `` (upstream 006 and 007). No two
#: adjacent runs can take the same characters, so a long run of blanks is read once.
_LIFECYCLE_HEADER = re.compile(
    r"^[ \t>]*(?:[*+-][ \t]+)?\*\*(?:Lifecycle Status|Lifecycle|Status|Estado)\*\*[ \t]*(?::[ \t]*)?`?([A-Za-z_]+)",
    re.IGNORECASE,
)
#: Lifecycle words that say every task is done (upstream writes ``TASKS_COMPLETE`` when the
#: task list is finished, and the later phases' words); a header saying one of them above
#: unchecked boxes contradicts them.
DONE_LIFECYCLE_WORDS = frozenset(
    {
        "TASKS_COMPLETE",
        "TASKS_DONE",
        "IMPLEMENTATION_COMPLETE",
        "IMPLEMENT_COMPLETE",
        "IMPLEMENTED",
        "VERIFY_COMPLETE",
        "VERIFICATION_COMPLETE",
        "VERIFIED",
        "CLOSURE_COMPLETE",
        "SHIP_COMPLETE",
        "SHIPPED",
        "CLOSED",
        "DONE",
        "COMPLETE",
        "COMPLETED",
    }
)
#: The one task form the reference parses, as the findings show it.
REFERENCE_TASK_FORM = "- [ ] **T001: Title**"
REFERENCE_VALIDATION_FORM = "<!-- gemstack:validation_required=true|false -->"


@record
class ChecklistItem:
    """A box in tasks.md: a checklist item or a heading with ``[ ]``/``[x]``, outside code fences."""

    line: int
    done: bool
    #: The item's line, from its first character to its end (line break excluded).
    span: Span
    #: The box, brackets included.
    box_span: Span
    #: The start of the line as written up to the first word after the box (``### [ ] T001``).
    shape: str


def checklist_items(text: str) -> list[ChecklistItem]:
    """Every box of tasks.md outside fenced code, in document order (one pass over the lines)."""
    items: list[ChecklistItem] = []
    in_fence = False
    lines, starts = _line_table(text)
    for number, line in enumerate(lines):
        # The literals each pattern needs rule most lines out before any pattern runs.
        if ("`" in line or "~" in line) and _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and "[" in line:
            m = _CHECKLIST_ITEM.match(line) or _CHECKLIST_HEADING.match(line)
            if m is not None:
                start = starts[number]
                end = start + len(line)
                box_end = m.end()
                word_start = box_end
                while word_start < len(line) and line[word_start] in " \t":
                    word_start += 1
                word_end = word_start
                while word_end < len(line) and word_end - word_start < 24 and line[word_end] not in " \t":
                    word_end += 1
                items.append(
                    ChecklistItem(
                        number,
                        m.group(1) in "xX",
                        Span(start, end),
                        Span(start + box_end - 3, start + box_end),
                        line[:word_end].strip(" \t"),
                    )
                )
    return items


def _lifecycle_word(text: str, before: int) -> tuple[str, Span] | None:
    """The lifecycle word of a header line above offset ``before`` (the first task), if any."""
    for lm in _LINE.finditer(text):
        start = lm.start(1)
        if start >= before:
            return None
        m = _LIFECYCLE_HEADER.match(lm.group(1))
        if m is not None:
            return m.group(1), Span(start + m.start(1), start + m.end(1))
        if not lm.group(2):
            break
    return None


def format_findings(path: str, text: str) -> list[Finding]:
    """See ``_format_findings`` (computed once per tasks.md text while a memo is active)."""
    return list(_format_findings(path, text))


@per_text
def _format_findings(path: str, text: str) -> tuple[Finding, ...]:
    """What the reference reads differently in one tasks.md.

    ``TASKS_UNREAD_BY_REFERENCE`` (information): the file has boxes but none in the one form
    the reference parses, so it sees no tasks at all (upstream 006's ``### [ ] T001 — ...``
    headings, 004's ``- [x] 1.1 ...`` numbered items, 0.x's ``**T0.1: ...**`` ids).
    ``TASKS_LIFECYCLE_CONTRADICTED`` (warning): a header says the tasks are complete above
    unchecked boxes (upstream 007: ``TASKS_COMPLETE`` above 22 unchecked tasks).
    """
    out: list[Finding] = []
    src = SourceText(text)
    tasks = parse_tasks(text).tasks
    # The boxes are the tasks' when the reference reads any; the checklist is read only otherwise.
    items = checklist_items(text) if not tasks and "[" in text else []
    if not tasks and items:
        first = items[0]
        out.append(
            Finding(
                "TASKS_UNREAD_BY_REFERENCE",
                f"The reference reads no tasks in this file: none of its {len(items)} checklist item(s) "
                f"(the first, line {first.line + 1}: `{first.shape}`) is in the form it parses. It reads a task "
                f"only from a line starting `{REFERENCE_TASK_FORM}`, followed by `{REFERENCE_VALIDATION_FORM}`.",
                path,
                Span(first.span.start, first.box_span.end),
                subject=first.shape,
                phase="tasks",
            )
        )
    boxes: list[tuple[bool, Span, str]] = (
        [(t.done, t.checkbox_span, t.id) for t in tasks] if tasks else [(i.done, i.box_span, i.shape) for i in items]
    )
    unchecked = [b for b in boxes if not b[0]]
    if unchecked:
        found = _lifecycle_word(text, min(b[1].start for b in boxes))
        if found is not None and found[0].upper() in DONE_LIFECYCLE_WORDS:
            word, span = found
            first_line = src.line_of(unchecked[0][1].start) + 1
            out.append(
                Finding(
                    "TASKS_LIFECYCLE_CONTRADICTED",
                    f"The header says {word}, but {len(unchecked)} of {len(boxes)} task box(es) are unchecked "
                    f"(the first, line {first_line}: {unchecked[0][2]}). Tick the tasks that are done, or set the "
                    "header to the phase the boxes show.",
                    path,
                    span,
                    subject=word,
                    phase="tasks",
                )
            )
    return tuple(out)
