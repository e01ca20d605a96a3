"""The authoring features end to end in real Neovim: rename (and the frozen-contract refusal and
:GemstackRenameFrozen), formatting and range formatting, document highlight, folding ranges,
selection ranges, inlay hints and semantic tokens, driven through Neovim's own LSP client by
tests/editors/authoring.lua.

Two Neovims, as in test_nvim.py: the PyPI build (0.12-dev, UTF-8) and Debian's 0.7 (UTF-16),
which has rename, formatting, range formatting (of a Visual selection), document highlight and
the folding and selection-range requests but no semantic tokens, inlay hints, LSP folds or
vim.lsp.buf.selection_range: there the test checks they are absent and nothing raised.

The demo copy has specs/009's phase hashes removed from state.json, so its contracts can be
renamed; specs/008 stays frozen (the last completed feature). Every expectation is computed here
from the files, independently of the server: a rename is the plain replacement of the id in
the files that mention it, formatting is ``JSON.stringify(value, null, 2)`` of every block.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.editors.authoring_common import (
    CAPSULE9,
    FROZEN_FROM,
    FROZEN_TO,
    HIGHLIGHT_ID,
    PLAN8,
    RENAME_FROM,
    RENAME_TO,
    SPEC8,
    SPEC9,
    SPEC10,
    unfreeze_009,
    whole_id,
)
from tests.editors.authoring_common import stringify_blocks as _stringify_blocks
from tests.editors.batch_editor import run_harness
from tests.editors.test_nvim import _THIS_TREE, DEMO, PLUGIN, Editor, _editor, _server, _version

pytestmark = pytest.mark.editor

HARNESS = Path(__file__).with_name("authoring.lua")
RUN_TIMEOUT_S = 180
WAIT_TIMEOUT_MS = 20_000

#: The same name as in authoring.lua (the others are in authoring_common.py).
SELECT_ID = "capsule-is-derived-not-authority"
ERROR = 4  # vim.log.levels.ERROR


@dataclass(repr=False)
class Session:
    editor: Editor
    repo: Path
    before: dict[str, bytes]
    returncode: int
    stderr: str
    result: dict[str, Any]

    def __repr__(self) -> str:
        return f"Session({self.editor.name}, exit {self.returncode})"

    def explain(self) -> str:
        keep = {k: v for k, v in self.result.items() if k in ("steps", "timeouts", "error", "messages")}
        return f"{self.editor.name} exited {self.returncode}\nstderr: {self.stderr[-2000:]}\n{json.dumps(keep)[:4000]}"

    def text_before(self, rel: str) -> str:
        return self.before[rel].decode("utf-8")

    def text_now(self, rel: str) -> str:
        return (self.repo / rel).read_text("utf-8")


def _tree(repo: Path) -> dict[str, bytes]:
    return {str(p.relative_to(repo)): p.read_bytes() for p in sorted(repo.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module", params=["nvim-pypi", "nvim-debian"])
def session(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Session:
    editor = _editor(request.param)
    version = _version(editor.binary)
    if version < editor.minimum:
        pytest.fail(f"{editor.name}: {editor.binary} is {version}, need {editor.minimum}+; {editor.how_to_install}")
    base = tmp_path_factory.mktemp(f"authoring-{editor.name}")
    repo = base / "demo"
    shutil.copytree(DEMO, repo, symlinks=True)
    unfreeze_009(repo)
    before = _tree(repo)
    out = base / "result.json"
    env = {
        **os.environ,
        **_THIS_TREE,
        "GEMSTACK_PLUGIN": str(PLUGIN),
        "GEMSTACK_LSP": str(_server()),
        "GEMSTACK_REPO": str(repo),
        "GEMSTACK_RESULT": str(out),
        "GEMSTACK_TIMEOUT_MS": str(WAIT_TIMEOUT_MS),
    }
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[var] = str(base / var.lower())
    argv = [str(editor.binary), "--headless", "--clean", "-u", str(HARNESS)]
    proc, result = run_harness(editor.name, argv, env, out, base, RUN_TIMEOUT_S)
    steps = {k: v.get("ms") for k, v in result.get("steps", {}).items()}
    print(f"\n{editor.name} {result.get('nvim')}: total {result.get('total_ms')} ms; steps (ms): {steps}")
    return Session(editor, repo, before, proc.returncode, proc.stderr, result)


def _occurrences(text: str, word: str) -> list[tuple[int, int, int]]:
    """(0-based line, byte column, end byte column) of every whole-id occurrence of ``word``."""
    out = []
    for row, line in enumerate(text.split("\n")):
        for m in re.finditer(whole_id(word), line):
            start = len(line[: m.start()].encode("utf-8"))
            out.append((row, start, start + len(word.encode("utf-8"))))
    return out


def test_authoring_harness_finished(session: Session) -> None:
    assert session.result.get("error") is None, session.explain()
    assert session.result["timeouts"] == [], session.explain()
    assert session.returncode == 0, session.explain()
    assert session.result.get("command_exists") is True


def test_files_on_disk_after_the_session(session: Session) -> None:
    """Only the files the session meant to change changed, exactly as expected: the 009
    rename in spec, plan and tasks (not the derived capsule), 010's formatted blocks, and the
    frozen 008 rename in its spec and plan."""
    expected = dict(session.before)
    for rel in (SPEC9, "specs/009-context-capsule/plan.md", "specs/009-context-capsule/tasks.md"):
        assert RENAME_FROM in session.text_before(rel), rel
        expected[rel] = session.text_before(rel).replace(RENAME_FROM, RENAME_TO).encode("utf-8")
    assert RENAME_FROM.encode() in session.before[CAPSULE9]  # the derived capsule names it too
    expected[SPEC10] = _stringify_blocks(session.text_before(SPEC10)).encode("utf-8")
    assert expected[SPEC10] != session.before[SPEC10], "the demo's 010 blocks are already laid out"
    for rel in (SPEC8, PLAN8):
        expected[rel] = session.text_before(rel).replace(FROZEN_FROM, FROZEN_TO).encode("utf-8")
    now = _tree(session.repo)
    changed = sorted(rel for rel in set(now) | set(expected) if now.get(rel) != expected.get(rel))
    assert changed == [], (changed, session.explain())


def test_rename_changes_every_mention_and_no_derived_file(session: Session) -> None:
    rename = session.result["rename"]
    assert rename["modified"] == sorted(
        [SPEC9, "specs/009-context-capsule/plan.md", "specs/009-context-capsule/tasks.md"]
    )
    assert rename["errors"] == []
    assert (session.repo / CAPSULE9).read_bytes() == session.before[CAPSULE9]
    for rel in rename["modified"]:
        assert RENAME_FROM not in session.text_now(rel), rel
        assert session.text_now(rel).count(RENAME_TO) == session.text_before(rel).count(RENAME_FROM), rel


def test_frozen_rename_is_refused_with_the_reason(session: Session) -> None:
    frozen = session.result["frozen"]
    refusal = frozen.get("refusal") or {}
    assert refusal.get("level") == ERROR, frozen
    message = refusal.get("message", "")
    assert f"Contract '{FROZEN_FROM}' is frozen by the spec phase of 008-cost-provider-safety-gates" in message
    # Neovim is told the plugin's command, not a confirmation it has no prompt for (issue 20).
    assert "To rename anyway, run :GemstackRenameFrozen with the cursor on the id" in message and "amendment" in message
    assert "where your editor asks" not in message
    assert frozen.get("unchanged") is True, "the refused rename changed the buffer"


def test_gemstack_rename_frozen_command_renames_on_purpose(session: Session) -> None:
    frozen = session.result["frozen"]
    result = (frozen.get("result") or {}).get("result") or {}
    assert result.get("applied") is True, frozen
    assert result.get("edits") == 2
    assert sorted(result.get("frozen") or []) == [
        "plan.md of 008-cost-provider-safety-gates",
        "spec.md of 008-cost-provider-safety-gates",
    ]
    assert frozen["modified"] == [PLAN8, SPEC8]
    assert "record it as an amendment" in (frozen.get("message") or {}).get("message", "")
    for rel in (SPEC8, PLAN8):
        assert FROZEN_FROM not in session.text_now(rel) and FROZEN_TO in session.text_now(rel), rel


def test_format_lays_out_the_squeezed_block(session: Session) -> None:
    fmt = session.result["format"]
    squeezed = "\n".join(fmt["squeezed"])
    assert '[ { "provider_id": "gemini-cloud", "type": "COMMERCIAL"' in squeezed  # the edit took
    want = _stringify_blocks(session.text_before(SPEC10))
    assert "\n".join(fmt["after"]) + "\n" == want


def test_range_formatting_lays_out_only_the_selected_block(session: Session) -> None:
    """Both 010 blocks squeezed onto one line; a selection of the billable-actions line
    formatted: that block is laid out, the capabilities block stays squeezed, in the buffer
    and on disk after :w."""
    rf = session.result["range_format"]
    squeezed = "\n".join(rf["squeezed"])
    lines = rf["squeezed"]
    assert lines[rf["row"] - 1] == "```gemstack-billable-actions" and lines[rf["row"] + 1] == "```"
    assert lines[rf["row"]].startswith("{ ") or lines[rf["row"]].startswith("[ "), lines[rf["row"]]
    assert '[ { "provider_id": "gemini-cloud", "type": "COMMERCIAL"' in squeezed  # the other one
    want = _stringify_blocks(squeezed, kind="billable-actions")
    assert want != squeezed
    assert "\n".join(rf["after"]) == want
    assert rf["disk"] == want + "\n"
    # The billable-actions block is back to the demo's own layout; only capabilities differ.
    before = session.text_before(SPEC10)
    assert _stringify_blocks(want + "\n", kind="capabilities") == _stringify_blocks(before) == session.text_now(SPEC10)


def _position(text: str, offset: int, utf8: bool) -> dict[str, int]:
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    part = text[start:offset]
    return {"line": line, "character": len(part.encode("utf-8")) if utf8 else len(part.encode("utf-16-le")) // 2}


def _expected_selection_chain(text: str, row: int, col: int, utf8: bool) -> list[dict[str, Any]]:
    """Independently of the server: the id's characters, the string, the member, the object,
    the array, the fenced block, the "## 4." section (to its last non-blank line), the "# "
    title's section (to the document's last non-blank line) and the document."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    at = starts[row] + lines[row].index(f'"{SELECT_ID}"')
    spans = [(at + 1, at + 1 + len(SELECT_ID)), (at, at + len(SELECT_ID) + 2)]
    member = starts[row] + lines[row].index('"id"')
    spans.append((member, spans[-1][1]))
    obj = max(r for r in range(row) if lines[r] == "  {")
    obj_end = next(r for r in range(row, len(lines)) if lines[r] in ("  }", "  },"))
    spans.append((starts[obj] + 2, starts[obj_end] + 3))
    fence = max(r for r in range(row) if lines[r].startswith("```gemstack-"))
    close = next(r for r in range(row, len(lines)) if lines[r] == "```")
    assert lines[fence + 1] == "[" and lines[close - 1] == "]"
    spans.append((starts[fence + 1], starts[close - 1] + 1))
    spans.append((starts[fence], starts[close] + 3))
    section = max(r for r in range(row) if lines[r].startswith("## "))
    following = next(r for r in range(row, len(lines)) if re.match(r"#{1,2} ", lines[r]))
    last = max(r for r in range(following) if lines[r].strip())
    spans.append((starts[section], starts[last] + len(lines[last])))
    assert lines[0].startswith("# ") and not any(re.match(r"# ", x) for x in lines[1:])
    last = max(r for r in range(len(lines)) if lines[r].strip())
    spans.append((0, starts[last] + len(lines[last])))
    spans.append((0, len(text)))
    return [{"start": _position(text, a, utf8), "end": _position(text, b, utf8)} for a, b in spans]


def test_selection_ranges_grow_from_a_contract_id(session: Session) -> None:
    sel = session.result["selection"]
    assert sel.get("err") is None, sel
    text = session.text_before(SPEC9)
    row = sel["row"]
    line = text.split("\n")[row]
    assert line.index(f'"{SELECT_ID}"') + 5 == sel["col"]
    utf8 = session.result["offset_encoding"] == "utf-8"
    assert sel["chain"] == _expected_selection_chain(text, row, sel["col"], utf8)
    if session.editor.minimum < (0, 11):
        assert sel["supported"] is False  # 0.7 has no vim.lsp.buf.selection_range; the request works
        return
    col = line.index(f'"{SELECT_ID}"')
    obj = max(r for r in range(row) if text.split("\n")[r] == "  {")
    # Visual mode from the id's first character to its last; then three steps out, the object.
    assert sel["visual"][0] == {"mode": "v", "from": [row, col + 1], "to": [row, col + len(SELECT_ID)]}
    assert sel["visual"][1]["mode"] == "v" and sel["visual"][1]["from"] == [obj, 2]
    assert sel["visual"][1]["to"][1] == 2 and text.split("\n")[sel["visual"][1]["to"][0]].startswith("  }")
    assert sel["mode_after"] == "n"


def test_document_highlight_marks_every_mention(session: Session) -> None:
    hl = session.result["highlight"]
    want = _occurrences(session.text_before(SPEC9), HIGHLIGHT_ID)
    assert len(want) == 3, want
    got = sorted((m["row"], m["col"], m["end_col"]) for m in hl["marks"])
    assert got == want, hl["marks"]
    kinds = {(m["row"], m["hl"]) for m in hl["marks"]}
    declaration = want[0][0]  # declared in the contracts block, mentioned in prose after it
    assert (declaration, "LspReferenceWrite") in kinds, kinds
    assert {h for r, h in kinds if r != declaration} == {"LspReferenceRead"}, kinds


def test_folding_range_of_a_gemstack_block(session: Session) -> None:
    folding = session.result["folding"]
    assert folding.get("err") is None, folding
    lines = session.text_before(SPEC9).split("\n")
    start = folding["block_row"]
    assert lines[start] == "```gemstack-contracts"
    end = next(i for i in range(start + 1, len(lines)) if lines[i] == "```")
    ranges = folding["ranges"]
    assert {"startLine": start, "endLine": end, "kind": "region"} in ranges, ranges
    if session.editor.minimum >= (0, 11):
        assert folding["foldexpr"] is True
        inside = start + 1
        assert folding["level_inside"] == sum(1 for r in ranges if r["startLine"] <= inside <= r["endLine"])
    else:
        assert folding["foldexpr"] is False  # 0.7: the request works, folds come from elsewhere


def _contract_id_rows(text: str) -> list[int]:
    lines = text.split("\n")
    start = lines.index("```gemstack-contracts")
    end = next(i for i in range(start + 1, len(lines)) if lines[i] == "```")
    return [i for i in range(start, end) if re.match(r'\s*"id": "', lines[i])]


def test_inlay_hints_mark_the_frozen_contracts(session: Session) -> None:
    inlay = session.result["inlay"]
    if session.editor.minimum < (0, 11):
        assert inlay == {"supported": False}  # 0.7 has none; nothing raised (harness finished)
        return
    assert inlay["enabled"] is True
    rows = _contract_id_rows(session.text_before(SPEC8))
    assert len(rows) == 10, rows
    assert sorted((h["line"], h["label"]) for h in inlay["hints"]) == [(r, "frozen · spec") for r in rows]
    drawn = {v["row"] for v in inlay["virt_text"] if v["text"] == "frozen · spec"}
    assert drawn and drawn <= set(rows), inlay["virt_text"]


def test_semantic_tokens_on_a_contract_id(session: Session) -> None:
    sem = session.result["semantic"]
    if session.editor.minimum < (0, 11):
        assert sem["supported"] is False and "marks" not in sem
        return
    row, col = sem["row"], sem["col"]
    line = session.text_before(SPEC8).split("\n")[row]
    assert line[col : col + len(FROZEN_FROM)] == FROZEN_FROM
    on_id = {m["hl"] for m in sem["marks"] if m["col"] == col and m["end_col"] == col + len(FROZEN_FROM)}
    # A declared contract of a frozen spec: variable, declaration, readonly.
    assert {"@lsp.type.variable.markdown", "@lsp.mod.declaration.markdown", "@lsp.mod.readonly.markdown"} <= on_id
    [token] = sem["tokens"]
    assert token["type"] == "variable"
    assert token["modifiers"] == {"declaration": True, "readonly": True}


def test_no_unexpected_error_message(session: Session) -> None:
    """The only error shown is the frozen refusal (0.7: no semantic tokens or hints error)."""
    errors = [m["message"] for m in session.result["messages"] if (m.get("level") or 0) >= ERROR]
    assert len(errors) == 1 and "is frozen by the spec phase" in errors[0], errors
    assert "stack traceback" not in session.stderr
