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
from gemstack_lsp.core.jscompat import JS_DOT, JS_WHITESPACE, JS_WS_CLASS, js_trim
from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.text import SourceText, Span

#: JavaScript's ``\s`` and ``.``: the reference's regular expressions run in V8.
_WS = JS_WS_CLASS
_DOT = JS_DOT
#: One line and its break (``\n``, ``\r\n`` or a lone ``\r``, as LSP and the reference's
#: line-ending normalisation split them); the break group is empty on the last line.
_LINE = re.compile(r"([^\r\n]*)(\r\n|\r|\n|)")

# The reference writes ``:\s*(.*?)\*\*``; the title is trimmed afterwards, so the ``\s*`` is
# left out here: beside a lazy run over the same characters it made a header followed by
# thousands of spaces (and no closing ``**``) quadratic. Same matches, linear time.
TASK_HEADER = re.compile(rf"^[*-]{_WS}+\[([ xX])\]{_WS}+\*\*([A-Za-z0-9_-]+):({_DOT}*?)\*\*")
#: The 1.3.0 reference's header, whose ids are only ``T<digits>``.
TASK_HEADER_V1_3 = re.compile(rf"^[*-]{_WS}+\[([ xX])\]{_WS}+\*\*(T[0-9]+):({_DOT}*?)\*\*")
#: The 1.3.0 reference's id rule: only ``T<digits>``.
REFERENCE_V1_3_ID = re.compile(r"^T[0-9]+$")

#: Metadata comment kinds, in the order the reference tries them on a line.
COMMENT_KINDS = ("validation_required", "tests", "files", "depends", "actions")

# The reference writes ``=(.*?)\s*-->``: the value is everything up to the first ``-->``
# without the whitespace before it. The ``\s*`` is applied afterwards (``_comment_on_line``)
# and the search never looks past the line's last ``-->``, so no pattern rescans a line.
_COMMENT_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("validation_required", re.compile(rf"<!--{_WS}*gemstack:validation_required=(true|false){_WS}*-->")),
    ("tests", re.compile(rf"<!--{_WS}*gemstack:tests=({_DOT}*?)-->")),
    ("files", re.compile(rf"<!--{_WS}*gemstack:files=({_DOT}*?)-->")),
    ("depends", re.compile(rf"<!--{_WS}*gemstack:depends=({_DOT}*?)-->")),
    ("actions", re.compile(rf"<!--{_WS}*gemstack:actions=({_DOT}*?)-->")),
)


@dataclass(frozen=True)
class TaskRef:
    """One id or path named inside a metadata comment, with its exact span."""

    value: str
    span: Span


@dataclass(frozen=True)
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


@dataclass(frozen=True)
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


@dataclass(frozen=True)
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
    while start < end and text[start] in JS_WHITESPACE:
        start += 1
    while end > start and text[end - 1] in JS_WHITESPACE:
        end -= 1
    return start, end


def _split_items(text: str, start: int, end: int, kind: str) -> tuple[TaskRef, ...]:
    items: list[TaskRef] = []
    pos = start
    while pos <= end:
        comma = text.find(",", pos, end)
        stop = end if comma < 0 else comma
        a, b = _js_trim_bounds(text, pos, stop)
        if b > a:
            value = text[a:b]
            if kind == "files":
                value = value.replace("\\", "/")
            items.append(TaskRef(value, Span(a, b)))
        if comma < 0:
            break
        pos = comma + 1
    return tuple(items)


def _comment_on_line(text: str, line_start: int, line_end: int) -> TaskComment | None:
    line = text[line_start:line_end]
    last_close = line.rfind("-->")
    if last_close < 0:
        return None
    for kind, pattern in _COMMENT_PATTERNS:
        m = pattern.search(line, 0, last_close + 3)
        if m is None:
            continue
        span = Span(line_start + m.start(), line_start + m.end())
        value_end = m.end(1)
        while value_end > m.start(1) and line[value_end - 1] in JS_WHITESPACE:
            value_end -= 1
        value_span = Span(line_start + m.start(1), line_start + value_end)
        if kind == "validation_required":
            return TaskComment(kind, span, value_span, flag=m.group(1) == "true")
        return TaskComment(kind, span, value_span, _split_items(text, value_span.start, value_span.end, kind))
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
    for lm in _LINE.finditer(text):
        start, end = lm.span(1)
        line_text = lm.group(1)
        m = header.match(line_text) if line_text[:1] in ("-", "*") else None
        if m is not None:
            if current is not None:
                tasks.append(current.build())
            t0, t1 = _js_trim_bounds(text, start + m.start(3), start + m.end(3))
            current = _Header(
                id=m.group(2),
                id_span=Span(start + m.start(2), start + m.end(2)),
                title=text[t0:t1],
                title_span=Span(t0, t1),
                done=m.group(1) in "xX",
                checkbox_span=Span(start + m.start(1) - 1, start + m.end(1) + 1),
                header_span=Span(start, start + m.end()),
                last_end=end,
                comments=[],
            )
        elif current is not None:
            if js_trim(line_text):
                current.last_end = end
            if "gemstack:" in line_text:
                comment = _comment_on_line(text, start, end)
                if comment is not None:
                    current.comments.append(comment)
        if not lm.group(2):
            break
    if current is not None:
        tasks.append(current.build())
    return TaskList(tuple(tasks))
