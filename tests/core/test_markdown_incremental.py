"""The fence scan of an edited document, started from the scan of the text before the edit,
is the full scan of the edited text, whatever the edit (CommonMark structure, line endings,
containers, tabs, HTML blocks, fences opened or closed by the edit)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gemstack_lsp.core import markdown
from gemstack_lsp.core.memo import Memo

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "gemstack-reference" / "repo" / "specs"
SPEC = (FIXTURE / "009-context-capsule" / "spec.md").read_text("utf-8")
TASKS = (FIXTURE / "009-context-capsule" / "tasks.md").read_text("utf-8")

MIXED = (
    "# Title\n\nProse line one.\nProse two.\n\n- item\n\n  ```gemstack-contracts\n  [1]\n  ```\n\n"
    "> quote\n> ```json\n> {}\n> ```\n\n<div>\n```gemstack-test-matrix\n</div>\n\n"
    '```gemstack-test-matrix\n[\n  {"id": "TEST-A-B01"}\n]\n```\n\n\tindented code\n\n'
    "~~~~ gemstack-capabilities x\n[]\n~~~~\n\n1. one\n2. two\n   ```\n   x\n   ```\nlast\r\nline\r\n"
)
PIECES = ["x", " ", "\n", "\r\n", "\r", "`", "```", "~~~", "> ", "- ", "1. ", "\t", "<div>", "-->", "\n\n", "#"]


def full(text: str) -> tuple[markdown.Fence, ...]:
    return markdown._scan_lines(text, 0, 0, ()).fences


def incremental(before: str, after: str) -> tuple[markdown.Fence, ...]:
    memo = Memo()
    with memo.active():
        markdown._scan_commonmark(before)
        return markdown._scan_commonmark(after)


def edit(text: str, rng: random.Random) -> str:
    at = rng.randrange(len(text) + 1)
    cut = rng.choice([0, 0, 1, 2, rng.randrange(40)])
    insert = "".join(rng.choice(PIECES) for _ in range(rng.choice([0, 1, 1, 2, 3])))
    return text[:at] + insert + text[at + cut :]


@pytest.mark.parametrize("name", ["spec", "tasks", "mixed"])
def test_random_edits_scan_as_the_full_scan_does(name: str) -> None:
    text = {"spec": SPEC, "tasks": TASKS, "mixed": MIXED}[name]
    rng = random.Random(f"fences-{name}")
    memo = Memo()
    with memo.active():
        for _ in range(300):
            edited = edit(text, rng)
            assert markdown._scan_commonmark(edited) == full(edited)
            # Edits pile up now and then, each scanned from the one before.
            text = edited if rng.random() < 0.3 else text
            markdown._scan_commonmark(text)


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="`~>-1. \t\n\rx#<", max_size=60),
    st.integers(min_value=0, max_value=200),
    st.integers(min_value=0, max_value=5),
    st.text(alphabet="`~>-1. \t\n\rx", max_size=6),
)
def test_any_edit_of_any_text_scans_as_the_full_scan_does(base: str, at: int, cut: int, insert: str) -> None:
    before = MIXED[:80] + base + MIXED[80:]
    at %= len(before) + 1
    after = before[:at] + insert + before[at + cut :]
    assert incremental(before, after) == full(after)


def test_an_edit_inside_a_block_rescans_only_around_it() -> None:
    at = SPEC.index('"description": "Upgrade D') + len('"description": "')
    edited = SPEC[:at] + "x" + SPEC[at:]
    memo = Memo()
    with memo.active():
        markdown._scan_commonmark(SPEC)
        (old_text, old_scan), *_ = memo.recent(markdown._RECENT_COMMONMARK)
        scan = markdown._rescan(old_text, old_scan, edited)
    assert scan is not None and scan.fences == full(edited)
    fence = next(f for f in scan.fences if f.kind == "gemstack-contracts")
    assert "Upgrade D" in fence.body and fence.body_offset_to_doc(0) == fence.body_span.start


def test_another_text_is_scanned_in_full_not_rescanned() -> None:
    """A text that is no edit of the one before (the next file ``check`` reads) keeps neither a
    quarter at its top nor one at its end: no rescan is tried, and the scan is the full scan."""
    memo = Memo()
    with memo.active():
        markdown._scan_commonmark(SPEC)
        (old_text, old_scan), *_ = memo.recent(markdown._RECENT_COMMONMARK)
        assert markdown._rescan(old_text, old_scan, TASKS) is None
        # The same ending (a feature's own closing line) is not enough to take it for an edit.
        ending = "\nFeature 3 keeps its own notes here.\n"
        markdown._scan_commonmark(SPEC + ending)
        (old_text, old_scan), *_ = memo.recent(markdown._RECENT_COMMONMARK)
        assert markdown._rescan(old_text, old_scan, TASKS + ending) is None
        assert markdown._scan_commonmark(TASKS + ending) == full(TASKS + ending)
    # An edit at either end still keeps three quarters of the text: it is rescanned.
    for edited in ("x" + SPEC, SPEC + "x", SPEC[: len(SPEC) // 2] + "xy" + SPEC[len(SPEC) // 2 + 5 :]):
        with Memo().active() as fresh:
            markdown._scan_commonmark(SPEC)
            (old_text, old_scan), *_ = fresh.recent(markdown._RECENT_COMMONMARK)
            scan = markdown._rescan(old_text, old_scan, edited)
        assert scan is not None and scan.fences == full(edited)


@given(
    st.lists(
        st.sampled_from(
            ["```gemstack-contracts\n", "```\n", "[1]\n", "\r\n", "\r", "\n", "x", "```gemstack-test-matrix"]
        ),
        max_size=14,
    ).map("".join)
)
def test_reference_blocks_bodies_are_their_lines_joined(text: str) -> None:
    """A reference block's body is its lines (without their breaks) joined by "\\n", and its
    line starts are those of its body lines, whatever the line breaks."""
    from gemstack_lsp.core.markdown import _lines, reference_blocks

    lines = _lines(text)
    for kind in ("gemstack-contracts", "gemstack-test-matrix"):
        for block in reference_blocks(text, kind):
            body_lines = range(block.open_line + 1, block.close_line)
            assert block.body == "\n".join(text[lines[j][0] : lines[j][1]] for j in body_lines)
            assert block.line_starts == tuple(lines[j][0] for j in body_lines)
