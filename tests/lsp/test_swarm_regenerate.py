"""Regenerate in the editor and a swarm manifest planned from the previous capsule.

Upstream's `gemstack verify` fails with SWARM_CONTEXT_STALE once a capsule is written for a
feature whose swarm.json records another one: Regenerate says so in its result message, the
finding appears at once, and its one quick fix records the new hash, and nothing else.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from tests.core.upstream_e_data import reference_hash
from tests.lsp.conftest import _plain

if TYPE_CHECKING:
    from tests.lsp.conftest import MakeClient

FEATURE = "specs/009-context-capsule"
SWARM = f"{FEATURE}/swarm.json"
CAPSULE = f"{FEATURE}/context-capsule.json"
EMPTY_HASH = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def _text_edits(action: lsp.CodeAction) -> list[tuple[str, lsp.TextEdit]]:
    edit = action.edit
    assert edit is not None
    out: list[tuple[str, lsp.TextEdit]] = []
    for uri, edits in (edit.changes or {}).items():
        out.extend((uri, e) for e in edits)
    for change in edit.document_changes or []:
        if isinstance(change, lsp.TextDocumentEdit):
            out.extend((change.text_document.uri, e) for e in change.edits if isinstance(e, lsp.TextEdit))
    return out


async def test_regenerate_says_the_swarm_manifest_is_now_stale(make_client: MakeClient, gem_repo: Path) -> None:
    manifest: dict[str, Any] = {
        "version": "1.0.0",
        "feature_id": "009-context-capsule",
        "source_capsule_hash": EMPTY_HASH,
        "waves": [],
    }
    (gem_repo / SWARM).write_text(json.dumps(manifest, indent=2) + "\n", "utf-8")
    h = await make_client("vscode", gem_repo, fake=False)
    h.open(SWARM, language_id="json")
    assert not [d for d in await h.diagnostics(SWARM) if str(d.code).startswith("SWARM_")]
    result = _plain(
        await h.request(
            lsp.WORKSPACE_EXECUTE_COMMAND,
            lsp.ExecuteCommandParams(command="gemstack.regenerateCapsule", arguments=[FEATURE]),
        )
    )
    live = reference_hash((gem_repo / CAPSULE).read_bytes())
    note = result["swarm_context_stale"]
    assert note.startswith(
        f"{SWARM} records the previous capsule (source_capsule_hash {EMPTY_HASH[:12]}...), not this one "
        f"({live[:12]}...): upstream `gemstack verify` will fail with SWARM_CONTEXT_STALE until"
    )
    assert result["message"].endswith(note)
    assert "SWARM_CONTEXT_STALE" in result["remaining"]
    shown = [m for m in h.client.messages if note in m.message]
    assert shown and shown[0].type == lsp.MessageType.Warning
    # The finding is there at once, on the recorded hash.
    (stale,) = [d for d in await h.diagnostics(SWARM) if d.code == "SWARM_CONTEXT_STALE"]
    assert h.text_range(SWARM, stale.range) == f'"{EMPTY_HASH}"'
    assert stale.severity == lsp.DiagnosticSeverity.Error
    # One explicit quick fix, which replaces that value only.
    actions = await h.request(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=h.uri(SWARM)),
            range=stale.range,
            context=lsp.CodeActionContext(diagnostics=[stale], only=[lsp.CodeActionKind.QuickFix]),
        ),
    )
    fixes = [a for a in actions or [] if isinstance(a, lsp.CodeAction) and a.title.startswith("Record the current")]
    assert len(fixes) == 1 and not fixes[0].is_preferred
    ((uri, edit),) = _text_edits(fixes[0])
    assert uri == h.uri(SWARM)
    assert edit.range == stale.range and edit.new_text == json.dumps(live)
    # Nothing was written to swarm.json by Regenerate.
    assert json.loads((gem_repo / SWARM).read_text("utf-8")) == manifest
