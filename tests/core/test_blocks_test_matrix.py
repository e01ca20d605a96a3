"""gemstack-test-matrix: one test per rule of the reference (section 9.2), and the acceptance signature."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.core.blocks.test_matrix import acceptance_signature, parse_test_matrix
from gemstack_lsp.core.jscompat import js_property_order as js_key_order
from tests.conftest import covered

KIND = "gemstack-test-matrix"
GOOD = {
    "id": "TEST-X-A01",
    "category": "C",
    "layer": "UNIT",
    "description": "d",
    "pass_criteria": "p",
    "gate": "REQUIRED",
}


def doc(body: str) -> str:
    return f"# Spec\n\n```{KIND}\n{body}\n```\n"


def entry(**changes: Any) -> str:
    item: dict[str, Any] = {**GOOD, **changes}
    for k in [k for k, v in item.items() if v is ...]:
        del item[k]
    return json.dumps(item, ensure_ascii=False)


def findings(body: str) -> list[tuple[str, str, str]]:
    text = doc(body)
    return covered(text, parse_test_matrix("specs/x/spec.md", text).findings)


def test_multiple_blocks() -> None:
    text = doc("[]") + doc("[]") + doc("[]")
    (f,) = parse_test_matrix("spec.md", text).findings
    assert (f.code, f.message) == (
        "TEST_MATRIX_PARSE_ERROR",
        "Multiple gemstack-test-matrix blocks detected (3). Exactly one is permitted.",
    )


def test_failed_to_parse() -> None:
    ((code, message, token),) = findings("[1,]")
    assert code == "TEST_MATRIX_PARSE_ERROR"
    assert message.startswith("Failed to parse gemstack-test-matrix JSON: ")
    assert token == ","


def test_must_be_an_array() -> None:
    assert findings("{}") == [
        ("TEST_MATRIX_INVALID_SHAPE", "gemstack-test-matrix must be a JSON array of test objects", "{}")
    ]


RULES = [
    ("non_null_object", "[null]", "Item at index 0 in gemstack-test-matrix must be a non-null object", "null"),
    ("array_is_not_an_object", "[[]]", "Item at index 0 in gemstack-test-matrix must be a non-null object", "[]"),
    ("unknown_field", f"[{entry(owner='me')}]", 'Item at index 0 contains unknown field: "owner"', '"owner"'),
    (
        "missing_required_field",
        f"[{entry(category=...)}]",
        'Item at index 0 missing required field: "category"',
        entry(category=...),
    ),
    (
        "non_empty_string",
        f"[{entry(description='  ')}]",
        'Item at index 0 field "description" must be a non-empty string',
        '"  "',
    ),
    (
        "non_string_field",
        f"[{entry(pass_criteria=1)}]",
        'Item at index 0 field "pass_criteria" must be a non-empty string',
        "1",
    ),
    (
        "invalid_id",
        f"[{entry(id='TEST-x-1')}]",
        'Item at index 0 has invalid ID "TEST-x-1". Must match ^TEST-[A-Z0-9]+-[A-Z0-9]+$',
        '"TEST-x-1"',
    ),
    (
        "invalid_id_trailing_newline",
        f"[{entry(id='TEST-A-B' + chr(10))}]",
        'Item at index 0 has invalid ID "TEST-A-B\n". Must match ^TEST-[A-Z0-9]+-[A-Z0-9]+$',
        '"TEST-A-B\\n"',
    ),
    (
        "invalid_layer",
        f"[{entry(layer='SMOKE')}]",
        'Item "TEST-X-A01" has invalid layer "SMOKE". Must be one of: UNIT, INTEGRATION, E2E, CLI',
        '"SMOKE"',
    ),
    (
        "invalid_gate",
        f"[{entry(gate='OPTIONAL')}]",
        'Item "TEST-X-A01" has invalid gate "OPTIONAL". Must be one of: REQUIRED, SUPPLEMENTAL',
        '"OPTIONAL"',
    ),
]


@pytest.mark.parametrize("name, body, message, token", RULES, ids=[r[0] for r in RULES])
def test_matrix_rule(name: str, body: str, message: str, token: str) -> None:
    assert findings(body) == [("TEST_MATRIX_INVALID_SHAPE", message, token)]


def test_duplicate_test_id_on_the_second_id() -> None:
    text = doc(f"[{entry()},\n {entry()}]")
    result = parse_test_matrix("spec.md", text)
    (f,) = result.findings
    assert (f.code, f.message) == (
        "TEST_MATRIX_DUPLICATE_ID",
        'Duplicate test ID detected in gemstack-test-matrix: "TEST-X-A01"',
    )
    assert f.span is not None and f.span.start == text.rindex('"TEST-X-A01"')
    assert len(result.items) == 1


def test_unknown_fields_follow_javascript_key_order() -> None:
    body = f'[{entry()[:-1]}, "zeta": 1, "10": 2, "2": 3}}]'
    assert [m for _, m, _ in findings(body)] == [
        'Item at index 0 contains unknown field: "2"',
        'Item at index 0 contains unknown field: "10"',
        'Item at index 0 contains unknown field: "zeta"',
    ]
    assert js_key_order(["b", "1", "a", "0"]) == ["0", "1", "b", "a"]


def test_all_violations_in_reference_order() -> None:
    body = f"[{entry(id='bad', layer='X', gate='Y', extra=1)}]"
    assert [m for _, m, _ in findings(body)] == [
        'Item at index 0 contains unknown field: "extra"',
        'Item at index 0 has invalid ID "bad". Must match ^TEST-[A-Z0-9]+-[A-Z0-9]+$',
        'Item "bad" has invalid layer "X". Must be one of: UNIT, INTEGRATION, E2E, CLI',
        'Item "bad" has invalid gate "Y". Must be one of: REQUIRED, SUPPLEMENTAL',
    ]


def test_acceptance_signature_small(golden: dict[str, Any]) -> None:
    small = golden["acceptance_signature_small"]
    result = parse_test_matrix("spec.md", doc(json.dumps(small["matrix"])))
    assert result.findings == ()
    assert acceptance_signature(result.items) == small["signature"]
    assert acceptance_signature(small["matrix"]) == small["signature"]


def test_acceptance_signatures_of_the_fixture_specs(golden: dict[str, Any], fixture_repo_dir: Path) -> None:
    for rel, signature in golden["acceptance_signatures"].items():
        text = (fixture_repo_dir / rel).read_text("utf-8")
        result = parse_test_matrix(rel, text)
        assert result.findings == ()
        assert len(result.items) == 20
        assert acceptance_signature(result.items) == signature


@pytest.fixture
def fixture_repo_dir() -> Path:
    return Path(__file__).parent.parent / "fixtures" / "gemstack-reference" / "repo"
