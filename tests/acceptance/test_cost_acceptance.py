"""The 20 acceptance tests of the Upgrade C seed (section 15), named after their ids.

Each test builds a small Gemstack repository on disk and drives the engine the way a user
would: the gates as a library, ``gemstack-lsp gate evaluate`` (non-interactive, JSON, exit
0/1) and ``gemstack-lsp check`` (the static findings; our ``verify``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.cli import main
from gemstack_lsp.core.cost.checks import check_repo
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
from gemstack_lsp.core.cost.view import CostView, FeatureCost
from gemstack_lsp.core.findings import Finding, Severity, code_info
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.repo import Feature, GemstackRepo
from gemstack_lsp.fs import DiskReader

NOW = dt.datetime(2026, 12, 2, tzinfo=dt.UTC)
FEATURE = "008-cost-safety"
FAKE_CREDENTIALS = {
    "OPENAI_API_KEY": "sk-" + "f" * 40,
    "ANTHROPIC_API_KEY": "sk-ant-" + "a" * 40,
    "GEMINI_API_KEY": "AIza" + "g" * 35,
}
#: Variables that would pick a tier on their own; every test starts without them.
TIER_VARIABLES = ("GEMSTACK_ENV", "CI", "CONTINUOUS_INTEGRATION", "NODE_ENV")


def _action(ident: str, providers: list[str], capability: str = "inference.generate_text") -> dict[str, Any]:
    return {
        "id": ident,
        "description": f"{ident} with a model",
        "category": "DEFINITELY_BILLABLE",
        "capability_id": capability,
        "providers": providers,
    }


ACTIONS = [
    _action("summarize", ["gemini-cloud"]),
    _action("summarize-local", ["mock-local"]),
    _action("summarize-fallback", ["ollama-local", "gemini-cloud"]),
    _action("classify", ["acme-cloud"], "inference.classify"),
    _action("translate", ["gemini-cloud"], "inference.translate"),
]
CAPABILITIES = [
    {
        "provider_id": "gemini-cloud",
        "type": "COMMERCIAL",
        "capabilities": ["inference.generate_text"],
        "adapter": "GeminiAdapter",
    },
    {"provider_id": "mock-local", "type": "MOCK", "capabilities": ["inference.generate_text"]},
    {"provider_id": "ollama-local", "type": "LOCAL", "capabilities": ["inference.generate_text"]},
    {"provider_id": "acme-cloud", "type": "COMMERCIAL", "capabilities": ["inference.classify"]},
]


def _entry(state: str, cost: float, fresh: str = "2026-11-30") -> dict[str, Any]:
    return {
        "cost_state": state,
        "estimated_unit_cost": cost,
        "assumption_source": "price list",
        "freshness_date": fresh,
    }


LEDGER: dict[str, Any] = {
    "$schema": "https://gemstack.dev/schemas/cost-ledger-v1.json",
    "version": 1,
    "currency": "USD",
    "providers": {
        "gemini-cloud": {
            "type": "COMMERCIAL",
            "pricing_model": "PER_1K_TOKENS",
            "capabilities": {
                "inference.generate_text": _entry("BILLABLE", 0.0005),
                "inference.translate": _entry("BILLABLE", 0.002),
            },
        },
        "mock-local": {
            "type": "MOCK",
            "pricing_model": "NONE",
            "capabilities": {"inference.generate_text": _entry("FREE", 0)},
        },
        "ollama-local": {
            "type": "LOCAL",
            "pricing_model": "NONE",
            "capabilities": {"inference.generate_text": _entry("FREE", 0)},
        },
        "acme-cloud": {
            "type": "COMMERCIAL",
            "pricing_model": "PER_REQUEST",
            "capabilities": {"inference.classify": _entry("UNKNOWN", 0)},
        },
    },
}


def _block(kind: str, value: Any) -> str:
    return f"```{kind}\n{json.dumps(value, indent=2)}\n```\n"


def write_repo(
    root: Path,
    *,
    actions: list[dict[str, Any]] | None = None,
    capabilities: list[dict[str, Any]] | None = None,
    ledger: dict[str, Any] | str | None = None,
    tasks: str | None = None,
) -> Path:
    feature = root / "specs" / FEATURE
    feature.mkdir(parents=True)
    (root / ".gemstack").mkdir()
    (root / ".gemstack" / "state.json").write_text(
        json.dumps({"version": "0.1", "active_spec": f"specs/{FEATURE}"}, indent=2) + "\n", "utf-8"
    )
    spec = "# Cost-safe summaries\n\n## Billable actions\n\n"
    spec += _block("gemstack-billable-actions", ACTIONS if actions is None else actions)
    spec += "\n## Providers\n\n" + _block(
        "gemstack-capabilities", CAPABILITIES if capabilities is None else capabilities
    )
    (feature / "spec.md").write_text(spec, "utf-8")
    if tasks is not None:
        (feature / "tasks.md").write_text(tasks, "utf-8")
    value = LEDGER if ledger is None else ledger
    text = value if isinstance(value, str) else json.dumps(value, indent=2) + "\n"
    (root / "cost-ledger.json").write_text(text, "utf-8")
    return root


@pytest.fixture
def repo_dir(tmp_path: Path) -> Path:
    return write_repo(tmp_path / "repo")


@pytest.fixture(autouse=True)
def _no_tier_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in TIER_VARIABLES:
        monkeypatch.delenv(name, raising=False)


def feature_cost(root: Path) -> FeatureCost:
    repo = GemstackRepo(str(root), DiskReader(root))
    return CostView(repo, NOW).feature(Feature(FEATURE))


def gate(capsys: pytest.CaptureFixture[str], root: Path, *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["gate", "evaluate", "--target", str(root), *argv])
    out = capsys.readouterr().out
    return code, json.loads(out)


def cost_findings(root: Path) -> list[Finding]:
    repo = GemstackRepo(str(root), DiskReader(root))
    return list(check_repo(repo, AnalysisOptions(now=NOW)))


def tree_hashes(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every way of opening a socket raises; the list records any attempt."""
    attempts: list[str] = []

    def refuse(*args: object, **kwargs: object) -> Any:
        attempts.append(repr(args))
        raise AssertionError("network access attempted")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    yield attempts


# --- ACTION_GATE ---------------------------------------------------------------------------


def test_TEST_COST_A01_undeclared_action_is_rejected_with_exit_1(
    repo_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = gate(capsys, repo_dir, "--action", "publish-report", "--provider", "mock-local", "--env", "test")
    assert code == 1
    assert (out["decision"], out["reason_code"]) == ("DENY", "UNDECLARED_BILLABLE_ACTION")
    # Statically too: a task that names the undeclared action is flagged on the id.
    tasks = (
        "# Tasks\n\n- [ ] **T001: Publish**\n  <!-- gemstack:validation_required=false -->\n"
        "  <!-- gemstack:actions=summarize,publish-report -->\n"
    )
    other = write_repo(repo_dir.parent / "with-tasks", tasks=tasks)
    [finding] = [f for f in cost_findings(other) if f.code == "UNDECLARED_BILLABLE_ACTION"]
    assert finding.path == f"specs/{FEATURE}/tasks.md"
    assert finding.span is not None and tasks[finding.span.start : finding.span.end] == "publish-report"


def test_TEST_COST_A02_billable_action_without_authorization_is_rejected(
    repo_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fc = feature_cost(repo_dir)
    ledger = fc.ledger.ledger if fc.ledger else None
    decision = evaluate_billable_action(
        ActionRequest("summarize", "gemini-cloud", "inference.generate_text", "production"),
        ledger,
        GatePolicy(declared_actions=fc.declared_ids),
    )
    assert (decision.authorized, decision.reason_code) == (False, "BILLABLE_ACTION_UNAUTHORIZED")
    assert decision.context["cost_state"] == "BILLABLE"
    code, out = gate(capsys, repo_dir, "--action", "summarize", "--env", "development")
    assert (code, out["reason_code"]) == (1, "BILLABLE_ACTION_UNAUTHORIZED")
    code, out = gate(capsys, repo_dir, "--action", "summarize", "--env", "production")
    assert (code, out["reason_code"]) == (1, "BILLABLE_ACTION_UNAUTHORIZED")


def test_TEST_COST_A03_explicit_spending_token_authorizes(repo_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fc = feature_cost(repo_dir)
    ledger = fc.ledger.ledger if fc.ledger else None
    token = SpendingAuthorization(source="CLI_FLAG", granted_by="developer", max_budget_units=5.0, currency="USD")
    decision = evaluate_billable_action(
        ActionRequest("summarize", "gemini-cloud", "inference.generate_text", "development", 1, token),
        ledger,
        GatePolicy(allow_billable=True, declared_actions=fc.declared_ids),
    )
    assert (decision.authorized, decision.decision, decision.reason_code) == (True, "ALLOW", "ACTION_AUTHORIZED")
    code, out = gate(capsys, repo_dir, "--action", "summarize", "--env", "development", "--allow-billable")
    assert (code, out["authorized"], out["reason_code"]) == (0, True, "ACTION_AUTHORIZED")
    # Zero blockers for the declarations behind it.
    blockers = [f for f in cost_findings(repo_dir) if f.effective_severity is Severity.BLOCKER]
    assert {f.subject for f in blockers} <= {"classify", "translate"}  # the deliberate mistakes of other tests


def test_TEST_COST_A04_unknown_cost_never_degrades_to_free(repo_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fc = feature_cost(repo_dir)
    ledger = fc.ledger.ledger if fc.ledger else None
    claimed_free = evaluate_billable_action(
        ActionRequest(
            "classify", "acme-cloud", "inference.classify", "production", 1, SpendingAuthorization(granted=True), "FREE"
        ),
        ledger,
        GatePolicy(allow_billable=True, declared_actions=fc.declared_ids),
    )
    assert (claimed_free.authorized, claimed_free.reason_code) == (False, "UNKNOWN_COST_CLASSIFICATION")
    for env in ("development", "staging", "production"):
        code, out = gate(capsys, repo_dir, "--action", "classify", "--env", env, "--allow-billable")
        assert (code, out["reason_code"]) == (1, "UNKNOWN_COST_CLASSIFICATION"), env
    # In the test tier the commercial provider is refused even before its cost is looked at.
    code, out = gate(capsys, repo_dir, "--action", "classify", "--env", "test", "--allow-billable")
    assert (code, out["authorized"]) == (1, False)
    [finding] = [f for f in cost_findings(repo_dir) if f.code == "UNKNOWN_COST_CLASSIFICATION"]
    assert finding.subject == "classify"


# --- CAPABILITY_GATE -----------------------------------------------------------------------


def test_TEST_COST_B01_undeclared_capability_is_blocked(repo_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fc = feature_cost(repo_dir)
    decision = evaluate_provider_capability(CapabilityRequest("mock-local", "inference.embed", "test"), fc.registry)
    assert (decision.authorized, decision.reason_code) == (False, "PROVIDER_CAPABILITY_UNDECLARED")
    again = evaluate_provider_capability(CapabilityRequest("mock-local", "inference.embed", "test"), fc.registry)
    assert again == decision  # deterministic
    code, out = gate(
        capsys, repo_dir, "--action", "summarize-local", "--capability", "inference.embed", "--env", "test"
    )
    assert (code, out["reason_code"]) == (1, "PROVIDER_CAPABILITY_UNDECLARED")


def test_TEST_COST_B02_adapter_without_the_capability_is_blocked_offline(repo_dir: Path, no_network: list[str]) -> None:
    fc = feature_cost(repo_dir)
    adapter = AdapterSupport(frozenset({"inference.generate_text"}))
    decision = evaluate_provider_capability(
        CapabilityRequest("gemini-cloud", "inference.translate", "production", adapter), fc.registry
    )
    assert (decision.authorized, decision.reason_code) == (False, "PROVIDER_CAPABILITY_UNSUPPORTED")
    # The declared adapter (GeminiAdapter) lists only generate_text: the static check says so too.
    [finding] = [f for f in cost_findings(repo_dir) if f.code == "PROVIDER_CAPABILITY_UNSUPPORTED"]
    assert finding.subject == "translate"
    assert no_network == []


def test_TEST_COST_B03_unknown_provider_identity(repo_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fc = feature_cost(repo_dir)
    for raw in ("openai-proxy", "", "../gemini-cloud", "local-helper"):
        decision = evaluate_provider_capability(
            CapabilityRequest(raw, "inference.generate_text", "production"), fc.registry
        )
        assert (decision.authorized, decision.reason_code) == (False, "UNKNOWN_PROVIDER_IDENTITY"), raw
    code, out = gate(capsys, repo_dir, "--action", "summarize", "--provider", "openai-proxy", "--env", "production")
    assert (code, out["reason_code"]) == (1, "UNKNOWN_PROVIDER_IDENTITY")


def test_TEST_COST_B04_declared_and_supported_capability_is_allowed(repo_dir: Path) -> None:
    fc = feature_cost(repo_dir)
    adapter = AdapterSupport(frozenset({"inference.generate_text"}))
    decision = evaluate_provider_capability(
        CapabilityRequest("gemini-cloud", "inference.generate_text", "production", adapter), fc.registry
    )
    assert (decision.authorized, decision.reason_code) == (True, "CAPABILITY_VERIFIED")


# --- ENVIRONMENT ---------------------------------------------------------------------------


def test_TEST_COST_C01_test_environment_denies_commercial_despite_credentials(
    repo_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in FAKE_CREDENTIALS.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("NODE_ENV", "test")  # the tier comes from the test runner's environment
    code, out = gate(capsys, repo_dir, "--action", "summarize", "--allow-billable", "--budget", "100")
    assert (code, out["reason_code"], out["request"]["environment"]) == (1, "ENV_COMMERCIAL_DENIED", "test")
    code, out = gate(capsys, repo_dir, "--action", "summarize", "--env", "test", "--allow-billable")
    assert (code, out["reason_code"]) == (1, "ENV_COMMERCIAL_DENIED")
    rendered = json.dumps(out)
    assert not any(value in rendered for value in FAKE_CREDENTIALS.values())


def test_TEST_COST_C02_ci_environment_denies_commercial_without_waiver(
    repo_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in FAKE_CREDENTIALS.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("CI", "true")
    code, out = gate(capsys, repo_dir, "--action", "summarize", "--allow-billable", "--budget", "100")
    assert (code, out["reason_code"], out["request"]["environment"]) == (1, "ENV_COMMERCIAL_DENIED", "ci")
    assert "without explicit signed waiver" in out["message"]


def test_TEST_COST_C03_mock_provider_runs_in_test(
    repo_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NODE_ENV", "test")
    code, out = gate(capsys, repo_dir, "--action", "summarize-local")
    assert (code, out["authorized"], out["reason_code"]) == (0, True, "ACTION_AUTHORIZED_FREE")
    assert out["request"]["environment"] == "test"
    assert not [f for f in cost_findings(repo_dir) if f.code == "MOCK_PROVIDER_ESCAPE_VIOLATION"]


# --- FALLBACK ------------------------------------------------------------------------------


def test_TEST_COST_D01_fallback_candidates_are_evaluated_independently(repo_dir: Path) -> None:
    fc = feature_cost(repo_dir)
    ledger = fc.ledger.ledger if fc.ledger else None
    policy = GatePolicy(declared_actions=fc.declared_ids)
    token = SpendingAuthorization(source="CLI_FLAG", max_budget_units=1.0)
    chain = evaluate_chain(
        "summarize-fallback",
        ["ollama-local", "gemini-cloud"],
        "inference.generate_text",
        fc.registry,
        ledger,
        policy,
        environment="production",
        authorization=token,
        failed=["ollama-local"],
    )
    primary, fallback = chain.candidates
    assert (primary.decision.reason_code, primary.decision.context["cost_state"]) == ("ACTION_AUTHORIZED_FREE", "FREE")
    # The fallback got its own evaluation: its own provider, its own cost state, its own budget check.
    assert fallback.decision.context["provider_id"] == "gemini-cloud"
    assert fallback.decision.context["cost_state"] == "BILLABLE"
    assert fallback.decision.reason_code == "ACTION_AUTHORIZED"
    assert (chain.selected, chain.decision.context["fallback_index"]) == (1, 1)
    # Without a spending token the FREE primary's authorization is not inherited.
    bare = evaluate_chain(
        "summarize-fallback",
        ["ollama-local", "gemini-cloud"],
        "inference.generate_text",
        fc.registry,
        ledger,
        policy,
        environment="production",
    )
    assert bare.candidates[1].decision.reason_code == "BILLABLE_ACTION_UNAUTHORIZED"
    assert (bare.selected, bare.decision.reason_code) == (0, "ACTION_AUTHORIZED_FREE")


def test_TEST_COST_D02_unauthorized_fallback_stops_the_chain(
    repo_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = gate(
        capsys, repo_dir, "--action", "summarize-fallback", "--env", "development", "--failed", "ollama-local"
    )
    assert code == 1
    assert out["reason_code"] == "PROVIDER_FALLBACK_UNAUTHORIZED"
    assert out["context"]["original_reason"] == "BILLABLE_ACTION_UNAUTHORIZED"
    assert out["context"]["provider_id"] == "gemini-cloud"
    assert [c["reason_code"] for c in out["candidates"]] == ["ACTION_AUTHORIZED_FREE", "BILLABLE_ACTION_UNAUTHORIZED"]
    # The chain is flagged statically as well: free primary, billable fallback.
    [warning] = [f for f in cost_findings(repo_dir) if f.code == "PROVIDER_FALLBACK_TO_BILLABLE"]
    assert warning.subject == "summarize-fallback"


# --- LEDGER --------------------------------------------------------------------------------


def test_TEST_COST_E01_malformed_ledger_is_rejected(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = write_repo(tmp_path / "syntax", ledger='{"version": 1, "currency": "USD", "providers": {,}}')
    [finding] = [f for f in cost_findings(broken) if f.code == "COST_LEDGER_INVALID"]
    assert finding.path == "cost-ledger.json"
    assert finding.message.startswith("Cost ledger malformed JSON syntax")
    bad = dict(LEDGER, version=2, currency="")
    invalid = write_repo(tmp_path / "schema", ledger=bad)
    messages = [f.message for f in cost_findings(invalid) if f.code == "COST_LEDGER_INVALID"]
    assert messages == [
        "Cost ledger version must be 1, got 2",
        'Cost ledger requires non-empty string field "currency"',
    ]
    # Gates never trust an invalid ledger: the cost is UNKNOWN, so execution is denied.
    code, out = gate(capsys, invalid, "--action", "summarize", "--env", "production", "--allow-billable")
    assert (code, out["reason_code"]) == (1, "UNKNOWN_COST_CLASSIFICATION")
    assert (out["request"]["ledger"], out["request"]["ledger_valid"]) == ("cost-ledger.json", False)


def test_TEST_COST_E02_stale_assumption_warns_without_breaking_the_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger = json.loads(json.dumps(LEDGER))
    ledger["providers"]["gemini-cloud"]["capabilities"]["inference.generate_text"]["freshness_date"] = "2020-01-01"
    root = write_repo(tmp_path / "stale", ledger=ledger)
    [warning] = [f for f in cost_findings(root) if f.code == "STALE_PROVIDER_COST_ASSUMPTION"]
    assert warning.effective_severity is Severity.WARNING
    assert warning.message.startswith(
        '[gemini-cloud.inference.generate_text] Pricing assumption freshness date "2020-01-01"'
    )
    code, out = gate(capsys, root, "--action", "summarize", "--env", "development", "--allow-billable")
    assert (code, out["reason_code"]) == (0, "ACTION_AUTHORIZED")


def test_TEST_COST_E03_credentials_in_the_ledger_are_a_non_waivable_blocker(tmp_path: Path) -> None:
    ledger = json.loads(json.dumps(LEDGER))
    secret = "sk-" + "s" * 32
    ledger["providers"]["gemini-cloud"]["api_key"] = secret
    root = write_repo(tmp_path / "secret", ledger=ledger)
    findings = [f for f in cost_findings(root) if f.code == "COST_LEDGER_INVALID"]
    assert [f.message for f in findings] == [
        'Secret violation at providers.gemini-cloud.api_key: Forbidden credential property name detected: "api_key"',
        "Secret violation at providers.gemini-cloud.api_key: Forbidden secret pattern detected matching "
        "/sk-[a-zA-Z0-9_-]{16,}/",
    ]
    for finding in findings:
        assert finding.effective_severity is Severity.BLOCKER
        assert code_info(finding.code).waivable is False
        assert finding.subject == "secrets-forbidden-in-safety-artifacts"
        assert secret not in finding.message


# --- VERIFICATION_PURITY -------------------------------------------------------------------


def test_TEST_COST_F01_verification_opens_no_socket(
    repo_dir: Path, capsys: pytest.CaptureFixture[str], no_network: list[str]
) -> None:
    clean = write_repo(repo_dir.parent / "clean", actions=[_action("summarize-local", ["mock-local"])])
    assert main(["check", str(clean)]) == 0
    capsys.readouterr()
    assert main(["check", str(repo_dir), "--exit-zero"]) == 0
    capsys.readouterr()
    code, _ = gate(capsys, repo_dir, "--action", "summarize", "--env", "production", "--allow-billable")
    assert code == 0
    assert no_network == []


def test_TEST_COST_F02_verification_mutates_no_file(repo_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = tree_hashes(repo_dir)
    main(["check", str(repo_dir), "--format", "json"])
    capsys.readouterr()
    gate(capsys, repo_dir, "--action", "summarize-fallback", "--env", "ci", "--failed", "ollama-local")
    capsys.readouterr()
    cost_findings(repo_dir)
    assert tree_hashes(repo_dir) == before


# --- BUDGET --------------------------------------------------------------------------------


def test_TEST_COST_G01_budget_threshold_exceeded(repo_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = gate(
        capsys,
        repo_dir,
        "--action",
        "summarize",
        "--env",
        "production",
        "--allow-billable",
        "--budget",
        "0.01",
        "--units",
        "100",
    )
    assert (code, out["reason_code"]) == (1, "BUDGET_THRESHOLD_EXCEEDED")
    assert out["message"] == 'Action "summarize" estimated cost (0.05) exceeds authorized budget limit (0.01).'
    code, out = gate(
        capsys, repo_dir, "--action", "summarize", "--env", "production", "--allow-billable", "--budget", "0.01"
    )
    assert (code, out["reason_code"]) == (0, "ACTION_AUTHORIZED")


# --- LEGACY --------------------------------------------------------------------------------


def test_TEST_COST_H01_provider_free_project_passes_in_legacy_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "legacy"
    (root / "specs" / "001-plain").mkdir(parents=True)
    (root / "specs" / "001-plain" / "spec.md").write_text("# A plain feature\n\nNo providers.\n", "utf-8")
    (root / ".gemstack").mkdir()
    (root / ".gemstack" / "state.json").write_text('{"active_spec": "specs/001-plain"}\n', "utf-8")
    [notice] = cost_findings(root)
    assert notice.code == "LEGACY_NO_PROVIDERS_DECLARED"
    assert notice.effective_severity is Severity.INFO
    assert main(["check", str(root), "--format", "json"]) == 0
    report = capsys.readouterr().out
    assert "LEGACY_NO_PROVIDERS_DECLARED" in report
