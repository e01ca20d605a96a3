"""The authoring features ALE 3.3 has, in real Vim 9 (`vim -es`) against gemstack-lsp, set up
exactly as docs/editors.md says: :ALECodeAction's Regenerate on the stale capsule, completion
through ALE's omnifunc in a gemstack-contracts block, and :ALERename of a contract id (then
:wall). tests/editors/authoring_ale.vim drives them; every expectation is computed here from the
demo's files.

The demo copy has specs/009's phase hashes removed from state.json, so its contracts can be
renamed (as in test_nvim_authoring.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.editors import authoring_common as ac
from tests.editors import batch_editor as be
from tests.editors.test_ale import ALE, HOW

pytestmark = pytest.mark.editor

HARNESS = Path(__file__).with_name("authoring_ale.vim")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> be.Run:
    vim = be.need("vim", HOW)
    if not ALE.is_dir():
        pytest.fail(f"ALE is not installed ({ALE} is missing): run {HOW}")
    argv = [str(vim), "-N", "-u", "NONE", "-i", "NONE", "-es", "-S", str(HARNESS)]
    return ac.run_batch_authoring(tmp_path_factory, "vim-ale-authoring", argv, "### Vim (ALE)", "vim", "gemstack.vim")


def test_harness_finished_every_step(run: be.Run) -> None:
    ac.assert_finished(run)


def test_omnifunc_completion_offers_the_contract_types(run: be.Run) -> None:
    """ALE shows the server's edit text (the value and its closing quote) as the word."""
    first, prefixed = run.result["completion"]
    assert sorted(first["items"]) == [f'{t}"' for t in ac.CONTRACT_TYPES], first
    assert first["line"] == '  {"id": "x", "type": "ENUM_SET"'  # the first item, inserted
    assert prefixed["items"] == ['IDENTITY_TUPLE"']
    assert prefixed["line"] == '  {"id": "x", "type": "IDENTITY_TUPLE"'


def test_ale_rename_changes_every_mention_and_no_derived_file(run: be.Run) -> None:
    assert sorted(run.result["modified"]) == sorted(ac.RENAMED_FILES), run.explain()
    # ALE prompts with Vim's word under the cursor (ids hold '-', not in 'iskeyword').
    assert run.result["prompts"][1] == ["New name: ", "capsule"]
    ac.assert_renamed_on_disk(run)
    # The capsule as the code action wrote it, untouched by the rename.
    assert run.result["capsule_after_rename"] == run.result["capsule_after"]


def test_frozen_rename_is_refused_without_the_reason(run: be.Run) -> None:
    """ALE 3.3 drops an error response's message: it says only that no result came."""
    assert "No rename result received from server" in run.result["frozen_messages"], run.result["frozen_messages"]
    assert run.result["frozen_modified"] is False
    assert run.result["prompts"][2] == ["New name: ", "upgrade"]
    ac.assert_frozen_spec_unchanged(run)


def test_code_action_regenerates_the_stale_capsule(run: be.Run) -> None:
    """:ALECodeAction lists the capsule actions, numbered; Regenerate's number typed at the
    prompt runs the server's command: the capsule is written and the finding goes."""
    assert run.result["prompts"][0] == [
        "Code Fixes:\n1) Regenerate the context capsule\n2) Verify the context capsule\n"
        "Type number and <Enter> (empty cancels): ",
        "",
    ]
    assert "CONTEXT_CAPSULE_STALE" in run.result["codes_before"]
    assert run.result["codes_after"] == [c for c in run.result["codes_before"] if c != "CONTEXT_CAPSULE_STALE"]
    assert run.result["capsule_before"] == ac.before(ac.CAPSULE9)
    assert run.result["capsule_after"] != run.result["capsule_before"]
    assert json.loads(run.result["capsule_after"])  # a JSON document
