"""Fixtures for the release tests: a copy of this repository as it is on disk, committed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from release_repo import REPO_ROOT, commit_all, repository_files


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
