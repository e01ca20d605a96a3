"""Every gemstack-contracts rule (reference section 9.1), and the phase comparison.

Each finding sits on the narrowest node that explains it: the offending value, or the contract
object when a required key is absent.
"""

from __future__ import annotations

from corpus.cases.common import PLAN, SPEC, TASKS, at, block_case, col, doc
from corpus.harness import Case

K = "gemstack-contracts"
SHAPE = "CONTRACT_INVALID_SHAPE"
UNKNOWN = "CONTRACT_UNKNOWN_TYPE"
DUP = "CONTRACT_DUPLICATE_ID"


def _c(name: str, items: list[str], expected: list[tuple[str, int, str, int]]) -> Case:
    return block_case(f"contract-{name}", SPEC, K, items, expected)


CASES: list[Case] = [
    _c(
        "valid-every-type",
        [
            '{"id": "e", "type": "ENUM_SET", "values": ["a", "b"]}',
            '{"id": "i", "type": "IDENTITY_TUPLE", "values": ["x", "y"]}',
            '{"id": "p", "type": "PROVENANCE_RULE", "entity": "Order", "values": ["source"]}',
            '{"id": "b", "type": "BOOLEAN_INVARIANT", "value": false, "description": "extra keys are fine"}',
            '{"id": "f", "type": "BOUNDARY", "value": "FORBIDDEN"}',
            '{"id": "r", "type": "BOUNDARY", "value": "REQUIRED"}',
            '{"id": "n", "type": "ROADMAP_LIMIT", "value": 3}',
            '{"id": "s", "type": "ROADMAP_LIMIT", "value": "v2"}',
        ],
        [],
    ),
    Case("contract-empty-array", {SPEC: doc("```gemstack-contracts", "[]", "```")}),
    Case(
        "contract-root-object",
        {
            SPEC: doc(
                "# Demo", "```gemstack-contracts", '{"id": "c1", "type": "BOOLEAN_INVARIANT", "value": true}', "```"
            )
        },
        ((SHAPE, SPEC, 2, 0),),
    ),
    Case(
        "contract-root-string",
        {SPEC: doc("# Demo", "```gemstack-contracts", '  "contracts"', "```")},
        ((SHAPE, SPEC, 2, 2),),
    ),
    _c(
        "non-object-items",
        ["1", "null", '"c1"', "true"],
        [at(SHAPE, 0, "1"), at(SHAPE, 1, "null"), at(SHAPE, 2, '"c1"'), at(SHAPE, 3, "true")],
    ),
    # An array is an object to JavaScript: it passes the first rule and fails the next ones.
    _c("array-item", ["[]"], [at(SHAPE, 0, "["), at(UNKNOWN, 0, "[")]),
    _c("missing-id", ['{"type": "BOOLEAN_INVARIANT", "value": true}'], [at(SHAPE, 0, "{")]),
    _c("blank-id", ['{"id": "  ", "type": "BOOLEAN_INVARIANT", "value": true}'], [at(SHAPE, 0, '"  "')]),
    _c("numeric-id", ['{"id": 7, "type": "BOOLEAN_INVARIANT", "value": true}'], [at(SHAPE, 0, "7")]),
    _c(
        "duplicate-id",
        [
            '{"id": "c1", "type": "BOOLEAN_INVARIANT", "value": true}',
            '{"id": "c2", "type": "BOOLEAN_INVARIANT", "value": true}',
            '{"id": "c1", "type": "BOUNDARY", "value": "REQUIRED"}',
        ],
        [at(DUP, 2, '"c1"')],
    ),
    _c("unknown-type", ['{"id": "c1", "type": "ENUM", "values": []}'], [at(UNKNOWN, 0, '"ENUM"')]),
    _c("lowercase-type", ['{"id": "c1", "type": "boundary", "value": "FORBIDDEN"}'], [at(UNKNOWN, 0, '"boundary"')]),
    _c("missing-type", ['{"id": "c1", "value": true}'], [at(UNKNOWN, 0, "{")]),
    _c("numeric-type", ['{"id": "c1", "type": 5}'], [at(UNKNOWN, 0, "5")]),
    _c("enum-set-no-values", ['{"id": "e", "type": "ENUM_SET"}'], [at(SHAPE, 0, "{")]),
    _c("enum-set-values-string", ['{"id": "e", "type": "ENUM_SET", "values": "a,b"}'], [at(SHAPE, 0, '"a,b"')]),
    _c(
        "enum-set-bad-members",
        ['{"id": "e", "type": "ENUM_SET", "values": ["a", "", 3, " ", null]}'],
        [at(SHAPE, 0, '""'), at(SHAPE, 0, "3"), at(SHAPE, 0, '" "'), at(SHAPE, 0, "null")],
    ),
    _c(
        "enum-set-duplicate-after-trim",
        ['{"id": "e", "type": "ENUM_SET", "values": ["a", "b", " a "]}'],
        [at(SHAPE, 0, '" a "')],
    ),
    _c("identity-tuple-no-values", ['{"id": "i", "type": "IDENTITY_TUPLE", "values": null}'], [at(SHAPE, 0, "null")]),
    _c(
        "identity-tuple-bad-dimension",
        ['{"id": "i", "type": "IDENTITY_TUPLE", "values": ["x", false]}'],
        [at(SHAPE, 0, "false")],
    ),
    _c(
        "identity-tuple-duplicate",
        ['{"id": "i", "type": "IDENTITY_TUPLE", "values": ["x", "y", "x"]}'],
        [at(SHAPE, 0, '"x"', 2)],
    ),
    _c("provenance-no-entity", ['{"id": "p", "type": "PROVENANCE_RULE", "values": ["s"]}'], [at(SHAPE, 0, "{")]),
    _c(
        "provenance-blank-entity",
        ['{"id": "p", "type": "PROVENANCE_RULE", "entity": " ", "values": ["s"]}'],
        [at(SHAPE, 0, '" "')],
    ),
    _c(
        "provenance-no-values",
        ['{"id": "p", "type": "PROVENANCE_RULE", "entity": "Order"}'],
        [at(SHAPE, 0, "{")],
    ),
    _c(
        "provenance-neither",
        ['{"id": "p", "type": "PROVENANCE_RULE"}'],
        [at(SHAPE, 0, "{"), at(SHAPE, 0, "{")],
    ),
    _c(
        "provenance-bad-field",
        ['{"id": "p", "type": "PROVENANCE_RULE", "entity": "Order", "values": ["s", ""]}'],
        [at(SHAPE, 0, '""')],
    ),
    _c("boolean-string", ['{"id": "b", "type": "BOOLEAN_INVARIANT", "value": "true"}'], [at(SHAPE, 0, '"true"')]),
    _c("boolean-number", ['{"id": "b", "type": "BOOLEAN_INVARIANT", "value": 1}'], [at(SHAPE, 0, "1")]),
    _c("boolean-missing", ['{"id": "b", "type": "BOOLEAN_INVARIANT"}'], [at(SHAPE, 0, "{")]),
    _c("boundary-other", ['{"id": "f", "type": "BOUNDARY", "value": "ALLOWED"}'], [at(SHAPE, 0, '"ALLOWED"')]),
    _c("boundary-lowercase", ['{"id": "f", "type": "BOUNDARY", "value": "forbidden"}'], [at(SHAPE, 0, '"forbidden"')]),
    _c("boundary-missing", ['{"id": "f", "type": "BOUNDARY"}'], [at(SHAPE, 0, "{")]),
    _c("roadmap-bool", ['{"id": "r", "type": "ROADMAP_LIMIT", "value": true}'], [at(SHAPE, 0, "true")]),
    _c("roadmap-null", ['{"id": "r", "type": "ROADMAP_LIMIT", "value": null}'], [at(SHAPE, 0, "null")]),
    _c("roadmap-array", ['{"id": "r", "type": "ROADMAP_LIMIT", "value": [3]}'], [at(SHAPE, 0, "[")]),
    _c(
        # Every violation is reported, not only the first, each on its own item.
        "several-items-several-rules",
        [
            '{"id": "a", "type": "BOOLEAN_INVARIANT", "value": "yes"}',
            '{"id": "a", "type": "NOPE"}',
            '{"type": "BOUNDARY", "value": "MAYBE"}',
        ],
        [
            at(SHAPE, 0, '"yes"'),
            at(DUP, 1, '"a"'),
            at(UNKNOWN, 1, '"NOPE"'),
            at(SHAPE, 2, "{"),
            at(SHAPE, 2, '"MAYBE"'),
        ],
    ),
]

# ----------------------------------------------------------------------------------------------
# Phase comparison: plan.md and tasks.md against the frozen contracts of spec.md.

FROZEN = "FROZEN_CONTRACT_VIOLATION"
_SPEC_ITEMS = [
    '{"id": "b", "type": "BOOLEAN_INVARIANT", "value": true}',
    '{"id": "e", "type": "ENUM_SET", "values": ["a", "b"]}',
    '{"id": "t", "type": "IDENTITY_TUPLE", "values": ["x", "y"]}',
    '{"id": "p", "type": "PROVENANCE_RULE", "entity": "Order", "values": ["source"]}',
    '{"id": "f", "type": "BOUNDARY", "value": "FORBIDDEN"}',
    '{"id": "r", "type": "ROADMAP_LIMIT", "value": 3}',
]
_SPEC_DOC = block_case("spec", SPEC, K, _SPEC_ITEMS, []).files[SPEC]


def _phase(name: str, path: str, items: list[str], expected: list[tuple[str, int, str, int]]) -> Case:
    case = block_case(f"frozen-{name}", path, K, items, expected, extra={SPEC: _SPEC_DOC})
    return case


CASES += [
    _phase(
        "plan-agrees",
        PLAN,
        [
            '{"id": "b", "type": "BOOLEAN_INVARIANT", "value": true}',
            '{"id": "e", "type": "ENUM_SET", "values": [" b", "a"]}',
            '{"id": "new", "type": "BOUNDARY", "value": "REQUIRED"}',
        ],
        [],
    ),
    _phase(
        "type-mutation",
        PLAN,
        ['{"id": "b", "type": "BOUNDARY", "value": "FORBIDDEN"}'],
        [at(FROZEN, 0, '"BOUNDARY"')],
    ),
    _phase("boolean", PLAN, ['{"id": "b", "type": "BOOLEAN_INVARIANT", "value": false}'], [at(FROZEN, 0, "false")]),
    _phase("enum-set", PLAN, ['{"id": "e", "type": "ENUM_SET", "values": ["a", "c"]}'], [at(FROZEN, 0, '["a"')]),
    _phase(
        "identity-tuple",
        PLAN,
        ['{"id": "t", "type": "IDENTITY_TUPLE", "values": ["x"]}'],
        [at(FROZEN, 0, '["x"')],
    ),
    _phase(
        "provenance-entity",
        PLAN,
        ['{"id": "p", "type": "PROVENANCE_RULE", "entity": "Invoice", "values": ["source"]}'],
        [at(FROZEN, 0, '"Invoice"')],
    ),
    _phase(
        "provenance-values",
        PLAN,
        ['{"id": "p", "type": "PROVENANCE_RULE", "entity": "Order", "values": ["origin"]}'],
        [at(FROZEN, 0, '["origin"')],
    ),
    _phase("boundary", PLAN, ['{"id": "f", "type": "BOUNDARY", "value": "REQUIRED"}'], [at(FROZEN, 0, '"REQUIRED"')]),
    # 3 and "3" are different values to JavaScript's ===.
    _phase("roadmap", PLAN, ['{"id": "r", "type": "ROADMAP_LIMIT", "value": "3"}'], [at(FROZEN, 0, '"3"')]),
    _phase("roadmap-float", PLAN, ['{"id": "r", "type": "ROADMAP_LIMIT", "value": 3.0}'], []),
    _phase("tasks", TASKS, ['{"id": "b", "type": "BOOLEAN_INVARIANT", "value": false}'], [at(FROZEN, 0, "false")]),
]

# tasks.md is compared with spec.md plus plan.md's additions.
_PLAN_ADDS = block_case("plan", PLAN, K, ['{"id": "added", "type": "BOUNDARY", "value": "FORBIDDEN"}'], []).files[PLAN]
_tasks_line = '{"id": "added", "type": "BOUNDARY", "value": "REQUIRED"}'
CASES.append(
    Case(
        "frozen-tasks-against-plan-addition",
        {
            SPEC: _SPEC_DOC,
            PLAN: _PLAN_ADDS,
            TASKS: doc("# Tasks", "```gemstack-contracts", "[", _tasks_line, "]", "```"),
        },
        ((FROZEN, TASKS, 3, col(_tasks_line, '"REQUIRED"')),),
    )
)
