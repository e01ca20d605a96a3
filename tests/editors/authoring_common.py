"""What the authoring tests in real editors share (test_eglot_authoring.py, test_ale_authoring.py,
and test_nvim_authoring.py for the demo copy, the names and the block layout): the demo copy with
specs/009 unfrozen, the files and contract ids the sessions touch, and the expectations computed
from the demo's files, independently of the server."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.editors import batch_editor as be
from tests.editors.doc_snippets import snippet

SPEC8 = "specs/008-cost-provider-safety-gates/spec.md"
PLAN8 = "specs/008-cost-provider-safety-gates/plan.md"
SPEC9 = "specs/009-context-capsule/spec.md"
PLAN9 = "specs/009-context-capsule/plan.md"
TASKS9 = "specs/009-context-capsule/tasks.md"
SPEC10 = "specs/010-release-notes/spec.md"
CAPSULE9 = "specs/009-context-capsule/context-capsule.json"
#: The same names as in the harnesses (authoring.lua, authoring.el, authoring_ale.vim).
RENAME_FROM, RENAME_TO = "capsule-offline-deterministic", "capsule-offline-repeatable"
FROZEN_FROM, FROZEN_TO = "upgrade-c-cost-states", "upgrade-c-states"
HIGHLIGHT_ID = "zero-dependency-core"
#: The 009 files that mention RENAME_FROM: what a rename changes (not the derived capsule).
RENAMED_FILES = [SPEC9, PLAN9, TASKS9]
CONTRACT_TYPES = ["BOOLEAN_INVARIANT", "BOUNDARY", "ENUM_SET", "IDENTITY_TUPLE", "PROVENANCE_RULE", "ROADMAP_LIMIT"]


def unfreeze_009(repo: Path) -> None:
    """Remove the phase hashes from the demo copy's state.json, so specs/009's contracts can be
    renamed; specs/008 stays frozen (the last completed feature)."""
    state_path = repo / ".gemstack" / "state.json"
    state = json.loads(state_path.read_text("utf-8"))
    state["completed_phases"], state["phase_hashes"] = [], {}
    state_path.write_text(json.dumps(state, indent=2) + "\n", "utf-8")


def run_batch_authoring(
    tmp_path_factory: pytest.TempPathFactory, name: str, argv: list[str], heading: str, language: str, init: str
) -> be.Run:
    """A batch editor session (``argv``) on an unfrozen demo copy, with the setup documented
    under ``heading`` (its ``language`` block) written to ``init`` and passed as
    $GEMSTACK_SNIPPET."""
    base = tmp_path_factory.mktemp(name)
    repo = be.demo_copy(base)
    unfreeze_009(repo)
    init_path = base / init
    init_path.write_text(snippet(heading, language), "utf-8")
    return be.run_batch(name, argv, base, repo, {"GEMSTACK_SNIPPET": str(init_path)}, [])


def assert_finished(run: be.Run) -> None:
    """The harness ran every step: no error, no wait timed out, exit 0."""
    assert run.result.get("error") is None, run.explain()
    assert not run.result.get("timeouts"), run.explain()
    assert run.returncode == 0, run.explain()


def before(rel: str) -> str:
    """The demo's file, as the session found it."""
    return (be.DEMO / rel).read_text("utf-8")


def now(run: be.Run, rel: str) -> str:
    """The session's copy of the file, as it left it."""
    return (run.repo / rel).read_text("utf-8")


def whole_id(word: str) -> str:
    """A regular expression for ``word`` as a whole contract id (not part of a longer one)."""
    return rf"(?<![\w.-]){re.escape(word)}(?![\w.-])"


def renamed(text: str, old: str = RENAME_FROM, new: str = RENAME_TO) -> str:
    """``text`` with every whole-id occurrence of ``old`` replaced by ``new``."""
    return re.sub(whole_id(old), new, text)


def assert_renamed_on_disk(run: be.Run) -> None:
    """Every file that mentions RENAME_FROM has it replaced by RENAME_TO, and nothing else."""
    for rel in RENAMED_FILES:
        text = before(rel)
        assert RENAME_FROM in text, rel
        assert now(run, rel) == renamed(text), rel


def assert_frozen_spec_unchanged(run: be.Run) -> None:
    """The refused rename left the frozen 008 spec as it was."""
    assert now(run, SPEC8) == before(SPEC8)


def stringify_blocks(text: str, kind: str = "[a-z-]+") -> str:
    """Every ```gemstack-* block's JSON (of ``kind`` only, when given) laid out as
    JSON.stringify(value, null, 2) does."""

    def layout(m: re.Match[str]) -> str:
        return m.group(1) + json.dumps(json.loads(m.group(2)), indent=2, ensure_ascii=False) + m.group(3)

    return re.sub(rf"(```gemstack-{kind}\n)(.*?)(\n```)", layout, text, flags=re.S)
