"""The JSON Schemas shipped in ``gemstack_lsp/schemas``: loading them, and what they say of a key.

Schemas are package data read through ``importlib.resources`` (no file-system path is
assumed), parsed once and cached. ``describe`` walks a schema along a key path (object keys and
array indexes, through ``$ref``, ``allOf``/``anyOf``/``oneOf`` and ``if``/``then``) to the
``title`` and ``description`` that hover and completion show.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Mapping, Sequence
from importlib import resources
from typing import Any

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


def available_schemas() -> list[str]:
    """The file names of every shipped schema, sorted."""
    return sorted(p.name for p in resources.files(_PACKAGE).iterdir() if p.name.endswith(_SUFFIX))


def _resolve(root: Mapping[str, Any], node: Mapping[str, Any]) -> Mapping[str, Any]:
    seen = 0
    while isinstance(node.get("$ref"), str) and seen < 16:
        ref: str = node["$ref"]
        if not ref.startswith("#/"):
            break
        target: Any = root
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(target, Mapping) or part not in target:
                return node
            target = target[part]
        if not isinstance(target, Mapping):
            return node
        node = target
        seen += 1
    return node


def _branches(root: Mapping[str, Any], node: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """The node and every subschema that applies alongside it."""
    node = _resolve(root, node)
    yield node
    for key in ("allOf", "anyOf", "oneOf"):
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


def subschema(schema_name: str, key_path: Sequence[str | int]) -> Mapping[str, Any] | None:
    """The subschema that describes the value at ``key_path`` (``None`` when the schema has none)."""
    try:
        root = load_schema(schema_name)
    except (FileNotFoundError, OSError, ValueError):
        return None
    node: Mapping[str, Any] = _resolve(root, root)
    for key in key_path:
        nxt = _step(root, node, key)
        if nxt is None:
            return None
        node = nxt
    return node


def describe(schema_name: str, key_path: Sequence[str | int]) -> tuple[str, str] | None:
    """The (title, description) the schema gives the value at ``key_path``, for hover."""
    node = subschema(schema_name, key_path)
    if node is None:
        return None
    title = node.get("title")
    description = node.get("description")
    if not isinstance(title, str) and not isinstance(description, str):
        return None
    return (title if isinstance(title, str) else "", description if isinstance(description, str) else "")
