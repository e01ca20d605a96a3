"""The authoring features of the .vsix in real VS Code (code-server) in headless Chromium, one
editor session driven as a user would: inlay hints on screen, semantic tokens (Developer:
Inspect Editor Tokens and Scopes), completion (Ctrl+Space, Enter), Format Selection and Format
Document, document highlight (the decorations, and Go to Next Symbol Highlight through every
mention), selection ranges (Expand Selection), folding (Fold, on a JSON object of a block and
on the block), rename with F2 (every file it changes saved), and a rename of a frozen contract
held in the Refactor Preview (VS Code confirms change annotations).

Slow like test_code_server.py (marked `slow`); set up by `make code-server-deps` and `make vsix`.
The demo copy has specs/009's phase hashes removed from state.json, so its contracts can be
renamed; specs/008 stays frozen. Expectations are computed here from the files: a rename is
the plain replacement of the id, formatting is ``JSON.stringify(value, null, 2)`` of each block,
the selection chain is test_nvim_authoring's (the server's ranges, which VS Code merges with its
own word and line ranges and the Markdown extension's).
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.editors.code_server.harness import VSIX, SetupError, code_server, drive
from tests.editors.test_nvim_authoring import (
    CAPSULE9,
    FROZEN_FROM,
    FROZEN_TO,
    HIGHLIGHT_ID,
    RENAME_FROM,
    RENAME_TO,
    SELECT_ID,
    SPEC8,
    SPEC9,
    SPEC10,
    _expected_selection_chain,
    _occurrences,
    _stringify_blocks,
)

pytestmark = [pytest.mark.slow, pytest.mark.editor]

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "demo"
PLAN9 = "specs/009-context-capsule/plan.md"
TASKS9 = "specs/009-context-capsule/tasks.md"
PLAN8 = "specs/008-cost-provider-safety-gates/plan.md"
#: A draft feature of the demo copy whose contract's type is left empty, for completion.
SPEC11 = "specs/011-typed-in-vscode/spec.md"
TYPED_ID = "typed-in-vscode"
DRAFT11 = f"""# Feature Specification: Typed in VS Code

## 1. Contracts

```gemstack-contracts
[
  {{"id": "{TYPED_ID}", "type": "", "statement": "A contract whose type is completed in VS Code."}}
]
```
"""
#: Typed in the empty type's quotes, then Ctrl+Space: the item picked.
TYPED_PREFIX, COMPLETED = "IDEN", "IDENTITY_TUPLE"
SELECTION = '[id="status.editor.selection"]'
#: The rename box, shown and focused (so the keys that follow go into it).
RENAME_BOX = ".rename-box input:focus, .rename-box .rename-input:focus"
#: The active editor's word-highlight decorations by kind (VS Code's classes for
#: DocumentHighlightKind Write, Read and Text), on the lines on screen.
HIGHLIGHTS = """(() => {
  const ed = document.querySelector('.editor-group-container.active .monaco-editor');
  const n = (c) => ed ? ed.querySelectorAll('.view-overlays .' + c).length : -1;
  return `strong=${n('wordHighlightStrong')} read=${n('wordHighlight')} text=${n('wordHighlightText')}`;
})()"""
#: The active editor's folded regions (margin glyphs) and the text of its lines on screen, in order.
FOLDS = """(() => {
  const ed = document.querySelector('.editor-group-container.active .monaco-editor');
  if (!ed) return '{}';
  const folded = ed.querySelectorAll('.margin-view-overlays .codicon-folding-collapsed').length;
  const lines = [...ed.querySelectorAll('.view-lines .view-line')]
    .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
    .map((e) => e.textContent.replace(/\\u00a0/g, ' '));
  return JSON.stringify({ folded, lines });
})()"""


def _line_col(text: str, needle: str) -> tuple[int, int]:
    """1-based line, and the drive.js column (moves right from the first non-blank) that puts
    the cursor three characters into ``needle``."""
    for number, line in enumerate(text.split("\n"), 1):
        at = line.find(needle)
        if at >= 0:
            first = len(line) - len(line.lstrip())
            return number, at - first + 4
    raise AssertionError(needle)


def _squeeze(text: str, kind: str) -> str:
    """The ```gemstack-<kind> block's JSON on one line."""
    head, rest = text.split(f"```gemstack-{kind}\n", 1)
    body, tail = rest.split("\n```", 1)
    return head + f"```gemstack-{kind}\n" + json.dumps(json.loads(body)) + "\n```" + tail


def _status(text: str) -> tuple[int, int, int]:
    """(line, column, characters selected) of the status bar's "Ln 12, Col 5 (3 selected)"."""
    m = re.search(r"Ln (\d+), Col (\d+)(?: \((\d+) selected\))?", text)
    assert m, text
    return int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)


def _selected_spans(text: str, statuses: list[str]) -> list[tuple[int, int]]:
    """The (start, end) offsets each status shows selected: smart select puts the cursor at
    the selection's end, and the status counts the characters selected (a newline is one)."""
    starts = [0]
    for line in text.split("\n")[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    spans = []
    for status in statuses:
        line, col, selected = _status(status)
        end = starts[line - 1] + col - 1
        spans.append((end - selected, end))
    return spans


def _offset(text: str, position: dict[str, int]) -> int:
    lines = text.split("\n")
    return sum(len(x) + 1 for x in lines[: position["line"]]) + position["character"]


def _in_order(wanted: list[Any], seen: list[Any]) -> bool:
    """Every item of ``wanted`` appears in ``seen``, in the same order (others may come between)."""
    rest = iter(seen)
    return all(any(w == s for s in rest) for w in wanted)


def test_authoring_features_in_vscode(tmp_path: Path) -> None:
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
    (repo / SPEC11).parent.mkdir(parents=True)
    (repo / SPEC11).write_text(DRAFT11, "utf-8")
    # Both 010 blocks squeezed onto one line: Format Selection lays out the selected one only,
    # then Format Document the other.
    original10 = (repo / SPEC10).read_text("utf-8")
    squeezed10 = _squeeze(_squeeze(original10, "capabilities"), "billable-actions")
    (repo / SPEC10).write_text(squeezed10, "utf-8")
    before = {rel: (repo / rel).read_text("utf-8") for rel in (SPEC8, PLAN8, SPEC9, PLAN9, TASKS9, CAPSULE9)}
    formatted10 = _stringify_blocks(original10)
    assert formatted10 != squeezed10
    range_formatted10 = _stringify_blocks(squeezed10, kind="billable-actions")
    assert squeezed10 != range_formatted10 != formatted10
    lines10 = squeezed10.split("\n")
    billable_line = lines10.index("```gemstack-billable-actions") + 2

    hint_line, hint_col = _line_col(before[SPEC8], f'"{FROZEN_FROM}"')
    typed_line, typed_col = _line_col(DRAFT11, '"type": ""')
    typed_col += len('"type": "') - 3  # between the quotes
    highlight_line, highlight_col = _line_col(before[SPEC9], f'"{HIGHLIGHT_ID}"')
    select_line, select_col = _line_col(before[SPEC9], f'"{SELECT_ID}"')
    rename_line, rename_col = _line_col(before[SPEC9], f'"{RENAME_FROM}"')
    lines9 = before[SPEC9].split("\n")
    object_line = highlight_line - 1  # the "  {" of the first contract
    fence_line = max(r for r in range(object_line) if lines9[r].startswith("```gemstack-")) + 1
    assert lines9[object_line - 1] == "  {" and lines9[fence_line - 1] == "```gemstack-contracts"
    chain = _expected_selection_chain(before[SPEC9], select_line - 1, 0, utf8=False)
    block_span = chain[5]  # id, string, member, object, array, block
    block_end = block_span["end"]
    block_chars = _offset(before[SPEC9], block_end) - _offset(before[SPEC9], block_span["start"])
    block_status = f"Ln {block_end['line'] + 1}, Col {block_end['character'] + 1} ({block_chars} selected)"

    actions = [
        # Inlay hints: VS Code shows them by default, as injected text (elements of a generated
        # `dyn-rule-*` class, no `inlay` class in code-server 4.100); `frozen · spec` after a
        # frozen contract id.
        {"open": SPEC8, "line": hint_line, "column": hint_col},
        {"name": "inlay", "select": '.view-lines [class*="dyn-rule"]', "expect": "frozen"},
        # Semantic tokens, on the same id: what Developer: Inspect Editor Tokens and Scopes shows.
        {"command": "Developer: Inspect Editor Tokens and Scopes"},
        {"name": "semantic", "select": ".token-inspect-widget", "expect": "semantic token type"},
        {"keys": ["Escape"]},
        # Completion: the type's prefix typed between the empty quotes, Ctrl+Space (Trigger
        # Suggest) until the server's item is the focused one, Enter; then saved.
        {"open": SPEC11, "line": typed_line, "column": typed_col},
        {"type": TYPED_PREFIX},
        {
            "keys": ["Control+Space"],
            "until": f'.suggest-widget .monaco-list-row.focused[aria-label*="{COMPLETED}"]',
        },
        {"name": "suggested", "select": ".suggest-widget .monaco-list-row", "expect": COMPLETED},
        {"keys": ["Enter"]},
        {"name": "completed", "file": SPEC11, "contains": f'"{COMPLETED}"', "press": ["Control+S"]},
        # Format Selection on the squeezed billable-actions line (Expand Line Selection: the
        # whole line, which Markdown wraps on screen), then saved; again while the disk does not
        # have it (a loaded machine).
        {"open": SPEC10, "line": billable_line},
        {"keys": ["Control+L"]},
        {"command": "Format Selection"},
        {
            "name": "range formatted",
            "file": SPEC10,
            "contains": '"id": "summarize-findings",\n',
            "press": [f":{billable_line}", "Control+L", ">Format Selection", "Control+S"],
        },
        # Format Document on the other squeezed block, then saved (Ctrl+S again until the disk
        # has it; format again with the save while it does not).
        {"command": "Format Document"},
        {
            "name": "formatted",
            "file": SPEC10,
            "contains": '"provider_id": "gemini-cloud",\n',
            "press": ["Control+S", ">Format Document", "Control+S"],
        },
        # Document highlight: the cursor on a contract id's declaration; its decorations on
        # screen, then Go to Next Symbol Highlight (F7) through every mention and back.
        {"open": SPEC9, "line": highlight_line, "column": highlight_col},
        {"name": "highlight here", "probe": HIGHLIGHTS, "expect": "strong=1"},
        {"name": "highlight 1", "repeat": "F7", "watch": SELECTION, "times": 1},
        {"name": "highlight 1 kinds", "probe": HIGHLIGHTS, "expect": "read=1"},
        {"name": "highlight 2", "repeat": "F7", "watch": SELECTION, "times": 1},
        {"name": "highlight 2 kinds", "probe": HIGHLIGHTS, "expect": "read=1"},
        {"name": "highlight 3", "repeat": "F7", "watch": SELECTION, "times": 1},
        # Selection ranges (009's spec.md still open, as for the steps below): Expand Selection
        # (Shift+Alt+Right) from inside a contract id until the whole fenced block is selected.
        {"goto": True, "line": select_line, "column": select_col},
        {"name": "selection", "repeat": "Shift+Alt+ArrowRight", "watch": SELECTION, "times": 24, "stop": block_status},
        # Folding: Fold (Ctrl+Shift+[) on a contract's "{" (a range only the server gives:
        # Markdown knows no JSON), Unfold All (Ctrl+K Ctrl+J); then the same on the block's fence.
        {"goto": True, "line": object_line},
        {"keys": ["Control+Shift+BracketLeft"], "until": ".editor-group-container.active .codicon-folding-collapsed"},
        {"name": "folded object", "probe": FOLDS, "expect": '"folded":1'},
        {"keys": ["Control+K", "Control+J"]},
        {"name": "unfolded object", "probe": FOLDS, "expect": '"folded":0'},
        {"goto": True, "line": fence_line},
        {"keys": ["Control+Shift+BracketLeft"], "until": ".editor-group-container.active .codicon-folding-collapsed"},
        {"name": "folded block", "probe": FOLDS, "expect": '"folded":1'},
        {"keys": ["Control+K", "Control+J"]},
        {"name": "unfolded", "probe": FOLDS, "expect": '"folded":0'},
        # Rename with F2 on a contract id of 009: the name typed in the rename box, Enter, then
        # File: Save All (Ctrl+K S) until every file it changed is on disk.
        {"goto": True, "line": rename_line, "column": rename_col},
        {"keys": ["F2"], "until": RENAME_BOX},
        {"keys": ["Control+A"]},
        {"type": RENAME_TO},
        {"keys": ["Enter"]},
        {"name": "renamed spec", "file": SPEC9, "contains": RENAME_TO, "press": ["Control+K", "s"]},
        {"name": "renamed plan", "file": PLAN9, "contains": RENAME_TO, "press": ["Control+K", "s"]},
        {"name": "renamed tasks", "file": TASKS9, "contains": RENAME_TO, "press": ["Control+K", "s"]},
        # F2 on a frozen 008 contract: the edit comes with change annotations that need
        # confirmation, so VS Code holds it in the Refactor Preview instead of applying it.
        {"open": SPEC8, "line": hint_line, "column": hint_col},
        {"keys": ["F2"], "until": RENAME_BOX},
        {"keys": ["Control+A"]},
        {"type": FROZEN_TO},
        {"keys": ["Enter"]},
        {"name": "preview", "select": ".part.panel .monaco-list-row", "expect": f'"id": "{FROZEN_FROM}{FROZEN_TO}"'},
        {"name": "held", "file": SPEC8, "contains": FROZEN_FROM},
    ]
    try:
        with code_server(
            tmp_path / "cs", Path(server), extra_settings={"editor.semanticHighlighting.enabled": True}
        ) as url:
            result = drive(
                url,
                repo,
                tmp_path / "result.json",
                {"GEMSTACK_EXPECTED": json.dumps({"codes": []}), "GEMSTACK_ACTIONS": json.dumps(actions)},
            )
    except SetupError as exc:
        pytest.fail(str(exc))
    print(f"\ncode-server authoring: steps (ms) {result.get('steps')}, total {result.get('total_ms')} ms")
    assert result.get("ok"), (
        result.get("error"),
        result.get("notifications_at_error"),
        result.get("editor_messages_at_error"),
        result.get("status_at_error"),
        result.get("actions"),
    )
    done = result["actions"]

    # Inlay hints: drawn with no-break spaces, one element per hint on screen.
    hints = done["inlay"].replace("\xa0", " ")
    assert "frozen · spec" in hints.split("\n"), hints

    # Semantic tokens: the declared id of a frozen contract is the server's `variable` with the
    # `declaration` and `readonly` modifiers (as in Neovim), coloured by the theme.
    semantic = done["semantic"]
    assert re.search(r"semantic token type\s*variable", semantic), semantic
    assert re.search(r"modifiers\s*declaration readonly", semantic), semantic

    # Completion: the server's contract type is offered and inserted inside the quotes, the
    # typed prefix replaced, nothing else on the line touched.
    # The item as the server describes it (its detail), not a word VS Code found in the file.
    assert f"{COMPLETED}Contract type" in done["suggested"].split("\n"), done["suggested"]
    assert (repo / SPEC11).read_text("utf-8") == DRAFT11.replace('"type": ""', f'"type": "{COMPLETED}"')

    # Format Selection laid out the selected block only; Format Document then the rest.
    assert done["range formatted"] == range_formatted10
    assert (repo / SPEC10).read_text("utf-8") == formatted10

    # Document highlight: the declaration is a write, the mentions reads (on screen at each);
    # F7 visits every mention (test_nvim_authoring's three) and comes back to the declaration.
    assert done["highlight here"] == "strong=1 read=0 text=0", done["highlight here"]  # the others off screen
    assert done["highlight 1 kinds"] == done["highlight 2 kinds"] == "strong=0 read=1 text=0", done
    mentions = _occurrences(before[SPEC9], HIGHLIGHT_ID)
    assert len(mentions) == 3 and mentions[0][0] == highlight_line - 1, mentions
    visited = [_status(done[f"highlight {i}"][0])[:2] for i in (1, 2, 3)]
    assert visited == [(row + 1, col + 1) for row, col, _ in mentions[1:] + mentions[:1]], visited

    # Selection ranges: the server's chain from the id out to the block (id, string, member,
    # object, array, block) is among the ranges Expand Selection went through, in that order.
    seen = _selected_spans(before[SPEC9], done["selection"])
    ours = [(_offset(before[SPEC9], r["start"]), _offset(before[SPEC9], r["end"])) for r in chain[:6]]
    assert _in_order(ours, seen), (ours, seen)
    assert seen[-1] == ours[-1]

    # Folding: the contract's object folded onto its "{" line (its id's line hidden, the next
    # contract shown), then the whole block onto its fence; Unfold All shows them again.
    folded = json.loads(done["folded object"])["lines"]
    assert f'    "id": "{HIGHLIGHT_ID}",' not in folded and f'    "id": "{SELECT_ID}",' in folded, folded
    assert f'    "id": "{HIGHLIGHT_ID}",' in json.loads(done["unfolded object"])["lines"]
    block = json.loads(done["folded block"])["lines"]
    assert (
        any(line.startswith("```gemstack-contracts") for line in block) and f'    "id": "{SELECT_ID}",' not in block
    ), block
    assert "## 5. Canonical Terminology" in block, block

    # Rename: every mention in 009's documents, not the derived capsule (which names it too).
    for rel in (SPEC9, PLAN9, TASKS9):
        assert (repo / rel).read_text("utf-8") == before[rel].replace(RENAME_FROM, RENAME_TO), rel
    assert RENAME_FROM in before[CAPSULE9]
    assert (repo / CAPSULE9).read_text("utf-8") == before[CAPSULE9]
    # The frozen rename waits in the Refactor Preview for the user's confirmation: both frozen
    # files listed with the change, nothing written (the `held` step read the old id on disk).
    preview = done["preview"]
    assert "spec.mdspecs/008-cost-provider-safety-gates" in preview and "plan.mdspecs/008" in preview, preview
    for rel in (SPEC8, PLAN8):
        assert (repo / rel).read_text("utf-8") == before[rel], rel
