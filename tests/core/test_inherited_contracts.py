"""``gemstack-inherited-contracts`` (Gemstack 2.0 plans): parsed with spans, checked like redeclarations."""

from __future__ import annotations

import jsonschema
import pytest

from gemstack_lsp.core.blocks import blocks_of
from gemstack_lsp.core.blocks.inherited_contracts import parse_inherited_contracts
from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.core.schemas import describe, load_schema
from tests.conftest import covered

SPEC = """# Spec

```gemstack-contracts
[
  {"id": "rigor-levels", "type": "ENUM_SET", "values": ["quick", "fix", "feature"],
   "description": "The rigor levels."},
  {"id": "conflict-detector", "type": "BOOLEAN_INVARIANT", "value": true}
]
```
"""

# As upstream writes it (spec 013 / 014): the spec's contracts restated, without descriptions.
AGREEING_PLAN = """# Plan

## 1. Inherited Architecture Contracts

```gemstack-inherited-contracts
[
  {"id": "rigor-levels", "type": "ENUM_SET", "values": ["feature", "quick", "fix"]},
  {"id": "conflict-detector", "type": "BOOLEAN_INVARIANT", "value": true}
]
```
"""

CONTRADICTING_PLAN = AGREEING_PLAN.replace('"value": true}', '"value": false}')


def findings_of(files: dict[str, str]) -> list[Finding]:
    return analyze(GemstackRepo("/r", MemoryReader(files)))


def violations(files: dict[str, str]) -> list[Finding]:
    return [f for f in findings_of(files) if f.code == "FROZEN_CONTRACT_VIOLATION"]


def test_parsed_with_spans() -> None:
    result = parse_inherited_contracts("specs/a/plan.md", AGREEING_PLAN)
    assert result.present and [c.id for c in result.items] == ["rigor-levels", "conflict-detector"]
    c = result.items[1]
    assert AGREEING_PLAN[c.id_span.start : c.id_span.end] == '"conflict-detector"'
    assert AGREEING_PLAN[c.value_span.start : c.value_span.end] == "true"
    blocks = blocks_of("specs/a/plan.md", AGREEING_PLAN)
    assert blocks.contracts.present is False
    assert [c.id for c in blocks.contract_items] == ["rigor-levels", "conflict-detector"]


def test_an_agreeing_restatement_draws_no_finding() -> None:
    found = findings_of({"specs/a/spec.md": SPEC, "specs/a/plan.md": AGREEING_PLAN})
    assert [f.code for f in found] == ["LEGACY_NO_PROVIDERS_DECLARED"]


def test_a_contradiction_is_a_frozen_contract_violation_related_to_the_declaration() -> None:
    (v,) = violations({"specs/a/spec.md": SPEC, "specs/a/plan.md": CONTRADICTING_PLAN})
    assert v.path == "specs/a/plan.md" and v.subject == "conflict-detector" and v.phase == "plan"
    assert covered(CONTRADICTING_PLAN, [v])[0][2] == "false"
    assert v.message == (
        'Frozen contract "conflict-detector" is contradicted in plan (BOOLEAN_CONTRADICTION): expected true, '
        "observed false."
    )
    (rel,) = v.related
    assert rel.path == "specs/a/spec.md" and rel.span is not None
    assert SPEC[rel.span.start : rel.span.end] == '"conflict-detector"'
    assert v.data["block"] == "gemstack-inherited-contracts"
    (fix,) = v.fixes
    (edit,) = fix.edits
    assert CONTRADICTING_PLAN[edit.span.start : edit.span.end] == "false" and edit.new_text == "true"


def test_the_same_edit_in_either_block_gets_the_same_finding() -> None:
    own = CONTRADICTING_PLAN.replace("gemstack-inherited-contracts", "gemstack-contracts")
    (a,) = violations({"specs/a/spec.md": SPEC, "specs/a/plan.md": own})
    (b,) = violations({"specs/a/spec.md": SPEC, "specs/a/plan.md": CONTRADICTING_PLAN})
    assert (a.code, a.message, a.fingerprint, a.related) == (b.code, b.message, b.fingerprint, b.related)
    assert covered(own, [a])[0][2] == covered(CONTRADICTING_PLAN, [b])[0][2] == "false"


def test_enum_mismatch_and_type_mutation() -> None:
    plan = AGREEING_PLAN.replace('["feature", "quick", "fix"]', '["feature", "quick", "hotfix"]').replace(
        '"type": "BOOLEAN_INVARIANT", "value": true', '"type": "BOUNDARY", "value": "REQUIRED"'
    )
    found = violations({"specs/a/spec.md": SPEC, "specs/a/plan.md": plan})
    assert sorted(f.data["violationType"] for f in found) == ["ENUM_SET_MISMATCH", "TYPE_MUTATION"]


def test_both_blocks_of_one_plan_are_compared() -> None:
    plan = (
        CONTRADICTING_PLAN
        + '\n```gemstack-contracts\n[{"id": "rigor-levels", "type": "ENUM_SET", "values": ["x"]}]\n```\n'
    )
    found = violations({"specs/a/spec.md": SPEC, "specs/a/plan.md": plan})
    assert sorted((f.subject, f.data["block"]) for f in found) == [
        ("conflict-detector", "gemstack-inherited-contracts"),
        ("rigor-levels", "gemstack-contracts"),
    ]


def test_tasks_inherit_from_the_spec_and_the_plans_additions() -> None:
    plan = AGREEING_PLAN.replace("]\n```", ',\n  {"id": "plan-limit", "type": "ROADMAP_LIMIT", "value": 3}\n]\n```')
    tasks = (
        '# Tasks\n\n```gemstack-inherited-contracts\n[{"id": "plan-limit", "type": "ROADMAP_LIMIT", "value": 4}]\n```\n'
    )
    (v,) = violations({"specs/a/spec.md": SPEC, "specs/a/plan.md": plan, "specs/a/tasks.md": tasks})
    assert (v.path, v.phase, v.subject) == ("specs/a/tasks.md", "tasks", "plan-limit")
    assert v.related[0].path == "specs/a/plan.md"


@pytest.mark.parametrize(
    ("body", "code", "message"),
    [
        ("[1]", "CONTRACT_INVALID_SHAPE", "Each contract must be a non-null object"),
        (
            "{}",
            "CONTRACT_INVALID_SHAPE",
            "gemstack-inherited-contracts content must be a JSON array of contract objects",
        ),
        ('[{"id": "a", "type": "NOPE"}]', "CONTRACT_UNKNOWN_TYPE", 'Unknown contract type: "NOPE" on contract "a"'),
        (
            '[{"id": "a", "type": "BOOLEAN_INVARIANT", "value": true}, {"id": "a", "type": "BOOLEAN_INVARIANT", '
            '"value": true}]',
            "CONTRACT_DUPLICATE_ID",
            'Duplicate contract ID detected: "a"',
        ),
        ("[", "CONTRACT_PARSE_ERROR", "Malformed JSON in gemstack-inherited-contracts block: "),
    ],
)
def test_the_contract_rules_apply(body: str, code: str, message: str) -> None:
    text = f"# Plan\n\n```gemstack-inherited-contracts\n{body}\n```\n"
    found = [f for f in blocks_of("specs/a/plan.md", text).findings if f.code == code]
    assert found and found[0].message.startswith(message)


def test_two_blocks_are_a_parse_error() -> None:
    text = AGREEING_PLAN + "\n```gemstack-inherited-contracts\n[]\n```\n"
    (f,) = blocks_of("specs/a/plan.md", text).findings
    assert (f.code, f.message) == (
        "CONTRACT_PARSE_ERROR",
        "Multiple gemstack-inherited-contracts blocks detected (2). Exactly one is permitted.",
    )


def test_the_reference_does_not_read_the_block_so_no_fence_warning() -> None:
    text = "# Plan\n\n  ```gemstack-inherited-contracts\n  []\n  ```\n"
    assert [f.code for f in blocks_of("specs/a/plan.md", text).findings] == []


def test_the_schema() -> None:
    schema = load_schema("gemstack-inherited-contracts")
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["title"] == "gemstack-inherited-contracts block"
    got = describe("gemstack-inherited-contracts", [0, "type"])
    assert got is not None and got[0] == "Contract type"
    validator = jsonschema.Draft202012Validator(schema)
    assert not list(validator.iter_errors([{"id": "a", "type": "BOOLEAN_INVARIANT", "value": True}]))
    assert list(validator.iter_errors([{"id": "a", "type": "NOPE"}]))
