"""Fixes carried by block findings: applying them gives a document the reference reads cleanly."""

from __future__ import annotations

import pytest

from gemstack_lsp.core.blocks import blocks_of
from gemstack_lsp.core.findings import Finding, Fix

PATH = "specs/001-x/spec.md"
ITEM = '{"id": "a", "type": "BOUNDARY", "value": "REQUIRED"}'


def _apply(text: str, fix: Fix) -> str:
    for edit in sorted(fix.edits, key=lambda e: -e.span.start):
        text = text[: edit.span.start] + edit.new_text + text[edit.span.end :]
    return text


def _only(findings: tuple[Finding, ...], code: str) -> Finding:
    (finding,) = [f for f in findings if f.code == code]
    return finding


@pytest.mark.parametrize("indent", [1, 2, 3])
def test_indented_fence_moves_to_column_zero(indent: int) -> None:
    pad = " " * indent
    text = f"# T\n\n{pad}```gemstack-contracts\n{pad}[{ITEM}]\n{pad}```\n"
    finding = _only(blocks_of(PATH, text).fence_findings, "FENCE_UNSEEN_BY_REFERENCE")
    (fix,) = finding.fixes
    assert fix.preferred
    fixed = _apply(text, fix)
    assert fixed == f"# T\n\n```gemstack-contracts\n{pad}[{ITEM}]\n```\n"
    after = blocks_of(PATH, fixed)
    assert after.fence_findings == ()
    assert [c.id for c in after.contracts.items] == ["a"]


@pytest.mark.parametrize(
    "text",
    [
        "~~~gemstack-contracts\n[]\n~~~\n",  # a tilde fence: moving it changes nothing
        "  ```gemstack-contracts json\n[]\n  ```\n",  # extra info words
        "> ```gemstack-contracts\n> []\n> ```\n",  # inside a blockquote
        "  ```gemstack-contracts\n[]\n",  # unterminated
    ],
)
def test_no_column_zero_fix_where_indentation_is_not_the_problem(text: str) -> None:
    finding = _only(blocks_of(PATH, text).fence_findings, "FENCE_UNSEEN_BY_REFERENCE")
    assert finding.fixes == ()


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (f"[{ITEM},\n {ITEM}]", f"[{ITEM}]"),
        (f'[{ITEM},\n {ITEM},\n {{"id": "b", "type": "BOUNDARY", "value": "FORBIDDEN"}}]', None),
    ],
)
def test_duplicate_contract_removal_keeps_valid_json(body: str, expected: str | None) -> None:
    text = f"```gemstack-contracts\n{body}\n```\n"
    finding = _only(blocks_of(PATH, text).contracts.findings, "CONTRACT_DUPLICATE_ID")
    (fix,) = finding.fixes
    fixed = _apply(text, fix)
    after = blocks_of(PATH, fixed).contracts
    assert after.findings == ()
    assert sorted(c.id for c in after.items) == sorted({"a"} | ({"b"} if expected is None else set()))
    if expected is not None:
        assert fixed == f"```gemstack-contracts\n{expected}\n```\n"
