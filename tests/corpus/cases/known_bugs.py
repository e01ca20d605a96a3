"""Cases that show bugs of modules this corpus does not own, with the correct expectation.

Each list is run by its own test function in ``test_corpus.py`` (the bug is described in that
function's docstring); they fail until the module named there is fixed.
"""

from __future__ import annotations

from corpus.cases.common import PLAN, SPEC, STATE, doc
from corpus.harness import Case, Symlink

_HUGE_INT = "1" * 5000  # more digits than Python's int-from-string limit (4300)
_BIG_INT = "1" + "0" * 400  # beyond the largest float: JavaScript reads it as Infinity
_BROKEN = doc("```gemstack-contracts", "[", '  {"a": 1},', "]", "```")

#: jsonspan: integer literals longer than 4300 digits.
LONG_INTEGER = [
    # JSON.parse reads it (as 1.111e4999, i.e. Infinity): an unknown key of state.json, no finding.
    Case(
        "long-integer-state",
        {STATE: '{"x": ' + _HUGE_INT + "}", SPEC: _BROKEN},
        (("CONTRACT_PARSE_ERROR", SPEC, 2, 10),),
    ),
    Case(
        "long-integer-contract-item",
        {SPEC: doc("```gemstack-contracts", "[" + _HUGE_INT + "]", "```")},
        (("CONTRACT_INVALID_SHAPE", SPEC, 1, 1),),
    ),
    Case(
        "long-integer-capabilities-item",
        {SPEC: doc("```gemstack-capabilities", "[" + _HUGE_INT + "]", "```")},
        (("CAPABILITIES_INVALID", SPEC, 1, 1),),
    ),
]

#: blocks/base.py js_number: an integer beyond the float range in a message.
HUGE_NUMBER_IN_MESSAGE = [
    Case(
        "big-int-contract-type",
        {SPEC: doc("```gemstack-contracts", '[{"id": "c", "type": ' + _BIG_INT + "}]", "```")},
        (("CONTRACT_UNKNOWN_TYPE", SPEC, 1, 21),),
    ),
    Case(
        "big-int-boundary-value",
        {SPEC: doc("```gemstack-contracts", '[{"id": "c", "type": "BOUNDARY", "value": ' + _BIG_INT + "}]", "```")},
        (("CONTRACT_INVALID_SHAPE", SPEC, 1, 42),),
    ),
    Case(
        "big-int-gate-type",
        {
            PLAN: doc(
                "```gemstack-closure-gates",
                '[{"id": "g", "type": ' + _BIG_INT + ', "requirement": "SUPPLEMENTAL"}]',
                "```",
            )
        },
        (("GATES_PARSE_ERROR", PLAN, 1, 21),),
    ),
    Case(
        "big-int-matrix-id",
        {SPEC: doc("```gemstack-test-matrix", '[{"id": ' + _BIG_INT + "}]", "```")},
        (("TEST_MATRIX_INVALID_SHAPE", SPEC, 1, 1),) * 5 + (("TEST_MATRIX_INVALID_SHAPE", SPEC, 1, 8),),
    ),
]


def _nested(kind: str, depth: int) -> str:
    return doc("```" + kind, "[" + "[" * depth + "]" * depth + "]", "```")


#: jsonspan to_python (schema validation of gemstack-capabilities / gemstack-billable-actions):
#: recursion on deeply nested arrays.
DEEP_NESTING_SCHEMA_BLOCKS = [
    Case("deep-capabilities", {SPEC: _nested("gemstack-capabilities", 800)}, (("CAPABILITIES_INVALID", SPEC, 1, 1),)),
    Case(
        "deep-billable-actions",
        {SPEC: _nested("gemstack-billable-actions", 800)},
        (("BILLABLE_ACTIONS_INVALID", SPEC, 1, 1),),
    ),
]

#: capsule/canonical.py parse_json (json.loads): recursion on a deeply nested contracts block.
DEEP_NESTING_CAPSULE = [
    Case(
        "deep-contracts-capsule",
        {SPEC: _nested("gemstack-contracts", 1200)},
        (("CONTRACT_INVALID_SHAPE", SPEC, 1, 1), ("CONTRACT_UNKNOWN_TYPE", SPEC, 1, 1)),
    ),
]

#: fs.py DiskReader: a feature folder that is a symlink leading outside the repository.
FEATURE_FOLDER_SYMLINK_OUTSIDE = [
    Case(
        # Only spec.md exists behind the link: plan.md and tasks.md are absent, not unreadable.
        "feature-folder-symlink-outside",
        {"specs/evil": Symlink("feat", outside=True)},
        (("ARTIFACT_UNREADABLE", "specs/evil/spec.md", 0, 0),),
        outside={"feat/spec.md": _BROKEN},
    ),
]

#: markdown.py ``_kind_of``: the info string's first word split on Unicode whitespace.
INFO_STRING_UNICODE_WHITESPACE = [
    *[
        Case(
            # The reference right-trims with JavaScript's whitespace, so it reads this block;
            # CommonMark's first word of the info string is gemstack-contracts too.
            f"info-trailing-{name}",
            {SPEC: doc("```gemstack-contracts" + ws, "[1,]", "```")},
            (("CONTRACT_PARSE_ERROR", SPEC, 1, 2),),
        )
        for name, ws in (("nbsp", "\u00a0"), ("ideographic-space", "\u3000"), ("form-feed", "\x0c"))
    ],
    Case(
        # A second word after a no-break space: Markdown shows a gemstack-contracts block, the
        # reference (whose opener must be exact) does not.
        "info-nbsp-second-word",
        {SPEC: doc("```gemstack-contracts\u00a0json", "[1,]", "```")},
        (("FENCE_UNSEEN_BY_REFERENCE", SPEC, 0, 0), ("CONTRACT_PARSE_ERROR", SPEC, 1, 2)),
    ),
]
