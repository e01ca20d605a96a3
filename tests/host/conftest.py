"""Fixtures of the analysis host's tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gemstack_lsp.host import files as files_module

DEMO = Path(__file__).resolve().parents[2] / "examples" / "demo"


@pytest.fixture
def demo_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of ``examples/demo``, its files taken as settled at once (the store keeps a file
    only once it is old enough; files a test has just written are too recent otherwise)."""
    monkeypatch.setattr(files_module, "_RACY_NS", -(10**18))
    root = tmp_path / "repo"
    shutil.copytree(DEMO, root)
    return root
