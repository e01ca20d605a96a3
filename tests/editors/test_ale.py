"""Real Vim 9 (`vim -es`) with ALE, set up exactly as docs/editors.md says.

`make other-editors-deps` installs Vim's ALE from Debian (vim-ale); a missing one fails here
with that target, never skips. tests/editors/harness_ale.vim runs once on a copy of
examples/demo with the documented linter definition; the tests read its JSON.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gemstack_lsp.server.settings import parse_settings
from tests.editors import batch_editor as be
from tests.editors.doc_snippets import snippet

pytestmark = pytest.mark.editor

HARNESS = Path(__file__).with_name("harness_ale.vim")
HOW = "`make other-editors-deps` as root (apt-get install vim vim-ale)"
ALE = Path("/usr/share/vim/vimfiles/pack/dist-bundle/opt/ale")
LEDGER = "cost-ledger.json"
SEVERITY = {"error": "E", "warning": "W", "information": "I", "hint": "I"}


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> be.Run:
    vim = be.need("vim", HOW)
    if not ALE.is_dir():
        pytest.fail(f"ALE is not installed ({ALE} is missing): run {HOW}")
    base = tmp_path_factory.mktemp("ale")
    repo = be.demo_copy(base)
    files = (be.SPEC, LEDGER)
    expected = [f for f in be.findings(repo) if f["path"] in files]
    vimrc = base / "gemstack.vim"
    vimrc.write_text(snippet("### Vim (ALE)", "vim"), "utf-8")
    env = {
        "GEMSTACK_SNIPPET": str(vimrc),
        "GEMSTACK_EXPECTED": json.dumps({p: sorted({f["code"] for f in expected if f["path"] == p}) for p in files}),
    }
    argv = [str(vim), "-N", "-u", "NONE", "-i", "NONE", "-es", "-S", str(HARNESS)]
    return be.run_batch("vim-ale", argv, base, repo, env, expected)


def test_harness_finished_every_step(run: be.Run) -> None:
    assert run.result.get("error") is None, run.explain()
    assert not run.result.get("timeouts"), run.explain()
    assert run.returncode == 0, run.explain()
    assert "gemstack" in run.result["ale_linters"]


def test_lsp_config_carries_settings_the_server_reads(run: be.Run) -> None:
    """ALE sends ``lsp_config`` as the ``settings`` of workspace/didChangeConfiguration."""
    (config,) = run.result["lsp_config"]
    assert set(config) == {"gemstack"}
    assert parse_settings(config["gemstack"], source="ALE lsp_config")[1] == []


@pytest.mark.parametrize(("path", "filetype"), [(be.SPEC, "markdown"), (LEDGER, "json")])
def test_ale_shows_the_command_line_findings(run: be.Run, path: str, filetype: str) -> None:
    """The same findings as `gemstack-lsp check`, at the same (1-based) line and column."""
    seen = run.result["files"].get(path)
    assert seen is not None, run.explain()
    assert seen["filetype"] == filetype
    want = sorted(
        (
            f["code"],
            f["range"]["start"]["line"] + 1,
            f["range"]["start"]["character"] + 1,
            SEVERITY[f["severity"]],
            f["message"],
        )
        for f in run.expected
        if f["path"] == path
    )
    assert want, f"gemstack-lsp check found nothing in {path}: nothing to compare"
    got = sorted((d["code"], d["lnum"], d["col"], d["type"], d["text"]) for d in seen["diagnostics"])
    assert got == want, run.explain()


def test_hover_is_plain_text(run: be.Run) -> None:
    """ALE declares plain text only and shows what it gets as is: no Markdown markup."""
    lines = run.result.get("hover_lines") or []
    text = "\n".join(lines)
    assert "capsule-is-derived-not-authority" in text and "BOOLEAN_INVARIANT" in text, run.explain()
    assert "**" not in text and "`" not in text and "](" not in text, text
    assert not re.search(r"^\s*\|", text, re.M), text
