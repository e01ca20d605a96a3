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


# --- The front ends' own texts (hover sections, completion, command errors, lenses) ----------


async def _hover_at(h: Harness, rel: str, needle: str) -> str:
    uri = h.open(rel)
    result = await h.request(
        lsp.TEXT_DOCUMENT_HOVER,
        lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=h.position(rel, needle, 3)),
    )
    assert result is not None and isinstance(result.contents, lsp.MarkupContent)
    value: str = result.contents.value
    return value


async def _block_completion(h: Harness) -> lsp.CompletionItem:
    rel = "specs/009-context-capsule/notes.md"
    text = "# Notes\n\n```gem"
    uri = h.open(rel, text)
    result = await h.request(
        lsp.TEXT_DOCUMENT_COMPLETION,
        lsp.CompletionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=2, character=6)
        ),
    )
    items = list(result.items) if isinstance(result, lsp.CompletionList) else list(result or [])
    return next(i for i in items if i.label == "gemstack-contracts")


def _doc_text(item: lsp.CompletionItem) -> str:
    doc = item.documentation
    return doc.value if isinstance(doc, lsp.MarkupContent) else str(doc)


async def _command_error(h: Harness) -> str:
    from pygls.exceptions import JsonRpcException

    with pytest.raises(JsonRpcException) as caught:
        await h.request(
            lsp.WORKSPACE_EXECUTE_COMMAND,
            lsp.ExecuteCommandParams(command="gemstack.verifyCapsule", arguments=[]),
        )
    return str(caught.value)


async def _lens_titles(h: Harness) -> list[str]:
    uri = h.open(SPEC_009)
    lenses = await h.request(
        lsp.TEXT_DOCUMENT_CODE_LENS, lsp.CodeLensParams(text_document=lsp.TextDocumentIdentifier(uri=uri))
    )
    return [lens.command.title for lens in lenses or [] if lens.command is not None]


async def test_front_end_texts_in_english_by_default(make_client: MakeClient, gem_repo: Path) -> None:
    h = await make_client("vscode", gem_repo, fake=False)
    hover = await _hover_at(h, SPEC_009, '"TEST-CONTEXT-A01"')
    assert "**Acceptance test `TEST-CONTEXT-A01`**" in hover and "Pass criteria: " in hover
    assert "Prueba" not in hover
    item = await _block_completion(h)
    assert _doc_text(item) == "Frozen architecture contracts (spec.md, plan.md, tasks.md)."
    assert "gemstack.verifyCapsule needs the feature (specs/<feature> or a URI)" in await _command_error(h)
    titles = await _lens_titles(h)
    assert "Generate capsule" in titles and "Verify" in titles


async def test_front_end_texts_in_spanish_when_the_client_asks(make_client: MakeClient, gem_repo: Path) -> None:
    h = await make_client("vscode", gem_repo, fake=False, locale="es-ES")
    hover = await _hover_at(h, SPEC_009, '"TEST-CONTEXT-A01"')
    assert "**Prueba de aceptación `TEST-CONTEXT-A01`**" in hover and "Criterio de aceptación: " in hover
    assert "Acceptance test" not in hover and "Pass criteria" not in hover and "declared in" not in hover
    diagnostics = await _diagnostics(h)
    (missing,) = [d for d in diagnostics if d.code == "CONTEXT_CAPSULE_MISSING"]
    catalogue = await _hover(h, missing)
    assert "Para silenciarlo" in catalogue or "no se puede silenciar" in catalogue
    assert "To silence it" not in catalogue and "cannot be silenced" not in catalogue
    item = await _block_completion(h)
    assert _doc_text(item) == "Contratos de arquitectura congelados (spec.md, plan.md, tasks.md)."
    error = await _command_error(h)
    assert "gemstack.verifyCapsule necesita la feature (specs/<feature> o una URI)" in error
    assert "needs the feature" not in error
    titles = await _lens_titles(h)
    assert "Generar la cápsula" in titles and "Verificar" in titles
    assert "Generate capsule" not in titles and "Verify" not in titles


# --- Gate decisions in the billable-action hover ----------------------------------------------

ACTIONS_BLOCK = """

```gemstack-billable-actions
[
  {
    "id": "summarize",
    "description": "Summarize a document",
    "category": "DEFINITELY_BILLABLE",
    "capability_id": "inference.generate_text",
    "providers": ["nope-cloud"]
  }
]
```
"""


async def _action_hover(h: Harness, gem_repo: Path) -> str:
    text = (gem_repo / SPEC_009).read_text("utf-8") + ACTIONS_BLOCK
    uri = h.open(SPEC_009, text)
    await h.diagnostics(SPEC_009)  # the buffer is analysed (under load the hover could come first)
    line = text[: text.index('"summarize"')].count("\n")
    column = len(text[: text.index('"summarize"')].rsplit("\n", 1)[-1]) + 3
    result = await h.request(
        lsp.TEXT_DOCUMENT_HOVER,
        lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=line, character=column)
        ),
    )
    assert result is not None and isinstance(result.contents, lsp.MarkupContent)
    value: str = result.contents.value
    return value


async def test_gate_decisions_in_the_hover_follow_the_locale(make_client: MakeClient, gem_repo: Path) -> None:
    english = await _action_hover(await make_client("vscode", gem_repo, fake=False), gem_repo)
    assert "| environment | decision | reason |" in english
    assert 'Provider "nope-cloud" is not registered in provider registry.' in english
    spanish = await _action_hover(await make_client("vscode", gem_repo, fake=False, locale="es-ES"), gem_repo)
    assert "| entorno | decisión | motivo |" in spanish
    assert 'El proveedor "nope-cloud" no está registrado en el registro de proveedores.' in spanish
    assert "is not registered" not in spanish and "Action" not in spanish
    assert "`UNKNOWN_PROVIDER_IDENTITY`" in spanish  # the codes stay as they are


# --- The safe plan writer's refusals ----------------------------------------------------------

BAD_DATE_PLAN = "docs/plans/2026-13-02-gitnexus-plan-capsule-editor-actions.md"


async def _write_bad_plan(h: Harness) -> tuple[dict[str, object], list[str]]:
    uri = h.open(BAD_DATE_PLAN, "# Plan\n")
    result = await h.request(
        lsp.WORKSPACE_EXECUTE_COMMAND, lsp.ExecuteCommandParams(command="gemstack.writePlan", arguments=[uri])
    )
    return result, [m.message for m in h.client.messages]


async def test_plan_writer_refusals_follow_the_locale(make_client: MakeClient, gem_repo: Path) -> None:
    from tests.lsp.test_plan_writer import _git_repo

    root = _git_repo(gem_repo)
    result, shown = await _write_bad_plan(await make_client("vscode", root, fake=False))
    assert result == {"written": False, "error": "Generated-plan path has an invalid calendar date: 2026-13-02"}
    assert "Plan not written: Generated-plan path has an invalid calendar date: 2026-13-02" in shown
    result, shown = await _write_bad_plan(await make_client("vscode", root, fake=False, locale="es-ES"))
    spanish = "La ruta del plan generado tiene una fecha de calendario inválida: 2026-13-02"
    assert result == {"written": False, "error": spanish}
    assert f"Plan no escrito: {spanish}" in shown
    assert not any("Plan not written" in m or "invalid calendar" in m for m in shown)
    assert not (root / BAD_DATE_PLAN).exists()


# --- gemstack.renameFrozenContract's result ---------------------------------------------------


async def _rename_frozen(h: Harness) -> dict[str, object]:
    from tests.lsp.test_authoring import SPEC8

    uri = h.open(SPEC8)
    position = h.position(SPEC8, '"unknown-cost-never-free"', 3)
    result: dict[str, object] = await h.request(
        lsp.WORKSPACE_EXECUTE_COMMAND,
        lsp.ExecuteCommandParams(
            command="gemstack.renameFrozenContract",
            arguments=[uri, {"line": position.line, "character": position.character}, "unknown-never-free"],
        ),
    )
    return result


async def test_rename_frozen_result_follows_the_locale(make_client: MakeClient, gem_repo: Path) -> None:
    english = await _rename_frozen(await make_client("vscode", gem_repo, fake=False))
    assert english["applied"] is True
    assert english["message"] == (
        "Renamed unknown-cost-never-free to unknown-never-free in 2 places; this changed the frozen spec.md of "
        "008-cost-provider-safety-gates, plan.md of 008-cost-provider-safety-gates: record it as an amendment."
    )
    spanish = await _rename_frozen(await make_client("vscode", gem_repo, fake=False, locale="es-ES"))
    assert spanish["frozen"] == english["frozen"]  # data, not text
    assert spanish["message"] == (
        "Se renombró unknown-cost-never-free a unknown-never-free en 2 lugares; esto cambió lo congelado (spec.md de "
        "008-cost-provider-safety-gates, plan.md de 008-cost-provider-safety-gates): regístralo como una enmienda."
    )


# --- A hidden finding's hover line ------------------------------------------------------------


async def _hover_inside(h: Harness, diagnostic: lsp.Diagnostic) -> str:
    """The hover a few characters into the diagnostic's range (on a word, not the heading's #)."""
    start = diagnostic.range.start
    moved = lsp.Diagnostic(
        range=lsp.Range(start=lsp.Position(line=start.line, character=start.character + 3), end=diagnostic.range.end),
        message=diagnostic.message,
    )
    return await _hover(h, moved)


async def test_hidden_finding_hover_follows_the_locale(make_client: MakeClient, gem_repo: Path) -> None:
    (missing,) = [
        d
        for d in await _diagnostics(await make_client("vscode", gem_repo, fake=False))
        if d.code == "CONTEXT_CAPSULE_MISSING"
    ]
    (gem_repo / ".gemstack").mkdir(exist_ok=True)
    (gem_repo / ".gemstack" / "lsp.toml").write_text('ignore = ["CONTEXT_CAPSULE_MISSING"]\n', "utf-8")
    h = await make_client("vscode", gem_repo, fake=False)
    assert not [d for d in await _diagnostics(h) if d.code == "CONTEXT_CAPSULE_MISSING"]
    english = await _hover_inside(h, missing)
    assert "**CONTEXT_CAPSULE_MISSING** is not shown here: switched off in .gemstack/lsp.toml." in english
    assert "Context capsule not found at " in english
    h = await make_client("vscode", gem_repo, fake=False, locale="es-ES")
    await _diagnostics(h)
    spanish = await _hover_inside(h, missing)
    assert "**CONTEXT_CAPSULE_MISSING** no se muestra aquí: desactivado en .gemstack/lsp.toml." in spanish
    assert "No se encontró la context capsule en " in spanish
    assert (
        "is not shown here" not in spanish
        and "switched off" not in spanish
        and "Context capsule not found" not in spanish
    )


# --- An OS error wrapped in our own words ------------------------------------------------------


async def _regenerate_error(h: Harness) -> str:
    from pygls.exceptions import JsonRpcException

    with pytest.raises(JsonRpcException) as caught:
        await h.request(
            lsp.WORKSPACE_EXECUTE_COMMAND,
            lsp.ExecuteCommandParams(command="gemstack.regenerateCapsule", arguments=[h.uri(SPEC_009)]),
        )
    return str(caught.value)


async def test_os_errors_are_wrapped_in_the_clients_language(make_client: MakeClient, gem_repo: Path) -> None:
    # The capsule's place is taken by a folder: the write fails with the OS's own error.
    (gem_repo / "specs" / "009-context-capsule" / "context-capsule.json").mkdir()
    english = await _regenerate_error(await make_client("vscode", gem_repo, fake=False))
    assert "gemstack.regenerateCapsule could not finish: " in english and "; nothing was written" in english
    spanish = await _regenerate_error(await make_client("vscode", gem_repo, fake=False, locale="es-ES"))
    assert "gemstack.regenerateCapsule no pudo terminar: " in spanish and "; no se escribió nada" in spanish
    assert "could not finish" not in spanish and "nothing was written" not in spanish


# --- The JSON Schemas' titles and descriptions (key hovers, completion documentation) ----------

NOTES = "specs/009-context-capsule/notes.md"
CONTRACT_KEYS = '# Notes\n\n```gemstack-contracts\n[\n  {"id": "x", "type": "ENUM_SET", "'


async def _schema_texts(h: Harness) -> tuple[str, str]:
    """The hover of the ``type`` key and the documentation of the ``values`` key's completion."""
    uri = h.open(NOTES, CONTRACT_KEYS)
    hover = await h.request(
        lsp.TEXT_DOCUMENT_HOVER,
        lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=4, character=18)),
    )
    assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
    end = lsp.Position(line=4, character=len(CONTRACT_KEYS.rsplit("\n", 1)[-1]))
    result = await h.request(
        lsp.TEXT_DOCUMENT_COMPLETION,
        lsp.CompletionParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=end),
    )
    items = list(result.items) if isinstance(result, lsp.CompletionList) else list(result or [])
    (values,) = [i for i in items if i.label == "values"]
    return hover.contents.value, _doc_text(values)


async def test_schema_texts_follow_the_locale(make_client: MakeClient, gem_repo: Path) -> None:
    hover, doc = await _schema_texts(await make_client("vscode", gem_repo, fake=False))
    assert hover.startswith("**`type`** · Contract type\n\nENUM_SET (a closed set of values)")
    assert doc.startswith("**Values**\n\nENUM_SET: the members of the set;")
    hover, doc = await _schema_texts(await make_client("vscode", gem_repo, fake=False, locale="es-ES"))
    assert hover.startswith("**`type`** · Tipo de contrato\n\nENUM_SET (un conjunto cerrado de valores)")
    assert hover.endswith("(esquema `gemstack-contracts`)")
    assert doc.startswith("**Valores**\n\nENUM_SET: los miembros del conjunto;")
    assert "the members" not in doc and "a closed set" not in hover
