"""Quiet outside Gemstack: a spec-kit repository is no Gemstack repository (``core.identity``),
and gets no finding, no capsule lens and no capsule state; ``check`` reports nothing and exits
0. A Gemstack repository of the same shape still gets all three."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gemstack_lsp.cli import main
from gemstack_lsp.core.identity import has_gemstack_markup, is_gemstack_repository
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.host import AnalysisHost
from gemstack_lsp.ide.lens import code_lenses
from gemstack_lsp.server.capsule_state import capsule_state

F = "specs/001-photo-albums"

#: A spec-kit repository as ``specify init`` and ``/specify``, ``/plan``, ``/tasks`` leave it.
SPEC_KIT = {
    ".specify/memory/constitution.md": "# Photo Constitution\n\n## Core Principles\n",
    f"{F}/spec.md": (
        "# Feature Specification: Photo Albums\n\n**Feature Branch**: `001-photo-albums`\n\n"
        "## Requirements *(mandatory)*\n\n- **FR-001**: System MUST allow users to create albums.\n"
    ),
    f"{F}/plan.md": '# Implementation Plan: Photo Albums\n\n## Technical Context\n\n```json\n{"albums": []}\n```\n',
    f"{F}/tasks.md": "# Tasks: Photo Albums\n\n- [ ] T001 Create project structure\n- [X] T002 [P] Configure linting\n",
    f"{F}/contracts/albums.json": '{"openapi": "3.0.0"}\n',
}

GEMSTACK_BLOCK = (
    '\n```gemstack-contracts\n[{"id": "albums-ordered", "type": "BOOLEAN_INVARIANT", "value": true}]\n```\n'
)


def _repo(files: dict[str, str]) -> GemstackRepo:
    return GemstackRepo("/repo", MemoryReader(dict(files)))


@pytest.mark.parametrize(
    ("extra", "gemstack"),
    [
        ({}, False),
        ({".gemstack/state.json": "{}"}, True),
        ({f"{F}/spec.md": SPEC_KIT[f"{F}/spec.md"] + GEMSTACK_BLOCK}, True),
        ({f"{F}/tasks.md": "- [ ] **T001: Ledger**\n  <!-- gemstack:tests=TEST-A-B01 -->\n"}, True),
        ({f"{F}/context-capsule.json": "{}"}, True),
        ({f"{F}/closure.json": "{}"}, True),
        # A ledger's name is common outside Gemstack: alone it does not make one.
        ({f"{F}/cost-ledger.json": "{}"}, False),
    ],
)
def test_what_makes_a_gemstack_repository(extra: dict[str, str], gemstack: bool) -> None:
    assert is_gemstack_repository(_repo({**SPEC_KIT, **extra})) is gemstack


def test_markup_is_a_block_or_task_metadata_not_the_word() -> None:
    assert not has_gemstack_markup("We do not use gemstack here.\n")
    assert has_gemstack_markup("~~~gemstack-test-matrix\n[]\n~~~\n")
    assert not has_gemstack_markup("```json\n{}\n```\n")


def test_a_spec_kit_repository_gets_no_finding_lens_or_capsule_state() -> None:
    assert analyze(_repo(SPEC_KIT)) == []
    snapshot = AnalysisHost("/repo", MemoryReader(dict(SPEC_KIT))).snapshot()
    assert list(snapshot.findings()) == []  # the editor's analysis: no information finding either
    assert code_lenses(snapshot, f"{F}/spec.md", AnalysisOptions()) == ()
    assert capsule_state(snapshot, f"{F}/spec.md") is None


def test_a_gemstack_repository_of_the_same_shape_still_gets_them() -> None:
    files = {**SPEC_KIT, ".gemstack/state.json": json.dumps({"active_spec": F})}
    codes = [f.code for f in analyze(_repo(files))]
    assert "LEGACY_NO_PROVIDERS_DECLARED" in codes
    snapshot = AnalysisHost("/repo", MemoryReader(dict(files))).snapshot()
    titles = [lens.title for lens in code_lenses(snapshot, f"{F}/spec.md", AnalysisOptions())]
    assert "Generate capsule" in titles
    state = capsule_state(snapshot, f"{F}/spec.md")
    assert state is not None and state["state"] == "LEGACY"


def test_check_on_a_spec_kit_repository_reports_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for rel, text in SPEC_KIT.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, "utf-8")
    assert main(["check", "--format", "json", str(tmp_path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["findings"] == [] and report["summary"]["total"] == 0


#: A second spec-kit feature whose task list the reference would not read (numbered items).
G = "specs/002-sharing"
UNREAD_TASKS = "# Tasks: Sharing\n\n- [ ] 1.1 Share an album\n- [ ] 1.2 Revoke a share\n"


def _mixed(with_block: bool) -> dict[str, str]:
    files = {**SPEC_KIT, f"{G}/spec.md": "# Feature Specification: Sharing\n", f"{G}/tasks.md": UNREAD_TASKS}
    if with_block:
        files[f"{F}/spec.md"] = SPEC_KIT[f"{F}/spec.md"] + GEMSTACK_BLOCK
    return files


@pytest.mark.parametrize("with_block", [False, True])
def test_one_features_block_makes_the_repository_gemstack_for_every_feature(with_block: bool) -> None:
    """The repository is decided from every feature (``core.identity``), though no feature's
    analysis reads another's files: each unit reports its part and ``combine`` decides. A
    Gemstack block in 001 brings 002's tasks.md finding and the legacy notice; without it,
    nothing (the editor's incremental host agrees with the one-shot analysis)."""
    files = _mixed(with_block)
    found = sorted((f.code, f.path) for f in analyze(_repo(files)))
    unread = [("TASKS_UNREAD_BY_REFERENCE", f"{F}/tasks.md"), ("TASKS_UNREAD_BY_REFERENCE", f"{G}/tasks.md")]
    expected = [("LEGACY_NO_PROVIDERS_DECLARED", f"{F}/spec.md"), *unread] if with_block else []
    assert found == expected
    host = AnalysisHost("/repo", MemoryReader(dict(files)))
    assert sorted((f.code, f.path) for f in host.snapshot().findings()) == expected
    assert host.snapshot().is_gemstack() is with_block


def test_the_host_follows_the_repository_becoming_gemstack_and_back() -> None:
    """An edit in one feature that adds (then removes) the only Gemstack block changes the
    other feature's findings in the editor, as a fresh analysis would."""
    reader = MemoryReader(_mixed(False))
    host = AnalysisHost("/repo", reader)
    assert list(host.snapshot().findings()) == []
    for text in (SPEC_KIT[f"{F}/spec.md"] + GEMSTACK_BLOCK, SPEC_KIT[f"{F}/spec.md"]):
        host.set_buffer(f"{F}/spec.md", text)
        snapshot = host.snapshot()
        fresh = analyze(GemstackRepo("/repo", MemoryReader({**_mixed(False), f"{F}/spec.md": text})))
        assert list(snapshot.findings()) == fresh


def test_a_feature_of_a_spec_kit_repository_reads_only_its_own_files(tmp_path: Path) -> None:
    """Deciding that a spec-kit repository is not a Gemstack one reads every feature once, in
    its own unit: no unit depends on another feature's files (a keystroke in one feature
    re-analyses that feature, not all of them), whatever the feature count."""
    from gemstack_lsp.fs import DiskReader

    for n in range(40):
        folder = tmp_path / "specs" / f"{n:03d}-feature"
        folder.mkdir(parents=True)
        (folder / "spec.md").write_text("# Feature Specification: x\n", "utf-8")
        (folder / "tasks.md").write_text("# Tasks\n\n- [ ] T001 Do it\n", "utf-8")
    host = AnalysisHost(str(tmp_path), DiskReader(tmp_path))
    snapshot = host.snapshot()
    assert list(snapshot.findings()) == []
    for key in snapshot.units():
        stored = host.fresh(key)
        assert stored is not None
        others = [d for d in stored.deps if d.startswith("specs/") and key and not d.startswith(f"specs/{key}/")]
        assert others == [], (key, others)
