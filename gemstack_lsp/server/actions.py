"""textDocument/codeAction: quick fixes from the fixes each diagnostic carries, and source actions.

Every fix a finding offered travels in its diagnostic's ``data`` (see ``convert``); a quick fix
is rebuilt from that data alone, never by analysing again. Source actions offer the capsule
commands on a feature's documents and the safe plan writer on a gitnexus plan.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from gemstack_lsp.core.i18n import ACTION_TITLE, FIX, Language, translate
from gemstack_lsp.server import convert
from gemstack_lsp.server.commands import plan_location
from gemstack_lsp.server.context import RequestView
from gemstack_lsp.server.ignore_actions import IgnoreContext, ignore_actions
from gemstack_lsp.server.requests import request
from gemstack_lsp.uris import path_to_uri, uri_to_path

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer

log = logging.getLogger(__name__)

SOURCE_REGENERATE = "source.gemstack.regenerateCapsule"
SOURCE_VERIFY = "source.gemstack.verifyCapsule"
SOURCE_WRITE_PLAN = "source.gemstack.writePlan"

_FEATURE_FILES = ("spec.md", "plan.md", "tasks.md", "context-capsule.json")

#: The titles of the capsule actions: the same words as the fixes the capsule findings carry.
REGENERATE_TITLE = "Regenerate the context capsule"
VERIFY_TITLE = "Verify the context capsule"


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


def _intent(command: str, arguments: Sequence[Any], root: str) -> tuple[str, ...]:
    """What running ``command`` with ``arguments`` does, whichever way the feature is named
    (``specs/<name>``, an absolute path or a file URI)."""
    names: list[str] = [command]
    for arg in arguments:
        text = arg if isinstance(arg, str) else repr(arg)
        path = uri_to_path(text) if text.startswith("file:") else text
        if path is not None and os.path.isabs(path):
            rel = os.path.relpath(path, root)
            text = rel.replace(os.sep, "/") if not rel.startswith("..") else path
        names.append(text.rstrip("/"))
    return tuple(names)


def _command(title: str, command: str, argument: str) -> lsp.Command:
    return lsp.Command(title=title, command=command, arguments=[argument])


def code_actions(view: RequestView, params: lsp.CodeActionParams) -> list[lsp.CodeAction | lsp.Command]:
    uri = params.text_document.uri
    only = list(params.context.only) if params.context.only else None
    path, root, rel = view.located[uri]
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
        return _for_client(view.client.code_action_literals, _localized(out, view.language))
    versions = dict(view.versions)
    # One action per intent: several diagnostics offer the same fix (each capsule finding
    # offers "Regenerate"), and the source actions repeat the capsule commands. The first
    # quick fix of an intent stays and lists every diagnostic it resolves; a source action
    # whose command a quick fix already runs is left out.
    intents: dict[tuple[str, ...], lsp.CodeAction] = {}
    if _kind_allowed(lsp.CodeActionKind.QuickFix, only):
        for diagnostic in params.context.diagnostics:
            if diagnostic.source != convert.SOURCE:
                continue
            for fix in convert.fixes_from_data(diagnostic.data):
                key = _intent(fix.command, fix.arguments, root) if fix.command else ("edit", fix.title)
                seen = intents.get(key)
                if seen is not None and not fix.edits:
                    if seen.diagnostics is not None and diagnostic not in seen.diagnostics:
                        seen.diagnostics = [*seen.diagnostics, diagnostic]
                    continue
                action = fix_action(fix, diagnostic, versions, view.client.document_changes)
                intents.setdefault(key, action)
                out.append(action)
    if _kind_allowed(lsp.CodeActionKind.QuickFix, only):
        out.extend(_ignore_actions(view, root, rel, uri, versions, params.context.diagnostics))
    feature = feature_dir(rel)
    if feature is not None:
        target = path_to_uri(f"{root}/{feature}")
        for kind, title, command in (
            (SOURCE_REGENERATE, REGENERATE_TITLE, "gemstack.regenerateCapsule"),
            (SOURCE_VERIFY, VERIFY_TITLE, "gemstack.verifyCapsule"),
        ):
            if not _kind_allowed(kind, only) or _intent(command, (target,), root) in intents:
                continue
            out.append(lsp.CodeAction(title=title, kind=kind, command=_command(title, command, target)))
    return _for_client(view.client.code_action_literals, _localized(out, view.language))


def _ignore_actions(
    view: RequestView,
    root: str,
    rel: str,
    uri: str,
    versions: dict[str, int],
    diagnostics: Sequence[lsp.Diagnostic],
) -> list[lsp.CodeAction]:
    """ "Ignore CODE here…" and "Ignore CODE in this repository" (``ignore_actions``)."""
    snapshot = view.snapshots.get(root)
    if snapshot is None or not any(d.source == convert.SOURCE for d in diagnostics):
        return []
    ctx = IgnoreContext(
        repo=snapshot.repo,
        root=root,
        rel=rel,
        uri=uri,
        encoding=view.encoding,
        versions=versions,
        document_changes=view.client.document_changes,
        create_files=view.client.create_files,
        snippet_edits=view.client.snippet_edits,
    )
    try:
        return ignore_actions(ctx, diagnostics)
    except Exception:  # the other code actions must not be lost to a surprising document
        log.exception("the ignore quick fixes failed for %s", rel)
        return []


def _title(title: str, language: Language) -> str:
    """A code action's title in ``language``: a fix's title or one of the actions' own."""
    if language == "en":
        return title
    for code in (ACTION_TITLE, FIX):
        translated = translate(code, title, language)
        if translated is not None:
            return translated
    return title


def _localized(out: list[lsp.CodeAction | lsp.Command], language: Language) -> list[lsp.CodeAction | lsp.Command]:
    """The actions with their titles (and their commands' titles) in the client's language."""
    if language == "en":
        return out
    for action in out:
        action.title = _title(action.title, language)
        command = getattr(action, "command", None)
        if isinstance(command, lsp.Command):
            command.title = _title(command.title, language)
    return out


def _for_client(literals: bool, out: list[lsp.CodeAction | lsp.Command]) -> list[lsp.CodeAction | lsp.Command]:
    if literals:
        return out
    # Clients without literal support take bare commands only.
    return [a.command for a in out if isinstance(a, lsp.CodeAction) and a.command is not None]


def code_action(view: RequestView, params: lsp.CodeActionParams) -> list[lsp.CodeAction | lsp.Command] | None:
    settings = view.settings.get(params.text_document.uri)
    if settings is None or not settings.code_actions:
        return None
    return code_actions(view, params) or None


def register(server: GemstackServer) -> None:
    options = lsp.CodeActionOptions(
        code_action_kinds=[
            lsp.CodeActionKind.QuickFix,
            lsp.CodeActionKind.Source,
            SOURCE_REGENERATE,
            SOURCE_VERIFY,
            SOURCE_WRITE_PLAN,
        ],
        resolve_provider=False,
    )
    request(server, lsp.TEXT_DOCUMENT_CODE_ACTION, options)(code_action)
