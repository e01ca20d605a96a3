"""The ``gemstack-closure-gates`` block (plan.md): the package scripts that gate closure.

Rules, codes and messages are the reference's (section 9.4 of the reference notes and its
``parsePlanGates``), in its order; every violation is reported, not only the first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks.base import (
    BlockKindInfo,
    BlockResult,
    BlockSource,
    array_items,
    js_string,
    js_truthy_string,
    read_block,
)
from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.jsonspan import JsonBool, JsonNode, JsonObject, JsonString
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


@dataclass(frozen=True)
class ClosureGate:
    """A package script that must (REQUIRED) or should (SUPPLEMENTAL) pass before closure."""

    id: str
    type: str
    script: str
    requirement: str
    waivable: bool
    span: Span
    id_span: Span
    node: JsonObject


def parse_closure_gates(path: str, text: str, fences: Sequence[Fence] | None = None) -> BlockResult[ClosureGate]:
    """The closure gates of one document (the reference reads them from plan.md)."""
    return gates_of(read_block(path, text, INFO, fences))


def gates_of(src: BlockSource) -> BlockResult[ClosureGate]:
    """The reference's rules over a located gates block (``read_block`` or ``read_reference_block``)."""
    return array_items(src, "GATES_PARSE_ERROR", "gemstack-closure-gates must be a JSON array", _check_item)


def _check_item(src: BlockSource, i: int, item: JsonNode, seen: set[str], out: list[Finding]) -> ClosureGate | None:
    obj = item if isinstance(item, JsonObject) else None
    before = len(out)

    def bad(message: str, at: JsonNode | None) -> None:
        out.append(src.finding("GATES_PARSE_ERROR", message, at or item, subject=gid))

    if obj is None:
        # The reference reads ``item.id`` even of a non-object item (and crashes on null): it has no id.
        gid: str | None = None
        bad(f"Gate at index {i} missing id", item)
        return None
    id_node = obj.get("id")
    gid = js_truthy_string(id_node)
    if gid is None:
        bad(f"Gate at index {i} missing id", id_node)
    elif gid in seen:
        bad(f'Duplicate gate id detected: "{gid}"', id_node)
    if gid is not None:
        seen.add(gid)
    shown = gid if gid is not None else js_string(id_node)
    type_node = obj.get("type")
    gtype = type_node.value if isinstance(type_node, JsonString) and type_node.value in GATE_TYPES else None
    if gtype is None:
        bad(f'Unsupported gate type: "{js_string(type_node)}". Only PACKAGE_SCRIPT is supported in MVP.', type_node)
    script_node = obj.get("script")
    script = js_truthy_string(script_node)
    if gtype is not None and script is None:
        bad(f'PACKAGE_SCRIPT gate "{shown}" missing script name', script_node)
    req_node = obj.get("requirement")
    requirement = req_node.value if isinstance(req_node, JsonString) and req_node.value in REQUIREMENTS else None
    if requirement is None:
        bad(f'Gate "{shown}" has invalid requirement: "{js_string(req_node)}"', req_node)
    waivable_node = obj.get("waivable")
    if requirement == "REQUIRED" and not isinstance(waivable_node, JsonBool):
        bad(f'REQUIRED gate "{shown}" requires explicit boolean waivable property', waivable_node)
    if len(out) != before or gid is None or id_node is None or gtype is None or script is None:
        return None
    assert requirement is not None
    waivable = waivable_node.value if isinstance(waivable_node, JsonBool) else False
    return ClosureGate(gid, gtype, script, requirement, waivable, obj.span, id_node.span, obj)
