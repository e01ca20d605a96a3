"""`gemstack-lsp check` with the repository configuration, its flags and the CI formats."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.cli import main
from gemstack_lsp.report_ci import colour_enabled, escape_github_data, escape_github_property

DEMO = Path(__file__).resolve().parents[1] / "examples" / "demo"
STALE = "STALE_PROVIDER_COST_ASSUMPTION"
#: A workflow command as GitHub parses it: ::level key=value,...::message
COMMAND = re.compile(r"^::(error|warning|notice) ((?:[a-zA-Z]+=[^,:]*,?)+)::(.*)$")


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = Path(shutil.copytree(DEMO, tmp_path / "demo"))
    monkeypatch.chdir(root)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    return root


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["check", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def codes(out: str) -> list[str]:
    return [f["code"] for f in json.loads(out)["findings"]]


def write_config(root: Path, text: str) -> None:
    (root / ".gemstack").mkdir(exist_ok=True)
    (root / ".gemstack" / "lsp.toml").write_text(text, "utf-8")


def test_the_ledger_age_in_the_project_file_reaches_check(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 19: with max-ledger-age-days = 10000 the editor showed no stale price while check reported 3.
    _, out, _ = run(capsys, "--format", "json", ".")
    assert codes(out).count(STALE) == 3
    write_config(demo, "max-ledger-age-days = 10000\n")
    _, out, _ = run(capsys, "--format", "json", ".")
    assert STALE not in codes(out)
    _, out, _ = run(capsys, "--format", "json", "--max-ledger-age-days", "90", ".")
    assert codes(out).count(STALE) == 3


def test_environment_flag(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        run(capsys, "--environment", "moon", ".")
    assert exited.value.code == 2 and "invalid choice" in capsys.readouterr().err
    code, out, _ = run(capsys, "--format", "json", "--environment", "ci", ".")
    assert code == 1 and out


def test_select_and_ignore(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "--format", "json", "--select", "cost", ".")
    assert set(codes(out)) == {STALE, "PROVIDER_FALLBACK_TO_BILLABLE", "UNKNOWN_PROVIDER_IDENTITY"}
    _, out, _ = run(capsys, "--format", "json", "--select", f"{STALE},CONTEXT_CAPSULE_STALE", "--ignore", STALE, ".")
    assert codes(out) == ["CONTEXT_CAPSULE_STALE"]
    code, _, err = run(capsys, "--ignore", "NOPE", ".")
    assert code == 2 and "unknown finding code or family: NOPE" in err


def test_severity_and_overrides_change_the_exit_status(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run(capsys, ".")
    assert code == 1
    # Every error re-graded or hidden: the exit status follows what is left.
    write_config(
        demo,
        'ignore = ["closure", "contracts"]\n[severity]\ncapsule = "warning"\ndocuments = "warning"\ncost = "warning"\n'
        'bindings = "warning"\nmatrix = "warning"\ntasks = "warning"\n',
    )
    code, out, _ = run(capsys, "--format", "json", ".")
    assert json.loads(out)["summary"]["error"] == 0, out
    assert code == 0


def test_show_suppressed_lists_what_was_hidden_and_why(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_config(demo, '[[overrides]]\npaths = ["specs/010-*/**"]\nreason = "a local model"\nignore = ["cost"]\n')
    _, out, _ = run(capsys, "--show-suppressed", ".")
    lines = [line for line in out.splitlines() if " suppressed " in line]
    assert any(f"suppressed {STALE}" in line and "a local model" in line for line in lines), out
    _, out, _ = run(capsys, "--format", "json", "--show-suppressed", ".")
    hidden = json.loads(out)["suppressed"]
    assert {h["code"] for h in hidden} == {STALE, "PROVIDER_FALLBACK_TO_BILLABLE", "UNKNOWN_PROVIDER_IDENTITY"}
    assert all(h["suppressed_by"] == "config" and h["reason"].endswith("a local model") for h in hidden)


def test_show_suppressed_in_sarif_marks_the_results_suppressed(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_config(demo, '[[overrides]]\npaths = ["specs/010-*/**"]\nreason = "a local model"\nignore = ["cost"]\n')
    _, plain, _ = run(capsys, "--format", "sarif", ".")
    _, out, _ = run(capsys, "--format", "sarif", "--show-suppressed", ".")
    before = json.loads(plain)["runs"][0]["results"]
    results = json.loads(out)["runs"][0]["results"]
    suppressed = [r for r in results if "suppressions" in r]
    assert len(results) == len(before) + len(suppressed) and len(suppressed) == 3
    for r in suppressed:
        assert r["suppressions"] == [{"kind": "external", "justification": r["suppressions"][0]["justification"]}]
        assert r["suppressions"][0]["justification"].endswith("a local model")
        assert r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].startswith("specs/010-")


def test_a_broken_project_file_is_a_finding_and_check_still_runs(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_config(demo, "x = " + "[" * 500 + "]" * 500 + "\n")
    code, out, _ = run(capsys, "--format", "json", ".")
    assert code == 1
    (finding,) = [f for f in json.loads(out)["findings"] if f["code"] == "CONFIG_INVALID"]
    assert finding["path"] == ".gemstack/lsp.toml" and finding["severity"] == "error"
    assert finding["range"]["start"] == {"line": 0, "character": 4 + 32}


def test_config_flag(demo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "other.toml"
    other.write_text(f'ignore = ["{STALE}"]\n', "utf-8")
    _, out, _ = run(capsys, "--format", "json", "--config", str(other), ".")
    assert STALE not in codes(out)
    other.write_text("a = [\n", "utf-8")
    code, _, err = run(capsys, "--config", str(other), ".")
    assert code == 2 and "Not valid TOML" in err and "cannot be used" in err
    code, _, err = run(capsys, "--config", str(tmp_path / "missing.toml"), ".")
    assert code == 2 and "cannot read the configuration" in err


def test_markdown_suppression_with_a_reason(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tasks = demo / "specs" / "008-cost-provider-safety-gates" / "tasks.md"
    lines = tasks.read_text("utf-8").split("\n")
    lines.insert(43, "<!-- gemstack-lsp-ignore TASK_VALIDATION_MISSING validated by hand, see the review -->")
    tasks.write_text("\n".join(lines), "utf-8")
    _, out, _ = run(capsys, "--format", "json", ".")
    assert "TASK_VALIDATION_MISSING" not in codes(out)
    assert "SUPPRESSION_UNUSED" not in codes(out)
    lines[43] = "<!-- gemstack-lsp-ignore TASK_VALIDATION_MISSING -->"
    tasks.write_text("\n".join(lines), "utf-8")
    _, out, _ = run(capsys, "--format", "json", ".")
    assert "TASK_VALIDATION_MISSING" in codes(out) and "SUPPRESSION_INVALID" in codes(out)


def test_github_format(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--format", "github", ".")
    assert code == 1
    _, as_json, _ = run(capsys, "--format", "json", ".")
    findings = json.loads(as_json)["findings"]
    lines = out.splitlines()
    assert len(lines) == len(findings)
    for line, f in zip(lines, findings, strict=True):
        m = COMMAND.match(line)
        assert m is not None, line
        level = {"error": "error", "warning": "warning", "information": "notice", "hint": "notice"}[f["severity"]]
        assert m.group(1) == level
        props = dict(p.split("=", 1) for p in m.group(2).split(","))
        assert props["title"] == f["code"] and props["file"] == f["path"]
        assert int(props["line"]) == f["range"]["start"]["line"] + 1
        assert int(props["endLine"]) == f["range"]["end"]["line"] + 1
        assert {"col", "endColumn"} <= set(props)


def test_github_escaping_cannot_forge_a_command() -> None:
    assert escape_github_data("50% done\r\n::error::forged") == "50%25 done%0D%0A::error::forged"
    assert escape_github_property("a,b:c%\n") == "a%2Cb%3Ac%25%0A"
    assert escape_github_data("\x1b]0;title\x07\x1b[2J") == "\\u001b]0;title\\u0007\\u001b[2J"


def test_gitlab_format(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--format", "gitlab", "--exit-zero", ".")
    assert code == 0
    issues: list[dict[str, Any]] = json.loads(out)
    _, as_json, _ = run(capsys, "--format", "json", ".")
    findings = json.loads(as_json)["findings"]
    assert len(issues) == len(findings)
    fingerprints = [i["fingerprint"] for i in issues]
    assert len(set(fingerprints)) == len(fingerprints)
    for issue, f in zip(issues, findings, strict=True):
        assert set(issue) >= {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["check_name"] == f["code"]
        assert issue["severity"] in ("info", "minor", "major", "critical", "blocker")
        assert issue["location"]["path"] == f["path"]
        assert issue["location"]["positions"]["begin"]["line"] == f["range"]["start"]["line"] + 1
    # Stable: the same commit gives the same fingerprints; the first one of a finding is its own.
    _, again, _ = run(capsys, "--format", "gitlab", ".")
    assert [i["fingerprint"] for i in json.loads(again)] == fingerprints
    assert fingerprints[0] == findings[0]["fingerprint"]


def test_statistics(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--statistics", ".")
    assert code == 1
    assert out.splitlines()[0].split() == ["3", "warning", STALE]
    _, out, _ = run(capsys, "--statistics", "--format", "json", ".")
    rows = json.loads(out)
    assert rows[0] == {"code": STALE, "severity": "warning", "count": 3}
    assert sum(r["count"] for r in rows) == 13


def test_colour_on_a_terminal_only() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert colour_enabled(Tty(), {}) is True
    assert colour_enabled(io.StringIO(), {}) is False
    assert colour_enabled(Tty(), {"NO_COLOR": "1"}) is False
    assert colour_enabled(io.StringIO(), {"FORCE_COLOR": "1"}) is True
    assert colour_enabled(Tty(), {"FORCE_COLOR": "0"}) is True
    assert colour_enabled(io.StringIO(), {"FORCE_COLOR": "0"}) is False


def test_text_output_is_plain_when_piped_and_coloured_when_forced(
    demo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out, _ = run(capsys, ".")
    assert "\x1b[" not in out
    monkeypatch.setenv("FORCE_COLOR", "1")
    _, out, _ = run(capsys, ".")
    assert "\x1b[1;31merror\x1b[0m" in out
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("FORCE_COLOR")
    _, out, _ = run(capsys, ".")
    assert "\x1b[" not in out
