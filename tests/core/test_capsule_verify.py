"""Capsule verification: interoperability with the reference CLI and mutation scenarios.

``reference_context_verify`` below is an independent, faithful model of the reference's
``context verify`` (gemstack-cli.md section 6): our capsules must pass it, and it must agree
with our verdict on the reference's own capsules.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.core.capsule.canonical import canonical_text
from gemstack_lsp.core.capsule.extract import extract_invariants
from gemstack_lsp.core.capsule.generate import CapsuleResult, generate_capsule
from gemstack_lsp.core.capsule.verify import VerifyResult, check_repo, opted_in, verify_capsule
from gemstack_lsp.core.findings import Severity
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.reader import OverlayReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.fs import DiskReader, write_atomic
from tests.conftest import REFERENCE_OUTPUT

F9 = "specs/009-context-capsule"
F8 = "specs/008-cost-provider-safety-gates"
NOW = dt.datetime(2026, 12, 2, 12, 0, tzinfo=dt.UTC)

# --- an independent model of the reference's `context verify` ---------------------------------

_SECRET_KEYS = {
    "apiKey",
    "api_key",
    "token",
    "accessToken",
    "access_token",
    "secret",
    "clientSecret",
    "password",
    "credentials",
}
_SECRET_RES = [
    re.compile(r"AKIA[0-9A-Z]{16}"),
    re.compile(r"gh[pousr]_[A-Za-z0-9_]{36,}"),
    re.compile(r"sk-[A-Za-z0-9_-]{20,}"),
    re.compile(r"AIza[0-9A-Za-z_-]{30,}"),
    re.compile(r"Bearer\s+[A-Za-z0-9\-._~+/]+=*", re.IGNORECASE),
    re.compile(r"-----BEGIN[ A-Z0-9_-]*PRIVATE KEY-----"),
]


def _ref_hash(path: Path) -> str:
    text = path.read_bytes().decode("utf-8", "replace")
    assert not text.startswith("\ufeff")
    return hashlib.sha256(text.replace("\r\n", "\n").replace("\r", "\n").encode()).hexdigest()


def _ref_secret(value: Any) -> bool:
    if isinstance(value, dict):
        return any(k in _SECRET_KEYS or _ref_secret(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_ref_secret(v) for v in value)
    return isinstance(value, str) and any(r.search(value) for r in _SECRET_RES)


def reference_context_verify(root: Path, feature: str) -> tuple[str, str | None]:
    """(state, code) exactly as the reference decides them: the first failing check wins."""
    path = root / feature / "context-capsule.json"
    if not path.exists():
        return "MISSING", "CONTEXT_CAPSULE_MISSING"
    raw = path.read_bytes()
    try:
        capsule = json.loads(raw.decode("utf-8", "replace"))
    except ValueError:
        return "INVALID", "CONTEXT_CAPSULE_INVALID"
    version = capsule.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int | float) or version != 1:
        return "INVALID", "CONTEXT_CAPSULE_INVALID"
    if len(raw) > 65536:
        return "INVALID", "CONTEXT_CAPSULE_TOO_LARGE"
    if _ref_secret(capsule):
        return "INVALID", "CONTEXT_CAPSULE_SECRET_DETECTED"
    prov = capsule.get("provenance")
    if prov is None:
        return "VALID", None
    for src in prov["sources"]:
        file = root / src["path"].lstrip("/")
        if not file.exists():
            return "STALE", "CONTEXT_CAPSULE_SOURCE_MISMATCH"
        if _ref_hash(file) != src["hash"]:
            return "STALE", "CONTEXT_CAPSULE_STALE"
    pairs = json.dumps(
        [{"path": s["path"], "hash": s["hash"]} for s in prov["sources"]], separators=(",", ":"), ensure_ascii=False
    )
    if hashlib.sha256(pairs.encode()).hexdigest() != prov.get("source_set_hash"):
        return "STALE", "CONTEXT_CAPSULE_STALE"
    spec = next((s for s in prov["sources"] if s.get("role") == "SPECIFICATION"), None)
    if spec is not None and (root / spec["path"]).exists():
        rules = {i["rule"] for i in capsule["canonical_invariants"]}
        text = (root / spec["path"]).read_bytes().decode("utf-8", "replace")
        if any(inv.rule not in rules for inv in extract_invariants(text)):
            return "INVALID", "CONTEXT_CAPSULE_INVARIANT_DROPPED"
    return "VALID", None


# --- helpers ----------------------------------------------------------------------------------


def disk(root: Path) -> GemstackRepo:
    return GemstackRepo(str(root), DiskReader(root))


def gen(root: Path, feature: str = F9) -> CapsuleResult:
    result = generate_capsule(disk(root), feature, NOW)
    assert result.ok and result.data is not None, [f.message for f in result.findings]
    write_atomic(root / result.path, result.data)
    return result


def verify(root: Path, feature: str = F9) -> VerifyResult:
    return verify_capsule(disk(root), feature)


def capsule_file(root: Path, feature: str = F9) -> Path:
    return root / feature / "context-capsule.json"


def edit_capsule(root: Path, change: Any, feature: str = F9) -> None:
    data = json.loads(capsule_file(root, feature).read_text("utf-8"))
    change(data)
    capsule_file(root, feature).write_text(canonical_text(data), "utf-8")


def by_code(result: VerifyResult, code: str) -> list[Any]:
    return [f for f in result.findings if f.code == code]


# --- interoperability -------------------------------------------------------------------------


def test_reference_009_capsule_is_valid(reference_repo: Path) -> None:
    shutil.copy(REFERENCE_OUTPUT / "specs-009-context-capsule.json", capsule_file(reference_repo))
    result = verify(reference_repo)
    assert result.state == "VALID", [f.message for f in result.findings]
    assert reference_context_verify(reference_repo, F9) == ("VALID", None)


def test_reference_008_capsule_is_stale_naming_state_json(reference_repo: Path) -> None:
    shutil.copy(REFERENCE_OUTPUT / "specs-008-cost-provider-safety-gates.json", capsule_file(reference_repo, F8))
    result = verify(reference_repo, F8)
    assert result.state == "STALE"
    assert [(f.code, f.message) for f in result.findings] == [
        ("CONTEXT_CAPSULE_STALE", "Source file .gemstack/state.json was modified since capsule generation.")
    ]
    assert reference_context_verify(reference_repo, F8) == ("STALE", "CONTEXT_CAPSULE_STALE")
    text = capsule_file(reference_repo, F8).read_text("utf-8")
    span = result.findings[0].span
    assert span is not None
    entry = json.loads(text[span.start : span.end])
    assert entry["path"] == ".gemstack/state.json"


def test_generated_capsule_matches_reference_on_the_fixture(reference_repo: Path) -> None:
    ours = gen(reference_repo).capsule
    assert ours is not None
    ref = json.loads((REFERENCE_OUTPUT / "specs-009-context-capsule.json").read_text("utf-8"))
    assert ours["provenance"] == ref["provenance"]
    assert ours["canonical_invariants"] == ref["canonical_invariants"]
    assert sorted(c["id"] for c in ours["frozen_contracts"]) == [c["id"] for c in ref["frozen_contracts"]]
    assert ours["acceptance_matrix"] == ref["acceptance_matrix"]
    # Better content than the reference's constants.
    assert ours["generator"]["name"] == "gemstack-lsp"
    assert ours["project"]["name"] == "gemstack-fixture"
    assert ours["project"]["next_permitted_phase"] == "VERIFICATION"
    assert ours["tasks_state"]["completed"] == 24 and ours["tasks_state"]["active_task_ids"] == []
    assert [h["feature"] for h in ours["historical_context"]] == [F8]
    assert "upgrade-c-cost-states" in ours["historical_context"][0]["key_guarantees"]
    assert "tests/context-purity.test.js" in ours["relevant_files"]
    assert any(d.startswith("[NON_GOAL] Vector Database") for d in ours["deferred_items"])


def test_generated_capsules_pass_the_reference_verify(reference_repo: Path) -> None:
    gen(reference_repo)
    assert reference_context_verify(reference_repo, F9) == ("VALID", None)
    (reference_repo / ".gemstack" / "state.json").unlink()
    gen(reference_repo, F8)
    assert reference_context_verify(reference_repo, F8) == ("VALID", None)
    assert verify(reference_repo, F8).state == "VALID"


def test_enum_set_values_are_kept(reference_repo: Path) -> None:
    capsule = gen(reference_repo, F8).capsule
    assert capsule is not None
    enum = next(c for c in capsule["frozen_contracts"] if c["id"] == "upgrade-c-cost-states")
    assert enum == {
        "id": "upgrade-c-cost-states",
        "type": "ENUM_SET",
        "values": ["BILLABLE", "FREE", "POTENTIALLY_BILLABLE", "UNKNOWN"],
    }


def test_reference_lossy_encoding_is_not_a_conflict(reference_repo: Path) -> None:
    gen(reference_repo, F8)

    # What the reference writes for the same sources: ENUM_SET as value true, completed 0, all ids active.
    def lossy(c: dict[str, Any]) -> None:
        for contract in c["frozen_contracts"]:
            contract.pop("values", None)
            contract["value"] = contract.get("value", True)
        c["tasks_state"] = {
            "total": 7,
            "completed": 0,
            "in_progress": "T001",
            "active_task_ids": [f"T00{i}" for i in range(1, 8)],
        }
        c["generator"] = {"name": "gemstack", "version": "1.2.0"}

    edit_capsule(reference_repo, lossy, F8)
    assert verify(reference_repo, F8).state == "VALID"


# --- freshness --------------------------------------------------------------------------------


def test_plan_edit_and_deleted_source(reference_repo: Path) -> None:
    gen(reference_repo)
    (reference_repo / F9 / "plan.md").write_text("new plan\n", "utf-8")
    assert [f.subject for f in by_code(verify(reference_repo), "CONTEXT_CAPSULE_STALE")] == [f"{F9}/plan.md"]
    (reference_repo / F9 / "plan.md").unlink()
    result = verify(reference_repo)
    assert result.state == "STALE"
    assert [f.message for f in by_code(result, "CONTEXT_CAPSULE_SOURCE_MISMATCH")] == [
        f"Recorded source file missing on disk: {F9}/plan.md"
    ]


@pytest.mark.parametrize("new_file", ["closure.json", "cost-ledger.json"])
def test_new_source_after_generation_is_stale(reference_repo: Path, new_file: str) -> None:
    gen(reference_repo)
    (reference_repo / F9 / new_file).write_text('{"status": "VERIFIED"}\n', "utf-8")
    result = verify(reference_repo)
    assert result.state == "STALE"
    assert [f.subject for f in result.findings] == [f"{F9}/{new_file}"]
    assert "appeared since capsule generation" in result.findings[0].message


def test_plan_created_after_generation_is_stale(reference_repo: Path) -> None:
    plan = (reference_repo / F9 / "plan.md").read_text("utf-8")
    (reference_repo / F9 / "plan.md").unlink()
    gen(reference_repo)
    assert verify(reference_repo).state == "VALID"
    (reference_repo / F9 / "plan.md").write_text(plan, "utf-8")
    assert verify(reference_repo).state == "STALE"


def test_shipped_spec_and_project_name_changes_are_stale(reference_repo: Path) -> None:
    gen(reference_repo)
    with (reference_repo / F8 / "spec.md").open("a", encoding="utf-8") as fh:
        fh.write("\nchanged\n")
    pkg = reference_repo / "package.json"
    pkg.write_text(pkg.read_text("utf-8").replace("gemstack-fixture", "renamed"), "utf-8")
    result = verify(reference_repo)
    assert result.state == "STALE"
    assert {f.subject for f in result.findings} == {f"{F8}/spec.md", "project.name"}


def test_crlf_conversion_keeps_capsule_valid(reference_repo: Path) -> None:
    gen(reference_repo)
    for name in ("spec.md", "tasks.md"):
        p = reference_repo / F9 / name
        p.write_bytes(p.read_bytes().replace(b"\n", b"\r\n"))
    assert verify(reference_repo).state == "VALID"
    assert reference_context_verify(reference_repo, F9) == ("VALID", None)
    # And a capsule generated from CRLF sources is the same capsule.
    again = generate_capsule(disk(reference_repo), F9, NOW)
    assert again.data == capsule_file(reference_repo).read_bytes()


def test_bom_in_source(reference_repo: Path) -> None:
    gen(reference_repo)
    spec = reference_repo / F9 / "spec.md"
    spec.write_bytes(b"\xef\xbb\xbf" + spec.read_bytes())
    result = verify(reference_repo)
    assert result.state == "STALE"
    assert "UTF-8 BOM is forbidden in phase artifacts." in by_code(result, "CONTEXT_CAPSULE_SOURCE_MISMATCH")[0].message
    failed = generate_capsule(disk(reference_repo), F9, NOW)
    assert not failed.ok
    assert [(f.code, f.message, f.path) for f in failed.findings] == [
        ("ARTIFACT_ENCODING_INVALID", "UTF-8 BOM is forbidden in phase artifacts.", f"{F9}/spec.md")
    ]


# --- tampering, invalid capsules ----------------------------------------------------------------


def test_dropped_invariant_and_contract(reference_repo: Path) -> None:
    gen(reference_repo)

    def drop(c: dict[str, Any]) -> None:
        c["canonical_invariants"] = [i for i in c["canonical_invariants"] if i["id"] not in ("INV-004", "INV-005")]
        c["frozen_contracts"] = [k for k in c["frozen_contracts"] if k["id"] != "zero-dependency-core"]

    edit_capsule(reference_repo, drop)
    result = verify(reference_repo)
    assert result.state == "INVALID"
    dropped = by_code(result, "CONTEXT_CAPSULE_INVARIANT_DROPPED")
    assert [f.subject for f in dropped] == ["INV-004", "INV-005", "zero-dependency-core"]
    spec = (reference_repo / F9 / "spec.md").read_text("utf-8")
    assert dropped[0].path == f"{F9}/spec.md"
    assert dropped[0].span is not None
    assert "Downstream tooling MUST NOT use the capsule" in spec[dropped[0].span.start : dropped[0].span.end]
    assert spec[dropped[2].span.start : dropped[2].span.end] == '"zero-dependency-core"'
    assert dropped[0].message == (
        'Normative constraint "Downstream tooling MUST NOT use the capsule to override or amend any Level 1–6 '
        'artifact." is missing from capsule.'
    )
    assert reference_context_verify(reference_repo, F9) == ("INVALID", "CONTEXT_CAPSULE_INVARIANT_DROPPED")


def test_task_claims_conflicts(reference_repo: Path) -> None:
    tasks = reference_repo / F9 / "tasks.md"
    tasks.write_text(tasks.read_text("utf-8").replace("- [x] **T010:", "- [ ] **T010:"), "utf-8")
    gen(reference_repo)

    def phantom(c: dict[str, Any]) -> None:
        c["tasks_state"]["completed"] = 24
        c["tasks_state"]["completed_task_ids"].append("T010")
        c["tasks_state"]["active_task_ids"].append("T999")

    edit_capsule(reference_repo, phantom)
    result = verify(reference_repo)
    assert result.state == "INVALID"
    messages = [f.message for f in by_code(result, "CONTEXT_CAPSULE_AUTHORITY_CONFLICT")]
    assert "Capsule claims 24 completed tasks; tasks.md shows 23 checked." in messages
    assert "Capsule claims task T010 is complete; tasks.md shows it unchecked." in messages
    assert 'Capsule lists task "T999" that tasks.md does not declare.' in messages


def test_fewer_completed_is_not_a_conflict(reference_repo: Path) -> None:
    gen(reference_repo)
    edit_capsule(reference_repo, lambda c: c["tasks_state"].update(completed=3))
    assert verify(reference_repo).state == "VALID"


def test_active_feature_and_lifecycle_conflicts(reference_repo: Path) -> None:
    gen(reference_repo)

    def lie(c: dict[str, Any]) -> None:
        c["project"]["active_feature"] = F8
        c["project"]["lifecycle_status"] = "SHIPPED"
        c["acceptance_matrix"]["canonical_ids"] = [*c["acceptance_matrix"]["canonical_ids"][:-1], "TEST-CONTEXT-Z99"]

    edit_capsule(reference_repo, lie)
    subjects = {f.subject for f in by_code(verify(reference_repo), "CONTEXT_CAPSULE_AUTHORITY_CONFLICT")}
    assert subjects == {"project.active_feature", "project.lifecycle_status", "acceptance_matrix.canonical_ids"}


def test_conflict_needs_an_unchanged_source(reference_repo: Path) -> None:
    gen(reference_repo)
    edit_capsule(reference_repo, lambda c: c["project"].update(current_phase="ship"))
    (reference_repo / ".gemstack" / "state.json").write_text('{"current_phase": "ship"}\n', "utf-8")
    result = verify(reference_repo)
    assert result.state == "STALE"
    assert by_code(result, "CONTEXT_CAPSULE_AUTHORITY_CONFLICT") == []


def test_all_findings_reported(reference_repo: Path) -> None:
    gen(reference_repo)
    (reference_repo / F9 / "plan.md").write_text("x\n", "utf-8")
    (reference_repo / F9 / "closure.json").write_text("{}\n", "utf-8")
    edit_capsule(reference_repo, lambda c: c["tasks_state"].update(total=1, secret="x"))
    result = verify(reference_repo)
    assert result.state == "INVALID"
    assert {f.code for f in result.findings} >= {
        "CONTEXT_CAPSULE_STALE",
        "CONTEXT_CAPSULE_SECRET_DETECTED",
        "CONTEXT_CAPSULE_AUTHORITY_CONFLICT",
    }


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "Context capsule JSON parse error:"),
        ("null", "Context capsule must be a JSON object"),
        ('{"schema_version": "1"}', "Unsupported schema version: 1"),
        ('{"schema_version": true}', "Unsupported schema version: true"),
        ("{}", "Unsupported schema version: undefined"),
        ('{"schema_version": 2}', "Unsupported schema version: 2"),
        ('{"schema_version": 1, "provenance": {"sources": 5}}', "Capsule does not match context-capsule v1"),
        ('{"schema_version": 1}', "Capsule does not match context-capsule v1 at (root): 'provenance' is a required"),
    ],
)
def test_invalid_capsules(reference_repo: Path, content: str, message: str) -> None:
    capsule_file(reference_repo).write_text(content, "utf-8")
    result = verify(reference_repo)
    assert result.state == "INVALID"
    assert any(f.message.startswith(message) for f in result.findings), [f.message for f in result.findings]


def test_bom_capsule_and_escaping_source_path(reference_repo: Path) -> None:
    gen(reference_repo)
    data = capsule_file(reference_repo).read_bytes()
    capsule_file(reference_repo).write_bytes(b"\xef\xbb\xbf" + data)
    assert verify(reference_repo).state == "INVALID"
    capsule_file(reference_repo).write_bytes(data)
    edit_capsule(reference_repo, lambda c: c["provenance"]["sources"][0].update(path="../../etc/passwd"))
    result = verify(reference_repo)
    assert result.state == "INVALID"
    assert "not repository-relative: ../../etc/passwd" in result.findings[0].message


def test_oversized_and_secret_capsules(reference_repo: Path) -> None:
    gen(reference_repo)
    edit_capsule(reference_repo, lambda c: c.update(unresolved_blockers=["x" * 70000]))
    assert [f.code for f in verify(reference_repo).findings if f.code == "CONTEXT_CAPSULE_TOO_LARGE"] == [
        "CONTEXT_CAPSULE_TOO_LARGE"
    ]
    gen(reference_repo)
    token = "sk-" + "q" * 30
    edit_capsule(reference_repo, lambda c: c.update(unresolved_blockers=[f"use {token}"]))
    result = verify(reference_repo)
    assert result.state == "INVALID"
    found = by_code(result, "CONTEXT_CAPSULE_SECRET_DETECTED")
    assert found and all(token not in f.message for f in found)
    text = capsule_file(reference_repo).read_text("utf-8")
    assert found[0].span is not None and token in text[found[0].span.start : found[0].span.end]


# --- size budget ------------------------------------------------------------------------------


def test_priority_condensation_keeps_every_invariant(tmp_path: Path) -> None:
    root = tmp_path
    rules = "\n".join(f"- Rule {i:04d} MUST hold for component {'y' * 40}." for i in range(330))
    (root / "specs" / "002-big").mkdir(parents=True)
    (root / "specs" / "002-big" / "spec.md").write_text(f"# Big\n## 1. Rules\n{rules}\n", "utf-8")
    (root / "specs" / "001-old").mkdir(parents=True)
    contracts = json.dumps([{"id": f"old-{i}", "type": "BOOLEAN_INVARIANT", "value": True} for i in range(5)])
    (root / "specs" / "001-old" / "spec.md").write_text(f"# Old\n\n```gemstack-contracts\n{contracts}\n```\n", "utf-8")
    (root / ".gemstack").mkdir()
    (root / ".gemstack" / "state.json").write_text(
        json.dumps({"active_spec": "specs/002-big", "last_completed_feature": "specs/001-old"}), "utf-8"
    )
    result = generate_capsule(disk(root), "specs/002-big", NOW)
    assert result.ok and result.capsule is not None and result.data is not None
    assert "priority-3" in result.condensed
    assert result.capsule["historical_context"] == [{"feature": "specs/001-old", "status": "CLOSED"}]
    assert len(result.capsule["canonical_invariants"]) == 330
    assert 32768 < len(result.data) <= 65536


# --- editor view: overlay reader, check_repo ----------------------------------------------------


def test_overlay_buffers_are_the_sources(reference_repo: Path) -> None:
    gen(reference_repo)
    spec = (reference_repo / F9 / "spec.md").read_text("utf-8") + "\nUnsaved rule MUST appear.\n"
    overlay = GemstackRepo(str(reference_repo), OverlayReader(DiskReader(reference_repo), {f"{F9}/spec.md": spec}))
    assert verify_capsule(overlay, F9).state == "STALE"
    fresh = generate_capsule(overlay, F9, NOW)
    assert fresh.data is not None
    write_atomic(capsule_file(reference_repo), fresh.data)
    overlay = GemstackRepo(str(reference_repo), OverlayReader(DiskReader(reference_repo), {f"{F9}/spec.md": spec}))
    assert verify_capsule(overlay, F9).state == "VALID"
    assert verify(reference_repo).state == "STALE"  # the truth on disk until the buffer is saved


def test_one_stale_capsule_is_one_error_on_the_spec_title_with_the_capsule_related(reference_repo: Path) -> None:
    gen(reference_repo)
    (reference_repo / F9 / "tasks.md").write_text("changed\n", "utf-8")
    findings = [f for f in analyze(disk(reference_repo)) if f.code.startswith("CONTEXT_CAPSULE")]
    assert [(f.code, f.path, f.effective_severity) for f in findings] == [
        ("CONTEXT_CAPSULE_STALE", f"{F9}/spec.md", Severity.BLOCKER)
    ]
    (f,) = findings
    assert f.message == (
        f"Context capsule of {F9} is STALE: {F9}/tasks.md changed since it was generated. Regenerate it."
    )
    spec = (reference_repo / F9 / "spec.md").read_text("utf-8")
    assert f.span is not None and spec[f.span.start : f.span.end] == spec.splitlines()[0]
    # The capsule's stale source entry and the changed file are related locations.
    text = capsule_file(reference_repo).read_text("utf-8")
    (entry,) = [r for r in f.related if r.path == f"{F9}/context-capsule.json"]
    assert entry.span is not None and json.loads(text[entry.span.start : entry.span.end])["path"] == f"{F9}/tasks.md"
    assert entry.message == f"Source file {F9}/tasks.md was modified since capsule generation."
    assert (f"{F9}/tasks.md", None) in {(r.path, r.span) for r in f.related}
    commands = {(fix.command, fix.arguments) for fix in f.fixes}
    assert ("gemstack.regenerateCapsule", (F9,)) in commands
    assert ("gemstack.verifyCapsule", (F9,)) in commands
    assert len(f.fingerprint) == 64


def test_a_stale_capsule_without_a_spec_sits_on_the_capsule(reference_repo: Path) -> None:
    gen(reference_repo)
    (reference_repo / F9 / "spec.md").unlink()
    (f,) = [f for f in analyze(disk(reference_repo)) if f.code.startswith("CONTEXT_CAPSULE")]
    assert (f.code, f.path) == ("CONTEXT_CAPSULE_SOURCE_MISMATCH", f"{F9}/context-capsule.json")
    assert f.message == (
        f"Context capsule of {F9} is STALE: {F9}/spec.md is missing or unreadable since it was generated. "
        "Regenerate it."
    )


def test_several_changed_sources_are_still_one_finding(reference_repo: Path) -> None:
    gen(reference_repo)
    (reference_repo / F9 / "tasks.md").write_text("changed\n", "utf-8")
    (reference_repo / F9 / "plan.md").unlink()
    state = reference_repo / ".gemstack" / "state.json"
    state.write_text(state.read_text("utf-8").replace('"IMPLEMENTING"', '"VERIFYING"'), "utf-8")
    (f,) = [f for f in analyze(disk(reference_repo)) if f.code.startswith("CONTEXT_CAPSULE")]
    assert f.code == "CONTEXT_CAPSULE_STALE" and f.effective_severity is Severity.BLOCKER
    assert f.message == (
        f"Context capsule of {F9} is STALE: .gemstack/state.json and {F9}/tasks.md changed and "
        f"{F9}/plan.md is missing or unreadable since it was generated. Regenerate it."
    )
    # `context verify` still lists every one of them.
    assert [x.subject for x in verify(reference_repo).findings] == [
        ".gemstack/state.json",
        f"{F9}/plan.md",
        f"{F9}/tasks.md",
    ]


def test_a_state_change_is_one_warning_per_inactive_capsule_naming_state_json(tmp_path: Path) -> None:
    """Where every feature has a capsule, one edit of state.json was 2 errors per feature."""
    root = tmp_path / "repo"
    names = [f"specs/{i:03d}-f" for i in range(1, 23)]
    for name in names:
        (root / name).mkdir(parents=True)
        (root / name / "spec.md").write_text(f"# {name}\n- It MUST hold.\n", "utf-8")
    (root / ".gemstack").mkdir()
    state = root / ".gemstack" / "state.json"
    state.write_text(json.dumps({"active_spec": names[-1], "last_update": None, "stop_reason": None}), "utf-8")
    for name in names:
        gen(root, name)
    assert [f for f in analyze(disk(root)) if f.code.startswith("CONTEXT_CAPSULE")] == []
    state.write_text(json.dumps({"active_spec": names[-1], "last_update": "2026-12-02T10:00:00Z"}), "utf-8")
    findings = [f for f in analyze(disk(root)) if f.code.startswith("CONTEXT_CAPSULE")]
    assert [(f.path, f.effective_severity) for f in findings] == [
        (f"{name}/spec.md", Severity.WARNING if name != names[-1] else Severity.BLOCKER) for name in names
    ]
    assert all(".gemstack/state.json changed" in f.message for f in findings)
    assert findings[0].message.endswith(f"({names[0]} is not the active feature: a warning, not an error.)")
    # Nothing is active any more (as upstream after shipping): warnings only, `check` passes.
    state.write_text(json.dumps({"active_spec": None, "current_phase": "shipped"}), "utf-8")
    findings = [f for f in analyze(disk(root)) if f.code.startswith("CONTEXT_CAPSULE")]
    assert len(findings) == len(names) and {f.effective_severity for f in findings} == {Severity.WARNING}


def test_an_invalid_capsule_of_an_inactive_feature_is_a_warning(reference_repo: Path) -> None:
    gen(reference_repo, F8)
    gen(reference_repo, F9)
    edit_capsule(reference_repo, lambda c: c["frozen_contracts"].pop(), F8)
    findings = [f for f in analyze(disk(reference_repo)) if f.code.startswith("CONTEXT_CAPSULE")]
    assert [(f.code, f.path, f.effective_severity) for f in findings] == [
        ("CONTEXT_CAPSULE_INVARIANT_DROPPED", f"{F8}/spec.md", Severity.WARNING)
    ]
    # `context verify` on it still fails: the state is INVALID whoever asks.
    assert verify(reference_repo, F8).state == "INVALID"


def test_check_repo_missing_for_opted_in_feature(reference_repo: Path) -> None:
    repo = disk(reference_repo)
    assert opted_in(repo, F9) and not opted_in(repo, F8)
    findings = [f for f in check_repo(repo, AnalysisOptions()) if f.code.startswith("CONTEXT_CAPSULE")]
    assert [(f.code, f.path, f.effective_severity) for f in findings] == [
        ("CONTEXT_CAPSULE_MISSING", f"{F9}/spec.md", Severity.WARNING)
    ]
    state = reference_repo / ".gemstack" / "state.json"
    state.write_text(state.read_text("utf-8").replace('"implementation"', '"ship"'), "utf-8")
    findings = list(check_repo(disk(reference_repo), AnalysisOptions()))
    assert findings[0].effective_severity is Severity.BLOCKER
    # At ship, but not the active feature: a warning (it used to be a blocker for every feature).
    state.write_text(state.read_text("utf-8").replace(F9, F8), "utf-8")
    findings = list(check_repo(disk(reference_repo), AnalysisOptions()))
    assert [(f.path, f.effective_severity) for f in findings] == [(f"{F9}/spec.md", Severity.WARNING)]
    # Shipped: no continuation context is needed any more, so a missing capsule is no finding.
    state.write_text(json.dumps({"active_spec": None, "last_completed_feature": F9 + "/"}), "utf-8")
    assert list(check_repo(disk(reference_repo), AnalysisOptions())) == []


def test_check_repo_quiet_when_valid(reference_repo: Path) -> None:
    gen(reference_repo)
    assert list(check_repo(disk(reference_repo), AnalysisOptions())) == []


def test_reference_capsule_earns_an_informational_note(reference_repo: Path) -> None:
    shutil.copy(REFERENCE_OUTPUT / "specs-009-context-capsule.json", capsule_file(reference_repo))
    result = verify(reference_repo)
    assert result.state == "VALID" and result.findings == ()
    assert len(result.notes) == 1 and "Regenerate with gemstack-lsp" in result.notes[0]
    gen(reference_repo)
    assert verify(reference_repo).notes == ()


def test_reference_v1_3_task_total_is_not_a_conflict(reference_repo: Path) -> None:
    tasks = reference_repo / F9 / "tasks.md"
    tasks.write_text(tasks.read_text("utf-8") + "\n- [ ] **UD-T100: a 1.4-style task**\n", "utf-8")
    gen(reference_repo)
    assert verify(reference_repo).state == "VALID"
    # The 1.3 reference would have counted 24 tasks (it does not see UD-T100).
    edit_capsule(reference_repo, lambda c: c["tasks_state"].update(total=24))
    assert verify(reference_repo).state == "VALID"
    edit_capsule(reference_repo, lambda c: c["tasks_state"].update(total=23))
    assert verify(reference_repo).state == "INVALID"


def test_unreadable_capsules_are_findings_not_crashes() -> None:
    from gemstack_lsp.core.reader import MAX_ANALYSED_BYTES, MemoryReader

    spec = "# S\n- It MUST hold.\n"
    huge = GemstackRepo(
        "/x", MemoryReader({"specs/a/spec.md": spec, "specs/a/context-capsule.json": b" " * (MAX_ANALYSED_BYTES + 1)})
    )
    result = verify_capsule(huge, "specs/a")
    assert (result.state, [f.code for f in result.findings]) == ("INVALID", ["CONTEXT_CAPSULE_TOO_LARGE"])
    folder = GemstackRepo("/x", MemoryReader({"specs/a/spec.md": spec, "specs/a/context-capsule.json/x": "{}"}))
    result = verify_capsule(folder, "specs/a")
    assert result.state == "INVALID" and result.findings[0].message.startswith("Context capsule cannot be read")
