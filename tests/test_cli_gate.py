"""`gemstack-lsp gate evaluate`: JSON out, exit 0 on ALLOW and 1 on DENY, never a prompt."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.cli import main

LEDGER = {
    "version": 1,
    "currency": "USD",
    "providers": {
        "gemini-cloud": {
            "type": "COMMERCIAL",
            "pricing_model": "PER_1K_TOKENS",
            "capabilities": {
                "inference.generate_text": {
                    "cost_state": "BILLABLE",
                    "estimated_unit_cost": 0.0005,
                    "freshness_date": "2026-11-30",
                }
            },
        },
        "mock-local": {
            "type": "MOCK",
            "pricing_model": "NONE",
            "capabilities": {
                "inference.generate_text": {
                    "cost_state": "FREE",
                    "estimated_unit_cost": 0,
                    "freshness_date": "2026-11-30",
                }
            },
        },
    },
}
SPEC = """# Spec

```gemstack-billable-actions
[
  {
    "id": "summarize",
    "description": "Summarize a document",
    "category": "DEFINITELY_BILLABLE",
    "capability_id": "inference.generate_text",
    "providers": ["mock-local", "gemini-cloud"]
  }
]
```
"""


class _NoStdin:
    """A standard input that fails the test on any attempt to read it."""

    def read(self, *args: object) -> str:
        raise AssertionError("stdin must never be read")

    readline = read
    readlines = read

    def __iter__(self) -> _NoStdin:
        raise AssertionError("stdin must never be read")

    def isatty(self) -> bool:
        return False


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("GEMSTACK_ENV", "CI", "CONTINUOUS_INTEGRATION", "NODE_ENV"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "stdin", _NoStdin())
    root = tmp_path / "repo"
    (root / "specs" / "001-sum").mkdir(parents=True)
    (root / "specs" / "001-sum" / "spec.md").write_text(SPEC, "utf-8")
    (root / "cost-ledger.json").write_text(json.dumps(LEDGER, indent=2), "utf-8")
    return root


def evaluate(capsys: pytest.CaptureFixture[str], root: Path, *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["gate", "evaluate", "--target", str(root), *argv])
    captured = capsys.readouterr()
    return code, json.loads(captured.out)


def test_declared_chain_and_capability_are_the_defaults(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = evaluate(capsys, repo, "--action", "summarize", "--env", "test")
    assert code == 0
    assert out["decision"] == "ALLOW"
    assert out["reason_code"] == out["reasonCode"] == "ACTION_AUTHORIZED_FREE"
    assert out["request"]["providers"] == ["mock-local", "gemini-cloud"]
    assert out["request"]["capability_id"] == "inference.generate_text"
    assert out["request"]["feature"] == "001-sum"
    assert out["request"]["ledger"] == "cost-ledger.json"
    assert out["selected_provider_index"] == 0
    assert [c["provider_id"] for c in out["candidates"]] == ["mock-local", "gemini-cloud"]


def test_repeated_provider_gives_the_chain(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = evaluate(
        capsys,
        repo,
        "--action",
        "summarize",
        "--provider",
        "nope-cloud",
        "--provider",
        "gemini-cloud",
        "--env",
        "production",
        "--allow-billable",
    )
    assert code == 0
    assert out["selected_provider_index"] == 1
    assert [c["reason_code"] for c in out["candidates"]] == ["UNKNOWN_PROVIDER_IDENTITY", "ACTION_AUTHORIZED"]


def test_deny_exits_1_with_json(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = evaluate(capsys, repo, "--action", "summarize", "--provider", "gemini-cloud", "--env", "development")
    assert code == 1
    assert (out["authorized"], out["decision"], out["reason_code"]) == (False, "DENY", "BILLABLE_ACTION_UNAUTHORIZED")
    assert out["message"].endswith("(--allow-billable).")


def test_budget_without_allow_billable_is_a_grant_outside_development(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ("--action", "summarize", "--provider", "gemini-cloud", "--budget", "1")
    assert evaluate(capsys, repo, *args, "--env", "production")[1]["reason_code"] == "ACTION_AUTHORIZED"
    assert evaluate(capsys, repo, *args, "--env", "development")[1]["reason_code"] == "BILLABLE_ACTION_UNAUTHORIZED"


def test_tier_from_gemstack_env(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GEMSTACK_ENV", "staging")
    code, out = evaluate(capsys, repo, "--action", "summarize", "--provider", "gemini-cloud", "--allow-billable")
    assert (code, out["request"]["environment"]) == (0, "staging")


def test_usage_errors_exit_2(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gate"]) == 2
    assert main(["gate", "evaluate", "--action", "x", "--target", str(repo / "missing")]) == 2
    assert main(["gate", "evaluate", "--action", "x", "--target", str(repo), "--feature", "999-none"]) == 2
    assert main(["gate", "evaluate", "--action", "x", "--target", str(repo), "--units", "-1"]) == 2
    with pytest.raises(SystemExit) as exc:
        main(["gate", "evaluate", "--action", "x", "--env", "qa"])
    assert exc.value.code == 2
    assert "gemstack-lsp gate:" in capsys.readouterr().err


def test_outside_any_repository_everything_is_undeclared(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = evaluate(capsys, tmp_path, "--action", "summarize", "--provider", "mock-local", "--env", "test")
    assert (code, out["reason_code"]) == (1, "UNDECLARED_BILLABLE_ACTION")


def test_the_installed_command_never_waits_for_input(repo: Path) -> None:
    # A real process with an open, never-written stdin pipe: it must answer and exit on its own.
    proc = subprocess.run(
        [sys.executable, "-m", "gemstack_lsp", "gate", "evaluate", "--action", "summarize", "--env", "ci"],
        cwd=repo,
        stdin=subprocess.PIPE,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "CI": "true"},
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["reason_code"] == "ACTION_AUTHORIZED_FREE"
