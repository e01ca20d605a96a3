"""No server output echoes a secret: with secret-looking values planted in every input position,
diagnostics, hovers, completions, symbols, code lenses, code actions and log messages never
quote one (they may say "[redacted ...]")."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cattrs
from lsprotocol import types as lsp

from gemstack_lsp.core.text import SourceText
from tests import hostile_secrets as hs

if TYPE_CHECKING:
    from tests.lsp.conftest import Harness, MakeClient

FILES = [
    f"{hs.FEATURE}/spec.md",
    f"{hs.FEATURE}/plan.md",
    f"{hs.FEATURE}/tasks.md",
    f"{hs.FEATURE}/cost-ledger.json",
    f"{hs.FEATURE}/closure.json",
    f"{hs.FEATURE}/context-capsule.json",
    ".gemstack/providers.json",
    "cost-ledger.json",
    ".gemstack/state.json",
]
_CONVERTER = cattrs.Converter()


def _text(value: Any) -> str:
    """Everything a result holds, as one string."""
    try:
        plain = _CONVERTER.unstructure(value)
    except Exception:
        plain = value
    return json.dumps(plain, default=repr, ensure_ascii=False)


def _positions(text: str) -> list[int]:
    """Offsets inside, and just around, every planted secret (and every quoted id)."""
    out: set[int] = set()
    for secret in (hs.GITHUB, hs.OPENAI, hs.AWS, hs.GOOGLE, hs.BEARER, hs.PRIVATE_KEY):
        for m in re.finditer(re.escape(secret), text):
            out.update((m.start(), m.start() + 5, m.end() - 1, m.end()))
    return sorted(out)


def _identifier(h: Harness, rel: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=h.uri(rel))


async def _gather(h: Harness, rel: str) -> list[tuple[str, str]]:
    """(what, output) of every request on one open document."""
    out: list[tuple[str, str]] = []
    text = h.texts[h.uri(rel)]
    doc = _identifier(h, rel)
    source = SourceText(text)
    for offset in _positions(text):
        p = source.position(offset, h.encoding)
        position = lsp.Position(line=p.line, character=p.character)
        hover = await h.request(lsp.TEXT_DOCUMENT_HOVER, lsp.HoverParams(text_document=doc, position=position))
        out.append((f"hover {rel}@{offset}", _text(hover)))
        completion = await h.request(
            lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionParams(text_document=doc, position=position)
        )
        out.append((f"completion {rel}@{offset}", _text(completion)))
        for method, params in (
            (lsp.TEXT_DOCUMENT_DEFINITION, lsp.DefinitionParams(text_document=doc, position=position)),
            (
                lsp.TEXT_DOCUMENT_REFERENCES,
                lsp.ReferenceParams(
                    text_document=doc, position=position, context=lsp.ReferenceContext(include_declaration=True)
                ),
            ),
        ):
            out.append((f"{method} {rel}@{offset}", _text(await h.request(method, params))))
    symbols = await h.request(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL, lsp.DocumentSymbolParams(text_document=doc))
    out.append((f"symbols {rel}", _text(symbols)))
    lenses = await h.request(lsp.TEXT_DOCUMENT_CODE_LENS, lsp.CodeLensParams(text_document=doc))
    out.append((f"lens {rel}", _text(lenses)))
    links = await h.request(lsp.TEXT_DOCUMENT_DOCUMENT_LINK, lsp.DocumentLinkParams(text_document=doc))
    out.append((f"links {rel}", _text(links)))
    diagnostics = await h.diagnostics(rel)
    out.append((f"diagnostics {rel}", _text(diagnostics)))
    whole = lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=text.count("\n"), character=0))
    actions = await h.request(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionParams(text_document=doc, range=whole, context=lsp.CodeActionContext(diagnostics=diagnostics)),
    )
    out.append((f"actions {rel}", _text(actions)))
    return out


async def test_no_server_output_quotes_a_secret(make_client: MakeClient, gem_repo: Path, client_kind: str) -> None:
    hs.plant(gem_repo)
    h = await make_client(client_kind, gem_repo, fake=False)
    for rel in FILES:
        h.open(rel, language_id="json" if rel.endswith(".json") else "markdown")
    outputs: list[tuple[str, str]] = []
    for rel in FILES:
        outputs.extend(await _gather(h, rel))
    for query in ("", "ghp", "sk-", hs.GITHUB[:8], "AKIA", "hostile"):
        found = await h.request(lsp.WORKSPACE_SYMBOL, lsp.WorkspaceSymbolParams(query=query))
        outputs.append((f"workspace symbols {query!r}", _text(found)))
    outputs.append(("workspace diagnostics", _text(await h.workspace_diagnostics())))
    outputs.append(("pushes", _text(h.pushes)))
    outputs.append(("log messages", _text(h.client.log_messages)))
    outputs.append(("shown messages", _text(h.client.messages)))
    leaking = [(what, hs.leaks(text)) for what, text in outputs if hs.leaks(text)]
    assert leaking == [], "\n".join(f"{what}: {names}" for what, names in leaking)
    # The findings still name the problems, with the values replaced.
    assert "[redacted" in _text(await h.workspace_diagnostics())
