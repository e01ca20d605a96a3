"""The authoring features in real Emacs 28 with eglot 1.9, set up as docs/editors.md says:
document highlight (eglot asks for it with eldoc's hover), completion-at-point in a block,
eglot-format on a region and on the buffer, and eglot-rename of a contract id, the buffers
saved. tests/editors/authoring.el drives them with eglot's own commands; every expectation is
computed here from the demo's files, never taken from the server.

The demo copy has specs/009's phase hashes removed from state.json, so its contracts can be
renamed (as in test_nvim_authoring.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.editors import batch_editor as be
from tests.editors.doc_snippets import snippet
from tests.editors.test_nvim_authoring import _stringify_blocks

pytestmark = pytest.mark.editor

HARNESS = Path(__file__).with_name("authoring.el")
HOW = "`make other-editors-deps` as root (apt-get install emacs-nox elpa-eglot elpa-markdown-mode)"
SPEC9 = "specs/009-context-capsule/spec.md"
SPEC10 = "specs/010-release-notes/spec.md"
CAPSULE9 = "specs/009-context-capsule/context-capsule.json"
HIGHLIGHT_ID = "zero-dependency-core"
RENAME_FROM, RENAME_TO = "capsule-offline-deterministic", "capsule-offline-repeatable"
CONTRACT_TYPES = ["BOOLEAN_INVARIANT", "BOUNDARY", "ENUM_SET", "IDENTITY_TUPLE", "PROVENANCE_RULE", "ROADMAP_LIMIT"]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> be.Run:
    emacs = be.need("emacs", HOW)
    base = tmp_path_factory.mktemp("eglot-authoring")
    repo = be.demo_copy(base)
    state_path = repo / ".gemstack" / "state.json"
    state = json.loads(state_path.read_text("utf-8"))
    state["completed_phases"], state["phase_hashes"] = [], {}
    state_path.write_text(json.dumps(state, indent=2) + "\n", "utf-8")
    init = base / "init.el"
    init.write_text(snippet("### Emacs (eglot)", "elisp"), "utf-8")
    return be.run_batch(
        "emacs-eglot-authoring",
        [str(emacs), "--batch", "-Q", "-l", str(HARNESS)],
        base,
        repo,
        {"GEMSTACK_SNIPPET": str(init)},
        [],
    )


def _before(rel: str) -> str:
    return (be.DEMO / rel).read_text("utf-8")


def _now(run: be.Run, rel: str) -> str:
    return (run.repo / rel).read_text("utf-8")


def test_harness_finished_every_step(run: be.Run) -> None:
    assert run.result.get("error") is None, run.explain()
    assert not run.result.get("timeouts"), run.explain()
    assert run.returncode == 0, run.explain()
    assert run.result["eglot"] == [1, 9]


def test_document_highlight_marks_every_mention(run: be.Run) -> None:
    """eglot 1.9 requests documentHighlight along with eldoc's hover and draws overlays."""
    want = []
    for row, line in enumerate(_before(SPEC9).split("\n")):
        for m in re.finditer(rf"(?<![\w.-]){re.escape(HIGHLIGHT_ID)}(?![\w.-])", line):
            want.append([row, m.start(), m.end(), "eglot-highlight-symbol-face"])  # character columns
    assert len(want) >= 2
    assert run.result["highlight"] == want, run.explain()
    assert run.result["highlight_at"][0] in {w[0] for w in want}


def test_completion_at_point_offers_the_contract_types(run: be.Run) -> None:
    assert run.result["completion_labels"] == CONTRACT_TYPES, run.result["completion_labels"]
    # M-x completion-at-point after `"IDEN`: the sole candidate, closed by the server's edit.
    assert run.result["completion_line"] == '  {"id": "x", "type": "IDENTITY_TUPLE"'


def test_format_region_lays_out_only_the_selected_block(run: be.Run) -> None:
    squeezed = run.result["squeezed"]
    assert '"capabilities": ["inference.generate_text"], "adapter": "GeminiAdapter" }' in squeezed
    want = _stringify_blocks(squeezed, kind="billable-actions")
    assert want != squeezed
    assert run.result["range_formatted"] == want, run.explain()
    assert run.result["range_formatted_disk"] == want


def test_format_buffer_lays_out_every_block_on_disk(run: be.Run) -> None:
    want = _stringify_blocks(run.result["squeezed_again"])
    assert run.result["formatted"] == want
    assert _now(run, SPEC10) == want == _stringify_blocks(_before(SPEC10))


def test_rename_changes_every_mention_and_no_derived_file(run: be.Run) -> None:
    changed = [SPEC9, "specs/009-context-capsule/plan.md", "specs/009-context-capsule/tasks.md"]
    assert run.result["renamed_buffers"] == sorted(changed), run.explain()
    # eglot asked once, naming every file it was about to edit (answered yes).
    assert [p for p in run.result["prompts"] if "Server wants to edit" in p] == [run.result["prompts"][0]]
    for rel in changed:
        assert str(run.repo / rel) in run.result["prompts"][0]
    for rel in changed:
        before = _before(rel)
        assert RENAME_FROM in before, rel
        assert _now(run, rel) == re.sub(rf"(?<![\w.-]){re.escape(RENAME_FROM)}(?![\w.-])", RENAME_TO, before), rel
    assert (run.repo / CAPSULE9).read_bytes() == (be.DEMO / CAPSULE9).read_bytes()


def test_frozen_rename_is_refused_with_the_reason(run: be.Run) -> None:
    """eglot-rename signals the server's error: the reason shows in the echo area."""
    error = run.result["frozen_error"] or ""
    assert "Contract 'upgrade-c-cost-states' is frozen by the spec phase of 008-cost-provider-safety-gates" in error
    assert run.result["frozen_modified"] is False
    spec8 = "specs/008-cost-provider-safety-gates/spec.md"
    assert _now(run, spec8) == _before(spec8)
