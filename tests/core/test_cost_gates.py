"""The gates against the reference's decision tables (golden vectors), case for case."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

from gemstack_lsp.core.cost.environment import CiWaiver, commercial_policy, resolve_tier
from gemstack_lsp.core.cost.gates import (
    ActionRequest,
    AdapterSupport,
    CapabilityRequest,
    GatePolicy,
    SpendingAuthorization,
    evaluate_billable_action,
    evaluate_chain,
    evaluate_provider_capability,
)
from gemstack_lsp.core.cost.ledger import CostLedger, load_ledger
from gemstack_lsp.core.cost.registry import (
    ProviderRegistry,
    build_registry,
    declarations_from_map,
    providers_object,
    validate_mock_integrity,
)
from gemstack_lsp.core.jsonspan import parse_json

NOW = dt.datetime(2026, 12, 2, tzinfo=dt.UTC)

#: The ledger the reference's decision tables were computed with (inferred from their contexts:
#: generate_text BILLABLE at 0.0005, "maybe" POTENTIALLY_BILLABLE at 0.5, unknown_action UNKNOWN).
GOLDEN_LEDGER: dict[str, Any] = {
    "version": 1,
    "currency": "USD",
    "providers": {
        "gemini-cloud": {
            "type": "COMMERCIAL",
            "pricing_model": "PER_1K_TOKENS",
            "capabilities": {
                "inference.generate_text": {
                    "cost_state": "BILLABLE",
                    "estimated_unit_cost": 0.0005,
                    "freshness_date": "2026-11-30",
                },
                "inference.maybe": {
                    "cost_state": "POTENTIALLY_BILLABLE",
                    "estimated_unit_cost": 0.5,
                    "freshness_date": "2026-11-30",
                },
                "inference.unknown_action": {
                    "cost_state": "UNKNOWN",
                    "estimated_unit_cost": 0,
                    "freshness_date": "2026-11-30",
                },
            },
        },
        "mock-local": {
            "type": "MOCK",
            "pricing_model": "NONE",
            "capabilities": {
                "inference.generate_text": {
                    "cost_state": "FREE",
                    "estimated_unit_cost": 0,
                    "freshness_date": "2026-11-30",
                }
            },
        },
    },
}

#: The authorization tokens the tables name.
TOKENS: dict[str, SpendingAuthorization | None] = {
    "none": None,
    "granted": SpendingAuthorization(granted=True),
    "cli_flag_budget_5": SpendingAuthorization(source="CLI_FLAG", max_budget_units=5),
    "budget_0_001": SpendingAuthorization(max_budget_units=0.001),
    "empty_object": SpendingAuthorization(),
}


def golden_ledger() -> CostLedger:
    result = load_ledger("cost-ledger.json", json.dumps(GOLDEN_LEDGER, indent=2), now=NOW)
    assert result.ledger is not None, result.findings
    return result.ledger


def golden_registry() -> ProviderRegistry:
    parsed = parse_json(json.dumps(GOLDEN_LEDGER))
    providers = providers_object(parsed.value)
    assert providers is not None
    return build_registry(declarations_from_map(providers, "cost-ledger.json", "ledger"))


def _policy(options: dict[str, Any], declared: list[str] | None = None) -> GatePolicy:
    return GatePolicy(
        allow_billable=bool(options.get("allowBillable")),
        declared_actions=frozenset(declared) if declared is not None else None,
    )


def test_provider_capability_gate_matches_every_golden_case(golden: dict[str, Any]) -> None:
    registry = golden_registry()
    cases = golden["provider_capability_gate"]
    assert len(cases) == 60
    for case in cases:
        req = case["request"]
        decision = evaluate_provider_capability(
            CapabilityRequest(req["provider_id"], req["capability_id"], req["environment"]),
            registry,
            _policy(case["options"]),
        )
        assert decision.to_json() == case["decision"], case


def test_provider_capability_gate_adapter_cases(golden: dict[str, Any]) -> None:
    registry = golden_registry()
    for case in golden["provider_capability_gate_adapter"]:
        adapter = AdapterSupport(frozenset(case["adapter"]["supportedCapabilities"]))
        decision = evaluate_provider_capability(
            CapabilityRequest("mock-local", "inference.generate_text", "test", adapter), registry
        )
        assert decision.to_json() == case["decision"]


def test_billable_action_gate_matches_every_golden_case(golden: dict[str, Any]) -> None:
    ledger = golden_ledger()
    cases = golden["billable_action_gate"]
    assert len(cases) == 400
    seen_codes: set[str] = set()
    for case in cases:
        req = case["request"]
        decision = evaluate_billable_action(
            ActionRequest(
                req["action_id"],
                req["provider_id"],
                req["capability_id"],
                req["environment"],
                req["requested_units"],
                TOKENS[req["authorization_token"]],
            ),
            ledger,
            _policy(case["options"], case["declaredActions"]),
        )
        assert decision.to_json() == case["decision"], case
        seen_codes.add(decision.reason_code)
    assert seen_codes == {
        "ENV_COMMERCIAL_DENIED",
        "UNKNOWN_COST_CLASSIFICATION",
        "ACTION_AUTHORIZED_FREE",
        "UNDECLARED_BILLABLE_ACTION",
        "BILLABLE_ACTION_UNAUTHORIZED",
        "ACTION_AUTHORIZED",
        "BUDGET_THRESHOLD_EXCEEDED",
    }


def test_environment_tier_resolution_matches_golden(golden: dict[str, Any]) -> None:
    for case in golden["environment_tier_resolution"]:
        assert resolve_tier(case["options"].get("environment"), case["env"]) == case["tier"], case


def test_mock_integrity_matches_golden(golden: dict[str, Any]) -> None:
    for case in golden["mock_integrity"]:
        result = validate_mock_integrity(case["config"])
        expected = case["result"]
        assert (result.valid, result.reason_code, result.message) == (
            expected["valid"],
            expected["reasonCode"],
            expected["message"],
        )


def test_ci_waiver_allows_only_when_signed_and_unexpired() -> None:
    later = NOW + dt.timedelta(hours=1)
    assert commercial_policy("ci", ci_waiver=CiWaiver(True, later), now=NOW).reason_code == "CI_WAIVER_ACCEPTED"
    assert commercial_policy("ci", ci_waiver=CiWaiver(False, later), now=NOW).reason_code == "ENV_COMMERCIAL_DENIED"
    expired = CiWaiver(True, NOW - dt.timedelta(seconds=1))
    assert commercial_policy("ci", ci_waiver=expired, now=NOW).reason_code == "ENV_COMMERCIAL_DENIED"


def test_context_never_carries_credential_named_keys() -> None:
    decision = evaluate_billable_action(
        ActionRequest("summarize", "gemini-cloud", "inference.generate_text", "production", 1, TOKENS["granted"]),
        golden_ledger(),
    )
    assert decision.authorized
    assert not [k for k in decision.context if any(w in k.lower() for w in ("key", "secret", "token", "pass"))]


def test_unknown_cost_is_never_free_even_with_a_free_claim_in_the_request() -> None:
    # The ledger classifies unknown_action as UNKNOWN: a request claiming FREE does not override it.
    decision = evaluate_billable_action(
        ActionRequest("summarize", "gemini-cloud", "inference.unknown_action", "production", cost_state="FREE"),
        golden_ledger(),
    )
    assert (decision.authorized, decision.reason_code) == (False, "UNKNOWN_COST_CLASSIFICATION")


@pytest.mark.parametrize("tier", ["test", "ci", "development", "staging", "production"])
def test_chain_of_one_free_provider_is_allowed_in_every_tier(tier: str) -> None:
    chain = evaluate_chain(
        "summarize", ["mock-local"], "inference.generate_text", golden_registry(), golden_ledger(), environment=tier
    )
    assert chain.decision.reason_code == "ACTION_AUTHORIZED_FREE"
    assert chain.selected == 0


# --- Invariants over arbitrary requests (seed section 3) -------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_providers = st.sampled_from(["gemini-cloud", "GEMINI-CLOUD ", "mock-local", "unregistered", "", "../mock-local"])
_capabilities = st.sampled_from(
    ["inference.generate_text", "inference.maybe", "inference.unknown_action", "inference.embed", None]
)
_environments = st.sampled_from(["test", "ci", "development", "staging", "production", "bogus", None])
_tokens = st.one_of(
    st.none(),
    st.builds(
        SpendingAuthorization,
        source=st.sampled_from([None, "CLI_FLAG", "POLICY"]),
        granted=st.booleans(),
        granted_by=st.sampled_from([None, "", "developer"]),
        max_budget_units=st.one_of(st.none(), st.floats(min_value=0, max_value=100, allow_nan=False)),
    ),
)
_units = st.one_of(st.none(), st.floats(min_value=0, max_value=1e6, allow_nan=False))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    provider=_providers,
    capability=_capabilities,
    environment=_environments,
    units=_units,
    token=_tokens,
    allow_billable=st.booleans(),
    claimed=st.sampled_from([None, "FREE", "BILLABLE"]),
)
def test_gate_invariants_hold_for_any_request(
    provider: str,
    capability: str | None,
    environment: str | None,
    units: float | None,
    token: SpendingAuthorization | None,
    allow_billable: bool,
    claimed: str | None,
) -> None:
    ledger, registry = golden_ledger(), golden_registry()
    policy = GatePolicy(allow_billable=allow_billable, declared_actions=frozenset({"summarize"}))
    request = ActionRequest("summarize", provider, capability, environment, units, token, claimed)
    decision = evaluate_billable_action(request, ledger, policy)
    tier = policy.tier(environment)
    entry = ledger.entry(provider.strip().lower(), capability) if capability else None
    if decision.authorized:
        assert decision.reason_code in ("ACTION_AUTHORIZED", "ACTION_AUTHORIZED_FREE")
        # Unknown cost never degrades to FREE; a ledger entry always wins over the request's claim.
        assert decision.context["cost_state"] in ("FREE", "BILLABLE", "POTENTIALLY_BILLABLE")
        if entry is not None:
            assert decision.context["cost_state"] == entry.cost_state
        if decision.context["cost_state"] != "FREE":
            # Spending needs an explicit grant within its budget, and a tier that permits it.
            assert token is not None and token.valid
            assert tier not in ("test", "ci")
            assert tier != "development" or allow_billable
            if token.max_budget_units is not None:
                assert decision.context["estimated_total_cost"] <= token.max_budget_units  # type: ignore[operator]
    if entry is not None and entry.cost_state == "UNKNOWN":
        assert not decision.authorized
    if provider.strip().lower() == "gemini-cloud" and tier in ("test", "ci"):
        assert not decision.authorized
        assert not evaluate_provider_capability(
            CapabilityRequest(provider, capability, environment), registry
        ).authorized


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    chain=st.lists(_providers, max_size=4),
    environment=_environments,
    token=_tokens,
    allow_billable=st.booleans(),
    failed=st.lists(_providers, max_size=2),
)
def test_chain_never_selects_a_denied_or_failed_candidate(
    chain: list[str],
    environment: str | None,
    token: SpendingAuthorization | None,
    allow_billable: bool,
    failed: list[str],
) -> None:
    result = evaluate_chain(
        "summarize",
        chain,
        "inference.generate_text",
        golden_registry(),
        golden_ledger(),
        GatePolicy(allow_billable=allow_billable),
        environment=environment,
        authorization=token,
        failed=failed,
    )
    assert len(result.candidates) == len(chain)
    if result.selected is None:
        assert not result.decision.authorized
        return
    chosen = result.candidates[result.selected]
    assert chosen.decision.authorized and result.decision.authorized
    assert chosen.provider_id.strip().lower() not in {f.strip().lower() for f in failed}
    # No earlier fallback was refused for want of spending permission (that stops the chain).
    for earlier in result.candidates[1 : result.selected]:
        assert earlier.decision.reason_code not in ("BILLABLE_ACTION_UNAUTHORIZED", "ENV_COMMERCIAL_DENIED")


def test_a_non_free_capability_of_a_mock_provider_is_commercial_for_the_tier() -> None:
    # Deliberate difference from the reference (which looks only at the provider type): fail closed.
    decision = evaluate_billable_action(
        ActionRequest(
            "summarize", "mock-local", "inference.maybe", "test", 1, SpendingAuthorization(granted=True), "BILLABLE"
        ),
        golden_ledger(),
    )
    assert (decision.authorized, decision.reason_code) == (False, "ENV_COMMERCIAL_DENIED")


def _local_registry() -> ProviderRegistry:
    providers = {
        "ollama-local": {"type": "LOCAL", "capabilities": ["inference.generate_text"]},
        "mock-local": {"type": "MOCK", "capabilities": ["inference.generate_text"]},
    }
    parsed = providers_object(parse_json(json.dumps({"providers": providers})).value)
    assert parsed is not None
    return build_registry(declarations_from_map(parsed, "cost-ledger.json", "ledger"))


@pytest.mark.parametrize(
    ("provider", "tier", "reason"),
    [
        ("ollama-local", "test", "PROVIDER_DISALLOWED_IN_ENV"),
        ("ollama-local", "ci", "PROVIDER_DISALLOWED_IN_ENV"),
        ("ollama-local", "development", "CAPABILITY_VERIFIED"),
        ("ollama-local", "production", "CAPABILITY_VERIFIED"),
        ("mock-local", "test", "CAPABILITY_VERIFIED"),
        ("mock-local", "ci", "CAPABILITY_VERIFIED"),
    ],
)
def test_test_and_ci_run_only_mock_providers(provider: str, tier: str, reason: str) -> None:
    # Seed section 11: test and ci require mocks; a LOCAL provider is not allowed there (seed 8.2,
    # step 2). The reference never denies a LOCAL provider (a deliberate difference).
    decision = evaluate_provider_capability(
        CapabilityRequest(provider, "inference.generate_text", tier), _local_registry()
    )
    assert decision.reason_code == reason
    if reason == "PROVIDER_DISALLOWED_IN_ENV":
        assert not decision.authorized
        assert decision.message == (
            f'Provider "ollama-local" (LOCAL) is not allowed in {tier} environment: {tier} runs only MOCK providers.'
        )


def test_a_chain_moves_past_a_disallowed_local_provider_to_a_mock() -> None:
    result = evaluate_chain(
        "summarize",
        ["ollama-local", "mock-local"],
        "inference.generate_text",
        _local_registry(),
        golden_ledger(),
        GatePolicy(),
        environment="test",
    )
    assert result.candidates[0].decision.reason_code == "PROVIDER_DISALLOWED_IN_ENV"
    assert result.selected == 1
