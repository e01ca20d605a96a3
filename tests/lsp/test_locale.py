"""One language per message in the editor (issue 18, item 7): English by default, the
reference's Spanish when ``initialize`` says ``locale: "es-ES"``, for diagnostics (messages,
related information, fix titles) and for hovers (the catalogue's text)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from lsprotocol import types as lsp

if TYPE_CHECKING:
    from tests.lsp.conftest import Harness, MakeClient

SPEC_009 = "specs/009-context-capsule/spec.md"

CLOSURE_EN = (
    'closure.json does not exist in specs/009-context-capsule. Run "gemstack collect" to produce the mechanical '
    "evidence."
)
CLOSURE_ES = (
    'closure.json no existe en specs/009-context-capsule. Ejecuta "gemstack collect" para generar la evidencia '
    "mecánica."
)


async def _diagnostics(h: Harness) -> list[lsp.Diagnostic]:
    h.open(SPEC_009)
    return await h.diagnostics(SPEC_009)


async def _hover(h: Harness, diagnostic: lsp.Diagnostic) -> str:
    result = await h.request(
        lsp.TEXT_DOCUMENT_HOVER,
        lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=h.uri(SPEC_009)), position=diagnostic.range.start),
    )
    assert result is not None and isinstance(result.contents, lsp.MarkupContent)
    value: str = result.contents.value
    return value


@pytest.mark.parametrize("locale", [None, "en-US", "fr-FR"])
async def test_english_by_default(make_client: MakeClient, gem_repo: Path, locale: str | None) -> None:
    h = await make_client("vscode", gem_repo, fake=False, locale=locale)
    diagnostics = await _diagnostics(h)
    (closure,) = [d for d in diagnostics if d.code == "CLOSURE_MANIFEST_MISSING"]
    assert closure.message == CLOSURE_EN
    (missing,) = [d for d in diagnostics if d.code == "CONTEXT_CAPSULE_MISSING"]
    assert "The feature has no context capsule." in await _hover(h, missing)


async def test_spanish_when_the_client_asks(make_client: MakeClient, gem_repo: Path) -> None:
    english = await _diagnostics(await make_client("vscode", gem_repo, fake=False))
    h = await make_client("vscode", gem_repo, fake=False, locale="es-ES")
    spanish = await _diagnostics(h)
    assert [d.code for d in spanish] == [d.code for d in english]
    (closure,) = [d for d in spanish if d.code == "CLOSURE_MANIFEST_MISSING"]
    assert closure.message == CLOSURE_ES
    # Every message is translated as a whole (none is left English, none is half and half).
    for es, en in zip(spanish, english, strict=True):
        assert es.message != en.message, en.message
        for es_rel, en_rel in zip(es.related_information or (), en.related_information or (), strict=True):
            assert es_rel.message != en_rel.message, en_rel.message
    (missing,) = [d for d in spanish if d.code == "CONTEXT_CAPSULE_MISSING"]
    assert missing.message.startswith("No se encontró la context capsule en ")
    titles = [fix["title"] for fix in (missing.data or {}).get("fixes", [])]
    assert titles == ["Regenerar la context capsule", "Verificar la context capsule"]
    hover = await _hover(h, missing)
    assert "La feature no tiene context capsule." in hover
    assert "The feature has no context capsule." not in hover
    assert "[Documentación](" in hover


async def test_code_lens_titles_follow_the_locale(make_client: MakeClient, gem_repo: Path) -> None:
    titles: dict[str, list[str]] = {}
    for locale in ("en", "es-ES"):
        h = await make_client("vscode", gem_repo, fake=False, locale=locale)
        uri = h.open(SPEC_009)
        lenses = await h.request(
            lsp.TEXT_DOCUMENT_CODE_LENS, lsp.CodeLensParams(text_document=lsp.TextDocumentIdentifier(uri=uri))
        )
        titles[locale] = [lens.command.title for lens in lenses or [] if lens.command is not None]
    assert "Capsule: MISSING" in titles["en"]
    assert "Cápsula: MISSING" in titles["es-ES"] and "Capsule: MISSING" not in titles["es-ES"]
