"""The server never leaves the workspace: a symlink out is a finding, never a repository, never
read, never written; commands and fixes act only on Gemstack artifacts inside the workspace."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException

from gemstack_lsp.uris import path_to_uri
from tests.lsp.conftest import _plain

if TYPE_CHECKING:
    from tests.lsp.conftest import MakeClient

SPEC = "specs/009-context-capsule/spec.md"


def _evil_outside(gem_repo: Path, tmp_path: Path) -> Path:
    """``specs/evil`` links to the feature folder of a repository outside the workspace."""
    outside = tmp_path / "outside" / "repo"
    feature = outside / "specs" / "evil"
    feature.mkdir(parents=True)
    for name in ("spec.md", "plan.md", "tasks.md"):
        shutil.copy(gem_repo / "specs/009-context-capsule" / name, feature / name)
    (outside / ".gemstack").mkdir()
    (gem_repo / "specs" / "evil").symlink_to(feature, target_is_directory=True)
    return outside


async def _command(h: Any, name: str, *arguments: Any) -> Any:
    return await h.request(
        lsp.WORKSPACE_EXECUTE_COMMAND, lsp.ExecuteCommandParams(command=name, arguments=list(arguments))
    )


@pytest.mark.subprocess_server  # audit hooks are process-wide: this server gets a process of its own
async def test_a_symlinked_feature_folder_is_never_a_repository_read_or_written(
    make_client: MakeClient, gem_repo: Path, tmp_path: Path, client_kind: str
) -> None:
    outside = _evil_outside(gem_repo, tmp_path)
    h = await make_client(client_kind, gem_repo, audit=True, watch=outside)
    # The document as the editor names it: through the workspace's symlink.
    uri = path_to_uri(gem_repo / "specs/evil/spec.md")
    text = (outside / "specs/evil/spec.md").read_text("utf-8")
    h.texts[uri] = text
    h.versions[uri] = 1
    h.client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id="markdown", version=1, text=text)
        )
    )
    status = await h.settle()
    assert [r["root"] for r in status["roots"]] == [str(gem_repo)]
    everything = await h.workspace_diagnostics()
    unreadable = [d for d in everything.get(uri, []) if d.code == "ARTIFACT_UNREADABLE"]
    assert unreadable, everything.keys()
    inside_out = outside / "specs/evil"
    for argument in (uri, "specs/evil", path_to_uri(gem_repo / "specs/evil"), str(inside_out), path_to_uri(inside_out)):
        with pytest.raises(JsonRpcException, match=r"outside the workspace|leaves its repository"):
            await _command(h, "gemstack.regenerateCapsule", argument)
        with pytest.raises(JsonRpcException, match=r"outside the workspace|leaves its repository"):
            await _command(h, "gemstack.verifyCapsule", argument)
    assert not (inside_out / "context-capsule.json").exists()
    events = list(await h.request("test/audit", None))
    assert events == []


async def test_apply_fix_edits_only_gemstack_artifacts_in_the_workspace(
    make_client: MakeClient, gem_repo: Path, tmp_path: Path
) -> None:
    outside = _evil_outside(gem_repo, tmp_path)
    h = await make_client("vscode", gem_repo)
    h.open(SPEC)
    await h.settle()
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}

    def fix(uri: str, create: bool = False) -> dict[str, Any]:
        return {"title": "t", "edits": [{"uri": uri, "range": whole, "newText": "#!/bin/sh\n", "create": create}]}

    refused = [
        path_to_uri(gem_repo / ".git/hooks/pre-commit"),
        path_to_uri(gem_repo / "README.md"),
        path_to_uri(gem_repo / "specs/.git/config"),
        path_to_uri(gem_repo / "specs/evil/spec.md"),
        path_to_uri(outside / "specs/evil/spec.md"),
        path_to_uri(tmp_path / "elsewhere" / "cost-ledger.json"),
    ]
    for uri in refused:
        with pytest.raises(JsonRpcException, match="gemstack:"):
            await _command(h, "gemstack.applyFix", fix(uri, create=True))
    assert h.applied == []
    result = await _command(h, "gemstack.applyFix", fix(h.uri(SPEC)))
    assert _plain(result)["applied"] is True
    assert len(h.applied) == 1


def test_a_symlinked_child_is_not_the_folders_project_root(tmp_path: Path) -> None:
    from types import SimpleNamespace

    from gemstack_lsp.server.session import Session
    from gemstack_lsp.server.settings_sync import _project_root

    workspace = tmp_path / "ws"
    workspace.mkdir()
    outside = tmp_path / "outside" / "repo"
    (outside / "specs").mkdir(parents=True)
    (workspace / "linked").symlink_to(outside, target_is_directory=True)
    server = SimpleNamespace(session=Session())
    assert _project_root(server, str(workspace)) == str(workspace)
    (workspace / "own" / ".gemstack").mkdir(parents=True)
    assert _project_root(server, str(workspace)) == str(workspace / "own")


def test_session_roots_follow_the_containment_rule(gem_repo: Path, tmp_path: Path) -> None:
    from gemstack_lsp.server.session import Session

    outside = _evil_outside(gem_repo, tmp_path)
    session = Session()
    session.add_folder(path_to_uri(gem_repo))
    assert session.locate(path_to_uri(gem_repo / "specs/evil/spec.md"))[1:] == (None, None)
    assert session.root_of(str(gem_repo / "specs/evil/spec.md")) == str(gem_repo)
    assert session.locate(path_to_uri(gem_repo / SPEC))[1:] == (str(gem_repo), SPEC)
    # A file opened where it really is belongs to its own repository, but is no workspace file.
    assert session.locate(path_to_uri(outside / "specs/evil/spec.md"))[1] == str(outside)
    assert not session.inside_workspace(str(outside / "specs/evil"))
    assert not session.inside_workspace(str(gem_repo / "specs/evil"))
    assert session.inside_workspace(str(gem_repo / SPEC))


@pytest.mark.subprocess_server  # audit hooks are process-wide: this server gets a process of its own
async def test_a_plan_linked_from_outside_is_never_read_nor_written(
    make_client: MakeClient, gem_repo: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside-plans"
    (outside / "docs" / "plans").mkdir(parents=True)
    plan = outside / "docs" / "plans" / "2026-01-01-gitnexus-plan-a-b-c.md"
    plan.write_text("# outside plan\n", "utf-8")
    (gem_repo / "linked").symlink_to(outside, target_is_directory=True)
    h = await make_client("vscode", gem_repo, audit=True, watch=outside)
    uri = path_to_uri(gem_repo / "linked/docs/plans/2026-01-01-gitnexus-plan-a-b-c.md")
    h.client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id="markdown", version=1, text="# edited\n")
        )
    )
    await h.settle()
    with pytest.raises(JsonRpcException, match="outside the workspace"):
        await _command(h, "gemstack.writePlan", uri)
    assert plan.read_text("utf-8") == "# outside plan\n"
    assert list(await h.request("test/audit", None)) == []
