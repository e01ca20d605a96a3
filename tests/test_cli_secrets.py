"""No CLI output echoes a secret: secret-looking values planted in every input position never
appear in `check` (text, JSON, SARIF), `context` or `gate` output; the secret audit covers
property names (a provider id) too; `context show --markdown` refuses a capsule that fails it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gemstack_lsp.cli import main
from gemstack_lsp.core.redact import excerpt, redact, redact_json
from tests import hostile_secrets as hs

F9 = "specs/009-context-capsule"


@pytest.fixture
def hostile(reference_repo: Path) -> Path:
    hs.plant(reference_repo)
    return reference_repo


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_check_output_quotes_no_secret(hostile: Path, capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    code, out = _run(capsys, "check", str(hostile), "--format", fmt)
    assert code == 1
    assert hs.leaks(out) == [], [line for line in out.splitlines() if hs.leaks(line)][:5]
    assert "[redacted github-token]" in out
    # The messages still say what is wrong and where (the syntax error's token is named).
    assert "Unexpected token '[redacted github-token]'" in out


def test_a_secret_looking_provider_id_is_a_finding(hostile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, "check", str(hostile / "cost-ledger.json"))
    assert code == 1
    lines = [line for line in out.splitlines() if "COST_LEDGER_INVALID" in line and "in a property name" in line]
    assert any("providers.[redacted github-token]:" in line for line in lines), out
    assert hs.leaks(out) == []


@pytest.mark.parametrize("args", [("verify",), ("verify", "--json"), ("show",), ("generate",)])
def test_context_quotes_no_secret(hostile: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    for feature in (hs.FEATURE, F9, None):
        argv = ["context", *args, "--target", str(hostile)]
        if feature is not None:
            argv += ["--feature", feature]
        _, out = _run(capsys, *argv)
        assert hs.leaks(out) == [], (argv, out)


def _capsule_with_secrets(reference_repo: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    assert main(["context", "generate", "--target", str(reference_repo), "--feature", F9]) == 0
    capsys.readouterr()
    path = reference_repo / F9 / "context-capsule.json"
    capsule = json.loads(path.read_text("utf-8"))
    capsule["project_name"] = hs.GITHUB
    capsule["cost"] = {hs.OPENAI: {"note": hs.BEARER}, "key": hs.PRIVATE_KEY}
    path.write_text(json.dumps(capsule, indent=2), "utf-8")
    return path


def test_context_show_json_redacts_a_capsule_that_fails_the_secret_audit(
    reference_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _capsule_with_secrets(reference_repo, capsys)
    code = main(["context", "show", "--json", "--target", str(reference_repo), "--feature", F9])
    captured = capsys.readouterr()
    assert code == 1
    assert hs.leaks(captured.out + captured.err) == []
    shown = json.loads(captured.out)
    assert shown["project_name"] == "[redacted github-token]"
    assert "[redacted api-secret-key]" in shown["cost"]
    assert "fails the secret audit" in captured.err
    code, out = _run(capsys, "context", "verify", "--json", "--target", str(reference_repo), "--feature", F9)
    assert code == 1 and hs.leaks(out) == []


def test_context_show_markdown_refuses_a_capsule_that_fails_the_secret_audit(
    reference_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _capsule_with_secrets(reference_repo, capsys)
    code, out = _run(capsys, "context", "show", "--markdown", "--target", str(reference_repo), "--feature", F9)
    assert code == 1
    assert "Refusing to write context-capsule.md" in out
    assert hs.leaks(out) == []
    assert not (path.parent / "context-capsule.md").exists()


def test_gate_output_quotes_no_secret(hostile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for provider in (hs.GITHUB, hs.AWS):
        argv = ["gate", "evaluate", "--target", str(hostile), "--action", hs.GOOGLE, "--provider", provider]
        _, out = _run(capsys, *argv, "--capability", hs.OPENAI, "--env", "development")
        assert hs.leaks(out) == [], out


def test_redact_replaces_every_pattern_and_keeps_the_rest() -> None:
    text = f"id {hs.GITHUB}, key {hs.AWS}; {hs.BEARER} {hs.PRIVATE_KEY} {hs.GOOGLE} {hs.OPENAI}."
    out = redact(text)
    assert hs.leaks(out) == []
    assert out.startswith("id [redacted github-token], key [redacted aws-access-key]; ")
    assert redact(out) == out  # placeholders are no secrets themselves
    assert redact("plain text") == "plain text"
    nested: object = hs.GITHUB
    for _ in range(5000):
        nested = {hs.OPENAI: [nested]}
    walked = redact_json(nested)
    for _ in range(5000):
        assert list(walked) == ["[redacted api-secret-key]"]
        (walked,) = walked["[redacted api-secret-key]"]
    assert walked == "[redacted github-token]"


def test_a_cut_secret_is_not_quoted_either(reference_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state_path = reference_repo / ".gemstack" / "state.json"
    state = json.loads(state_path.read_text("utf-8"))
    state["phase_hashes"]["spec"] = hs.GITHUB
    state_path.write_text(json.dumps(state, indent=2), "utf-8")
    code, out = _run(capsys, "check", str(reference_repo))
    assert code == 1
    assert "FROZEN_ARTIFACT_CHANGED" in out
    assert "recorded [redacted github-token]..." in out
    assert hs.GITHUB[:8] not in out
    assert excerpt(hs.GITHUB, 12) == "[redacted github-token]"
    assert excerpt("0123456789abcdef", 12) == "0123456789ab"
