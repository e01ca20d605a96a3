"""The ``gemstack-closure-gates`` block (plan.md): the package scripts that gate closure.

Rules, codes and messages are the reference's (section 9.4 of the reference notes and its
``parsePlanGates``), in its order; every violation is reported, not only the first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field
from typing import Any

from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks.base import BlockItem, BlockKindInfo, BlockResult, BlockSource, plain_items, read_block
from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jscompat import UNDEFINED, js_string
from gemstack_lsp.core.markdown import Fence
from gemstack_lsp.core.text import Span

KIND = kinds.CLOSURE_GATES

INFO = BlockKindInfo(
    KIND,
    "GATES_PARSE_ERROR",
    "Multiple gemstack-closure-gates blocks detected. Exactly one is permitted.",
    "Failed to parse gemstack-closure-gates JSON: ",
)

GATE_TYPES = ("PACKAGE_SCRIPT",)
REQUIREMENTS = ("REQUIRED", "SUPPLEMENTAL")


@record(eq=False)
class ClosureGate(BlockItem):
    """A package script that must (REQUIRED) or should (SUPPLEMENTAL) pass before closure."""

    id: str
    type: str
    script: str
    requirement: str
    waivable: bool
    #: The block the gate was read from and its place there (``BlockItem``: its node and span).
    source: BlockSource = field(repr=False)
    index: int = field(repr=False)

    @property
    def id_span(self) -> Span:
        return self.member_span("id")

    def _values(self) -> tuple[Any, ...]:
        return (self.id, self.type, self.script, self.requirement, self.waivable)


def parse_closure_gates(path: str, text: str, fences: Sequence[Fence] | None = None) -> BlockResult[ClosureGate]:
    """The closure gates of one document (the reference reads them from plan.md)."""
    return gates_of(read_block(path, text, INFO, fences, plain=True))


def gates_of(src: BlockSource) -> BlockResult[ClosureGate]:
    """The reference's rules over a located gates block (``read_block`` or ``read_reference_block``)."""
    return plain_items(src, "GATES_PARSE_ERROR", "gemstack-closure-gates must be a JSON array", _check_item)


def _check_item(src: BlockSource, i: int, item: Any, seen: set[str], out: list[Finding]) -> ClosureGate | None:
    """The reference's rules over the ``i``-th gate, read as plain values; a finding is placed on
    the member its rule is about, or on the gate when it lacks that member."""
    before = len(out)
    gid: str | None = None

    def bad(message: str, key: str | None = None) -> None:
        at = src.span_at((i, key) if key is not None and isinstance(item, dict) and key in item else (i,))
        out.append(src.finding("GATES_PARSE_ERROR", message, at, subject=gid))

    if not isinstance(item, dict):
        # The reference reads ``item.id`` even of a non-object item (and crashes on null): it has no id.
        bad(f"Gate at index {i} missing id")
        return None
    id_value = item.get("id", UNDEFINED)
    gid = _truthy_string(id_value)
    if gid is None:
        bad(f"Gate at index {i} missing id", "id")
    elif gid in seen:
        bad(f'Duplicate gate id detected: "{gid}"', "id")
    if gid is not None:
        seen.add(gid)
    shown = gid if gid is not None else js_string(id_value)
    type_value = item.get("type", UNDEFINED)
    gtype = type_value if isinstance(type_value, str) and type_value in GATE_TYPES else None
    if gtype is None:
        bad(f'Unsupported gate type: "{js_string(type_value)}". Only PACKAGE_SCRIPT is supported in MVP.', "type")
    script = _truthy_string(item.get("script", UNDEFINED))
    if gtype is not None and script is None:
        bad(f'PACKAGE_SCRIPT gate "{shown}" missing script name', "script")
    req_value = item.get("requirement", UNDEFINED)
    requirement = req_value if isinstance(req_value, str) and req_value in REQUIREMENTS else None
    if requirement is None:
        bad(f'Gate "{shown}" has invalid requirement: "{js_string(req_value)}"', "requirement")
    waivable = item.get("waivable", UNDEFINED)
    if requirement == "REQUIRED" and not isinstance(waivable, bool):
        bad(f'REQUIRED gate "{shown}" requires explicit boolean waivable property', "waivable")
    if len(out) != before or gid is None or gtype is None or script is None:
        return None
    assert requirement is not None
    return ClosureGate(gid, gtype, script, requirement, waivable if isinstance(waivable, bool) else False, src, i)


def _truthy_string(value: Any) -> str | None:
    """The value when it is a non-empty string (JavaScript's ``x && typeof x === 'string'``)."""
    return value if isinstance(value, str) and value else None
