"""Shared test fixtures: the reference repository and its golden vectors, copied per test."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
REFERENCE = FIXTURES / "gemstack-reference"
REFERENCE_REPO = REFERENCE / "repo"
REFERENCE_OUTPUT = REFERENCE / "reference-output"


@pytest.fixture
def reference_repo(tmp_path: Path) -> Path:
    """A writable copy of the reference fixture repository."""
    dest = tmp_path / "repo"
    shutil.copytree(REFERENCE_REPO, dest)
    for p in dest.rglob("*"):
        p.chmod(p.stat().st_mode | 0o200)
    return dest


@pytest.fixture(scope="session")
def golden() -> dict[str, Any]:
    """The reference's golden vectors (canonical JSON, hashes, gates, ...)."""
    data: dict[str, Any] = json.loads((REFERENCE / "golden-vectors.json").read_text("utf-8"))
    return data
