"""Quiet outside Gemstack, end to end: the server on a spec-kit repository publishes no
finding, offers no capsule lens and answers no capsule state, for both kinds of client."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp

MakeClient = Callable[..., Awaitable[Any]]

SPEC = "specs/001-photo-albums/spec.md"
FILES = {
    ".specify/memory/constitution.md": "# Photo Constitution\n",
    SPEC: "# Feature Specification: Photo Albums\n\n- **FR-001**: System MUST allow users to create albums.\n",
    "specs/001-photo-albums/plan.md": "# Implementation Plan: Photo Albums\n",
    "specs/001-photo-albums/tasks.md": "# Tasks\n\n- [ ] T001 Create project structure\n",
}


async def test_a_spec_kit_repository_is_left_alone(make_client: MakeClient, client_kind: str, tmp_path: Path) -> None:
    for rel, text in FILES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, "utf-8")
    h = await make_client(client_kind, tmp_path, fake=False)
    uri = h.open(SPEC)
    assert await h.diagnostics(SPEC) == []
    assert await h.workspace_diagnostics() == {}
    doc = lsp.TextDocumentIdentifier(uri=uri)
    assert not await h.request(lsp.TEXT_DOCUMENT_CODE_LENS, lsp.CodeLensParams(text_document=doc))
    assert await h.request("gemstack/capsuleState", {"textDocument": {"uri": uri}}) is None
    tokens = await h.request(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, lsp.SemanticTokensParams(text_document=doc))
    assert tokens is None or list(tokens.data) == []
