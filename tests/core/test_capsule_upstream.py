"""The real upstream repository (a 2.0 slice, tests/fixtures/upstream-013): no false alarm.

Its state.json has ``"stop_reason": null`` and ``"active_spec": null``; its 013 capsule was
written by the reference generator and verifies VALID there. A state.json edit makes it stale:
one warning (013 is shipped, nothing is active), an error only once 013 is the active feature.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from gemstack_lsp.cli import main as cli_main
from gemstack_lsp.core.capsule.generate import generate_capsule
from gemstack_lsp.core.capsule.verify import verify_capsule
from gemstack_lsp.core.findings import Severity
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.fs import DiskReader, write_atomic
from tests.conftest import FIXTURES
from tests.core.test_capsule_verify import reference_context_verify

UPSTREAM = FIXTURES / "upstream-013"
F13 = "specs/013-gemstack-2.0-adaptable-sdd"
NOW = dt.datetime(2026, 12, 2, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def upstream(tmp_path: Path) -> Path:
    root = tmp_path / "Gemstack"
    shutil.copytree(UPSTREAM, root, ignore=shutil.ignore_patterns("README.md"))
    return root


def disk(root: Path) -> GemstackRepo:
    return GemstackRepo(str(root), DiskReader(root))


def capsule_findings(root: Path) -> list[tuple[str, str, Severity, str]]:
    return [
        (f.code, f.path, f.effective_severity, f.message)
        for f in analyze(disk(root))
        if f.code.startswith(("CONTEXT_CAPSULE", "STATE_"))
    ]


def test_the_upstream_repository_as_kept_is_clean(upstream: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert reference_context_verify(upstream, F13) == ("VALID", None)
    assert verify_capsule(disk(upstream), F13).state == "VALID"
    assert capsule_findings(upstream) == []
    assert cli_main(["check", str(upstream)]) == 0
    assert cli_main(["context", "verify", F13, "--target", str(upstream)]) == 0
    capsys.readouterr()


def test_a_timestamp_edit_in_state_json_is_one_warning_until_the_feature_is_active(upstream: Path) -> None:
    state = upstream / ".gemstack" / "state.json"
    data = json.loads(state.read_text("utf-8"))
    data["last_update"] = "2026-12-02T10:00:00.000Z"
    state.write_text(json.dumps(data, indent=2) + "\n", "utf-8")
    message = f"Context capsule of {F13} is STALE: .gemstack/state.json changed since it was generated. Regenerate it."
    assert capsule_findings(upstream) == [
        (
            "CONTEXT_CAPSULE_STALE",
            f"{F13}/spec.md",
            Severity.WARNING,
            f"{message} ({F13} is not the active feature: a warning, not an error.)",
        )
    ]
    data["active_spec"] = F13
    state.write_text(json.dumps(data, indent=2) + "\n", "utf-8")
    assert capsule_findings(upstream) == [("CONTEXT_CAPSULE_STALE", f"{F13}/spec.md", Severity.BLOCKER, message)]


def test_our_capsule_of_the_upstream_feature_is_the_same_in_any_checkout(upstream: Path, tmp_path: Path) -> None:
    other = tmp_path / "elsewhere" / "my-fork"
    shutil.copytree(upstream, other)
    a = generate_capsule(disk(upstream), F13, NOW)
    b = generate_capsule(disk(other), F13, NOW)
    assert a.data is not None and a.data == b.data and a.warnings == ()
    assert a.capsule is not None and "name" not in a.capsule["project"]
    write_atomic(other / a.path, a.data)
    assert reference_context_verify(other, F13) == ("VALID", None)
    assert verify_capsule(disk(other), F13).state == "VALID"
    assert capsule_findings(other) == []
