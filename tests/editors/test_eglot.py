"""Real Emacs (batch) with eglot, set up exactly as docs/editors.md says.

`make other-editors-deps` installs Emacs 28, eglot and markdown-mode from Debian; a missing
one fails here with that target, never skips. tests/editors/harness.el runs once on a copy of
examples/demo with the documented snippet as the init file; the tests read its JSON.
tests/editors/eglot_authoring.el runs once more, on a copy with specs/009 unfrozen, for
completion-at-point, eglot-format-buffer and eglot-rename; those tests compare the files on disk.
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


# --- Authoring: completion, formatting and rename through eglot's own commands ----------------

AUTHORING = Path(__file__).with_name("eglot_authoring.el")
SPEC9 = "specs/009-context-capsule/spec.md"
SPEC10 = "specs/010-release-notes/spec.md"
CAPSULE9 = "specs/009-context-capsule/context-capsule.json"
#: The same names as in eglot_authoring.el.
RENAME_FROM, RENAME_TO = "capsule-offline-deterministic", "capsule-offline-repeatable"


def _tree(repo: Path) -> dict[str, bytes]:
    return {str(p.relative_to(repo)): p.read_bytes() for p in sorted(repo.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def authoring(tmp_path_factory: pytest.TempPathFactory) -> tuple[be.Run, dict[str, bytes]]:
    emacs = be.need("emacs", HOW)
    base = tmp_path_factory.mktemp("eglot-authoring")
    repo = be.demo_copy(base)
    # specs/009 unfrozen, as in test_nvim_authoring.py: its contracts can be renamed.
    state_path = repo / ".gemstack" / "state.json"
    state = json.loads(state_path.read_text("utf-8"))
    state["completed_phases"], state["phase_hashes"] = [], {}
    state_path.write_text(json.dumps(state, indent=2) + "\n", "utf-8")
    before = _tree(repo)
    init = base / "init.el"
    init.write_text(snippet("### Emacs (eglot)", "elisp"), "utf-8")
    run = be.run_batch(
        "emacs-eglot-authoring",
        [str(emacs), "--batch", "-Q", "-l", str(AUTHORING)],
        base,
        repo,
        {"GEMSTACK_SNIPPET": str(init)},
        [],
    )
    return run, before


def test_authoring_harness_finished(authoring: tuple[be.Run, dict[str, bytes]]) -> None:
    run, _ = authoring
    assert run.result.get("error") is None, run.explain()
    assert not run.result.get("timeouts"), run.explain()
    assert run.returncode == 0, run.explain()
    assert be.quiet_log(run.result["server_stderr"]) == [], run.result["server_stderr"]


def test_completion_at_point_offers_the_contract_types(authoring: tuple[be.Run, dict[str, bytes]]) -> None:
    run, _ = authoring
    offered, unique = run.result["completion"]
    # After `"type": "`: the contract types of the schema, nothing else.
    schema = json.loads((be.ROOT / "gemstack_lsp" / "schemas" / "gemstack-contracts.schema.json").read_text("utf-8"))
    types = _enum_of(schema, "type")
    assert types and sorted(offered["candidates"]) == sorted(types), offered
    assert offered["result"] == offered["typed"]  # several candidates: nothing inserted
    # After `"IDEN`: one candidate, completed in place.
    assert unique["candidates"] == ["IDENTITY_TUPLE"], unique
    assert unique["result"] == '  {"id": "x", "type": "IDENTITY_TUPLE"', unique
    assert run.result["restored"] is True


def _enum_of(schema: object, key: str) -> list[str]:
    """The enum of the first property named ``key`` anywhere in ``schema``."""
    if isinstance(schema, dict):
        props = schema.get("properties")
        if isinstance(props, dict) and isinstance(props.get(key), dict) and "enum" in props[key]:
            return list(props[key]["enum"])
        for value in schema.values():
            found = _enum_of(value, key)
            if found:
                return found
    if isinstance(schema, list):
        for value in schema:
            found = _enum_of(value, key)
            if found:
                return found
    return []


def _stringify_blocks(text: str) -> str:
    """Every ```gemstack-* block's JSON laid out as JSON.stringify(value, null, 2) does."""

    def layout(m: re.Match[str]) -> str:
        return m.group(1) + json.dumps(json.loads(m.group(2)), indent=2, ensure_ascii=False) + m.group(3)

    return re.sub(r"(```gemstack-[a-z-]+\n)(.*?)(\n```)", layout, text, flags=re.S)


def test_format_buffer_lays_out_the_squeezed_block(authoring: tuple[be.Run, dict[str, bytes]]) -> None:
    run, before = authoring
    assert '```gemstack-capabilities\n[ { "provider_id": "gemini-cloud"' in run.result["squeezed"]
    want = _stringify_blocks(before[SPEC10].decode("utf-8"))
    assert want != before[SPEC10].decode("utf-8"), "the demo's 010 blocks are already laid out"
    assert run.result["formatted"] == want
    assert (run.repo / SPEC10).read_text("utf-8") == want


def test_rename_changes_every_mention_on_disk(authoring: tuple[be.Run, dict[str, bytes]]) -> None:
    """eglot-rename asked for the new name, then (the files it edits not all open) whether to
    proceed; every file that mentions the id changed on disk, the derived capsule did not, and
    nothing else changed but 010's formatting."""
    run, before = authoring
    renamed = [SPEC9, "specs/009-context-capsule/plan.md", "specs/009-context-capsule/tasks.md"]
    assert run.result["rename_modified"] == sorted(renamed), run.explain()
    prompts = run.result["prompts"]
    assert any(p.startswith("Rename `") for p in prompts), prompts
    assert RENAME_FROM.encode() in before[CAPSULE9]
    expected = dict(before)
    for rel in renamed:
        text = before[rel].decode("utf-8")
        assert RENAME_FROM in text, rel
        expected[rel] = text.replace(RENAME_FROM, RENAME_TO).encode("utf-8")
    expected[SPEC10] = _stringify_blocks(before[SPEC10].decode("utf-8")).encode("utf-8")
    now = _tree(run.repo)
    changed = sorted(rel for rel in set(now) | set(expected) if now.get(rel) != expected.get(rel))
    assert changed == [], (changed, run.explain())
