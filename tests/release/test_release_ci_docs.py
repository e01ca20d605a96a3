"""docs/ci.md: its workflows and pre-commit config are valid YAML of the right shape, and the
commands they run do what the page says, on the demo repository and on a clean one.

The GitHub Actions workflows cannot run here; what is checked is what can go wrong in a copy:
the YAML, the steps and their order, the permissions code scanning needs, and the commands
themselves (run with this checkout's gemstack-lsp; the SARIF is validated against the whole
SARIF 2.1.0 schema). The pre-commit config is validated by pre-commit itself.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from release_repo import REPO_ROOT

CI_DOC = REPO_ROOT / "docs" / "ci.md"
DEMO = REPO_ROOT / "examples" / "demo"
#: Where the test venv's gemstack-lsp lives (the editable install of this checkout).
BIN = Path(sys.executable).parent


def fenced(lang: str) -> list[str]:
    """The bodies of the page's fenced blocks of ``lang``, in order."""
    text = CI_DOC.read_text("utf-8")
    return re.findall(rf"^```{lang}\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)


def workflows() -> list[dict[Any, Any]]:
    docs = [yaml.safe_load(body) for body in fenced("yaml")]
    return [d for d in docs if isinstance(d, dict) and "jobs" in d]


def job(name: str) -> dict[str, Any]:
    (found,) = [w["jobs"][name] for w in workflows() if name in w["jobs"]]
    return found  # type: ignore[no-any-return]


def step_running(steps: list[dict[str, Any]], prefix: str) -> dict[str, Any]:
    (found,) = [s for s in steps if str(s.get("run", "")).startswith(prefix)]
    return found


def shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run a documented step as the runner would (bash), with this checkout's gemstack-lsp on PATH."""
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return Path(shutil.copytree(DEMO, tmp_path / "demo"))


@pytest.fixture
def clean(tmp_path: Path) -> Path:
    feature = tmp_path / "clean" / "specs" / "001-hello"
    feature.mkdir(parents=True)
    (feature / "spec.md").write_text("# Hello\n\nNothing to check yet.\n", "utf-8")
    return tmp_path / "clean"


def test_the_page_has_two_workflows_that_parse() -> None:
    found = workflows()
    assert len(found) == 2
    for workflow in found:
        # YAML 1.1 reads the key `on` as true; GitHub reads it as "on".
        assert workflow.get("on", workflow.get(True)), workflow
        for spec in workflow["jobs"].values():
            assert spec["runs-on"] == "ubuntu-latest"
            uses = [s["uses"] for s in spec["steps"] if "uses" in s]
            assert uses[:2] == ["actions/checkout@v4", "actions/setup-python@v5"]
            install = step_running(spec["steps"], "python -m pip install")
            assert install["run"] == 'python -m pip install "<path-or-URL-of-the-wheel>"'


def test_the_sarif_job_uploads_to_code_scanning_and_then_fails_on_errors() -> None:
    spec = job("gemstack-sarif")
    assert spec["permissions"]["security-events"] == "write"
    steps = spec["steps"]
    report = step_running(steps, "gemstack-lsp check --format sarif")
    assert report["run"].strip() == "gemstack-lsp check --format sarif --exit-zero . > gemstack.sarif"
    (upload,) = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif")]
    assert upload["uses"] == "github/codeql-action/upload-sarif@v3"
    assert upload["if"] == "always()"
    assert upload["with"] == {"sarif_file": "gemstack.sarif", "category": "gemstack-lsp"}
    gate = step_running(steps, "gemstack-lsp check .")
    assert steps.index(report) < steps.index(upload) < steps.index(gate)


def test_the_documented_sarif_step_writes_a_valid_sarif_log(demo: Path, sarif_validator: Any) -> None:
    report = step_running(job("gemstack-sarif")["steps"], "gemstack-lsp check --format sarif")
    done = shell(report["run"], demo)
    assert done.returncode == 0, done.stderr  # --exit-zero: the demo's errors do not fail the report
    log = json.loads((demo / "gemstack.sarif").read_text("utf-8"))
    sarif_validator.validate(log)
    (run,) = log["runs"]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == demo.resolve().as_uri() + "/"
    results = run["results"]
    assert any(r["ruleId"] == "CONTEXT_CAPSULE_STALE" and r["level"] == "error" for r in results)
    for result in results:
        for location in result.get("locations", []):
            # Relative to the repository root, as code scanning resolves them.
            assert location["physicalLocation"]["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
            assert not location["physicalLocation"]["artifactLocation"]["uri"].startswith(("/", "file:"))


def test_the_documented_gate_steps_fail_on_errors_only(demo: Path, clean: Path) -> None:
    for name in ("gemstack-sarif", "gemstack"):
        gate = step_running(job(name)["steps"], "gemstack-lsp check .")
        done = shell(gate["run"], demo)
        assert done.returncode == 1 and "error CONTEXT_CAPSULE_STALE" in done.stdout, done.stdout + done.stderr
        done = shell(gate["run"], clean)
        assert done.returncode == 0, done.stdout + done.stderr


def test_exit_code_two_is_not_hidden_by_exit_zero(tmp_path: Path) -> None:
    # As the page's table says: outside any Gemstack repository, the report step still fails.
    done = shell("gemstack-lsp check --format sarif --exit-zero . > gemstack.sarif", tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    section = CI_DOC.read_text("utf-8").split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1].strip() for line in section.splitlines() if line.startswith("| ") and "---" not in line]
    assert rows == ["status", "0", "1", "2"]


def test_the_documented_pre_commit_configs_are_valid(tmp_path: Path) -> None:
    configs = [body for body in fenced("yaml") if body.startswith("repos:")]
    assert len(configs) == 1
    (repo,) = yaml.safe_load(configs[0])["repos"]
    assert [h["id"] for h in repo["hooks"]] == ["gemstack-lsp-check"]
    (tmp_path / ".pre-commit-config.yaml").write_text(configs[0], "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-config", ".pre-commit-config.yaml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # The override snippet is a fragment of that config's hook list: the same keys pre-commit takes.
    (override,) = [body for body in fenced("yaml") if body.lstrip().startswith("hooks:")]
    (hook,) = yaml.safe_load(override)["hooks"]
    assert hook["always_run"] is False and re.compile(hook["files"]).match("specs/001-x/spec.md")
    assert re.compile(hook["files"]).match(".gemstack/state.json") and not re.compile(hook["files"]).match("src/a.py")
