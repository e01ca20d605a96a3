"""Fences: the CommonMark forms Markdown shows as a block, and what the reference would miss.

A Gemstack block that Markdown shows but the reference CLI would not read the same way gets
FENCE_UNSEEN_BY_REFERENCE on its opening line (its whole line, column 0); errors inside such a
block are still reported at their token, container prefixes and indentation included.
"""

from __future__ import annotations

from corpus.cases.common import CONTRACT, SPEC, doc
from corpus.harness import Case

UNSEEN = "FENCE_UNSEEN_BY_REFERENCE"
PARSE = "CONTRACT_PARSE_ERROR"

CASES = [
    Case("fence-plain-valid", {SPEC: doc("# Demo", "```gemstack-contracts", "[", CONTRACT, "]", "```")}),
    Case(
        "fence-tilde",
        {SPEC: doc("# Demo", "~~~gemstack-contracts", "[", CONTRACT, "]", "~~~")},
        ((UNSEEN, SPEC, 1, 0),),
    ),
    Case(
        "fence-tilde-with-error",
        {SPEC: doc("# Demo", "~~~gemstack-contracts", "[", '  {"a": 1},', "]", "~~~")},
        ((UNSEEN, SPEC, 1, 0), (PARSE, SPEC, 3, 10)),
    ),
    Case(
        "fence-four-backticks",
        {SPEC: doc("# Demo", "````gemstack-contracts", "[", CONTRACT, "]", "````")},
        ((UNSEEN, SPEC, 1, 0),),
    ),
    Case(
        # A three-backtick line does not close a four-backtick fence: it is body, and breaks the JSON.
        "fence-four-backticks-inner-close",
        {SPEC: doc("# Demo", "````gemstack-contracts", "[", CONTRACT, "]", "```", "````")},
        ((UNSEEN, SPEC, 1, 0), (PARSE, SPEC, 5, 0)),
    ),
    *[
        Case(
            f"fence-indented-{n}",
            {SPEC: doc("# Demo", "", " " * n + "```gemstack-contracts", " " * n + "[", CONTRACT, " " * n + "]", "```")},
            ((UNSEEN, SPEC, 2, 0),),
        )
        for n in (1, 2, 3)
    ],
    Case(
        # Indented 3: up to three columns of indentation are removed from each body line, so
        # the error column is the document's.
        "fence-indented-3-error",
        {SPEC: doc("# Demo", "", "   ```gemstack-contracts", "   [", '     {"a": NaN}', "   ]", "   ```")},
        ((UNSEEN, SPEC, 2, 0), (PARSE, SPEC, 4, 11)),
    ),
    Case(
        # Four spaces: indented code, not a fence. No block, so the broken JSON is not read.
        "fence-indented-4-is-code",
        {SPEC: doc("# Demo", "", "    ```gemstack-contracts", "    [1,]", "    ```", "", "Text.")},
    ),
    Case(
        "fence-in-list-item",
        {
            SPEC: doc(
                "# Demo",
                "",
                "- item one",
                "",
                "  ```gemstack-contracts",
                "  [",
                "  " + CONTRACT,
                "  ]",
                "  ```",
            )
        },
        ((UNSEEN, SPEC, 4, 0),),
    ),
    Case(
        "fence-in-list-item-error",
        {
            SPEC: doc(
                "# Demo",
                "",
                "1. item one",
                "",
                "   ```gemstack-contracts",
                "   [",
                '     {"a": 1,}',
                "   ]",
                "   ```",
            )
        },
        # `     {"a": 1,}`: five spaces, then the comma at 5 + 7.
        ((UNSEEN, SPEC, 4, 0), (PARSE, SPEC, 6, 12)),
    ),
    Case(
        "fence-in-blockquote",
        {SPEC: doc("# Demo", "", "> ```gemstack-contracts", "> [", "> " + CONTRACT, "> ]", "> ```")},
        ((UNSEEN, SPEC, 2, 0),),
    ),
    Case(
        "fence-in-blockquote-error",
        {SPEC: doc("# Demo", "", "> ```gemstack-contracts", "> [", '>   {"a": 1,}', "> ]", "> ```")},
        ((UNSEEN, SPEC, 2, 0), (PARSE, SPEC, 4, 11)),
    ),
    Case(
        "fence-in-blockquote-non-ascii-error",
        {SPEC: doc("> ```gemstack-contracts", '> ["ü😀", NaN]', "> ```")},
        # `> ["ü😀", NaN]`: 2 + [ " ü 😀(2) " , space = 2 + 8 units.
        ((UNSEEN, SPEC, 0, 0), (PARSE, SPEC, 1, 10)),
    ),
    Case(
        # Markdown runs an unterminated fence to the end of the document; the reference drops it.
        "fence-unterminated",
        {SPEC: doc("# Demo", "```gemstack-contracts", "[", CONTRACT, "]")},
        ((UNSEEN, SPEC, 1, 0),),
    ),
    Case(
        # Still typing: the JSON ends with the document. No closing fence to show the
        # end-of-input error on, so it is shown on the opening fence.
        "fence-unterminated-truncated",
        {SPEC: doc("# Demo", "```gemstack-contracts", "[", '  {"id": "c1",')},
        ((UNSEEN, SPEC, 1, 0), (PARSE, SPEC, 1, 0)),
    ),
    Case(
        "fence-extra-info-words",
        {SPEC: doc("# Demo", "```gemstack-contracts json frozen", "[", CONTRACT, "]", "```")},
        ((UNSEEN, SPEC, 1, 0),),
    ),
    Case(
        # Trailing blanks on the fence lines: the reference right-trims, Markdown ignores them.
        "fence-trailing-blanks",
        {SPEC: doc("# Demo", "```gemstack-contracts   ", "[", CONTRACT, "]", "```  ")},
    ),
    Case(
        "fence-two-blocks-one-kind",
        {
            SPEC: doc(
                "# Demo",
                "```gemstack-contracts",
                "[",
                CONTRACT,
                "]",
                "```",
                "",
                "```gemstack-contracts",
                "[]",
                "```",
            )
        },
        ((PARSE, SPEC, 7, 0),),
    ),
    Case(
        "fence-three-blocks-one-kind",
        {
            SPEC: doc(
                "```gemstack-test-matrix",
                "[]",
                "```",
                "```gemstack-test-matrix",
                "[]",
                "```",
                "```gemstack-test-matrix",
                "[]",
                "```",
            )
        },
        (("TEST_MATRIX_PARSE_ERROR", SPEC, 3, 0),),
    ),
    Case(
        # A Gemstack fence line shown as an example inside another code block: Markdown has no
        # block there (its broken JSON is not read), the reference would read one.
        "fence-inside-other-fence",
        {
            SPEC: doc(
                "# Demo",
                "````markdown",
                "```gemstack-contracts",
                "[1,]",
                "```",
                "````",
            )
        },
        ((UNSEEN, SPEC, 2, 0),),
    ),
    Case(
        "fence-inside-tilde-fence",
        {SPEC: doc("~~~", "```gemstack-closure-gates", "not json", "```", "~~~")},
        ((UNSEEN, SPEC, 1, 0),),
    ),
    Case(
        # Our own kinds are not read by the reference: no FENCE_UNSEEN_BY_REFERENCE for them.
        "fence-tilde-own-kind",
        {SPEC: doc("~~~gemstack-capabilities", "[]", "~~~")},
    ),
    Case(
        # An unknown gemstack-* kind is an ordinary code block.
        "fence-unknown-kind",
        {SPEC: doc("```gemstack-unknown", "{not json", "```")},
    ),
    # More CommonMark structure around a fence.
    Case(
        # The unindented line ends the list item, and with it the (empty) block.
        "fence-list-item-dedent-ends-block",
        {SPEC: doc("- ```gemstack-contracts", "[1,]", "```")},
        ((UNSEEN, SPEC, 0, 0), (PARSE, SPEC, 0, 0)),
    ),
    Case(
        # A line without ">" ends the blockquote and the block (no lazy continuation in code).
        "fence-blockquote-lazy-line-ends-block",
        {SPEC: doc("> ```gemstack-contracts", "> [", CONTRACT, "> ]", "> ```")},
        ((UNSEEN, SPEC, 0, 0), (PARSE, SPEC, 0, 0)),
    ),
    Case(
        "fence-blockquote-list-item",
        {SPEC: doc("> - item", ">", ">   ```gemstack-contracts", ">   [1,]", ">   ```")},
        ((UNSEEN, SPEC, 2, 0), (PARSE, SPEC, 3, 6)),
    ),
    Case(
        # A tab in a list item's body: two of its four columns belong to the item.
        "fence-list-item-tab-body",
        {SPEC: doc("- ```gemstack-contracts", "\t[1,]", "  ```")},
        ((UNSEEN, SPEC, 0, 0), (PARSE, SPEC, 1, 3)),
    ),
    Case("fence-tab-indented-is-code", {SPEC: doc("\t```gemstack-contracts", "\t[1,]", "\t```")}),
    Case("fence-backtick-in-info-is-no-fence", {SPEC: doc("```gemstack-contracts `x`", "[1,]")}),
    Case(
        "fence-closed-by-longer-fence",
        {SPEC: doc("```gemstack-contracts", "[", CONTRACT, "]", "````")},
        ((UNSEEN, SPEC, 0, 0),),
    ),
    Case(
        "fence-closed-by-indented-fence",
        {SPEC: doc("```gemstack-contracts", "[", CONTRACT, "]", "  ```")},
        ((UNSEEN, SPEC, 0, 0),),
    ),
    Case(
        # "``` x" closes nothing (for Markdown or the reference): it is body, and breaks the JSON.
        "fence-close-with-text-is-body",
        {SPEC: doc("```gemstack-contracts", "[", CONTRACT, "]", "``` x", "```")},
        ((PARSE, SPEC, 4, 0),),
    ),
    Case(
        "fence-tilde-not-closed-by-backticks",
        {SPEC: doc("~~~gemstack-contracts", "[1]", "```", "~~~")},
        ((UNSEEN, SPEC, 0, 0), (PARSE, SPEC, 2, 0)),
    ),
    Case(
        # An HTML block (a comment, a <div> without a blank line) hides the fence from Markdown.
        "fence-inside-html-comment",
        {SPEC: doc("<!--", "```gemstack-contracts", "[1,]", "```", "-->")},
        ((UNSEEN, SPEC, 1, 0),),
    ),
    Case(
        "fence-inside-html-div",
        {SPEC: doc("<div>", "```gemstack-contracts", "[1,]", "```", "</div>")},
        ((UNSEEN, SPEC, 1, 0),),
    ),
    Case(
        "fence-after-html-div-and-blank-line",
        {SPEC: doc("<div>", "", "```gemstack-contracts", "[1,]", "```", "", "</div>")},
        ((PARSE, SPEC, 3, 2),),
    ),
    Case(
        # Indented four columns past a list item's content: indented code, no fence.
        "fence-list-item-indented-code",
        {SPEC: doc("- a", "", "      ```gemstack-contracts", "      [1,]", "      ```")},
    ),
    # Positions through container prefixes and tabs (the body is not one slice of the document).
    Case(
        "fence-blockquote-duplicate-key",
        {
            SPEC: doc(
                "> ```gemstack-contracts",
                '> [{"id": "c", "type": "BOOLEAN_INVARIANT",',
                '>   "value": true, "id": "c"}]',
                "> ```",
            )
        },
        ((UNSEEN, SPEC, 0, 0), ("JSON_DUPLICATE_KEY", SPEC, 2, 19)),
    ),
    Case(
        # The tab's first two columns belong to the list item; the comma is the next character.
        "fence-list-item-partial-tab-error",
        {SPEC: doc("- ```gemstack-contracts", "\t,", "  ```")},
        ((UNSEEN, SPEC, 0, 0), (PARSE, SPEC, 1, 1)),
    ),
    Case(
        "fence-list-item-tab-and-spaces",
        {SPEC: doc("- ```gemstack-contracts", "\t  [1,]", "  ```")},
        ((UNSEEN, SPEC, 0, 0), (PARSE, SPEC, 1, 5)),
    ),
    Case(
        "fence-blockquote-tab",
        {SPEC: doc(">\t```gemstack-contracts", ">\t[1,]", ">\t```")},
        ((UNSEEN, SPEC, 0, 0), (PARSE, SPEC, 1, 4)),
    ),
    Case(
        "fence-blockquote-end-of-input",
        {SPEC: doc("> ```gemstack-contracts", "> [", "> ```")},
        ((UNSEEN, SPEC, 0, 0), (PARSE, SPEC, 2, 0)),
    ),
    Case(
        "fence-list-item-unterminated-no-final-newline",
        {SPEC: "- ```gemstack-contracts\n  [1,]"},
        ((UNSEEN, SPEC, 0, 0), (PARSE, SPEC, 1, 4)),
    ),
]
