"""Code actions and commands end to end: the capsule workflow, quick fixes, refusals."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException

if TYPE_CHECKING:
    from tests.lsp.conftest import Harness, MakeClient

SPEC = "specs/009-context-capsule/spec.md"
CAPSULE = "specs/009-context-capsule/context-capsule.json"
CAPSULE_CODES = {"CONTEXT_CAPSULE_MISSING", "CONTEXT_CAPSULE_STALE"}


def _command_of(action: Any) -> lsp.Command | None:
    """The command of a code action (lsprotocol may hand a command-carrying action over as a Command)."""
    if isinstance(action, lsp.Command):
        return action
    command: lsp.Command | None = action.command
    return command


async def _actions(h: Harness, rel: str, diagnostics: list[lsp.Diagnostic], only: list[str] | None = None) -> list[Any]:
    r = (
        diagnostics[0].range
        if diagnostics
        else lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=0, character=0))
    )
    result = await h.request(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=h.uri(rel)),
            range=r,
            context=lsp.CodeActionContext(diagnostics=diagnostics, only=only),
        ),
    )
    return list(result or [])


async def _execute(h: Harness, command: lsp.Command) -> Any:
    return await h.request(
        lsp.WORKSPACE_EXECUTE_COMMAND,
        lsp.ExecuteCommandParams(command=command.command, arguments=command.arguments),
    )


async def test_regenerate_clears_and_spec_edit_makes_capsule_stale(
    make_client: MakeClient, gem_repo: Path, client_kind: str
) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    h.open(SPEC)
    missing = [d for d in await h.diagnostics(SPEC) if d.code == "CONTEXT_CAPSULE_MISSING"]
    assert missing
    # The quick fix on the finding runs the generator.
    actions = await _actions(h, SPEC, missing)
    regenerate = next(c for c in map(_command_of, actions) if c and c.command == "gemstack.regenerateCapsule")
    result = await _execute(h, regenerate)
    assert (gem_repo / CAPSULE).is_file()
    assert result["written"] is True
    assert not CAPSULE_CODES & {d.code for d in await h.diagnostics(SPEC)}
    # Progress was reported (both clients support server-created progress).
    kinds = [type(v).__name__ for reports in h.client.progress_reports.values() for v in reports]
    assert kinds[0] == "WorkDoneProgressBegin" and kinds[-1] == "WorkDoneProgressEnd"

    # Editing the spec (unsaved) makes the capsule stale at once...
    h.replace(SPEC, "\n## ", "\nThe system MUST keep this new rule.\n\n## ")
    stale = [d for d in await h.diagnostics(SPEC) if d.code == "CONTEXT_CAPSULE_STALE"]
    assert stale
    # ...and the source action regenerates from the buffer, so it clears without saving.
    sources = await _actions(h, SPEC, [], only=[lsp.CodeActionKind.Source])
    source_cmd = next(c for c in map(_command_of, sources) if c and c.command == "gemstack.regenerateCapsule")
    await _execute(h, source_cmd)
    assert not CAPSULE_CODES & {d.code for d in await h.diagnostics(SPEC)}
    capsule_text = (gem_repo / CAPSULE).read_text("utf-8")
    assert "keep this new rule" in capsule_text


async def test_verify_command_shows_the_state(make_client: MakeClient, gem_repo: Path) -> None:
    h = await make_client("vscode", gem_repo, fake=False)
    result = await _execute(
        h, lsp.Command(title="v", command="gemstack.verifyCapsule", arguments=["specs/009-context-capsule"])
    )
    assert result["state"] == "MISSING"
    assert any("MISSING" in m.message for m in h.client.messages)


async def test_check_workspace_summarises(make_client: MakeClient, gem_repo: Path) -> None:
    h = await make_client("neovim", gem_repo, fake=False)
    result = await _execute(h, lsp.Command(title="c", command="gemstack.checkWorkspace", arguments=[]))
    assert result["roots"] == [str(gem_repo)]
    assert any("checked" in m.message for m in h.client.messages)


async def test_quick_fix_from_diagnostic_data(make_client: MakeClient, gem_repo: Path, client_kind: str) -> None:
    h = await make_client(client_kind, gem_repo)
    text = (gem_repo / SPEC).read_text("utf-8") + "é😀 FAKE-FINDING\n"
    uri = h.open(SPEC, text)
    fake = [d for d in await h.diagnostics(SPEC) if d.code == "JSON_DUPLICATE_KEY"]
    actions = await _actions(h, SPEC, fake, only=[lsp.CodeActionKind.QuickFix])
    fix = next(a for a in actions if isinstance(a, lsp.CodeAction) and a.title == "Replace the fake marker")
    assert fix.kind == lsp.CodeActionKind.QuickFix and fix.is_preferred
    assert fix.edit is not None
    if fix.edit.document_changes:
        (change,) = fix.edit.document_changes
        assert isinstance(change, lsp.TextDocumentEdit)
        assert change.text_document.uri == uri and change.text_document.version == 1
        edits = list(change.edits)
    else:
        assert fix.edit.changes is not None
        edits = list(fix.edit.changes[uri])
    (edit,) = edits
    assert isinstance(edit, lsp.TextEdit)
    assert h.text_range(SPEC, edit.range) == "FAKE-FINDING"
    assert edit.new_text == "fixed-marker"

    # The same fix through the applyFix command goes out as workspace/applyEdit.
    data = fake[0].data["fixes"][0]
    result = await _execute(h, lsp.Command(title="f", command="gemstack.applyFix", arguments=[data]))
    assert result["applied"] is True
    assert h.applied and h.applied[-1].label == "Replace the fake marker"


@pytest.mark.parametrize(
    "argument",
    ["/etc", "file:///etc/passwd", "../../../../../../etc", "https://example.com/specs/x"],
)
async def test_commands_refuse_arguments_outside_the_workspace(
    make_client: MakeClient, gem_repo: Path, argument: str
) -> None:
    h = await make_client("vscode", gem_repo, fake=False)
    with pytest.raises(JsonRpcException) as caught:
        await _execute(h, lsp.Command(title="r", command="gemstack.regenerateCapsule", arguments=[argument]))
    assert "gemstack:" in str(caught.value)
    assert not (gem_repo / CAPSULE).exists()
    # The fix command refuses edits aimed outside the workspace as well.
    bad_fix = {
        "title": "evil",
        "edits": [
            {
                "uri": "file:///etc/hosts",
                "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                "newText": "x",
            }
        ],
    }
    with pytest.raises(JsonRpcException, match="outside the workspace"):
        await _execute(h, lsp.Command(title="f", command="gemstack.applyFix", arguments=[bad_fix]))
    assert h.applied == []


async def test_executecommand_lists_every_command(make_client: MakeClient, gem_repo: Path) -> None:
    h = await make_client("neovim", gem_repo, fake=False)
    assert h.capabilities is not None and h.capabilities.execute_command_provider is not None
    assert set(h.capabilities.execute_command_provider.commands) >= {
        "gemstack.regenerateCapsule",
        "gemstack.verifyCapsule",
        "gemstack.checkWorkspace",
        "gemstack.writePlan",
        "gemstack.applyFix",
    }


@pytest.mark.parametrize("raw", ["specs/009-context-capsule/../009-context-capsule/spec.md", "RELATIVE"])
async def test_apply_fix_sends_the_uri_it_checked_never_the_raw_string(
    make_client: MakeClient, gem_repo: Path, raw: str
) -> None:
    """The edit names the file whose containment was checked (its absolute ``file:`` URI), not
    the client's string, which the client could resolve against another folder."""
    h = await make_client("vscode", gem_repo, fake=False)
    target = raw if raw != "RELATIVE" else SPEC
    fix = {
        "title": "touch",
        "edits": [
            {
                "uri": target,
                "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                "newText": "",
            }
        ],
    }
    result = await _execute(h, lsp.Command(title="f", command="gemstack.applyFix", arguments=[fix]))
    assert result["applied"] is True
    edit = h.applied[-1].edit
    uris = (
        [c.text_document.uri for c in edit.document_changes if isinstance(c, lsp.TextDocumentEdit)]
        if edit.document_changes
        else list((edit.changes or {}).keys())
    )
    assert uris == [(gem_repo / SPEC).resolve().as_uri()]
