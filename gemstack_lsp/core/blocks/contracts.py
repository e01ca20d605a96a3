"""The ``gemstack-contracts`` block: frozen contracts, their rules, and the phase comparison.

Rules, codes and messages are the reference's (section 9.1 of the reference notes), checked in
its order; unlike the reference, every violation is reported (one finding each, on the
narrowest span), not only the first. ``compare_phase`` is the reference's comparison of a
downstream phase's contracts (plan, tasks) with the upstream ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks.base import (
    BlockKindInfo,
    BlockResult,
    BlockSource,
    array_items,
    js_string,
    read_block,
)
from gemstack_lsp.core.findings import Finding, Fix, TextEdit
from gemstack_lsp.core.frozen import direct_init
from gemstack_lsp.core.jscompat import js_strict_equal, js_trim, utf16_key
from gemstack_lsp.core.jsonspan import (
    JsonArray,
    JsonBool,
    JsonNode,
    JsonNumber,
    JsonObject,
    JsonString,
    type_name,
)
from gemstack_lsp.core.markdown import Fence
from gemstack_lsp.core.text import Span

KIND = kinds.CONTRACTS
#: The block kinds that declare contracts: a phase's own, and the ones it inherits (Gemstack 2.0).
CONTRACT_KINDS = (KIND, kinds.INHERITED_CONTRACTS)

INFO = BlockKindInfo(
    KIND,
    "CONTRACT_PARSE_ERROR",
    "Multiple gemstack-contracts blocks detected ({n}). Exactly one is permitted.",
    "Malformed JSON in gemstack-contracts block: ",
)

CONTRACT_TYPES = (
    "ENUM_SET",
    "IDENTITY_TUPLE",
    "PROVENANCE_RULE",
    "BOOLEAN_INVARIANT",
    "BOUNDARY",
    "ROADMAP_LIMIT",
)

#: Types whose ``values`` are a set: trimmed and sorted before comparison.
SET_LIKE_TYPES = ("ENUM_SET", "IDENTITY_TUPLE", "PROVENANCE_RULE")

Scalar = bool | int | float | str | None


@direct_init
@dataclass(frozen=True)
class FrozenContract:
    """One contract as declared, with the spans of its parts.

    ``value`` is the declared scalar ``value`` (``None`` when absent or not a scalar),
    ``values`` the declared ``values`` strings as written (``None`` when absent).
    """

    id: str
    type: str
    value: Scalar
    values: tuple[str, ...] | None
    entity: str | None
    description: str | None
    span: Span
    id_span: Span
    type_span: Span
    node: JsonObject
    has_value: bool = False

    @property
    def value_span(self) -> Span:
        node = self.node.get("value")
        return node.span if node is not None else self.span

    @property
    def values_span(self) -> Span:
        node = self.node.get("values")
        return node.span if node is not None else self.span

    @property
    def entity_span(self) -> Span:
        node = self.node.get("entity")
        return node.span if node is not None else self.span

    def to_json(self) -> dict[str, Any]:
        """The contract object as ``JSON.parse`` gives it (every declared key)."""
        return self.node.to_python()

    def normalized_values(self) -> tuple[str, ...] | None:
        """``values`` trimmed and sorted by UTF-16 code units for set-like types (the reference's
        ``normalizeContract``); as declared otherwise."""
        if self.values is None or self.type not in SET_LIKE_TYPES:
            return self.values
        return tuple(sorted((js_trim(v) for v in self.values), key=utf16_key))


def parse_contracts(path: str, text: str, fences: Sequence[Fence] | None = None) -> BlockResult[FrozenContract]:
    """The contracts block of one document (spec.md, plan.md or tasks.md)."""
    return contracts_of(read_block(path, text, INFO, fences))


def contracts_of(src: BlockSource) -> BlockResult[FrozenContract]:
    """The reference's rules over a located contracts block (``read_block`` or ``read_reference_block``)."""
    message = f"{src.info.kind} content must be a JSON array of contract objects"
    return array_items(src, "CONTRACT_INVALID_SHAPE", message, _check_item)


def _removal_fix(src: BlockSource, i: int, item: JsonNode) -> tuple[Fix, ...]:
    """Remove the repeated contract: from the end of the item before it to its own end, so the
    separating comma goes with it and the array stays valid JSON."""
    root = src.root
    if not isinstance(root, JsonArray) or i == 0:
        return ()
    removal = Span(root.items[i - 1].span.end, item.span.end)
    return (Fix("Remove the duplicate contract", (TextEdit(src.path, removal, ""),)),)


def _check_item(src: BlockSource, i: int, item: JsonNode, seen: set[str], out: list[Finding]) -> FrozenContract | None:
    if not isinstance(item, JsonObject | JsonArray):
        out.append(src.finding("CONTRACT_INVALID_SHAPE", "Each contract must be a non-null object", item))
        return None
    before = len(out)
    obj = item if isinstance(item, JsonObject) else None
    id_node = obj.get("id") if obj is not None else None
    cid: str | None = None
    if isinstance(id_node, JsonString) and js_trim(id_node.value):
        cid = id_node.value
    else:
        out.append(src.finding("CONTRACT_INVALID_SHAPE", "Contract missing valid string id", id_node or item))
    if cid is not None and id_node is not None:
        if cid in seen:
            duplicate = src.finding(
                "CONTRACT_DUPLICATE_ID", f'Duplicate contract ID detected: "{cid}"', id_node, subject=cid
            )
            out.append(duplicate.with_fixes(*_removal_fix(src, i, item)))
        seen.add(cid)
    shown_id = cid if cid is not None else js_string(id_node)
    type_node = obj.get("type") if obj is not None else None
    ctype = type_node.value if isinstance(type_node, JsonString) and type_node.value in CONTRACT_TYPES else None
    if ctype is None:
        out.append(
            src.finding(
                "CONTRACT_UNKNOWN_TYPE",
                f'Unknown contract type: "{js_string(type_node)}" on contract "{shown_id}"',
                type_node or item,
                subject=cid,
            )
        )
    elif obj is not None:
        _check_type_rules(src, obj, ctype, shown_id, cid, out)
    if len(out) != before or obj is None or cid is None or ctype is None or id_node is None or type_node is None:
        return None
    return _contract(obj, cid, ctype, id_node, type_node)


def _check_type_rules(
    src: BlockSource, obj: JsonObject, ctype: str, shown_id: str, cid: str | None, out: list[Finding]
) -> None:
    def bad(message: str, at: JsonNode | None) -> None:
        out.append(src.finding("CONTRACT_INVALID_SHAPE", message, at or obj, subject=cid))

    values = obj.get("values")
    value = obj.get("value")
    if ctype in ("ENUM_SET", "IDENTITY_TUPLE"):
        enum = ctype == "ENUM_SET"
        if not isinstance(values, JsonArray):
            bad(
                f'ENUM_SET "{shown_id}" requires a values array'
                if enum
                else f'IDENTITY_TUPLE "{shown_id}" requires a values array of dimensions',
                values,
            )
            return
        seen_values: set[str] = set()
        for v in values.items:
            if not isinstance(v, JsonString) or not js_trim(v.value):
                bad(
                    f'ENUM_SET "{shown_id}" contains empty or non-string member'
                    if enum
                    else f'IDENTITY_TUPLE "{shown_id}" contains invalid dimension string',
                    v,
                )
                continue
            trimmed = js_trim(v.value)
            if trimmed in seen_values:
                bad(
                    f'ENUM_SET "{shown_id}" contains duplicate value "{v.value}"'
                    if enum
                    else f'IDENTITY_TUPLE "{shown_id}" contains duplicate dimension "{v.value}"',
                    v,
                )
            seen_values.add(trimmed)
    elif ctype == "PROVENANCE_RULE":
        entity = obj.get("entity")
        if not isinstance(entity, JsonString) or not js_trim(entity.value):
            bad(f'PROVENANCE_RULE "{shown_id}" requires an entity string', entity)
        if not isinstance(values, JsonArray):
            bad(f'PROVENANCE_RULE "{shown_id}" requires a values array of provenance fields', values)
            return
        for v in values.items:
            if not isinstance(v, JsonString) or not js_trim(v.value):
                bad(f'PROVENANCE_RULE "{shown_id}" contains invalid field string', v)
    elif ctype == "BOOLEAN_INVARIANT":
        if not isinstance(value, JsonBool):
            bad(f'BOOLEAN_INVARIANT "{shown_id}" requires native boolean value, got {type_name(value)}', value)
    elif ctype == "BOUNDARY":
        if not (isinstance(value, JsonString) and value.value in ("FORBIDDEN", "REQUIRED")):
            bad(
                f'BOUNDARY "{shown_id}" value must be strictly "FORBIDDEN" or "REQUIRED", got "{js_string(value)}"',
                value,
            )
    elif ctype == "ROADMAP_LIMIT" and not isinstance(value, JsonNumber | JsonString):
        bad(f'ROADMAP_LIMIT "{shown_id}" value must be a number or string', value)


def _contract(obj: JsonObject, cid: str, ctype: str, id_node: JsonNode, type_node: JsonNode) -> FrozenContract:
    value_node = obj.get("value")
    value: Scalar = None
    if isinstance(value_node, JsonString | JsonNumber | JsonBool):
        value = value_node.value
    values_node = obj.get("values")
    values: tuple[str, ...] | None = None
    if isinstance(values_node, JsonArray):
        values = tuple(v.value if isinstance(v, JsonString) else js_string(v) for v in values_node.items)
    entity_node = obj.get("entity")
    description_node = obj.get("description")
    return FrozenContract(
        id=cid,
        type=ctype,
        value=value,
        values=values,
        entity=entity_node.value if isinstance(entity_node, JsonString) else None,
        description=description_node.value if isinstance(description_node, JsonString) else None,
        span=obj.span,
        id_span=id_node.span,
        type_span=type_node.span,
        node=obj,
        has_value=value_node is not None,
    )


# ---------------------------------------------------------------------------------------------
# Phase comparison


@dataclass(frozen=True)
class Violation:
    """A downstream redeclaration that contradicts an upstream frozen contract.

    ``delta`` has the reference's shape for the violation type (``{expectedType,
    observedType}``, ``{added, missing}``, ``{entityExpected, entityObserved, added, missing}``
    or ``{expected, observed}``).
    """

    contract_id: str
    phase: str
    violation_type: str
    delta: Mapping[str, Any] = field(hash=False)
    upstream: FrozenContract = field(hash=False)
    downstream: FrozenContract = field(hash=False)
    code: str = "FROZEN_CONTRACT_VIOLATION"

    @property
    def span(self) -> Span:
        """The narrowest part of the downstream contract that contradicts the upstream one."""
        d = self.downstream
        if self.violation_type == "TYPE_MUTATION":
            return d.type_span
        if self.violation_type in ("ENUM_SET_MISMATCH", "IDENTITY_TUPLE_MISMATCH"):
            return d.values_span
        if self.violation_type == "PROVENANCE_MISMATCH":
            return d.entity_span if self.delta["entityExpected"] != self.delta["entityObserved"] else d.values_span
        return d.value_span

    @property
    def message(self) -> str:
        """A one-line description for people (the reference prints none of its own)."""
        d = self.delta
        what = f'Frozen contract "{self.contract_id}" is contradicted in {self.phase} ({self.violation_type})'
        if self.violation_type == "TYPE_MUTATION":
            return f"{what}: type {d['expectedType']} became {d['observedType']}."
        if "added" in d:
            parts = []
            if "entityExpected" in d and d["entityExpected"] != d["entityObserved"]:
                parts.append(f"entity {d['entityExpected']!r} became {d['entityObserved']!r}")
            if d["added"]:
                parts.append("added " + ", ".join(map(str, d["added"])))
            if d["missing"]:
                parts.append("missing " + ", ".join(map(str, d["missing"])))
            if not parts:
                parts.append("the number of dimensions differs")
            return f"{what}: {'; '.join(parts)}."
        return f"{what}: expected {_js_repr(d['expected'])}, observed {_js_repr(d['observed'])}."


def _js_repr(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "undefined"
    if isinstance(v, str):
        return f'"{v}"'
    return str(v)


def _sorted(values: Iterable[str]) -> list[str]:
    return sorted(values, key=utf16_key)


def compare_phase(
    upstream: Sequence[FrozenContract], downstream: Sequence[FrozenContract], phase: str
) -> list[Violation]:
    """The reference's ``comparePhaseContracts``: one violation per contradicted upstream contract.

    A contract the downstream phase does not redeclare is inherited (fine); downstream-only ids
    are additive (fine). When the downstream declares an id twice, the last one counts.
    """
    current = {c.id: c for c in downstream}
    out: list[Violation] = []
    for up in upstream:
        found = current.get(up.id)
        if found is None:
            continue
        cur = found

        def violation(kind: str, delta: dict[str, Any], up: FrozenContract = up, cur: FrozenContract = cur) -> None:
            out.append(Violation(up.id, phase, kind, delta, up, cur))

        if cur.type != up.type:
            violation("TYPE_MUTATION", {"expectedType": up.type, "observedType": cur.type})
            continue
        up_values = list(up.normalized_values() or ())
        cur_values = list(cur.normalized_values() or ())
        up_set, cur_set = set(up_values), set(cur_values)
        added = _sorted(v for v in cur_values if v not in up_set)
        missing = _sorted(v for v in up_values if v not in cur_set)
        if up.type == "ENUM_SET":
            if added or missing:
                violation("ENUM_SET_MISMATCH", {"added": added, "missing": missing})
        elif up.type == "IDENTITY_TUPLE":
            if added or missing or len(up_values) != len(cur_values):
                violation("IDENTITY_TUPLE_MISMATCH", {"added": added, "missing": missing})
        elif up.type == "PROVENANCE_RULE":
            if up.entity != cur.entity or added or missing:
                violation(
                    "PROVENANCE_MISMATCH",
                    {"entityExpected": up.entity, "entityObserved": cur.entity, "added": added, "missing": missing},
                )
        elif up.type == "BOOLEAN_INVARIANT":
            if not js_strict_equal(up.value, cur.value):
                violation("BOOLEAN_CONTRADICTION", {"expected": up.value, "observed": cur.value})
        elif up.type == "BOUNDARY":
            if not js_strict_equal(up.value, cur.value):
                violation("BOUNDARY_CONTRADICTION", {"expected": up.value, "observed": cur.value})
        elif up.type == "ROADMAP_LIMIT" and not js_strict_equal(up.value, cur.value):
            violation("ROADMAP_LIMIT_MISMATCH", {"expected": up.value, "observed": cur.value})
    return out


def effective_contracts(
    upstream: Sequence[FrozenContract], downstream: Sequence[FrozenContract]
) -> list[FrozenContract]:
    """The reference's ``resolvePhaseInheritance``: upstream contracts, then downstream-only additions.

    (The reference also normalises each contract's values; use ``normalized_values`` for that.)
    """
    effective: dict[str, FrozenContract] = {}
    for c in upstream:
        effective[c.id] = c
    for c in downstream:
        effective.setdefault(c.id, c)
    return list(effective.values())
