"""docs/ci.md's annotation and GitLab jobs, and docs/configuration.md's worked example, run as written.

The commands are taken from the pages (not retyped here) and run with this checkout's
gemstack-lsp on the bundled demo, as a runner would run them (bash -e -o pipefail).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from release_repo import REPO_ROOT
from test_release_ci_docs import fenced, job, shell, step_running

CONFIG_DOC = REPO_ROOT / "docs" / "configuration.md"
DEMO = REPO_ROOT / "examples" / "demo"
WORKFLOW_COMMAND = re.compile(
    r"^::(error|warning|notice) file=[^,]+,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=[A-Z0-9_]+::"
)


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return Path(shutil.copytree(DEMO, tmp_path / "demo"))


def gitlab_job() -> dict[str, Any]:
    jobs = [yaml.safe_load(body) for body in fenced("yaml")]
    (found,) = [d["gemstack"] for d in jobs if isinstance(d, dict) and "gemstack" in d and "script" in d["gemstack"]]
    return found  # type: ignore[no-any-return]


def test_the_annotation_job_prints_workflow_commands_and_fails_on_errors(demo: Path) -> None:
    steps = job("gemstack-annotations")["steps"]
    check = step_running(steps, "gemstack-lsp check --format github")
    done = shell(check["run"], demo)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines and all(WORKFLOW_COMMAND.match(line) for line in lines), done.stdout
    assert any(line.startswith("::error ") and "title=CONTEXT_CAPSULE_STALE" in line for line in lines)
    (summary,) = [s for s in steps if s.get("name") == "Findings per code"]
    assert summary["if"] == "always()" and "gemstack-lsp check --statistics --exit-zero ." in summary["run"]
    target = demo / "summary.md"
    done = shell(summary["run"].replace('"$GITHUB_STEP_SUMMARY"', str(target)), demo)
    assert done.returncode == 0, done.stderr
    written = target.read_text("utf-8")
    assert written.startswith("```text\n") and written.endswith("```\n")
    assert "STALE_PROVIDER_COST_ASSUMPTION" in written


def test_the_gitlab_job_writes_a_code_quality_report_then_fails_on_errors(demo: Path) -> None:
    spec = gitlab_job()
    assert spec["artifacts"]["reports"]["codequality"] == "gl-code-quality-report.json"
    assert spec["artifacts"]["when"] == "always"
    install, report, gate = spec["script"]
    assert install == 'python -m pip install "<path-or-URL-of-the-wheel>"'
    done = shell(report, demo)
    assert done.returncode == 0, done.stderr
    issues = json.loads((demo / "gl-code-quality-report.json").read_text("utf-8"))
    assert issues and {"description", "check_name", "fingerprint", "severity", "location"} <= set(issues[0])
    assert len({i["fingerprint"] for i in issues}) == len(issues)
    done = shell(gate, demo)
    assert done.returncode == 1
    assert "CONTEXT_CAPSULE_STALE" in done.stdout


def test_the_worked_example_silences_the_two_findings_with_their_reasons(demo: Path) -> None:
    blocks = re.findall(r"^```(toml|markdown)\n(.*?)^```$", CONFIG_DOC.read_text("utf-8"), flags=re.M | re.S)
    config = [body for lang, body in blocks if lang == "toml"][-1]
    comment = [body for lang, body in blocks if lang == "markdown"][-1].strip()
    before = shell("gemstack-lsp check --format json --exit-zero .", demo)
    found = json.loads(before.stdout)["findings"]
    assert any(f["code"] == "STALE_PROVIDER_COST_ASSUMPTION" and f["path"].startswith("specs/010") for f in found)
    assert any(f["code"] == "FENCE_UNSEEN_BY_REFERENCE" for f in found)

    (demo / ".gemstack" / "lsp.toml").write_text(config, "utf-8")
    plan = demo / "specs" / "008-cost-provider-safety-gates" / "plan.md"
    lines = plan.read_text("utf-8").split("\n")
    assert lines[166].startswith("  ```gemstack-closure-gates")  # line 167, as the page says
    lines.insert(166, comment)
    plan.write_text("\n".join(lines), "utf-8")

    after = shell("gemstack-lsp check --format json --exit-zero --show-suppressed .", demo)
    payload = json.loads(after.stdout)
    codes = {(f["code"], f["path"]) for f in payload["findings"]}
    assert ("STALE_PROVIDER_COST_ASSUMPTION", "specs/010-release-notes/cost-ledger.json") not in codes
    assert ("STALE_PROVIDER_COST_ASSUMPTION", "cost-ledger.json") in codes  # the override names one file
    assert not any(code in ("FENCE_UNSEEN_BY_REFERENCE", "SUPPRESSION_UNUSED", "CONFIG_INVALID") for code, _ in codes)
    reasons = {h["code"]: h["reason"] for h in payload["suppressed"]}
    assert reasons["STALE_PROVIDER_COST_ASSUMPTION"].endswith("its zero price cannot go stale")
    assert "the indented gates are read by gemstack-lsp only" in reasons["FENCE_UNSEEN_BY_REFERENCE"]
    assert len(payload["findings"]) == len(found) - 2
