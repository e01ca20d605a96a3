"""The authoring features end to end, one server per client kind: capabilities, and one round
trip each of semantic tokens (full, delta, range), document highlight, folding and selection
ranges, prepareRename and rename (frozen: annotated for VS Code, refused then confirmed by the
command elsewhere), formatting and inlay hints. Positions are checked in the encoding each
client negotiated, on a line with characters outside the BMP."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as lsp

from gemstack_lsp.core.text import Position, SourceText
from gemstack_lsp.ide.semantic_tokens import LEGEND_MODIFIERS, LEGEND_TYPES
from gemstack_lsp.uris import path_to_uri, uri_to_path

F8 = "specs/008-cost-provider-safety-gates"
SPEC8, PLAN8, TASKS8 = f"{F8}/spec.md", f"{F8}/plan.md", f"{F8}/tasks.md"
STATE = ".gemstack/state.json"

MakeClient = Callable[..., Awaitable[Any]]

#: A line of prose with characters of two and four UTF-16 units before a contract id.
PROSE = "\nCafé — 😀 `unknown-cost-never-free` must hold.\n"


def _thaw(root: Path) -> None:
    """No phase is frozen: state.json names the active feature only."""
    (root / STATE).write_text(json.dumps({"active_spec": "specs/009-context-capsule"}), "utf-8")


def _decode(h: Any, rel: str, data: list[int]) -> list[tuple[str, str, tuple[str, ...]]]:
    """(text, type, modifiers) of each token, read back in the client's encoding."""
    source = SourceText(h.texts[h.uri(rel)])
    out = []
    line = char = 0
    for i in range(0, len(data), 5):
        dl, dc, length, kind, bits = data[i : i + 5]
        line += dl
        char = char + dc if dl == 0 else dc
        start = source.offset(Position(line, char), h.encoding)
        end = source.offset(Position(line, char + length), h.encoding)
        mods = tuple(m for k, m in enumerate(LEGEND_MODIFIERS) if bits & (1 << k))
        out.append((source.text[start:end], LEGEND_TYPES[kind], mods))
    return out


def _apply_delta(old: list[int], edits: Sequence[lsp.SemanticTokensEdit]) -> list[int]:
    data = list(old)
    for e in sorted(edits, key=lambda e: e.start, reverse=True):
        data[e.start : e.start + e.delete_count] = list(e.data or [])
    return data


def _doc(uri: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=uri)


async def test_authoring_round_trips(make_client: MakeClient, client_kind: str, gem_repo: Path) -> None:
    _thaw(gem_repo)
    h = await make_client(client_kind, gem_repo, fake=False)
    refreshes: list[str] = []
    h.client.feature(lsp.WORKSPACE_SEMANTIC_TOKENS_REFRESH)(lambda params: refreshes.append("tokens"))
    h.client.feature(lsp.WORKSPACE_INLAY_HINT_REFRESH)(lambda params: refreshes.append("hints"))
    caps = h.capabilities
    assert caps is not None
    tokens = caps.semantic_tokens_provider
    assert tokens is not None and list(tokens.legend.token_types) == list(LEGEND_TYPES)
    assert tokens.range is True and tokens.full == lsp.SemanticTokensFullDelta(delta=True)
    assert caps.document_highlight_provider and caps.folding_range_provider and caps.selection_range_provider
    assert caps.document_formatting_provider and caps.document_range_formatting_provider
    assert caps.inlay_hint_provider is not None
    assert caps.rename_provider == lsp.RenameOptions(prepare_provider=True)
    assert caps.execute_command_provider is not None
    assert "gemstack.renameFrozenContract" in caps.execute_command_provider.commands

    text = (gem_repo / SPEC8).read_text("utf-8")
    uri = h.open(SPEC8, text.replace("\n", PROSE, 1))

    # Semantic tokens: full, then a delta after an edit, then a range.
    full = await h.request(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, lsp.SemanticTokensParams(text_document=_doc(uri)))
    decoded = _decode(h, SPEC8, list(full.data))
    assert ("unknown-cost-never-free", "variable", ()) in decoded  # the prose mention, after the emoji
    assert ("unknown-cost-never-free", "variable", ("declaration",)) in decoded
    assert any(t == "function" and "declaration" in m for _, t, m in decoded)  # the matrix
    assert all(s and s.replace("-", "").replace("_", "").replace(".", "").isalnum() for s, _, _ in decoded)
    h.replace(SPEC8, "Café — 😀", "Café — 😀 TEST-COST-A01 and")
    delta = await h.request(
        lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA,
        lsp.SemanticTokensDeltaParams(text_document=_doc(uri), previous_result_id=full.result_id or ""),
    )
    assert isinstance(delta, lsp.SemanticTokensDelta) and delta.edits
    again = await h.request(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, lsp.SemanticTokensParams(text_document=_doc(uri)))
    assert _apply_delta(list(full.data), delta.edits) == list(again.data)
    assert ("TEST-COST-A01", "function", ()) in _decode(h, SPEC8, list(again.data))
    first_lines = lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=4, character=0))
    ranged = await h.request(
        lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE,
        lsp.SemanticTokensRangeParams(text_document=_doc(uri), range=first_lines),
    )
    assert [s for s, _, _ in _decode(h, SPEC8, list(ranged.data))] == ["TEST-COST-A01", "unknown-cost-never-free"]

    # Document highlight of the prose mention: the declaration is a write.
    at = h.position(SPEC8, "`unknown-cost-never-free`", 3)
    found = await h.request(
        lsp.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT, lsp.DocumentHighlightParams(text_document=_doc(uri), position=at)
    )
    assert {h.text_range(SPEC8, x.range) for x in found} == {"unknown-cost-never-free"}
    assert sorted(x.kind for x in found) == [lsp.DocumentHighlightKind.Read, lsp.DocumentHighlightKind.Write]

    # Folding ranges: a Gemstack block folds from its opening fence.
    folds = await h.request(lsp.TEXT_DOCUMENT_FOLDING_RANGE, lsp.FoldingRangeParams(text_document=_doc(uri)))
    lines = h.texts[uri].splitlines()
    assert any(lines[f.start_line].startswith("```gemstack-contracts") for f in folds)

    # Selection ranges: the id, its string, its member, its object...
    at = h.position(SPEC8, '"unknown-cost-never-free"', 3)
    (sel,) = await h.request(
        lsp.TEXT_DOCUMENT_SELECTION_RANGE, lsp.SelectionRangeParams(text_document=_doc(uri), positions=[at])
    )
    chain = []
    while sel is not None:
        chain.append(h.text_range(SPEC8, sel.range))
        sel = sel.parent
    assert chain[:3] == ["unknown-cost-never-free", '"unknown-cost-never-free"', '"id": "unknown-cost-never-free"']
    assert chain[-1] == h.texts[uri]

    # Rename a task id: prepare, then one edit over tasks.md (header and depends=).
    tasks_uri = h.open(TASKS8)
    at = h.position(TASKS8, "T001:", 1)
    prepared = await h.request(
        lsp.TEXT_DOCUMENT_PREPARE_RENAME, lsp.PrepareRenameParams(text_document=_doc(tasks_uri), position=at)
    )
    assert prepared.placeholder == "T001" and h.text_range(TASKS8, prepared.range) == "T001"
    edit = await h.request(
        lsp.TEXT_DOCUMENT_RENAME, lsp.RenameParams(text_document=_doc(tasks_uri), position=at, new_name="T101")
    )
    changed = _edits(edit)
    assert set(changed) == {tasks_uri}
    assert all(h.text_range(TASKS8, e.range) == "T001" for e in changed[tasks_uri])
    assert len(changed[tasks_uri]) == h.texts[tasks_uri].count("T001")
    with pytest.raises(Exception, match="not a valid test id"):
        await h.request(
            lsp.TEXT_DOCUMENT_RENAME,
            lsp.RenameParams(
                text_document=_doc(uri), position=h.position(SPEC8, '"TEST-COST-A01"', 3), new_name="bad id"
            ),
        )

    # Formatting: a minified block is laid out as upstream writes it.
    h.replace(SPEC8, '"id": "unknown-cost-never-free",\n', '"id":"unknown-cost-never-free",')
    edits = await h.request(
        lsp.TEXT_DOCUMENT_FORMATTING,
        lsp.DocumentFormattingParams(
            text_document=_doc(uri), options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)
        ),
    )
    assert len(edits) == 1 and '    "id": "unknown-cost-never-free",\n' in edits[0].new_text

    # Inlay hints: how many tests the plan binds to each file.
    plan_uri = h.open(PLAN8)
    whole = lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=10_000, character=0))
    hints = await h.request(
        lsp.TEXT_DOCUMENT_INLAY_HINT, lsp.InlayHintParams(text_document=_doc(plan_uri), range=whole)
    )
    assert hints and all(str(x.label).endswith("bound") for x in hints)

    # A change of findings asks the client to refresh the tokens and hints of other documents
    # (Neovim 0.11 declares both refreshes, VS Code 1.65 the tokens' only).
    refreshes.clear()
    h.replace(SPEC8, '"type": "BOOLEAN_INVARIANT"', '"type": "NOT_A_TYPE"')
    await h.settle()
    expected = ["hints", "tokens"] if client_kind == "neovim" else ["tokens"]
    # The refresh requests follow the analysis the status request waited for; they may reach
    # the client just after its answer.
    for _ in range(100):
        if sorted(set(refreshes)) == expected:
            break
        await asyncio.sleep(0.05)
    assert sorted(set(refreshes)) == expected


def _edits(edit: lsp.WorkspaceEdit) -> dict[str, list[Any]]:
    """URI -> text edits of a workspace edit, whichever form it takes."""
    out: dict[str, list[Any]] = {}
    for uri, edits in (edit.changes or {}).items():
        out.setdefault(uri, []).extend(edits)
    for change in edit.document_changes or []:
        assert isinstance(change, lsp.TextDocumentEdit)
        out.setdefault(change.text_document.uri, []).extend(change.edits)
    return out


async def test_renaming_a_frozen_contract_needs_a_confirmation(
    make_client: MakeClient, client_kind: str, gem_repo: Path
) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    uri = h.open(SPEC8)
    params = lsp.RenameParams(
        text_document=_doc(uri),
        position=h.position(SPEC8, '"unknown-cost-never-free"', 3),
        new_name="unknown-never-free",
    )
    if client_kind == "vscode":
        # Change annotations: every edit of a frozen artifact needs the user's confirmation.
        edit = await h.request(lsp.TEXT_DOCUMENT_RENAME, params)
        assert edit.change_annotations["gemstack.frozen"].needs_confirmation is True
        edits = [e for change in edit.document_changes for e in change.edits]
        assert edits and all(e.annotation_id == "gemstack.frozen" for e in edits)
        assert {uri_to_path(c.text_document.uri) for c in edit.document_changes} == {
            str(gem_repo / SPEC8),
            str(gem_repo / PLAN8),
        }
        return
    with pytest.raises(Exception, match="amendment"):
        await h.request(lsp.TEXT_DOCUMENT_RENAME, params)
    # The explicit second action: the command applies the same rename.
    result = await h.request(
        lsp.WORKSPACE_EXECUTE_COMMAND,
        lsp.ExecuteCommandParams(
            command="gemstack.renameFrozenContract",
            arguments=[
                uri,
                {"line": params.position.line, "character": params.position.character},
                "unknown-never-free",
            ],
        ),
    )
    assert result["applied"] is True and result["frozen"] == [
        f"{n} of 008-cost-provider-safety-gates" for n in ("spec.md", "plan.md")
    ]
    (applied,) = h.applied
    assert set(applied.edit.changes or {}) == {uri, path_to_uri(gem_repo / PLAN8)}
