"""Real Emacs (batch) with eglot, set up exactly as docs/editors.md says.

`make other-editors-deps` installs Emacs 28, eglot and markdown-mode from Debian; a missing
one fails here with that target, never skips. tests/editors/harness.el runs once on a copy of
examples/demo with the documented snippet as the init file; the tests read its JSON.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gemstack_lsp.server.settings import parse_settings
from tests.editors import batch_editor as be
from tests.editors.doc_snippets import snippet

pytestmark = pytest.mark.editor

HARNESS = Path(__file__).with_name("harness.el")
HOW = "`make other-editors-deps` as root (apt-get install emacs-nox elpa-eglot elpa-markdown-mode)"


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> be.Run:
    emacs = be.need("emacs", HOW)
    base = tmp_path_factory.mktemp("eglot")
    repo = be.demo_copy(base)
    expected = [f for f in be.findings(repo) if f["path"] == be.SPEC]
    init = base / "init.el"
    init.write_text(snippet("### Emacs (eglot)", "elisp"), "utf-8")
    env = {
        "GEMSTACK_SNIPPET": str(init),
        "GEMSTACK_EXPECTED": json.dumps(sorted({f["code"] for f in expected})),
    }
    return be.run_batch("emacs-eglot", [str(emacs), "--batch", "-Q", "-l", str(HARNESS)], base, repo, env, expected)


def test_harness_finished_every_step(run: be.Run) -> None:
    assert run.result.get("error") is None, run.explain()
    assert not run.result.get("timeouts"), run.explain()
    assert run.returncode == 0, run.explain()
    assert run.result["major_mode"] == "markdown-mode"
    assert run.result["server_info"]["name"] == "gemstack-lsp"


def test_workspace_configuration_reaches_the_server_section(run: be.Run) -> None:
    assert run.result["workspace_configuration"] == {
        "gemstack": {"environment": "development", "maxLedgerAgeDays": 90}
    }, run.explain()
    assert parse_settings(run.result["workspace_configuration"]["gemstack"], source="eglot")[1] == []


def test_flymake_shows_the_command_line_findings(run: be.Run) -> None:
    assert run.expected, f"gemstack-lsp check found nothing in {be.SPEC}: nothing to compare"
    want = sorted(
        (f["code"], f["range"]["start"]["line"], f["range"]["start"]["character"], f"eglot-{f['severity']}")
        for f in run.expected
    )
    got = sorted((d["code"], d["line"], d["column"], d["type"]) for d in run.result["diagnostics"])
    assert got == want, run.explain()
    assert all(d["text"].startswith(f"gemstack [{d['code']}]: ") for d in run.result["diagnostics"])


def test_hover_is_markdown_because_eglot_renders_it(run: be.Run) -> None:
    """Eglot declares Markdown when markdown-mode is installed (it renders hovers with
    gfm-view-mode); then the server answers in Markdown."""
    assert "markdown" in run.result["hover_formats"], run.result["hover_formats"]
    assert run.result["hover_kind"] == "markdown"
    assert "capsule-is-derived-not-authority" in run.result["hover_rendered"]
    assert "BOOLEAN_INVARIANT" in run.result["hover_rendered"]


def test_each_capsule_action_is_listed_once(run: be.Run) -> None:
    titles = [a["title"] for a in run.result["actions"]]
    assert len(titles) == len(set(titles)), titles
    commands = [a["command"] for a in run.result["actions"]]
    assert commands.count("gemstack.regenerateCapsule") == 1, run.result["actions"]
    assert commands.count("gemstack.verifyCapsule") == 1, run.result["actions"]


def test_regenerate_clears_the_stale_capsule_and_says_what_it_wrote(run: be.Run) -> None:
    assert "CONTEXT_CAPSULE_STALE" in {f["code"] for f in run.expected}, "the demo should ship a stale capsule"
    after = {d["code"] for d in run.result["after_regenerate"]}
    assert "CONTEXT_CAPSULE_STALE" not in after, run.explain()
    assert f"Context capsule written: {be.FEATURE}/context-capsule.json" in run.result["messages"], run.explain()
    on_disk = {f["code"] for f in be.findings(run.repo) if f["path"].startswith(be.FEATURE)}
    assert "CONTEXT_CAPSULE_STALE" not in on_disk


def test_the_server_logs_nothing_alarming(run: be.Run) -> None:
    assert be.quiet_log(run.result["server_stderr"]) == [], run.result["server_stderr"]
