"""The ``gemstack-capabilities`` block: a provider registry written in spec.md or plan.md.

This project's block (shape in ARCHITECTURE.md "Blocks", schema
``schemas/gemstack-capabilities.schema.json``): an array of providers, each with its type,
the capability ids it declares and, optionally, the adapter that implements them. Every id
keeps its span. An entry that breaks the schema is reported as ``CAPABILITIES_INVALID`` and left
out.
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

KIND: Final = kinds.CAPABILITIES
CODE: Final = "CAPABILITIES_INVALID"
INFO: Final = BlockKindInfo(
    kind=KIND,
    parse_code=CODE,
    multiple_message="Found {n} gemstack-capabilities blocks; exactly one is permitted per document.",
    syntax_prefix="Failed to parse gemstack-capabilities JSON: ",
)
ENDPOINT_KEYS: Final = ("url", "endpoint", "host", "base_url")


@record
class CapabilityRef:
    """One capability id of a declaration, where it is written."""

    id: str
    span: Span


@record
class EndpointField:
    """A URL-like field of a declaration (``url``, ``endpoint``, ``host``, ``base_url``)."""

    name: str
    value: str
    span: Span


@record
class CapabilityDeclaration:
    """One provider of a ``gemstack-capabilities`` block."""

    provider_id: str
    provider_span: Span
    type: str
    type_span: Span
    capabilities: tuple[CapabilityRef, ...]
    adapter: str | None
    adapter_span: Span | None
    endpoints: tuple[EndpointField, ...]
    path: str
    span: Span


def parse_capabilities(
    path: str, text: str, fences: Sequence[Fence] | None = None
) -> BlockResult[CapabilityDeclaration]:
    """The providers of the document's ``gemstack-capabilities`` block, with every finding."""
    return _parse(path, text, tuple(fences) if fences is not None else None)


@per_text
def _parse(path: str, text: str, fences: tuple[Fence, ...] | None) -> BlockResult[CapabilityDeclaration]:
    source = read_block(path, text, INFO, fences)
    if not source.present or not source.parsed:
        return source.result((), ())
    schema = load_schema(kinds.BY_NAME[KIND].schema)
    entries, findings = schema_checked_entries(source, schema, CODE, "provider declaration")
    return source.result([_declaration(path, node) for node in entries], findings)


def _declaration(path: str, node: JsonObject) -> CapabilityDeclaration:
    """A declaration from an entry that passed the schema."""
    pid = node.get("provider_id")
    ptype = node.get("type")
    caps = node.get("capabilities")
    assert isinstance(pid, JsonString) and isinstance(ptype, JsonString) and isinstance(caps, JsonArray)
    adapter = node.get("adapter")
    endpoints = tuple(
        EndpointField(key, value.value, value.span)
        for key in ENDPOINT_KEYS
        if isinstance(value := node.get(key), JsonString)
    )
    return CapabilityDeclaration(
        provider_id=pid.value,
        provider_span=pid.span,
        type=ptype.value,
        type_span=ptype.span,
        capabilities=tuple(CapabilityRef(c.value, c.span) for c in caps.items if isinstance(c, JsonString)),
        adapter=adapter.value if isinstance(adapter, JsonString) else None,
        adapter_span=adapter.span if adapter is not None else None,
        endpoints=endpoints,
        path=path,
        span=node.span,
    )
