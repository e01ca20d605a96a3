"""The memo's piece values and recent scans: reused while used, forgotten when not."""

from __future__ import annotations

from gemstack_lsp.core.memo import Memo, per_piece

CALLS: list[str] = []


@per_piece
def shout(text: str, base: int) -> str:
    CALLS.append(text)
    return f"{text.upper()}@{base}"


def test_piece_values_are_kept_while_used_and_forgotten_after_a_retain_without_use() -> None:
    CALLS.clear()
    memo = Memo()
    with memo.active():
        assert shout("a", 1) == "A@1" and shout("a", 1) == "A@1" and shout("a", 2) == "A@2"
        assert CALLS == ["a", "a"]
        shout("b", 0)
        memo.retain({})
        shout("a", 1)  # used after the last retain: kept by the next one
        memo.retain({})
        assert memo.pieces == 1
        shout("a", 1)
        assert CALLS == ["a", "a", "b"]
        memo.retain({})
        memo.retain({})
        assert memo.pieces == 0
    assert shout("c", 0) == "C@0"  # with no memo active the function simply runs


def test_recent_values_follow_the_texts_the_host_holds() -> None:
    memo = Memo()
    for text in ("one", "two", "three", "four", "five"):
        memo.remember("scan", text, len(text))
    assert [t for t, _ in memo.recent("scan")] == ["five", "four", "three", "two"]
    memo.retain({"four": {"x"}, "two": {"y"}})
    assert memo.recent("scan") == [("four", 4), ("two", 3)]
    memo.retain({})
    assert memo.recent("scan") == []
