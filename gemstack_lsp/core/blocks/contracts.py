"""The ``gemstack-contracts`` block: frozen contracts, their rules, and the phase comparison.

Rules, codes and messages are the reference's (section 9.1 of the reference notes), checked in
its order; unlike the reference, every violation is reported (one finding each, on the
narrowest span), not only the first. ``compare_phase`` is the reference's comparison of a
downstream phase's contracts (plan, tasks) with the upstream ones.
"""

from __future__ import annotations

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
from gemstack_lsp.core.findings import Finding, Fix, TextEdit
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jscompat import UNDEFINED, js_strict_equal, js_string, js_trim, js_typeof, utf16_key
from gemstack_lsp.core.jsonspan import JsonArray
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


@record(eq=False)
class FrozenContract(BlockItem):
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
    has_value: bool = False
    #: The block the contract was read from and its place there (``BlockItem``).
    source: BlockSource | None = field(default=None, repr=False)
    index: int = field(default=0, repr=False)

    @property
    def id_span(self) -> Span:
        return self.member_span("id")

    @property
    def type_span(self) -> Span:
        return self.member_span("type")

    def _values(self) -> tuple[Any, ...]:
        return (self.id, self.type, self.value, self.values, self.entity, self.description, self.has_value)

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

    def normalized_values(self) -> tuple[str, ...] | None:
        """``values`` trimmed and sorted by UTF-16 code units for set-like types (the reference's
        ``normalizeContract``); as declared otherwise."""
        if self.values is None or self.type not in SET_LIKE_TYPES:
            return self.values
        return tuple(sorted((js_trim(v) for v in self.values), key=utf16_key))


def parse_contracts(path: str, text: str, fences: Sequence[Fence] | None = None) -> BlockResult[FrozenContract]:
    """The contracts block of one document (spec.md, plan.md or tasks.md)."""
    return contracts_of(read_block(path, text, INFO, fences, plain=True))


def contracts_of(src: BlockSource) -> BlockResult[FrozenContract]:
    """The reference's rules over a located contracts block (``read_block`` or ``read_reference_block``)."""
    message = f"{src.info.kind} content must be a JSON array of contract objects"
    return plain_items(src, "CONTRACT_INVALID_SHAPE", message, _check_item)


def _removal_fix(src: BlockSource, i: int) -> tuple[Fix, ...]:
    """Remove the repeated contract: from the end of the item before it to its own end, so the
    separating comma goes with it and the array stays valid JSON."""
    root = src.root
    if not isinstance(root, JsonArray) or i == 0:
        return ()
    removal = Span(root.items[i - 1].span.end, root.items[i].span.end)
    return (Fix("Remove the duplicate contract", (TextEdit(src.path, removal, ""),)),)


def _check_item(src: BlockSource, i: int, item: Any, seen: set[str], out: list[Finding]) -> FrozenContract | None:
    """The reference's rules over the ``i``-th contract, read as plain values; a finding is
    placed on the value its rule is about (the contract when that value is missing), through
    the block's tree."""

    def at(key: str | None = None) -> Span | None:
        return src.span_at((i, key) if key is not None and obj is not None and key in obj else (i,))

    if not isinstance(item, dict | list):
        out.append(src.finding("CONTRACT_INVALID_SHAPE", "Each contract must be a non-null object", src.span_at((i,))))
        return None
    before = len(out)
    obj = item if isinstance(item, dict) else None
    id_value = obj.get("id", UNDEFINED) if obj is not None else UNDEFINED
    cid = id_value if isinstance(id_value, str) and js_trim(id_value) else None
    if cid is None:
        out.append(src.finding("CONTRACT_INVALID_SHAPE", "Contract missing valid string id", at("id")))
    else:
        if cid in seen:
            duplicate = src.finding(
                "CONTRACT_DUPLICATE_ID", f'Duplicate contract ID detected: "{cid}"', at("id"), subject=cid
            )
            out.append(duplicate.with_fixes(*_removal_fix(src, i)))
        seen.add(cid)
    shown_id = cid if cid is not None else js_string(id_value)
    type_value = obj.get("type", UNDEFINED) if obj is not None else UNDEFINED
    ctype = type_value if isinstance(type_value, str) and type_value in CONTRACT_TYPES else None
    if ctype is None:
        out.append(
            src.finding(
                "CONTRACT_UNKNOWN_TYPE",
                f'Unknown contract type: "{js_string(type_value)}" on contract "{shown_id}"',
                at("type"),
                subject=cid,
            )
        )
    elif obj is not None:
        _check_type_rules(src, i, obj, ctype, shown_id, cid, out)
    if len(out) != before or obj is None or cid is None or ctype is None:
        return None
    return _contract(src, i, obj, cid, ctype)


def _check_type_rules(
    src: BlockSource, i: int, obj: dict[str, Any], ctype: str, shown_id: str, cid: str | None, out: list[Finding]
) -> None:
    def bad(message: str, *path: str | int) -> None:
        # On the value the rule is about; on the contract when that value is missing.
        span = src.span_at((i, *path)) if path and path[0] in obj else src.span_at((i,))
        out.append(src.finding("CONTRACT_INVALID_SHAPE", message, span, subject=cid))

    values = obj.get("values", UNDEFINED)
    value = obj.get("value", UNDEFINED)
    if ctype in ("ENUM_SET", "IDENTITY_TUPLE"):
        enum = ctype == "ENUM_SET"
        if not isinstance(values, list):
            bad(
                f'ENUM_SET "{shown_id}" requires a values array'
                if enum
                else f'IDENTITY_TUPLE "{shown_id}" requires a values array of dimensions',
                "values",
            )
            return
        seen_values: set[str] = set()
        for j, v in enumerate(values):
            if not isinstance(v, str) or not js_trim(v):
                bad(
                    f'ENUM_SET "{shown_id}" contains empty or non-string member'
                    if enum
                    else f'IDENTITY_TUPLE "{shown_id}" contains invalid dimension string',
                    "values",
                    j,
                )
                continue
            trimmed = js_trim(v)
            if trimmed in seen_values:
                bad(
                    f'ENUM_SET "{shown_id}" contains duplicate value "{v}"'
                    if enum
                    else f'IDENTITY_TUPLE "{shown_id}" contains duplicate dimension "{v}"',
                    "values",
                    j,
                )
            seen_values.add(trimmed)
    elif ctype == "PROVENANCE_RULE":
        entity = obj.get("entity", UNDEFINED)
        if not isinstance(entity, str) or not js_trim(entity):
            bad(f'PROVENANCE_RULE "{shown_id}" requires an entity string', "entity")
        if not isinstance(values, list):
            bad(f'PROVENANCE_RULE "{shown_id}" requires a values array of provenance fields', "values")
            return
        for j, v in enumerate(values):
            if not isinstance(v, str) or not js_trim(v):
                bad(f'PROVENANCE_RULE "{shown_id}" contains invalid field string', "values", j)
    elif ctype == "BOOLEAN_INVARIANT":
        if not isinstance(value, bool):
            bad(f'BOOLEAN_INVARIANT "{shown_id}" requires native boolean value, got {js_typeof(value)}', "value")
    elif ctype == "BOUNDARY":
        if not (isinstance(value, str) and value in ("FORBIDDEN", "REQUIRED")):
            bad(
                f'BOUNDARY "{shown_id}" value must be strictly "FORBIDDEN" or "REQUIRED", got "{js_string(value)}"',
                "value",
            )
    elif ctype == "ROADMAP_LIMIT" and not (
        isinstance(value, str) or (isinstance(value, int | float) and not isinstance(value, bool))
    ):
        bad(f'ROADMAP_LIMIT "{shown_id}" value must be a number or string', "value")


def _contract(src: BlockSource, i: int, obj: dict[str, Any], cid: str, ctype: str) -> FrozenContract:
    value = obj.get("value", UNDEFINED)
    values = obj.get("values")
    entity = obj.get("entity")
    description = obj.get("description")
    return FrozenContract(
        id=cid,
        type=ctype,
        value=value if isinstance(value, str | int | float) else None,
        values=tuple(v if isinstance(v, str) else js_string(v) for v in values) if isinstance(values, list) else None,
        entity=entity if isinstance(entity, str) else None,
        description=description if isinstance(description, str) else None,
        has_value=value is not UNDEFINED,
        source=src,
        index=i,
    )


# ---------------------------------------------------------------------------------------------
# Phase comparison


@record
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
