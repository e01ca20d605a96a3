"""Quick fixes that silence a finding: "Ignore CODE here…" and "Ignore CODE in this repository".

"Ignore CODE here…" (Markdown documents) inserts ``<!-- gemstack-lsp-ignore CODE reason -->``
on its own line before the finding's line, or before the opening fence of the fenced block
the finding is in (a comment inside a block would be code, and the directive covers the
whole block). The reason is a snippet placeholder where the client accepts snippet edits in a
workspace edit (``workspace.workspaceEdit.snippetEditSupport``), the plain word ``reason`` to
overwrite otherwise.

"Ignore CODE in this repository" adds the code to the top-level ``ignore`` array of the
repository's configuration: ``.gemstack/lsp.toml`` (created when the repository has no
configuration and the client can create files), or the ``[tool.gemstack-lsp]`` table of
``pyproject.toml`` when that is where the configuration lives. Both are plain workspace edits:
nothing is written by the server.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lsprotocol import types as lsp

from gemstack_lsp.core.config import PROJECT_FILE, PYPROJECT_FILE, parse_project_config
from gemstack_lsp.core.findings import CATALOGUE
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.markdown import scan_fences
from gemstack_lsp.core.policy import SUPPRESSION_CODES, is_silenceable
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.suppressions import IGNORE
from gemstack_lsp.core.text import Encoding, SourceText, Span
from gemstack_lsp.server import convert
from gemstack_lsp.uris import path_to_uri

__all__ = ["IgnoreContext", "ignore_actions", "ignore_here_title", "ignore_repository_title"]

#: The placeholder a user overwrites with the reason.
REASON = "reason"


def ignore_here_title(code: str) -> str:
    return f"Ignore {code} here…"


def ignore_repository_title(code: str) -> str:
    return f"Ignore {code} in this repository"


@record
class IgnoreContext:
    """What the actions need: the repository as the editor holds it and the client's abilities."""

    repo: GemstackRepo
    root: str
    rel: str
    uri: str
    encoding: Encoding
    versions: dict[str, int]
    document_changes: bool
    create_files: bool
    snippet_edits: bool


def _insertion_line(text: str, line: int) -> int:
    """The line before which the comment goes: the finding's, or its fenced block's opening."""
    for fence in scan_fences(text):
        last = fence.close_line if fence.close_line is not None else text.count("\n")
        if fence.open_line <= line <= last:
            return fence.open_line
    return line


def _here(ctx: IgnoreContext, code: str, diagnostic: lsp.Diagnostic) -> lsp.CodeAction | None:
    doc = ctx.repo.document(ctx.rel)
    if doc.text is None or doc.source is None:
        return None
    source = doc.source
    start = convert.to_offset(source, diagnostic.range.start, ctx.encoding)
    line = _insertion_line(doc.text, source.line_of(start))
    line_text = source.line_text(line)
    indent = line_text[: len(line_text) - len(line_text.lstrip(" \t"))]
    at = convert.to_position(source, source.line_start(line), ctx.encoding)
    range_ = lsp.Range(start=at, end=at)
    title = ignore_here_title(code)
    action = lsp.CodeAction(title=title, kind=lsp.CodeActionKind.QuickFix, diagnostics=[diagnostic])
    if ctx.snippet_edits and ctx.document_changes:
        snippet = f"{indent}<!-- {IGNORE} {code} ${{1:{REASON}}} -->\n"
        action.edit = lsp.WorkspaceEdit(
            document_changes=[
                lsp.TextDocumentEdit(
                    text_document=lsp.OptionalVersionedTextDocumentIdentifier(
                        uri=ctx.uri, version=ctx.versions.get(ctx.uri)
                    ),
                    edits=[lsp.SnippetTextEdit(range=range_, snippet=lsp.StringValue(value=snippet))],
                )
            ]
        )
    else:
        text = f"{indent}<!-- {IGNORE} {code} {REASON} -->\n"
        action.edit = convert.workspace_edit([(ctx.uri, range_, text, False)], ctx.versions, ctx.document_changes)
    return action


_TABLE_HEADER = re.compile(r"(?m)^[ \t]*\[")
_PYPROJECT_HEADER = re.compile(r"(?m)^[ \t]*\[[ \t]*tool[ \t]*\.[ \t]*[\"']?gemstack-lsp[\"']?[ \t]*\][ \t]*(?:#.*)?$")
_IGNORE_ARRAY = re.compile(r"(?m)^[ \t]*[\"']?ignore[\"']?[ \t]*=[ \t]*\[")


def _config_edit(text: str, code: str, pyproject: bool) -> tuple[int, str] | None:
    """(offset, text to insert) adding ``code`` to the top-level ``ignore`` of a configuration."""
    entry = f'"{code}"'
    if pyproject:
        header = _PYPROJECT_HEADER.search(text)
        if header is None:
            return None
        start = text.find("\n", header.end())
        start = len(text) if start < 0 else start + 1
        nxt = _TABLE_HEADER.search(text, start)
        end = nxt.start() if nxt is not None else len(text)
        prefix = "" if start <= len(text) and (start == 0 or text[start - 1] == "\n") else "\n"
    else:
        start = 0
        nxt = _TABLE_HEADER.search(text)
        end = nxt.start() if nxt is not None else len(text)
        prefix = ""
    found = _IGNORE_ARRAY.search(text, start, end)
    if found is not None:
        rest = text[found.end() : end].lstrip(" \t\r\n")
        return found.end(), entry + ("" if rest.startswith("]") else ", ")
    if not pyproject:
        # After the leading comments (a `#:schema` line stays first).
        at = 0
        while at < len(text) and text.startswith("#", at):
            nl = text.find("\n", at)
            at = len(text) if nl < 0 else nl + 1
        if at == len(text) and text and not text.endswith("\n"):
            return at, f"\nignore = [{entry}]\n"
        return at, f"ignore = [{entry}]\n"
    return start, f"{prefix}ignore = [{entry}]\n"


def _repository(ctx: IgnoreContext, code: str, diagnostic: lsp.Diagnostic) -> lsp.CodeAction | None:
    title = ignore_repository_title(code)
    project = ctx.repo.document(PROJECT_FILE)
    target, pyproject = PROJECT_FILE, False
    if not project.exists:
        pyproj = ctx.repo.document(PYPROJECT_FILE)
        if pyproj.data is not None and parse_project_config(PYPROJECT_FILE, pyproj.data, pyproject=True).path:
            target, pyproject = PYPROJECT_FILE, True
    doc = ctx.repo.document(target)
    uri = path_to_uri(f"{ctx.root}/{target}")
    action = lsp.CodeAction(title=title, kind=lsp.CodeActionKind.QuickFix, diagnostics=[diagnostic])
    if not doc.exists:
        if not ctx.create_files:
            return None
        start = lsp.Position(line=0, character=0)
        action.edit = convert.workspace_edit(
            [(uri, lsp.Range(start=start, end=start), f'ignore = ["{code}"]\n', True)], ctx.versions, True
        )
        return action
    if doc.text is None or doc.data is None:
        return None
    config = parse_project_config(target, doc.data, pyproject=pyproject)
    if not config.parsed or code in config.policy.ignore:
        return None
    edit = _config_edit(doc.text, code, pyproject)
    if edit is None:
        return None
    offset, new_text = edit
    source = doc.source or SourceText(doc.text)
    range_ = convert.to_range(source, Span(offset, offset), ctx.encoding)
    action.edit = convert.workspace_edit([(uri, range_, new_text, False)], ctx.versions, ctx.document_changes)
    return action


def ignore_actions(ctx: IgnoreContext, diagnostics: Sequence[lsp.Diagnostic]) -> list[lsp.CodeAction]:
    """The silencing quick fixes for the Gemstack diagnostics given (one per code and kind)."""
    out: list[lsp.CodeAction] = []
    seen: set[tuple[str, str]] = set()
    markdown = ctx.rel.endswith(".md")
    for d in diagnostics:
        code = d.code
        if d.source != convert.SOURCE or not isinstance(code, str) or code not in CATALOGUE:
            continue
        if not is_silenceable(code):
            continue
        if markdown and code not in SUPPRESSION_CODES and ("here", f"{code}:{d.range.start.line}") not in seen:
            seen.add(("here", f"{code}:{d.range.start.line}"))
            action = _here(ctx, code, d)
            if action is not None:
                out.append(action)
        if ("repo", code) not in seen:
            seen.add(("repo", code))
            action = _repository(ctx, code, d)
            if action is not None:
                out.append(action)
    return out
