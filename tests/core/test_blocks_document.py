"""blocks_of: every block of a document, fence findings, and memoisation."""

from __future__ import annotations

from pathlib import Path

import pytest

from gemstack_lsp.core.blocks import blocks_of, blocks_of_document
from gemstack_lsp.core.memo import Memo
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import GemstackRepo

REPO = Path(__file__).parent.parent / "fixtures" / "gemstack-reference" / "repo"
FIXTURE_DOCS = sorted(REPO.glob("specs/*/*.md"))


@pytest.mark.parametrize("path", FIXTURE_DOCS, ids=[f"{p.parent.name}/{p.name}" for p in FIXTURE_DOCS])
def test_fixture_documents_have_no_block_findings(path: Path) -> None:
    rel = path.relative_to(REPO).as_posix()
    blocks = blocks_of(rel, path.read_text("utf-8"))
    assert blocks.findings == ()


def test_fixture_block_counts() -> None:
    def counts(rel: str) -> dict[str, int]:
        b = blocks_of(rel, (REPO / rel).read_text("utf-8"))
        return {r.kind: len(r.items) for r in b.results if r.present}

    assert counts("specs/009-context-capsule/spec.md") == {"gemstack-contracts": 8, "gemstack-test-matrix": 20}
    assert counts("specs/009-context-capsule/plan.md") == {
        "gemstack-contracts": 8,
        "gemstack-test-bindings": 20,
        "gemstack-closure-gates": 3,
    }
    assert counts("specs/009-context-capsule/tasks.md") == {"gemstack-contracts": 8}
    assert counts("specs/008-cost-provider-safety-gates/spec.md") == {
        "gemstack-contracts": 9,
        "gemstack-test-matrix": 20,
    }


FENCE_CASES = [
    ("indented", "  ```gemstack-contracts\n[]\n  ```\n", "indented 2 spaces"),
    ("tilde", "~~~gemstack-test-matrix\n[]\n~~~\n", "tilde fence"),
    ("four_backticks", "````gemstack-closure-gates\n[]\n````\n", "4 backticks"),
    ("extra_info", "```gemstack-test-bindings json\n[]\n```\n", "has words after"),
    ("blockquote", "> ```gemstack-contracts\n> []\n> ```\n", "inside a blockquote"),
    ("list_item", "1. x\n\n   ```gemstack-contracts\n   []\n   ```\n", "inside a list item"),
    ("unterminated", "```gemstack-contracts\n[]\n", "unterminated"),
    ("longer_closing", "```gemstack-contracts\n[]\n`````\n", "longer fence"),
    ("inside_another_fence", "````md\n```gemstack-contracts\n[]\n```\n````\n", "content of the code block"),
]


@pytest.mark.parametrize("name, text, reason", FENCE_CASES, ids=[c[0] for c in FENCE_CASES])
def test_FENCE_UNSEEN_BY_REFERENCE(name: str, text: str, reason: str) -> None:
    blocks = blocks_of("specs/x/spec.md", text)
    (f,) = blocks.fence_findings
    assert f.code == "FENCE_UNSEEN_BY_REFERENCE"
    assert reason in f.message
    assert f.span is not None
    line_end = text.find("\n", f.span.start)
    assert (f.span.start, f.span.end) == (text.rfind("\n", 0, f.span.start) + 1, line_end)


def test_no_fence_finding_for_kinds_the_reference_never_reads() -> None:
    text = "  ```gemstack-capabilities\n[]\n  ```\n"
    assert blocks_of("specs/x/spec.md", text).fence_findings == ()


def test_blocks_of_is_memoised_by_path_and_text_in_the_active_memo() -> None:
    text = "```gemstack-contracts\n[]\n```\n"
    memo = Memo()
    with memo.active():
        a = blocks_of("specs/x/spec.md", text)
        assert blocks_of("specs/x/spec.md", text) is a
        assert blocks_of("specs/y/spec.md", text) is not a
    # No memo active: nothing is kept anywhere.
    assert blocks_of("specs/x/spec.md", text) is not a
    # A memo forgets the texts it is not told to retain.
    memo.retain(set())
    assert memo.texts == 0
    with memo.active():
        assert blocks_of("specs/x/spec.md", text) is not a


def test_findings_are_in_document_order_across_kinds() -> None:
    text = (
        "```gemstack-test-matrix\n[null]\n```\n"
        "```gemstack-contracts\n[1]\n```\n"
        "  ```gemstack-closure-gates\n{}\n  ```\n"
    )
    codes = [f.code for f in blocks_of("specs/x/spec.md", text).findings]
    assert codes == [
        "TEST_MATRIX_INVALID_SHAPE",
        "CONTRACT_INVALID_SHAPE",
        "FENCE_UNSEEN_BY_REFERENCE",
        "GATES_PARSE_ERROR",
    ]


def test_duplicate_json_key_is_reported() -> None:
    text = '```gemstack-contracts\n[{"id": "a", "id": "b", "type": "BOUNDARY", "value": "REQUIRED"}]\n```\n'
    blocks = blocks_of("specs/x/spec.md", text)
    (f,) = blocks.findings
    assert f.code == "JSON_DUPLICATE_KEY"
    assert f.span is not None and f.span.start == text.index('"id"', text.index('"a"'))
    assert [c.id for c in blocks.contracts.items] == ["b"]


def test_blocks_of_document_reads_through_the_repo() -> None:
    repo = GemstackRepo("/r", MemoryReader({"specs/x/spec.md": "```gemstack-contracts\n[]\n```\n"}))
    blocks = blocks_of_document(repo.document("specs/x/spec.md"))
    assert blocks is not None and blocks.contracts.present and blocks.path == "specs/x/spec.md"
    assert blocks_of_document(repo.document("specs/x/missing.md")) is None
