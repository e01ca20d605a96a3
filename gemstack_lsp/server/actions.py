"""textDocument/codeAction: quick fixes from the fixes each diagnostic carries, and source actions.

Every fix a finding offered travels in its diagnostic's ``data`` (see ``convert``); a quick fix
is rebuilt from that data alone, never by analysing again. Two fixes are computed here from
the diagnostic and the buffer when the finding did not carry them: moving an indented
Gemstack fence to column 0, and removing a duplicate contract object. Source actions offer
the capsule commands on a feature's documents and the safe plan writer on a gitnexus plan.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from gemstack_lsp.core.text import Encoding, SourceText, Span
from gemstack_lsp.server import convert
from gemstack_lsp.server.commands import plan_location
from gemstack_lsp.server.session import OpenDocument

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer

SOURCE_REGENERATE = "source.gemstack.regenerateCapsule"
SOURCE_VERIFY = "source.gemstack.verifyCapsule"
SOURCE_WRITE_PLAN = "source.gemstack.writePlan"

_FEATURE_FILES = ("spec.md", "plan.md", "tasks.md", "context-capsule.json")
_FENCE = re.compile(r"^([ \t]+)(`{3,}|~{3,})")


def feature_dir(rel: str) -> str | None:
    """``specs/<name>`` when ``rel`` is one of a feature's capsule sources or its capsule."""
    parts = rel.split("/")
    if len(parts) == 3 and parts[0] == "specs" and parts[2] in _FEATURE_FILES:
        return f"specs/{parts[1]}"
    return None


def _kind_allowed(kind: str, only: list[str] | None) -> bool:
    if not only:
        return True
    return any(kind == o or kind.startswith(o + ".") for o in only)


def fix_action(
    fix: convert.FixData,
    diagnostic: lsp.Diagnostic | None,
    versions: dict[str, int],
    document_changes: bool,
) -> lsp.CodeAction:
    action = lsp.CodeAction(
        title=fix.title,
        kind=lsp.CodeActionKind.QuickFix,
        diagnostics=[diagnostic] if diagnostic is not None else None,
        is_preferred=fix.preferred or None,
    )
    if fix.edits:
        action.edit = convert.workspace_edit(fix.edits, versions, document_changes)
    if fix.command:
        action.command = lsp.Command(title=fix.title, command=fix.command, arguments=list(fix.arguments))
    return action


def fence_to_column0(source: SourceText, diagnostic: lsp.Diagnostic, encoding: Encoding) -> list[Any]:
    """Edits removing the indentation of an indented fence (its opening and closing lines)."""
    line = diagnostic.range.start.line
    text = source.line_text(line)
    m = _FENCE.match(text)
    if m is None:
        return []
    indent = m.group(1)
    marker = m.group(2)[0]
    edits = [(line, len(indent))]
    # The closing fence: the next line with the same indentation and marker.
    for nxt in range(line + 1, source.line_count):
        t = source.line_text(nxt)
        rest = t[len(indent) :]
        if t.startswith(indent) and rest.startswith(marker * 3) and not rest.strip(marker).strip():
            edits.append((nxt, len(indent)))
            break
    out = []
    for ln, width in edits:
        start = source.line_start(ln)
        out.append(convert.to_range(source, Span(start, start + width), encoding))
    return out


def duplicate_object_span(text: str, offset: int) -> Span | None:
    """The span of the JSON object enclosing ``offset`` plus its separating comma, for removal."""
    depth = 0
    i = offset
    start = -1
    in_str = False
    # Walk back to the unmatched '{' (strings are rare in reverse; track quotes roughly).
    while i > 0:
        i -= 1
        ch = text[i]
        if ch == '"' and text[i - 1] != "\\":
            in_str = not in_str
        if in_str:
            continue
        if ch == "}":
            depth += 1
        elif ch == "{":
            if depth == 0:
                start = i
                break
            depth -= 1
    if start < 0:
        return None
    depth = 0
    in_str = False
    j = start
    end = -1
    while j < len(text):
        ch = text[j]
        if in_str:
            if ch == "\\":
                j += 2
                continue
            if ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                end = j + 1
                break
        j += 1
    if end < 0:
        return None
    # Take the preceding comma (and whitespace) so the array stays valid.
    k = start
    while k > 0 and text[k - 1] in " \t\r\n":
        k -= 1
    if k > 0 and text[k - 1] == ",":
        return Span(k - 1, end)
    m = end
    while m < len(text) and text[m] in " \t\r\n":
        m += 1
    if m < len(text) and text[m] == ",":
        m += 1
        while m < len(text) and text[m] in " \t\r\n":
            m += 1
        return Span(start, m)
    return Span(start, end)


def computed_fixes(doc: OpenDocument, diagnostic: lsp.Diagnostic, encoding: Encoding) -> list[convert.FixData]:
    """Fixes computed from the buffer for findings that did not carry their own."""
    source = doc.source
    if diagnostic.code == "FENCE_UNSEEN_BY_REFERENCE":
        ranges = fence_to_column0(source, diagnostic, encoding)
        if ranges:
            return [
                convert.FixData(
                    "Move the Gemstack fence to column 0",
                    tuple((doc.uri, r, "", False) for r in ranges),
                    None,
                    (),
                    True,
                )
            ]
    if diagnostic.code == "CONTRACT_DUPLICATE_ID":
        offset = convert.to_offset(source, diagnostic.range.start, encoding)
        span = duplicate_object_span(doc.text, offset)
        if span is not None:
            return [
                convert.FixData(
                    "Remove the duplicate contract",
                    ((doc.uri, convert.to_range(source, span, encoding), "", False),),
                    None,
                    (),
                    False,
                )
            ]
    return []


def _command(title: str, command: str, argument: str) -> lsp.Command:
    return lsp.Command(title=title, command=command, arguments=[argument])


def code_actions(server: GemstackServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction | lsp.Command]:
    session = server.session
    uri = params.text_document.uri
    only = list(params.context.only) if params.context.only else None
    doc = session.documents.get(uri)
    path, root, rel = (doc.path, doc.root, doc.rel) if doc is not None else session.locate(uri)
    out: list[lsp.CodeAction | lsp.Command] = []
    if path is not None and plan_location(path) is not None and _kind_allowed(SOURCE_WRITE_PLAN, only):
        out.append(
            lsp.CodeAction(
                title="Write plan with the safe plan writer",
                kind=SOURCE_WRITE_PLAN,
                command=_command("Write plan with the safe plan writer", "gemstack.writePlan", uri),
            )
        )
    if root is None or rel is None:
        return _for_client(session.client.code_action_literals, out)
    versions = {d.uri: d.version for d in session.documents.values()}
    if _kind_allowed(lsp.CodeActionKind.QuickFix, only):
        for diagnostic in params.context.diagnostics:
            if diagnostic.source != convert.SOURCE:
                continue
            fixes = convert.fixes_from_data(diagnostic.data)
            if not fixes and doc is not None:
                fixes = computed_fixes(doc, diagnostic, session.encoding)
            for fix in fixes:
                out.append(fix_action(fix, diagnostic, versions, session.client.document_changes))
    feature = feature_dir(rel)
    if feature is not None:
        target = convert.path_to_uri(f"{root}/{feature}")
        if _kind_allowed(SOURCE_REGENERATE, only):
            out.append(
                lsp.CodeAction(
                    title="Regenerate context capsule",
                    kind=SOURCE_REGENERATE,
                    command=_command("Regenerate context capsule", "gemstack.regenerateCapsule", target),
                )
            )
        if _kind_allowed(SOURCE_VERIFY, only):
            out.append(
                lsp.CodeAction(
                    title="Verify context capsule",
                    kind=SOURCE_VERIFY,
                    command=_command("Verify context capsule", "gemstack.verifyCapsule", target),
                )
            )
    return _for_client(session.client.code_action_literals, out)


def _for_client(literals: bool, out: list[lsp.CodeAction | lsp.Command]) -> list[lsp.CodeAction | lsp.Command]:
    if literals:
        return out
    # Clients without literal support take bare commands only.
    return [a.command for a in out if isinstance(a, lsp.CodeAction) and a.command is not None]


def register(server: GemstackServer) -> None:
    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(
            code_action_kinds=[
                lsp.CodeActionKind.QuickFix,
                lsp.CodeActionKind.Source,
                SOURCE_REGENERATE,
                SOURCE_VERIFY,
                SOURCE_WRITE_PLAN,
            ],
            resolve_provider=False,
        ),
    )
    def code_action(params: lsp.CodeActionParams) -> list[lsp.CodeAction | lsp.Command] | None:
        if not server.session.settings_for(params.text_document.uri).code_actions:
            return None
        server.stats["codeAction"] += 1
        return code_actions(server, params) or None
