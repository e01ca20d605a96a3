"""`gemstack-lsp check` on signed amendments: the signing key comes from GEMSTACK_AMENDMENT_SECRET,
is never printed, and checking (amendments and the memory cross-audit included) mutates nothing."""

from __future__ import annotations

import hashlib
import hmac
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from gemstack_lsp.cli import main
from gemstack_lsp.core.hashing import hash_text
from tests.test_purity_check import tree_state

SECRET = "correct-horse-battery-staple-amendment-key"
SPEC = '# Spec\n```gemstack-contracts\n[{"id": "c1", "type": "BOOLEAN_INVARIANT", "value": true}]\n```\n'
PLAN = '# Plan\n```gemstack-contracts\n[{"id": "c1", "type": "BOOLEAN_INVARIANT", "value": false}]\n```\n'
HANDOFF = (
    "## 1. Objetivo\n## 2. Estado actual\n## 3. Archivos y cambios\n## 4. Intentos fallidos\n## 5. Próximos pasos\n"
)


def repository(root: Path) -> None:
    feature = root / "specs" / "001-test"
    feature.mkdir(parents=True)
    (feature / "spec.md").write_text(SPEC + "\nEdited after the freeze.\n", "utf-8")
    (feature / "plan.md").write_text(PLAN, "utf-8")
    (root / ".gemstack").mkdir()
    state = {"active_spec": "specs/001-test", "phase_hashes": {"spec": hash_text(SPEC)}}
    (root / ".gemstack" / "state.json").write_text(json.dumps(state), "utf-8")
    record = {
        "amendment_id": "AMD-1",
        "contract_id": "c1",
        "version": 2,
        "reason": "Approved change",
        "approved_by": "lead@example.com",
    }
    payload = "AMD-1|c1|2|Approved change|lead@example.com"
    record["signature"] = hmac.new(SECRET.encode(), payload.encode(), hashlib.sha256).hexdigest()
    (feature / "amendments.json").write_text(json.dumps(record, indent=2), "utf-8")
    (root / "handoff.md").write_text(HANDOFF, "utf-8")


def check(root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    monkeypatch.chdir(root)
    code = main(["check", "--format", "json"])
    return code, capsys.readouterr().out


def test_the_secret_from_the_environment_verifies_the_amendment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repository(tmp_path)
    monkeypatch.delenv("GEMSTACK_AMENDMENT_SECRET", raising=False)
    code, out = check(tmp_path, monkeypatch, capsys)
    assert code == 1 and "AMENDMENT_SECRET_MISSING" in out and "FROZEN_ARTIFACT_CHANGED" in out

    monkeypatch.setenv("GEMSTACK_AMENDMENT_SECRET", SECRET)
    code, out = check(tmp_path, monkeypatch, capsys)
    assert code == 0, out
    assert "FROZEN_ARTIFACT_AMENDED" in out and "AMENDMENT_VERIFIED" in out
    assert "FROZEN_CONTRACT_VIOLATION" not in out and SECRET not in out


def test_a_wrong_secret_rejects_the_amendment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repository(tmp_path)
    monkeypatch.setenv("GEMSTACK_AMENDMENT_SECRET", "another-key")
    code, out = check(tmp_path, monkeypatch, capsys)
    assert code == 1 and "AMENDMENT_SIGNATURE_INVALID" in out and "AMENDMENT_REJECTED" in out
    assert "another-key" not in out


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_check_mutates_nothing_in_a_git_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repository(tmp_path)
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@x"}
    for args in (["init", "-q"], ["add", "."], ["-c", "commit.gpgsign=false", "commit", "-q", "-m", "unrelated"]):
        subprocess.run(
            ["git", *args], cwd=tmp_path, check=True, capture_output=True, env={**env, "PATH": "/usr/bin:/bin"}
        )
    (tmp_path / "specs" / "001-test" / "plan.md").write_text(PLAN + "\nA dirty tree.\n", "utf-8")
    before = tree_state(tmp_path)
    _code, out = check(tmp_path, monkeypatch, capsys)
    assert "MEMORY_UNRECORDED_COMMITS" in out
    assert tree_state(tmp_path) == before
