"""The fence scanner against an independent CommonMark implementation (markdown-it-py).

Documents are generated from the lines that decide block structure around fences: opening and
closing fences of every flavour (backticks, tildes, longer runs, indented, tabbed, with info
strings), list markers, block quotes, setext underlines, thematic breaks, HTML blocks,
headings, paragraphs and blank lines. For each document both must find the same fenced code
blocks: the same opening line, info string and body. markdown-it-py is a test-only oracle; the
scanner does not depend on it.
"""

from __future__ import annotations

import re

from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from gemstack_lsp.core.markdown import scan_fences

_MD = MarkdownIt("commonmark")

_PREFIXES = ("", "", "", " ", "  ", "   ", "    ", "\t", "> ", ">", "- ", "  ", "1. ", "* ", ">  - ")

_OPENERS = (
    "```",
    "```gemstack-contracts",
    "```gemstack-test-matrix",
    "``` gemstack-contracts",
    "```gemstack-contracts json",
    "````gemstack-contracts",
    "~~~gemstack-contracts",
    "~~~",
    "````",
    "```js `x`",
    "~~~ a`b",
)

_LINES = (
    "",
    "",
    "Title",
    "some text",
    "-",
    "--",
    "---",
    "- -",
    "=",
    "==",
    "***",
    "# Heading",
    "- item",
    "-",
    "*",
    "1.",
    "2) two",
    "> quote",
    ">",
    "<div>",
    "</div>",
    "<!-- c",
    "-->",
    "<span>",
    '[{"id": "a"}]',
    "  [1, 2]",
    "```",
    "~~~",
    "````",
    "```` ",
    "\t```",
)


@st.composite
def documents(draw: st.DrawFn) -> str:
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 12))):
        prefix = draw(st.sampled_from(_PREFIXES))
        pool = _OPENERS if draw(st.integers(0, 3)) == 0 else _LINES
        body = draw(st.sampled_from(pool))
        lines.append(prefix + body)
    return "\n".join(lines) + "\n"


def _whitespace_normalised(body: str, tabs: bool) -> str:
    """The body with whitespace-only lines emptied and, in a document with tabs, every line's
    indentation dropped.

    Where the spec leaves it open, implementations differ on whitespace only: commonmark.js
    (whose container model the scanner follows) drops a whitespace-only line's spaces inside a
    list item, markdown-it keeps those beyond the item's indent; a tab partly consumed by a
    container marker becomes spaces in commonmark.js and stays a tab in markdown-it. Neither
    matters to a Gemstack block (JSON ignores whitespace between tokens); every other character
    of the body is compared, and the indentation too in documents without tabs.
    """
    out = []
    for line in body.splitlines(keepends=True):
        content = line.lstrip(" \t")
        if not content.strip("\n"):
            out.append("\n" if line.endswith("\n") else "")
        else:
            out.append(content if tabs else line)
    return "".join(out)


#: A block start (fence, block quote, HTML, list marker...) after four or more columns of
#: indentation. CommonMark says it starts no block there (the line is indented code or paragraph
#: text); markdown-it still starts one where it continues a block quote, or where the line is
#: less indented than the enclosing list item's content (a negative relative indent). Only a
#: disagreement on a document with such a line is put down to markdown-it.
_DEEP_MARKER = re.compile(r"^(?: {4,}|[ ]{0,3}\t)[ \t]*[>`~<#*+=_0-9-]", re.M)


def _oracle(text: str) -> list[tuple[int, str, str, bool]]:
    return [
        (token.map[0], token.info.strip(" \t"), _whitespace_normalised(token.content, "\t" in text), token.level > 0)
        for token in _MD.parse(text)
        if token.type == "fence" and token.map is not None
    ]


def _ours(text: str) -> list[tuple[int, str, str, bool]]:
    return [
        (f.open_line, f.info, _whitespace_normalised(f.body, "\t" in text), f.in_container) for f in scan_fences(text)
    ]


@settings(max_examples=1500)
@given(documents())
@example("Title\n-\n    ```gemstack-contracts\n    []\n    ```\n")
@example("Title\n-\n```gemstack-contracts\n[]\n```\n")
@example("- Title\n  -\n      ```x\n")
@example("Title\n-\n  ```gemstack-contracts\n  []\n  ```\n")
@example("> Title\n> --\n>     ```x\n")
@example("Title\n-\n<span>\n```gemstack-contracts\n[]\n```\n")
@example("- \n  - -\n\n  ```gemstack-contracts\n  []\n  ```\n")
def test_fences_agree_with_markdown_it(text: str) -> None:
    ours, oracle = _ours(text), _oracle(text)
    if ours != oracle:
        assume(not _DEEP_MARKER.search(text))
    assert ours == oracle


def test_a_one_dash_setext_underline_is_a_heading_not_a_list_item() -> None:
    # "Title\n-" is a setext heading; the indented line after it is indented code, not a fence
    # inside a list item.
    text = "Title\n-\n    ```gemstack-contracts\n    []\n    ```\n"
    assert _ours(text) == [] == _oracle(text)


def test_a_two_dash_setext_underline_inside_a_list_item() -> None:
    text = "- Title\n  --\n      ```x\n"
    assert _ours(text) == [] == _oracle(text)


def test_a_one_dash_setext_underline_ends_the_paragraph() -> None:
    # As a heading, "Title\n-" ends the paragraph: the HTML line after it starts an HTML block
    # (it could not interrupt a paragraph), which runs to the next blank line and holds the fence.
    text = "Title\n-\n<span>\n```gemstack-contracts\n[]\n```\n"
    assert _ours(text) == [] == _oracle(text)


def test_a_list_item_that_starts_blank_and_holds_a_nested_list_continues_past_a_blank_line() -> None:
    # The outer item has content (the nested list), so the blank line does not end it and the
    # fence after it is inside the item.
    text = "- \n  - -\n\n  ```gemstack-contracts\n  []\n  ```\n"
    assert _ours(text) == [(3, "gemstack-contracts", "[]\n", True)] == _oracle(text)
