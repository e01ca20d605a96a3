"""The ``gemstack-billable-actions`` block: the actions a spec declares, or a plan binds to providers.

The block is this project's (the reference does not parse it; shape in ARCHITECTURE.md
"Blocks", schema ``schemas/gemstack-billable-actions.schema.json``). Every id keeps its span:
the action id, the capability id and each provider id of the fallback chain, so findings can
point at exactly the provider that fails a gate. An entry that breaks the schema is reported
as ``BILLABLE_ACTIONS_INVALID`` and left out; the other entries still count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks.base import BlockKindInfo, BlockResult, read_block, schema_checked_entries
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jsonspan import JsonArray, JsonObject, JsonString
from gemstack_lsp.core.markdown import Fence
from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.schemas import load_schema
from gemstack_lsp.core.text import Span

KIND: Final = kinds.BILLABLE_ACTIONS
CODE: Final = "BILLABLE_ACTIONS_INVALID"
INFO: Final = BlockKindInfo(
    kind=KIND,
    parse_code=CODE,
    multiple_message="Found {n} gemstack-billable-actions blocks; exactly one is permitted per document.",
    syntax_prefix="Failed to parse gemstack-billable-actions JSON: ",
)


@record
class ProviderRef:
    """One provider id of a fallback chain, where it is written."""

    id: str
    span: Span


@record
class BillableAction:
    """A declared (spec.md) or bound (plan.md) billable action."""

    id: str
    id_span: Span
    description: str
    category: str
    capability_id: str
    capability_span: Span
    providers: tuple[ProviderRef, ...]
    side_effect: str | None
    path: str
    span: Span


def parse_billable_actions(path: str, text: str, fences: Sequence[Fence] | None = None) -> BlockResult[BillableAction]:
    """The actions of the document's ``gemstack-billable-actions`` block, with every finding."""
    return _parse(path, text, tuple(fences) if fences is not None else None)


@per_text
def _parse(path: str, text: str, fences: tuple[Fence, ...] | None) -> BlockResult[BillableAction]:
    source = read_block(path, text, INFO, fences)
    if not source.present or not source.parsed:
        return source.result((), ())
    schema = load_schema(kinds.BY_NAME[KIND].schema)
    entries, findings = schema_checked_entries(source, schema, CODE, "billable action")
    items: list[BillableAction] = []
    seen: dict[str, Span] = {}
    for node in entries:
        action = _action(path, node)
        if action.id in seen:
            findings.append(
                source.finding(CODE, f'Duplicate billable action id "{action.id}".', action.id_span, action.id)
            )
            continue
        seen[action.id] = action.id_span
        items.append(action)
    return source.result(items, findings)


def _string(node: JsonObject, key: str) -> JsonString:
    value = node.get(key)
    assert isinstance(value, JsonString)
    return value


def _action(path: str, node: JsonObject) -> BillableAction:
    """An action from an entry that passed the schema."""
    ident = _string(node, "id")
    capability = _string(node, "capability_id")
    chain = node.get("providers")
    assert isinstance(chain, JsonArray)
    side = node.get("side_effect")
    return BillableAction(
        id=ident.value,
        id_span=ident.span,
        description=_string(node, "description").value,
        category=_string(node, "category").value,
        capability_id=capability.value,
        capability_span=capability.span,
        providers=tuple(ProviderRef(p.value, p.span) for p in chain.items if isinstance(p, JsonString)),
        side_effect=side.value if isinstance(side, JsonString) else None,
        path=path,
        span=node.span,
    )
