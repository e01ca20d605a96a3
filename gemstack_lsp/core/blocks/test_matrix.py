"""The ``gemstack-test-matrix`` block (spec.md): canonical acceptance tests and their signature.

Rules, codes and messages are the reference's (section 9.2 of the reference notes), in its
order; every violation is reported, not only the first. ``acceptance_signature`` is the
reference's sha256 over the sorted, key-ordered entries.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks.base import (
    BlockKindInfo,
    BlockResult,
    BlockSource,
    array_items,
    js_string,
    read_block,
)
from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.frozen import direct_init
from gemstack_lsp.core.jscompat import js_property_order, js_trim, json_stringify, utf16_key
from gemstack_lsp.core.jsonspan import JsonNode, JsonObject, JsonString
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


@direct_init
@dataclass(frozen=True)
class TestMatrixEntry:
    """One canonical acceptance test."""

    __test__ = False  # not a pytest test class, whatever its name says

    id: str
    category: str
    layer: str
    description: str
    pass_criteria: str
    gate: str
    span: Span
    id_span: Span
    node: JsonObject

    def record(self) -> dict[str, str]:
        return {k: getattr(self, k) for k in REQUIRED_FIELDS}


def parse_test_matrix(path: str, text: str, fences: Sequence[Fence] | None = None) -> BlockResult[TestMatrixEntry]:
    """The test matrix of one document (the reference reads it from spec.md)."""
    return matrix_of(read_block(path, text, INFO, fences))


def matrix_of(src: BlockSource) -> BlockResult[TestMatrixEntry]:
    """The reference's rules over a located matrix block (``read_block`` or ``read_reference_block``)."""
    message = "gemstack-test-matrix must be a JSON array of test objects"
    return array_items(src, "TEST_MATRIX_INVALID_SHAPE", message, _check_item)


def _check_item(src: BlockSource, i: int, item: JsonNode, seen: set[str], out: list[Finding]) -> TestMatrixEntry | None:
    def bad(message: str, at: JsonNode | JsonString | Span | None, code: str = "TEST_MATRIX_INVALID_SHAPE") -> None:
        out.append(src.finding(code, message, at or item, subject=subject))

    subject: str | None = None
    if not isinstance(item, JsonObject):
        bad(f"Item at index {i} in gemstack-test-matrix must be a non-null object", item)
        return None
    before = len(out)
    id_node = item.get("id")
    if isinstance(id_node, JsonString) and js_trim(id_node.value):
        subject = id_node.value
    keys = item.keys()
    if not _REQUIRED.issuperset(keys):  # an unknown field (most items have none to look for)
        for k in js_property_order(keys):
            if k not in REQUIRED_FIELDS:
                member = item.member(k)
                bad(f'Item at index {i} contains unknown field: "{k}"', member.key if member else item)
    values: dict[str, str] = {}
    for rf in REQUIRED_FIELDS:
        node = item.get(rf)
        if node is None:
            bad(f'Item at index {i} missing required field: "{rf}"', item)
        elif not isinstance(node, JsonString) or not js_trim(node.value):
            bad(f'Item at index {i} field "{rf}" must be a non-empty string', node)
        else:
            values[rf] = node.value
    tid = values.get("id")
    if tid is not None and id_node is not None:
        if not _ID_RE.fullmatch(tid):
            bad(f'Item at index {i} has invalid ID "{tid}". Must match {ID_PATTERN}', id_node)
        if tid in seen:
            bad(f'Duplicate test ID detected in gemstack-test-matrix: "{tid}"', id_node, "TEST_MATRIX_DUPLICATE_ID")
        seen.add(tid)
    shown = tid if tid is not None else js_string(id_node)
    layer = values.get("layer")
    if layer is not None and layer not in LAYERS:
        bad(f'Item "{shown}" has invalid layer "{layer}". Must be one of: {", ".join(LAYERS)}', item.get("layer"))
    gate = values.get("gate")
    if gate is not None and gate not in GATES:
        bad(f'Item "{shown}" has invalid gate "{gate}". Must be one of: {", ".join(GATES)}', item.get("gate"))
    if len(out) != before or id_node is None:
        return None
    return TestMatrixEntry(
        id=values["id"],
        category=values["category"],
        layer=values["layer"],
        description=values["description"],
        pass_criteria=values["pass_criteria"],
        gate=values["gate"],
        span=item.span,
        id_span=id_node.span,
        node=item,
    )


def acceptance_signature(entries: Iterable[TestMatrixEntry | Mapping[str, str]]) -> str:
    """The reference's acceptance signature: sha256 of the compact JSON of the entries sorted by
    id (UTF-16 code units), each with the keys category, description, gate, id, layer,
    pass_criteria in that order."""
    records = [e.record() if isinstance(e, TestMatrixEntry) else dict(e) for e in entries]
    records.sort(key=lambda r: utf16_key(r["id"]))
    normalized = [{k: r[k] for k in SIGNATURE_KEYS} for r in records]
    return hashlib.sha256(utf8(json_stringify(normalized))).hexdigest()
