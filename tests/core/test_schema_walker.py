"""The one schema walker (``core.schemas.schemas_at``) on schema constructs the shipped schemas
use little or not at all, where hover's and completion's former walkers disagreed: conditional
branches with their own texts, ``patternProperties``, ``additionalProperties`` beside a
combined ``properties``, a ``$ref`` with its own texts, conditions that refer elsewhere in the
schema, self-references."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gemstack_lsp.core.jsonspan import parse_json
from gemstack_lsp.core.schemas import annotation, schemas_at

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "kind": {"title": "Kind", "enum": ["file", "url"]},
        "target": {"$ref": "#/$defs/target", "title": "Target of this item"},
        "level": {"$ref": "#/definitions/level"},
    },
    "patternProperties": {"^x-": {"title": "Extension", "description": "Free-form."}},
    "allOf": [{"properties": {"late": {"title": "Late property"}}}],
    "if": {"properties": {"kind": {"const": "file"}}, "required": ["kind"]},
    "then": {"properties": {"where": {"title": "Path", "description": "A file path."}}},
    "else": {"properties": {"where": {"title": "URL", "description": "An https address."}}},
    "$defs": {"target": {"title": "Target", "description": "What the item points at."}},
    "definitions": {"level": {"title": "Level", "enum": ["low", "high"]}},
}


def _at(path: list[str | int], text: str | None = None) -> tuple[str, str] | None:
    tree = parse_json(text).value if text is not None else None
    return annotation(schemas_at(SCHEMA, path, tree))


def test_a_condition_the_document_decides_selects_its_branch() -> None:
    assert _at(["where"], '{"kind": "file", "where": "a"}') == ("Path", "A file path.")
    assert _at(["where"], '{"kind": "url", "where": "a"}') == ("URL", "An https address.")


def test_without_a_document_every_branch_applies() -> None:
    found = schemas_at(SCHEMA, ["where"])
    assert [s["title"] for s in found] == ["Path", "URL"]
    assert _at(["where"]) == ("Path", "A file path.")  # the first met


def test_a_partial_document_decides_what_it_holds() -> None:
    # Typing the second member: the first decides the condition.
    assert _at(["where"], '{"kind": "url", "wh') == ("URL", "An https address.")


def test_a_combined_subschemas_properties_apply() -> None:
    assert _at(["late"]) == ("Late property", "")
    assert _at(["unknown"]) is None


def test_additional_properties_apply_to_the_keys_their_own_subschema_does_not_name() -> None:
    # The former hover walk stopped at the first subschema naming the key ("kind": "Kind" only);
    # completion's walk gave both, as this one does.
    schema: dict[str, Any] = {
        "properties": {"kind": {"title": "Kind"}},
        "allOf": [{"properties": {"late": {"title": "Late property"}}, "additionalProperties": {"title": "Other key"}}],
    }
    assert [s.get("title") for s in schemas_at(schema, ["late"])] == ["Late property"]
    assert [s.get("title") for s in schemas_at(schema, ["kind"])] == ["Kind", "Other key"]
    assert annotation(schemas_at(schema, ["unknown"])) == ("Other key", "")


def test_pattern_properties_apply() -> None:
    # The former hover walk had no patternProperties; completion's had.
    assert _at(["x-note"]) == ("Extension", "Free-form.")


def test_a_refs_own_texts_come_before_its_targets() -> None:
    assert _at(["target"]) == ("Target of this item", "What the item points at.")


def test_refs_resolve_anywhere_in_the_schema_also_inside_conditions() -> None:
    schema: dict[str, Any] = {
        "properties": {"level": {"$ref": "#/definitions/level"}, "note": {"title": "Note"}},
        "if": {"properties": {"level": {"$ref": "#/definitions/high"}}, "required": ["level"]},
        "then": {"properties": {"note": {"description": "Why it is high."}}},
        "definitions": {"level": {"title": "Level", "enum": ["low", "high"]}, "high": {"const": "high"}},
    }
    tree = parse_json('{"level": "high", "note": ""}').value
    assert annotation(schemas_at(schema, ["note"], tree)) == ("Note", "Why it is high.")
    tree = parse_json('{"level": "low", "note": ""}').value
    assert annotation(schemas_at(schema, ["note"], tree)) == ("Note", "")
    assert annotation(schemas_at(SCHEMA, ["level"])) == ("Level", "")


def test_one_of_keeps_the_branches_the_value_satisfies() -> None:
    schema: dict[str, Any] = {
        "items": {
            "oneOf": [
                {"type": "string", "title": "Id"},
                {"type": "object", "title": "Item", "required": ["id"], "properties": {"id": {"title": "Item id"}}},
            ]
        }
    }

    def titles(text: str | None) -> list[Any]:
        tree = parse_json(text).value if text is not None else None
        return [s.get("title") for s in schemas_at(schema, [0], tree)]

    assert titles('["a"]') == [None, "Id"]
    assert titles('[{"id": "a"}]') == [None, "Item"]
    # Nothing satisfies a branch yet (an object being typed), or nothing is known: all apply.
    assert titles('[{"i') == [None, "Id", "Item"]
    assert titles(None) == [None, "Id", "Item"]


def test_arrays_step_through_prefix_items_then_items() -> None:
    schema: dict[str, Any] = {"prefixItems": [{"title": "First"}], "items": {"title": "Rest"}}
    assert annotation(schemas_at(schema, [0])) == ("First", "")
    assert annotation(schemas_at(schema, [3])) == ("Rest", "")
    assert schemas_at(schema, ["key"]) == []


def test_self_references_end() -> None:
    schema: dict[str, Any] = {"$ref": "#", "allOf": [{"$ref": "#"}], "properties": {"a": {"$ref": "#", "title": "A"}}}
    found = schemas_at(schema, ["a", "a", "a"])
    assert [s.get("title") for s in found] == ["A", None, None]  # the property, the root, its branch
    assert all(isinstance(s, Mapping) for s in found)
    assert schemas_at({"$ref": "#/nowhere"}, []) == [{"$ref": "#/nowhere"}]


def test_a_bad_pattern_or_condition_is_not_an_error() -> None:
    schema: dict[str, Any] = {
        "patternProperties": {"(": {"title": "Broken"}},
        "if": {"$ref": "https://elsewhere.example/schema.json"},
        "then": {"properties": {"a": {"title": "Then"}}},
        "else": {"properties": {"a": {"title": "Else"}}},
    }
    tree = parse_json('{"a": 1}').value
    # The condition cannot be told: both branches apply, as with no document.
    assert [s.get("title") for s in schemas_at(schema, ["a"], tree)] == ["Then", "Else"]
