"""textDocument/prepareRename and /rename of a contract, test, task, action or provider id
(``ide.rename``), and the command that renames through a frozen phase on purpose.

Renaming is refused with the reason (``RequestFailed``, which clients show) for an id of a
derived file, a new id of the wrong shape, or a clash. An edit that changes a frozen phase's
artifact (a contract frozen by the spec phase, a test of a frozen spec) needs an explicit
confirmation, in one of two ways:

- a client that supports change annotations with ``documentChanges``
  (``workspace.workspaceEdit.changeAnnotationSupport``, VS Code) gets the edit, and every
  edit of a frozen artifact carries the annotation ``gemstack.frozen`` with
  ``needsConfirmation: true``: the client shows the change for review and applies it only
  when the user accepts it;
- any other client gets the refusal, which says why, that the Gemstack way is an amendment,
  and how to rename anyway in that client's own terms (``wording.rename_anyway``: Neovim's
  :GemstackRenameFrozen, else the command ``gemstack.renameFrozenContract``); run with the arguments
  ``[uri, {"line": l, "character": c}, newName]`` it plans the same rename with the frozen
  edits allowed and applies it through ``workspace/applyEdit``.

Every edit names the URI of a file inside the repository, resolved by the server (the open
buffer's URI when the file is open, else the file's own URI); a file whose real path leaves
the repository is never edited. Background lane: a rename reads the whole repository index.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from gemstack_lsp.containment import real_within
from gemstack_lsp.core.i18n import ui
from gemstack_lsp.ide.rename import RenamePlan, RenameRefused, plan_rename, prepare_rename
from gemstack_lsp.server import convert
from gemstack_lsp.server.commands import CommandError, localized_error
from gemstack_lsp.server.context import DocumentContext, RequestView, take_view
from gemstack_lsp.server.requests import RequestRefused, request
from gemstack_lsp.server.wording import RENAME_FROZEN_COMMAND, rename_anyway

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer

RENAME_FROZEN = RENAME_FROZEN_COMMAND

#: Change annotation ids.
FROZEN_ANNOTATION = "gemstack.frozen"
RENAME_ANNOTATION = "gemstack.rename"


def _context(view: RequestView, uri: str) -> DocumentContext:
    ctx = view.document(uri)
    if ctx is None or ctx.snapshot is None or ctx.rel is None:
        raise RequestRefused("Rename works on the documents of a Gemstack repository.")
    if not ctx.settings.rename:
        raise RequestRefused("Rename is switched off in the gemstack settings (features.rename).")
    return ctx


def prepare_rename_request(view: RequestView, params: lsp.PrepareRenameParams) -> lsp.PrepareRenamePlaceholder | None:
    ctx = _context(view, params.text_document.uri)
    assert ctx.snapshot is not None and ctx.rel is not None
    offset = convert.to_offset(ctx.source, params.position, ctx.encoding)
    try:
        target = prepare_rename(ctx.snapshot, ctx.rel, offset)
    except RenameRefused as exc:
        raise RequestRefused(str(exc)) from None
    if target is None:
        return None
    return lsp.PrepareRenamePlaceholder(
        range=convert.to_range(ctx.source, target.span, ctx.encoding), placeholder=target.value
    )


def refusal_message(refused: RenameRefused, client_name: str) -> str:
    """The refusal as the client shows it: a frozen id's ends with how to rename it anyway in
    that client (``wording.rename_anyway``)."""
    if refused.frozen is None:
        return str(refused)
    return f"{refused} To rename anyway, {rename_anyway(client_name)}"


def _plan(
    ctx: DocumentContext, position: lsp.Position, new_name: str, allow_frozen: bool, client_name: str = ""
) -> RenamePlan | None:
    assert ctx.snapshot is not None and ctx.rel is not None
    offset = convert.to_offset(ctx.source, position, ctx.encoding)
    try:
        return plan_rename(ctx.snapshot, ctx.rel, offset, new_name, allow_frozen=allow_frozen)
    except RenameRefused as exc:
        raise RequestRefused(refusal_message(exc, client_name)) from None


def workspace_edit(
    ctx: DocumentContext,
    plan: RenamePlan,
    versions: Mapping[str, int],
    document_changes: bool,
    annotate: bool,
) -> lsp.WorkspaceEdit:
    """The plan as one workspace edit (annotated when ``annotate``; see the module docstring)."""
    snapshot = ctx.snapshot
    assert snapshot is not None
    root = snapshot.root
    by_uri: dict[str, list[lsp.TextEdit | lsp.AnnotatedTextEdit]] = {}
    for edit in plan.edits:
        if not real_within(os.path.join(root, edit.path), root):
            raise RequestRefused(f"{edit.path} lies outside the repository (a symbolic link): nothing was renamed.")
        source = snapshot.repo.document(edit.path).source
        if source is None:
            raise RequestRefused(f"{edit.path} cannot be read: nothing was renamed.")
        rng = convert.to_range(source, edit.span, ctx.encoding)
        uri = ctx.uri_of(root, edit.path)
        if annotate:
            annotation = FROZEN_ANNOTATION if edit.frozen is not None else RENAME_ANNOTATION
            by_uri.setdefault(uri, []).append(
                lsp.AnnotatedTextEdit(annotation_id=annotation, range=rng, new_text=edit.new_text)
            )
        else:
            by_uri.setdefault(uri, []).append(lsp.TextEdit(range=rng, new_text=edit.new_text))
    if not document_changes:
        return lsp.WorkspaceEdit(
            changes={uri: [lsp.TextEdit(range=e.range, new_text=e.new_text) for e in es] for uri, es in by_uri.items()}
        )
    ops: list[lsp.TextDocumentEdit | lsp.CreateFile | lsp.RenameFile | lsp.DeleteFile] = [
        lsp.TextDocumentEdit(
            text_document=lsp.OptionalVersionedTextDocumentIdentifier(uri=uri, version=versions.get(uri)),
            edits=list(edits),
        )
        for uri, edits in by_uri.items()
    ]
    annotations: dict[str, lsp.ChangeAnnotation] | None = None
    if annotate:
        target = plan.target
        annotations = {
            RENAME_ANNOTATION: lsp.ChangeAnnotation(
                label=f"Rename {target.kind} {target.value} to {plan.new_name}", needs_confirmation=False
            )
        }
        frozen = plan.frozen
        if frozen:
            phases = ", ".join(f"{p.phase} of {p.feature}" for p in frozen)
            annotations[FROZEN_ANNOTATION] = lsp.ChangeAnnotation(
                label=f"Change a frozen artifact ({phases})",
                needs_confirmation=True,
                description=(
                    "This edit changes a frozen phase's artifact and breaks the hash state.json recorded "
                    "(FROZEN_ARTIFACT_CHANGED). The Gemstack way is an amendment; accept only if you mean it."
                ),
            )
    return lsp.WorkspaceEdit(document_changes=ops, change_annotations=annotations)


def rename_request(view: RequestView, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
    ctx = _context(view, params.text_document.uri)
    annotate = view.client.change_annotations
    plan = _plan(ctx, params.position, params.new_name, annotate, view.client.name)
    if plan is None:
        return None
    assert ctx.snapshot is not None
    versions = dict(view.root_versions.get(ctx.snapshot.root, {}))
    return workspace_edit(ctx, plan, versions, view.client.document_changes, annotate and bool(plan.frozen))


def _position(raw: Any) -> lsp.Position:
    if isinstance(raw, Mapping):
        line, character = raw.get("line"), raw.get("character")
    else:
        line, character = getattr(raw, "line", None), getattr(raw, "character", None)
    if not isinstance(line, int) or not isinstance(character, int) or line < 0 or character < 0:
        raise CommandError(f"{RENAME_FROZEN}: the position must be {{line, character}} (whole numbers >= 0)")
    return lsp.Position(line=line, character=character)


def _frozen_edit(
    view: RequestView, uri: str, position: lsp.Position, new_name: str
) -> tuple[RenamePlan, lsp.WorkspaceEdit]:
    """The plan and edit of the command (on a worker thread, from the view taken on the loop:
    it reads the repository index)."""
    try:
        ctx = _context(view, uri)
        plan = _plan(ctx, position, new_name, allow_frozen=True)
        if plan is None:
            raise RequestRefused("there is no contract, test, task, action or provider id there")
        assert ctx.snapshot is not None
        versions = dict(view.root_versions.get(ctx.snapshot.root, {}))
        return plan, workspace_edit(ctx, plan, versions, view.client.document_changes, annotate=False)
    except RequestRefused as exc:
        raise CommandError(f"{RENAME_FROZEN}: {exc}") from None


async def rename_frozen(server: GemstackServer, *args: Any) -> dict[str, Any]:
    """The command: ``[uri, position, newName]``; renames through frozen phases, on purpose."""
    if len(args) != 3 or not isinstance(args[0], str) or not isinstance(args[2], str):
        raise CommandError(f"{RENAME_FROZEN} takes [uri, {{line, character}}, newName]")
    uri, position, new_name = args[0], _position(args[1]), args[2]
    view = take_view(server, RENAME_FROZEN, {"uri": uri})
    if not view.client.apply_edit:
        raise CommandError(f"{RENAME_FROZEN}: this editor cannot apply a workspace edit the server sends")
    loop = asyncio.get_running_loop()
    plan, edit = await loop.run_in_executor(server.request_executor, _frozen_edit, view, uri, position, new_name)
    language = view.language
    old, new = plan.target.value, plan.new_name
    if not plan.edits:
        return {"applied": False, "edits": 0, "frozen": [], "message": ui("rename.same_name", language, name=old)}
    result = await server.workspace_apply_edit_async(
        lsp.ApplyWorkspaceEditParams(edit=edit, label=ui("rename.label", language, old=old, new=new))
    )
    frozen = [f"{p.phase}.md of {p.feature}" for p in plan.frozen]
    if not result.applied:
        # The editor's reason is quoted as the editor gives it.
        reason = result.failure_reason or ui("rename.no_reason", language)
        message = ui("rename.not_applied", language, reason=reason)
    elif plan.frozen:
        files = ", ".join(ui("rename.frozen_file", language, phase=p.phase, feature=p.feature) for p in plan.frozen)
        message = ui("rename.done_frozen", language, old=old, new=new, n=len(plan.edits), files=files)
    else:
        message = ui("rename.done", language, old=old, new=new, n=len(plan.edits))
    return {"applied": bool(result.applied), "edits": len(plan.edits), "frozen": frozen, "message": message}


def register(server: GemstackServer) -> None:
    request(server, lsp.TEXT_DOCUMENT_PREPARE_RENAME)(prepare_rename_request)
    request(server, lsp.TEXT_DOCUMENT_RENAME)(rename_request)

    async def run(ls: Any, *args: Any) -> Any:
        server.stats[RENAME_FROZEN] += 1
        try:
            return await rename_frozen(server, *args)
        except CommandError as refusal:
            raise localized_error(refusal, server.session.language) from None

    server.command(RENAME_FROZEN)(run)


__all__ = ["RENAME_FROZEN", "refusal_message", "register", "workspace_edit"]
