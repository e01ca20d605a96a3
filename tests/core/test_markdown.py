"""The fence scanner against CommonMark's rules, and the reference's view of the same text."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from gemstack_lsp.core.markdown import (
    fences_of_kind,
    reference_blocks,
    reference_only_blocks,
    scan_fences,
)


@dataclass(frozen=True)
class Case:
    name: str
    text: str
    # (info, body, terminated) for each fence, in order.
    expected: tuple[tuple[str, str, bool], ...]


CASES = [
    Case("backticks", "```js\nx = 1\n```\n", (("js", "x = 1\n", True),)),
    Case("tildes", "~~~ py\ncode\n~~~\n", (("py", "code\n", True),)),
    Case("indent 1", " ```\n a\n  b\n```\n", (("", "a\n b\n", True),)),
    Case("indent 2 removes up to 2", "  ```\n    a\n b\nc\n  ```\n", (("", "  a\nb\nc\n", True),)),
    Case("indent 3", "   ```\n   a\n   ```\n", (("", "a\n", True),)),
    Case("indent 4 is indented code, not a fence", "    ```\n    a\n    ```\n", ()),
    Case("closing longer than opening", "```\na\n`````\n", (("", "a\n", True),)),
    Case("closing shorter does not close", "````\na\n```\nb\n````\n", (("", "a\n```\nb\n", True),)),
    Case("closing with trailing text does not close", "```\na\n``` x\n```\n", (("", "a\n``` x\n", True),)),
    Case("closing with trailing spaces closes", "```\na\n```   \nb\n", (("", "a\n", True),)),
    Case("closing indented up to 3 closes", "```\na\n   ```\n", (("", "a\n", True),)),
    Case("closing indented 4 does not close", "```\na\n    ```\n", (("", "a\n    ```\n", False),)),
    Case("tilde not closed by backticks", "~~~\n```\n~~~\n", (("", "```\n", True),)),
    Case("backtick info with a backtick is not a fence", "``` a`b\ntext\n", ()),
    Case("tilde info may hold a backtick", "~~~ a`b\ntext\n~~~\n", (("a`b", "text\n", True),)),
    Case("two backticks are not a fence", "``\nx\n``\n", ()),
    Case("unterminated runs to the end", "```\na\nb\n", (("", "a\nb\n", False),)),
    Case("empty body", "```\n```\n", (("", "", True),)),
    Case("blockquote", "> ```json\n> [1]\n> ```\n", (("json", "[1]\n", True),)),
    Case("blockquote ends the fence when the prefix stops", "> ```\n> a\nb\n", (("", "a\n", False),)),
    Case("list item", "- item\n\n  ```json\n  [1]\n  ```\n", (("json", "[1]\n", True),)),
    Case("list item fence on the marker line", "1. ```\n   a\n   ```\n", (("", "a\n", True),)),
    Case("list item ends at a dedented line", "- ```\n  a\nb\n", (("", "a\n", False),)),
    Case("nested blockquote in list", "- > ```\n  > q\n  > ```\n", (("", "q\n", True),)),
    Case("fence interrupts a paragraph", "para\n```\nx\n```\n", (("", "x\n", True),)),
    Case("html comment hides a fence", "<!--\n```\n-->\n", ()),
    Case("html block type 6 until blank", "<div>\n```\n</div>\n\n```\nx\n```\n", (("", "x\n", True),)),
    Case("crlf", "a\r\n```js\r\nx\r\n```\r\n", (("js", "x\n", True),)),
    Case("lone cr", "```\rx\r```\r", (("", "x\n", True),)),
    Case("no final newline", "```\nx\n```", (("", "x\n", True),)),
    Case("tab indentation in list", "- a\n\t```x\n\tcode\n\t```\n", (("x", "code\n", True),)),
    Case("html block after an empty list item", "1. \n<a href='x'>\n```\n", ()),
    Case("setext underline ends the paragraph", "text\n=====\n</pre>\n```\n", ()),
    Case("new list item is no lazy line", "- a\n-     ```\n<a href='x'>\n```\n", ()),
    Case("lazy line keeps the list item open", "- a\nlazy\n  ```\n  x\n  ```\n", (("", "x\n", True),)),
    Case("partly consumed tab becomes spaces", "> ```\n>\tx\n> ```\n", (("", "  x\n", True),)),
    Case("fence inside a fence is content", "````md\n```js\nx\n```\n````\n", (("md", "```js\nx\n```\n", True),)),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_scan_fences_commonmark(case: Case) -> None:
    got = tuple((f.info, f.body, f.terminated) for f in scan_fences(case.text))
    assert got == case.expected


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_body_offsets_map_to_the_same_characters(case: Case) -> None:
    for f in scan_fences(case.text):
        for i, ch in enumerate(f.body):
            doc = f.body_offset_to_doc(i)
            if ch == "\n":
                assert doc == len(case.text) or case.text[doc] in "\r\n"
            elif ch == " " and case.text[doc] == "\t":
                continue
            else:
                assert case.text[doc] == ch


def test_fence_fields() -> None:
    text = "intro\n  ```gemstack-contracts  extra\n  [1,\n   2]\n  ```\n"
    (f,) = scan_fences(text)
    assert f.kind == "gemstack-contracts"
    assert f.info == "gemstack-contracts  extra"
    assert (f.fence_char, f.fence_len, f.indent) == ("`", 3, 2)
    assert text[f.open_span.start : f.open_span.end] == "  ```gemstack-contracts  extra"
    assert f.close_span is not None and text[f.close_span.start : f.close_span.end] == "  ```"
    assert (f.open_line, f.close_line) == (1, 4)
    assert f.body == "[1,\n 2]\n"
    assert f.body_span == f.span.__class__(text.index("[1"), text.index("2]") + 3)
    assert f.contiguous_base is None  # the indentation is removed from the content line


def test_contiguous_base_for_a_plain_block() -> None:
    text = "```gemstack-contracts\n[1,\n 2]\n```\n"
    (f,) = scan_fences(text)
    assert f.contiguous_base == text.index("[1")
    assert text[f.contiguous_base : f.contiguous_base + len(f.body)] == f.body


@pytest.mark.parametrize(
    "info, kind",
    [
        ("gemstack-contracts", "gemstack-contracts"),
        ("gemstack-test-matrix", "gemstack-test-matrix"),
        ("gemstack-test-bindings x", "gemstack-test-bindings"),
        ("gemstack-closure-gates", "gemstack-closure-gates"),
        ("gemstack-billable-actions", "gemstack-billable-actions"),
        ("gemstack-capabilities", "gemstack-capabilities"),
        ("gemstack-contract", None),
        ("json", None),
        ("", None),
    ],
)
def test_kind_is_the_first_info_word(info: str, kind: str | None) -> None:
    (f,) = scan_fences(f"~~~{info}\n[]\n~~~\n")
    assert f.kind == kind


VISIBILITY = [
    ("plain", "```gemstack-contracts\n[]\n```\n", None),
    ("trailing spaces", "```gemstack-contracts  \n[]\n```  \n", None),
    ("indented", "  ```gemstack-contracts\n[]\n```\n", "indented 2 spaces"),
    ("tilde", "~~~gemstack-contracts\n[]\n~~~\n", "tilde fence"),
    ("four backticks", "````gemstack-contracts\n[]\n````\n", "4 backticks"),
    ("extra info", "```gemstack-contracts strict\n[]\n```\n", "has words after gemstack-contracts"),
    ("blockquote", "> ```gemstack-contracts\n> []\n> ```\n", "inside a blockquote"),
    ("list item", "- x\n\n  ```gemstack-contracts\n  []\n  ```\n", "inside a list item"),
    ("unterminated", "```gemstack-contracts\n[]\n", "unterminated"),
    ("closed by a longer fence", "```gemstack-contracts\n[]\n````\n", "longer fence of 4 backticks"),
    ("closing indented", "```gemstack-contracts\n[]\n  ```\nx\n```\n", "reads on to line 5"),
]


@pytest.mark.parametrize("name, text, issue", VISIBILITY, ids=[v[0] for v in VISIBILITY])
def test_reference_visibility(name: str, text: str, issue: str | None) -> None:
    f = fences_of_kind(text, "gemstack-contracts")[0]
    assert f.reference_visible is (issue is None)
    if issue is None:
        assert f.reference_issue is None
    else:
        assert f.reference_issue is not None and issue in f.reference_issue


def test_reference_blocks_match_the_reference_reading() -> None:
    text = "```gemstack-contracts\r\n[1]\r\n\r\n```\r\n```gemstack-contracts\n[2]\n"
    blocks = reference_blocks(text, "contracts")
    assert len(blocks) == 1  # the unterminated second block is dropped
    (b,) = blocks
    assert b.body == "[1]\n"
    assert b.json_text == "[1]"
    assert (b.open_line, b.close_line) == (0, 3)


def test_reference_only_block_inside_a_longer_fence() -> None:
    text = "Example:\n\n````markdown\n```gemstack-contracts\n[]\n```\n````\n"
    assert fences_of_kind(text, "gemstack-contracts") == ()
    (m,) = reference_only_blocks(text)
    assert m.kind == "gemstack-contracts"
    assert m.line == 3
    assert "content of the code block opened on line 3" in m.message


@pytest.mark.parametrize("space", ["\u00a0", "\u3000", "\x0c"])
def test_unicode_space_after_the_kind_still_names_the_kind(space: str) -> None:
    # The reference right-trims with JavaScript's whitespace and Markdown renderers split the
    # info string on it, so both read this block: it is neither reference-only nor unseen.
    text = f"```gemstack-contracts{space}\n[]\n```\n"
    (fence,) = fences_of_kind(text, "gemstack-contracts")
    assert fence.reference_visible
    assert reference_only_blocks(text) == ()


def test_scan_is_memoised_in_the_active_memo() -> None:
    from gemstack_lsp.core.memo import Memo

    text = "```gemstack-contracts\n[]\n```\n"
    with Memo().active():
        assert scan_fences(text) is scan_fences(text)
    assert scan_fences(text) is not scan_fences(text)


@pytest.mark.parametrize(
    "text",
    ["", "a", "a\n", "a\nb", "\n", "\n\n", "a\n\nb\n", "x\ry", "a\r\nb\r\n", "a\rb\nc\r\n", "\r", "é\n🙂\nz"],
)
def test_lines_split_fast_path_and_regex_path_agree(text: str) -> None:
    import re

    from gemstack_lsp.core.markdown import _lines
    from gemstack_lsp.core.memo import Memo
    from gemstack_lsp.core.text import SourceText

    expected: list[tuple[int, int]] = []
    i = 0
    for m in re.finditer(r"\r\n|\r|\n", text):
        expected.append((i, m.start()))
        i = m.end()
    if i < len(text) or not expected:
        expected.append((i, len(text)))
    lines = _lines(text)
    assert tuple(lines) == tuple(expected)
    # With a memo active the scan's lines and ``SourceText``'s positions share one line table.
    with Memo().active():
        source = SourceText(text)
        assert tuple(_lines(text)) == tuple(expected)
        assert [source.line_start(n) for n in range(source.line_count)][: len(expected)] == [s for s, _ in expected]
    assert len(lines) == len(expected) and lines[-1] == expected[-1]
    # The shared table's view: every line's text as the document slices it.
    assert [lines.texts[k] for k in range(len(lines))] == [text[a:b] for a, b in expected]
