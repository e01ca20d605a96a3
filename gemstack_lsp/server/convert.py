"""Conversions between the core's values and lsprotocol's: the only place positions change units.

The core counts code points (``Span``); LSP counts columns in the negotiated encoding (UTF-16
code units by default, UTF-8 bytes when the client offers them). Every ``Range`` the server
sends and every ``Position`` it receives passes through here.

A diagnostic's fixes travel in its ``data`` already converted to LSP edits (URI, range, new
text), so that a code action rebuilds a ``WorkspaceEdit`` from the diagnostic alone and never
re-runs analysis.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from lsprotocol import types as lsp

from gemstack_lsp.core.findings import Finding, Fix, Severity, code_info
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.i18n import Language, localize_finding
from gemstack_lsp.core.text import Encoding, Position, SourceText, Span

SOURCE = "gemstack"

_SEVERITY = {
    Severity.BLOCKER: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.INFO: lsp.DiagnosticSeverity.Information,
    Severity.HINT: lsp.DiagnosticSeverity.Hint,
}


# --- Positions ---------------------------------------------------------------------------


def choose_encoding(offered: Sequence[str] | None) -> Encoding:
    """UTF-8 when the client offers it (it costs least on Python strings), else UTF-16."""
    if offered and lsp.PositionEncodingKind.Utf8 in offered:
        return "utf-8"
    return "utf-16"


def encoding_kind(encoding: Encoding) -> lsp.PositionEncodingKind:
    return {
        "utf-8": lsp.PositionEncodingKind.Utf8,
        "utf-16": lsp.PositionEncodingKind.Utf16,
        "utf-32": lsp.PositionEncodingKind.Utf32,
    }[encoding]


def to_position(source: SourceText, offset: int, encoding: Encoding) -> lsp.Position:
    p = source.position(offset, encoding)
    return lsp.Position(line=p.line, character=p.character)


def to_range(source: SourceText, span: Span | None, encoding: Encoding) -> lsp.Range:
    """The LSP range of a span; ``None`` (the whole file) is shown on the first line."""
    if span is None:
        end = source.line_end(0)
        return lsp.Range(start=lsp.Position(line=0, character=0), end=to_position(source, end, encoding))
    return lsp.Range(start=to_position(source, span.start, encoding), end=to_position(source, span.end, encoding))


def to_offset(source: SourceText, position: lsp.Position, encoding: Encoding) -> int:
    return source.offset(Position(position.line, position.character), encoding)


def to_span(source: SourceText, range_: lsp.Range, encoding: Encoding) -> Span:
    start = to_offset(source, range_.start, encoding)
    end = to_offset(source, range_.end, encoding)
    return Span(min(start, end), max(start, end))


_BREAK = re.compile(r"\r\n|\r|\n")


def _line_start(text: str, line: int) -> int | None:
    """Where line ``line`` starts (``None``: the text has fewer lines). Only ``\n`` ends a
    line here: call it only for a text without ``\r``."""
    pos = 0
    for _ in range(line):
        pos = text.find("\n", pos) + 1
        if pos == 0:
            return None
    return pos


def offset_in(text: str, position: lsp.Position, encoding: Encoding, plain: bool | None = None) -> int:
    """The code-point offset of an LSP position, scanning only up to its line (no line index:
    applying an edit near the top of a long buffer stays cheap). ``plain``: the text has no
    ``\r`` (the caller knows; its lines are then found with ``str.find``)."""
    if plain is None:
        plain = "\r" not in text
    if plain:
        found = _line_start(text, position.line)
        if found is None:
            return len(text)
        start = found
        brk = text.find("\n", start)
        end = brk if brk >= 0 else len(text)
    else:
        start = 0
        if position.line > 0:
            for count, m in enumerate(_BREAK.finditer(text), start=1):
                if count == position.line:
                    start = m.end()
                    break
            else:
                return len(text)
        match = _BREAK.search(text, start)
        end = match.start() if match else len(text)
    line_text = text[start:end]
    if position.character <= 0:
        return start
    if line_text.isascii():
        return start + min(position.character, len(line_text))
    return start + SourceText(line_text).offset(Position(0, position.character), encoding)


def apply_changes(text: str, changes: Iterable[lsp.TextDocumentContentChangeEvent], encoding: Encoding) -> str:
    """Apply incremental (ranged) or full content changes, in order, to a buffer's text."""
    for change in changes:
        if isinstance(change, lsp.TextDocumentContentChangePartial):
            plain = "\r" not in text
            a = offset_in(text, change.range.start, encoding, plain)
            b = a if change.range.end == change.range.start else offset_in(text, change.range.end, encoding, plain)
            a, b = min(a, b), max(a, b)
            text = text[:a] + change.text + text[b:]
        else:
            text = change.text
    return text


# --- Diagnostics -------------------------------------------------------------------------


@record
class FileView:
    """What conversion needs of one file: its URI and its text (``None`` when it has none)."""

    uri: str
    source: SourceText | None


#: Finds the URI and text of a repository-relative path in the analysed snapshot.
ViewOf = Callable[[str], FileView]

_EMPTY = SourceText("")


def to_diagnostic(finding: Finding, view_of: ViewOf, encoding: Encoding, language: Language = "en") -> lsp.Diagnostic:
    """The LSP diagnostic of a finding, with its fixes serialised in ``data``; its message,
    related messages and fix titles in ``language`` (the client's locale)."""
    finding = localize_finding(finding, language)
    view = view_of(finding.path)
    source = view.source or _EMPTY
    info = code_info(finding.code)
    related = [
        lsp.DiagnosticRelatedInformation(
            location=lsp.Location(
                uri=view_of(r.path).uri,
                range=to_range(view_of(r.path).source or _EMPTY, r.span, encoding),
            ),
            message=r.message,
        )
        for r in finding.related
    ]
    data: dict[str, Any] = {"fingerprint": finding.fingerprint}
    if finding.subject is not None:
        data["subject"] = finding.subject
    if finding.fixes:
        data["fixes"] = [fix_to_data(fix, view_of, encoding) for fix in finding.fixes]
    return lsp.Diagnostic(
        range=to_range(source, finding.span, encoding),
        message=finding.message,
        severity=_SEVERITY[finding.effective_severity],
        code=finding.code,
        code_description=lsp.CodeDescription(href=info.docs_url),
        source=SOURCE,
        related_information=related or None,
        data=data,
    )


def fix_to_data(fix: Fix, view_of: ViewOf, encoding: Encoding) -> dict[str, Any]:
    """A JSON-compatible fix: edits as LSP ranges in the negotiated encoding."""
    edits = []
    for edit in fix.edits:
        view = view_of(edit.path)
        source = view.source or _EMPTY
        edits.append(
            {
                "uri": view.uri,
                "range": range_to_json(to_range(source, edit.span, encoding)),
                "newText": edit.new_text,
                "create": view.source is None,
            }
        )
    data: dict[str, Any] = {"title": fix.title, "edits": edits, "preferred": fix.preferred}
    if fix.command is not None:
        data["command"] = fix.command
        data["arguments"] = list(fix.arguments)
    return data


def range_to_json(r: lsp.Range) -> dict[str, Any]:
    return {
        "start": {"line": r.start.line, "character": r.start.character},
        "end": {"line": r.end.line, "character": r.end.character},
    }


def range_from_json(raw: Any) -> lsp.Range:
    return lsp.Range(
        start=lsp.Position(line=int(raw["start"]["line"]), character=int(raw["start"]["character"])),
        end=lsp.Position(line=int(raw["end"]["line"]), character=int(raw["end"]["character"])),
    )


@record
class FixData:
    """A fix read back from a diagnostic's ``data``."""

    title: str
    edits: tuple[tuple[str, lsp.Range, str, bool], ...]
    command: str | None
    arguments: tuple[Any, ...]
    preferred: bool


def fixes_from_data(data: Any) -> list[FixData]:
    """The fixes a diagnostic carries; malformed data yields none rather than an error."""
    if not isinstance(data, Mapping):
        return []
    out: list[FixData] = []
    for raw in data.get("fixes") or ():
        try:
            edits = tuple(
                (str(e["uri"]), range_from_json(e["range"]), str(e["newText"]), bool(e.get("create", False)))
                for e in raw.get("edits") or ()
            )
            command = raw.get("command")
            out.append(
                FixData(
                    title=str(raw["title"]),
                    edits=edits,
                    command=str(command) if command else None,
                    arguments=tuple(raw.get("arguments") or ()),
                    preferred=bool(raw.get("preferred", False)),
                )
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
    return out


def workspace_edit(
    edits: Iterable[tuple[str, lsp.Range, str, bool]],
    versions: Mapping[str, int],
    document_changes: bool,
) -> lsp.WorkspaceEdit:
    """A workspace edit: versioned ``documentChanges`` when the client supports them, else ``changes``.

    ``create`` marks an edit to a file that does not exist yet: with document changes it is
    preceded by a ``CreateFile`` operation.
    """
    by_uri: dict[str, list[lsp.TextEdit]] = {}
    creates: list[str] = []
    for uri, range_, new_text, create in edits:
        by_uri.setdefault(uri, []).append(lsp.TextEdit(range=range_, new_text=new_text))
        if create and uri not in creates:
            creates.append(uri)
    if not document_changes:
        return lsp.WorkspaceEdit(changes=by_uri)
    ops: list[lsp.TextDocumentEdit | lsp.CreateFile | lsp.RenameFile | lsp.DeleteFile] = [
        lsp.CreateFile(uri=uri, options=lsp.CreateFileOptions(ignore_if_exists=True)) for uri in creates
    ]
    for uri, text_edits in by_uri.items():
        ops.append(
            lsp.TextDocumentEdit(
                text_document=lsp.OptionalVersionedTextDocumentIdentifier(uri=uri, version=versions.get(uri)),
                edits=list(text_edits),
            )
        )
    return lsp.WorkspaceEdit(document_changes=ops)


def diagnostic_key(d: lsp.Diagnostic) -> tuple[Any, ...]:
    """What makes two diagnostics the same for diffing (marksman): everything the client shows."""
    return (
        d.range.start.line,
        d.range.start.character,
        d.range.end.line,
        d.range.end.character,
        d.severity,
        d.code,
        d.message,
        repr(d.related_information),
        repr(d.data),
    )
