"""gemstack-contracts: one test per rule of the reference (section 9.1), and the phase comparison."""

from __future__ import annotations

import pytest

from gemstack_lsp.core.blocks.contracts import (
    FrozenContract,
    compare_phase,
    effective_contracts,
    parse_contracts,
)
from tests.conftest import covered

KIND = "gemstack-contracts"


def doc(body: str) -> str:
    return f"# Spec\n\n```{KIND}\n{body}\n```\n"


def only(body: str) -> tuple[str, str, str]:
    """The single finding of a block: (code, message, the text its span covers)."""
    text = doc(body)
    result = parse_contracts("specs/x/spec.md", text)
    assert len(result.findings) == 1, result.findings
    (found,) = covered(text, result.findings)
    return found


def contracts(body: str) -> list[FrozenContract]:
    result = parse_contracts("specs/x/spec.md", doc(body))
    assert result.findings == ()
    return list(result.items)


def test_absent_block_is_legacy() -> None:
    result = parse_contracts("spec.md", "# nothing\n")
    assert not result.present and result.items == () and result.findings == ()


def test_multiple_blocks() -> None:
    text = doc("[]") + "\n" + doc("[]")
    result = parse_contracts("spec.md", text)
    (f,) = result.findings
    assert (f.code, f.message) == (
        "CONTRACT_PARSE_ERROR",
        "Multiple gemstack-contracts blocks detected (2). Exactly one is permitted.",
    )
    assert f.span is not None and f.span.start == text.index("```gemstack-contracts", 10)


def test_malformed_json() -> None:
    code, message, token = only('[{"id": "a" "type": "BOUNDARY"}]')
    assert code == "CONTRACT_PARSE_ERROR"
    assert message.startswith("Malformed JSON in gemstack-contracts block: ")
    assert token == '"'


def test_content_must_be_an_array() -> None:
    assert only('{"id": "a"}') == (
        "CONTRACT_INVALID_SHAPE",
        "gemstack-contracts content must be a JSON array of contract objects",
        '{"id": "a"}',
    )


RULES = [
    ("non_object", "[null]", "CONTRACT_INVALID_SHAPE", "Each contract must be a non-null object", "null"),
    ("non_object_number", "[3]", "CONTRACT_INVALID_SHAPE", "Each contract must be a non-null object", "3"),
    (
        "missing_id",
        '[{"type": "BOUNDARY", "value": "REQUIRED"}]',
        "CONTRACT_INVALID_SHAPE",
        "Contract missing valid string id",
        '{"type": "BOUNDARY", "value": "REQUIRED"}',
    ),
    (
        "blank_id",
        '[{"id": " ", "type": "BOUNDARY", "value": "REQUIRED"}]',
        "CONTRACT_INVALID_SHAPE",
        "Contract missing valid string id",
        '" "',
    ),
    (
        "unknown_type",
        '[{"id": "a", "type": "MAGIC"}]',
        "CONTRACT_UNKNOWN_TYPE",
        'Unknown contract type: "MAGIC" on contract "a"',
        '"MAGIC"',
    ),
    (
        "missing_type",
        '[{"id": "a"}]',
        "CONTRACT_UNKNOWN_TYPE",
        'Unknown contract type: "undefined" on contract "a"',
        '{"id": "a"}',
    ),
    (
        "enum_set_values_array",
        '[{"id": "a", "type": "ENUM_SET", "values": "x"}]',
        "CONTRACT_INVALID_SHAPE",
        'ENUM_SET "a" requires a values array',
        '"x"',
    ),
    (
        "enum_set_member",
        '[{"id": "a", "type": "ENUM_SET", "values": ["x", ""]}]',
        "CONTRACT_INVALID_SHAPE",
        'ENUM_SET "a" contains empty or non-string member',
        '""',
    ),
    (
        "enum_set_duplicate",
        '[{"id": "a", "type": "ENUM_SET", "values": ["x", " x"]}]',
        "CONTRACT_INVALID_SHAPE",
        'ENUM_SET "a" contains duplicate value " x"',
        '" x"',
    ),
    (
        "identity_tuple_values",
        '[{"id": "a", "type": "IDENTITY_TUPLE"}]',
        "CONTRACT_INVALID_SHAPE",
        'IDENTITY_TUPLE "a" requires a values array of dimensions',
        '{"id": "a", "type": "IDENTITY_TUPLE"}',
    ),
    (
        "identity_tuple_dimension",
        '[{"id": "a", "type": "IDENTITY_TUPLE", "values": [1]}]',
        "CONTRACT_INVALID_SHAPE",
        'IDENTITY_TUPLE "a" contains invalid dimension string',
        "1",
    ),
    (
        "identity_tuple_duplicate",
        '[{"id": "a", "type": "IDENTITY_TUPLE", "values": ["d", "d"]}]',
        "CONTRACT_INVALID_SHAPE",
        'IDENTITY_TUPLE "a" contains duplicate dimension "d"',
        '"d"',
    ),
    (
        "provenance_entity",
        '[{"id": "a", "type": "PROVENANCE_RULE", "entity": "", "values": ["f"]}]',
        "CONTRACT_INVALID_SHAPE",
        'PROVENANCE_RULE "a" requires an entity string',
        '""',
    ),
    (
        "provenance_values",
        '[{"id": "a", "type": "PROVENANCE_RULE", "entity": "e", "values": {}}]',
        "CONTRACT_INVALID_SHAPE",
        'PROVENANCE_RULE "a" requires a values array of provenance fields',
        "{}",
    ),
    (
        "provenance_field",
        '[{"id": "a", "type": "PROVENANCE_RULE", "entity": "e", "values": [null]}]',
        "CONTRACT_INVALID_SHAPE",
        'PROVENANCE_RULE "a" contains invalid field string',
        "null",
    ),
    (
        "boolean_invariant_native",
        '[{"id": "a", "type": "BOOLEAN_INVARIANT", "value": "true"}]',
        "CONTRACT_INVALID_SHAPE",
        'BOOLEAN_INVARIANT "a" requires native boolean value, got string',
        '"true"',
    ),
    (
        "boolean_invariant_missing",
        '[{"id": "a", "type": "BOOLEAN_INVARIANT"}]',
        "CONTRACT_INVALID_SHAPE",
        'BOOLEAN_INVARIANT "a" requires native boolean value, got undefined',
        '{"id": "a", "type": "BOOLEAN_INVARIANT"}',
    ),
    (
        "boundary_value",
        '[{"id": "a", "type": "BOUNDARY", "value": "forbidden"}]',
        "CONTRACT_INVALID_SHAPE",
        'BOUNDARY "a" value must be strictly "FORBIDDEN" or "REQUIRED", got "forbidden"',
        '"forbidden"',
    ),
    (
        "roadmap_limit_value",
        '[{"id": "a", "type": "ROADMAP_LIMIT", "value": true}]',
        "CONTRACT_INVALID_SHAPE",
        'ROADMAP_LIMIT "a" value must be a number or string',
        "true",
    ),
]


@pytest.mark.parametrize("name, body, code, message, token", RULES, ids=[r[0] for r in RULES])
def test_contract_rule(name: str, body: str, code: str, message: str, token: str) -> None:
    assert only(body) == (code, message, token)


def test_duplicate_contract_id_on_the_second_id_value() -> None:
    item = '{"id": "a", "type": "BOUNDARY", "value": "REQUIRED"}'
    body = f"[{item},\n {item}]"
    text = doc(body)
    result = parse_contracts("spec.md", text)
    (f,) = result.findings
    assert (f.code, f.message, f.subject) == ("CONTRACT_DUPLICATE_ID", 'Duplicate contract ID detected: "a"', "a")
    assert f.span is not None and f.span.start == text.rindex('"a"')
    assert [c.id for c in result.items] == ["a"]


def test_all_violations_are_reported_not_only_the_first() -> None:
    body = '[null, {"id": "a", "type": "X"}, {"id": "b", "type": "ENUM_SET", "values": ["", 2]}]'
    result = parse_contracts("spec.md", doc(body))
    assert [f.code for f in result.findings] == [
        "CONTRACT_INVALID_SHAPE",
        "CONTRACT_UNKNOWN_TYPE",
        "CONTRACT_INVALID_SHAPE",
        "CONTRACT_INVALID_SHAPE",
    ]
    assert result.items == ()


def test_valid_contracts_keep_their_fields_and_spans() -> None:
    body = (
        '[{"id": "modes", "type": "ENUM_SET", "values": ["b", "a"], "description": "≠ modes"},\n'
        ' {"id": "flag", "type": "BOOLEAN_INVARIANT", "value": false},\n'
        ' {"id": "prov", "type": "PROVENANCE_RULE", "entity": "E", "values": ["f"]},\n'
        ' {"id": "lim", "type": "ROADMAP_LIMIT", "value": 3}]'
    )
    text = doc(body)
    items = parse_contracts("spec.md", text).items
    modes, flag, prov, lim = items
    assert modes.values == ("b", "a") and modes.normalized_values() == ("a", "b")
    assert modes.description == "≠ modes"
    assert text[modes.id_span.start : modes.id_span.end] == '"modes"'
    assert text[modes.type_span.start : modes.type_span.end] == '"ENUM_SET"'
    assert flag.value is False and flag.has_value
    assert prov.entity == "E"
    assert lim.value == 3
    assert modes.to_json()["description"] == "≠ modes"


# --- Phase comparison ------------------------------------------------------------------------


def one(body: str) -> FrozenContract:
    (c,) = contracts(f"[{body}]")
    return c


PHASE = [
    (
        "type_mutation",
        '{"id": "c", "type": "BOUNDARY", "value": "REQUIRED"}',
        '{"id": "c", "type": "ROADMAP_LIMIT", "value": 1}',
        "TYPE_MUTATION",
        {"expectedType": "BOUNDARY", "observedType": "ROADMAP_LIMIT"},
        '"ROADMAP_LIMIT"',
    ),
    (
        "enum_set_mismatch",
        '{"id": "c", "type": "ENUM_SET", "values": ["a", "b"]}',
        '{"id": "c", "type": "ENUM_SET", "values": ["b", "c"]}',
        "ENUM_SET_MISMATCH",
        {"added": ["c"], "missing": ["a"]},
        '["b", "c"]',
    ),
    (
        "identity_tuple_length",
        '{"id": "c", "type": "IDENTITY_TUPLE", "values": ["a", "b"]}',
        '{"id": "c", "type": "IDENTITY_TUPLE", "values": ["a"]}',
        "IDENTITY_TUPLE_MISMATCH",
        {"added": [], "missing": ["b"]},
        '["a"]',
    ),
    (
        "provenance_mismatch",
        '{"id": "c", "type": "PROVENANCE_RULE", "entity": "E", "values": ["f"]}',
        '{"id": "c", "type": "PROVENANCE_RULE", "entity": "F", "values": ["f"]}',
        "PROVENANCE_MISMATCH",
        {"entityExpected": "E", "entityObserved": "F", "added": [], "missing": []},
        '"F"',
    ),
    (
        "boolean_contradiction",
        '{"id": "c", "type": "BOOLEAN_INVARIANT", "value": true}',
        '{"id": "c", "type": "BOOLEAN_INVARIANT", "value": false}',
        "BOOLEAN_CONTRADICTION",
        {"expected": True, "observed": False},
        "false",
    ),
    (
        "boundary_contradiction",
        '{"id": "c", "type": "BOUNDARY", "value": "REQUIRED"}',
        '{"id": "c", "type": "BOUNDARY", "value": "FORBIDDEN"}',
        "BOUNDARY_CONTRADICTION",
        {"expected": "REQUIRED", "observed": "FORBIDDEN"},
        '"FORBIDDEN"',
    ),
    (
        "roadmap_limit_mismatch",
        '{"id": "c", "type": "ROADMAP_LIMIT", "value": 3}',
        '{"id": "c", "type": "ROADMAP_LIMIT", "value": "3"}',
        "ROADMAP_LIMIT_MISMATCH",
        {"expected": 3, "observed": "3"},
        '"3"',
    ),
]


@pytest.mark.parametrize("name, up, down, vtype, delta, token", PHASE, ids=[p[0] for p in PHASE])
def test_compare_phase(name: str, up: str, down: str, vtype: str, delta: dict[str, object], token: str) -> None:
    down_text = doc(f"[{down}]")
    (downstream,) = parse_contracts("plan.md", down_text).items
    (v,) = compare_phase([one(up)], [downstream], "plan")
    assert (v.code, v.contract_id, v.phase, v.violation_type) == ("FROZEN_CONTRACT_VIOLATION", "c", "plan", vtype)
    assert dict(v.delta) == delta
    assert down_text[v.span.start : v.span.end] == token
    assert v.message.startswith('Frozen contract "c" is contradicted in plan')


@pytest.mark.parametrize(
    "up, down",
    [
        (
            '{"id": "c", "type": "ENUM_SET", "values": ["a", "b"]}',
            '{"id": "c", "type": "ENUM_SET", "values": [" b", "a"]}',
        ),
        ('{"id": "c", "type": "ROADMAP_LIMIT", "value": 3}', '{"id": "c", "type": "ROADMAP_LIMIT", "value": 3.0}'),
        (
            '{"id": "c", "type": "BOUNDARY", "value": "REQUIRED"}',
            '{"id": "d", "type": "BOUNDARY", "value": "FORBIDDEN"}',
        ),
    ],
)
def test_compare_phase_accepts_equal_inherited_and_additive(up: str, down: str) -> None:
    assert compare_phase([one(up)], [one(down)], "plan") == []


def test_effective_contracts_are_upstream_plus_additions() -> None:
    a = one('{"id": "a", "type": "BOUNDARY", "value": "REQUIRED"}')
    a2 = one('{"id": "a", "type": "BOUNDARY", "value": "FORBIDDEN"}')
    b = one('{"id": "b", "type": "BOUNDARY", "value": "FORBIDDEN"}')
    assert effective_contracts([a], [a2, b]) == [a, b]
