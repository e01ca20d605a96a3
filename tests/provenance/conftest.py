"""Fixtures for provenance tests: temporary Git repositories with a fixed identity and clock."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

PLAN = "docs/plans/2024-01-02-gitnexus-plan-one-two-three.md"
REPO_ROOT = Path(__file__).resolve().parents[2]
REFERENCE_SCRIPT = REPO_ROOT / ".cache" / "provenance-ref" / "evidence-provenance.mjs"

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.invalid",
    "GIT_COMMITTER_NAME": "Test Committer",
    "GIT_COMMITTER_EMAIL": "committer@example.invalid",
    "GIT_AUTHOR_DATE": "2020-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2020-01-01T00:00:00Z",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}


@pytest.fixture(autouse=True)
def git_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)


def git(repo: Path, *args: str, input: bytes | None = None) -> bytes:
    """Run git in ``repo`` for test set-up; failures raise."""
    return subprocess.run(["git", "-C", str(repo), *args], input=input, capture_output=True, check=True).stdout


def init_repo(path: Path, files: dict[str, str | bytes] | None = None) -> Path:
    """``git init`` plus one commit of ``files`` (a README when none are given)."""
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    for name, content in (files or {"README.md": "readme\n"}).items():
        write(path, name, content)
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "initial")
    return path


def write(repo: Path, name: str, content: str | bytes) -> Path:
    target = repo / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return target


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return init_repo(tmp_path / "repo", {"src/a.txt": "alpha\n", "b.txt": "bravo\n", "README.md": "r\n"})


@pytest.fixture
def reference() -> Callable[..., subprocess.CompletedProcess[bytes]]:
    """Run the pinned reference helper (installed by ``make provenance-ref``, which ``make test`` runs)."""
    from tests.tools import find_tool, missing

    if not REFERENCE_SCRIPT.is_file():
        missing(f"the reference helper ({REFERENCE_SCRIPT})", "run `make provenance-ref` (make test does it)")
    node = find_tool("node", "install Node.js 20 (the reference helper is a Node script)")

    def run(*args: str, stdin: bytes = b"", cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [node, str(REFERENCE_SCRIPT), *args], input=stdin, capture_output=True, cwd=cwd, check=False
        )

    return run


def as_json(data: bytes) -> Any:
    return json.loads(data.decode("utf-8"))
