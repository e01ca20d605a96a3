"""What the capsule takes from the Markdown sources, extracted exactly as the reference does.

- ``extract_invariants``: the normative lines of spec.md (reference section 5.5), each with the
  span of its line so a dropped rule can be shown where it lives.
- ``read_contracts`` / ``read_test_matrix``: the ``gemstack-contracts`` and
  ``gemstack-test-matrix`` blocks as the reference reads them (``markdown.reference_blocks``),
  checked by the editor's block parsers (``blocks/contracts.py``, ``blocks/test_matrix.py``: the
  same rules and messages), failing on the first error as the reference does; the matrix with
  its acceptance signature.
- ``sections``: the paragraphs and list items under a heading (deferred
  items, open questions), and ``plan_bound_files`` for the plan's test-binding files.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any, TypeVar

from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks import contracts, test_matrix
from gemstack_lsp.core.blocks.base import BlockKindInfo, BlockResult, BlockSource, read_reference_block
from gemstack_lsp.core.capsule.canonical import parse_json
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jscompat import JS_WS_CLASS, js_strict_equal, js_string, js_trim
from gemstack_lsp.core.markdown import ReferenceBlock, reference_blocks
from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.text import Span

# The reference's heading is ``^#{1,4}\s+(?:(\d+(?:\.\d+)?)\.?\s*)?(.*?)$``. Its prefix is matched
# here alone and the rest checked in code: a line whose rest holds a line terminator (which
# ``.`` refuses) made the whole expression backtrack quadratically over the whitespace runs.
_HEADING_PREFIX = re.compile(rf"#{{1,4}}{JS_WS_CLASS}+(?:(\d+(?:\.\d+)?)\.?{JS_WS_CLASS}*)?")
_NOT_JS_DOT = re.compile("[\n\r\u2028\u2029]")
_MUST_NOT = re.compile(r"\b(MUST NOT|SHALL NOT|FORBIDDEN|NEVER)\b", re.ASCII)
_MUST = re.compile(r"\b(MUST|SHALL|REQUIRED)\b", re.ASCII)
_BULLET = re.compile(rf"^[-*+]{JS_WS_CLASS}+")
_NUMBERED = re.compile(rf"^\d+\.{JS_WS_CLASS}+")
_WS_RUN = re.compile(rf"{JS_WS_CLASS}+")
_LINE_BREAK = re.compile(r"\r?\n")


@record
class Invariant:
    """One normative rule of spec.md: ``{id, rule, normative, source_ref}`` plus its line's span."""

    id: str
    rule: str
    normative: str
    source_ref: str
    span: Span

    def as_json(self) -> dict[str, str]:
        return {"id": self.id, "rule": self.rule, "normative": self.normative, "source_ref": self.source_ref}


def _heading_ref(trimmed: str) -> str | None:
    m = _HEADING_PREFIX.match(trimmed)
    # The greedy prefix is the reference's first try; when ``.*?$`` fails on the rest (a line
    # terminator in it), every shorter prefix leaves that character in the rest too.
    if m is None or _NOT_JS_DOT.search(trimmed, m.end()):
        return None
    if m.group(1) is not None:
        return f"spec.md#{m.group(1)}"
    slug = _WS_RUN.sub("-", js_trim(trimmed[m.end() :]).lower())
    return f"spec.md#{slug}"


def extract_invariants(text: str) -> list[Invariant]:
    """The reference's normative extraction (spec text as read, not newline-normalised).

    Memoised by text: an unchanged spec costs nothing on the next keystroke.
    """
    return list(_extract_invariants(text))


@per_text
def _extract_invariants(text: str) -> tuple[Invariant, ...]:
    """See ``extract_invariants``.

    Lines are split on ``\\r?\\n`` only; every line is examined (code blocks and tables too)
    except blank lines and lines starting with a fence; headings set the ``source_ref``.
    """
    out: list[Invariant] = []
    ref = "spec.md"
    pos = 0
    starts_ends: list[tuple[int, int]] = []
    for m in _LINE_BREAK.finditer(text):
        starts_ends.append((pos, m.start()))
        pos = m.end()
    starts_ends.append((pos, len(text)))
    for start, end in starts_ends:
        line = text[start:end]
        trimmed = js_trim(line)
        if not trimmed or trimmed.startswith("```"):
            continue
        heading = _heading_ref(trimmed)
        if heading is not None:
            ref = heading
            continue
        if _MUST_NOT.search(trimmed):
            normative = "MUST_NOT"
        elif _MUST.search(trimmed):
            normative = "MUST"
        else:
            continue
        rule = _NUMBERED.sub("", _BULLET.sub("", trimmed, count=1), count=1)
        rule = js_trim(rule)
        n = len(out) + 1
        out.append(Invariant(f"INV-{n:03d}", rule, normative, ref, Span(start, end)))
    return tuple(out)


class BlockError(ValueError):
    """A block the reference would refuse, with its error code and the span to blame."""

    def __init__(self, code: str, message: str, span: Span | None) -> None:
        super().__init__(message)
        self.code = code
        self.span = span


@record
class Contract:
    """A frozen contract as declared (``raw`` keeps every member) and where its id sits."""

    id: str
    type: str
    raw: Mapping[str, Any]
    #: The block's contract, where the span of its id is read when asked for (a block read as
    #: plain values makes its tree only then).
    declared: contracts.FrozenContract | None = field(default=None, repr=False)

    @property
    def span(self) -> Span | None:
        return self.declared.id_span if self.declared is not None else None

    def as_capsule_json(self) -> dict[str, Any]:
        """``{id, type}`` plus ``value``, ``values`` and ``entity`` as the source declares them."""
        out: dict[str, Any] = {"id": self.id, "type": self.type}
        for key in ("value", "values", "entity"):
            if key in self.raw:
                out[key] = self.raw[key]
        return out

    def claim_conflicts(self, claim: Mapping[str, Any]) -> tuple[str, ...]:
        """The members of a capsule's claim about this contract that contradict the declaration.

        ``type`` alone when the types differ; else ``value`` (only for the types whose source has
        one, compared as ``===``), ``values`` (only when the claim carries them, trimmed and in
        sorted order, as the reference's ``normalizeContract``) and ``entity`` (when claimed).
        What the claim leaves out is no conflict, nor the reference's ``value: true`` on
        set-like contracts (ARCHITECTURE.md, "Capsule verify states").
        """
        if "type" in claim and claim["type"] != self.type:
            return ("type",)
        out: list[str] = []
        if (
            self.type in TYPES_WITH_VALUE
            and "value" in claim
            and not js_strict_equal(claim["value"], self.raw.get("value"))
        ):
            out.append("value")
        if "values" in claim and _normalized_values(claim["values"]) != _normalized_values(self.raw.get("values")):
            out.append("values")
        if "entity" in claim and claim["entity"] != self.raw.get("entity"):
            out.append("entity")
        return tuple(out)


#: The contract types whose declaration has a ``value`` of its own.
TYPES_WITH_VALUE = frozenset({"BOOLEAN_INVARIANT", "BOUNDARY", "ROADMAP_LIMIT"})


def _normalized_values(values: Any) -> list[str] | None:
    if not isinstance(values, list):
        return None
    return sorted(js_trim(v) if isinstance(v, str) else js_string(v) for v in values)


T = TypeVar("T")
R = TypeVar("R")

#: The path the block parsers put on their findings (only their code, message and span are kept).
SPEC_FILE = "spec.md"


def _read_reference(
    text: str, info: BlockKindInfo, rules: Callable[[BlockSource], BlockResult[T]]
) -> tuple[ReferenceBlock, BlockResult[T]] | BlockError | None:
    """The block of ``info.kind`` as the reference reads it, checked by ``rules`` (a block parser's).

    ``None`` when there is no block; else the ``BlockError`` of the first rule it breaks (the
    reference throws there), or the block and its parse. A repeated key is no error to the
    reference (``JSON.parse`` keeps the last value).
    """
    blocks = reference_blocks(text, info.kind)
    if not blocks:
        return None
    if len(blocks) > 1:
        return BlockError(info.parse_code, info.multiple_message.replace("{n}", str(len(blocks))), blocks[1].open_span)
    result = rules(read_reference_block(SPEC_FILE, blocks[0], info))
    for f in result.findings:
        if f.code != "JSON_DUPLICATE_KEY":
            return BlockError(f.code, f.message, f.span)
    return blocks[0], result


def _raise_or_return(outcome: R | BlockError) -> R:
    """A memoised outcome; a fresh ``BlockError`` (re-raising the memoised one would grow its
    traceback on every call)."""
    if isinstance(outcome, BlockError):
        raise BlockError(outcome.code, str(outcome), outcome.span)
    return outcome


def read_contracts(text: str) -> list[Contract] | None:
    """The spec's ``gemstack-contracts`` block (``None`` when there is none).

    Raises ``BlockError`` with the reference's message when the block is malformed. Memoised by
    text (the contracts' ``raw`` members are shared: treat them as read-only).
    """
    found = _raise_or_return(_read_contracts(text))
    return None if found is None else list(found)


@per_text
def _read_contracts(text: str) -> tuple[Contract, ...] | BlockError | None:
    found = _read_reference(text, contracts.INFO, contracts.contracts_of)
    if found is None or isinstance(found, BlockError):
        return found
    return tuple(Contract(c.id, c.type, c.to_json(), c) for c in found[1].items)


@record
class TestMatrix:
    """The spec's acceptance matrix: its entries, the signature, and where each id sits."""

    entries: tuple[Mapping[str, str], ...]
    signature: str
    span: Span | None = None

    @property
    def ids(self) -> list[str]:
        return [e["id"] for e in self.entries]


def read_test_matrix(text: str) -> TestMatrix | None:
    """The spec's ``gemstack-test-matrix`` block (``None`` when absent); raises ``BlockError``."""
    return _raise_or_return(_read_test_matrix(text))


@per_text
def _read_test_matrix(text: str) -> TestMatrix | BlockError | None:
    found = _read_reference(text, test_matrix.INFO, test_matrix.matrix_of)
    if found is None or isinstance(found, BlockError):
        return found
    block, result = found
    return TestMatrix(
        tuple(e.to_json() for e in result.items),
        test_matrix.acceptance_signature(result.items),
        block.body_span,
    )


_ANY_HEADING_PREFIX = re.compile(r"(#{1,6})[ \t]+")


def _any_heading(line: str) -> tuple[int, str] | None:
    """An ATX heading's depth and text (``^(#{1,6})[ \t]+(.*?)[ \t#]*$``, with the closing run
    stripped in code: as one expression it was quadratic on a long run of `` #``)."""
    m = _ANY_HEADING_PREFIX.match(line)
    if m is None:
        return None
    rest = line[m.end() :]
    if rest.endswith("\n"):  # ``$`` also matches before a final newline
        rest = rest[:-1]
    if "\n" in rest:
        return None
    return len(m.group(1)), rest.rstrip(" \t#")


_LIST_ITEM = re.compile(r"^[ \t]{0,3}(?:[-*+]|\d+[.)])[ \t]+(.*)$")


_NEWLINE = re.compile(r"\r\n|\r|\n")


@record
class SectionItem:
    """One top-level list item of a section: its text (continuation lines joined) and the span
    of its first line in the document."""

    text: str
    span: Span


@record
class Section:
    """A section whose heading matched: its heading, its paragraph lines (outside lists and
    code), its top-level list items (subsections included) and ``lead``, the text of whichever
    came first (``None`` for an empty section)."""

    heading: str
    prose: tuple[str, ...]
    items: tuple[SectionItem, ...]
    lead: str | None = None


def _lines(text: str) -> list[tuple[int, str]]:
    """(offset, line) for every line, split on CRLF, CR and LF (hash normalisation's line ends)."""
    out: list[tuple[int, str]] = []
    pos = 0
    for m in _NEWLINE.finditer(text):
        out.append((pos, text[pos : m.start()]))
        pos = m.end()
    out.append((pos, text[pos:]))
    return out


def sections(text: str, heading: re.Pattern[str]) -> list[Section]:
    """Every section whose heading matches ``heading``, down to the next heading of its level.

    Fenced code inside the section is skipped; an item's indented continuation lines are joined
    to it; a paragraph is a run of other non-blank lines.
    """
    out: list[Section] = []
    level: int | None = None
    title = ""
    in_fence = False
    prose: list[str] = []
    items: list[SectionItem] = []
    current: list[str] | None = None
    current_span: Span | None = None
    lead: str | None = None

    def flush_item() -> None:
        nonlocal current, current_span
        if current and current_span is not None:
            items.append(SectionItem(" ".join(current), current_span))
        current, current_span = None, None

    def close() -> None:
        nonlocal level, lead
        flush_item()
        if level is not None:
            out.append(Section(title, tuple(prose), tuple(items), lead))
        level, lead = None, None
        prose.clear()
        items.clear()

    for start, line in _lines(text):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        h = _any_heading(line)
        if h:
            depth, text_of_heading = h
            if level is not None and depth <= level:
                close()
            if level is None and heading.search(text_of_heading):
                level, title = depth, text_of_heading
            continue
        if level is None:
            continue
        m = _LIST_ITEM.match(line)
        if m:
            flush_item()
            current, current_span = [m.group(1).strip()], Span(start, start + len(line))
            lead = m.group(1).strip() if lead is None else lead
        elif stripped and current is not None and line[:1] in (" ", "\t"):
            current.append(stripped)
        elif stripped:
            flush_item()
            prose.append(stripped)
            lead = stripped if lead is None else lead
        else:
            flush_item()
    close()
    return out


def first_heading(text: str) -> tuple[str, Span] | None:
    """The first ATX heading's text and the span of its line (the spec's title).

    Lines are taken one at a time up to the heading (mostly the first line), not split out of
    the whole document."""
    pos = 0
    while True:
        nl = text.find("\n", pos)
        raw = text[pos:] if nl < 0 else text[pos:nl]
        line = raw.rstrip("\r")
        h = _any_heading(line)
        if h:
            return h[1].strip(), Span(pos, pos + len(line))
        if nl < 0:
            return None
        pos = nl + 1


def plan_bound_files(text: str) -> list[str]:
    """The ``file`` of every entry in the plan's ``gemstack-test-bindings`` block (best effort)."""
    files: list[str] = []
    for block in reference_blocks(text, kinds.TEST_BINDINGS):
        try:
            data = parse_json(block.json_text)
        except ValueError:
            continue
        if isinstance(data, list):
            files.extend(str(e["file"]) for e in data if isinstance(e, dict) and isinstance(e.get("file"), str))
    return files
