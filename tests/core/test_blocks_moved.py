"""Blocks an edit above them only moved: their kind's result is the kept one, moved.

``blocks_of`` keeps each kind's result per (path, kind, block bodies) while a memo is active;
an edit that leaves a kind's fences as they were reuses it, an edit above them that only
shifts them gives a ``MovedResult`` that runs the parser on the moved fences when a position is
asked for. Whatever the edits, every result must equal the parser's over the new text, field
by field, whichever of its fields is read first.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gemstack_lsp.core.blocks import BlockResult, MovedResult, blocks_of
from gemstack_lsp.core.memo import Memo

SPEC = Path(__file__).resolve().parents[2] / "examples" / "demo" / "specs" / "009-context-capsule" / "spec.md"
PATH = "specs/009-context-capsule/spec.md"
SNIPPETS = ("x", "\n", "```", "\n```\n", "{", '"id": "C-1", ', "\n```gemstack-test-matrix\n[{}]\n```\n", "]", "é")


def _fields(r: BlockResult[object]) -> tuple[object, ...]:
    return (r.kind, r.items, r.findings, r.fence, r.root, r.present)


def _edit(rng: random.Random, text: str) -> str:
    at = rng.randint(0, len(text))
    if rng.random() < 0.3:
        at = text.find("\n", at) + 1  # a line start, where fences open and close
    if rng.random() < 0.6:
        return text[:at] + rng.choice(SNIPPETS) + text[at:]
    return text[:at] + text[at + rng.randint(1, 30) :]


@pytest.mark.parametrize("seed", range(4))
def test_kind_results_after_random_edits_equal_a_fresh_parse(seed: int) -> None:
    rng = random.Random(seed)
    text = SPEC.read_text("utf-8")
    memo = Memo()
    moved = 0
    previous = text
    for step in range(30):
        text = _edit(rng, text)
        with memo.active():
            got = blocks_of(PATH, text)
        expected = blocks_of(PATH, text)  # no memo: every parser runs
        for g, e in zip(got.results, expected.results, strict=True):
            moved += isinstance(g, MovedResult)
            # Read the position-free fields first (what a moved result answers without parsing),
            # then everything.
            assert (g.kind, g.present, bool(g.findings)) == (e.kind, e.present, bool(e.findings)), step
            assert g.fence == e.fence
            if e.root is not None and g.value_tree is not None:
                assert g.value_tree.to_python() == e.root.to_python()  # type: ignore[union-attr]
            assert _fields(g) == _fields(e), f"seed {seed}, step {step}, {e.kind}"
            assert g == e and e == g and hash(g) == hash(e)
        assert got == expected
        memo.retain({text: {PATH}, previous: {PATH}})
        previous = text
    assert moved  # the sequences do move blocks


def test_typing_above_the_blocks_moves_them_without_parsing_them_again() -> None:
    text = SPEC.read_text("utf-8")
    at = text.index("```gemstack-contracts")
    memo = Memo()
    with memo.active():
        first = blocks_of(PATH, text)
        typed = text[:at] + "x\n" + text[at:]
        second = blocks_of(PATH, typed)
    matrix = second.test_matrix
    assert isinstance(matrix, MovedResult) and matrix.__dict__["_result"] is None
    assert matrix.findings == first.test_matrix.findings == ()
    assert matrix.__dict__["_result"] is None  # no finding, no position asked: not parsed
    assert matrix.fence is not None and matrix.fence.open_span.start == first.test_matrix.fence.open_span.start + 2
    assert matrix.root is not None and matrix.root.span.start == first.test_matrix.root.span.start + 2  # type: ignore[union-attr]
    assert _fields(matrix) == _fields(blocks_of(PATH, typed).test_matrix)


def test_a_result_kept_over_edits_that_did_not_touch_it_still_moves_without_parsing() -> None:
    """Typing below a block keeps its result as it was (with the fence of the scan it was parsed
    from); typing above it afterwards moves that result, still unparsed (issue 22: the fence was
    looked for by identity among the new scan's fences, and each such keystroke parsed the
    009 test matrix again)."""
    text = SPEC.read_text("utf-8")
    contracts = text.index("```gemstack-contracts")
    below = text.index("\n", text.index("```gemstack-test-matrix")) + 1
    below = text.index("```", below) + 4  # after the matrix's closing fence
    memo = Memo()
    with memo.active():
        blocks_of(PATH, text)
        after_matrix = text[:below] + "x" + text[below:]  # below every block: all kept
        kept = blocks_of(PATH, after_matrix)
        assert not isinstance(kept.test_matrix, MovedResult)
        for n in range(1, 4):  # then typing inside the contracts block, above the matrix
            typed = after_matrix[: contracts + 30] + "y" * n + after_matrix[contracts + 30 :]
            matrix = blocks_of(PATH, typed).test_matrix
            assert isinstance(matrix, MovedResult)
            assert matrix.__dict__["_result"] is None, n  # not parsed: no position was asked for
    assert _fields(matrix) == _fields(blocks_of(PATH, typed).test_matrix)


def test_a_moved_result_with_findings_moves_them() -> None:
    text = SPEC.read_text("utf-8")
    start = text.index("```gemstack-test-matrix")
    body = text.index("[", start)
    broken = text[: body + 1] + '{"id": "TEST-BAD"},' + text[body + 1 :]
    memo = Memo()
    with memo.active():
        first = blocks_of(PATH, broken)
        assert first.test_matrix.findings
        typed = "x" + broken
        second = blocks_of(PATH, typed)
    assert isinstance(second.test_matrix, MovedResult)
    assert [f.span.start for f in second.test_matrix.findings if f.span] == [
        f.span.start + 1 for f in first.test_matrix.findings if f.span
    ]
    assert second == blocks_of(PATH, typed)


def test_a_moved_result_pickles_as_the_plain_result() -> None:
    import pickle

    text = SPEC.read_text("utf-8")
    memo = Memo()
    with memo.active():
        blocks_of(PATH, text)
        moved = blocks_of(PATH, "x" + text).test_matrix
    assert isinstance(moved, MovedResult)
    plain = pickle.loads(pickle.dumps(moved))
    assert type(plain) is BlockResult and plain == moved
