"""Quick fixes on real findings (the demo repository's planted problems), applied and re-checked."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from lsprotocol import types as lsp

from gemstack_lsp.core.text import Position, SourceText

if TYPE_CHECKING:
    from tests.lsp.conftest import Harness, MakeClient

DEMO = Path(__file__).resolve().parents[2] / "examples" / "demo"
PLAN_008 = "specs/008-cost-provider-safety-gates/plan.md"
SPEC_009 = "specs/009-context-capsule/spec.md"
SPEC_010 = "specs/010-release-notes/spec.md"
LEDGER_010 = "specs/010-release-notes/cost-ledger.json"


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    dest = tmp_path / "demo"
    shutil.copytree(DEMO, dest)
    return Path(os.path.realpath(dest))


def _apply_text(text: str, edits: list[lsp.TextEdit], encoding: str) -> str:
    source = SourceText(text)
    spans = []
    for e in edits:
        a = source.offset(Position(e.range.start.line, e.range.start.character), encoding)  # type: ignore[arg-type]
        b = source.offset(Position(e.range.end.line, e.range.end.character), encoding)  # type: ignore[arg-type]
        spans.append((a, b, e.new_text))
    for a, b, new in sorted(spans, reverse=True):
        text = text[:a] + new + text[b:]
    return text


def _edits_by_uri(edit: lsp.WorkspaceEdit) -> dict[str, list[lsp.TextEdit]]:
    out: dict[str, list[lsp.TextEdit]] = {}
    for change in edit.document_changes or ():
        if isinstance(change, lsp.TextDocumentEdit):
            out.setdefault(change.text_document.uri, []).extend(e for e in change.edits if isinstance(e, lsp.TextEdit))
    for uri, edits in (edit.changes or {}).items():
        out.setdefault(uri, []).extend(edits)
    return out


def apply_workspace_edit(h: Harness, edit: lsp.WorkspaceEdit) -> None:
    """Apply an edit as an editor would: open buffers change (didChange), other files change on
    disk (and the watcher reports it)."""
    changed_on_disk = []
    for uri, edits in _edits_by_uri(edit).items():
        if uri in h.texts:
            rel = next(r for r in _rels(h) if h.uri(r) == uri)
            new = _apply_text(h.texts[uri], edits, h.encoding)
            h.edit(rel, _whole(h.texts[uri]), new)
        else:
            path = Path(uri.removeprefix("file://"))
            path.write_text(
                _apply_text(path.read_text("utf-8"), edits, "utf-16" if h.encoding == "utf-16" else "utf-8"), "utf-8"
            )
            changed_on_disk.append(lsp.FileEvent(uri=uri, type=lsp.FileChangeType.Changed))
    if changed_on_disk:
        h.client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes=changed_on_disk))


def _rels(h: Harness) -> list[str]:
    return [str(p.relative_to(h.root)) for p in h.root.rglob("*") if p.is_file()]


def _whole(text: str) -> Any:
    from gemstack_lsp.core.text import Span

    return Span(0, len(text))


async def _quick_fixes(h: Harness, rel: str, diagnostic: lsp.Diagnostic) -> list[lsp.CodeAction]:
    actions = await h.request(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=h.uri(rel)),
            range=diagnostic.range,
            context=lsp.CodeActionContext(diagnostics=[diagnostic], only=[lsp.CodeActionKind.QuickFix]),
        ),
    )
    return [a for a in actions or [] if isinstance(a, lsp.CodeAction)]


async def _one(h: Harness, rel: str, code: str) -> lsp.Diagnostic:
    found = [d for d in await h.diagnostics(rel) if d.code == code]
    assert found, f"no {code} on {rel}"
    return found[0]


async def test_indented_fence_moves_to_column_zero(make_client: MakeClient, demo: Path, client_kind: str) -> None:
    h = await make_client(client_kind, demo, fake=False)
    h.open(PLAN_008)
    fence = await _one(h, PLAN_008, "FENCE_UNSEEN_BY_REFERENCE")
    (fix,) = [a for a in await _quick_fixes(h, PLAN_008, fence) if a.title == "Move the Gemstack fence to column 0"]
    assert fix.edit is not None
    apply_workspace_edit(h, fix.edit)
    text = h.texts[h.uri(PLAN_008)]
    assert "\n```gemstack-closure-gates\n" in text
    assert "FENCE_UNSEEN_BY_REFERENCE" not in {d.code for d in await h.diagnostics(PLAN_008)}


async def test_duplicate_contract_is_removed(make_client: MakeClient, demo: Path, client_kind: str) -> None:
    h = await make_client(client_kind, demo, fake=False)
    text = (demo / SPEC_009).read_text("utf-8")
    start = text.index('  {\n    "id": "zero-dependency-core"')
    end = text.index("  },\n", start) + len("  },\n")
    duplicated = text[:end] + text[start:end] + text[end:]
    h.open(SPEC_009, duplicated)
    dup = await _one(h, SPEC_009, "CONTRACT_DUPLICATE_ID")
    fixes = [a for a in await _quick_fixes(h, SPEC_009, dup) if a.title == "Remove the duplicate contract"]
    assert len(fixes) == 1 and fixes[0].edit is not None
    apply_workspace_edit(h, fixes[0].edit)
    assert h.texts[h.uri(SPEC_009)] == text
    codes = {d.code for d in await h.diagnostics(SPEC_009)}
    assert not codes & {"CONTRACT_DUPLICATE_ID", "CONTRACT_PARSE_ERROR"}


async def test_missing_ledger_entry_is_added_as_unknown(make_client: MakeClient, demo: Path, client_kind: str) -> None:
    h = await make_client(client_kind, demo, fake=False)
    h.open(SPEC_010)
    unknown = await _one(h, SPEC_010, "UNKNOWN_PROVIDER_IDENTITY")
    (fix,) = [a for a in await _quick_fixes(h, SPEC_010, unknown) if a.title.startswith("Add ledger entry")]
    assert fix.edit is not None
    assert list(_edits_by_uri(fix.edit)) == [h.uri(LEDGER_010)]
    apply_workspace_edit(h, fix.edit)
    ledger = (demo / LEDGER_010).read_text("utf-8")
    assert '"openai-cloud"' in ledger and '"cost_state": "UNKNOWN"' in ledger
    everything = await h.workspace_diagnostics()
    codes = {d.code for ds in everything.values() for d in ds}
    assert "UNKNOWN_PROVIDER_IDENTITY" not in codes
    assert "COST_LEDGER_INVALID" not in codes


async def test_stale_freshness_date_is_refreshed(make_client: MakeClient, demo: Path) -> None:
    h = await make_client("vscode", demo, fake=False)
    everything = await h.workspace_diagnostics()
    uri = h.uri(LEDGER_010)
    (stale,) = [d for d in everything[uri] if d.code == "STALE_PROVIDER_COST_ASSUMPTION"]
    h.open(LEDGER_010, language_id="json")
    (fix,) = [a for a in await _quick_fixes(h, LEDGER_010, stale) if a.title.startswith("Set freshness_date")]
    assert fix.edit is not None
    apply_workspace_edit(h, fix.edit)
    assert "STALE_PROVIDER_COST_ASSUMPTION" not in {d.code for d in await h.diagnostics(LEDGER_010)}
