"""Closure evidence (Upgrade B): closure.json read, validated and checked as the reference's verify stage 5.

The closure context hashes below were computed by the reference's own algorithm (its
``closure-context.js``, ``hasher.js`` and ``test-matrix.js`` with the 1.4 task header, run by
Node.js on the fixture repository, which is no Git repository).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.core.closure import compute_closure_context, feature_closure_findings
from gemstack_lsp.core.findings import Finding, Severity
from gemstack_lsp.core.i18n import localize
from gemstack_lsp.core.reader import MemoryReader, OverlayReader, RepositoryState, repository_state_of
from gemstack_lsp.core.repo import Feature, GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.fs import DiskReader, git_repository_state

ACTIVE = Feature("009-context-capsule")
OTHER = Feature("008-cost-provider-safety-gates")
REFERENCE_HASH_009 = "65f9188e72617c5b9aa6c38246a7a3b82a9dd479aabde779277d1f5750c34dbf"
REFERENCE_HASH_008 = "7d07ced76df227adc744bb2cdfe7dec11734afd22d1de336dc4b27a17d3d62b1"


def repo_at(root: Path) -> GemstackRepo:
    return GemstackRepo(str(root), DiskReader(root))


def closure_codes(root: Path) -> list[Finding]:
    return [f for f in analyze(repo_at(root)) if f.info.family == "closure"]


def manifest(context_hash: str | None, status: str = "VERIFIED", **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "schema": "gemstack-closure",
        "version": 1,
        "feature": "specs/009-context-capsule",
        "generated_at": "2026-12-01T10:00:00.000Z",
        "status": status,
        "closure_context": {
            "closure_context_hash": context_hash,
            "repository_type": "non-git",
            "git_commit": None,
            "working_tree_clean": None,
            "relevant_files_digest": "0" * 64,
        },
        "canonical_summary": {
            "required_total": 3,
            "required_passed": 3,
            "supplemental_total": 0,
            "supplemental_passed": 0,
        },
        "blockers": [],
    }
    if context_hash is None:
        del data["closure_context"]
    data.update(extra)
    return data


def write(root: Path, feature: Feature, data: Any) -> Path:
    path = root / feature.closure
    path.write_text(json.dumps(data, indent=2) + "\n", "utf-8")
    return path


def test_the_context_hash_is_the_references(reference_repo: Path) -> None:
    repo = repo_at(reference_repo)
    assert compute_closure_context(repo, ACTIVE).hash == REFERENCE_HASH_009
    assert compute_closure_context(repo, OTHER).hash == REFERENCE_HASH_008


def test_the_fixture_lacks_the_active_features_closure_json(reference_repo: Path) -> None:
    findings = closure_codes(reference_repo)
    assert [(f.code, f.path, f.effective_severity) for f in findings] == [
        ("CLOSURE_MANIFEST_MISSING", "specs/009-context-capsule/spec.md", Severity.BLOCKER)
    ]
    f = findings[0]
    assert f.message == (
        'closure.json does not exist in specs/009-context-capsule. Run "gemstack collect" to produce the mechanical '
        "evidence."
    )
    # In Spanish, the reference's own words (issue 18: one language per message).
    assert localize(f.code, f.message, "es") == (
        'closure.json no existe en specs/009-context-capsule. Ejecuta "gemstack collect" para generar la evidencia '
        "mecánica."
    )
    text = (reference_repo / ACTIVE.spec).read_text("utf-8")
    assert f.span is not None and text[f.span.start : f.span.end] == "```gemstack-test-matrix"
    assert f.related and f.related[0].path == ".gemstack/state.json"


def test_fresh_verified_evidence_has_no_finding(reference_repo: Path) -> None:
    write(reference_repo, ACTIVE, manifest(REFERENCE_HASH_009))
    assert closure_codes(reference_repo) == []


def test_an_edit_makes_the_evidence_stale(reference_repo: Path) -> None:
    path = write(reference_repo, ACTIVE, manifest(REFERENCE_HASH_009))
    (reference_repo / "package.json").write_text('{"name": "changed"}\n', "utf-8")
    findings = closure_codes(reference_repo)
    assert [f.code for f in findings] == ["CLOSURE_EVIDENCE_STALE"]
    now = compute_closure_context(repo_at(reference_repo), ACTIVE).hash
    assert findings[0].message == (
        'The closure evidence is out of date with the project\'s current state. Run "gemstack collect" again. '
        f"(Recorded: {REFERENCE_HASH_009[:12]}..., Current: {now[:12]}...)"
    )
    assert localize(findings[0].code, findings[0].message, "es") == (
        'La evidencia de cierre está desactualizada respecto al estado actual del proyecto. Re-ejecuta "gemstack '
        f'collect". (Registrado: {REFERENCE_HASH_009[:12]}..., Actual: {now[:12]}...)'
    )
    span = findings[0].span
    assert span is not None and path.read_text("utf-8")[span.start : span.end] == f'"{REFERENCE_HASH_009}"'


def test_a_stale_blocked_manifest_is_only_stale(reference_repo: Path) -> None:
    write(reference_repo, ACTIVE, manifest("f" * 64, status="BLOCKED"))
    assert [f.code for f in closure_codes(reference_repo)] == ["CLOSURE_EVIDENCE_STALE"]


def test_no_closure_context_is_recorded_as_none(reference_repo: Path) -> None:
    write(reference_repo, ACTIVE, manifest(None))
    schema, finding = sorted(closure_codes(reference_repo), key=lambda f: f.code, reverse=True)
    assert schema.code == "CLOSURE_MANIFEST_INVALID" and schema.effective_severity is Severity.WARNING
    assert "'closure_context' is a required property" in schema.message
    assert finding.code == "CLOSURE_EVIDENCE_STALE"
    assert f"(Recorded: none..., Current: {REFERENCE_HASH_009[:12]}...)" in finding.message


def test_fresh_blocked_evidence_is_not_verified(reference_repo: Path) -> None:
    blockers = [{"code": "REQUIRED_TEST_FAILED", "message": "TEST-CONTEXT-A01 failed"}]
    path = write(reference_repo, ACTIVE, manifest(REFERENCE_HASH_009, status="BLOCKED", blockers=blockers))
    (finding,) = closure_codes(reference_repo)
    assert finding.code == "CLOSURE_NOT_VERIFIED"
    assert finding.message == (
        'The manifest status is "BLOCKED". Blockers: '
        '[{"code":"REQUIRED_TEST_FAILED","message":"TEST-CONTEXT-A01 failed"}]'
    )
    assert localize(finding.code, finding.message, "es") == (
        'Estado del manifiesto es "BLOCKED". Bloqueadores: '
        '[{"code":"REQUIRED_TEST_FAILED","message":"TEST-CONTEXT-A01 failed"}]'
    )
    assert finding.span is not None and path.read_text("utf-8")[finding.span.start : finding.span.end] == '"BLOCKED"'


def test_unparsable_closure_json(reference_repo: Path) -> None:
    (reference_repo / ACTIVE.closure).write_text('{"status": "VERIFIED",}\n', "utf-8")
    (finding,) = closure_codes(reference_repo)
    assert finding.code == "CLOSURE_MANIFEST_INVALID"
    assert finding.message.startswith("closure.json is not valid JSON: ")
    # Never half and half: the parser's error is translated with the rest.
    spanish = localize(finding.code, finding.message, "es")
    assert spanish.startswith("closure.json tiene formato JSON inválido: ")
    assert spanish != finding.message and "Unexpected" not in spanish
    assert finding.effective_severity is Severity.BLOCKER
    assert finding.span is not None and finding.span.start == len('{"status": "VERIFIED"')


def test_closure_json_with_a_bom_does_not_parse(reference_repo: Path) -> None:
    text = json.dumps(manifest(REFERENCE_HASH_009))
    (reference_repo / ACTIVE.closure).write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert [f.code for f in closure_codes(reference_repo)] == ["CLOSURE_MANIFEST_INVALID"]


def test_a_manifest_that_does_not_match_its_schema_is_a_warning(reference_repo: Path) -> None:
    write(reference_repo, ACTIVE, manifest(REFERENCE_HASH_009, schema="something-else"))
    (finding,) = closure_codes(reference_repo)
    assert finding.code == "CLOSURE_MANIFEST_INVALID"
    assert finding.effective_severity is Severity.WARNING
    assert "schema" in finding.message


def test_verified_evidence_contradicted_by_unchecked_tasks(reference_repo: Path) -> None:
    write(reference_repo, ACTIVE, manifest(REFERENCE_HASH_009))
    tasks = reference_repo / ACTIVE.tasks
    tasks.write_text(tasks.read_text("utf-8").replace("- [x] **T002:", "- [ ] **T002:"), "utf-8")
    findings = closure_codes(reference_repo)
    # The edit changes tasks.md, so the evidence is stale too.
    assert sorted(f.code for f in findings) == ["CLOSURE_EVIDENCE_CONTRADICTED", "CLOSURE_EVIDENCE_STALE"]
    contradicted = next(f for f in findings if f.code == "CLOSURE_EVIDENCE_CONTRADICTED")
    assert contradicted.effective_severity is Severity.BLOCKER
    assert "1 task(s) of tasks.md are not checked: T002" in contradicted.message
    assert [r.path for r in contradicted.related] == [ACTIVE.tasks]


def test_inactive_features_report_only_what_stays_meaningful(reference_repo: Path) -> None:
    # 008 is not active: a stale hash and a missing manifest are not reported, a contradicted
    # VERIFIED is a warning.
    write(reference_repo, OTHER, manifest("0" * 64, feature="specs/008-cost-provider-safety-gates"))
    tasks = reference_repo / OTHER.tasks
    tasks.write_text(tasks.read_text("utf-8").replace("- [x] **T007:", "- [ ] **T007:"), "utf-8")
    write(reference_repo, ACTIVE, manifest(REFERENCE_HASH_009))
    repo = repo_at(reference_repo)
    findings = feature_closure_findings(repo, OTHER, active=False)
    assert findings and {f.code for f in findings} == {"CLOSURE_EVIDENCE_CONTRADICTED"}
    assert {f.effective_severity for f in findings} == {Severity.WARNING}
    (reference_repo / OTHER.closure).write_text("{", "utf-8")
    (broken,) = feature_closure_findings(repo_at(reference_repo), OTHER, active=False)
    assert broken.code == "CLOSURE_MANIFEST_INVALID" and broken.effective_severity is Severity.WARNING


def test_verified_with_failed_required_tests_or_another_feature(reference_repo: Path) -> None:
    summary = {"required_total": 3, "required_passed": 2, "supplemental_total": 0, "supplemental_passed": 0}
    write(reference_repo, ACTIVE, manifest(REFERENCE_HASH_009, canonical_summary=summary, feature="specs/008-x"))
    messages = sorted(f.message for f in closure_codes(reference_repo))
    assert messages == [
        'closure.json of specs/009-context-capsule records the evidence of another feature, "specs/008-x".',
        'closure.json says "VERIFIED" but only 2 of its 3 required canonical tests passed.',
    ]


def test_a_legacy_active_feature_needs_no_closure(reference_repo: Path) -> None:
    spec = reference_repo / ACTIVE.spec
    spec.write_text(spec.read_text("utf-8").replace("```gemstack-test-matrix", "```json"), "utf-8")
    assert closure_codes(reference_repo) == []


def test_no_finding_when_the_reference_could_not_recompute_the_hash(reference_repo: Path) -> None:
    # A task without validation metadata makes the reference throw; that is TASK_VALIDATION_MISSING.
    write(reference_repo, ACTIVE, manifest("0" * 64))
    tasks = reference_repo / ACTIVE.tasks
    tasks.write_text(tasks.read_text("utf-8") + "\n- [x] **T999: no metadata**\n", "utf-8")
    findings = analyze(repo_at(reference_repo))
    assert [f.code for f in findings if f.info.family == "closure"] == []
    assert "TASK_VALIDATION_MISSING" in {f.code for f in findings}


def _git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args], cwd=root, check=True, capture_output=True
    )


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_git_state_is_part_of_the_hash(reference_repo: Path) -> None:
    _git(reference_repo, "init", "-q")
    _git(reference_repo, "add", "-A")
    _git(reference_repo, "commit", "-qm", "one")
    state = git_repository_state(reference_repo)
    assert state.type == "git" and state.working_tree_clean is True and state.commit and len(state.commit) == 40
    fresh = compute_closure_context(repo_at(reference_repo), ACTIVE)
    assert fresh.context["repository"] == state.to_json()
    data = manifest(fresh.hash)
    data["closure_context"].update(repository_type="git", git_commit=state.commit, working_tree_clean=True)
    write(reference_repo, ACTIVE, data)
    # closure.json is untracked: the tree is dirty now, as after a real collect.
    (finding,) = closure_codes(reference_repo)
    assert finding.code == "CLOSURE_EVIDENCE_STALE"
    assert [r.message for r in finding.related] == ["the working tree was clean at collection; it is dirty now"]
    _git(reference_repo, "add", "-A")
    _git(reference_repo, "commit", "-qm", "two")
    (finding,) = closure_codes(reference_repo)
    assert finding.code == "CLOSURE_EVIDENCE_STALE"
    assert finding.related[0].message.startswith(f"collected at commit {state.commit[:12]}; HEAD is ")


def test_git_state_outside_git_and_when_git_fails(tmp_path: Path) -> None:
    assert git_repository_state(tmp_path) == RepositoryState("non-git")
    (tmp_path / ".git").write_text("gitdir: /nowhere\n", "utf-8")
    assert git_repository_state(tmp_path) == RepositoryState("git", None, None)


def test_readers_without_git_read_the_commit_from_git_files() -> None:
    reader = MemoryReader(
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            ".git/packed-refs": "# pack-refs\n" + "a" * 40 + " refs/heads/main\n",
        }
    )
    assert repository_state_of(reader) == RepositoryState("git", "a" * 40, None, known=False)
    assert repository_state_of(MemoryReader({".git/HEAD": "b" * 40 + "\n"})).commit == "b" * 40
    assert repository_state_of(MemoryReader({"specs/a/spec.md": "x"})) == RepositoryState("non-git")


class _CleanGit(MemoryReader):
    def repository_state(self) -> RepositoryState:
        return RepositoryState("git", "c" * 40, True)


def test_an_edited_buffer_makes_the_tree_dirty() -> None:
    base = _CleanGit({"specs/a/spec.md": "# A\n"})
    assert repository_state_of(OverlayReader(base, {"specs/a/spec.md": "# A\n"})).working_tree_clean is True
    assert repository_state_of(OverlayReader(base, {"specs/a/spec.md": "# B\n"})).working_tree_clean is False


UPSTREAM_CLOSURE = Path(__file__).parent.parent / "fixtures" / "upstream" / "closure-012.json"


def test_an_upstream_manifest_matches_the_schema(reference_repo: Path) -> None:
    # The closure.json upstream committed for spec 012 (Gemstack 2.0, at 2bf9157): no schema
    # warning; on a feature that is not active, nothing at all (its tasks here are all checked).
    folder = Feature("012-gemstack-2.0-honest-evidence")
    shutil.copytree(reference_repo / OTHER.path, reference_repo / folder.path)
    shutil.copy(UPSTREAM_CLOSURE, reference_repo / folder.closure)
    assert feature_closure_findings(repo_at(reference_repo), folder, active=False) == []
