"""workspace/executeCommand: the gemstack.* commands.

- ``gemstack.regenerateCapsule [feature]``: generate the capsule from the sources as the editor
  holds them, write it atomically, re-analyse (its findings clear), with ``$/progress``.
- ``gemstack.verifyCapsule [feature]``: show the capsule's state and re-publish.
- ``gemstack.checkWorkspace``: analyse every repository again and summarise.
- ``gemstack.writePlan [uri]``: the safe plan writer on a gitnexus plan buffer.
- ``gemstack.applyFix [fix]``: apply one serialised fix through ``workspace/applyEdit``.

A feature argument is a file URI, an absolute path or a repository-relative ``specs/<name>``;
anything that resolves outside the workspace is refused with an ``InvalidParams`` error.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import hashlib
import json
import logging
import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInvalidParams

from gemstack_lsp import containment
from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.i18n import COMMAND_ERROR, SERVER_MESSAGE, Language, localize, localize_plan_error, ui
from gemstack_lsp.core.printable import printable
from gemstack_lsp.core.repo import Feature, GemstackRepo
from gemstack_lsp.core.text import Span, utf8
from gemstack_lsp.server import convert
from gemstack_lsp.server.wording import diagnostics_place
from gemstack_lsp.uris import path_to_uri, uri_to_path

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer

log = logging.getLogger(__name__)

REGENERATE = "gemstack.regenerateCapsule"
VERIFY = "gemstack.verifyCapsule"
CHECK = "gemstack.checkWorkspace"
WRITE_PLAN = "gemstack.writePlan"
APPLY_FIX = "gemstack.applyFix"
COMMANDS = (REGENERATE, VERIFY, CHECK, WRITE_PLAN, APPLY_FIX)


class CommandError(JsonRpcInvalidParams):
    """A command argument the server refuses (answered as an LSP InvalidParams error).

    A routine refusal: logged once, without a traceback (``GemstackProtocol``)."""

    routine = True

    def __init__(self, message: str) -> None:
        super().__init__(message=f"gemstack: {message}")


def localized_error(error: CommandError, language: Language) -> CommandError:
    """``error`` with its message in ``language`` (the client's; unchanged when English)."""
    prefix = "gemstack: "
    message = str(error.message)
    if language == "en" or not message.startswith(prefix):
        return error
    translated = localize(COMMAND_ERROR, message[len(prefix) :], language)
    return error if translated == message[len(prefix) :] else type(error)(translated)


def _path_of(server: GemstackServer, arg: Any) -> str:
    """An absolute path from a URI, an absolute path, or a path relative to a repository root;
    refused unless its real path lies in the workspace."""
    if isinstance(arg, dict):
        arg = arg.get("uri") or arg.get("path") or arg.get("feature")
    if not isinstance(arg, str) or not arg.strip():
        raise CommandError(f"expected a file URI or path, got {_quote(arg)}")
    if arg.startswith("file:"):
        path = uri_to_path(arg)
        if path is None:
            raise CommandError(f"not a file URI: {_quote(arg)}")
    elif "://" in arg:
        raise CommandError(f"only file: URIs are supported, got {_quote(arg)}")
    elif os.path.isabs(arg):
        path = arg
    else:
        roots = server.session.roots()
        hits = [os.path.join(r, arg) for r in roots if os.path.lexists(os.path.join(r, arg))]
        if len(hits) == 1:
            path = hits[0]
        elif len(roots) == 1:
            path = os.path.join(roots[0], arg)
        elif not hits:
            raise CommandError(f"{_quote(arg)} is in no repository of the workspace")
        else:
            raise CommandError(f"{_quote(arg)} is ambiguous between repositories; pass a URI")
    path = os.path.normpath(path)
    if not server.session.inside_workspace(path):
        raise CommandError(f"{_quote(arg)} lies outside the workspace; refusing to act on it")
    return path


def _quote(value: Any) -> str:
    from gemstack_lsp.core.redact import redact

    return redact(repr(value))


def _artifact(server: GemstackServer, arg: Any) -> tuple[str, str]:
    """(repository root, repository-relative path) of a command argument that names a file or
    folder of a repository in the workspace, under the containment rule: a path whose real
    path leaves its repository (a symlink out) is refused, never followed."""
    _, root, rel = _checked_artifact(server, arg)
    return root, rel


def _checked_artifact(server: GemstackServer, arg: Any) -> tuple[str, str, str]:
    """``_artifact`` with the checked absolute path itself: what an edit must then name."""
    path = _path_of(server, arg)
    where = server.session.where(path_to_uri(path))
    if where is None or where.root is None:
        raise CommandError(f"{_quote(arg)} is not in a Gemstack repository")
    if where.rel is None:
        raise CommandError(f"{_quote(arg)} leaves its repository ({where.escape}); refusing to act on it")
    return path, where.root.real, where.rel


def is_editable_artifact(rel: str) -> bool:
    """True for a repository-relative path a command may change: a Gemstack artifact (specs/**,
    .gemstack/**, a ledger, a capsule, closure.json) or a gitnexus plan, never anything in a
    ``.git`` folder."""
    from gemstack_lsp.server.session import is_gemstack_path, is_plan_path

    parts = rel.split("/")
    if not rel or ".git" in parts or ".." in parts:
        return False
    return is_gemstack_path(rel) or is_plan_path(rel)


def resolve_feature(server: GemstackServer, arg: Any) -> tuple[str, Feature]:
    """The repository root and feature a command argument names (a feature folder or a file in it)."""
    root, rel = _artifact(server, arg)
    parts = rel.split("/")
    if len(parts) < 2 or parts[0] != "specs":
        raise CommandError(f"{_quote(arg)} is not a feature folder (specs/<feature>) or a file in one")
    return root, Feature(parts[1])


@asynccontextmanager
async def progress(server: GemstackServer, title: str) -> AsyncIterator[Any]:
    """``$/progress`` around a piece of work, when the client supports server-created progress."""
    token: str | None = None
    language = server.session.language
    title = localize(SERVER_MESSAGE, title, language)
    if server.session.client.work_done_progress:
        token = f"gemstack-{uuid.uuid4()}"
        try:
            await server.work_done_progress.create_async(token)
            server.work_done_progress.begin(token, lsp.WorkDoneProgressBegin(title=title, percentage=0))
        except Exception as exc:
            log.info("work done progress refused: %s", exc)
            token = None

    def report(message: str, percentage: int) -> None:
        if token is not None:
            message = localize(SERVER_MESSAGE, message, language)
            server.work_done_progress.report(token, lsp.WorkDoneProgressReport(message=message, percentage=percentage))

    try:
        yield report
    finally:
        if token is not None:
            done = localize(SERVER_MESSAGE, "done", language)
            server.work_done_progress.end(token, lsp.WorkDoneProgressEnd(message=done))


def _show(server: GemstackServer, message: str, kind: lsp.MessageType = lsp.MessageType.Info) -> None:
    message = localize(SERVER_MESSAGE, message, server.session.language)  # the client's language
    server.window_show_message(lsp.ShowMessageParams(type=kind, message=printable(message, keep_lines=True)))


async def regenerate_capsule(server: GemstackServer, *args: Any) -> dict[str, Any]:
    from gemstack_lsp.core.capsule.generate import generate_capsule
    from gemstack_lsp.fs import write_atomic

    if not args:
        raise CommandError(f"{REGENERATE} needs the feature (specs/<feature> or a URI)")
    root, feature = resolve_feature(server, args[0])
    session = server.session
    engine = server.diagnostics
    loop = asyncio.get_running_loop()
    async with progress(server, "Regenerating the context capsule") as report:
        # The sources as the editor holds them: unsaved buffers count.
        repo = session.snapshot(root)
        now = dt.datetime.now(dt.UTC)
        result = await loop.run_in_executor(engine.executor, generate_capsule, repo, feature, now)
        report(f"generated {feature.capsule}", 50)
        if not result.ok or result.data is None:
            first = result.findings[0] if result.findings else None
            why = f"{first.code}: {first.message}" if first is not None else "no reason given"
            message = f"Context capsule not generated for {feature.path}: {why}"
            _show(server, message, lsp.MessageType.Error)
            return {"written": False, "path": feature.capsule, "message": result.error_message}
        target = os.path.join(root, feature.capsule)
        data = result.data
        await loop.run_in_executor(engine.executor, functools.partial(write_atomic, target, data, root=root))
        session.forget_file(root, feature.capsule)
        report(f"wrote {feature.capsule}", 80)
        await _sync_open_buffer(server, root, feature.capsule, data.decode("utf-8"))
        request = engine.schedule(root)
        st = await engine.current(root, request)
    remaining = [f for f in st.findings if f.path.startswith(feature.path + "/")]
    left_out = [w.message for w in result.warnings]
    message = regenerated_message(
        feature.capsule, data, remaining, len(left_out), result.condensed, diagnostics_place(session.client.name)
    )
    swarm_note = _swarm_note(repo, feature, data)
    if swarm_note is not None:
        message += " " + swarm_note
    _show(server, message, lsp.MessageType.Warning if left_out or swarm_note else lsp.MessageType.Info)
    for warning in result.warnings:  # what was left out, in the client's language
        note = localize(warning.code, warning.message, session.language)
        server.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Warning, message=note))
    return {
        "written": True,
        "path": feature.capsule,
        "bytes": len(data),
        "invariants": _invariant_count(data),
        "remaining": sorted({f.code for f in remaining}),
        "left_out": left_out,
        "condensed": list(result.condensed),
        "swarm_context_stale": swarm_note,
        "message": message,
    }


def _swarm_note(repo: GemstackRepo, feature: Feature, capsule: bytes) -> str | None:
    """What the feature's swarm.json makes of the capsule just written (the upstream gate it breaks)."""
    from gemstack_lsp.core import swarm

    active = repo.active_feature()
    return swarm.stale_after_regenerate(repo, feature, capsule, active is not None and active.name == feature.name)


def _invariant_count(data: bytes) -> int:
    try:
        capsule = json.loads(data)
    except ValueError:
        return 0
    invariants = capsule.get("canonical_invariants") if isinstance(capsule, dict) else None
    return len(invariants) if isinstance(invariants, list) else 0


def regenerated_message(
    path: str,
    data: bytes,
    remaining: list[Finding],
    left_out: int = 0,
    condensed: tuple[str, ...] = (),
    where: str = "see the Problems list",
) -> str:
    """What Regenerate wrote, what it left out or condensed, and what the feature still reports
    (each finding explains itself; each left-out item is in the output log, never its text).
    ``where`` says where the client lists findings (``wording.diagnostics_place``)."""
    count = _invariant_count(data)
    message = f"Context capsule written: {path} ({len(data)} bytes, {count} invariant{'s' if count != 1 else ''})."
    if left_out:
        items = "1 item that matches" if left_out == 1 else f"{left_out} items that match"
        message += f" Left out {items} the capsule's secret scan (which and why: the server's output log)."
    if condensed:
        message += f" Condensed {', '.join(condensed)} to stay within the size budget."
    if remaining:
        codes = sorted({f.code for f in remaining})
        shown = ", ".join(codes[:3]) + (f" and {len(codes) - 3} more" if len(codes) > 3 else "")
        message += f" Still reported for this feature: {shown} ({where})."
    return message


async def _sync_open_buffer(server: GemstackServer, root: str, rel: str, text: str) -> None:
    """When the written file is open, make the editor's buffer hold the new text too (else the
    stale buffer would keep overlaying the fresh file)."""
    session = server.session
    doc = next((d for d in session.documents.values() if d.root == root and d.rel == rel), None)
    if doc is None or doc.text == text or not session.client.apply_edit:
        return
    source = doc.source
    whole = convert.to_range(source, Span(0, len(doc.text)), session.encoding)
    edit = convert.workspace_edit(
        [(doc.uri, whole, text, False)], {doc.uri: doc.version}, session.client.document_changes
    )
    try:
        await server.workspace_apply_edit_async(lsp.ApplyWorkspaceEditParams(edit=edit, label="Context capsule"))
    except Exception as exc:
        log.info("could not update the open capsule buffer: %s", exc)


async def verify_capsule(server: GemstackServer, *args: Any) -> dict[str, Any]:
    from gemstack_lsp.core.capsule.verify import verify_capsule as verify

    if not args:
        raise CommandError(f"{VERIFY} needs the feature (specs/<feature> or a URI)")
    root, feature = resolve_feature(server, args[0])
    engine = server.diagnostics
    repo = server.session.snapshot(root)
    loop = asyncio.get_running_loop()
    outcome = await loop.run_in_executor(engine.executor, verify, repo, feature)
    state = outcome.state
    findings = list(outcome.findings)
    kind = lsp.MessageType.Info if state in ("VALID", "LEGACY") else lsp.MessageType.Warning
    detail = "; ".join(f"{f.code}: {f.message}" for f in findings[:3])
    _show(server, f"Context capsule of {feature.path}: {state}" + (f" ({detail})" if detail else ""), kind)
    await engine.current(root, engine.schedule(root))
    return {"state": state, "findings": [f.code for f in findings]}


async def check_workspace(server: GemstackServer, *args: Any) -> dict[str, Any]:
    engine = server.diagnostics
    totals: dict[str, int] = {}
    roots = server.session.roots()
    async with progress(server, "Checking the Gemstack workspace") as report:
        for i, root in enumerate(roots):
            st = await engine.current(root, engine.schedule(root))
            for f in st.findings:
                name = f.effective_severity.lsp_name
                totals[name] = totals.get(name, 0) + 1
            report(root, int(100 * (i + 1) / max(len(roots), 1)))
    summary = ", ".join(f"{n} {k}" for k, n in sorted(totals.items())) or "no findings"
    _show(server, f"Gemstack: {len(roots)} repositor{'y' if len(roots) == 1 else 'ies'} checked: {summary}")
    return {"roots": roots, "totals": totals}


async def apply_fix(server: GemstackServer, *args: Any) -> dict[str, Any]:
    if not args:
        raise CommandError(f"{APPLY_FIX} needs a fix")
    fixes = convert.fixes_from_data({"fixes": [args[0]]})
    if not fixes or not fixes[0].edits:
        raise CommandError("the fix carries no edits")
    fix = fixes[0]
    checked: list[tuple[str, lsp.Range, str, bool]] = []
    for uri, range_, new_text, create in fix.edits:
        # Only Gemstack artifacts inside the workspace, never through a symlink out; and the
        # edit names the file that was checked (its normalised absolute path as a URI), never
        # the client's string, which the client could resolve elsewhere (a relative path, ..).
        path, _, rel = _checked_artifact(server, uri)
        if not is_editable_artifact(rel):
            raise CommandError(f"{_quote(rel)} is not a Gemstack artifact; a fix edits only Gemstack files")
        checked.append((path_to_uri(path), range_, new_text, create))
    session = server.session
    versions = {d.uri: d.version for d in session.documents.values()}
    edit = convert.workspace_edit(checked, versions, session.client.document_changes)
    result = await server.workspace_apply_edit_async(lsp.ApplyWorkspaceEditParams(edit=edit, label=fix.title))
    return {"applied": bool(result.applied), "reason": result.failure_reason}


def plan_location(path: str) -> tuple[str, str] | None:
    """(repository root, ``docs/plans/<name>``) of a gitnexus plan path, else ``None``."""
    parts = os.path.normpath(path).split(os.sep)
    if len(parts) < 4 or parts[-3:-1] != ["docs", "plans"]:
        return None
    name = parts[-1]
    if "gitnexus-plan" not in name or not name.endswith(".md"):
        return None
    return os.sep.join(parts[:-3]) or os.sep, f"docs/plans/{name}"


def take_plan_receipt(server: GemstackServer, uri: str) -> None:
    """Record the read-plan receipt of a plan file as it is on disk when the editor opens it
    (read-only: read-plan changes nothing); Deepen later replaces exactly that version."""
    path = uri_to_path(uri)
    where = plan_location(path) if path else None
    if where is None or path is None or not os.path.isfile(path):
        return
    root, rel = where
    if not server.session.inside_workspace(path) or not containment.real_within(path, root):
        # Outside the workspace, or linked out of its repository: never read.
        log.info("no read-plan receipt for %s: it is not a plan of the workspace", rel)
        return

    def read() -> dict[str, Any] | str:
        from gemstack_lsp.provenance.api import ProvenanceError, read_plan

        try:
            return read_plan(root, rel)
        except ProvenanceError as exc:
            return str(exc)

    async def take() -> None:
        loop = asyncio.get_running_loop()
        server.plan_receipts[uri] = await loop.run_in_executor(server.diagnostics.executor, read)

    server.plan_receipts[uri] = "the read-plan receipt is still being taken"
    server.plan_receipt_tasks[uri] = asyncio.get_running_loop().create_task(take())


async def write_plan(server: GemstackServer, *args: Any) -> dict[str, Any]:
    """Write the plan buffer with the safe plan writer: an initial write when the plan does not
    exist, else Deepen, replacing exactly the version whose read-plan receipt was taken at open."""
    from gemstack_lsp.provenance.api import ProvenanceError
    from gemstack_lsp.provenance.api import write_plan as provenance_write

    if not args:
        raise CommandError(f"{WRITE_PLAN} needs the plan's URI")
    path = _path_of(server, args[0])
    where = plan_location(path)
    if where is None:
        raise CommandError(f"{_quote(args[0])} is not a docs/plans/*gitnexus-plan*.md file")
    root, rel = where
    uri = path_to_uri(path)
    doc = server.session.documents.get(uri) or next(
        (d for d in server.session.documents.values() if d.path == os.path.realpath(path)), None
    )
    if doc is None:
        raise CommandError(f"{rel} is not open in the editor: the plan writer writes the editor's buffer")
    content = utf8(doc.text)
    pending = server.plan_receipt_tasks.pop(doc.uri, None)
    if pending is not None:
        await pending
    receipt = server.plan_receipts.get(doc.uri)
    deepen = os.path.lexists(path)
    kwargs: dict[str, Any] = {}
    language = server.session.language
    if deepen:
        if not isinstance(receipt, dict):
            message = localize_plan_error(
                receipt or "no read-plan receipt was taken when the plan was opened", language
            )
            _show(server, ui("plan.needs_receipt", language, why=message), lsp.MessageType.Error)
            return {"written": False, "error": message}
        kwargs = {
            "replace": True,
            "expected_plan_path": receipt["generated_plan_path"],
            "expected_plan_digest": receipt["plan_digest"],
        }
    loop = asyncio.get_running_loop()

    def write() -> dict[str, Any]:
        return provenance_write(root, rel, content, **kwargs)

    try:
        result = await loop.run_in_executor(server.diagnostics.executor, write)
    except ProvenanceError as exc:
        message = localize_plan_error(exc.message, language)
        _show(server, ui("plan.not_written", language, why=message), lsp.MessageType.Error)
        return {"written": False, "error": message}
    # What is on disk now is exactly what was written: a later Deepen replaces this version
    # (never re-read, so a change made meanwhile by someone else is detected, not adopted).
    server.plan_receipts[doc.uri] = {
        "generated_plan_path": rel,
        "bytes_read": len(content),
        "plan_digest": "sha256:" + hashlib.sha256(content).hexdigest(),
    }
    _show(server, f"Plan {'deepened' if deepen else 'written'}: {rel}")
    return {"written": True, "mode": "deepen" if deepen else "initial", "receipt": result}


def register(server: GemstackServer) -> None:
    handlers = {
        REGENERATE: regenerate_capsule,
        VERIFY: verify_capsule,
        CHECK: check_workspace,
        WRITE_PLAN: write_plan,
        APPLY_FIX: apply_fix,
    }
    for name, handler in handlers.items():
        _register_one(server, name, handler)


def _os_error(error: OSError) -> str:
    """An OS error in words a user acts on (the file it names relative to nothing secret)."""
    import errno as errno_names

    hints = {
        errno_names.ENOSPC: "the disk is full",
        errno_names.EDQUOT: "the disk quota is exhausted",
        errno_names.EROFS: "the file system is read-only",
        errno_names.EACCES: "permission denied",
        errno_names.EPERM: "operation not permitted",
    }
    what = hints.get(error.errno or 0, error.strerror or type(error).__name__)
    where = f" ({printable(os.fsdecode(error.filename))})" if error.filename else ""
    return what + where


#: The commands that write a file: refused in an untrusted workspace (Restricted Mode).
WRITING_COMMANDS = frozenset({REGENERATE, WRITE_PLAN})


class RestrictedMode(CommandError):
    """A writing command in a workspace the user has not trusted."""


def _register_one(server: GemstackServer, name: str, handler: Any) -> None:
    async def run(ls: Any, *args: Any) -> Any:
        server.stats[name] += 1
        if name in WRITING_COMMANDS and server.session.restricted:
            refusal = RestrictedMode(
                f"{name} writes files, and this workspace is not trusted (Restricted Mode); "
                "trust the folder to regenerate capsules or write plans"
            )
            raise localized_error(refusal, server.session.language)
        try:
            try:
                return await handler(server, *args)
            except OSError as error:
                # A full, read-only or forbidden disk is a refusal to explain, not an internal error:
                # the writers leave nothing behind (temporary files are removed), so say so.
                raise CommandError(f"{name} could not finish: {_os_error(error)}; nothing was written") from None
        except CommandError as refusal:
            raise localized_error(refusal, server.session.language) from None

    server.command(name)(run)
