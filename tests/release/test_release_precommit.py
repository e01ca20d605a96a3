"""The pre-commit hook (`.pre-commit-hooks.yaml`), run by the real pre-commit as docs/ci.md shows.

pre-commit installs a hook repository from a commit: the hook repository here is the committed
copy of this repository as it is on disk (``source_copy``), and pre-commit pip-installs it with
its dependencies from the package index into its own environment under ``PRE_COMMIT_HOME``
(shared by the tests of this module, so it is built once).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from release_repo import REPO_ROOT, commit_all, git

DEMO = REPO_ROOT / "examples" / "demo"


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


def pre_commit(repo: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never", GIT_CONFIG_GLOBAL=os.devnull)
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def with_config(repo: Path, hook_repo: Path) -> Path:
    """``repo`` with a .pre-commit-config.yaml using the hook from ``hook_repo``'s HEAD, all committed."""
    rev = git(hook_repo, "rev-parse", "HEAD").strip()
    config = {"repos": [{"repo": str(hook_repo), "rev": rev, "hooks": [{"id": "gemstack-lsp-check"}]}]}
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config, sort_keys=False), "utf-8")
    commit_all(repo)
    return repo


def demo_repo(dest: Path) -> Path:
    shutil.copytree(DEMO, dest)
    return dest


def clean_repo(dest: Path) -> Path:
    """A Gemstack repository with no error: one feature whose spec has no block yet."""
    (dest / "specs" / "001-hello").mkdir(parents=True)
    (dest / "specs" / "001-hello" / "spec.md").write_text("# Hello\n\nNothing to check yet.\n", "utf-8")
    return dest


def test_the_hook_definition() -> None:
    (hook,) = yaml.safe_load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    assert hook["id"] == "gemstack-lsp-check" and hook["entry"] == "gemstack-lsp check"
    assert hook["language"] == "python" and hook["pass_filenames"] is False
    assert hook["always_run"] is True and hook["require_serial"] is True


def test_the_hook_fails_on_the_demo_and_passes_on_a_clean_repository(
    source_copy: Path, pre_commit_home: Path, tmp_path: Path
) -> None:
    demo = with_config(demo_repo(tmp_path / "demo"), source_copy)
    done = pre_commit(demo, pre_commit_home, "run", "--all-files")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "gemstack-lsp check" in done.stdout and "Failed" in done.stdout
    assert "- exit code: 1" in done.stdout
    assert "specs/009-context-capsule/spec.md:1:1: error CONTEXT_CAPSULE_STALE" in done.stdout
    # The command came from pre-commit's own environment for the hook repository.
    assert list(pre_commit_home.glob("repo*/py_env-*/bin/gemstack-lsp"))

    clean = with_config(clean_repo(tmp_path / "clean"), source_copy)
    done = pre_commit(clean, pre_commit_home, "run", "--all-files")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "gemstack-lsp check" in done.stdout and "Passed" in done.stdout

    # always_run: a commit that touches no Gemstack artifact still runs the check.
    (demo / "notes.txt").write_text("unrelated\n", "utf-8")
    git(demo, "add", "notes.txt")
    done = pre_commit(demo, pre_commit_home, "run")
    assert done.returncode == 1 and "CONTEXT_CAPSULE_STALE" in done.stdout, done.stdout + done.stderr


def test_try_repo_runs_the_hook_from_a_clone(source_copy: Path, pre_commit_home: Path, tmp_path: Path) -> None:
    # The documented way to try the hook without a config file.
    demo = demo_repo(tmp_path / "demo")
    commit_all(demo)
    done = pre_commit(demo, pre_commit_home, "try-repo", str(source_copy), "gemstack-lsp-check", "--all-files")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "CONTEXT_CAPSULE_STALE" in done.stdout
