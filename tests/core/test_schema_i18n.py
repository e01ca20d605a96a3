"""The JSON Schemas' titles and descriptions in Spanish (issue 18, item 7): every one has its
Spanish (``core/i18n_es_schemas.py``), the overlay changes nothing but those texts, and the
one schema walker (``schemas_at``, read by hover's ``describe`` and by completion) reads them
in the language asked for, English by default."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.core import schemas
from gemstack_lsp.core.i18n_es_schemas import PAIRS, SCHEMA_TEXTS

ROOT = Path(__file__).resolve().parents[2]

#: Titles that are the same word in both languages (names, not sentences).
SAME_IN_BOTH = {"Endpoint", "Host", "Script", "hover", "Feature", "Viewport", "closure.json (gemstack-closure v1)"}

#: What a translation must keep as it is: codes, numbers, file names, quoted commands, patterns.
_KEPT = re.compile(r"[A-Z][A-Z0-9]*_[A-Z0-9_]+|\d+(?:\.\d+)*|[\w.-]+\.(?:md|json|js|toml)\b|`[^`]*`|\^\S*")


def _annotations() -> list[tuple[str, str, str]]:
    """(schema file, JSON pointer, English text) of every title and description shipped."""
    return [
        (name, pointer, text)
        for name in schemas.available_schemas()
        for pointer, text in schemas.text_annotations(schemas.load_schema(name))
    ]


def test_every_title_and_description_has_its_spanish() -> None:
    found = _annotations()
    assert len(found) > 400
    missing = [(name, pointer, text) for name, pointer, text in found if text not in SCHEMA_TEXTS]
    assert missing == [], "translate these in gemstack_lsp/core/i18n_es_schemas.py"


def test_the_catalogue_has_no_stale_or_repeated_entry() -> None:
    used = {text for _name, _pointer, text in _annotations()}
    assert sorted(set(SCHEMA_TEXTS) - used) == [], "English no schema says any more"
    assert len(PAIRS) == len(SCHEMA_TEXTS), "an English text is listed twice"


def test_translations_are_translations_that_keep_codes_and_names() -> None:
    copies = sorted(en for en, es in SCHEMA_TEXTS.items() if en == es and en not in SAME_IN_BOTH)
    assert copies == [], "a Spanish text identical to its English"
    for en, es in SCHEMA_TEXTS.items():
        assert es.strip() == es and es, en
        assert set(_KEPT.findall(en)) == set(_KEPT.findall(es)), (en, es)


@pytest.mark.parametrize("name", schemas.available_schemas())
def test_the_overlay_changes_only_the_texts(name: str) -> None:
    english = schemas.load_schema(name)
    spanish = schemas.localized_schema(name, "es")
    assert schemas.localized_schema(name, "en") is english
    assert schemas.localized_schema(name, "es") is spanish  # cached
    assert spanish != english
    # Same keywords, values, property names (a property called "description" is a name).
    assert _blank(spanish) == _blank(english)
    texts_en = list(schemas.text_annotations(english))
    texts_es = list(schemas.text_annotations(spanish))
    assert [p for p, _ in texts_es] == [p for p, _ in texts_en]
    for (pointer, en), (_, es) in zip(texts_en, texts_es, strict=True):
        assert es == SCHEMA_TEXTS[en], pointer
    # The files themselves stay English, the shipped copy and schemas/ alike.
    on_disk = json.loads((ROOT / "gemstack_lsp" / "schemas" / name).read_text("utf-8"))
    assert on_disk == english == json.loads((ROOT / "schemas" / name).read_text("utf-8"))


def _blank(node: Any, in_schema: bool = True) -> Any:
    """The schema with its annotations blanked (kept as keys, so their places compare too)."""
    if isinstance(node, list):
        return [_blank(v, in_schema) for v in node]
    if not isinstance(node, Mapping):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if in_schema and key in schemas.TEXT_KEYWORDS and isinstance(value, str):
            out[key] = "…"
        elif key in ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas"):
            out[key] = {k: _blank(v) for k, v in value.items()} if isinstance(value, Mapping) else value
        elif key in ("enum", "const", "default", "examples"):
            out[key] = value  # data, never translated
        else:
            out[key] = _blank(value)
    return out


def test_a_property_named_description_is_a_name_not_a_text() -> None:
    spanish = schemas.localized_schema("gemstack-contracts", "es")
    english = schemas.load_schema("gemstack-contracts")
    node_en = next(s for s in schemas.schemas_at(english, [0]) if "properties" in s)
    node_es = next(s for s in schemas.schemas_at(spanish, [0]) if "properties" in s)
    assert "description" in node_en["properties"] and "description" in node_es["properties"]
    assert set(node_es["properties"]) == set(node_en["properties"])
    assert spanish["$schema"] == english["$schema"]


def test_describe_in_both_languages() -> None:
    english = schemas.describe("gemstack-contracts", [0, "type"])
    assert english == schemas.describe("gemstack-contracts", [0, "type"], "en")
    assert english is not None and english[0] == "Contract type"
    assert english[1].startswith("ENUM_SET (a closed set of values)")
    title, description = schemas.describe("gemstack-contracts", [0, "type"], "es") or ("", "")
    assert title == "Tipo de contrato"
    assert description.startswith("ENUM_SET (un conjunto cerrado de valores)")
    assert schemas.describe("gemstack-test-matrix", [0, "gate"], "es") == (
        "Compuerta",
        "Las pruebas REQUIRED bloquean el cierre cuando faltan o fallan; las SUPPLEMENTAL solo advierten.",
    )
    # Completion's walker reads the same view.
    spanish = schemas.localized_schema("gemstack-test-matrix", "es")
    (layer, *_) = schemas.schemas_at(spanish, [0, "layer"])
    assert layer["title"] == "Capa"


def test_validation_is_unchanged_by_the_overlay() -> None:
    """The validators read ``load_schema``: the English files, never the overlay."""
    from gemstack_lsp.core.capsule.schema import CAPSULE_SCHEMA

    assert schemas.load_schema("context-capsule-v1") == CAPSULE_SCHEMA
    assert CAPSULE_SCHEMA["title"] == "Gemstack context capsule v1"
    assert schemas.localized_schema("context-capsule-v1", "es")["title"] == "Context capsule v1 de Gemstack"
