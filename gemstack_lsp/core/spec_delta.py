"""Incremental spec deltas (Gemstack 2.0, ``spec-delta.js`` @ 443ae6c).

A ``gemstack-spec-delta`` block states a change to a base spec as JSON:
``{"base_spec", "added", "modified", "removed"}``, each of the last three holding
``contracts``, ``requirements`` and ``tests`` lists (a removed item is an id or ``{id}``).
The reference parses it (DELTA_PARSE_ERROR; INVALID_DELTA_SCHEMA when it is not an object) and
applies it in order - removals, then modifications, then additions - failing on the first item
whose target does not exist (DELTA_TARGET_NOT_FOUND) or whose added id already does
(DELTA_ADD_CONFLICT, for contracts and tests).

No stored upstream command runs the delta engine on a repository; this module checks a delta in
a feature's spec.md against the spec its ``base_spec`` names (``specs/<name>`` or ``<name>``):
its ``gemstack-contracts`` ids and its ``gemstack-test-matrix`` ids, each problem at its item.
Requirements have no machine-readable form in a spec, so their targets are not checked.
"""

from __future__ import annotations

from collections.abc import Mapping

from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks import blocks_of
from gemstack_lsp.core.blocks.base import parse_fence_json
from gemstack_lsp.core.findings import Finding, Related
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jsonspan import JsonArray, JsonNode, JsonObject, JsonString
from gemstack_lsp.core.markdown import fences_of_kind
from gemstack_lsp.core.repo import Feature, GemstackRepo
from gemstack_lsp.core.text import Span

KIND = kinds.SPEC_DELTA

#: The reference's wording of each message (Spanish), keyed by code, with the same placeholders.
SPANISH: Mapping[str, str] = {
    "DELTA_PARSE_ERROR": "Error parseando gemstack-spec-delta: {error}",
    "INVALID_DELTA_SCHEMA": "Delta debe ser un objeto",
    "DELTA_TARGET_NOT_FOUND": 'No se puede {action} el {what} "{id}": no existe en la especificación base.',
    "DELTA_ADD_CONFLICT": 'Conflicto al agregar {what} "{id}": ya existe en la especificación base.',
}

_WHAT = {"contracts": "contract", "tests": "test", "requirements": "requirement"}


@record
class _Item:
    id: str | None
    span: Span


def _items(delta: JsonObject, section: str, collection: str) -> list[_Item]:
    """The items of ``delta[section][collection]`` (nothing unless both are what the reference
    reads: an object, then a list), each with the id it targets."""
    part = delta.get(section)
    if not isinstance(part, JsonObject):
        return []
    items = part.get(collection)
    if not isinstance(items, JsonArray):
        return []
    out = []
    for node in items.items:
        target: JsonNode | None = node if section == "removed" and isinstance(node, JsonString) else None
        if target is None and isinstance(node, JsonObject):
            target = node.get("id")
        out.append(_Item(target.value if isinstance(target, JsonString) else None, (target or node).span))
    return out


def _base_feature(repo: GemstackRepo, value: str) -> Feature | None:
    name = value.strip().replace("\\", "/").rstrip("/").removesuffix("/spec.md")
    name = name.removeprefix("./").removeprefix("specs/")
    if not name or "/" in name:
        return None
    feature = Feature(name)
    return feature if repo.exists(feature.spec) else None


def delta_findings(repo: GemstackRepo, feature: Feature) -> list[Finding]:
    """The findings of the spec delta blocks of a feature's spec.md."""
    doc = repo.document(feature.spec)
    if doc.text is None:
        return []
    out: list[Finding] = []
    for fence in fences_of_kind(doc.text, KIND):
        result = parse_fence_json(fence)
        if result.errors:
            out.extend(
                Finding("DELTA_PARSE_ERROR", f"Malformed JSON in {KIND} block: {e.message}", feature.spec, e.span)
                for e in result.errors
            )
            continue
        root = result.value
        if not isinstance(root, JsonObject | JsonArray):
            span = root.span if root is not None else fence.open_span
            out.append(Finding("INVALID_DELTA_SCHEMA", f"A {KIND} block must hold an object.", feature.spec, span))
            continue
        if isinstance(root, JsonObject):
            out.extend(_applied(repo, feature, root))
    return out


def _applied(repo: GemstackRepo, feature: Feature, delta: JsonObject) -> list[Finding]:
    """Apply the delta's contract and test ids to its base spec as the reference does, in order."""
    base_node = delta.get("base_spec")
    if not isinstance(base_node, JsonString) or not base_node.value:
        return []
    base = _base_feature(repo, base_node.value)
    if base is None:
        return [
            Finding(
                "DELTA_TARGET_NOT_FOUND",
                f'The base spec "{base_node.value}" does not exist (expected specs/<feature>/spec.md).',
                feature.spec,
                base_node.span,
            )
        ]
    text = repo.document(base.spec).text or ""
    blocks = blocks_of(base.spec, text)
    # ``None`` stands for an item without an id (JavaScript's ``undefined``, which matches another).
    ids: dict[str, list[str | None]] = {
        "contracts": [c.id for c in blocks.contracts.items],
        "tests": [],
        "requirements": [],
    }
    root = blocks.test_matrix.root
    if isinstance(root, JsonArray):
        for entry in root.items:
            node = entry.get("id") if isinstance(entry, JsonObject) else None
            if isinstance(node, JsonString):
                ids["tests"].append(node.value)
    at_base = Related(base.spec, None, f"the base spec, {base.spec}")
    out: list[Finding] = []
    for section, action in (("removed", "remove"), ("modified", "modify"), ("added", "add")):
        for collection in ("contracts", "tests"):
            current = ids[collection]
            for item in _items(delta, section, collection):
                what = _WHAT[collection]
                shown = item.id if item.id is not None else "undefined"
                if section == "added":
                    if item.id in current:
                        out.append(
                            Finding(
                                "DELTA_ADD_CONFLICT",
                                f'Conflict adding {what} "{shown}": it already exists in the base spec.',
                                feature.spec,
                                item.span,
                                subject=item.id,
                                related=(at_base,),
                            )
                        )
                    else:
                        current.append(item.id)
                    continue
                if item.id not in current:
                    out.append(
                        Finding(
                            "DELTA_TARGET_NOT_FOUND",
                            f'Cannot {action} {what} "{shown}": it does not exist in the base spec.',
                            feature.spec,
                            item.span,
                            subject=item.id,
                            related=(at_base,),
                        )
                    )
                elif section == "removed":
                    current.remove(item.id)
    return out
