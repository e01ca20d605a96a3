"""What the Emacs and Vim tests share: the server under test, the demo copy, the command
line's findings to compare with, and running an editor in batch mode with a harness that
writes its observations as JSON."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.tools import find_tool

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "demo"
FEATURE = "specs/009-context-capsule"
SPEC = f"{FEATURE}/spec.md"
VENV_BIN = Path(sys.executable).parent
RUN_TIMEOUT_S = 120
WAIT_TIMEOUT_S = 20


def server() -> Path:
    found = shutil.which("gemstack-lsp", path=str(VENV_BIN))
    if found is None:
        pytest.fail(f"gemstack-lsp is not installed in {VENV_BIN}: run `make test` (or pip install -e .)")
    return Path(found)


def need(binary: str, how_to_install: str) -> Path:
    """The editor binary on PATH; when it is missing, a failure in CI and a skip elsewhere, saying
    which make target installs it (tests/tools.py)."""
    return Path(find_tool(binary, f"run {how_to_install}"))


def demo_copy(base: Path) -> Path:
    repo = base / "demo"
    shutil.copytree(DEMO, repo, symlinks=True)
    return repo


def findings(repo: Path) -> list[dict[str, Any]]:
    """`gemstack-lsp check --format json` on the repository: what every editor must show."""
    proc = subprocess.run(
        [str(server()), "check", "--format", "json", "--exit-zero", str(repo)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=repo,
    )
    assert proc.returncode == 0, proc.stderr
    out: list[dict[str, Any]] = json.loads(proc.stdout)["findings"]
    return out


@dataclass(repr=False)
class Run:
    """One editor session: its exit code, what it printed, and the harness's JSON."""

    name: str
    repo: Path
    returncode: int
    stdout: str
    stderr: str
    result: dict[str, Any]
    expected: list[dict[str, Any]]

    def __repr__(self) -> str:
        return f"Run({self.name}, exit {self.returncode})"

    def explain(self) -> str:
        keep = {k: v for k, v in self.result.items() if k in ("steps", "timeouts", "error", "messages")}
        return (
            f"{self.name} exited {self.returncode}\n"
            f"stdout: {self.stdout[-2000:]}\nstderr: {self.stderr[-2000:]}\n"
            f"results: {json.dumps(keep, indent=1)[:4000]}"
        )


def run_harness(
    name: str, argv: list[str], env: dict[str, str], out: Path, cwd: Path, timeout: float
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """Run an editor with a harness that writes its observations as JSON to ``out``: the
    process and that JSON, or a failure that says what the editor printed (never a hang)."""
    try:
        proc = subprocess.run(
            argv, capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env, stdin=subprocess.DEVNULL
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{name} did not exit within {timeout} s; stdout: {exc.stdout!r}; stderr: {exc.stderr!r}")
    if not out.exists():
        pytest.fail(
            f"{name} wrote no results (exit {proc.returncode}); stdout: {proc.stdout[-3000:]}; "
            f"stderr: {proc.stderr[-3000:]}"
        )
    result: dict[str, Any] = json.loads(out.read_text("utf-8"))
    return proc, result


def run_batch(
    name: str, argv: list[str], base: Path, repo: Path, env: dict[str, str], expected: list[dict[str, Any]]
) -> Run:
    """Run ``argv`` with the venv's gemstack-lsp first on PATH and HOME in ``base``; the
    harness writes its JSON to $GEMSTACK_RESULT."""
    out = base / "result.json"
    full_env = {
        **os.environ,
        "HOME": str(base / "home"),
        "PATH": os.pathsep.join([str(VENV_BIN), os.environ.get("PATH", "")]),
        "GEMSTACK_REPO": str(repo),
        "GEMSTACK_FEATURE": FEATURE,
        "GEMSTACK_RESULT": str(out),
        "GEMSTACK_TIMEOUT_S": str(WAIT_TIMEOUT_S),
        **env,
    }
    (base / "home").mkdir(exist_ok=True)
    proc, result = run_harness(name, argv, full_env, out, repo, RUN_TIMEOUT_S)
    print(f"\n{name}: total {result.get('total_ms')} ms; steps: {result.get('steps')}")
    return Run(name, repo, proc.returncode, proc.stdout, proc.stderr, result, expected)


def quiet_log(stderr: str) -> list[str]:
    """The lines of the server's stderr that are noise at the default log level."""
    return [line for line in stderr.splitlines() if any(w in line for w in ("WARNING", "ERROR", "Traceback"))]
