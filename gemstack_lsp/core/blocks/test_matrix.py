"""The ``gemstack-test-matrix`` block (spec.md): canonical acceptance tests and their signature.

Rules, codes and messages are the reference's (section 9.2 of the reference notes), in its
order; every violation is reported, not only the first. ``acceptance_signature`` is the
reference's sha256 over the sorted, key-ordered entries.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from typing import Any

from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks.base import (
    BlockItem,
    BlockKindInfo,
    BlockResult,
    BlockSource,
    plain_items,
    read_block,
)
from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jscompat import UNDEFINED, js_property_order, js_string, js_trim, json_stringify, utf16_key
from gemstack_lsp.core.markdown import Fence
from gemstack_lsp.core.text import Span, utf8

KIND = kinds.TEST_MATRIX

INFO = BlockKindInfo(
    KIND,
    "TEST_MATRIX_PARSE_ERROR",
    "Multiple gemstack-test-matrix blocks detected ({n}). Exactly one is permitted.",
    "Failed to parse gemstack-test-matrix JSON: ",
)

LAYERS = ("UNIT", "INTEGRATION", "E2E", "CLI")
GATES = ("REQUIRED", "SUPPLEMENTAL")
REQUIRED_FIELDS = ("id", "category", "layer", "description", "pass_criteria", "gate")
_REQUIRED = frozenset(REQUIRED_FIELDS)
ID_PATTERN = "^TEST-[A-Z0-9]+-[A-Z0-9]+$"
_ID_RE = re.compile(r"TEST-[A-Z0-9]+-[A-Z0-9]+")

#: The key order of each record in the acceptance signature.
SIGNATURE_KEYS = ("category", "description", "gate", "id", "layer", "pass_criteria")


@record(eq=False)
class TestMatrixEntry(BlockItem):
    """One canonical acceptance test."""

    __test__ = False  # not a pytest test class, whatever its name says

    id: str
    category: str
    layer: str
    description: str
    pass_criteria: str
    gate: str
    #: The block the entry was read from and its place there (``BlockItem``).
    source: BlockSource = field(repr=False)
    index: int = field(repr=False)

    @property
    def id_span(self) -> Span:
        return self.member_span("id")

    def record(self) -> dict[str, str]:
        return {k: getattr(self, k) for k in REQUIRED_FIELDS}

    def _values(self) -> tuple[Any, ...]:
        return tuple(self.record().values())


def parse_test_matrix(path: str, text: str, fences: Sequence[Fence] | None = None) -> BlockResult[TestMatrixEntry]:
    """The test matrix of one document (the reference reads it from spec.md)."""
    return matrix_of(read_block(path, text, INFO, fences, plain=True))


def matrix_of(src: BlockSource) -> BlockResult[TestMatrixEntry]:
    """The reference's rules over a located matrix block (``read_block`` or ``read_reference_block``)."""
    message = "gemstack-test-matrix must be a JSON array of test objects"
    return plain_items(src, "TEST_MATRIX_INVALID_SHAPE", message, _check_item)


def _check_item(src: BlockSource, i: int, item: Any, seen: set[str], out: list[Finding]) -> TestMatrixEntry | None:
    """The reference's rules over the ``i``-th entry, read as plain values; a finding is placed
    on the value (or the key) its rule is about, through the block's tree."""

    def bad(message: str, at: Span | None, code: str = "TEST_MATRIX_INVALID_SHAPE") -> None:
        out.append(src.finding(code, message, at, subject=subject))

    def at(*path: str) -> Span | None:
        return src.span_at((i, *path))

    subject: str | None = None
    if not isinstance(item, dict):
        bad(f"Item at index {i} in gemstack-test-matrix must be a non-null object", at())
        return None
    before = len(out)
    tid_value = item.get("id", UNDEFINED)
    if isinstance(tid_value, str) and js_trim(tid_value):
        subject = tid_value
    if not _REQUIRED.issuperset(item):  # an unknown field (most items have none to look for)
        for k in js_property_order(list(item)):
            if k not in REQUIRED_FIELDS:
                bad(f'Item at index {i} contains unknown field: "{k}"', src.key_span_at((i,), k))
    values: dict[str, str] = {}
    for rf in REQUIRED_FIELDS:
        value = item.get(rf, UNDEFINED)
        if value is UNDEFINED:
            bad(f'Item at index {i} missing required field: "{rf}"', at())
        elif not isinstance(value, str) or not js_trim(value):
            bad(f'Item at index {i} field "{rf}" must be a non-empty string', at(rf))
        else:
            values[rf] = value
    tid = values.get("id")
    if tid is not None:
        if not _ID_RE.fullmatch(tid):
            bad(f'Item at index {i} has invalid ID "{tid}". Must match {ID_PATTERN}', at("id"))
        if tid in seen:
            bad(f'Duplicate test ID detected in gemstack-test-matrix: "{tid}"', at("id"), "TEST_MATRIX_DUPLICATE_ID")
        seen.add(tid)
    shown = tid if tid is not None else js_string(tid_value)
    layer = values.get("layer")
    if layer is not None and layer not in LAYERS:
        bad(f'Item "{shown}" has invalid layer "{layer}". Must be one of: {", ".join(LAYERS)}', at("layer"))
    gate = values.get("gate")
    if gate is not None and gate not in GATES:
        bad(f'Item "{shown}" has invalid gate "{gate}". Must be one of: {", ".join(GATES)}', at("gate"))
    if len(out) != before or "id" not in item:
        return None
    return TestMatrixEntry(
        id=values["id"],
        category=values["category"],
        layer=values["layer"],
        description=values["description"],
        pass_criteria=values["pass_criteria"],
        gate=values["gate"],
        source=src,
        index=i,
    )


def acceptance_signature(entries: Iterable[TestMatrixEntry | Mapping[str, str]]) -> str:
    """The reference's acceptance signature: sha256 of the compact JSON of the entries sorted by
    id (UTF-16 code units), each with the keys category, description, gate, id, layer,
    pass_criteria in that order."""
    records = [e.record() if isinstance(e, TestMatrixEntry) else dict(e) for e in entries]
    records.sort(key=lambda r: utf16_key(r["id"]))
    normalized = [{k: r[k] for k in SIGNATURE_KEYS} for r in records]
    return hashlib.sha256(utf8(json_stringify(normalized))).hexdigest()
