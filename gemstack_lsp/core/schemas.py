"""The JSON Schemas shipped in ``gemstack_lsp/schemas``: loading them, and the one schema walker.

Schemas are package data, parsed once and cached: read from the package's directory when it
is one (an installed or editable package), through ``importlib.resources`` otherwise (a zip;
importing ``importlib.resources`` costs the server's start a few milliseconds). Which file
describes which block kind or Gemstack JSON file is ``core.kinds``'s concern.

One walker reads them for the editor: ``schemas_at`` gives every subschema that applies to the
value at a key path (object keys and array indexes) of a JSON document, possibly partial,
following local ``$ref``, ``allOf``/``anyOf``/``oneOf`` and ``if``/``then``/``else`` (decided by
the document where it has a value). Hover's ``describe`` and completion's keys, values and
documentation are read from what it gives (``annotation``), so both see the same subschemas.

Language: the schema files are English. ``localized_schema(name, "es")`` is the same schema with
every ``title`` and ``description`` (those of a subschema, found by ``text_annotations``) replaced by
its Spanish from ``core/i18n_es_schemas.py``, the catalogue keyed by the English text; a text
without Spanish stays English as a whole. Hover and completion walk that view, so they need no
language logic of their own; validation always uses the files as they are.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gemstack_lsp.core.jsonspan import JsonArray, JsonNode, JsonObject, to_python_within

if TYPE_CHECKING:
    from gemstack_lsp.core.i18n import Language

_PACKAGE = "gemstack_lsp.schemas"
_SUFFIX = ".schema.json"
#: The schemas' directory, when the package is one (``None``: read through ``importlib.resources``).
_DIRECTORY: str | None = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "schemas")
if not os.path.isdir(str(_DIRECTORY)):
    _DIRECTORY = None


def _is_file(file_name: str) -> bool:
    if _DIRECTORY is not None:
        return os.path.isfile(os.path.join(_DIRECTORY, file_name))
    from importlib import resources

    return resources.files(_PACKAGE).joinpath(file_name).is_file()


def _read_text(file_name: str) -> str:
    """A schema file's text; ``FileNotFoundError`` when there is none."""
    if _DIRECTORY is not None:
        with open(os.path.join(_DIRECTORY, file_name), encoding="utf-8") as f:
            return f.read()
    from importlib import resources

    return resources.files(_PACKAGE).joinpath(file_name).read_text("utf-8")


def schema_file_name(name: str) -> str:
    """``contracts``, ``gemstack-contracts`` or ``gemstack-contracts.schema.json`` -> the file name."""
    if name.endswith(_SUFFIX):
        return name
    if name.endswith(".json"):
        name = name[: -len(".json")]
    candidates = (name, f"gemstack-{name}")
    for c in candidates:
        if _is_file(c + _SUFFIX):
            return c + _SUFFIX
    return name + _SUFFIX


@functools.cache
def load_schema(name: str) -> dict[str, Any]:
    """The schema called ``name`` (see ``schema_file_name``); raises FileNotFoundError if absent."""
    data: dict[str, Any] = json.loads(_read_text(schema_file_name(name)))
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
    if _DIRECTORY is not None:
        return sorted(n for n in os.listdir(_DIRECTORY) if n.endswith(_SUFFIX))
    from importlib import resources

    return sorted(p.name for p in resources.files(_PACKAGE).iterdir() if p.name.endswith(_SUFFIX))


def ref_target(root: Mapping[str, Any], ref: str) -> Any:
    """The value a local ``$ref`` (``#`` or ``#/...``) points at in ``root``; ``None`` when it
    points nowhere."""
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        return None
    target: Any = root
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(target, Mapping) or part not in target:
            return None
        target = target[part]
    return target


# ---------------------------------------------------------------------------------------------
# The schema walker (hover and completion)

#: Validators of whole schemas, by the identity of the schema (kept alive by the entry).
_VALIDATORS: dict[int, tuple[Mapping[str, Any], Any]] = {}
#: The most subschemas one step expands to (a guard against pathological schemas).
_MAX_APPLICABLE = 256


def _validator(root: Mapping[str, Any]) -> Any:
    entry = _VALIDATORS.get(id(root))
    if entry is None or entry[0] is not root:
        import jsonschema  # imported on first use (start-up does not pay for it)

        cls = jsonschema.validators.validator_for(root, default=jsonschema.Draft202012Validator)
        entry = (root, cls(root))
        if len(_VALIDATORS) >= 64:
            _VALIDATORS.clear()
        _VALIDATORS[id(root)] = entry
    return entry[1]


class _Instance:
    """The value at one path of the document, converted to plain Python only when a condition
    needs it; ``known`` is False where the document has nothing (yet)."""

    def __init__(self, node: JsonNode | None) -> None:
        self.node = node
        self.known = node is not None
        self._value: Any = None
        self._converted = False

    def valid(self, root: Mapping[str, Any], schema: Mapping[str, Any]) -> bool | None:
        """Whether the value satisfies ``schema`` (a subschema of ``root``, whose local ``$ref``
        it may use); ``None`` when that cannot be told (no value, an unresolvable reference)."""
        if self.node is None:
            return None
        if not self._converted:
            self._value = to_python_within(self.node)
            self._converted = True
        try:
            return bool(_validator(root).evolve(schema=schema).is_valid(self._value))
        except Exception:
            return None


def _alternatives(branches: list[Any], root: Mapping[str, Any], instance: _Instance) -> list[Any]:
    """The ``anyOf``/``oneOf`` branches that may apply: those the value satisfies, or every one
    when the value is unknown or satisfies none (a document being typed is rarely valid yet)."""
    if not instance.known:
        return branches
    kept = [b for b in branches if not isinstance(b, Mapping) or instance.valid(root, b) is not False]
    return kept or branches


def _applicable(schemas: Iterable[Any], root: Mapping[str, Any], instance: _Instance) -> list[Mapping[str, Any]]:
    """``schemas`` and every subschema that applies alongside them to the value, in document
    order (a schema before its ``$ref`` target, then ``allOf``, ``anyOf``, ``oneOf`` and the
    ``then``/``else`` of its ``if``), each once."""
    out: list[Mapping[str, Any]] = []
    seen: set[int] = set()
    stack = list(schemas)[::-1]
    while stack and len(out) < _MAX_APPLICABLE:
        s = stack.pop()
        if not isinstance(s, Mapping) or id(s) in seen:
            continue
        seen.add(id(s))
        out.append(s)
        nested: list[Any] = []
        ref = s.get("$ref")
        if isinstance(ref, str):
            nested.append(ref_target(root, ref))
        all_of = s.get("allOf")
        if isinstance(all_of, list):
            nested.extend(all_of)
        for key in ("anyOf", "oneOf"):
            branches = s.get(key)
            if isinstance(branches, list):
                nested.extend(_alternatives(branches, root, instance))
        condition = s.get("if")
        if isinstance(condition, Mapping):
            holds = instance.valid(root, condition)
            if holds is not False:
                nested.append(s.get("then"))
            if holds is not True:
                nested.append(s.get("else"))
        stack.extend(reversed(nested))
    return out


def _children(schemas: list[Mapping[str, Any]], step: str | int) -> list[Any]:
    """The subschemas the ``schemas`` of a container give its member ``step``."""
    out: list[Any] = []
    for s in schemas:
        if isinstance(step, int):
            prefix = s.get("prefixItems")
            if isinstance(prefix, list) and step < len(prefix):
                out.append(prefix[step])
            elif isinstance(s.get("items"), Mapping):
                out.append(s["items"])
            continue
        props = s.get("properties")
        named = False
        if isinstance(props, Mapping) and step in props:
            out.append(props[step])
            named = True
        patterns = s.get("patternProperties")
        if isinstance(patterns, Mapping):
            for pattern, sub in patterns.items():
                try:
                    found = re.search(pattern, step) is not None
                except re.error:
                    continue
                if found:
                    out.append(sub)
                    named = True
        if not named and isinstance(s.get("additionalProperties"), Mapping):
            out.append(s["additionalProperties"])
    return out


def _node_step(node: JsonNode | None, step: str | int) -> JsonNode | None:
    if isinstance(node, JsonObject) and isinstance(step, str):
        return node.get(step)
    if isinstance(node, JsonArray) and isinstance(step, int) and 0 <= step < len(node.items):
        return node.items[step]
    return None


def schemas_at(
    schema: Mapping[str, Any], path: Iterable[str | int], tree: JsonNode | None = None
) -> list[Mapping[str, Any]]:
    """Every subschema of ``schema`` that applies to the value at ``path`` (object keys and array
    indexes) of the document ``tree``: the schema walker hover and completion both read.

    Local ``$ref`` are followed, ``allOf`` spread, and ``properties``, ``patternProperties``,
    ``additionalProperties``, ``prefixItems`` and ``items`` give a member its subschemas. Where
    the (possibly partial) tree has a value, it decides: an ``if`` selects its ``then`` or its
    ``else``, and ``anyOf``/``oneOf`` keep the branches the value satisfies (all of them when it
    satisfies none). Where the tree has no value (a key not typed yet, no tree at all), every
    branch applies. The order is the schema's own, outer first: the first ``title`` or
    ``description`` met is the closest one (``annotation``).
    """
    node = tree
    current = _applicable([schema], schema, _Instance(node))
    for step in path:
        if not current:
            break
        node = _node_step(node, step)
        current = _applicable(_children(current, step), schema, _Instance(node))
    return current


def annotation(schemas: Iterable[Mapping[str, Any]]) -> tuple[str, str] | None:
    """The (title, description) of a value whose applicable subschemas are ``schemas`` (in
    ``schemas_at``'s order): the first of each met, ``""`` for one missing; ``None`` for neither."""
    title = description = None
    for s in schemas:
        if title is None and isinstance(s.get("title"), str):
            title = s["title"]
        if description is None and isinstance(s.get("description"), str):
            description = s["description"]
    if title is None and description is None:
        return None
    return (title or "", description or "")


def describe(
    schema_name: str, key_path: Sequence[str | int], language: Language = "en", tree: JsonNode | None = None
) -> tuple[str, str] | None:
    """The (title, description) the schema called ``schema_name`` gives the value at ``key_path``
    of the document ``tree`` (every branch when there is none), in ``language``, for hover."""
    try:
        root = localized_schema(schema_name, language)
    except (FileNotFoundError, OSError, ValueError):
        return None
    return annotation(schemas_at(root, key_path, tree))
