"""The server survives what editors and file systems throw at it, and stays read-only offline."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException

if TYPE_CHECKING:
    from tests.lsp.conftest import Harness, MakeClient

SPEC = "specs/009-context-capsule/spec.md"
PLAN = "specs/009-context-capsule/plan.md"


def _fake(diagnostics: list[lsp.Diagnostic]) -> list[lsp.Diagnostic]:
    return [d for d in diagnostics if d.code == "JSON_DUPLICATE_KEY"]


async def _hover(h: Harness, rel: str, needle: str) -> Any:
    return await h.request(
        lsp.TEXT_DOCUMENT_HOVER,
        lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=h.uri(rel)), position=h.position(rel, needle, 3)),
    )


async def test_an_exception_in_a_handler_is_an_error_not_a_crash(make_client: MakeClient, gem_repo: Path) -> None:
    h = await make_client("vscode", gem_repo)
    with pytest.raises(JsonRpcException, match="deliberate failure"):
        await h.request("test/raise", None)
    h.open(SPEC)
    assert await _hover(h, SPEC, '"zero-dependency-core"') is not None
    # Garbage in a diagnostic's data (a client may send anything back) is ignored, not fatal.
    bogus = lsp.Diagnostic(
        range=lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=0, character=1)),
        message="x",
        source="gemstack",
        code="JSON_DUPLICATE_KEY",
        data={"fixes": [{"oops": 1}]},
    )
    actions = await h.request(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=h.uri(SPEC)),
            range=bogus.range,
            context=lsp.CodeActionContext(diagnostics=[bogus], only=[lsp.CodeActionKind.QuickFix]),
        ),
    )
    # No fix is built from the garbage; only the ignore quick fixes, which need nothing of the data.
    assert all(a.title.startswith("Ignore JSON_DUPLICATE_KEY ") for a in actions or [])
    assert (await h.settle())["roots"]


async def test_a_cancelled_request_is_not_computed(make_client: MakeClient, gem_repo: Path) -> None:
    h = await make_client("neovim", gem_repo)
    h.open(SPEC)
    before = (await h.settle())["stats"].get("hover", 0)
    protocol = h.client.protocol
    writer = protocol.writer
    buffered: list[bytes] = []

    class Buffer:
        def write(self, data: bytes) -> None:
            buffered.append(data)

        def close(self) -> None:
            return None

    # The request and its cancellation reach the server in one write, as a fast client sends them.
    protocol.writer = Buffer()  # type: ignore[assignment]
    try:
        future = protocol.send_request(
            lsp.TEXT_DOCUMENT_HOVER,
            lsp.HoverParams(
                text_document=lsp.TextDocumentIdentifier(uri=h.uri(SPEC)),
                position=h.position(SPEC, '"zero-dependency-core"', 3),
            ),
            msg_id="cancel-me",
        )
        protocol.notify(lsp.CANCEL_REQUEST, lsp.CancelParams(id="cancel-me"))
    finally:
        protocol.writer = writer
    assert writer is not None
    writer.write(b"".join(buffered))
    with pytest.raises(JsonRpcException) as caught:
        await asyncio.wait_for(asyncio.wrap_future(future), 30)
    assert caught.value.code == lsp.LSPErrorCodes.RequestCancelled
    after = (await h.settle())["stats"].get("hover", 0)
    assert after == before
    # A request that is not cancelled is computed.
    assert await _hover(h, SPEC, '"zero-dependency-core"') is not None
    assert (await h.settle())["stats"]["hover"] == before + 1


async def test_a_thousand_rapid_edits(make_client: MakeClient, gem_repo: Path, client_kind: str) -> None:
    h = await make_client(client_kind, gem_repo)
    h.open(SPEC)
    for i in range(1000):
        if i % 2 == 0:
            h.replace(SPEC, "# ", "# FAKE-FINDING ")
        else:
            h.replace(SPEC, "FAKE-FINDING ", "")
    h.replace(SPEC, "# ", "# FAKE-FINDING ")  # the 1001st edit leaves one marker
    status = await h.settle()
    (root,) = status["roots"]
    # Coalesced: far fewer analyses than edits, and nothing obsolete was published.
    assert root["completed"] == root["requested"]
    assert root["analyses"] <= root["requested"]
    (fake,) = _fake(await h.diagnostics(SPEC))
    assert h.text_range(SPEC, fake.range) == "FAKE-FINDING"
    if not h.pull:
        uri = h.uri(SPEC)
        versions = [p.version for p in h.pushes if p.uri == uri and p.version is not None]
        assert versions == sorted(versions) and versions[-1] == h.versions[uri]
    assert await _hover(h, SPEC, '"zero-dependency-core"') is not None


async def test_deleted_file_and_symlink_give_findings_not_crashes(
    make_client: MakeClient, gem_repo: Path, tmp_path: Path, client_kind: str
) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    h.open(SPEC)
    await h.settle()
    plan = gem_repo / PLAN
    plan.unlink()
    spec_008 = gem_repo / "specs/008-cost-provider-safety-gates/spec.md"
    outside = tmp_path / "outside.md"
    outside.write_text("# outside the repository\n", "utf-8")
    spec_008.unlink()
    spec_008.symlink_to(outside)
    h.client.workspace_did_change_watched_files(
        lsp.DidChangeWatchedFilesParams(
            changes=[
                lsp.FileEvent(uri=h.uri(PLAN), type=lsp.FileChangeType.Deleted),
                lsp.FileEvent(
                    uri=h.uri("specs/008-cost-provider-safety-gates/spec.md"), type=lsp.FileChangeType.Changed
                ),
            ]
        )
    )
    everything = await h.workspace_diagnostics()
    codes = {d.code for diags in everything.values() for d in diags}
    assert "ARTIFACT_UNREADABLE" in codes
    assert "GEMSTACK_INTERNAL_ERROR" not in codes
    assert await _hover(h, SPEC, '"zero-dependency-core"') is not None


@pytest.mark.subprocess_server  # audit hooks are process-wide: this server gets a process of its own
async def test_diagnostics_make_no_writes_and_open_no_sockets(
    make_client: MakeClient, gem_repo: Path, client_kind: str
) -> None:
    h = await make_client(client_kind, gem_repo, audit=True)
    before = {p: p.stat().st_mtime_ns for p in gem_repo.rglob("*") if p.is_file()}
    h.open(SPEC)
    h.open(PLAN)
    for _ in range(5):
        h.replace(SPEC, "# ", "# FAKE-FINDING ")
        h.replace(SPEC, "FAKE-FINDING ", "")
    await h.diagnostics(SPEC)
    await h.workspace_diagnostics()
    await _hover(h, SPEC, '"zero-dependency-core"')
    await h.request(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=h.uri(SPEC)),
            range=lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=0, character=0)),
            context=lsp.CodeActionContext(diagnostics=[]),
        ),
    )
    await h.request(
        lsp.WORKSPACE_EXECUTE_COMMAND,
        lsp.ExecuteCommandParams(command="gemstack.verifyCapsule", arguments=["specs/009-context-capsule"]),
    )
    h.close(PLAN)
    await h.settle()
    events = list(await h.request("test/audit", None))
    assert events == []
    after = {p: p.stat().st_mtime_ns for p in gem_repo.rglob("*") if p.is_file()}
    assert after == before


@pytest.mark.subprocess_server  # a fresh interpreter's imports
def test_cli_check_and_serve_parser_do_not_import_pygls() -> None:
    code = (
        "import sys\n"
        "from gemstack_lsp import cli\n"
        "parser = cli.build_parser()\n"
        "import gemstack_lsp.commands.serve\n"
        "assert not any(m.startswith(('pygls', 'lsprotocol')) for m in sys.modules), sorted(sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
