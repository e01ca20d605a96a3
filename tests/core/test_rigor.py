"""SDD rigor levels (Gemstack 2.0). Differential expectations re-implemented from upstream's
tests/adaptable-sdd-p1.test.js @ 1bcc799 (TEST-RIGOR-A01..A04) over sdd-rigor.js @ 443ae6c, as
`gemstack spec validate` applies it to the active feature."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rigor import RIGOR_LEVELS, declared_rigor
from gemstack_lsp.core.rules import analyze

F = "specs/001-x"
STATE = json.dumps({"active_spec": F})
RIGOR = (
    "INVALID_RIGOR_LEVEL",
    "FIX_",
    "FEATURE_PLAN",
    "FEATURE_TASKS",
    "HIGH_RISK_",
)


def matrix(*entries: dict[str, str]) -> str:
    return "```gemstack-test-matrix\n" + json.dumps(list(entries), indent=2) + "\n```\n"


def run(spec: str, plan: str | None = None, tasks: str | None = None, active: bool = True) -> list[Finding]:
    files = {f"{F}/spec.md": spec}
    if active:
        files[".gemstack/state.json"] = STATE
    if plan is not None:
        files[f"{F}/plan.md"] = plan
    if tasks is not None:
        files[f"{F}/tasks.md"] = tasks
    return [f for f in analyze(GemstackRepo("/repo", MemoryReader(files))) if f.code.startswith(RIGOR)]


def codes(*args: str | None, **kwargs: bool) -> list[str]:
    return sorted(f.code for f in run(*args, **kwargs))  # type: ignore[arg-type]


def test_TEST_RIGOR_A01_quick_needs_no_plan_or_tasks() -> None:
    spec = "---\nrigor: quick\n---\n# Quick Doc Update\nOnly single artifact needed.\n"
    assert declared_rigor(spec) is not None and declared_rigor(spec).level == "quick"  # type: ignore[union-attr]
    assert codes(spec) == []


def test_TEST_RIGOR_A02_fix_needs_a_regression_test() -> None:
    spec = "---\nrigor: fix\n---\n# Bugfix\n"
    without = spec + matrix({"id": "TEST-CORE-A01", "category": "CORE", "description": "Regular feature test"})
    (f,) = run(without)
    assert f.code == "FIX_MISSING_REGRESSION_TEST"
    assert without[f.span.start : f.span.end] == "fix"  # type: ignore[union-attr]
    with_reg = spec + matrix(
        {"id": "TEST-BUG-R01", "category": "REGRESSION", "description": "Reproduce and prevent auth bypass"}
    )
    assert codes(with_reg) == []


@pytest.mark.parametrize(
    "entry",
    [
        {"id": "TEST-REG-A01", "category": "CORE", "description": "x"},
        {"id": "TEST-CORE-A01", "category": "regression", "description": "x"},
        {"id": "TEST-CORE-A01", "category": "CORE", "description": "Guards against the Regression"},
        {"id": "TEST-CORE-A01", "category": "CORE", "description": "Steps to reproduce the crash"},
    ],
)
def test_each_way_to_mark_a_regression_test(entry: dict[str, str]) -> None:
    assert codes("**Rigor**: `fix`\n" + matrix(entry)) == []


def test_TEST_RIGOR_A03_feature_needs_plan_and_tasks() -> None:
    spec = "---\nrigor: feature\n---\n# Feature\n"
    assert codes(spec, None, "- [x] task") == ["FEATURE_PLAN_MISSING"]
    assert codes(spec, "# Plan", None) == ["FEATURE_TASKS_MISSING"]
    assert codes(spec, "# Plan", "- [x] task") == []
    assert codes(spec, "", "") == ["FEATURE_PLAN_MISSING", "FEATURE_TASKS_MISSING"]  # Empty is missing, as `!content`.


def test_TEST_RIGOR_A04_high_risk_needs_threat_model_and_rollback_plan() -> None:
    assert codes("**Rigor Level**: high-risk\n# High Risk Feature\n", "## Rollback Plan\nRollback via git revert.") == [
        "HIGH_RISK_INSUFFICIENT_APPROVALS",
        "HIGH_RISK_MISSING_THREAT_MODEL",
    ]
    spec = "**Rigor Level**: high-risk\n## Threat Model\nSTRIDE analysis.\n"
    assert codes(spec, "# Implementation Plan") == [
        "HIGH_RISK_INSUFFICIENT_APPROVALS",
        "HIGH_RISK_MISSING_ROLLBACK_PLAN",
    ]
    assert codes(spec, "## 4.1 Plan de Rollback\nSteps.") == ["HIGH_RISK_INSUFFICIENT_APPROVALS"]
    assert codes("**Rigor**: high-risk\n## 3. Modelo de Amenazas\n", None) == [
        "HIGH_RISK_INSUFFICIENT_APPROVALS",
        "HIGH_RISK_MISSING_ROLLBACK_PLAN",
    ]


TWO = {"approvals": [{"approver": "ana", "signature": "s1"}, {"approver": "luis", "signature": "s2"}]}


def run_high_risk(sidecar: object | None, raw: str | None = None) -> list[Finding]:
    files = {
        ".gemstack/state.json": STATE,
        f"{F}/spec.md": "**Rigor Level**: high-risk\n## Threat Model\nSTRIDE.\n",
        f"{F}/plan.md": "## Rollback Plan\ngit revert.\n",
    }
    if sidecar is not None:
        files[f"{F}/.gemstack.json"] = json.dumps(sidecar)
    if raw is not None:
        files[f"{F}/.gemstack.json"] = raw
    return [f for f in analyze(GemstackRepo("/repo", MemoryReader(files))) if f.code.startswith(RIGOR)]


def test_high_risk_needs_two_distinct_human_approvals() -> None:
    """sdd-rigor.js @ 443ae6c step 3: approvals in the feature's sidecar with approver and
    signature, counted once per approver; fewer than two is HIGH_RISK_INSUFFICIENT_APPROVALS."""
    assert run_high_risk(TWO) == []
    (f,) = run_high_risk(None)
    assert f.code == "HIGH_RISK_INSUFFICIENT_APPROVALS" and f.path == f"{F}/spec.md"
    assert f.message.endswith("Found: 0.") and f.related == ()
    one = {"approvals": [{"approver": "ana", "signature": "s1"}, {"approver": "ana", "signature": "s2"}]}
    (f,) = run_high_risk(one)
    assert f.message.endswith("Found: 1.")
    assert [r.path for r in f.related] == [f"{F}/.gemstack.json"]
    unsigned = {"approvals": [{"approver": "ana", "signature": "s1"}, {"approver": "luis", "signature": ""}]}
    assert [f.code for f in run_high_risk(unsigned)] == ["HIGH_RISK_INSUFFICIENT_APPROVALS"]
    not_a_list = {"approvals": {"approver": "ana", "signature": "s1"}}
    assert [f.code for f in run_high_risk(not_a_list)] == ["HIGH_RISK_INSUFFICIENT_APPROVALS"]
    # An unparsable sidecar reads as the defaults (no approvals), as readSidecar does.
    assert [f.code for f in run_high_risk(None, raw="{not json")] == ["HIGH_RISK_INSUFFICIENT_APPROVALS"]
    # Numbers are approvers too; 1 and 1.0 are one JavaScript number, "1" another value.
    numbers = {"approvals": [{"approver": 1, "signature": "a"}, {"approver": 1.0, "signature": "b"}]}
    assert [f.code for f in run_high_risk(numbers)] == ["HIGH_RISK_INSUFFICIENT_APPROVALS"]
    mixed = {"approvals": [{"approver": 1, "signature": "a"}, {"approver": "1", "signature": "b"}]}
    assert run_high_risk(mixed) == []


def test_an_unknown_level_is_invalid_at_the_word() -> None:
    spec = "---\ntitle: x\nrigor: Extreme\n---\n# X\n"
    (f,) = run(spec)
    assert f.code == "INVALID_RIGOR_LEVEL" and spec[f.span.start : f.span.end] == "Extreme"  # type: ignore[union-attr]


def test_front_matter_wins_over_an_inline_declaration() -> None:
    spec = "---\nrigor: quick\n---\n**Rigor**: feature\n"
    assert declared_rigor(spec).level == "quick"  # type: ignore[union-attr]
    # Without a rigor key the front matter is skipped and the inline declaration counts.
    assert declared_rigor("---\ntitle: x\n---\n**rigor**: FIX\n").level == "fix"  # type: ignore[union-attr]


def test_an_undeclared_level_or_an_inactive_feature_is_not_checked() -> None:
    assert codes("# Plain spec\n") == []
    assert codes("---\nrigor: feature\n---\n", active=False) == []


def test_front_matter_scan_is_linear_on_a_long_unterminated_block() -> None:
    spec = "---" + "\n" * 200_000 + "rigor: fix"
    assert declared_rigor(spec) is None


DETECTION = json.loads(
    (Path(__file__).resolve().parent.parent / "fixtures" / "upstream-2.0" / "rigor-detection.json").read_text("utf-8")
)


@pytest.mark.parametrize("case", DETECTION, ids=[repr(c["text"][:30]) for c in DETECTION])
def test_detection_agrees_with_the_reference_under_node(case: dict[str, str]) -> None:
    declared = declared_rigor(case["text"])
    if declared is None:
        assert case["expected"] == "feature"  # The reference's default when nothing is declared.
    elif declared.level in RIGOR_LEVELS:
        assert case["expected"] == declared.level
    else:
        assert case["expected"] == f"INVALID:{declared.level}"
