"""A hand-edited capsule cannot switch a check off (issue 18, item 5): the dropped-rule check
finds the spec by its path, and a role label that contradicts its path is an authority conflict."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.core.capsule.generate import generate_capsule
from gemstack_lsp.core.capsule.verify import verify_capsule
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.fs import DiskReader
from tests.conftest import REFERENCE_OUTPUT

F9 = "specs/009-context-capsule"
SPEC = f"{F9}/spec.md"
NOW = dt.datetime(2026, 12, 2, 12, 0, tzinfo=dt.UTC)


def _ours(root: Path) -> dict[str, Any]:
    result = generate_capsule(GemstackRepo(str(root), DiskReader(root)), F9, NOW)
    assert result.data is not None
    capsule: dict[str, Any] = json.loads(result.data)
    return capsule


def _reference(root: Path) -> dict[str, Any]:
    capsule: dict[str, Any] = json.loads((REFERENCE_OUTPUT / "specs-009-context-capsule.json").read_text("utf-8"))
    return capsule


def _write(root: Path, capsule: dict[str, Any]) -> None:
    (root / F9 / "context-capsule.json").write_text(json.dumps(capsule, indent=2) + "\n", "utf-8")


def _verify(root: Path) -> tuple[str, list[str]]:
    result = verify_capsule(GemstackRepo(str(root), DiskReader(root)), F9)
    return result.state, [f.code for f in result.findings]


def _relabel_spec(capsule: dict[str, Any], role: str | None) -> None:
    for source in capsule["provenance"]["sources"]:
        if source["path"].endswith("/spec.md"):
            if role is None:
                del source["role"]
            else:
                source["role"] = role


@pytest.mark.parametrize("make", [_ours, _reference], ids=["ours", "reference"])
def test_capsule_is_valid_before_the_edit(reference_repo: Path, make: Any) -> None:
    _write(reference_repo, make(reference_repo))
    assert _verify(reference_repo) == ("VALID", [])


@pytest.mark.parametrize("make", [_ours, _reference], ids=["ours", "reference"])
def test_relabelled_spec_and_dropped_invariant_is_invalid(reference_repo: Path, make: Any) -> None:
    capsule = make(reference_repo)
    _relabel_spec(capsule, "PLAN")
    dropped = capsule["canonical_invariants"].pop(0)
    _write(reference_repo, capsule)
    repo = GemstackRepo(str(reference_repo), DiskReader(reference_repo))
    result = verify_capsule(repo, F9)
    assert result.state == "INVALID"
    codes = [f.code for f in result.findings]
    assert "CONTEXT_CAPSULE_INVARIANT_DROPPED" in codes
    assert "CONTEXT_CAPSULE_AUTHORITY_CONFLICT" in codes
    (drop,) = [f for f in result.findings if f.code == "CONTEXT_CAPSULE_INVARIANT_DROPPED"]
    assert drop.path == SPEC and dropped["rule"] in drop.message
    (conflict,) = [f for f in result.findings if f.code == "CONTEXT_CAPSULE_AUTHORITY_CONFLICT"]
    assert conflict.path == f"{F9}/context-capsule.json"
    assert conflict.span is not None
    capsule_text = (reference_repo / F9 / "context-capsule.json").read_text("utf-8")
    assert capsule_text[conflict.span.start : conflict.span.end] == '"PLAN"'
    assert '"PLAN"' in conflict.message and "SPECIFICATION" in conflict.message


@pytest.mark.parametrize(
    ("role", "codes"),
    [
        ("PLAN", ["CONTEXT_CAPSULE_AUTHORITY_CONFLICT"]),
        ("specification", ["CONTEXT_CAPSULE_AUTHORITY_CONFLICT"]),
        # No role at all also breaks the v1 schema.
        (None, ["CONTEXT_CAPSULE_INVALID", "CONTEXT_CAPSULE_AUTHORITY_CONFLICT"]),
    ],
)
def test_a_relabelled_role_alone_is_an_authority_conflict(
    reference_repo: Path, role: str | None, codes: list[str]
) -> None:
    capsule = _ours(reference_repo)
    _relabel_spec(capsule, role)
    _write(reference_repo, capsule)
    assert _verify(reference_repo) == ("INVALID", codes)


def test_the_dropped_rule_is_found_when_the_label_moves_to_another_file(reference_repo: Path) -> None:
    """Two labels swapped: the checks still read spec.md as the spec, and report both labels."""
    capsule = _ours(reference_repo)
    for source in capsule["provenance"]["sources"]:
        if source["path"].endswith("/spec.md"):
            source["role"] = "TASKS"
        elif source["path"].endswith("/tasks.md"):
            source["role"] = "SPECIFICATION"
    capsule["canonical_invariants"].pop()
    _write(reference_repo, capsule)
    state, codes = _verify(reference_repo)
    assert state == "INVALID"
    assert codes.count("CONTEXT_CAPSULE_AUTHORITY_CONFLICT") == 2
    assert "CONTEXT_CAPSULE_INVARIANT_DROPPED" in codes


def test_a_stale_spec_with_a_relabel_is_still_a_conflict_but_no_dropped_rule(reference_repo: Path) -> None:
    """An edited spec is STALE (its new rules are not drops), the wrong label is still reported."""
    capsule = _ours(reference_repo)
    _relabel_spec(capsule, "PLAN")
    _write(reference_repo, capsule)
    with (reference_repo / SPEC).open("a", encoding="utf-8") as fh:
        fh.write("\n- The tool MUST stay offline.\n")
    state, codes = _verify(reference_repo)
    assert state == "INVALID"
    assert "CONTEXT_CAPSULE_STALE" in codes and "CONTEXT_CAPSULE_INVARIANT_DROPPED" not in codes
