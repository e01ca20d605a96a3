"""The ignore quick fixes as data: where the comment goes, the snippet, and the project-file edit."""

from __future__ import annotations

from lsprotocol import types as lsp

from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.server.ignore_actions import IgnoreContext, _config_edit, ignore_actions

SPEC = "# A\n\nSome text.\n\n```gemstack-contracts\n[\n  {}\n]\n```\n"


def ctx(files: dict[str, str], *, snippets: bool, document_changes: bool = True) -> IgnoreContext:
    return IgnoreContext(
        repo=GemstackRepo("/repo", MemoryReader(files)),
        root="/repo",
        rel="specs/a/spec.md",
        uri="file:///repo/specs/a/spec.md",
        encoding="utf-16",
        versions={"file:///repo/specs/a/spec.md": 3},
        document_changes=document_changes,
        create_files=document_changes,
        snippet_edits=snippets,
    )


def diagnostic(line: int, code: str = "CONTRACT_INVALID_SHAPE") -> lsp.Diagnostic:
    at = lsp.Position(line=line, character=2)
    return lsp.Diagnostic(range=lsp.Range(start=at, end=at), message="m", code=code, source="gemstack")


def test_inside_a_block_the_comment_goes_above_its_fence_as_a_snippet() -> None:
    (here, repo) = ignore_actions(ctx({"specs/a/spec.md": SPEC}, snippets=True), [diagnostic(6)])
    assert here.title == "Ignore CONTRACT_INVALID_SHAPE here…"
    (change,) = here.edit.document_changes  # type: ignore[union-attr]
    (edit,) = change.edits  # type: ignore[union-attr]
    assert isinstance(edit, lsp.SnippetTextEdit)
    assert edit.range.start == lsp.Position(line=4, character=0)
    assert edit.snippet.value == "<!-- gemstack-lsp-ignore CONTRACT_INVALID_SHAPE ${1:reason} -->\n"
    assert change.text_document.version == 3  # type: ignore[union-attr]
    assert repo.title == "Ignore CONTRACT_INVALID_SHAPE in this repository"


def test_without_snippet_support_the_reason_is_plain_text() -> None:
    (here,) = ignore_actions(ctx({"specs/a/spec.md": SPEC}, snippets=False, document_changes=False), [diagnostic(2)])
    (edit,) = here.edit.changes["file:///repo/specs/a/spec.md"]  # type: ignore[index,union-attr]
    assert edit.range.start == lsp.Position(line=2, character=0)
    assert edit.new_text == "<!-- gemstack-lsp-ignore CONTRACT_INVALID_SHAPE reason -->\n"


def test_unsilenceable_and_foreign_diagnostics_get_nothing() -> None:
    c = ctx({"specs/a/spec.md": SPEC}, snippets=False)
    foreign = lsp.Diagnostic(range=diagnostic(2).range, message="m", code="E501", source="ruff")
    assert ignore_actions(c, [diagnostic(2, "GEMSTACK_INTERNAL_ERROR"), foreign]) == []


def test_project_file_edits() -> None:
    assert _config_edit("", "X", False) == (0, 'ignore = ["X"]\n')
    assert _config_edit('#:schema s.json\n[severity]\nY = "off"\n', "X", False) == (16, 'ignore = ["X"]\n')
    text = 'environment = "ci"\nignore = ["A"]\n[severity]\n'
    at, new = _config_edit(text, "X", False)  # type: ignore[misc]
    assert text[:at] + new + text[at:] == 'environment = "ci"\nignore = ["X", "A"]\n[severity]\n'
    text = "ignore = []\n"
    at, new = _config_edit(text, "X", False)  # type: ignore[misc]
    assert text[:at] + new + text[at:] == 'ignore = ["X"]\n'
    py = '[project]\nname = "x"\n\n[tool.gemstack-lsp]\nenvironment = "ci"\n\n[tool.ruff]\n'
    at, new = _config_edit(py, "X", True)  # type: ignore[misc]
    assert text_after(py, at, new).split("\n")[4:6] == ['ignore = ["X"]', 'environment = "ci"']
    assert _config_edit('[project]\nname = "x"\n', "X", True) is None


def text_after(text: str, at: int, new: str) -> str:
    return text[:at] + new + text[at:]


def test_a_code_already_ignored_is_not_offered_again() -> None:
    files = {"specs/a/spec.md": SPEC, ".gemstack/lsp.toml": 'ignore = ["CONTRACT_INVALID_SHAPE"]\n'}
    titles = [a.title for a in ignore_actions(ctx(files, snippets=False), [diagnostic(6)])]
    assert titles == ["Ignore CONTRACT_INVALID_SHAPE here…"]
