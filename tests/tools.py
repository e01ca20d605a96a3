"""Finding the external tools that the editor, reference and release tiers need.

A tool is looked up on PATH (after a preferred folder, such as the venv's bin, when given),
never at a fixed path. When it is missing, the test is skipped with the command that installs
it, except in CI (``CI=true``), where a missing tool fails the test loudly: CI installs every
tool (`make test`), so a skip there would hide a broken set-up.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import NoReturn

import pytest


def in_ci() -> bool:
    """True in CI (the CI variable set to anything but false/0/empty)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def missing(what: str, how: str) -> NoReturn:
    """Skips (locally) or fails (in CI) a test whose tool is missing."""
    message = f"{what} is missing: {how}"
    if in_ci():
        pytest.fail(message)
    pytest.skip(message)


def find_tool(name: str, how: str, prefer: Path | None = None) -> str:
    """The path of ``name``: in ``prefer`` first, then on PATH; else skip or fail (see module)."""
    if prefer is not None:
        found = shutil.which(name, path=str(prefer))
        if found:
            return found
    found = shutil.which(name)
    if found is None:
        missing(f"{name} (not on PATH)", how)
    return found
