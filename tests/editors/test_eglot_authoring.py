"""The authoring features in real Emacs 28 with eglot 1.9, set up as docs/editors.md says:
document highlight (eglot asks for it with eldoc's hover), completion-at-point in a block,
eglot-format on a region and on the buffer, and eglot-rename of a contract id, the buffers
saved. tests/editors/authoring.el drives them with eglot's own commands; every expectation is
computed here from the demo's files, never taken from the server.

The demo copy has specs/009's phase hashes removed from state.json, so its contracts can be
renamed (as in test_nvim_authoring.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.editors import authoring_common as ac
from tests.editors import batch_editor as be

pytestmark = pytest.mark.editor

HARNESS = Path(__file__).with_name("authoring.el")
HOW = "`make other-editors-deps` as root (apt-get install emacs-nox elpa-eglot elpa-markdown-mode)"


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> be.Run:
    emacs = be.need("emacs", HOW)
    argv = [str(emacs), "--batch", "-Q", "-l", str(HARNESS)]
    return ac.run_batch_authoring(
        tmp_path_factory, "emacs-eglot-authoring", argv, "### Emacs (eglot)", "elisp", "init.el"
    )


def test_harness_finished_every_step(run: be.Run) -> None:
    ac.assert_finished(run)
    assert run.result["eglot"] == [1, 9]


def test_document_highlight_marks_every_mention(run: be.Run) -> None:
    """eglot 1.9 requests documentHighlight along with eldoc's hover and draws overlays."""
    want = []
    for row, line in enumerate(ac.before(ac.SPEC9).split("\n")):
        for m in re.finditer(ac.whole_id(ac.HIGHLIGHT_ID), line):
            want.append([row, m.start(), m.end(), "eglot-highlight-symbol-face"])  # character columns
    assert len(want) >= 2
    assert run.result["highlight"] == want, run.explain()
    assert run.result["highlight_at"][0] in {w[0] for w in want}


def test_completion_at_point_offers_the_contract_types(run: be.Run) -> None:
    assert run.result["completion_labels"] == ac.CONTRACT_TYPES, run.result["completion_labels"]
    # M-x completion-at-point after `"IDEN`: the sole candidate, closed by the server's edit.
    assert run.result["completion_line"] == '  {"id": "x", "type": "IDENTITY_TUPLE"'


def test_format_region_lays_out_only_the_selected_block(run: be.Run) -> None:
    squeezed = run.result["squeezed"]
    assert '"capabilities": ["inference.generate_text"], "adapter": "GeminiAdapter" }' in squeezed
    want = ac.stringify_blocks(squeezed, kind="billable-actions")
    assert want != squeezed
    assert run.result["range_formatted"] == want, run.explain()
    assert run.result["range_formatted_disk"] == want


def test_format_buffer_lays_out_every_block_on_disk(run: be.Run) -> None:
    want = ac.stringify_blocks(run.result["squeezed_again"])
    assert run.result["formatted"] == want
    assert ac.now(run, ac.SPEC10) == want == ac.stringify_blocks(ac.before(ac.SPEC10))


def test_rename_changes_every_mention_and_no_derived_file(run: be.Run) -> None:
    changed = ac.RENAMED_FILES
    assert run.result["renamed_buffers"] == sorted(changed), run.explain()
    # eglot asked once, naming every file it was about to edit (answered yes).
    assert [p for p in run.result["prompts"] if "Server wants to edit" in p] == [run.result["prompts"][0]]
    for rel in changed:
        assert str(run.repo / rel) in run.result["prompts"][0]
    ac.assert_renamed_on_disk(run)
    assert (run.repo / ac.CAPSULE9).read_bytes() == (be.DEMO / ac.CAPSULE9).read_bytes()


def test_frozen_rename_is_refused_with_the_reason(run: be.Run) -> None:
    """eglot-rename signals the server's error: the reason shows in the echo area."""
    error = run.result["frozen_error"] or ""
    assert "Contract 'upgrade-c-cost-states' is frozen by the spec phase of 008-cost-provider-safety-gates" in error
    assert run.result["frozen_modified"] is False
    ac.assert_frozen_spec_unchanged(run)
