"""Shared test fixtures: the reference repository and its golden vectors, copied per test; finding helpers."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from gemstack_lsp.core.findings import Finding

# Property tests never fail on timing (the machine may be busy): no deadline, no too-slow
# health check. In CI they are also derandomised, so a run is reproducible.
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("dev"), derandomize=True, database=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

FIXTURES = Path(__file__).parent / "fixtures"
REFERENCE = FIXTURES / "gemstack-reference"
REFERENCE_REPO = REFERENCE / "repo"
REFERENCE_OUTPUT = REFERENCE / "reference-output"
#: The SARIF 2.1.0 JSON schema (draft-04), fetched by `make sarif-schema` (pinned by digest).
SARIF_SCHEMA = Path(__file__).parents[1] / ".cache" / "sarif-schema" / "sarif-2.1.0-rtm.5.json"


# --- Test tiers -------------------------------------------------------------------------------
# `make check` runs what needs only Python and the project's own dependencies:
#   pytest -m "not editor and not reference and not release"
# The other tiers run in `make test`, which installs their tools first:
#   editor     real editors (Neovim, Emacs, Vim, code-server in Chromium): tests/editors
#   reference  the reference implementations and data fetched with npm (Node, make provenance-ref,
#              make sarif-schema): the tests that use the `reference` or `sarif_validator` fixture
#   release    the release files and pipeline (build, twine, pre-commit, make dist): tests/release
_TIER_DIRS = {"editors": "editor", "release": "release"}
_REFERENCE_FIXTURES = {"reference", "sarif_validator"}
_REFERENCE_MODULES = {"test_differential.py"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks each test with its tier (by folder, module or the fixtures it uses)."""
    tests_dir = Path(__file__).parent
    for item in items:
        path = Path(str(item.path))
        try:
            top = path.relative_to(tests_dir).parts[0]
        except ValueError:
            continue
        tier = _TIER_DIRS.get(top)
        if tier:
            item.add_marker(getattr(pytest.mark, tier))
        fixtures = set(getattr(item, "fixturenames", ()))
        if fixtures & _REFERENCE_FIXTURES or path.name in _REFERENCE_MODULES:
            item.add_marker(pytest.mark.reference)


@pytest.fixture
def reference_repo(tmp_path: Path) -> Path:
    """A writable copy of the reference fixture repository."""
    dest = tmp_path / "repo"
    shutil.copytree(REFERENCE_REPO, dest)
    for p in dest.rglob("*"):
        p.chmod(p.stat().st_mode | 0o200)
    return dest


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 3 MiB tmpfs to fill up or remount read-only (mounting needs root; CI runs as root)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root (CI runs as root)")
    mount = tmp_path / "disk"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


@pytest.fixture(scope="session")
def golden() -> dict[str, Any]:
    """The reference's golden vectors (canonical JSON, hashes, gates, ...)."""
    data: dict[str, Any] = json.loads((REFERENCE / "golden-vectors.json").read_text("utf-8"))
    return data


@pytest.fixture(scope="session")
def sarif_validator() -> Any:
    """A validator for the official SARIF 2.1.0 schema (all of it, formats included)."""
    import jsonschema

    from tests.tools import missing

    if not SARIF_SCHEMA.is_file():
        missing(f"the SARIF 2.1.0 schema ({SARIF_SCHEMA})", "run `make sarif-schema` (make test does it; it needs npm)")
    schema = json.loads(SARIF_SCHEMA.read_text("utf-8"))
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


def covered(text: str, findings: Iterable[Finding]) -> list[tuple[str, str, str]]:
    """Each finding as (code, message, the text its span covers in ``text``)."""
    out = []
    for f in findings:
        assert f.span is not None
        out.append((f.code, f.message, text[f.span.start : f.span.end]))
    return out
