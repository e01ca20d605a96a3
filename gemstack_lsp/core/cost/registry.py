"""The provider registry: every provider declaration a feature can see, merged, with its conflicts.

Sources, in the reference's load order (``gemstack-cli.md`` section 12.1) and then the blocks
this project adds: the feature's ``cost-ledger.json``, the root ``cost-ledger.json``,
``.gemstack/cost-ledger.json``, ``.gemstack/providers.json`` (each used when its JSON parses and
has a ``providers`` object), then the ``gemstack-capabilities`` blocks of spec.md and plan.md.
Where the reference stops at the first source, this registry merges them all, so that a
disagreement between two sources can be shown: the same provider declared with two types, or
two capability blocks that list it differently, is a ``PROVIDER_DECLARATION_CONFLICT``.

Ids follow the reference: trimmed, lower-cased, and matching ``^[a-z0-9]+(-[a-z0-9]+)*$``
(where the reference throws, this registry leaves the declaration out and reports it);
types are upper-cased and default to COMMERCIAL; capability ids are exact-match keys.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from types import MappingProxyType
from typing import Any, Final

from gemstack_lsp.core import kinds
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jscompat import js_property_order, js_trim
from gemstack_lsp.core.jsonspan import JsonArray, JsonNode, JsonObject, JsonString
from gemstack_lsp.core.text import Span

PROVIDER_ID: Final = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
DEFAULT_TYPE: Final = "COMMERCIAL"
#: Fields whose value names where a provider is reached (mock integrity looks at them).
ENDPOINT_FIELDS: Final = ("url", "endpoint", "baseUrl", "base_url", "host", "remoteUrl", "remote_url")
_REMOTE_SCHEME = re.compile(r"^https?://", re.IGNORECASE)


def normalize_id(raw: str) -> str:
    """The registry key of a provider id: trimmed (JavaScript's whitespace) and lower-cased."""
    return js_trim(raw).lower()


@record
class Endpoint:
    """A URL-like field of a declaration; ``capability_id`` is set when it sits inside a capability."""

    field: str
    value: str
    span: Span
    capability_id: str | None = None


@record
class ProviderDeclaration:
    """One place that declares a provider."""

    provider_id: str
    raw_id: str
    type: str
    explicit_type: bool
    capabilities: tuple[str, ...]
    source: str
    path: str
    id_span: Span
    type_span: Span | None = None
    capability_spans: Mapping[str, Span] = field(default_factory=lambda: MappingProxyType({}))
    adapter: str | None = None
    endpoints: tuple[Endpoint, ...] = ()


@record
class RegisteredProvider:
    """A provider as the gates see it: its type, every capability any source declares for it."""

    id: str
    type: str
    capabilities: frozenset[str]
    declarations: tuple[ProviderDeclaration, ...]

    @property
    def adapter_capabilities(self) -> frozenset[str] | None:
        """What the declared adapter(s) implement, or ``None`` when no declaration names an adapter."""
        adapters = [d for d in self.declarations if d.adapter]
        if not adapters:
            return None
        return frozenset(c for d in adapters for c in d.capabilities)

    def declaring(self, capability_id: str) -> ProviderDeclaration | None:
        """The first declaration that lists ``capability_id``."""
        return next((d for d in self.declarations if capability_id in d.capabilities), None)


@record
class RegistryIssue:
    """A declaration the registry could not take, or one that contradicts an earlier one."""

    code: str
    message: str
    path: str
    span: Span
    related: tuple[tuple[str, Span, str], ...] = ()
    subject: str | None = None


@record
class ProviderRegistry:
    providers: Mapping[str, RegisteredProvider]
    issues: tuple[RegistryIssue, ...] = ()
    #: Ids a declaration used that are not canonical slugs (they never register).
    invalid_ids: frozenset[str] = frozenset()

    def get(self, provider_id: str) -> RegisteredProvider | None:
        return self.providers.get(normalize_id(provider_id))

    def __contains__(self, provider_id: object) -> bool:
        return isinstance(provider_id, str) and self.get(provider_id) is not None

    @property
    def empty(self) -> bool:
        return not self.providers and not self.invalid_ids


def build_registry(declarations: Iterable[ProviderDeclaration]) -> ProviderRegistry:
    """Merge declarations (earlier ones take precedence) and report conflicts between them."""
    grouped: dict[str, list[ProviderDeclaration]] = {}
    issues: list[RegistryIssue] = []
    invalid: set[str] = set()
    for decl in declarations:
        if not PROVIDER_ID.match(decl.provider_id):
            invalid.add(decl.provider_id)
            issues.append(
                RegistryIssue(
                    "UNKNOWN_PROVIDER_IDENTITY",
                    f'Invalid provider ID format: "{decl.raw_id}". Must match slug pattern: /^[a-z0-9]+(-[a-z0-9]+)*$/',
                    decl.path,
                    decl.id_span,
                    subject=decl.raw_id,
                )
            )
            continue
        grouped.setdefault(decl.provider_id, []).append(decl)
    providers: dict[str, RegisteredProvider] = {}
    for pid, decls in grouped.items():
        typed = [d for d in decls if d.explicit_type]
        ptype = typed[0].type if typed else DEFAULT_TYPE
        issues.extend(_conflicts(pid, decls, typed))
        caps = frozenset(c for d in decls for c in d.capabilities)
        providers[pid] = RegisteredProvider(pid, ptype, caps, tuple(decls))
    return ProviderRegistry(MappingProxyType(providers), tuple(issues), frozenset(invalid))


def _conflicts(
    pid: str, decls: Sequence[ProviderDeclaration], typed: Sequence[ProviderDeclaration]
) -> Iterable[RegistryIssue]:
    if typed:
        first = typed[0]
        for other in typed[1:]:
            if other.type != first.type:
                yield RegistryIssue(
                    "PROVIDER_DECLARATION_CONFLICT",
                    f'Provider "{pid}" is declared as {other.type} in {other.path}, but as {first.type} '
                    f"in {first.path}.",
                    other.path,
                    other.type_span or other.id_span,
                    ((first.path, first.type_span or first.id_span, f"declared as {first.type} here"),),
                    subject=pid,
                )
    blocks = [d for d in decls if d.source == kinds.CAPABILITIES]
    if blocks:
        first_block = blocks[0]
        for other in blocks[1:]:
            differs = []
            if set(other.capabilities) != set(first_block.capabilities):
                differs.append("capabilities")
            if other.adapter != first_block.adapter:
                differs.append("adapter")
            if differs:
                what = " and ".join(differs)
                yield RegistryIssue(
                    "PROVIDER_DECLARATION_CONFLICT",
                    f'Provider "{pid}" is declared twice in gemstack-capabilities blocks with different {what}.',
                    other.path,
                    other.id_span,
                    ((first_block.path, first_block.id_span, "first declared here"),),
                    subject=pid,
                )


# ---------------------------------------------------------------------------------------------
# Declarations from a providers map (a ledger or .gemstack/providers.json)


def declarations_from_map(providers: JsonObject, path: str, source: str) -> list[ProviderDeclaration]:
    """One declaration per provider member of a ``providers`` object, in ``Object.keys`` order.

    ``capabilities`` may be a map (a ledger) or a list of capability ids (providers.json).
    """
    last = {m.key.value: m for m in providers.members}
    out: list[ProviderDeclaration] = []
    for raw in js_property_order(last):
        member = last[raw]
        config = member.value
        if not isinstance(config, JsonObject):
            continue
        type_node = config.get("type")
        explicit = isinstance(type_node, JsonString) and bool(type_node.value)
        ptype = type_node.value.upper() if isinstance(type_node, JsonString) and type_node.value else DEFAULT_TYPE
        caps: list[str] = []
        cap_spans: dict[str, Span] = {}
        endpoints = list(_endpoints(config, None))
        caps_node = config.get("capabilities")
        if isinstance(caps_node, JsonArray):
            for item in caps_node.items:
                if isinstance(item, JsonString):
                    caps.append(item.value)
                    cap_spans.setdefault(item.value, item.span)
        elif isinstance(caps_node, JsonObject):
            cap_last = {m.key.value: m for m in caps_node.members}
            for cid in js_property_order(cap_last):
                cm = cap_last[cid]
                caps.append(cid)
                cap_spans.setdefault(cid, cm.key.span)
                if isinstance(cm.value, JsonObject):
                    endpoints.extend(_endpoints(cm.value, cid))
        adapter_node = config.get("adapter")
        out.append(
            ProviderDeclaration(
                provider_id=normalize_id(raw),
                raw_id=raw,
                type=ptype,
                explicit_type=explicit,
                capabilities=tuple(caps),
                source=source,
                path=path,
                id_span=member.key.span,
                type_span=type_node.span if type_node is not None else None,
                capability_spans=MappingProxyType(cap_spans),
                adapter=adapter_node.value if isinstance(adapter_node, JsonString) else None,
                endpoints=tuple(endpoints),
            )
        )
    return out


def _endpoints(obj: JsonObject, capability_id: str | None) -> Iterable[Endpoint]:
    for name in ENDPOINT_FIELDS:
        node = obj.get(name)
        if isinstance(node, JsonString) and js_trim(node.value):
            yield Endpoint(name, node.value, node.span, capability_id)


def providers_object(root: JsonNode | None) -> JsonObject | None:
    """The ``providers`` object of a parsed ledger or providers.json, when there is one."""
    if isinstance(root, JsonObject):
        node = root.get("providers")
        if isinstance(node, JsonObject):
            return node
    return None


# ---------------------------------------------------------------------------------------------
# Mock integrity (reference 12.6)


@record
class MockIntegrity:
    valid: bool
    reason_code: str | None
    message: str | None


def is_remote(value: str) -> bool:
    """Whether an endpoint value leaves the machine: a scheme, or a dotted host that is not loopback."""
    val = js_trim(value)
    return bool(
        _REMOTE_SCHEME.match(val) or "://" in val or ("localhost" not in val and "127.0.0.1" not in val and "." in val)
    )


def validate_mock_integrity(config: Any) -> MockIntegrity:
    """The reference's standalone mock check of one provider configuration (a JSON value)."""
    code = "MOCK_PROVIDER_ESCAPE_VIOLATION"
    if not isinstance(config, dict):
        return MockIntegrity(False, code, "Mock provider configuration must be a valid object.")
    if config.get("type") != "MOCK":
        return MockIntegrity(False, code, 'Provider is not declared with type "MOCK".')
    for name in ENDPOINT_FIELDS:
        value = config.get(name)
        if isinstance(value, str) and js_trim(value) and is_remote(value):
            return MockIntegrity(
                False, code, f'Mock provider declared forbidden remote endpoint at field "{name}": {js_trim(value)}'
            )
    caps = config.get("capabilities")
    if isinstance(caps, dict):
        for cid in js_property_order(caps):
            cap = caps[cid]
            if isinstance(cap, dict):
                for name in ENDPOINT_FIELDS:
                    value = cap.get(name)
                    if isinstance(value, str) and js_trim(value):
                        return MockIntegrity(
                            False, code, f'Mock capability "{cid}" declared forbidden remote endpoint at "{name}".'
                        )
    return MockIntegrity(True, None, None)


def mock_escapes(decl: ProviderDeclaration) -> list[tuple[Endpoint, str]]:
    """The endpoints that break a MOCK declaration's integrity, each with the reference's message."""
    if decl.type != "MOCK":
        return []
    out: list[tuple[Endpoint, str]] = []
    for ep in decl.endpoints:
        if ep.capability_id is None:
            if is_remote(ep.value):
                out.append(
                    (ep, f'Mock provider declared forbidden remote endpoint at field "{ep.field}": {js_trim(ep.value)}')
                )
        else:
            out.append(
                (ep, f'Mock capability "{ep.capability_id}" declared forbidden remote endpoint at "{ep.field}".')
            )
    return out
