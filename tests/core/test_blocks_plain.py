"""Blocks read as plain values (``read_block(..., plain=True)``: contracts, the test matrix and
the test bindings) give exactly what the same blocks read as trees with spans give, and a clean block
makes no tree until something asks for a place."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gemstack_lsp.core.blocks import base, closure_gates, contracts, test_bindings, test_matrix
from gemstack_lsp.core.blocks.base import BlockResult, read_block
from gemstack_lsp.core.jsonspan import NOT_PLAIN, parse_json, plain_json

_VALUES = st.one_of(
    st.sampled_from(["TEST-AB-01", "TEST-X-1", "", "  ", "UNIT", "E2E", "BAD", "REQUIRED", "SUPPLEMENTAL"]),
    st.sampled_from(["tests/a.test.ts", "/abs/x.ts", "../up.ts", "a\\b.ts", "vitest"]),
    st.integers(-2, 2),
    st.none(),
    st.booleans(),
    st.just([]),
    st.just({}),
    st.just(1.5),
)
_CONTRACT_VALUES = st.one_of(
    _VALUES,
    st.sampled_from([*contracts.CONTRACT_TYPES, "FORBIDDEN", "REQUIRED", "c-1", "c-2"]),
    st.lists(st.sampled_from(["a", " a", "b", "", 1, None]), max_size=4),
)
_CONTRACT_KEYS = ["id", "type", "value", "values", "entity", "description"]
_MATRIX_KEYS = ["id", "category", "layer", "description", "pass_criteria", "gate", "extra"]
_BINDING_KEYS = ["test_id", "id", "file", "runner", "other"]


def _object(keys: list[str]) -> st.SearchStrategy[str]:
    """An object's text; a key may repeat (the block is then read as a tree)."""
    pairs = st.lists(st.tuples(st.sampled_from(keys), _VALUES), max_size=len(keys) + 1)
    return pairs.map(lambda ps: "{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in ps) + "}")


def _contract() -> st.SearchStrategy[str]:
    pairs = st.lists(st.tuples(st.sampled_from(_CONTRACT_KEYS), _CONTRACT_VALUES), max_size=7)
    return pairs.map(lambda ps: "{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in ps) + "}")


def _valid_entry() -> st.SearchStrategy[str]:
    return st.builds(
        lambda n, layer: json.dumps(
            {"id": f"TEST-AB-0{n}", "category": "c", "layer": layer, "description": "d", "pass_criteria": "p"}
            | {"gate": "REQUIRED"}
        ),
        st.integers(0, 4),
        st.sampled_from(["UNIT", "CLI"]),
    )


def _valid_binding() -> st.SearchStrategy[str]:
    return st.builds(
        lambda key, n, runner: json.dumps({key: f"TEST-AB-0{n}", "file": f"tests/t{n}.ts"} | runner),
        st.sampled_from(["test_id", "id"]),
        st.integers(0, 4),
        st.sampled_from([{}, {"runner": "vitest"}, {"runner": ""}]),
    )


def _block(item: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    items = st.lists(item | st.builds(lambda v: json.dumps(v), _VALUES), max_size=6)
    arrays = items.map(lambda xs: "[\n  " + ",\n  ".join(xs) + "\n]")
    return arrays | st.sampled_from(["{}", '"x"', "[1, 2", "[NaN]"])


def _document(matrix: str, bindings: str) -> str:
    return f"# Spec\n\nText.\n\n```gemstack-test-matrix\n{matrix}\n```\n\n```gemstack-test-bindings\n{bindings}\n```\n"


def _seen(result: BlockResult[Any]) -> tuple[Any, ...]:
    """Everything a reader can ask of a result: findings, items with their places, the tree."""
    items = []
    for item in result.items:
        spans = [
            getattr(item, name) for name in ("span", "id_span", "test_id_span", "file_span") if hasattr(item, name)
        ]
        items.append((item, spans, item.node))
    return (result.kind, result.findings, tuple(items), result.fence, result.root, result.present)


@settings(max_examples=300, deadline=None)
@given(_block(_object(_MATRIX_KEYS) | _valid_entry()), _block(_object(_BINDING_KEYS) | _valid_binding()))
def test_a_block_read_as_plain_values_gives_what_its_tree_gives(matrix: str, bindings: str) -> None:
    text = _document(matrix, bindings)
    plain = test_matrix.matrix_of(read_block("spec.md", text, test_matrix.INFO, plain=True))
    tree = test_matrix.matrix_of(read_block("spec.md", text, test_matrix.INFO))
    assert _seen(plain) == _seen(tree)
    assert plain == tree and hash(plain) == hash(tree)
    ids = {"TEST-AB-01", "TEST-AB-02"}
    source = read_block("plan.md", text, test_bindings.INFO, plain=True)
    plain_b = test_bindings.bindings_of(source, ids)
    tree_b = test_bindings.bindings_of(read_block("plan.md", text, test_bindings.INFO), ids)
    assert _seen(plain_b) == _seen(tree_b)
    assert pickle.loads(pickle.dumps(plain_b)) == tree_b


@settings(max_examples=300, deadline=None)
@given(_block(_contract()))
def test_contracts_read_as_plain_values_give_what_their_tree_gives(block: str) -> None:
    text = f"# Spec\n\n```gemstack-contracts\n{block}\n```\n"
    plain = contracts.contracts_of(read_block("spec.md", text, contracts.INFO, plain=True))
    tree = contracts.contracts_of(read_block("spec.md", text, contracts.INFO))
    assert _seen(plain) == _seen(tree)
    assert [f.fixes for f in plain.findings] == [f.fixes for f in tree.findings]
    for c, t in zip(plain.items, tree.items, strict=True):
        assert c.to_json() == t.node.to_python() and c.to_json() is not c.to_json()  # a copy each time
        assert (c.value_span, c.values_span, c.entity_span) == (t.value_span, t.values_span, t.entity_span)


_GATE_KEYS = ["id", "type", "script", "requirement", "waivable", "extra"]
_GATE_VALUES = st.one_of(
    _VALUES, st.sampled_from(["PACKAGE_SCRIPT", "REQUIRED", "SUPPLEMENTAL", "g", "h", "test"]), st.booleans()
)


def _gate() -> st.SearchStrategy[str]:
    """A gate's text; a key may repeat (the block is then read as a tree)."""
    pairs = st.lists(st.tuples(st.sampled_from(_GATE_KEYS), _GATE_VALUES), max_size=7)
    return pairs.map(lambda ps: "{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in ps) + "}")


def _valid_gate() -> st.SearchStrategy[str]:
    return st.builds(
        lambda gid, req, waivable: json.dumps(
            {"id": gid, "type": "PACKAGE_SCRIPT", "script": "test", "requirement": req} | waivable
        ),
        st.sampled_from(["g", "h"]),
        st.sampled_from(["REQUIRED", "SUPPLEMENTAL"]),
        st.sampled_from([{}, {"waivable": True}, {"waivable": 0}]),
    )


@settings(max_examples=300, deadline=None)
@given(_block(_gate() | _valid_gate()))
def test_closure_gates_read_as_plain_values_give_what_their_tree_gives(block: str) -> None:
    text = f"# Plan\n\n```gemstack-closure-gates\n{block}\n```\n"
    plain = closure_gates.gates_of(read_block("plan.md", text, closure_gates.INFO, plain=True))
    tree = closure_gates.gates_of(read_block("plan.md", text, closure_gates.INFO))
    assert _seen(plain) == _seen(tree)
    assert plain == tree and pickle.loads(pickle.dumps(plain)) == tree
    for gate in plain.items:
        assert text[gate.id_span.start : gate.id_span.end] == json.dumps(gate.id)


def test_a_clean_block_makes_no_tree_until_a_place_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[object] = []
    original = base.parse_fence_json

    def counted(fence: Any) -> Any:
        parsed.append(fence)
        return original(fence)

    monkeypatch.setattr(base, "parse_fence_json", counted)
    entry = {"id": "TEST-AB-01", "category": "c", "layer": "UNIT", "description": "d", "pass_criteria": "p"}
    text = _document(json.dumps([entry | {"gate": "REQUIRED"}], indent=2), "[]")
    result = test_matrix.parse_test_matrix("spec.md", text)
    assert result.findings == () and [e.id for e in result.items] == ["TEST-AB-01"]
    assert result.plain_value == [entry | {"gate": "REQUIRED"}]
    assert parsed == []  # values only so far
    span = result.items[0].id_span
    assert text[span.start : span.end] == '"TEST-AB-01"'
    assert len(parsed) == 1  # the tree, made once for the first place asked for
    assert result.root is not None and len(parsed) == 1


@pytest.mark.parametrize(
    "text",
    ['[{"a": 1, "a": 2}]', "[NaN]", "[1,]", "", "[" * 3000 + "]" * 3000],
    ids=["repeated key", "NaN", "trailing comma", "empty", "deep"],
)
def test_what_the_c_parser_cannot_read_alone_is_read_as_a_tree(text: str) -> None:
    assert plain_json(text) is NOT_PLAIN


def test_numbers_read_as_the_tree_reads_them() -> None:
    text = "[-0, 12, 1.50, 2E+3, " + "9" * 450 + "]"
    value = plain_json(text)
    assert value[:4] == [0, 12, 1.5, 2000.0] and isinstance(value[4], float)
    tree = parse_json(text).value
    assert tree is not None and value == tree.to_python()
