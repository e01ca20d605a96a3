"""The safe plan writer from the editor: initial write, then Deepen with the receipt taken at open."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

if TYPE_CHECKING:
    from tests.lsp.conftest import Harness, MakeClient

PLAN = "docs/plans/2026-12-02-gitnexus-plan-capsule-editor-actions.md"


def _git_repo(root: Path) -> Path:
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "t@example.com")
    git("config", "user.name", "t")
    git("add", "-A")
    git("commit", "-q", "-m", "fixture")
    return root


async def _write(h: Harness, uri: str) -> Any:
    actions = await h.request(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            range=lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=0, character=0)),
            context=lsp.CodeActionContext(diagnostics=[], only=[lsp.CodeActionKind.Source]),
        ),
    )
    (action,) = [a for a in actions if a.title == "Write plan with the safe plan writer"]
    command = action.command if isinstance(action, lsp.CodeAction) else action
    assert command is not None and command.command == "gemstack.writePlan"
    return await h.request(
        lsp.WORKSPACE_EXECUTE_COMMAND, lsp.ExecuteCommandParams(command=command.command, arguments=command.arguments)
    )


async def test_initial_write_then_deepen(make_client: MakeClient, gem_repo: Path, client_kind: str) -> None:
    root = _git_repo(gem_repo)
    h = await make_client(client_kind, root, fake=False)
    uri = h.open(PLAN, "# Plan\n\nFirst draft — ünïcödé.\n")
    first = await _write(h, uri)
    assert first["written"] is True and first["mode"] == "initial"
    assert (root / PLAN).read_text("utf-8") == "# Plan\n\nFirst draft — ünïcödé.\n"

    # A second write of the same buffer deepens (replaces exactly the version on disk).
    h.replace(PLAN, "First draft", "Deeper draft")
    second = await _write(h, uri)
    assert second["written"] is True and second["mode"] == "deepen"
    assert (root / PLAN).read_text("utf-8") == "# Plan\n\nDeeper draft — ünïcödé.\n"

    # Someone else changes the file on disk: Deepen refuses, the file is left alone.
    (root / PLAN).write_text("# Changed behind the editor's back\n", "utf-8")
    h.replace(PLAN, "Deeper draft", "Third draft")
    third = await _write(h, uri)
    assert third["written"] is False
    assert "no longer matches" in third["error"]
    assert (root / PLAN).read_text("utf-8") == "# Changed behind the editor's back\n"
    assert any("Plan not written" in m.message for m in h.client.messages)

    # Reopened, the plan's receipt is taken from the file as it is now: Deepen works again.
    h.close(PLAN)
    uri = h.open(PLAN)
    h.replace(PLAN, "Changed", "Reviewed")
    fourth = await _write(h, uri)
    assert fourth["written"] is True and fourth["mode"] == "deepen"
    assert (root / PLAN).read_text("utf-8") == "# Reviewed behind the editor's back\n"


async def test_write_plan_refuses_a_path_outside_the_workspace(make_client: MakeClient, gem_repo: Path) -> None:
    h = await make_client("vscode", _git_repo(gem_repo), fake=False)
    import pytest
    from pygls.exceptions import JsonRpcException

    with pytest.raises(JsonRpcException, match="outside the workspace"):
        await h.request(
            lsp.WORKSPACE_EXECUTE_COMMAND,
            lsp.ExecuteCommandParams(
                command="gemstack.writePlan", arguments=["file:///tmp/docs/plans/2026-01-01-gitnexus-plan-a-b-c.md"]
            ),
        )
