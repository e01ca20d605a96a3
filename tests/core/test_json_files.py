"""JSON_SYNTAX_ERROR (and JSON_DUPLICATE_KEY) on the JSON files Gemstack reads that have no code of their own."""

from __future__ import annotations

import pytest

from gemstack_lsp.core.findings import Severity
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze

SPEC = "# Spec\n"


def findings(files: dict[str, str | bytes]) -> list[tuple[str, str, Severity, str]]:
    repo = GemstackRepo("/r", MemoryReader({"specs/a/spec.md": SPEC, **files}))
    out = []
    for f in analyze(repo):
        if f.code.startswith("JSON_"):
            text = repo.document(f.path).text or ""
            assert f.span is not None
            out.append((f.code, f.path, f.effective_severity, text[f.span.start : f.span.end]))
    return out


@pytest.mark.parametrize(
    ("path", "severity"),
    [
        ("package.json", Severity.WARNING),
        (".gemstack/manifest.json", Severity.BLOCKER),
    ],
)
def test_a_syntax_error_is_reported_at_the_offending_token(path: str, severity: Severity) -> None:
    assert findings({path: '{"name": "x",, "v": 1}\n'}) == [("JSON_SYNTAX_ERROR", path, severity, ",")]


def test_amendments_json_reports_its_syntax_under_a_code_of_its_own() -> None:
    """amendments.json's syntax errors are AMENDMENT_FILE_INVALID (core/amendments.py), not JSON_SYNTAX_ERROR."""
    assert findings({"specs/a/amendments.json": '{"name": "x",, "v": 1}\n'}) == []


def test_valid_files_and_absent_files_draw_nothing() -> None:
    assert findings({"package.json": '{"name": "x"}\n'}) == []
    assert findings({}) == []


def test_a_byte_order_mark_is_a_syntax_error() -> None:
    (f,) = findings({"package.json": b'\xef\xbb\xbf{"name": "x"}\n'})
    assert f[:3] == ("JSON_SYNTAX_ERROR", "package.json", Severity.WARNING)


def test_a_repeated_key() -> None:
    assert findings({"package.json": '{"name": "x", "name": "y"}\n'}) == [
        ("JSON_DUPLICATE_KEY", "package.json", Severity.WARNING, '"name"')
    ]
