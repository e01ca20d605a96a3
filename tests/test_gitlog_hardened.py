"""The memory cross-audit's Git query: read-only, and nothing a repository configures is run."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from gemstack_lsp.core.reader import GitCommit
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.fs import DiskReader
from gemstack_lsp.gitlog import parse_oneline, recent_commits

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@x",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@x",
}


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, env=ENV, check=True, capture_output=True)


def repository(root: Path, messages: list[str]) -> None:
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q")
    for i, message in enumerate(messages):
        (root / f"f{i}.txt").write_text(message)
        git(root, "add", ".")
        git(root, "-c", "commit.gpgsign=false", "commit", "-q", "-m", message)


def trap(tmp_path: Path) -> tuple[Path, Path]:
    """A program that leaves a marker file when run."""
    marker = tmp_path / "ran"
    script = tmp_path / "trap.sh"
    script.write_text(f"#!/bin/sh\ntouch {marker}\nexit 0\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script, marker


def test_the_newest_commits_newest_first(tmp_path: Path) -> None:
    root = tmp_path / "r"
    repository(root, ["first change", "second change", "third change"])
    commits = recent_commits(root, 2)
    assert commits is not None and [c.message for c in commits] == ["third change", "second change"]
    assert all(len(c.hash) >= 7 for c in commits)


def test_nothing_the_repository_configures_is_run(tmp_path: Path) -> None:
    root = tmp_path / "r"
    repository(root, ["a change"])
    script, marker = trap(tmp_path)
    for key, value in (
        ("log.showSignature", "true"),
        ("gpg.program", str(script)),
        ("core.pager", str(script)),
        ("core.fsmonitor", str(script)),
        ("diff.external", str(script)),
        ("core.hooksPath", str(tmp_path)),
    ):
        git(root, "config", key, value)
    commits = recent_commits(root, 5)
    assert commits is not None and [c.message for c in commits] == ["a change"]
    assert not marker.exists()


def test_a_folder_without_its_own_git_never_reports_an_enclosing_repository(tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    repository(outer, ["outer work"])
    inner = outer / "project"
    inner.mkdir()
    assert recent_commits(inner, 5) == ()


def test_a_repository_without_commits_is_unknown(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q")
    assert recent_commits(root, 5) is None


def test_parse_oneline_splits_as_the_reference() -> None:
    assert parse_oneline("abc1234 feat:  two  spaces\n\n") == (GitCommit("abc1234", "feat:  two  spaces"),)


def test_the_cross_audit_on_disk(tmp_path: Path) -> None:
    root = tmp_path / "r"
    (root / "specs" / "a").mkdir(parents=True)
    (root / "specs" / "a" / "spec.md").write_text("# A\n")
    (root / "handoff.md").write_text(
        "## 1. Objetivo\n## 2. Estado actual\n## 3. Archivos y cambios\nwidgets\n## 4. Intentos fallidos\n"
        "## 5. Próximos pasos\n",
        "utf-8",
    )
    repository(root, ["add widgets", "rewrite parser"])
    found = [f for f in analyze(GemstackRepo(str(root), DiskReader(root))) if f.code.startswith("MEMORY_")]
    assert [f.code for f in found] == ["MEMORY_UNRECORDED_COMMITS"]
    assert len(found[0].data["commits"]) == 1  # "add widgets" is recorded by its word "widgets".


def test_check_runs_the_cross_audit_through_the_analysis_host(tmp_path: Path) -> None:
    """The CLI and the server analyse through the host's tracking reader, which asks the disk reader."""
    from gemstack_lsp.host import AnalysisHost

    root = tmp_path / "r"
    (root / "specs" / "a").mkdir(parents=True)
    (root / "specs" / "a" / "spec.md").write_text("# A\n")
    (root / "handoff.md").write_text(
        "## 1. Objetivo\n## 2. Estado actual\n## 3. Archivos y cambios\n"
        "## 4. Intentos fallidos\n## 5. Próximos pasos\n",
        "utf-8",
    )
    repository(root, ["rewrite parser"])
    host = AnalysisHost(str(root), DiskReader(root))
    found = [f for f in host.snapshot().findings() if f.code.startswith("MEMORY_")]
    assert [f.code for f in found] == ["MEMORY_UNRECORDED_COMMITS"]


def test_a_signed_commit_never_runs_the_configured_gpg_program(tmp_path: Path) -> None:
    """With log.showSignature and a gpg.program in the repository's config, a plain git log runs
    that program on a signed commit; the audit's query does not."""
    root = tmp_path / "r"
    repository(root, ["first"])
    tree = subprocess.run(["git", "rev-parse", "HEAD^{tree}"], cwd=root, capture_output=True, text=True, check=True)
    parent = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True)
    body = (
        f"tree {tree.stdout.strip()}\nparent {parent.stdout.strip()}\n"
        "author t <t@x> 1700000000 +0000\ncommitter t <t@x> 1700000000 +0000\n"
        "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned change\n"
    )
    (tmp_path / "commit.txt").write_text(body)
    made = subprocess.run(
        ["git", "hash-object", "-t", "commit", "-w", str(tmp_path / "commit.txt")],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    git(root, "update-ref", "HEAD", made.stdout.strip())
    script, marker = trap(tmp_path)
    git(root, "config", "log.showSignature", "true")
    git(root, "config", "gpg.program", str(script))
    subprocess.run(["git", "log", "-n1"], cwd=root, capture_output=True, check=False)
    assert marker.exists()  # The trap works: plain git log runs it.
    marker.unlink()
    commits = recent_commits(root, 5)
    assert commits is not None and [c.message for c in commits] == ["signed change", "first"]
    assert not marker.exists()
