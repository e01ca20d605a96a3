"""Code lenses end to end: capsule state with Regenerate/Verify on a spec title, and the gate
preview of billable-actions blocks in the configured environment tier."""

from __future__ import annotations

import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as lsp
from test_multiroot import start_workspace
from test_settings import SPEC, SPEC_TEXT, demo_repo

from gemstack_lsp.core.findings import Finding
from gemstack_lsp.ide.lens import capsule_state_title

F9 = "specs/009-context-capsule"
SPEC9 = f"{F9}/spec.md"
SPEC8 = "specs/008-cost-provider-safety-gates/spec.md"
REFERENCE_OUTPUT = Path(__file__).parent.parent / "fixtures" / "gemstack-reference" / "reference-output"

#: The ``make_client`` fixture of conftest.py.
MakeClient = Callable[..., Awaitable[Any]]


async def _lenses(h: Any, rel: str, text: str | None = None) -> list[lsp.CodeLens]:
    uri = h.uri(rel)
    if uri not in h.texts:
        h.open(rel, text)
    result = await h.request(
        lsp.TEXT_DOCUMENT_CODE_LENS, lsp.CodeLensParams(text_document=lsp.TextDocumentIdentifier(uri=uri))
    )
    return list(result or [])


def _titles(lenses: list[lsp.CodeLens]) -> list[str]:
    return [lens.command.title for lens in lenses if lens.command is not None]


async def test_missing_capsule_lenses(make_client: MakeClient, client_kind: str, gem_repo: Path) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    lenses = await _lenses(h, SPEC9)
    assert _titles(lenses) == ["Capsule: MISSING", "Generate capsule", "Verify"]
    state, regenerate, verify = lenses
    assert h.text_range(SPEC9, state.range).startswith("# Especificación de Funcionalidad: Context Capsule")
    assert state.range == regenerate.range == verify.range
    assert regenerate.command is not None and verify.command is not None
    assert regenerate.command.command == "gemstack.regenerateCapsule"
    assert list(regenerate.command.arguments or []) == [F9]
    assert verify.command.command == "gemstack.verifyCapsule"
    assert list(verify.command.arguments or []) == [F9]
    # Clients run only the commands the server declares (Neovim refuses the others).
    declared = h.capabilities.execute_command_provider.commands
    assert {"gemstack.regenerateCapsule", "gemstack.verifyCapsule"} <= set(declared)


async def test_valid_then_stale_while_typing(make_client: MakeClient, client_kind: str, gem_repo: Path) -> None:
    shutil.copy(REFERENCE_OUTPUT / "specs-009-context-capsule.json", gem_repo / F9 / "context-capsule.json")
    h = await make_client(client_kind, gem_repo, fake=False)
    assert _titles(await _lenses(h, SPEC9)) == ["Capsule: VALID", "Regenerate", "Verify"]
    # An unsaved edit of the spec makes the capsule stale, naming the source.
    h.replace(SPEC9, "## 1. Problem Statement", "## 1. Problem Statement (edited)")
    assert _titles(await _lenses(h, SPEC9))[0] == "Capsule: STALE (spec.md changed)"


async def test_legacy_feature_and_other_documents(make_client: MakeClient, client_kind: str, gem_repo: Path) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    assert _titles(await _lenses(h, SPEC8)) == ["Capsule: none (legacy, context-free)", "Generate capsule", "Verify"]
    assert await _lenses(h, "specs/008-cost-provider-safety-gates/plan.md") == []


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ("test", "test: 1 of 2 actions denied (summarise: ENV_COMMERCIAL_DENIED)"),
        ("development", "development: 1 of 2 actions denied (summarise: BILLABLE_ACTION_UNAUTHORIZED)"),
        ("production", "production: all 2 actions allowed"),
    ],
)
async def test_billable_actions_lens_follows_the_environment(
    client_kind: str, tmp_path: Path, environment: str, expected: str
) -> None:
    root = demo_repo(tmp_path / "demo")
    async with start_workspace(client_kind, [root], options={"environment": environment}) as h:
        lenses = await _lenses(h, SPEC, SPEC_TEXT)
        billable = [lens for lens in lenses if lens.command and "action" in lens.command.title]
        assert [lens.command.title for lens in billable if lens.command] == [expected]
        assert h.text_range(SPEC, billable[0].range) == "```gemstack-billable-actions"


async def test_billable_lens_on_broken_json(client_kind: str, tmp_path: Path) -> None:
    root = demo_repo(tmp_path / "demo")
    async with start_workspace(client_kind, [root]) as h:
        broken = SPEC_TEXT.replace('"echo",', '"echo"')
        titles = _titles(await _lenses(h, SPEC, broken))
        assert "Gate preview unavailable: the block is not valid JSON" in titles


def test_state_titles() -> None:
    stale = [
        Finding("CONTEXT_CAPSULE_STALE", "m", "x", data={"source": "specs/f/spec.md"}),
        Finding("CONTEXT_CAPSULE_STALE", "m", "x", data={"source": "specs/f/tasks.md"}),
        Finding("CONTEXT_CAPSULE_SOURCE_MISMATCH", "m", "x", data={"source": "cost-ledger.json"}),
        Finding("CONTEXT_CAPSULE_STALE", "m", "x", subject="source_set_hash"),
    ]
    assert (
        capsule_state_title("STALE", stale, "specs/f")
        == "Capsule: STALE (spec.md, tasks.md, cost-ledger.json and 1 more changed)"
    )
    invalid = [Finding("CONTEXT_CAPSULE_INVALID", "Unsupported schema version: 2", "x")]
    assert capsule_state_title("INVALID", invalid, "specs/f") == "Capsule: INVALID (Unsupported schema version: 2)"
    assert capsule_state_title("VALID", [], "specs/f") == "Capsule: VALID"


async def test_lenses_are_refreshed_when_another_source_changes(client_kind: str, tmp_path: Path) -> None:
    from test_multiroot import copy_repo, eventually

    root = copy_repo(tmp_path / "repo")
    shutil.copy(REFERENCE_OUTPUT / "specs-009-context-capsule.json", root / F9 / "context-capsule.json")
    async with start_workspace(client_kind, [root]) as h:
        assert _titles(await _lenses(h, SPEC9))[0] == "Capsule: VALID"
        await h.settle()
        before = h.refreshes
        tasks = f"{F9}/tasks.md"
        h.open(tasks)
        h.replace(tasks, "## ", "## Edited ")
        await h.settle()

        async def refreshes() -> int:
            await h.settle()
            return int(h.refreshes)

        caps = h.client.capabilities.workspace
        if caps and caps.code_lens and caps.code_lens.refresh_support:
            assert await eventually(refreshes, lambda n: n > before) > before
        assert _titles(await _lenses(h, SPEC9))[0] == "Capsule: STALE (tasks.md changed)"
