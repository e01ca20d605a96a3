"""Real Neovim (0.12 and 0.7), headless: the plugin's client experience (issue 20).

tests/editors/client_experience.lua runs once per editor on a copy of examples/demo and a
spec-kit repository (specs/ with no Gemstack block) and writes what it saw: the highlight
groups and tree-sitter captures inside a ```gemstack-contracts block and a ```text block,
:checkhealth gemstack, Regenerate's message, and whether a server started in the spec-kit
repository.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.editors import ts_json
from tests.editors.batch_editor import run_harness
from tests.editors.test_nvim import (
    _THIS_TREE,
    DEMO,
    FEATURE,
    PLUGIN,
    RUN_TIMEOUT_S,
    WAIT_TIMEOUT_MS,
    Editor,
    _editor,
    _server,
    _without_tool_folders,
)

pytestmark = pytest.mark.editor

HARNESS = Path(__file__).with_name("client_experience.lua")
SPECKIT_SPEC = """# Feature Specification: Photo albums

## User Scenarios

A user sorts photos into albums by date.

```text
Not a Gemstack block: a spec-kit repository has none.
```
"""


@dataclass(repr=False)
class Client:
    editor: Editor
    result: dict[str, Any]
    stderr: str
    returncode: int
    speckit: Path

    def __repr__(self) -> str:
        return f"Client({self.editor.name}, exit {self.returncode})"

    def explain(self) -> str:
        keep = {k: v for k, v in self.result.items() if k != "health"}
        return f"{self.editor.name} exited {self.returncode}\nstderr: {self.stderr[-2000:]}\n{json.dumps(keep)[:6000]}"


@pytest.fixture(scope="module", params=["nvim-pypi", "nvim-debian"])
def client(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Client:
    editor = _editor(request.param)
    runtime = ts_json.runtime()
    if runtime is None and editor.minimum >= (0, 11):
        pytest.fail(f"no tree-sitter json parser in {ts_json.CACHE}: run `make nvim-deps` (tests.editors.ts_json)")
    base = tmp_path_factory.mktemp(f"client-{editor.name}")
    repo = base / "demo"
    shutil.copytree(DEMO, repo, symlinks=True)
    speckit = base / "speckit"
    (speckit / "specs" / "001-photo-albums").mkdir(parents=True)
    (speckit / "specs" / "001-photo-albums" / "spec.md").write_text(SPECKIT_SPEC, "utf-8")
    out = base / "result.json"
    env = {
        **_without_tool_folders(os.environ, base),
        **_THIS_TREE,
        "GEMSTACK_PLUGIN": str(PLUGIN),
        "GEMSTACK_LSP": str(_server()),
        "GEMSTACK_REPO": str(repo),
        "GEMSTACK_FEATURE": FEATURE,
        "GEMSTACK_SPECKIT": str(speckit),
        "GEMSTACK_RESULT": str(out),
        "GEMSTACK_TIMEOUT_MS": str(WAIT_TIMEOUT_MS),
        "GEMSTACK_TS_RUNTIME": str(runtime) if runtime and editor.minimum >= (0, 11) else "",
    }
    argv = [str(editor.binary), "--headless", "--clean", "-u", str(HARNESS)]
    proc, result = run_harness(editor.name, argv, env, out, base, RUN_TIMEOUT_S)
    return Client(editor, result, proc.stderr, proc.returncode, speckit)


def test_client_harness_finished(client: Client) -> None:
    assert client.result.get("error") is None, client.explain()
    assert client.result["timeouts"] == [], client.explain()
    assert client.returncode == 0, client.explain()


def test_gemstack_blocks_are_json_in_the_regex_syntax(client: Client) -> None:
    """0.7 (and any Neovim without tree-sitter Markdown): a key in a ```gemstack-contracts block
    is in Vim's JSON syntax groups, inside the plugin's region; a ```text block is not."""
    syntax = client.result["syntax"]
    assert syntax["current_syntax"] == "markdown"
    assert "gemstackJsonFence" in syntax["key"], syntax
    assert "jsonKeyword" in syntax["key"], syntax
    assert not any(name.startswith("json") or name.startswith("gemstack") for name in syntax["text"]), syntax


def test_gemstack_blocks_are_json_with_tree_sitter(client: Client) -> None:
    """0.12 with tree-sitter Markdown and a json parser: the injection query makes the block's
    key a json capture; the ```text block gets none."""
    if client.editor.minimum < (0, 11):
        assert client.result.get("treesitter") is None  # 0.7: the regex syntax above is what runs
        return
    ts = client.result["treesitter"]
    assert "json:string.special.key" in ts["key"], ts
    assert not any(c.startswith("json:") for c in ts["text"]), ts


def test_checkhealth_reports_server_python_watching_highlighting_and_capsule(client: Client) -> None:
    text = "\n".join(client.result["health"])
    assert "gemstack-lsp 0." in text, text  # the server's --version
    assert "its Python:" in text and "Python 3." in text, text
    assert "running for this buffer" in text, text
    assert "capsule of specs/009-context-capsule: STALE" in text, text
    assert "watcher" in text, text
    assert "gemstack-* blocks use Vim's JSON syntax" in text, text
    assert "OK Gemstack repository: " in text or "OK: Gemstack repository: " in text, text
    assert "no configuration file" in text, text
    if client.editor.minimum >= (0, 11):
        assert "markdown and json parsers, and the plugin's injection query" in text, text
    assert "ERROR" not in text, text


def test_regenerate_message_fits_the_command_line(client: Client) -> None:
    """Regenerate's message is long: it is shown as one line that fits (no hit-enter prompt,
    not cut inside a word), and :GemstackMessages has the whole text."""
    [shown] = [m for m in client.result["regenerate_messages"] if "Context capsule" in m["message"]]
    assert len(shown["message"]) <= shown["echospace"], shown
    assert "\n" not in shown["message"]
    assert shown["message"].startswith("gemstack: Context capsule written"), shown
    assert shown["message"].endswith("(:GemstackMessages)"), shown
    full = client.result["regenerate_result"]["message"]
    assert full.startswith("Context capsule written: specs/009-context-capsule/context-capsule.json (")
    assert full in [h["message"] for h in client.result["history"]]
    assert all(len(line) <= 76 for line in client.result["messages_lines"])
    assert "context-capsule.json" in " ".join(client.result["messages_lines"])


def test_no_server_in_a_speckit_repository(client: Client) -> None:
    """specs/ without .gemstack/ and without a Gemstack block: no client, no missing-server
    message, no capsule state; once a spec gets a block and is written, the server starts."""
    sk = client.result["speckit"]
    assert sk["filetype"] == "markdown"
    assert sk["attached"] is False, sk
    assert sk["root_of"] is None, sk
    assert sk["statusline"] == ""
    assert client.result["missing_reported"] is False
    assert sk["attached_after_block"] is True, client.explain()
    # Highlighting is the client's own: any Markdown buffer's gemstack block is JSON.
    assert "gemstackJsonFence" in sk["block_syntax"], sk


def test_code_lens_follows_the_statusline_and_comes_before_the_messages(client: Client) -> None:
    """After Regenerate the lens says VALID once the statusline does (the plugin asks for the
    lenses again when the state changes); on a line with a diagnostic the lens is drawn before
    the diagnostic's virtual text, not behind it."""
    lens = client.result["lens"]
    print(f"\n{client.editor.name}: lens VALID {lens['after_status_ms']} ms after the statusline")
    assert client.result["steps"]["lens_valid"]["ok"], client.explain()
    assert lens["row"] is not None, lens
    assert lens["diagnostic"], lens  # the lens's line carries a diagnostic
    assert lens["lens_col"] and lens["diag_col"], lens["screen"]
    assert lens["lens_col"] < lens["diag_col"], lens["screen"]


def test_markdown_only_where_neovim_renders_it(client: Client) -> None:
    """0.7 shows a hover's code spans and table pipes as typed, and omnifunc's info window shows
    completion documentation as it is: the plugin declares plain text there, and the server
    answers in plain text. 0.12 renders Markdown hovers and keeps them."""
    hover = client.result["hover"]
    declared = client.result["declared"]
    assert "zero-dependency-core" in hover["value"], hover
    if client.editor.minimum < (0, 10):
        assert declared["hover"] == ["plaintext"], declared
        assert declared["completion_docs"] == ["plaintext"], declared
        assert hover["kind"] == "plaintext", hover
        assert "**" not in hover["value"] and "`" not in hover["value"], hover["value"]
    else:
        assert hover["kind"] == "markdown", hover
