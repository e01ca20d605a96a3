"""gemstack-test-bindings: one test per rule of the reference (section 9.3)."""

from __future__ import annotations

import pytest

from gemstack_lsp.core.blocks.test_bindings import parse_test_bindings
from tests.conftest import covered

KIND = "gemstack-test-bindings"


def doc(body: str) -> str:
    return f"# Plan\n\n```{KIND}\n{body}\n```\n"


def findings(body: str, canonical: set[str] | None = None) -> list[tuple[str, str, str]]:
    text = doc(body)
    return covered(text, parse_test_bindings("specs/x/plan.md", text, canonical_ids=canonical).findings)


def test_multiple_blocks() -> None:
    (f,) = parse_test_bindings("plan.md", doc("[]") + doc("[]")).findings
    assert (f.code, f.message) == (
        "BINDINGS_PARSE_ERROR",
        "Multiple gemstack-test-bindings blocks detected. Exactly one is permitted.",
    )


def test_bad_json() -> None:
    ((code, message, token),) = findings("[{'test_id': 1}]")
    assert code == "BINDINGS_PARSE_ERROR"
    assert message.startswith("Failed to parse gemstack-test-bindings JSON: ")
    assert token == "'test_id'"


def test_not_an_array() -> None:
    assert findings('"x"') == [("BINDINGS_PARSE_ERROR", "gemstack-test-bindings must be a JSON array", '"x"')]


RULES = [
    ("item_not_object", "[1]", "BINDINGS_PARSE_ERROR", "Binding at index 0 must be an object", "1"),
    (
        "missing_test_id",
        '[{"file": "t.js"}]',
        "BINDINGS_PARSE_ERROR",
        "Binding at index 0 missing test_id",
        '{"file": "t.js"}',
    ),
    (
        "test_id_not_string",
        '[{"test_id": 5, "file": "t.js"}]',
        "BINDINGS_PARSE_ERROR",
        "Binding at index 0 missing test_id",
        "5",
    ),
    (
        "missing_file",
        '[{"test_id": "TEST-A-B"}]',
        "BINDINGS_PARSE_ERROR",
        'Binding for "TEST-A-B" missing file',
        '{"test_id": "TEST-A-B"}',
    ),
    (
        "absolute_file",
        '[{"test_id": "TEST-A-B", "file": "/abs/t.js"}]',
        "BINDINGS_PARSE_ERROR",
        'Binding file must be repository-relative POSIX path: "/abs/t.js"',
        '"/abs/t.js"',
    ),
    (
        "parent_file",
        '[{"test_id": "TEST-A-B", "file": "..\\\\up\\\\t.js"}]',
        "BINDINGS_PARSE_ERROR",
        'Binding file must be repository-relative POSIX path: "..\\up\\t.js"',
        '"..\\\\up\\\\t.js"',
    ),
]


@pytest.mark.parametrize("name, body, code, message, token", RULES, ids=[r[0] for r in RULES])
def test_binding_rule(name: str, body: str, code: str, message: str, token: str) -> None:
    assert findings(body) == [(code, message, token)]


def test_duplicate_test_binding_on_the_second_id() -> None:
    body = '[{"test_id": "TEST-A-B", "file": "a.js"}, {"id": "TEST-A-B", "file": "b.js"}]'
    text = doc(body)
    result = parse_test_bindings("plan.md", text)
    (f,) = result.findings
    assert (f.code, f.message) == ("DUPLICATE_TEST_BINDING", 'Duplicate test_id binding detected: "TEST-A-B"')
    assert f.span is not None and f.span.start == text.rindex('"TEST-A-B"')


def test_unknown_canonical_id_when_the_matrix_is_given() -> None:
    body = '[{"test_id": "TEST-A-B", "file": "a.js"}]'
    assert findings(body, {"TEST-A-C"}) == [
        ("BINDINGS_PARSE_ERROR", 'Binding references unknown canonical ID: "TEST-A-B"', '"TEST-A-B"')
    ]
    assert findings(body) == []


def test_defaults_and_normalisation() -> None:
    body = (
        '[{"test_id": "", "id": "TEST-A-B", "file": "tests\\\\a.js"},'
        ' {"test_id": "TEST-A-C", "runner": "jest", "file": "b.js"}]'
    )
    items = parse_test_bindings("plan.md", doc(body)).items
    assert [(b.test_id, b.runner, b.file) for b in items] == [
        ("TEST-A-B", "node:test", "tests/a.js"),
        ("TEST-A-C", "jest", "b.js"),
    ]
