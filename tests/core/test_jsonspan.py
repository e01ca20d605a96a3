"""The span-keeping strict JSON parser."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gemstack_lsp.core import jsonspan
from gemstack_lsp.core.jsonspan import (
    MAX_DEPTH,
    TOO_DEEP,
    JsonArray,
    JsonBool,
    JsonNull,
    JsonNumber,
    JsonObject,
    JsonString,
    iter_nodes,
    locate,
    node_path_at,
    parse_json,
    too_deep,
    type_name,
)
from gemstack_lsp.core.text import Span


def sliced(text: str, span: Span, base: int = 0) -> str:
    return text[span.start - base : span.end - base]


@pytest.mark.parametrize(
    "text, kind, value",
    [
        ('"abc"', JsonString, "abc"),
        ("-12", JsonNumber, -12),
        ("1.5e3", JsonNumber, 1500.0),
        ("0", JsonNumber, 0),
        ("true", JsonBool, True),
        ("false", JsonBool, False),
        ("null", JsonNull, None),
        ("[]", JsonArray, []),
        ("{}", JsonObject, {}),
        (' { "a" : [ 1 , { } ] } ', JsonObject, {"a": [1, {}]}),
    ],
)
def test_each_node_kind_has_its_span(text: str, kind: type, value: object) -> None:
    r = parse_json(text, 100)
    assert r.ok and r.value is not None
    assert isinstance(r.value, kind)
    assert r.value.to_python() == value
    assert sliced(text, r.value.span, 100) == text.strip()


@pytest.mark.parametrize(
    "s",
    ["≠", "😀", "╔═╗", "a\\u00e9b", "tab\\tnew\\nline", 'quote\\"back\\\\slash\\/', "\\ud83d\\ude00"],
)
def test_strings_non_ascii_and_escapes(s: str) -> None:
    text = f'{{"k≠": "{s}", "after": 1}}'
    r = parse_json(text)
    assert r.ok and isinstance(r.value, JsonObject)
    assert r.value.to_python() == json.loads(text)
    after = r.value.member("after")
    assert after is not None
    assert sliced(text, after.key.span) == '"after"'
    assert sliced(text, after.value.span) == "1"
    k = r.value.members[0]
    assert sliced(text, k.value.span) == f'"{s}"'


def test_offset_function_maps_every_span() -> None:
    text = '[1, "x"]'
    r = parse_json(text, lambda i: i * 2)
    assert isinstance(r.value, JsonArray)
    assert r.value.span == Span(0, 16)
    assert r.value.items[1].span == Span(8, 14)


ERRORS = [
    ("trailing comma in array", "[1, 2,]", ",", "Trailing comma"),
    ("trailing comma in object", '{"a": 1,}', ",", "Trailing comma"),
    ("NaN", "[NaN]", "NaN", "NaN"),
    ("Infinity", '{"a": -Infinity}', "-Infinity", "Infinity"),
    ("line comment", "[1, // no\n2]", "// no", "comment"),
    ("block comment", "/* c */ []", "/* c */", "comment"),
    ("single quotes", "{'a': 1}", "'a'", "single-quoted"),
    ("control character", '["a\tb"]', "\t", "control character"),
    ("bad escape", '["\\x"]', "\\x", "escaped"),
    ("missing comma", '{"a": 1 "b": 2}', '"', "expected ','"),
    ("missing colon", '{"a" 1}', "1", "expected ':'"),
    ("bare word", "[yes]", "yes", "token 'yes'"),
    ("leading zero", "[01]", "1", "expected ','"),
    ("trailing garbage", "[] []", "[", "after the JSON value"),
    ("unterminated string", '["abc', '"abc', "Unterminated string"),
    ("end of input", '{"a": ', "", "end of JSON input"),
    ("empty", "", "", "end of JSON input"),
]


@pytest.mark.parametrize("name, text, token, message", ERRORS, ids=[e[0] for e in ERRORS])
def test_syntax_error_points_at_the_offending_token(name: str, text: str, token: str, message: str) -> None:
    r = parse_json(text, 7)
    assert len(r.errors) == 1
    (err,) = r.errors
    assert sliced(text, err.span, 7) == token
    assert message in err.message
    with pytest.raises(ValueError):
        json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))


def test_partial_tree_keeps_the_valid_prefix() -> None:
    text = '[{"id": "A", "type": "ENUM_SET"}, {"id": "B", "values": ["x", '
    r = parse_json(text)
    assert r.errors
    assert isinstance(r.value, JsonArray) and not r.value.complete
    assert r.value.to_python() == [{"id": "A", "type": "ENUM_SET"}, {"id": "B", "values": ["x"]}]
    second = r.value.items[1]
    assert isinstance(second, JsonObject) and not second.complete


def test_partial_tree_keeps_a_pending_key() -> None:
    text = '{"a": 1, "b": '
    r = parse_json(text)
    assert isinstance(r.value, JsonObject)
    assert r.value.pending_key is not None and r.value.pending_key.value == "b"
    loc = locate(r.value, len(text))
    assert loc.path == ("b",) and loc.node is None and not loc.is_key


def test_duplicate_keys_are_reported_and_the_last_wins() -> None:
    text = '{"id": "a", "x": 1, "id": "b"}'
    r = parse_json(text)
    assert r.ok and isinstance(r.value, JsonObject)
    (dup,) = r.duplicate_keys
    assert sliced(text, dup.key.span) == '"id"'
    assert dup.key.span.start == text.rindex('"id"')
    assert r.value.to_python() == {"id": "b", "x": 1}
    assert r.value.get("id") == dup.value
    assert r.value.keys() == ["id", "x"]


def test_node_path_at_key_and_value_positions() -> None:
    text = '{"a": {"b": [10, 20]}, "c": true}'
    r = parse_json(text)
    path, node = node_path_at(r.value, text.index("20") + 1)
    assert path == ["a", "b", 1] and isinstance(node, JsonNumber) and node.value == 20
    loc = locate(r.value, text.index('"c"') + 1)
    assert loc.is_key and loc.path == ("c",) and isinstance(loc.node, JsonString)
    loc = locate(r.value, text.index("true"))
    assert not loc.is_key and isinstance(loc.node, JsonBool)
    gap = locate(r.value, text.index("}, ") + 2)
    assert gap.is_key and gap.node is None and gap.path == ()
    arr_gap = locate(r.value, text.index("[") + 1)
    assert arr_gap.path == ("a", "b", 0)
    assert locate(r.value, len(text) + 5).node is None


def test_type_name_is_javascript_typeof() -> None:
    r = parse_json('[1, "s", true, null, [], {}]')
    assert isinstance(r.value, JsonArray)
    assert [type_name(n) for n in r.value.items] == ["number", "string", "boolean", "object", "object", "object"]
    assert type_name(None) == "undefined"


def test_iter_nodes_in_document_order() -> None:
    r = parse_json('{"a": [1, 2], "b": null}')
    kinds = [type(n).__name__ for n in iter_nodes(r.value)]
    assert kinds == ["JsonObject", "JsonArray", "JsonNumber", "JsonNumber", "JsonNull"]


def test_deep_nesting_does_not_recurse() -> None:
    text = "[" * 50_000 + "]" * 50_000
    r = parse_json(text)
    assert r.ok
    assert len(iter_nodes(r.value)) == 50_000
    value = r.value.to_python() if r.value is not None else None
    for _ in range(49_999):
        assert isinstance(value, list) and len(value) == 1
        value = value[0]
    assert value == []


def test_too_deep_finds_the_first_bracket_beyond_the_limit() -> None:
    assert too_deep("[" * MAX_DEPTH + "]" * MAX_DEPTH) is None
    assert too_deep('["[[[", ' + "{" * MAX_DEPTH) == len('["[[[", ') + MAX_DEPTH - 1
    assert TOO_DEEP.startswith("JSON nested deeper than")


_PIECES = [
    '{"a": 1',
    ', "a": [true, null, 2.5e3]',
    "}",
    "[",
    "]",
    '"s\\u00e9"',
    ",",
    ":",
    " ",
    "\n",
    "x",
    '{"k": {"k": {}}}',
]


@given(st.lists(st.sampled_from(_PIECES), max_size=12), st.integers(min_value=0, max_value=10_000))
def test_a_shifted_parse_equals_a_parse_at_the_moved_base(pieces: list[str], delta: int) -> None:
    from gemstack_lsp.core.jsonspan import shifted

    text = "".join(pieces)
    moved = shifted(parse_json(text, 7), delta)
    expected = parse_json(text, 7 + delta)
    assert moved == expected
    members = {id(m) for m in iter_members(moved.value)}
    assert all(id(d) in members for d in moved.duplicate_keys)


def iter_members(root: object) -> list[object]:
    from gemstack_lsp.core.jsonspan import JsonArray, JsonObject

    out: list[object] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, JsonObject):
            out.extend(node.members)
            stack.extend(m.value for m in node.members)
        elif isinstance(node, JsonArray):
            stack.extend(node.items)
    return out


def test_a_shifted_parse_of_a_deep_document_does_not_recurse() -> None:
    from gemstack_lsp.core.jsonspan import iter_nodes, shifted

    text = "[" * 5000 + "]" * 5000
    moved, expected = shifted(parse_json(text), 3), parse_json(text, 3)
    # (Dataclass equality itself recurses: compare the nodes' spans.)
    assert [n.span for n in iter_nodes(moved.value)] == [n.span for n in iter_nodes(expected.value)]


# ---------------------------------------------------------------------------------------------
# The fast path for valid JSON (issue 22) gives the tolerant parser's tree, spans included.

_fast_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.lists(st.tuples(st.sampled_from(["a", "b", "é", ""]), children), max_size=4)
    ),
    max_leaves=25,
)


def _dumped(value: object, indent: int | None, separators: tuple[str, str]) -> str:
    """JSON text of ``value``; a list of pairs is an object (so keys may repeat)."""
    if isinstance(value, list) and value and all(isinstance(v, tuple) for v in value):
        inner = separators[0].join(
            json.dumps(k, ensure_ascii=False) + separators[1] + _dumped(v, indent, separators) for k, v in value
        )
        return "{" + inner + "}"
    if isinstance(value, list):
        return "[" + separators[0].join(_dumped(v, indent, separators) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


@settings(max_examples=400, deadline=None)
@given(
    _fast_values,
    st.sampled_from([(",", ":"), (", ", ": "), (",\n  ", " :\t"), (" ,\r\n", ":  ")]),
    st.sampled_from(["", " ", "\n\t "]),
    st.integers(0, 50),
)
def test_the_fast_path_gives_the_tolerant_parsers_tree(
    value: object, separators: tuple[str, str], pad: str, base: int
) -> None:
    text = pad + _dumped(value, None, separators) + pad
    assert jsonspan._valid(text)
    assert parse_json(text, base) == jsonspan._Parser(text, base).run()


@pytest.mark.parametrize(
    "text", ["", " ", "NaN", "[Infinity]", "[1,]", '{"a":1,}', "\ufeff[]", "1" * 5000, "[1] x", '"\ud800'], ids=repr
)
def test_what_the_fast_path_refuses_takes_the_tolerant_parser(text: str) -> None:
    assert not jsonspan._valid(text)
    assert parse_json(text, 3) == jsonspan._Parser(text, 3).run()


def test_nesting_too_deep_for_the_c_parser_takes_the_tolerant_parser() -> None:
    text = "[" * 100_000 + "]" * 100_000
    assert not jsonspan._valid(text)
    result = parse_json(text)
    assert result.ok and isinstance(result.value, JsonArray) and result.value.span == Span(0, len(text))


def test_more_values_than_the_limit_are_refused_by_the_fast_path_too() -> None:
    text = "[" + ",".join("0" * (jsonspan.MAX_VALUES + 1)) + "]"
    assert not jsonspan._valid(text)
    assert not parse_json(text).ok


def test_a_fast_parse_makes_spans_when_read_and_is_the_same_tree_everywhere() -> None:
    """The fast path keeps each node's start and end and makes its ``Span`` on first read:
    unread, read, copied, pickled or hashed, the tree is the tolerant parser's tree."""
    import copy
    import pickle

    text = '{"a": [1, -2.5e3, true, false, null, "x\\u00e9"], "b": {"c": {}}, "d": [], "a": 0}'
    tolerant = jsonspan._Parser(text, 7).run()
    for make in (
        lambda: parse_json(text, 7),
        lambda: pickle.loads(pickle.dumps(parse_json(text, 7))),
        lambda: copy.deepcopy(parse_json(text, 7)),
    ):
        result = make()
        assert result == tolerant and hash(result.value.members[1]) == hash(tolerant.value.members[1])
        assert repr(result) == repr(tolerant)
        for node in jsonspan.iter_nodes(result.value):
            assert isinstance(node.span, Span) and node.span is node.span  # made once, then kept
    fast = parse_json(text, 7)
    assert fast.duplicate_keys[0].key.span == tolerant.duplicate_keys[0].key.span
    assert jsonspan.shifted(fast, 5) == jsonspan._Parser(text, 12).run()
    with pytest.raises(AttributeError):
        fast.value.not_a_field  # noqa: B018  (only ``span`` is made on demand)


def test_an_object_indexed_by_the_fast_parse_answers_as_one_indexed_on_demand() -> None:
    text = '{"b": 1, "a": {"x": [], "x": {}}, "b": 2, "c": null, "a": 3}'
    fast, tolerant = parse_json(text).value, jsonspan._Parser(text, 0).run().value
    assert isinstance(fast, JsonObject) and isinstance(tolerant, JsonObject)
    assert fast.keys() == tolerant.keys() == ["b", "a", "c"]
    for key in ("a", "b", "c", "x"):
        assert fast.get(key) == tolerant.get(key)
    assert fast.get("b") == JsonNumber(2, "2", Span(text.index("2"), text.index("2") + 1))
