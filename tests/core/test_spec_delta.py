"""Spec deltas (Gemstack 2.0). Differential expectations re-implemented from upstream's
tests/adaptable-sdd-p1.test.js @ 1bcc799 (TEST-DELTA-B01..B03) over spec-delta.js @ 443ae6c, with
the base spec held as a feature's spec.md."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze

BASE_SPEC = (
    "# Base\n```gemstack-contracts\n"
    + json.dumps(
        [
            {"id": "c1", "type": "BOOLEAN_INVARIANT", "value": True},
            {"id": "c2", "type": "ENUM_SET", "values": ["a", "b"]},
        ]
    )
    + "\n```\n```gemstack-test-matrix\n"
    + json.dumps(
        [
            {
                "id": "TEST-CORE-A01",
                "category": "CORE",
                "layer": "UNIT",
                "description": "Original test",
                "pass_criteria": "passes",
                "gate": "BLOCKING",
            }
        ]
    )
    + "\n```\n"
)


def delta_spec(delta: Any) -> str:
    return "# Change\n```gemstack-spec-delta\n" + json.dumps(delta, indent=2) + "\n```\n"


def run(delta: Any, raw: str | None = None) -> tuple[str, list[Finding]]:
    text = raw if raw is not None else delta_spec(delta)
    files = {"specs/001-base/spec.md": BASE_SPEC, "specs/002-change/spec.md": text}
    found = analyze(GemstackRepo("/repo", MemoryReader(files)))
    return text, [f for f in found if f.code.startswith(("DELTA_", "INVALID_DELTA"))]


def marked(delta: Any, raw: str | None = None) -> list[tuple[str, str]]:
    text, found = run(delta, raw)
    return [(f.code, text[f.span.start : f.span.end]) for f in found if f.span is not None]


def test_TEST_DELTA_B01_added_modified_and_removed_apply_cleanly() -> None:
    delta = {
        "base_spec": "specs/001-base",
        "added": {
            "contracts": [{"id": "c3", "type": "BOOLEAN_INVARIANT", "value": False}],
            "tests": [{"id": "TEST-CORE-A02", "category": "CORE", "description": "Added test"}],
        },
        "modified": {"contracts": [{"id": "c2", "type": "ENUM_SET", "values": ["a", "b", "c"]}]},
        "removed": {"contracts": ["c1"], "requirements": ["FR-001"]},
    }
    assert marked(delta) == []


def test_TEST_DELTA_B02_untouched_items_are_kept() -> None:
    delta = {"base_spec": "001-base", "added": {"tests": [{"id": "TEST-NEW-A01"}]}, "modified": {}, "removed": {}}
    assert marked(delta) == []


def test_TEST_DELTA_B03_modifying_or_removing_what_does_not_exist_fails() -> None:
    assert marked({"base_spec": "specs/001-base", "modified": {"contracts": [{"id": "c-ghost", "value": False}]}}) == [
        ("DELTA_TARGET_NOT_FOUND", '"c-ghost"')
    ]
    assert marked({"base_spec": "specs/001-base", "removed": {"tests": ["TEST-GHOST"]}}) == [
        ("DELTA_TARGET_NOT_FOUND", '"TEST-GHOST"')
    ]


def test_order_is_removals_then_modifications_then_additions() -> None:
    delta = {
        "base_spec": "specs/001-base/",
        "removed": {"contracts": [{"id": "c1"}]},
        "modified": {"contracts": [{"id": "c1"}]},
        "added": {"contracts": [{"id": "c1"}, {"id": "c2"}]},
    }
    assert marked(delta) == [("DELTA_TARGET_NOT_FOUND", '"c1"'), ("DELTA_ADD_CONFLICT", '"c2"')]


def test_parse_errors_and_non_objects() -> None:
    raw = '```gemstack-spec-delta\n{"added": ,}\n```\n'
    assert marked(None, raw) == [("DELTA_PARSE_ERROR", ",")]
    assert marked(None, "```gemstack-spec-delta\nnull\n```\n") == [("INVALID_DELTA_SCHEMA", "null")]


def test_a_base_spec_that_does_not_exist() -> None:
    assert marked({"base_spec": "specs/404", "removed": {"contracts": ["c1"]}}) == [
        ("DELTA_TARGET_NOT_FOUND", '"specs/404"')
    ]


def test_no_base_spec_checks_only_the_syntax() -> None:
    assert marked({"removed": {"contracts": ["anything"]}}) == []


NODE_DELTAS = json.loads(
    (Path(__file__).resolve().parent.parent / "fixtures" / "upstream-2.0" / "spec-deltas.json").read_text("utf-8")
)
NODE_BASE = (
    "```gemstack-contracts\n"
    + json.dumps([{"id": c, "type": "BOOLEAN_INVARIANT", "value": True} for c in ("c1", "c2")])
    + "\n```\n```gemstack-test-matrix\n"
    + json.dumps(
        [
            {
                "id": "TEST-CORE-A01",
                "category": "CORE",
                "layer": "UNIT",
                "description": "d",
                "pass_criteria": "p",
                "gate": "BLOCKING",
            }
        ]
    )
    + "\n```\n"
)


@pytest.mark.parametrize("case", NODE_DELTAS, ids=[json.dumps(c["delta"])[:40] for c in NODE_DELTAS])
def test_application_agrees_with_the_reference_under_node(case: dict[str, Any]) -> None:
    delta = {"base_spec": "specs/001-base", **case["delta"]}
    files = {"specs/001-base/spec.md": NODE_BASE, "specs/002-change/spec.md": delta_spec(delta)}
    found = [f for f in analyze(GemstackRepo("/repo", MemoryReader(files))) if f.code.startswith("DELTA_")]
    first = found[0].code if found else "OK"
    assert first == case["expected"]
