"""Fixtures for the release tests: a copy of this repository as it is on disk, committed."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from release_repo import REPO_ROOT, SDIST_NAME, WHEEL_NAME, Dist, commit_all, repository_files, run


@pytest.fixture(scope="session")
def source_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This repository's files, copied and committed once per session (shared: tests must not write to it)."""
    dest = tmp_path_factory.mktemp("gemstack-lsp-source") / "gemstack-lsp"
    for rel in repository_files():
        src, dst = REPO_ROOT / rel, dest / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            os.symlink(os.readlink(src), dst)
        else:
            shutil.copy2(src, dst)
    commit_all(dest, "gemstack-lsp as on disk")
    return dest


@pytest.fixture(scope="session")
def dist(source_copy: Path, tmp_path_factory: pytest.TempPathFactory) -> Dist:
    """Both release files, built as `make dist` does, from a private copy (the build writes egg-info)."""
    work = tmp_path_factory.mktemp("build")
    tree = work / "gemstack-lsp"
    shutil.copytree(source_copy, tree, ignore=shutil.ignore_patterns(".git"), symlinks=True)
    done = run(sys.executable, "-m", "build", "--outdir", work / "dist", tree)
    assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(p.name for p in (work / "dist").iterdir()) == [WHEEL_NAME, SDIST_NAME]
    return Dist(work / "dist" / SDIST_NAME, work / "dist" / WHEEL_NAME)
