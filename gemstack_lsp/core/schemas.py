"""The JSON Schemas shipped in ``gemstack_lsp/schemas``: loading them, and the one schema walker.

Schemas are package data read through ``importlib.resources`` (no file-system path is
assumed), parsed once and cached. Which file describes which block kind or Gemstack JSON file is
``core.kinds``'s concern. Two views walk a schema along a key path (object keys and array
indexes) through local ``$ref``, ``allOf``/``anyOf``/``oneOf`` and ``if``/``then``/``else``:

- ``subschema``/``describe``: the one subschema at a path, for the ``title`` and ``description``
  hover shows (every ``then`` and ``else`` is a candidate; the first branch naming the key wins);
- ``schemas_at``: every subschema that applies at a path, ``if`` conditions decided by what is
  typed so far, for completion's keys, values and documentation.

Language: the schema files are English. ``localized_schema(name, "es")`` is the same schema with
every ``title`` and ``description`` (those of a subschema, found by ``text_annotations``) replaced by
its Spanish from ``core/i18n_es_schemas.py``, the catalogue keyed by the English text; a text
without Spanish stays English as a whole. Hover and completion walk that view, so they need no
language logic of their own; validation always uses the files as they are.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any

from gemstack_lsp.core.jsonspan import JsonArray, JsonNode, JsonObject

if TYPE_CHECKING:
    from gemstack_lsp.core.i18n import Language

_PACKAGE = "gemstack_lsp.schemas"
_SUFFIX = ".schema.json"


def schema_file_name(name: str) -> str:
    """``contracts``, ``gemstack-contracts`` or ``gemstack-contracts.schema.json`` -> the file name."""
    if name.endswith(_SUFFIX):
        return name
    if name.endswith(".json"):
        name = name[: -len(".json")]
    candidates = (name, f"gemstack-{name}")
    for c in candidates:
        if resources.files(_PACKAGE).joinpath(c + _SUFFIX).is_file():
            return c + _SUFFIX
    return name + _SUFFIX


@functools.cache
def load_schema(name: str) -> dict[str, Any]:
    """The schema called ``name`` (see ``schema_file_name``); raises FileNotFoundError if absent."""
    path = resources.files(_PACKAGE).joinpath(schema_file_name(name))
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return data


#: The annotations that are text shown to people (hover, completion documentation).
TEXT_KEYWORDS = ("title", "description")
#: Keywords whose value maps names to subschemas, holds one subschema, or lists subschemas.
_SUBSCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SUBSCHEMA_ONE = (
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
)
_SUBSCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")


def _pointer_part(key: str | int) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _subschemas(node: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    """(JSON pointer suffix, subschema) of every subschema directly under ``node``."""
    for key in _SUBSCHEMA_MAPS:
        value = node.get(key)
        if isinstance(value, Mapping):
            for name, sub in value.items():
                yield f"/{key}/{_pointer_part(name)}", sub
    for key in _SUBSCHEMA_ONE:
        value = node.get(key)
        if isinstance(value, Mapping):
            yield f"/{key}", value
    for key in _SUBSCHEMA_LISTS:
        value = node.get(key)
        if isinstance(value, list):
            for i, sub in enumerate(value):
                yield f"/{key}/{i}", sub


def text_annotations(schema: Mapping[str, Any], pointer: str = "") -> Iterator[tuple[str, str]]:
    """(JSON pointer, text) of every ``title`` and ``description`` of a subschema of ``schema``
    (a property that happens to be called ``description`` is a name, not an annotation)."""
    for keyword in TEXT_KEYWORDS:
        text = schema.get(keyword)
        if isinstance(text, str):
            yield f"{pointer}/{keyword}", text
    for suffix, sub in _subschemas(schema):
        if isinstance(sub, Mapping):
            yield from text_annotations(sub, pointer + suffix)


def _overlaid(node: Any, texts: Mapping[str, str]) -> Any:
    """A copy of the subschema ``node`` with its annotations looked up in ``texts``."""
    if not isinstance(node, Mapping):
        return node
    out = dict(node)
    for keyword in TEXT_KEYWORDS:
        text = node.get(keyword)
        if isinstance(text, str):
            out[keyword] = texts.get(text, text)
    for key in _SUBSCHEMA_MAPS:
        value = node.get(key)
        if isinstance(value, Mapping):
            out[key] = {name: _overlaid(sub, texts) for name, sub in value.items()}
    for key in _SUBSCHEMA_ONE:
        if isinstance(node.get(key), Mapping):
            out[key] = _overlaid(node[key], texts)
    for key in _SUBSCHEMA_LISTS:
        value = node.get(key)
        if isinstance(value, list):
            out[key] = [_overlaid(sub, texts) for sub in value]
    return out


@functools.cache
def _spanish_schema(name: str) -> dict[str, Any]:
    from gemstack_lsp.core.i18n_es_schemas import SCHEMA_TEXTS

    overlaid: dict[str, Any] = _overlaid(load_schema(name), SCHEMA_TEXTS)
    return overlaid


def localized_schema(name: str, language: Language = "en") -> dict[str, Any]:
    """The schema called ``name`` with its titles and descriptions in ``language`` (cached; do not
    mutate). English is ``load_schema``'s own object."""
    if language == "en":
        return load_schema(name)
    return _spanish_schema(name)


def available_schemas() -> list[str]:
    """The file names of every shipped schema, sorted."""
    return sorted(p.name for p in resources.files(_PACKAGE).iterdir() if p.name.endswith(_SUFFIX))


#: The keywords whose subschemas all apply alongside the schema holding them.
_COMBINERS = ("allOf", "anyOf", "oneOf")


def ref_target(root: Mapping[str, Any], ref: str) -> Any:
    """The value a local ``$ref`` (``#/...``) points at in ``root``; ``None`` when it points nowhere."""
    if not ref.startswith("#/"):
        return None
    target: Any = root
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(target, Mapping) or part not in target:
            return None
        target = target[part]
    return target


def _resolve(root: Mapping[str, Any], node: Mapping[str, Any]) -> Mapping[str, Any]:
    seen = 0
    while isinstance(node.get("$ref"), str) and seen < 16:
        target = ref_target(root, node["$ref"])
        if not isinstance(target, Mapping):
            return node
        node = target
        seen += 1
    return node


def _branches(root: Mapping[str, Any], node: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """The node and every subschema that applies alongside it."""
    node = _resolve(root, node)
    yield node
    for key in _COMBINERS:
        for sub in node.get(key, ()) or ():
            if isinstance(sub, Mapping):
                yield from _branches(root, sub)
    for key in ("then", "else"):
        sub = node.get(key)
        if isinstance(sub, Mapping):
            yield from _branches(root, sub)


def _step(root: Mapping[str, Any], node: Mapping[str, Any], key: str | int) -> Mapping[str, Any] | None:
    for branch in _branches(root, node):
        if isinstance(key, int):
            prefix = branch.get("prefixItems")
            if isinstance(prefix, Sequence) and key < len(prefix) and isinstance(prefix[key], Mapping):
                return _resolve(root, prefix[key])
            items = branch.get("items")
            if isinstance(items, Mapping):
                return _resolve(root, items)
        else:
            props = branch.get("properties")
            if isinstance(props, Mapping) and isinstance(props.get(key), Mapping):
                return _resolve(root, props[key])
            additional = branch.get("additionalProperties")
            if isinstance(additional, Mapping):
                return _resolve(root, additional)
    return None


def subschema(schema_name: str, key_path: Sequence[str | int], language: Language = "en") -> Mapping[str, Any] | None:
    """The subschema that describes the value at ``key_path`` (``None`` when the schema has none),
    its annotations in ``language``."""
    try:
        root = localized_schema(schema_name, language)
    except (FileNotFoundError, OSError, ValueError):
        return None
    node: Mapping[str, Any] = _resolve(root, root)
    for key in key_path:
        nxt = _step(root, node, key)
        if nxt is None:
            return None
        node = nxt
    return node


def describe(schema_name: str, key_path: Sequence[str | int], language: Language = "en") -> tuple[str, str] | None:
    """The (title, description) the schema gives the value at ``key_path``, in ``language``, for hover."""
    node = subschema(schema_name, key_path, language)
    if node is None:
        return None
    title = node.get("title")
    description = node.get("description")
    if not isinstance(title, str) and not isinstance(description, str):
        return None
    return (title if isinstance(title, str) else "", description if isinstance(description, str) else "")


# ---------------------------------------------------------------------------------------------
# Every subschema that applies (completion)

#: An instance not seen (``if`` conditions are then left undecided).
UNKNOWN: Any = object()


def _matches(condition: Mapping[str, Any], instance: Any, root: Mapping[str, Any]) -> bool:
    """Whether ``instance`` (what is typed so far) satisfies an ``if`` subschema."""
    try:
        schema = dict(condition)
        if "$defs" in root and "$defs" not in schema:
            schema["$defs"] = root["$defs"]
        import jsonschema  # imported on first use (start-up does not pay for it)

        return bool(jsonschema.Draft202012Validator(schema).is_valid(instance))
    except Exception:
        return False


def applicable(schema: Any, root: Mapping[str, Any], instance: Any = UNKNOWN) -> list[Mapping[str, Any]]:
    """A schema with its local ``$ref`` followed, its ``allOf``/``anyOf``/``oneOf`` branches spread,
    and the ``then`` or ``else`` of an ``if`` that the instance typed so far decides."""
    out: list[Mapping[str, Any]] = []
    todo = [schema]
    seen = 0
    while todo and seen < 64:
        seen += 1
        s = todo.pop()
        if not isinstance(s, Mapping):
            continue
        ref = s.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            todo.append(ref_target(root, ref))
        out.append(s)
        for key in _COMBINERS:
            branches = s.get(key)
            if isinstance(branches, list):
                todo.extend(branches)
        condition = s.get("if")
        if isinstance(condition, Mapping) and instance is not UNKNOWN:
            branch = s.get("then") if _matches(condition, instance, root) else s.get("else")
            if isinstance(branch, Mapping):
                todo.append(branch)
    return out


def _child(
    schemas: list[Mapping[str, Any]], step: str | int, root: Mapping[str, Any], instance: Any = UNKNOWN
) -> list[Mapping[str, Any]]:
    out: list[Mapping[str, Any]] = []
    for s in schemas:
        if isinstance(step, int):
            prefix = s.get("prefixItems")
            if isinstance(prefix, list) and step < len(prefix):
                out.extend(applicable(prefix[step], root, instance))
            elif isinstance(s.get("items"), Mapping):
                out.extend(applicable(s["items"], root, instance))
            continue
        props = s.get("properties")
        if isinstance(props, Mapping) and step in props:
            out.extend(applicable(props[step], root, instance))
            continue
        patterns = s.get("patternProperties")
        matched = False
        if isinstance(patterns, Mapping):
            for pattern, sub in patterns.items():
                if re.search(pattern, step):
                    out.extend(applicable(sub, root, instance))
                    matched = True
        if not matched and isinstance(s.get("additionalProperties"), Mapping):
            out.extend(applicable(s["additionalProperties"], root, instance))
    return out


def _node_step(node: JsonNode | None, step: str | int) -> JsonNode | None:
    if isinstance(node, JsonObject) and isinstance(step, str):
        return node.get(step)
    if isinstance(node, JsonArray) and isinstance(step, int) and 0 <= step < len(node.items):
        return node.items[step]
    return None


def _value(node: JsonNode | None) -> Any:
    return node.to_python() if node is not None else UNKNOWN


def schemas_at(
    schema: Mapping[str, Any], path: Iterable[str | int], tree: JsonNode | None = None
) -> list[Mapping[str, Any]]:
    """The subschemas that apply at ``path``, ``if`` conditions decided by the partial ``tree``."""
    node = tree
    current = applicable(schema, schema, _value(node))
    for step in path:
        node = _node_step(node, step)
        current = _child(current, step, schema, _value(node))
        if not current:
            break
    return current
