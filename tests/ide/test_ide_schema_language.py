"""Hover and completion show a JSON Schema's title and description in the language asked for:
English by default (the schema files' own words), Spanish from ``core/i18n_es_schemas.py``."""

from __future__ import annotations

from ide_repository import SPEC, offset, snapshot

from gemstack_lsp import ide
from gemstack_lsp.ide.completion import completions, repo_facts

NOTES = "specs/001-images/notes.md"
KEYS = '# Notes\n\n```gemstack-contracts\n[\n  {"id": "x", "'
VALUES = '# Notes\n\n```gemstack-contracts\n[\n  {"id": "x", "type": "'


def _key_hover(language: str) -> str:
    snap = snapshot()
    at = offset(snap, SPEC, '"type": "BOOLEAN_INVARIANT"', 2)
    info = ide.hover(snap, SPEC, at, ide.HoverOptions(language=language))  # type: ignore[arg-type]
    assert info is not None
    (section,) = info.sections
    return section


def test_a_keys_hover_is_english_by_default() -> None:
    section = _key_hover("en")
    assert section.startswith("**`type`** · Contract type\n\nENUM_SET (a closed set of values), ")
    assert section.endswith("(`gemstack-contracts` schema)")


def test_a_keys_hover_in_spanish() -> None:
    section = _key_hover("es")
    assert section.startswith("**`type`** · Tipo de contrato\n\nENUM_SET (un conjunto cerrado de valores), ")
    assert section.endswith("(esquema `gemstack-contracts`)")
    assert "Contract type" not in section and "a closed set" not in section


def _items(text: str, language: str) -> dict[str, ide.Candidate]:
    snap = snapshot()
    found = completions(NOTES, text, len(text), repo_facts(snap), language)  # type: ignore[arg-type]
    return {c.label: c for c in found}


def test_key_and_value_documentation_in_english_by_default() -> None:
    keys = _items(KEYS, "en")
    assert keys["type"].documentation is not None
    assert keys["type"].documentation.startswith("**Contract type**\n\nENUM_SET (a closed set of values)")
    assert keys["description"].documentation == (
        "**Description**\n\nWhat the contract means, for people. Not compared between phases."
    )
    values = _items(VALUES, "en")
    assert values["ENUM_SET"].detail == "Contract type"


def test_key_and_value_documentation_in_spanish() -> None:
    keys = _items(KEYS, "es")
    assert set(keys) == set(_items(KEYS, "en"))  # the same items: only their texts change
    assert keys["type"].documentation is not None
    assert keys["type"].documentation.startswith("**Tipo de contrato**\n\nENUM_SET (un conjunto cerrado de valores)")
    assert keys["description"].documentation == (
        "**Descripción**\n\nQué significa el contrato, para las personas. No se compara entre fases."
    )
    values = _items(VALUES, "es")
    assert values["ENUM_SET"].detail == "Tipo de contrato"
    assert values["ENUM_SET"].insert == _items(VALUES, "en")["ENUM_SET"].insert
