"""gemstack-closure-gates: one test per rule of the reference (section 9.4)."""

from __future__ import annotations

import pytest

from gemstack_lsp.core.blocks.closure_gates import parse_closure_gates
from tests.conftest import covered

KIND = "gemstack-closure-gates"


def doc(body: str) -> str:
    return f"# Plan\n\n```{KIND}\n{body}\n```\n"


def findings(body: str) -> list[tuple[str, str, str]]:
    text = doc(body)
    out = covered(text, parse_closure_gates("specs/x/plan.md", text).findings)
    assert {code for code, _, _ in out} <= {"GATES_PARSE_ERROR"}
    return out


def test_multiple_blocks() -> None:
    (f,) = parse_closure_gates("plan.md", doc("[]") + doc("[]")).findings
    assert f.message == "Multiple gemstack-closure-gates blocks detected. Exactly one is permitted."


def test_bad_json() -> None:
    ((_, message, token),) = findings("[NaN]")
    assert message.startswith("Failed to parse gemstack-closure-gates JSON: ")
    assert token == "NaN"


def test_not_an_array() -> None:
    assert findings("{}") == [("GATES_PARSE_ERROR", "gemstack-closure-gates must be a JSON array", "{}")]


G = '"type": "PACKAGE_SCRIPT", "script": "test", "requirement": "REQUIRED", "waivable": false'

RULES = [
    ("missing_id", f"[{{{G}}}]", "Gate at index 0 missing id", f"{{{G}}}"),
    ("null_item", "[null]", "Gate at index 0 missing id", "null"),
    (
        "unsupported_type",
        '[{"id": "g", "type": "SHELL", "script": "t", "requirement": "SUPPLEMENTAL"}]',
        'Unsupported gate type: "SHELL". Only PACKAGE_SCRIPT is supported in MVP.',
        '"SHELL"',
    ),
    (
        "missing_script",
        '[{"id": "g", "type": "PACKAGE_SCRIPT", "requirement": "SUPPLEMENTAL"}]',
        'PACKAGE_SCRIPT gate "g" missing script name',
        '{"id": "g", "type": "PACKAGE_SCRIPT", "requirement": "SUPPLEMENTAL"}',
    ),
    (
        "invalid_requirement",
        '[{"id": "g", "type": "PACKAGE_SCRIPT", "script": "t", "requirement": "MAYBE"}]',
        'Gate "g" has invalid requirement: "MAYBE"',
        '"MAYBE"',
    ),
    (
        "required_without_boolean_waivable",
        '[{"id": "g", "type": "PACKAGE_SCRIPT", "script": "t", "requirement": "REQUIRED", "waivable": "no"}]',
        'REQUIRED gate "g" requires explicit boolean waivable property',
        '"no"',
    ),
]


@pytest.mark.parametrize("name, body, message, token", RULES, ids=[r[0] for r in RULES])
def test_gate_rule(name: str, body: str, message: str, token: str) -> None:
    assert findings(body) == [("GATES_PARSE_ERROR", message, token)]


def test_duplicate_gate_id_on_the_second_id() -> None:
    text = doc(f'[{{"id": "g", {G}}}, {{"id": "g", {G}}}]')
    (f,) = parse_closure_gates("plan.md", text).findings
    assert f.message == 'Duplicate gate id detected: "g"'
    assert f.span is not None and f.span.start == text.rindex('"g"')


def test_valid_gates() -> None:
    h = '{"id": "h", "type": "PACKAGE_SCRIPT", "script": "lint", "requirement": "SUPPLEMENTAL"}'
    body = f'[{{"id": "g", {G}}}, {h}]'
    items = parse_closure_gates("plan.md", doc(body)).items
    assert [(g.id, g.script, g.requirement, g.waivable) for g in items] == [
        ("g", "test", "REQUIRED", False),
        ("h", "lint", "SUPPLEMENTAL", False),
    ]
