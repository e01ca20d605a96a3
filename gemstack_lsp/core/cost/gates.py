"""The two fail-closed safety gates of Upgrade C and the re-entrant fallback chain.

``evaluate_provider_capability`` (seed 8.2) and ``evaluate_billable_action`` (seed 8.1) are pure
functions of a request, the provider registry, the cost ledger and a ``GatePolicy``; they return
a ``Decision`` whose reason codes, messages and context match the reference's decision tables
(``gemstack-cli.md`` sections 12.3-12.6, golden vectors ``provider_capability_gate`` and
``billable_action_gate``). Where the seed and the reference order the billable gate's steps
differently, the reference's order is kept: declaration, cost classification, environment,
FREE, authorization token, budget (reference section 15 item 17). One deliberate difference:
a capability that is not FREE counts as commercial for the tier policy even when its provider
is LOCAL or MOCK (the reference looks only at the provider's type).

``evaluate_chain`` runs both gates for every provider of a fallback chain independently: a
fallback never inherits the authorization of the provider before it, and a fallback that fails
for want of spending permission stops the chain with ``PROVIDER_FALLBACK_UNAUTHORIZED``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Mapping, Sequence
from dataclasses import field
from types import MappingProxyType
from typing import Any, Final

from gemstack_lsp.core.cost.environment import CiWaiver, Tier, commercial_policy, resolve_tier
from gemstack_lsp.core.cost.ledger import CostLedger
from gemstack_lsp.core.cost.registry import ProviderRegistry, normalize_id
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jscompat import js_number, js_trim

ALLOW: Final = "ALLOW"
DENY: Final = "DENY"

#: Cost states that let the billable gate go on (anything else is UNKNOWN, never FREE).
KNOWN_COST_STATES: Final = ("FREE", "BILLABLE", "POTENTIALLY_BILLABLE")

#: Denials of a fallback candidate that stop the chain (authorization is never inherited).
#: The tiers where only MOCK providers may run (seed section 11: "Mock Required? YES").
MOCK_ONLY_TIERS: Final = frozenset({"test", "ci"})
#: Provider types those tiers refuse outright (COMMERCIAL ones get the commercial policy's denial,
#: ENV_COMMERCIAL_DENIED, as in the reference).
MOCK_ONLY_PROVIDER_TYPES: Final = frozenset({"LOCAL"})
AUTHORIZATION_DENIALS: Final = frozenset({"BILLABLE_ACTION_UNAUTHORIZED", "ENV_COMMERCIAL_DENIED"})

ContextValue = str | int | float | bool | None


@record
class Decision:
    """A gate's verdict (seed 8.1 output schema): never carries a credential."""

    authorized: bool
    reason_code: str
    message: str
    context: Mapping[str, ContextValue] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def decision(self) -> str:
        return ALLOW if self.authorized else DENY

    def to_json(self) -> dict[str, Any]:
        """The reference's decision object (``reasonCode`` and ``reason_code`` both present)."""
        return {
            "authorized": self.authorized,
            "decision": self.decision,
            "reasonCode": self.reason_code,
            "reason_code": self.reason_code,
            "message": self.message,
            "context": dict(self.context),
        }


def _decision(authorized: bool, reason_code: str, message: str, context: Mapping[str, ContextValue]) -> Decision:
    """Build a decision, dropping context keys that could name a credential and absent values."""
    clean = {
        k: v
        for k, v in context.items()
        if v is not None and not any(word in k.lower() for word in ("key", "secret", "token", "pass"))
    }
    return Decision(authorized, reason_code, message, MappingProxyType(clean))


@record
class SpendingAuthorization:
    """An explicit spending grant (seed 8.1 ``authorization_token``); it holds no secret.

    As in the reference (1.3.0) a grant counts when it is marked granted, names who granted
    it, comes from the command-line flag, or sets a budget.
    """

    source: str | None = None
    granted: bool = False
    granted_by: str | None = None
    max_budget_units: float | None = None
    currency: str | None = None

    @property
    def valid(self) -> bool:
        return self.granted or bool(self.granted_by) or self.source == "CLI_FLAG" or self.max_budget_units is not None


#: The grant ``--allow-billable`` gives on the command line (a budget may be added with ``--budget``).
CLI_AUTHORIZATION: Final = SpendingAuthorization(source="CLI_FLAG", granted_by="cli")


@record
class AdapterSupport:
    """What an execution adapter declares it implements."""

    supported_capabilities: frozenset[str]

    def supports(self, capability_id: str) -> bool:
        return capability_id in self.supported_capabilities


@record
class GatePolicy:
    """Everything a gate may consult besides the request, registry and ledger.

    ``env`` holds the environment variables tier resolution honours (never read from the
    process here); ``declared_actions``, when given, is the spec's list of declared action ids.
    """

    allow_billable: bool = False
    ci_waiver: CiWaiver | None = None
    now: dt.datetime | None = None
    env: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    declared_actions: frozenset[str] | None = None

    def tier(self, environment: str | None) -> Tier:
        return resolve_tier(environment, self.env)


@record
class CapabilityRequest:
    """A ProviderCapabilityGate request (seed 8.2)."""

    provider_id: str
    capability_id: str | None
    environment: str | None = None
    adapter: AdapterSupport | None = None


@record
class ActionRequest:
    """A BillableActionGate request (seed 8.1 input schema)."""

    action_id: str | None
    provider_id: str
    capability_id: str | None
    environment: str | None = None
    requested_units: float | None = None
    authorization: SpendingAuthorization | None = None
    #: The request's own claim of a cost state, used only when the ledger has no entry.
    cost_state: str | None = None


def evaluate_provider_capability(
    request: CapabilityRequest, registry: ProviderRegistry, policy: GatePolicy | None = None
) -> Decision:
    """ProviderCapabilityGate: registered, allowed in the tier, capability declared, adapter support."""
    policy = policy or GatePolicy()
    provider_id = normalize_id(request.provider_id or "")
    capability_id = request.capability_id
    tier = policy.tier(request.environment)
    provider = registry.get(provider_id) if provider_id else None
    if provider is None:
        return _decision(
            False,
            "UNKNOWN_PROVIDER_IDENTITY",
            f'Provider "{request.provider_id or ""}" is not registered in provider registry.',
            {"provider_id": request.provider_id, "capability_id": capability_id, "environment": tier},
        )
    context: dict[str, ContextValue] = {
        "provider_id": provider_id,
        "capability_id": capability_id,
        "environment": tier,
    }
    if provider.type in MOCK_ONLY_PROVIDER_TYPES and tier in MOCK_ONLY_TIERS:
        return _decision(
            False,
            "PROVIDER_DISALLOWED_IN_ENV",
            f'Provider "{provider_id}" ({provider.type}) is not allowed in {tier} environment: '
            f"{tier} runs only MOCK providers.",
            context,
        )
    if provider.type == "COMMERCIAL":
        env_policy = commercial_policy(
            tier, allow_billable=policy.allow_billable, ci_waiver=policy.ci_waiver, now=policy.now
        )
        if not env_policy.allowed:
            return _decision(False, env_policy.reason_code, env_policy.message, context)
    if not capability_id or capability_id not in provider.capabilities:
        return _decision(
            False,
            "PROVIDER_CAPABILITY_UNDECLARED",
            f'Capability "{capability_id or ""}" is not declared for provider "{provider_id}".',
            context,
        )
    if request.adapter is not None and not request.adapter.supports(capability_id):
        return _decision(
            False,
            "PROVIDER_CAPABILITY_UNSUPPORTED",
            f'Adapter for provider "{provider_id}" does not implement capability "{capability_id}".',
            context,
        )
    return _decision(
        True,
        "CAPABILITY_VERIFIED",
        f'Provider "{provider_id}" capability "{capability_id}" verified successfully.',
        context,
    )


def evaluate_billable_action(
    request: ActionRequest, ledger: CostLedger | None, policy: GatePolicy | None = None
) -> Decision:
    """BillableActionGate: declared, classified (UNKNOWN never FREE), tier, FREE, authorization, budget."""
    policy = policy or GatePolicy()
    action_id = request.action_id
    provider_id = normalize_id(request.provider_id or "")
    capability_id = request.capability_id
    tier = policy.tier(request.environment)
    units = request.requested_units if request.requested_units is not None else 1.0

    base: dict[str, ContextValue] = {"action_id": action_id, "provider_id": provider_id, "environment": tier}
    if not action_id or not js_trim(action_id):
        return _decision(False, "UNDECLARED_BILLABLE_ACTION", "Action ID is missing or invalid.", base)
    if policy.declared_actions is not None and action_id not in policy.declared_actions:
        return _decision(
            False,
            "UNDECLARED_BILLABLE_ACTION",
            f'Billable action "{action_id}" is not declared in specification or active plan.',
            base,
        )

    provider = ledger.providers.get(provider_id) if ledger is not None else None
    entry = provider.capabilities.get(capability_id) if provider is not None and capability_id else None
    cost_state = entry.cost_state if entry is not None else (request.cost_state or "UNKNOWN")

    def ctx(state: str, **extra: ContextValue) -> dict[str, ContextValue]:
        return {
            "action_id": action_id,
            "provider_id": provider_id,
            "capability_id": capability_id,
            "cost_state": state,
            "environment": tier,
            **extra,
        }

    if cost_state not in KNOWN_COST_STATES:
        return _decision(
            False,
            "UNKNOWN_COST_CLASSIFICATION",
            f'Action "{action_id}" has UNKNOWN cost classification. Fail-closed: execution denied.',
            ctx("UNKNOWN"),
        )
    # The reference treats only COMMERCIAL ledger providers as commercial, so a LOCAL or MOCK
    # provider whose capability costs money would pass the tier check (and run in test with a
    # token). Fail closed instead: anything that is not FREE is commercial for the tier policy.
    # No golden decision changes (their non-COMMERCIAL providers are all FREE).
    commercial = cost_state != "FREE" or (provider is not None and provider.type == "COMMERCIAL")
    if commercial:
        env_policy = commercial_policy(
            tier, allow_billable=policy.allow_billable, ci_waiver=policy.ci_waiver, now=policy.now
        )
        if not env_policy.allowed:
            return _decision(False, env_policy.reason_code, env_policy.message, ctx(cost_state))
    if cost_state == "FREE":
        return _decision(
            True, "ACTION_AUTHORIZED_FREE", f'Action "{action_id}" is FREE and authorized for execution.', ctx("FREE")
        )
    token = request.authorization
    if token is None or not token.valid:
        return _decision(
            False,
            "BILLABLE_ACTION_UNAUTHORIZED",
            f'Action "{action_id}" on provider "{provider_id}" requires explicit spending authorization.',
            ctx(cost_state),
        )
    unit_cost = entry.estimated_unit_cost if entry is not None and entry.estimated_unit_cost is not None else 1.0
    total = units * unit_cost
    if token.max_budget_units is not None and total > token.max_budget_units:
        return _decision(
            False,
            "BUDGET_THRESHOLD_EXCEEDED",
            f'Action "{action_id}" estimated cost ({js_number(total)}) exceeds authorized budget limit '
            f"({js_number(token.max_budget_units)}).",
            ctx(cost_state, estimated_total_cost=total, max_budget_units=token.max_budget_units),
        )
    return _decision(
        True,
        "ACTION_AUTHORIZED",
        f'Action "{action_id}" authorized for execution within budget.',
        ctx(cost_state, estimated_total_cost=total),
    )


def evaluate_action(
    request: ActionRequest,
    registry: ProviderRegistry,
    ledger: CostLedger | None,
    policy: GatePolicy | None = None,
    adapter: AdapterSupport | None = None,
) -> Decision:
    """Both gates for one provider, as the execution boundary runs them: capability first, then billing.

    An action that is not declared (a blank id, or one missing from ``policy.declared_actions``)
    is refused as ``UNDECLARED_BILLABLE_ACTION`` before any provider is looked at (seed 8.1 step 2).
    """
    action_id = request.action_id
    undeclared = not action_id or not js_trim(action_id)
    if undeclared or (
        policy is not None and policy.declared_actions is not None and action_id not in policy.declared_actions
    ):
        return evaluate_billable_action(request, ledger, policy)
    capability = evaluate_provider_capability(
        CapabilityRequest(request.provider_id, request.capability_id, request.environment, adapter),
        registry,
        policy,
    )
    if not capability.authorized:
        return capability
    return evaluate_billable_action(request, ledger, policy)


@record
class CandidateDecision:
    """One provider of a fallback chain and the decision both gates gave it on its own."""

    index: int
    provider_id: str
    decision: Decision


@record
class ChainDecision:
    """The verdict for a whole provider chain, and each candidate's independent verdict.

    ``selected`` is the index of the provider that would run (``None`` when none may).
    """

    decision: Decision
    candidates: tuple[CandidateDecision, ...]
    selected: int | None

    def to_json(self) -> dict[str, Any]:
        out = self.decision.to_json()
        out["selected_provider_index"] = self.selected
        out["candidates"] = [
            {"index": c.index, "provider_id": c.provider_id, **c.decision.to_json()} for c in self.candidates
        ]
        return out


def evaluate_chain(
    action_id: str | None,
    provider_ids: Sequence[str],
    capability_id: str | None,
    registry: ProviderRegistry,
    ledger: CostLedger | None,
    policy: GatePolicy | None = None,
    *,
    environment: str | None = None,
    requested_units: float | None = None,
    authorization: SpendingAuthorization | None = None,
    adapters: Mapping[str, AdapterSupport] | None = None,
    failed: Collection[str] = (),
) -> ChainDecision:
    """Evaluate a fallback chain: every candidate independently, in order (seed 10.2).

    The chain runs the first candidate the gates allow. Walking it as the runtime would, a
    primary that is denied, or that is listed in ``failed`` (providers assumed to fail at run
    time, to preview what the fallbacks would do), hands over to the next candidate; a fallback
    denied for want of spending permission (``BILLABLE_ACTION_UNAUTHORIZED`` or
    ``ENV_COMMERCIAL_DENIED``) stops the chain with ``PROVIDER_FALLBACK_UNAUTHORIZED``; any other
    denial or failure of a fallback moves on. Every candidate is evaluated and reported, even
    those the walk never reaches; none inherits another's authorization. ``adapters`` defaults
    to what the registry's adapter declarations implement. An empty chain is denied as an
    unknown provider.
    """
    policy = policy or GatePolicy()
    failed_ids = {normalize_id(p) for p in failed}

    def adapter_of(pid: str) -> AdapterSupport | None:
        if adapters is not None:
            return adapters.get(normalize_id(pid))
        provider = registry.get(pid)
        caps = provider.adapter_capabilities if provider is not None else None
        return AdapterSupport(caps) if caps is not None else None

    candidates = tuple(
        CandidateDecision(
            i,
            pid,
            evaluate_action(
                ActionRequest(action_id, pid, capability_id, environment, requested_units, authorization),
                registry,
                ledger,
                policy,
                adapter_of(pid),
            ),
        )
        for i, pid in enumerate(provider_ids)
    )
    if not candidates:
        denial = evaluate_action(
            ActionRequest(action_id, "", capability_id, environment, requested_units, authorization),
            registry,
            ledger,
            policy,
        )
        return ChainDecision(denial, (), None)
    tier = policy.tier(environment)
    for cand in candidates:
        if cand.index > 0 and cand.decision.reason_code in AUTHORIZATION_DENIALS:
            stop = _decision(
                False,
                "PROVIDER_FALLBACK_UNAUTHORIZED",
                f'Fallback provider "{cand.provider_id}" failed authorization: {cand.decision.message}',
                {
                    "action_id": action_id,
                    "provider_id": normalize_id(cand.provider_id),
                    "capability_id": capability_id,
                    "environment": tier,
                    "original_reason": cand.decision.reason_code,
                    "fallback_index": cand.index,
                },
            )
            return ChainDecision(stop, candidates, None)
        if cand.decision.authorized and normalize_id(cand.provider_id) not in failed_ids:
            return ChainDecision(_with_chain_context(cand.decision, cand.index), candidates, cand.index)
    last = candidates[-1].decision
    if not last.authorized:
        # No candidate may run: the reference surfaces the last failure (the primary's when alone).
        return ChainDecision(last, candidates, None)
    return ChainDecision(
        _decision(
            False,
            "PROVIDER_UNAVAILABLE",
            f'Every provider of the chain for action "{action_id}" failed or was denied; nothing runs.',
            {"action_id": action_id, "capability_id": capability_id, "environment": tier},
        ),
        candidates,
        None,
    )


def _with_chain_context(decision: Decision, index: int) -> Decision:
    if index == 0:
        return decision
    context = dict(decision.context)
    context["fallback_index"] = index
    return Decision(decision.authorized, decision.reason_code, decision.message, MappingProxyType(context))
