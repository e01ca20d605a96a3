"""The shared block helper: one block per kind, JSON with spans, schema errors on the narrowest node."""

from __future__ import annotations

import pytest

from gemstack_lsp.core.blocks.base import BlockKindInfo, read_block, schema_issues
from gemstack_lsp.core.jscompat import UNDEFINED, js_number, js_string
from gemstack_lsp.core.jsonspan import JsonNumber, node_at, parse_json

INFO = BlockKindInfo(
    "gemstack-contracts",
    "CONTRACT_PARSE_ERROR",
    "Multiple gemstack-contracts blocks detected ({n}). Exactly one is permitted.",
    "Malformed JSON in gemstack-contracts block: ",
)


def test_absent_block_is_not_present() -> None:
    src = read_block("spec.md", "# Title\n", INFO)
    assert not src.present and src.root is None and src.findings == ()


def test_multiple_blocks_reported_on_the_second_fence_line() -> None:
    text = "```gemstack-contracts\n[]\n```\n\n```gemstack-contracts\n[1]\n```\n"
    src = read_block("spec.md", text, INFO)
    (f,) = src.findings
    assert f.code == "CONTRACT_PARSE_ERROR"
    assert f.message == "Multiple gemstack-contracts blocks detected (2). Exactly one is permitted."
    assert f.span is not None and f.span.start == text.index("```gemstack-contracts", 5)
    assert src.root is not None and src.root.to_python() == []


def test_syntax_error_on_the_offending_token_with_the_reference_prefix() -> None:
    text = '```gemstack-contracts\n[\n  {"id": "a",},\n]\n```\n'
    src = read_block("spec.md", text, INFO)
    (f,) = src.findings
    assert f.message.startswith("Malformed JSON in gemstack-contracts block: ")
    assert f.span is not None and text[f.span.start : f.span.end] == ","
    assert f.span.start == text.index(",}")


def test_empty_block_points_at_the_closing_fence() -> None:
    text = "```gemstack-contracts\n\n```\n"
    src = read_block("spec.md", text, INFO)
    (f,) = src.findings
    assert f.span is not None and text[f.span.start : f.span.end] == "```"
    assert f.span.start == text.rindex("```")


def test_spans_inside_a_blockquote_map_to_the_document() -> None:
    text = '> ```gemstack-contracts\n> [\n>   {"id": "≠"}\n> ]\n> ```\n'
    src = read_block("spec.md", text, INFO)
    assert src.parsed
    node = node_at(src.root, [0, "id"])
    assert node is not None and text[node.span.start : node.span.end] == '"≠"'


def test_body_trimmed_with_javascript_whitespace() -> None:
    text = "```gemstack-contracts\n\u00a0[1]\u3000\n```\n"
    src = read_block("spec.md", text, INFO)
    assert src.parsed
    assert src.root is not None and src.root.span.start == text.index("[1]")


SCHEMA = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["id"],
        "additionalProperties": False,
        "properties": {"id": {"type": "string"}, "n": {"type": "integer"}},
    },
}


def test_schema_issue_on_the_narrowest_node() -> None:
    text = '[{"id": "a", "n": "x"}, {"n": 1}, {"id": "b", "extra": true}]'
    root = parse_json(text).value
    issues = schema_issues(root, SCHEMA)
    assert [(i.validator, text[i.span.start : i.span.end]) for i in issues] == [
        ("type", '"x"'),
        ("required", '{"n": 1}'),
        ("additionalProperties", '"extra"'),
    ]


@pytest.mark.parametrize(
    "text, rendered",
    [
        ('"s"', "s"),
        ("1", "1"),
        ("1.5", "1.5"),
        ("1e21", "1e+21"),
        ("2.0", "2"),
        ("true", "true"),
        ("null", "null"),
        ("[1, null, [2, 3]]", "1,,2,3"),
        ("{}", "[object Object]"),
        ("1e-7", "1e-7"),
    ],
)
def test_js_string(text: str, rendered: str) -> None:
    node = parse_json(text).value
    assert js_string(node.to_python() if node is not None else UNDEFINED) == rendered


def test_js_number_of_int_and_float() -> None:
    assert js_number(10) == "10"
    assert js_number(0.1) == "0.1"
    node = parse_json("100").value
    assert isinstance(node, JsonNumber) and js_number(node.value) == "100"


@pytest.mark.parametrize(
    "body", ['[{"id": "a", "n": [1, true, null]}]', '[{"id": "a", "n": [1, tru'], ids=["valid", "broken"]
)
def test_a_block_moved_by_an_edit_above_it_is_the_parse_at_its_new_place(body: str) -> None:
    """Valid JSON is parsed again where the block now starts; broken JSON has its last parse
    moved. Either way the tree is the one a parse at the new offset gives."""
    from gemstack_lsp.core.blocks.base import parse_fence_json
    from gemstack_lsp.core.markdown import scan_fences
    from gemstack_lsp.core.memo import Memo

    text = f"# Spec\n\n```gemstack-contracts\n{body}\n```\n"
    with Memo().active():
        for prefix in ("", "x\n", "more text\n\n"):
            moved = prefix + text
            fence = next(f for f in scan_fences(moved) if f.kind == "gemstack-contracts")
            base = moved.index(body)
            assert parse_fence_json(fence) == parse_json(body, base)
