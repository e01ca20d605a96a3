"""The context capsule's JSON Schema (v1), and a fast validator for it.

The schema is ``gemstack_lsp/schemas/context-capsule-v1.schema.json`` (the file ``core.kinds``
maps ``context-capsule.json`` to), the single source editors, other tools and this module read.
It accepts what the reference CLI writes (hard-coded fields, ``value: true`` on ENUM_SET
contracts, plain string deferred items) and what this generator writes; it requires what
verification needs to prove freshness.
"""

from __future__ import annotations

from typing import Any, Final

from gemstack_lsp.core.feature import CAPSULE_NAME
from gemstack_lsp.core.kinds import ARTIFACT_SCHEMAS
from gemstack_lsp.core.schemas import load_schema

#: The capsule schema, read from its shipped JSON file (cached by ``load_schema``; do not mutate).
CAPSULE_SCHEMA: Final[dict[str, Any]] = load_schema(ARTIFACT_SCHEMAS[CAPSULE_NAME])


_TYPE_CHECKS: dict[str, Any] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def _same_json(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


def schema_errors(
    value: Any, schema: dict[str, Any] | None = None, path: tuple[str | int, ...] = ()
) -> list[tuple[tuple[str | int, ...], str]]:
    """(path, message) for each way ``value`` fails the capsule schema.

    A small validator for exactly the keywords ``CAPSULE_SCHEMA`` uses (type, required,
    properties, items, const, enum, pattern, minLength, minimum, anyOf); it is much faster than
    a general one on capsules with thousands of invariants, and a test keeps it in agreement with
    ``jsonschema``'s verdict.
    """
    import re

    schema = CAPSULE_SCHEMA if schema is None else schema
    errors: list[tuple[tuple[str | int, ...], str]] = []
    if "anyOf" in schema:
        if all(schema_errors(value, sub, path) for sub in schema["anyOf"]):
            errors.append((path, f"{value!r} is not valid under any of the given schemas"))
        return errors
    if "const" in schema and not _same_json(value, schema["const"]):
        errors.append((path, f"{schema['const']!r} was expected"))
    if "enum" in schema and not any(_same_json(value, e) for e in schema["enum"]):
        errors.append((path, f"{value!r} is not one of {schema['enum']!r}"))
    types = schema.get("type")
    if types is not None:
        names = [types] if isinstance(types, str) else list(types)
        if not any(_TYPE_CHECKS[n](value) for n in names):
            errors.append((path, f"{value!r} is not of type {', '.join(repr(n) for n in names)}"))
            return errors
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            errors.append((path, f"{value!r} is too short"))
        if "pattern" in schema and re.search(schema["pattern"], value) is None:
            errors.append((path, f"{value!r} does not match {schema['pattern']!r}"))
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if number and "minimum" in schema and value < schema["minimum"]:
        errors.append((path, f"{value!r} is less than the minimum of {schema['minimum']!r}"))
    if isinstance(value, dict):
        for key in schema.get("required", ()):
            if key not in value:
                errors.append((path, f"{key!r} is a required property"))
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                errors.extend(schema_errors(value[key], sub, (*path, key)))
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            errors.extend(schema_errors(item, schema["items"], (*path, i)))
    return errors
