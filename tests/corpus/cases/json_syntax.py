"""Malformed JSON inside each block kind: the error sits on the offending token.

Each malformation is a block body and where its error starts, as (body line, UTF-16 column);
``CLOSE`` means the closing fence line (an error at the end of the input has no token, so it
is shown on the fence that ends the block). The block opens on line 2 of spec.md, so body
line ``k`` is document line ``3 + k``.
"""

from __future__ import annotations

from corpus.cases.common import KINDS, PARSE_CODE, SPEC, doc
from corpus.harness import Case

CLOSE = -1

MALFORMED: dict[str, tuple[list[str], tuple[int, int]]] = {
    "trailing-comma-array": (["[", '  {"a": 1},', "]"], (1, 10)),
    "trailing-comma-object": (['{"a": 1,}'], (0, 7)),
    "line-comment": (["[", "  // note", '  {"a": 1}', "]"], (1, 2)),
    "block-comment": (["[ /* x */ 1 ]"], (0, 2)),
    "single-quotes": (["[", "  {'a': 1}", "]"], (1, 3)),
    "single-quoted-value": (["[", "  {\"a\": 'b'}", "]"], (1, 8)),
    "nan": (["[", '  {"a": NaN}', "]"], (1, 8)),
    "infinity": (["[-Infinity]"], (0, 1)),
    "unquoted-key": (["[{a: 1}]"], (0, 2)),
    "missing-comma": (["[1 2]"], (0, 3)),
    # A line break cannot be inside a string: the error is the raw line break that ends it
    # (where V8 reports it too), at the end of the line.
    "unterminated-string": (["[", '  {"a": "abc', "]"], (1, 12)),
    # Nothing after the string at all: the error is the string itself, from its quote.
    "unterminated-string-at-end": (['["abc'], (0, 1)),
    "truncated-after-colon": (["[", '  {"a": '], (CLOSE, 0)),
    "truncated-in-key": (["[", '  {"a'], (1, 3)),
    "truncated-after-comma": (["[", "  1,"], (CLOSE, 0)),
    "empty-body": ([], (CLOSE, 0)),
    "text-after-value": (["[]", "oops"], (1, 0)),
    "raw-tab-in-string": (['["a\tb"]'], (0, 3)),
    "bad-escape": (['["a\\qb"]'], (0, 3)),
    "leading-zero": (["[01]"], (0, 2)),
}


def _case(kind: str, name: str, body: list[str], where: tuple[int, int]) -> Case:
    lines = ["# Demo", "", "```" + kind, *body, "```", "", "Tail."]
    body_line, column = where
    line = 3 + len(body) if body_line == CLOSE else 3 + body_line
    return Case(
        f"json-{name}-{kind}",
        {SPEC: doc(*lines)},
        ((PARSE_CODE[kind], SPEC, line, column),),
    )


CASES = [_case(kind, name, body, where) for kind in KINDS for name, (body, where) in MALFORMED.items()]

# Repeated keys: a warning on the second key, and the block is read with the last value.
CASES += [
    Case(
        "duplicate-key-contract",
        {
            SPEC: doc(
                "# Demo",
                "```gemstack-contracts",
                '[{"id": "c1", "type": "BOOLEAN_INVARIANT", "value": "x", "value": true}]',
                "```",
            )
        },
        (("JSON_DUPLICATE_KEY", SPEC, 2, 57),),
    ),
    Case(
        # The first "value" is the valid one, the last (kept) one breaks the rule.
        "duplicate-key-last-wins",
        {
            SPEC: doc(
                "# Demo",
                "```gemstack-contracts",
                '[{"id": "c1", "type": "BOOLEAN_INVARIANT", "value": true, "value": "x"}]',
                "```",
            )
        },
        (("JSON_DUPLICATE_KEY", SPEC, 2, 58), ("CONTRACT_INVALID_SHAPE", SPEC, 2, 67)),
    ),
    Case(
        "duplicate-key-nested-matrix",
        {
            SPEC: doc(
                "```gemstack-test-matrix",
                "[",
                '  {"id": "TEST-DEMO-A01", "category": "C", "layer": "UNIT", "description": "d",',
                '   "pass_criteria": "p", "gate": "REQUIRED", "gate": "REQUIRED"}',
                "]",
                "```",
            )
        },
        (("JSON_DUPLICATE_KEY", SPEC, 3, 45),),
    ),
]

# Non-ASCII text before the error: columns count UTF-16 code units (an emoji is two).
_PREAMBLE = ["# Café — naïve façade", "┌──────┐ a ≠ b", "emoji 😀🎉 here", ""]
CASES += [
    Case(
        f"non-ascii-{name}",
        {SPEC: doc(*_PREAMBLE, "```gemstack-contracts", *body, "```")},
        (("CONTRACT_PARSE_ERROR", SPEC, 5 + line, column),),
    )
    for name, body, line, column in (
        # `  {"é─≠😀": 1,}`: 4 + é ─ ≠ (3) + 😀 (2) = 9 is the closing quote, the comma at 13.
        ("same-line-accents-emoji", ["[", '  {"é─≠😀": 1,}', "]"], 1, 13),
        # `["😀😀", NaN]`: NaN starts after 1 + 1 + 4 + 1 + 1 + 1 units.
        ("after-two-emoji", ['["😀😀", NaN]'], 0, 9),
        # Box drawing is one unit each: `──` then the single-quoted string.
        ("box-drawing", ["[\"──\", 'x']"], 0, 7),
        # Only ASCII on the error line: the non-ASCII lines before it change nothing.
        ("error-line-ascii", ["[", '  {"a": 1,}', "]"], 1, 9),
    )
]
