"""Live diagnostics end to end, for a push client (VS Code) and a pull client (Neovim)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from gemstack_lsp.core.findings import code_info
from gemstack_lsp.core.text import Span

if TYPE_CHECKING:
    from tests.lsp.conftest import Harness, MakeClient

SPEC = "specs/009-context-capsule/spec.md"
PLAN = "specs/009-context-capsule/plan.md"
SPEC_008 = "specs/008-cost-provider-safety-gates/spec.md"
#: A line of non-ASCII text: 2 UTF-8 bytes for é, 4 for the emoji (2 UTF-16 units).
NON_ASCII = "Ünïcödé 😀 — FAKE-FINDING here\n"


def _fake(diagnostics: list[lsp.Diagnostic]) -> list[lsp.Diagnostic]:
    return [d for d in diagnostics if d.code == "JSON_DUPLICATE_KEY"]


async def _open_with_marker(h: Harness) -> str:
    text = (h.root / SPEC).read_text("utf-8")
    return h.open(SPEC, text + NON_ASCII)


async def test_diagnostic_fields_and_exact_non_ascii_positions(
    make_client: MakeClient, gem_repo: Path, client_kind: str
) -> None:
    h = await make_client(client_kind, gem_repo)
    assert h.encoding == ("utf-8" if client_kind == "neovim" else "utf-16")
    await _open_with_marker(h)
    fake = _fake(await h.diagnostics(SPEC))
    assert len(fake) == 1
    d = fake[0]
    # The range covers exactly the marker, whatever the unit of the columns.
    assert h.text_range(SPEC, d.range) == "FAKE-FINDING"
    expected_col = {"utf-8": len("Ünïcödé 😀 — ".encode()), "utf-16": len("Ünïcödé 😀 — ".encode("utf-16-le")) // 2}
    assert d.range.start.character == expected_col[h.encoding]
    assert d.source == "gemstack"
    assert d.severity == lsp.DiagnosticSeverity.Warning
    assert d.code_description is not None
    assert d.code_description.href == code_info("JSON_DUPLICATE_KEY").docs_url
    assert isinstance(d.data, dict)
    assert d.data["fixes"][0]["title"] == "Replace the fake marker"


async def test_edit_adds_and_clears_a_finding(make_client: MakeClient, gem_repo: Path, client_kind: str) -> None:
    h = await make_client(client_kind, gem_repo)
    h.open(SPEC)
    assert _fake(await h.diagnostics(SPEC)) == []
    h.replace(SPEC, "# ", "# FAKE-FINDING ")
    assert len(_fake(await h.diagnostics(SPEC))) == 1
    h.replace(SPEC, "FAKE-FINDING ", "")
    assert _fake(await h.diagnostics(SPEC)) == []


async def test_real_finding_capsule_missing_on_open_spec(
    make_client: MakeClient, gem_repo: Path, client_kind: str
) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    h.open(SPEC)
    codes = [d.code for d in await h.diagnostics(SPEC)]
    assert "CONTEXT_CAPSULE_MISSING" in codes
    missing = next(d for d in await h.diagnostics(SPEC) if d.code == "CONTEXT_CAPSULE_MISSING")
    commands = [f.get("command") for f in missing.data["fixes"]]
    assert "gemstack.regenerateCapsule" in commands


async def test_push_versions_never_go_backwards(make_client: MakeClient, gem_repo: Path) -> None:
    h = await make_client("vscode", gem_repo)
    h.open(SPEC)
    for i in range(60):
        if i % 2 == 0:
            h.replace(SPEC, "# ", "# FAKE-FINDING ")
        else:
            h.replace(SPEC, "FAKE-FINDING ", "")
    await h.settle()
    uri = h.uri(SPEC)
    versions = [p.version for p in h.pushes if p.uri == uri and p.version is not None]
    assert versions, "the open spec was never published"
    assert versions == sorted(versions)
    # 60 edits: the last one removed the marker, and the final state says so.
    assert _fake(await h.diagnostics(SPEC)) == []
    assert max(versions) <= h.versions[uri]


async def test_pull_and_push_are_exclusive(make_client: MakeClient, gem_repo: Path, client_kind: str) -> None:
    (gem_repo / PLAN).write_text((gem_repo / PLAN).read_text("utf-8") + "\nFAKE-FINDING\n", "utf-8")
    h = await make_client(client_kind, gem_repo)
    await _open_with_marker(h)
    await h.settle()
    assert h.capabilities is not None
    if h.pull:
        assert h.pushes == []
        assert h.capabilities.diagnostic_provider is not None
        assert _fake(await h.diagnostics(SPEC))
        assert h.pushes == []
    else:
        assert h.capabilities.diagnostic_provider is None
        assert {p.uri for p in h.pushes} >= {h.uri(SPEC), h.uri(PLAN)}


async def test_files_that_are_not_open_are_reported(make_client: MakeClient, gem_repo: Path, client_kind: str) -> None:
    (gem_repo / PLAN).write_text((gem_repo / PLAN).read_text("utf-8") + "\nFAKE-FINDING\n", "utf-8")
    h = await make_client(client_kind, gem_repo)
    everything = await h.workspace_diagnostics()
    assert _fake(everything.get(h.uri(PLAN), []))
    # The same file changes on disk and the watcher says so: the finding goes away.
    (gem_repo / PLAN).write_text((gem_repo / PLAN).read_text("utf-8").replace("FAKE-FINDING", ""), "utf-8")
    h.client.workspace_did_change_watched_files(
        lsp.DidChangeWatchedFilesParams(changes=[lsp.FileEvent(uri=h.uri(PLAN), type=lsp.FileChangeType.Changed)])
    )
    everything = await h.workspace_diagnostics()
    assert not _fake(everything.get(h.uri(PLAN), []))


async def test_watchers_registered_dynamically_when_supported(
    make_client: MakeClient, gem_repo: Path, client_kind: str
) -> None:
    h = await make_client(client_kind, gem_repo)
    await h.settle()
    watched = [
        r
        for r in h.registrations
        if r.method == lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES and r.id == "gemstack-watched-files"
    ]
    if client_kind == "vscode":
        assert len(watched) == 1
        options = watched[0].register_options
        globs = {w["globPattern"] for w in options["watchers"]} if isinstance(options, dict) else set()
        assert {
            "**/specs/**",
            "**/.gemstack/**",
            "**/cost-ledger.json",
            "**/context-capsule.json",
            "**/closure.json",
        } <= globs
    else:
        assert watched == []


async def test_close_clears_findings_that_exist_only_in_the_buffer(make_client: MakeClient, gem_repo: Path) -> None:
    h = await make_client("vscode", gem_repo)
    await _open_with_marker(h)
    assert _fake(await h.diagnostics(SPEC))
    h.close(SPEC)
    await h.settle()
    last = [p for p in h.pushes if p.uri == h.uri(SPEC)][-1]
    assert _fake(list(last.diagnostics)) == []
    assert last.version is None


async def test_non_gemstack_documents_cost_nothing(
    make_client: MakeClient, gem_repo: Path, tmp_path: Path, client_kind: str
) -> None:
    h = await make_client(client_kind, gem_repo)
    before = await h.settle()
    analyses = sum(r["analyses"] for r in before["roots"])
    h.open("handoff.md")
    h.replace("handoff.md", "#", "# FAKE-FINDING")
    outside = tmp_path / "elsewhere.md"
    outside.write_text("# not a Gemstack file\n", "utf-8")
    uri = h.open(os.path.relpath(outside, gem_repo))
    after = await h.settle()
    assert sum(r["analyses"] for r in after["roots"]) == analyses
    if h.pull:
        report = await h.request(
            lsp.TEXT_DOCUMENT_DIAGNOSTIC,
            lsp.DocumentDiagnosticParams(text_document=lsp.TextDocumentIdentifier(uri=uri)),
        )
        assert list(report.items) == []


async def test_pull_result_ids_answer_unchanged(make_client: MakeClient, gem_repo: Path) -> None:
    h = await make_client("neovim", gem_repo)
    uri = await _open_with_marker(h)
    params = lsp.DocumentDiagnosticParams(text_document=lsp.TextDocumentIdentifier(uri=uri))
    first = await h.request(lsp.TEXT_DOCUMENT_DIAGNOSTIC, params)
    assert first.kind == "full" and first.result_id
    again = await h.request(
        lsp.TEXT_DOCUMENT_DIAGNOSTIC,
        lsp.DocumentDiagnosticParams(text_document=params.text_document, previous_result_id=first.result_id),
    )
    assert again.kind == "unchanged" and again.result_id == first.result_id
    h.replace(SPEC, "FAKE-FINDING", "gone")
    changed = await h.request(
        lsp.TEXT_DOCUMENT_DIAGNOSTIC,
        lsp.DocumentDiagnosticParams(text_document=params.text_document, previous_result_id=first.result_id),
    )
    assert changed.kind == "full" and changed.result_id != first.result_id
    assert _fake(list(changed.items)) == []


async def test_debounce_setting_still_delivers_the_latest_state(
    make_client: MakeClient, gem_repo: Path, client_kind: str
) -> None:
    h = await make_client(client_kind, gem_repo, options={"gemstack": {"debounceMs": 30}})
    h.open(SPEC)
    for _ in range(10):
        h.replace(SPEC, "# ", "# FAKE-FINDING ")
        h.replace(SPEC, "FAKE-FINDING ", "")
    h.replace(SPEC, "# ", "# FAKE-FINDING ")
    (fake,) = _fake(await h.diagnostics(SPEC))
    assert h.text_range(SPEC, fake.range) == "FAKE-FINDING"
    (root,) = (await h.settle())["roots"]
    assert root["completed"] == root["requested"]


async def test_diagnostics_switched_off_publish_nothing(
    make_client: MakeClient, gem_repo: Path, client_kind: str
) -> None:
    h = await make_client(client_kind, gem_repo, options={"gemstack": {"diagnostics": False}})
    await _open_with_marker(h)
    assert await h.diagnostics(SPEC) == []
    assert await h.workspace_diagnostics() == {}


async def test_pull_client_is_asked_to_refresh_only_for_changes_it_did_not_make(
    make_client: MakeClient, gem_repo: Path
) -> None:
    def refresh_support(caps: lsp.ClientCapabilities) -> None:
        assert caps.workspace is not None
        caps.workspace.diagnostics = lsp.DiagnosticWorkspaceClientCapabilities(refresh_support=True)

    h = await make_client("neovim", gem_repo, tweak=refresh_support)
    # spec.md of 008 is not frozen: editing it changes no other file's findings.
    h.open(SPEC_008)
    await h.diagnostics(SPEC_008)
    # The open document is answered before the workspace pass ends; the rest of the
    # workspace, arriving later, is a change the client did not make (a refresh). Let it end.
    await h.settle()
    start = h.client.diagnostic_refresh_count
    # The client's own edit to the open spec (at its end, so no other file's related
    # locations move): it re-pulls by itself, no refresh.
    end = len(h.texts[h.uri(SPEC_008)])
    h.edit(SPEC_008, Span(end, end), "\nFAKE-FINDING\n")
    assert _fake(await h.diagnostics(SPEC_008))
    await h.settle()
    assert h.client.diagnostic_refresh_count == start
    # A file that is not open changes on disk: the client is asked to pull again.
    (gem_repo / PLAN).write_text((gem_repo / PLAN).read_text("utf-8") + "\nFAKE-FINDING\n", "utf-8")
    h.client.workspace_did_change_watched_files(
        lsp.DidChangeWatchedFilesParams(changes=[lsp.FileEvent(uri=h.uri(PLAN), type=lsp.FileChangeType.Changed)])
    )
    await h.settle()
    assert h.client.diagnostic_refresh_count > start
