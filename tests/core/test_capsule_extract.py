"""The capsule reads its blocks as the reference does and fails as it fails, with the block parsers' rules."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gemstack_lsp.core.blocks.contracts import parse_contracts
from gemstack_lsp.core.blocks.test_matrix import parse_test_matrix
from gemstack_lsp.core.capsule.extract import BlockError, read_contracts, read_test_matrix


def _doc(kind: str, body: str, newline: str = "\n") -> str:
    return newline.join(["# Spec", f"```{kind}", body, "```", ""])


@pytest.mark.parametrize(
    "body",
    [
        '[{"id": "a", "type": "BOOLEAN_INVARIANT", "value": null}]',
        '[{"id": "a", "type": "BOUNDARY", "value": "forbidden"}, {"id": "a", "type": "MAGIC"}]',
        '[{"id": "a", "type": "ENUM_SET", "values": ["x", " x"]}]',
        '[{"id": "p", "type": "PROVENANCE_RULE", "values": ["f"]}]',
        "[[1]]",
    ],
)
def test_contract_error_is_the_block_parsers_first_finding(body: str) -> None:
    text = _doc("gemstack-contracts", body)
    first = parse_contracts("spec.md", text).findings[0]
    with pytest.raises(BlockError) as exc:
        read_contracts(text)
    assert (exc.value.code, str(exc.value), exc.value.span) == (first.code, first.message, first.span)


@pytest.mark.parametrize(
    "body",
    [
        '[{"id": "TEST-X-A01", "category": "c", "layer": "SMOKE", "description": "d", "pass_criteria": "p",'
        ' "gate": "REQUIRED"}]',
        '[{"2": 1, "1": 2}]',
        "[null]",
    ],
)
def test_matrix_error_is_the_block_parsers_first_finding(body: str) -> None:
    text = _doc("gemstack-test-matrix", body)
    first = parse_test_matrix("spec.md", text).findings[0]
    with pytest.raises(BlockError) as exc:
        read_test_matrix(text)
    assert (exc.value.code, str(exc.value), exc.value.span) == (first.code, first.message, first.span)


def test_a_repeated_key_is_no_error_and_the_last_value_counts() -> None:
    text = _doc("gemstack-contracts", '[{"id": "old", "type": "BOUNDARY", "value": "REQUIRED", "id": "new"}]')
    contracts = read_contracts(text)
    assert contracts is not None and [c.id for c in contracts] == ["new"]
    assert contracts[0].span is not None and text[contracts[0].span.start : contracts[0].span.end] == '"new"'


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_spans_are_document_offsets_whatever_the_line_endings(newline: str) -> None:
    item = (
        '{"id": "TEST-X-A01", "category": "c", "layer": "UNIT", "description": "d", "pass_criteria": "p",'
        ' "gate": "REQUIRED"}'
    )
    text = _doc("gemstack-test-matrix", newline.join(["[", item + ",", item, "]"]), newline)
    with pytest.raises(BlockError) as exc:
        read_test_matrix(text)
    span = exc.value.span
    assert exc.value.code == "TEST_MATRIX_DUPLICATE_ID"
    assert span is not None and text[span.start : span.end] == '"TEST-X-A01"'
    assert span.start > text.index('"TEST-X-A01"')


def test_only_the_blocks_the_reference_sees_are_read() -> None:
    # Markdown shows a block inside the blockquote; the reference reads column-0 fences only.
    text = "> ```gemstack-contracts\n> [1]\n> ```\n"
    assert read_contracts(text) is None


@given(st.lists(st.sampled_from(["a", "#", " ", "\n", "\r", "## x", "é", "\t"]), max_size=16).map("".join))
def test_first_heading_reads_the_lines_split_on_line_feeds(text: str) -> None:
    """The title is found line by line from the top, as over ``text.split("\\n")``."""
    from gemstack_lsp.core.capsule.extract import _any_heading, first_heading
    from gemstack_lsp.core.text import Span

    expected = None
    pos = 0
    for raw in text.split("\n"):
        line = raw.rstrip("\r")
        h = _any_heading(line)
        if h:
            expected = (h[1].strip(), Span(pos, pos + len(line)))
            break
        pos += len(raw) + 1
    assert first_heading(text) == expected
