"""What the capsule takes from the Markdown sources, extracted exactly as the reference does.

- ``extract_invariants``: the normative lines of spec.md (reference section 5.5), each with the
  span of its line so a dropped rule can be shown where it lives.
- ``read_contracts`` / ``read_test_matrix``: the ``gemstack-contracts`` and
  ``gemstack-test-matrix`` blocks with the reference's validation messages (section 9.1, 9.2) and
  the acceptance signature.
- ``section_items``: the list items under a heading (deferred items, open questions), and
  ``plan_bound_files`` for the plan's test-binding files.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gemstack_lsp.core.capsule.canonical import compact_json, parse_json
from gemstack_lsp.core.jscompat import JS_DOT, JS_WS_CLASS, js_trim, utf16_key
from gemstack_lsp.core.markdown import reference_blocks
from gemstack_lsp.core.text import Span

_HEADING = re.compile(rf"^#{{1,4}}{JS_WS_CLASS}+(?:(\d+(?:\.\d+)?)\.?{JS_WS_CLASS}*)?({JS_DOT}*?)$")
_MUST_NOT = re.compile(r"\b(MUST NOT|SHALL NOT|FORBIDDEN|NEVER)\b", re.ASCII)
_MUST = re.compile(r"\b(MUST|SHALL|REQUIRED)\b", re.ASCII)
_BULLET = re.compile(rf"^[-*+]{JS_WS_CLASS}+")
_NUMBERED = re.compile(rf"^\d+\.{JS_WS_CLASS}+")
_WS_RUN = re.compile(rf"{JS_WS_CLASS}+")
_LINE_BREAK = re.compile(r"\r?\n")


@dataclass(frozen=True)
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
    m = _HEADING.match(trimmed)
    if m is None:
        return None
    if m.group(1) is not None:
        return f"spec.md#{m.group(1)}"
    slug = _WS_RUN.sub("-", js_trim(m.group(2)).lower())
    return f"spec.md#{slug}"


def extract_invariants(text: str) -> list[Invariant]:
    """The reference's normative extraction (spec text as read, not newline-normalised).

    Memoised by text: an unchanged spec costs nothing on the next keystroke.
    """
    return list(_extract_invariants(text))


@functools.lru_cache(maxsize=64)
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


@dataclass(frozen=True)
class Contract:
    """A frozen contract as declared (``raw`` keeps every member) and where its id sits."""

    id: str
    type: str
    raw: Mapping[str, Any]
    span: Span | None

    def as_capsule_json(self) -> dict[str, Any]:
        """``{id, type}`` plus ``value``, ``values`` and ``entity`` as the source declares them."""
        out: dict[str, Any] = {"id": self.id, "type": self.type}
        for key in ("value", "values", "entity"):
            if key in self.raw:
                out[key] = self.raw[key]
        return out


CONTRACT_TYPES = ("ENUM_SET", "IDENTITY_TUPLE", "PROVENANCE_RULE", "BOOLEAN_INVARIANT", "BOUNDARY", "ROADMAP_LIMIT")


def _id_span(text: str, body: Span, key: str, value: str) -> Span | None:
    pattern = re.compile(r'"' + re.escape(key) + r'"\s*:\s*(' + re.escape(compact_json(value)) + ")")
    m = pattern.search(text, body.start, body.end)
    return Span(m.start(1), m.end(1)) if m else None


def _single_block(text: str, kind: str, code: str, plural_message: str) -> tuple[Any, Span] | None:
    blocks = reference_blocks(text, kind)
    if not blocks:
        return None
    if len(blocks) > 1:
        raise BlockError(code, plural_message.format(n=len(blocks)), blocks[1].open_span)
    block = blocks[0]
    return block, block.body_span


def _is_blank_string(v: Any) -> bool:
    return not isinstance(v, str) or js_trim(v) == ""


def read_contracts(text: str) -> list[Contract] | None:
    """The spec's ``gemstack-contracts`` block (``None`` when there is none).

    Raises ``BlockError`` with the reference's message when the block is malformed. Memoised by
    text (the contracts' ``raw`` members are shared: treat them as read-only).
    """
    outcome = _read_contracts(text)
    if isinstance(outcome, BlockError):
        # A fresh instance: re-raising the memoised one would grow its traceback on every call.
        raise BlockError(outcome.code, str(outcome), outcome.span)
    return None if outcome is None else list(outcome)


@functools.lru_cache(maxsize=64)
def _read_contracts(text: str) -> tuple[Contract, ...] | BlockError | None:
    try:
        found = _read_contracts_uncached(text)
    except BlockError as exc:
        return exc
    return None if found is None else tuple(found)


def _read_contracts_uncached(text: str) -> list[Contract] | None:
    found = _single_block(
        text,
        "gemstack-contracts",
        "CONTRACT_PARSE_ERROR",
        "Multiple gemstack-contracts blocks detected ({n}). Exactly one is permitted.",
    )
    if found is None:
        return None
    block, body = found
    try:
        data = parse_json(block.json_text)
    except ValueError as exc:
        raise BlockError("CONTRACT_PARSE_ERROR", f"Malformed JSON in gemstack-contracts block: {exc}", body) from exc
    if not isinstance(data, list):
        raise BlockError(
            "CONTRACT_INVALID_SHAPE", "gemstack-contracts content must be a JSON array of contract objects", body
        )
    out: list[Contract] = []
    seen: set[str] = set()
    for item in data:
        if not isinstance(item, dict):
            raise BlockError("CONTRACT_INVALID_SHAPE", "Each contract must be a non-null object", body)
        cid = item.get("id")
        if _is_blank_string(cid):
            raise BlockError("CONTRACT_INVALID_SHAPE", "Contract missing valid string id", body)
        assert isinstance(cid, str)
        span = _id_span(text, body, "id", cid)
        if cid in seen:
            raise BlockError("CONTRACT_DUPLICATE_ID", f'Duplicate contract ID detected: "{cid}"', span or body)
        seen.add(cid)
        ctype = item.get("type")
        if ctype not in CONTRACT_TYPES:
            raise BlockError(
                "CONTRACT_UNKNOWN_TYPE", f'Unknown contract type: "{ctype}" on contract "{cid}"', span or body
            )
        _check_contract_shape(cid, str(ctype), item, span or body)
        out.append(Contract(cid, str(ctype), item, span))
    return out


def _check_contract_shape(cid: str, ctype: str, item: Mapping[str, Any], span: Span) -> None:
    def fail(message: str) -> None:
        raise BlockError("CONTRACT_INVALID_SHAPE", message, span)

    if ctype in ("ENUM_SET", "IDENTITY_TUPLE", "PROVENANCE_RULE"):
        if ctype == "PROVENANCE_RULE" and _is_blank_string(item.get("entity")):
            fail(f'PROVENANCE_RULE contract "{cid}" requires a non-empty entity string')
        values = item.get("values")
        if not isinstance(values, list) or any(_is_blank_string(v) for v in values):
            fail(f'{ctype} contract "{cid}" requires a values array of non-empty strings')
        assert isinstance(values, list)
        if ctype != "PROVENANCE_RULE" and len({js_trim(v) for v in values}) != len(values):
            fail(f'{ctype} contract "{cid}" contains duplicate values')
    elif ctype == "BOOLEAN_INVARIANT":
        if not isinstance(item.get("value"), bool):
            fail(
                f'BOOLEAN_INVARIANT contract "{cid}" requires native boolean value, got {_js_typeof(item.get("value"))}'
            )
    elif ctype == "BOUNDARY":
        if item.get("value") not in ("FORBIDDEN", "REQUIRED"):
            fail(f'BOUNDARY contract "{cid}" requires value FORBIDDEN or REQUIRED')
    elif ctype == "ROADMAP_LIMIT":
        v = item.get("value")
        if isinstance(v, bool) or not isinstance(v, int | float | str):
            fail(f'ROADMAP_LIMIT contract "{cid}" requires a number or string value')


def _js_typeof(v: Any) -> str:
    if v is None:
        return "undefined"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int | float):
        return "number"
    if isinstance(v, str):
        return "string"
    return "object"


MATRIX_FIELDS = ("id", "category", "layer", "description", "pass_criteria", "gate")
SIGNATURE_ORDER = ("category", "description", "gate", "id", "layer", "pass_criteria")
_TEST_ID = re.compile(r"^TEST-[A-Z0-9]+-[A-Z0-9]+$")


@dataclass(frozen=True)
class TestMatrix:
    """The spec's acceptance matrix: its entries, the signature, and where each id sits."""

    entries: tuple[Mapping[str, str], ...]
    signature: str
    id_spans: Mapping[str, Span] = field(default_factory=dict)
    span: Span | None = None

    @property
    def ids(self) -> list[str]:
        return [e["id"] for e in self.entries]


def acceptance_signature(entries: list[Mapping[str, Any]]) -> str:
    """SHA-256 of the compact JSON of the entries sorted by id, keys in the reference's order."""
    ordered = sorted(entries, key=lambda e: utf16_key(str(e.get("id"))))
    payload = [{k: e.get(k) for k in SIGNATURE_ORDER} for e in ordered]
    return hashlib.sha256(compact_json(payload).encode("utf-8", "surrogatepass")).hexdigest()


def read_test_matrix(text: str) -> TestMatrix | None:
    """The spec's ``gemstack-test-matrix`` block (``None`` when absent); raises ``BlockError``."""
    outcome = _read_test_matrix(text)
    if isinstance(outcome, BlockError):
        # A fresh instance: re-raising the memoised one would grow its traceback on every call.
        raise BlockError(outcome.code, str(outcome), outcome.span)
    return outcome


@functools.lru_cache(maxsize=64)
def _read_test_matrix(text: str) -> TestMatrix | BlockError | None:
    try:
        return _read_test_matrix_uncached(text)
    except BlockError as exc:
        return exc


def _read_test_matrix_uncached(text: str) -> TestMatrix | None:
    found = _single_block(
        text,
        "gemstack-test-matrix",
        "TEST_MATRIX_PARSE_ERROR",
        "Multiple gemstack-test-matrix blocks detected ({n}). Exactly one is permitted.",
    )
    if found is None:
        return None
    block, body = found
    try:
        data = parse_json(block.json_text)
    except ValueError as exc:
        raise BlockError("TEST_MATRIX_PARSE_ERROR", f"Failed to parse gemstack-test-matrix JSON: {exc}", body) from exc
    if not isinstance(data, list):
        raise BlockError("TEST_MATRIX_INVALID_SHAPE", "gemstack-test-matrix must be a JSON array of test objects", body)
    seen: set[str] = set()
    spans: dict[str, Span] = {}
    for i, item in enumerate(data):
        shape = "TEST_MATRIX_INVALID_SHAPE"
        if not isinstance(item, dict):
            raise BlockError(shape, f"Item at index {i} in gemstack-test-matrix must be a non-null object", body)
        for k in item:
            if k not in MATRIX_FIELDS:
                raise BlockError(shape, f'Item at index {i} contains unknown field: "{k}"', body)
        for f in MATRIX_FIELDS:
            if f not in item:
                raise BlockError(shape, f'Item at index {i} missing required field: "{f}"', body)
            if _is_blank_string(item[f]):
                raise BlockError(shape, f'Item at index {i} field "{f}" must be a non-empty string', body)
        tid = item["id"]
        span = _id_span(text, body, "id", tid) or body
        if not _TEST_ID.match(tid):
            raise BlockError(
                shape, f'Item at index {i} has invalid ID "{tid}". Must match ^TEST-[A-Z0-9]+-[A-Z0-9]+$', span
            )
        if tid in seen:
            raise BlockError(
                "TEST_MATRIX_DUPLICATE_ID", f'Duplicate test ID detected in gemstack-test-matrix: "{tid}"', span
            )
        seen.add(tid)
        spans[tid] = span
        if item["layer"] not in ("UNIT", "INTEGRATION", "E2E", "CLI"):
            raise BlockError(shape, f'Item at index {i} has invalid layer "{item["layer"]}"', span)
        if item["gate"] not in ("REQUIRED", "SUPPLEMENTAL"):
            raise BlockError(shape, f'Item at index {i} has invalid gate "{item["gate"]}"', span)
    return TestMatrix(tuple(data), acceptance_signature(data), spans, body)


_ANY_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$")
_LIST_ITEM = re.compile(r"^[ \t]{0,3}(?:[-*+]|\d+[.)])[ \t]+(.*)$")


def _lines_lf(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def section_items(text: str, heading: re.Pattern[str]) -> list[str]:
    """The top-level list items of every section whose heading matches ``heading``.

    Fenced code inside the section is skipped; an item's continuation lines are joined to it.
    """
    out: list[str] = []
    level: int | None = None
    in_fence = False
    current: list[str] | None = None

    def flush() -> None:
        nonlocal current
        if current:
            out.append(" ".join(current))
        current = None

    for line in _lines_lf(text):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        h = _ANY_HEADING.match(line)
        if h:
            depth = len(h.group(1))
            if level is not None and depth <= level:
                flush()
                level = None
            if level is None and heading.search(h.group(2)):
                level = depth
            continue
        if level is None:
            continue
        m = _LIST_ITEM.match(line)
        if m:
            flush()
            current = [m.group(1).strip()]
        elif stripped and current is not None and line[:1] in (" ", "\t"):
            current.append(stripped)
        elif not stripped:
            flush()
    flush()
    return out


def first_heading(text: str) -> tuple[str, Span] | None:
    """The first ATX heading's text and the span of its line (the spec's title)."""
    pos = 0
    for raw in text.split("\n"):
        line = raw.rstrip("\r")
        h = _ANY_HEADING.match(line)
        if h:
            return h.group(2).strip(), Span(pos, pos + len(line))
        pos += len(raw) + 1
    return None


def plan_bound_files(text: str) -> list[str]:
    """The ``file`` of every entry in the plan's ``gemstack-test-bindings`` block (best effort)."""
    files: list[str] = []
    for block in reference_blocks(text, "gemstack-test-bindings"):
        try:
            data = parse_json(block.json_text)
        except ValueError:
            continue
        if isinstance(data, list):
            files.extend(str(e["file"]) for e in data if isinstance(e, dict) and isinstance(e.get("file"), str))
    return files
