"""Every gemstack-test-matrix rule (reference section 9.2), and the bindings and gates rules."""

from __future__ import annotations

from corpus.cases.common import BINDING, MATRIX_ENTRY, PLAN, SPEC, at, block_case, col, doc
from corpus.harness import Case

M = "gemstack-test-matrix"
SHAPE = "TEST_MATRIX_INVALID_SHAPE"
DUP = "TEST_MATRIX_DUPLICATE_ID"


def entry(**fields: object) -> str:
    """A matrix entry on one line: the valid one with ``fields`` replaced (None drops a key)."""
    base: dict[str, object] = {
        "id": "TEST-DEMO-A01",
        "category": "C",
        "layer": "UNIT",
        "description": "d",
        "pass_criteria": "p",
        "gate": "REQUIRED",
    }
    for k, v in fields.items():
        if v is None:
            base.pop(k, None)
        else:
            base[k] = v
    import json

    return json.dumps(base, ensure_ascii=False)


def _m(name: str, items: list[str], expected: list[tuple[str, int, str, int]]) -> Case:
    return block_case(f"matrix-{name}", SPEC, M, items, expected)


CASES: list[Case] = [
    _m("valid", [entry(), entry(id="TEST-DEMO-A02", layer="E2E", gate="SUPPLEMENTAL")], []),
    Case("matrix-root-object", {SPEC: doc("```gemstack-test-matrix", "{}", "```")}, ((SHAPE, SPEC, 1, 0),)),
    _m("non-object-items", ["1", "null", "[]"], [at(SHAPE, 0, "1"), at(SHAPE, 1, "null"), at(SHAPE, 2, "[")]),
    _m("unknown-field", [entry(owner="me")], [at(SHAPE, 0, '"owner"')]),
    _m("missing-field", [entry(gate=None)], [at(SHAPE, 0, "{")]),
    _m("missing-three-fields", [entry(gate=None, layer=None, description=None)], [at(SHAPE, 0, "{")] * 3),
    _m("empty-field", [entry(category="")], [at(SHAPE, 0, '""')]),
    _m("blank-field", [entry(pass_criteria="   ")], [at(SHAPE, 0, '"   "')]),
    _m("non-string-field", [entry(description=3)], [at(SHAPE, 0, "3")]),
    _m("lowercase-id", [entry(id="TEST-demo-A01")], [at(SHAPE, 0, '"TEST-demo-A01"')]),
    _m("short-id", [entry(id="TEST-A01")], [at(SHAPE, 0, '"TEST-A01"')]),
    _m("id-with-suffix", [entry(id="TEST-DEMO-A01-X")], [at(SHAPE, 0, '"TEST-DEMO-A01-X"')]),
    _m("duplicate-id", [entry(), entry(layer="CLI")], [at(DUP, 1, '"TEST-DEMO-A01"')]),
    _m("invalid-layer", [entry(layer="SYSTEM")], [at(SHAPE, 0, '"SYSTEM"')]),
    _m("invalid-gate", [entry(gate="OPTIONAL")], [at(SHAPE, 0, '"OPTIONAL"')]),
    _m(
        "every-rule-at-once",
        [entry(id="bad", layer="X", gate="Y", extra=1), entry(id="bad", category=None)],
        [
            at(SHAPE, 0, '"extra"'),
            at(SHAPE, 0, '"bad"'),
            at(SHAPE, 0, '"X"'),
            at(SHAPE, 0, '"Y"'),
            at(SHAPE, 1, "{"),
            at(SHAPE, 1, '"bad"'),
            at(DUP, 1, '"bad"'),
        ],
    ),
    _m("non-ascii-values", [entry(description="ça ≠ 😀", category="─")], []),
]

# ----------------------------------------------------------------------------------------------
# Bindings (plan.md) against the spec's matrix, and the bindings rules.

B = "gemstack-test-bindings"
BPARSE = "BINDINGS_PARSE_ERROR"
_SPEC_WITH_MATRIX = doc("# Demo", "```gemstack-test-matrix", "[", "  " + MATRIX_ENTRY.strip(), "]", "```")


_BROKEN_FIRST = entry().replace('"UNIT"', "'UNIT'") + ","
_BROKEN_MATRIX = doc("```gemstack-test-matrix", "[", _BROKEN_FIRST, entry(id="TEST-DEMO-A02"), "]", "```")
_SECOND_BINDING = '  {"test_id": "TEST-DEMO-A02", "file": "tests/b.test.js"}'


def _b(name: str, items: list[str], expected: list[tuple[str, int, str, int]]) -> Case:
    return block_case(f"bindings-{name}", PLAN, B, items, expected, extra={SPEC: _SPEC_WITH_MATRIX})


CASES += [
    _b("valid", [BINDING.strip()], []),
    # ``test_id || id``: the id key stands in for test_id.
    _b("id-alias", ['{"id": "TEST-DEMO-A01", "runner": "jest", "file": "t/b.js"}'], []),
    _b("unknown-test-id", ['{"test_id": "TEST-DEMO-Z99", "file": "tests/z.js"}'], [at(BPARSE, 0, '"TEST-DEMO-Z99"')]),
    _b("item-not-object", ['"TEST-DEMO-A01"'], [at(BPARSE, 0, '"TEST-DEMO-A01"')]),
    _b("missing-test-id", ['{"file": "tests/a.js"}'], [at(BPARSE, 0, "{")]),
    _b("missing-file", ['{"test_id": "TEST-DEMO-A01"}'], [at(BPARSE, 0, "{")]),
    _b("absolute-file", ['{"test_id": "TEST-DEMO-A01", "file": "/abs/a.js"}'], [at(BPARSE, 0, '"/abs/a.js"')]),
    _b(
        "parent-file",
        ['{"test_id": "TEST-DEMO-A01", "file": "..\\\\up\\\\a.js"}'],
        [at(BPARSE, 0, '"..\\\\up')],
    ),
    _b(
        "duplicate",
        [BINDING.strip(), '{"test_id": "TEST-DEMO-A01", "file": "tests/b.js"}'],
        [at("DUPLICATE_TEST_BINDING", 1, '"TEST-DEMO-A01"')],
    ),
    # A matrix broken by a syntax error in its first entry: the entries after the error are
    # unknown, so no binding is reported as unknown (fixed in core/documents.py).
    Case(
        "bindings-matrix-broken-midway",
        {SPEC: _BROKEN_MATRIX, PLAN: doc("```gemstack-test-bindings", "[", BINDING, ",", _SECOND_BINDING, "]", "```")},
        (("TEST_MATRIX_PARSE_ERROR", SPEC, 2, col(_BROKEN_FIRST, "'UNIT'")),),
    ),
    # Without a matrix in spec.md there is nothing to check the ids against.
    block_case("bindings-no-matrix", PLAN, B, ['{"test_id": "TEST-X-Y", "file": "a.js"}'], []),
]

# ----------------------------------------------------------------------------------------------
# Closure gates (plan.md).

G = "gemstack-closure-gates"
GPARSE = "GATES_PARSE_ERROR"


def _g(name: str, items: list[str], expected: list[tuple[str, int, str, int]]) -> Case:
    return block_case(f"gates-{name}", PLAN, G, items, expected)


CASES += [
    _g(
        "valid",
        [
            '{"id": "g1", "type": "PACKAGE_SCRIPT", "script": "test", "requirement": "REQUIRED", "waivable": false}',
            '{"id": "g2", "type": "PACKAGE_SCRIPT", "script": "lint", "requirement": "SUPPLEMENTAL"}',
        ],
        [],
    ),
    _g("not-object", ["7"], [at(GPARSE, 0, "7")]),
    _g(
        "missing-id",
        ['{"type": "PACKAGE_SCRIPT", "script": "t", "requirement": "SUPPLEMENTAL"}'],
        [at(GPARSE, 0, "{")],
    ),
    _g(
        "duplicate-id",
        [
            '{"id": "g", "type": "PACKAGE_SCRIPT", "script": "t", "requirement": "SUPPLEMENTAL"}',
            '{"id": "g", "type": "PACKAGE_SCRIPT", "script": "u", "requirement": "SUPPLEMENTAL"}',
        ],
        [at(GPARSE, 1, '"g"')],
    ),
    _g(
        "bad-type",
        ['{"id": "g", "type": "SHELL", "script": "t", "requirement": "SUPPLEMENTAL"}'],
        [at(GPARSE, 0, '"SHELL"')],
    ),
    _g(
        "missing-script", ['{"id": "g", "type": "PACKAGE_SCRIPT", "requirement": "SUPPLEMENTAL"}'], [at(GPARSE, 0, "{")]
    ),
    _g(
        "bad-requirement",
        ['{"id": "g", "type": "PACKAGE_SCRIPT", "script": "t", "requirement": "MUST"}'],
        [at(GPARSE, 0, '"MUST"')],
    ),
    _g(
        "required-without-waivable",
        ['{"id": "g", "type": "PACKAGE_SCRIPT", "script": "t", "requirement": "REQUIRED", "waivable": "no"}'],
        [at(GPARSE, 0, '"no"')],
    ),
]
