"""The authoring features of the .vsix in real VS Code (code-server) in headless Chromium:
inlay hints on screen, Format Document, rename with F2 (every file it changes saved), and a
rename of a frozen contract held in the Refactor Preview (VS Code confirms change annotations).

Slow like test_code_server.py (marked `slow`); set up by `make code-server-deps` and `make vsix`.
The demo copy has specs/009's phase hashes removed from state.json, so its contracts can be
renamed; specs/008 stays frozen. Expectations are computed here from the files: a rename is
the plain replacement of the id, formatting is ``JSON.stringify(value, null, 2)`` of each block.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from tests.editors.code_server.harness import VSIX, SetupError, code_server, drive
from tests.editors.test_nvim_authoring import (
    CAPSULE9,
    FROZEN_FROM,
    FROZEN_TO,
    RENAME_FROM,
    RENAME_TO,
    SPEC8,
    SPEC9,
    SPEC10,
    _stringify_blocks,
)

pytestmark = [pytest.mark.slow, pytest.mark.editor]

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "demo"
PLAN9 = "specs/009-context-capsule/plan.md"
TASKS9 = "specs/009-context-capsule/tasks.md"
PLAN8 = "specs/008-cost-provider-safety-gates/plan.md"


def _line_col(text: str, needle: str) -> tuple[int, int]:
    """1-based line, and the drive.js column (moves right from the first non-blank) that puts
    the cursor three characters into ``needle``."""
    for number, line in enumerate(text.split("\n"), 1):
        at = line.find(needle)
        if at >= 0:
            first = len(line) - len(line.lstrip())
            return number, at - first + 4
    raise AssertionError(needle)


def _squeeze_capabilities(text: str) -> str:
    """010's ```gemstack-capabilities block with its JSON on one line."""
    head, rest = text.split("```gemstack-capabilities\n", 1)
    body, tail = rest.split("\n```", 1)
    return head + "```gemstack-capabilities\n" + json.dumps(json.loads(body)) + "\n```" + tail


def test_inlay_hints_format_and_rename_in_vscode(tmp_path: Path) -> None:
    if not VSIX.exists():
        pytest.fail(f"{VSIX} is missing: build it with `make vsix`")
    server = shutil.which("gemstack-lsp", path=str(Path(sys.executable).parent))
    assert server, "gemstack-lsp is not installed in the venv"
    repo = tmp_path / "demo"
    shutil.copytree(DEMO, repo, symlinks=True)
    state_path = repo / ".gemstack" / "state.json"
    state = json.loads(state_path.read_text("utf-8"))
    state["completed_phases"], state["phase_hashes"] = [], {}
    state_path.write_text(json.dumps(state, indent=2) + "\n", "utf-8")
    original10 = (repo / SPEC10).read_text("utf-8")
    (repo / SPEC10).write_text(_squeeze_capabilities(original10), "utf-8")
    before = {rel: (repo / rel).read_text("utf-8") for rel in (SPEC8, PLAN8, SPEC9, PLAN9, TASKS9, CAPSULE9)}
    formatted10 = _stringify_blocks(original10)
    assert formatted10 != (repo / SPEC10).read_text("utf-8")

    hint_line, hint_col = _line_col(before[SPEC8], f'"{FROZEN_FROM}"')
    rename_line, rename_col = _line_col(before[SPEC9], f'"{RENAME_FROM}"')
    actions = [
        # Inlay hints: VS Code shows them by default, as injected text (elements of a generated
        # `dyn-rule-*` class, no `inlay` class in code-server 4.100); `frozen · spec` after a
        # frozen contract id.
        {"open": SPEC8, "line": hint_line, "column": hint_col},
        {"name": "inlay", "select": '.view-lines [class*="dyn-rule"]', "expect": "frozen"},
        # Format Document on the squeezed block, then saved (Ctrl+S again until the disk has it).
        {"open": SPEC10, "line": 1},
        {"command": "Format Document"},
        # Format again with the save while the disk does not have it (the first may reach the
        # editor before the server knows the document, on a loaded machine).
        {
            "name": "formatted",
            "file": SPEC10,
            "contains": '"provider_id": "gemini-cloud",\n',
            "press": ["Control+S", ">Format Document", "Control+S"],
        },
        # Rename with F2 on a contract id of 009: the name typed in the rename box, Enter, then
        # File: Save All (Ctrl+K S) until every file it changed is on disk.
        {"open": SPEC9, "line": rename_line, "column": rename_col},
        {"keys": ["F2"], "until": ".rename-box input, .rename-input"},
        {"keys": ["Control+A"]},
        {"type": RENAME_TO},
        {"keys": ["Enter"]},
        {"name": "renamed spec", "file": SPEC9, "contains": RENAME_TO, "press": ["Control+K", "s"]},
        {"name": "renamed plan", "file": PLAN9, "contains": RENAME_TO, "press": ["Control+K", "s"]},
        {"name": "renamed tasks", "file": TASKS9, "contains": RENAME_TO, "press": ["Control+K", "s"]},
        # F2 on a frozen 008 contract: the edit comes with change annotations that need
        # confirmation, so VS Code holds it in the Refactor Preview instead of applying it.
        {"open": SPEC8, "line": hint_line, "column": hint_col},
        {"keys": ["F2"], "until": ".rename-box input, .rename-input"},
        {"keys": ["Control+A"]},
        {"type": FROZEN_TO},
        {"keys": ["Enter"]},
        {"name": "preview", "select": ".part.panel .monaco-list-row", "expect": f'"id": "{FROZEN_FROM}{FROZEN_TO}"'},
        {"name": "held", "file": SPEC8, "contains": FROZEN_FROM},
    ]
    try:
        with code_server(tmp_path / "cs", Path(server)) as url:
            result = drive(
                url,
                repo,
                tmp_path / "result.json",
                {"GEMSTACK_EXPECTED": json.dumps({"codes": []}), "GEMSTACK_ACTIONS": json.dumps(actions)},
            )
    except SetupError as exc:
        pytest.fail(str(exc))
    print(f"\ncode-server authoring: steps (ms) {result.get('steps')}, total {result.get('total_ms')} ms")
    assert result.get("ok"), (result.get("error"), result.get("notifications_at_error"), result.get("actions"))

    # Drawn with no-break spaces, one element per hint on screen.
    hints = result["actions"]["inlay"].replace("\xa0", " ")
    assert "frozen · spec" in hints.split("\n"), hints

    assert (repo / SPEC10).read_text("utf-8") == formatted10

    for rel in (SPEC9, PLAN9, TASKS9):
        assert (repo / rel).read_text("utf-8") == before[rel].replace(RENAME_FROM, RENAME_TO), rel
    # The derived capsule, which names the contract too, is not edited.
    assert RENAME_FROM in before[CAPSULE9]
    assert (repo / CAPSULE9).read_text("utf-8") == before[CAPSULE9]
    # The frozen rename waits in the Refactor Preview for the user's confirmation: both frozen
    # files listed with the change, nothing written (the `held` step read the old id on disk).
    preview = result["actions"]["preview"]
    assert "spec.mdspecs/008-cost-provider-safety-gates" in preview and "plan.mdspecs/008" in preview, preview
    for rel in (SPEC8, PLAN8):
        assert (repo / rel).read_text("utf-8") == before[rel], rel
