"""Offsets and positions on lines with accents, box drawing, `≠` and emoji, in every encoding."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gemstack_lsp.core.text import Position, SourceText, Span, column_width, decode_utf8

LINE = "é ─ ≠ 😀 x"  # 2-byte, 3-byte (box drawing), 3-byte (≠), 4-byte (emoji, a surrogate pair)


@pytest.mark.parametrize(
    ("char_index", "utf16", "utf8", "utf32"),
    [
        (0, 0, 0, 0),
        (1, 1, 2, 1),  # after é
        (3, 3, 6, 3),  # after "─" (U+2500, three UTF-8 bytes)
        (5, 5, 10, 5),  # after "≠ "
        (7, 8, 15, 7),  # after "😀 ": two UTF-16 units, four UTF-8 bytes
        (9, 10, 17, 9),  # end of line
    ],
)
def test_columns_in_each_encoding(char_index: int, utf16: int, utf8: int, utf32: int) -> None:
    src = SourceText("first line\n" + LINE + "\nlast")
    offset = len("first line\n") + char_index
    assert src.position(offset, "utf-16") == Position(1, utf16)
    assert src.position(offset, "utf-8") == Position(1, utf8)
    assert src.position(offset, "utf-32") == Position(1, utf32)
    assert src.offset(Position(1, utf16), "utf-16") == offset
    assert src.offset(Position(1, utf8), "utf-8") == offset
    assert src.offset(Position(1, utf32), "utf-32") == offset


def test_position_inside_a_surrogate_pair_lands_before_the_character() -> None:
    src = SourceText("a😀b")
    assert src.offset(Position(0, 2), "utf-16") == 1
    assert src.offset(Position(0, 2), "utf-8") == 1


@pytest.mark.parametrize("text", ["a\nb\nc", "a\r\nb\r\nc", "a\rb\rc", "a\r\nb\nc"])
def test_line_breaks_lf_crlf_and_lone_cr(text: str) -> None:
    src = SourceText(text)
    assert src.line_count == 3
    assert [src.line_text(i) for i in range(3)] == ["a", "b", "c"]
    assert src.position(len(text), "utf-16") == Position(2, 1)


def test_columns_past_the_line_end_clamp_to_it() -> None:
    src = SourceText("ab\ncd")
    assert src.offset(Position(0, 99)) == 2
    assert src.offset(Position(7, 0)) == 5
    assert src.offset(Position(-1, 3)) == 0


def test_span_rejects_inverted_ranges() -> None:
    with pytest.raises(ValueError):
        Span(3, 2)
    assert Span(1, 4).contains(4)


def test_decode_utf8_reports_bom_and_first_invalid_byte() -> None:
    assert decode_utf8("≠".encode()) == ("≠", False, None)
    assert decode_utf8(b"\xef\xbb\xbfhi") == ("hi", True, None)
    text, bom, bad = decode_utf8(b"ok\xffno")
    assert (text, bom, bad) == ("ok\ufffdno", False, 2)


@given(st.text())
def test_round_trip_every_offset(text: str) -> None:
    src = SourceText(text)
    for offset in range(0, len(text) + 1, max(1, len(text) // 20)):
        for enc in ("utf-16", "utf-8", "utf-32"):
            pos = src.position(offset, enc)  # type: ignore[arg-type]
            back = src.offset(pos, enc)  # type: ignore[arg-type]
            # Offsets inside a CRLF pair map to the line end; everything else round-trips.
            assert back == offset or text[back:offset] in ("\r", "\n")


def test_column_width_matches_encoders() -> None:
    assert column_width(LINE, "utf-16") == len(LINE.encode("utf-16-le")) // 2
    assert column_width(LINE, "utf-8") == len(LINE.encode("utf-8"))


@pytest.mark.parametrize(
    "text",
    ["", "a", "a\n", "a\nb", "\n\n", "x\ry", "a\r\nb\r\n", "a\rb\nc\r\n", "\r", "é\n🙂\nz\n"],
)
def test_line_index_fast_path_and_regex_path_agree(text: str) -> None:
    import re

    expected = [0, *(m.end() for m in re.finditer(r"\r\n|\r|\n", text))]
    assert SourceText(text)._line_starts == expected


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab\n\r😀é", max_size=30), st.lists(st.integers(-2, 40), max_size=8))
def test_positions_before_and_after_the_line_index_agree(text: str, offsets: list[int]) -> None:
    """A position asked for before the line index exists (counted, when every break before it
    is ``\\n``) is the one the index gives, and so is the first line's end."""
    fresh, indexed = SourceText(text), SourceText(text)
    assert indexed.line_count >= 1  # builds its index
    assert fresh.line_end(0) == indexed.line_end(0)
    for offset in offsets:
        for encoding in ("utf-16", "utf-8", "utf-32"):
            assert fresh.position(offset, encoding) == indexed.position(offset, encoding)
        assert fresh.line_of(offset) == indexed.line_of(offset)
