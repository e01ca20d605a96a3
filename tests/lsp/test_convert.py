"""Conversions between core spans and LSP positions (the server's only unit conversions)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types as lsp

from gemstack_lsp.core.findings import Finding, Fix, Related, TextEdit
from gemstack_lsp.core.text import SourceText, Span
from gemstack_lsp.server import convert

_TEXT = st.text(alphabet=st.sampled_from(list("ab\r\n é😀\t")), max_size=40)
_ENCODINGS = st.sampled_from(["utf-8", "utf-16", "utf-32"])


@settings(max_examples=500)
@given(_TEXT, st.integers(0, 8), st.integers(0, 12), _ENCODINGS)
def test_offset_without_a_line_index_matches_the_source_text(text: str, line: int, ch: int, enc: str) -> None:
    p = lsp.Position(line=line, character=ch)
    assert convert.offset_in(text, p, enc) == convert.to_offset(SourceText(text), p, enc)  # type: ignore[arg-type]


@settings(max_examples=300)
@given(_TEXT, st.data(), _ENCODINGS)
def test_incremental_changes_apply_like_string_slicing(text: str, data: st.DataObject, enc: str) -> None:
    a = data.draw(st.integers(0, len(text)))
    b = data.draw(st.integers(a, len(text)))
    source = SourceText(text)
    r = convert.to_range(source, Span(a, b), enc)  # type: ignore[arg-type]
    change = lsp.TextDocumentContentChangePartial(range=r, text="Ω😀")
    expected_a, expected_b = source.offset(source.position(a, enc), enc), source.offset(source.position(b, enc), enc)  # type: ignore[arg-type]
    assert convert.apply_changes(text, [change], enc) == text[:expected_a] + "Ω😀" + text[expected_b:]  # type: ignore[arg-type]


def test_choose_encoding_prefers_utf8_when_offered() -> None:
    assert convert.choose_encoding(["utf-16", "utf-8"]) == "utf-8"
    assert convert.choose_encoding(["utf-32", "utf-16"]) == "utf-16"
    assert convert.choose_encoding(None) == "utf-16"


def test_diagnostic_carries_code_link_related_and_fixes() -> None:
    text = "é😀 x\nline two\n"
    views = {
        "specs/a/spec.md": convert.FileView("file:///r/specs/a/spec.md", SourceText(text)),
        "specs/a/plan.md": convert.FileView("file:///r/specs/a/plan.md", SourceText("plan\n")),
        "specs/a/new.json": convert.FileView("file:///r/specs/a/new.json", None),
    }
    finding = Finding(
        "FROZEN_CONTRACT_VIOLATION",
        "disagrees",
        "specs/a/spec.md",
        Span(3, 4),
        related=(Related("specs/a/plan.md", Span(0, 4), "declared here"),),
        fixes=(
            Fix("Restore", (TextEdit("specs/a/spec.md", Span(3, 4), "y"),), preferred=True),
            Fix("Create", (TextEdit("specs/a/new.json", Span(0, 0), "{}"),)),
            Fix("Run", command="gemstack.regenerateCapsule", arguments=("specs/a",)),
        ),
    )
    d8 = convert.to_diagnostic(finding, views.__getitem__, "utf-8")
    d16 = convert.to_diagnostic(finding, views.__getitem__, "utf-16")
    assert (d8.range.start.character, d16.range.start.character) == (7, 4)
    assert d8.source == "gemstack" and d8.code == "FROZEN_CONTRACT_VIOLATION"
    assert d8.severity == lsp.DiagnosticSeverity.Error
    assert d8.code_description is not None and d8.code_description.href.endswith("#frozen_contract_violation")
    assert d8.related_information is not None
    assert d8.related_information[0].location.uri == "file:///r/specs/a/plan.md"
    fixes = convert.fixes_from_data(d16.data)
    assert [f.title for f in fixes] == ["Restore", "Create", "Run"]
    assert fixes[0].edits[0][1].start.character == 4 and fixes[0].preferred
    assert fixes[1].edits[0][3] is True  # creates a file
    assert fixes[2].command == "gemstack.regenerateCapsule" and fixes[2].arguments == ("specs/a",)
    edit = convert.workspace_edit(fixes[1].edits, {}, document_changes=True)
    assert edit.document_changes is not None
    assert isinstance(edit.document_changes[0], lsp.CreateFile)
    plain = convert.workspace_edit(fixes[0].edits, {}, document_changes=False)
    assert plain.changes is not None and list(plain.changes) == ["file:///r/specs/a/spec.md"]


def test_malformed_fix_data_yields_no_fix() -> None:
    assert convert.fixes_from_data(None) == []
    assert convert.fixes_from_data({"fixes": [{"title": "x", "edits": [{"uri": 1}]}, 5]}) == []
