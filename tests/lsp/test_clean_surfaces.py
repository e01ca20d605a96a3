"""What every client sees: the capsule state request, one action per intent, plain-text hovers,
what Regenerate says it wrote, and a quiet log."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from lsprotocol import types as lsp

from gemstack_lsp.server.capsule_state import CAPSULE_STATE_REQUEST
from gemstack_lsp.server.server import GemstackServer
from tests.lsp.conftest import _plain

if TYPE_CHECKING:
    from tests.lsp.conftest import Harness, MakeClient

FEATURE = "specs/009-context-capsule"
SPEC = f"{FEATURE}/spec.md"
TASKS = f"{FEATURE}/tasks.md"
CAPSULE = f"{FEATURE}/context-capsule.json"


def _command_of(action: Any) -> lsp.Command | None:
    if isinstance(action, lsp.Command):
        return action
    command: lsp.Command | None = action.command
    return command


async def _state(h: Harness, rel: str) -> Any:
    return await h.request(CAPSULE_STATE_REQUEST, {"textDocument": {"uri": h.uri(rel)}})


async def _regenerate(h: Harness) -> Any:
    return _plain(
        await h.request(
            lsp.WORKSPACE_EXECUTE_COMMAND,
            lsp.ExecuteCommandParams(command="gemstack.regenerateCapsule", arguments=[FEATURE]),
        )
    )


async def test_capsule_state_follows_the_feature(make_client: MakeClient, gem_repo: Path, client_kind: str) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    h.open(SPEC)
    await h.settle()
    state = _plain(await _state(h, SPEC))
    assert state["feature"] == FEATURE
    assert state["state"] == "MISSING"
    assert state["capsule"] == CAPSULE
    assert state["exists"] is False
    assert state["capsuleUri"] == h.uri(FEATURE) + "/context-capsule.json"
    assert "generate" in state["summary"]
    await _regenerate(h)
    assert _plain(await _state(h, SPEC))["state"] == "VALID"
    # Any file of the feature answers for it (tasks.md too), unsaved edits included.
    h.open(TASKS)
    h.replace(TASKS, "\n## ", "\nA new line in the tasks.\n\n## ")
    await h.settle()
    stale = _plain(await _state(h, SPEC))
    assert stale["state"] == "STALE", stale
    assert "CONTEXT_CAPSULE_STALE" in stale["findings"]
    assert "tasks.md" in stale["summary"]
    # Outside a feature folder: no state.
    assert await _state(h, ".gemstack/state.json") is None
    assert await h.request(CAPSULE_STATE_REQUEST, {"textDocument": {"uri": "file:///nowhere/specs/x/spec.md"}}) is None


async def test_regenerate_says_what_it_wrote_and_what_remains(make_client: MakeClient, gem_repo: Path) -> None:
    h = await make_client("neovim", gem_repo, fake=False)
    # tasks.md edited after its phase was frozen: the capsule is missing and the phase hash differs.
    h.open(TASKS)
    h.replace(TASKS, "- [x] **T001:", "- [ ] **T001:")
    codes = {d.code for d in await h.diagnostics(TASKS)}
    assert "FROZEN_ARTIFACT_CHANGED" in codes
    result = await _regenerate(h)
    size = (gem_repo / CAPSULE).stat().st_size
    assert result["bytes"] == size and result["invariants"] > 0
    # The active feature has no closure.json yet either (the reference's verify says so too).
    # Unticking T001 under the `TASKS_COMPLETE` lifecycle header also contradicts the header.
    assert result["remaining"] == [
        "CLOSURE_MANIFEST_MISSING",
        "FROZEN_ARTIFACT_CHANGED",
        "TASKS_LIFECYCLE_CONTRADICTED",
    ]
    expected = (
        f"Context capsule written: {CAPSULE} ({size} bytes, {result['invariants']} invariants). "
        "Still reported for this feature: CLOSURE_MANIFEST_MISSING, FROZEN_ARTIFACT_CHANGED, "
        "TASKS_LIFECYCLE_CONTRADICTED "
        "(:lua vim.diagnostic.setqflist() lists them)."
    )
    assert result["message"] == expected
    assert expected in [m.message for m in h.client.messages]
    # The finding that stays says why Regenerate did not clear it, and what does.
    (frozen,) = [d for d in await h.diagnostics(TASKS) if d.code == "FROZEN_ARTIFACT_CHANGED"]
    assert "Regenerating the context capsule does not re-freeze the tasks phase" in frozen.message
    assert "phase_hashes.tasks" in frozen.message


async def test_one_action_per_intent(make_client: MakeClient, gem_repo: Path, client_kind: str) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    h.open(SPEC)
    await _regenerate(h)
    h.replace(SPEC, "\n## ", "\nThe system MUST keep this new rule.\n\n## ")
    diagnostics = [d for d in await h.diagnostics(SPEC) if d.source == "gemstack"]
    capsule = [d for d in diagnostics if str(d.code).startswith("CONTEXT_CAPSULE")]
    assert capsule
    start = lsp.Position(line=0, character=0)
    # As Neovim and Emacs ask: every kind at once, with every diagnostic of the document.
    result = await h.request(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=h.uri(SPEC)),
            range=lsp.Range(start=start, end=start),
            context=lsp.CodeActionContext(diagnostics=diagnostics + capsule),
        ),
    )
    actions = list(result or [])
    titles = [a.title for a in actions]
    assert len(titles) == len(set(titles)), titles
    commands = [c.command for c in map(_command_of, actions) if c is not None]
    assert commands.count("gemstack.regenerateCapsule") == 1, titles
    assert commands.count("gemstack.verifyCapsule") == 1, titles
    regenerate = next(a for a in actions if (c := _command_of(a)) and c.command == "gemstack.regenerateCapsule")
    assert isinstance(regenerate, lsp.CodeAction) and regenerate.kind == lsp.CodeActionKind.QuickFix
    # The one quick fix resolves every capsule diagnostic it stands for.
    assert regenerate.diagnostics is not None and len(regenerate.diagnostics) == len(capsule)
    # Asked for source actions only (VS Code's Source Action menu), they are there, titled alike.
    result = await h.request(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=h.uri(SPEC)),
            range=lsp.Range(start=start, end=start),
            context=lsp.CodeActionContext(diagnostics=[], only=[lsp.CodeActionKind.Source]),
        ),
    )
    assert sorted(a.title for a in result or []) == ["Regenerate the context capsule", "Verify the context capsule"]


def _plain_text_hover(caps: lsp.ClientCapabilities) -> None:
    assert caps.text_document is not None
    caps.text_document.hover = lsp.HoverClientCapabilities(content_format=[lsp.MarkupKind.PlainText])


@pytest.mark.parametrize("needle", ['"capsule-is-derived-not-authority"', "CONTEXT_CAPSULE_MISSING"])
async def test_plain_text_hover_for_clients_without_markdown(
    make_client: MakeClient, gem_repo: Path, needle: str
) -> None:
    h = await make_client("neovim", gem_repo, fake=False, tweak=_plain_text_hover)
    if needle.startswith('"'):
        uri = h.open(SPEC)
        position = h.position(SPEC, needle, 5)
    else:
        note = f"{FEATURE}/notes.md"
        uri = h.open(note, f"CI said {needle} on spec.md\n")
        position = h.position(note, needle, 3)
    await h.settle()
    result = await h.request(
        lsp.TEXT_DOCUMENT_HOVER,
        lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=position),
    )
    assert result is not None
    assert result.contents.kind == lsp.MarkupKind.PlainText
    value = result.contents.value
    assert value.strip()
    assert "**" not in value and "`" not in value and "](" not in value, value
    assert not re.search(r"^\s*\|", value, re.M), value


def test_a_cancel_for_an_answered_request_logs_no_warning(caplog: pytest.LogCaptureFixture) -> None:
    server = GemstackServer()
    with caplog.at_level(logging.DEBUG):
        server.endpoint.cancel(42)
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    # The id is still remembered, so a handler that runs late sees it was cancelled.
    assert 42 in server.endpoint.cancelled


def _plain_text_completion_docs(caps: lsp.ClientCapabilities) -> None:
    assert caps.text_document is not None and caps.text_document.completion is not None
    item = caps.text_document.completion.completion_item
    assert item is not None
    item.documentation_format = [lsp.MarkupKind.PlainText]


async def test_plain_text_completion_documentation_for_clients_without_markdown(
    make_client: MakeClient, gem_repo: Path
) -> None:
    """Vim's ALE and other clients that declare only plain text get no ``**`` or backticks."""
    h = await make_client("neovim", gem_repo, fake=False, tweak=_plain_text_completion_docs)
    text = '# Demo\n\n```gemstack-billable-actions\n[\n  {"id": "x", "cap'
    uri = h.open(SPEC, text)
    end = h.position(SPEC, '"cap', 4)
    result = await h.request(
        lsp.TEXT_DOCUMENT_COMPLETION,
        lsp.CompletionParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=end),
    )
    items = list(result.items) if isinstance(result, lsp.CompletionList) else list(result or [])
    documented = [i for i in items if i.documentation is not None]
    assert documented, [i.label for i in items]
    for item in documented:
        assert isinstance(item.documentation, lsp.MarkupContent)
        assert item.documentation.kind == lsp.MarkupKind.PlainText
        assert "**" not in item.documentation.value and "`" not in item.documentation.value, item.documentation.value
    capability = next(i for i in documented if i.label == "capability_id")
    assert capability.documentation.value.startswith("Capability id")


async def test_regenerate_says_what_it_left_out_without_echoing_it(make_client: MakeClient, gem_repo: Path) -> None:
    """An open question that trips the capsule's secret scan is left out; the message says so,
    the output log says which and why, and neither repeats the question's text."""
    h = await make_client("neovim", gem_repo, fake=False)
    h.open(SPEC)
    text = h.texts[h.uri(SPEC)]
    h.replace(SPEC, text, text.rstrip("\n") + "\n\n## Open Questions\n- Should bearer tokens expire after one hour?\n")
    result = await _regenerate(h)
    assert result["written"] is True
    assert len(result["left_out"]) == 1, result
    assert "Left out 1 item that matches the capsule's secret scan" in result["message"]
    shown = [m for m in h.client.messages if m.message == result["message"]]
    assert shown and shown[0].type == lsp.MessageType.Warning
    logged = [m.message for m in h.client.log_messages if m.message.startswith("Left out of the capsule")]
    assert logged == result["left_out"]
    for said in [result["message"], *logged]:
        assert "expire after one hour" not in said, said
    assert b"expire after one hour" not in (gem_repo / CAPSULE).read_bytes()


async def test_what_regenerate_left_out_is_logged_in_the_clients_language(
    make_client: MakeClient, gem_repo: Path
) -> None:
    h = await make_client("neovim", gem_repo, fake=False, locale="es-ES")
    h.open(SPEC)
    text = h.texts[h.uri(SPEC)]
    h.replace(SPEC, text, text.rstrip("\n") + "\n\n## Open Questions\n- Should bearer tokens expire after one hour?\n")
    result = await _regenerate(h)
    assert result["written"] is True and len(result["left_out"]) == 1, result
    assert result["left_out"][0].startswith("Left out of the capsule")  # the result's data stays English
    logged = [m.message for m in h.client.log_messages if "cápsula" in m.message]
    assert len(logged) == 1 and logged[0].startswith("Se dejó fuera de la cápsula: "), logged
    assert not any(m.message.startswith("Left out of the capsule") for m in h.client.log_messages)
