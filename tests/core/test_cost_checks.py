"""The static cost checks: one test per finding code they emit, each on its narrowest span."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Mapping
from typing import Any

from gemstack_lsp.core.cost.checks import check_repo, preview_action
from gemstack_lsp.core.findings import Finding, TextEdit
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze

NOW = dt.datetime(2026, 12, 2, tzinfo=dt.UTC)
OPTIONS = AnalysisOptions(now=NOW)
FEATURE = "specs/001-summaries"


def action(ident: str, providers: list[str], capability: str = "inference.generate_text") -> dict[str, Any]:
    return {
        "id": ident,
        "description": f"{ident} via a provider",
        "category": "DEFINITELY_BILLABLE",
        "capability_id": capability,
        "providers": providers,
    }


def block(kind: str, value: Any) -> str:
    return f"```{kind}\n{json.dumps(value, indent=2)}\n```\n"


def spec(actions: list[dict[str, Any]], capabilities: list[dict[str, Any]] | None = None) -> str:
    text = "# Feature spec\n\n## Billable actions\n\n" + block("gemstack-billable-actions", actions)
    if capabilities is not None:
        text += "\n## Providers\n\n" + block("gemstack-capabilities", capabilities)
    return text


def ledger(providers: Mapping[str, Any]) -> str:
    return json.dumps({"version": 1, "currency": "USD", "providers": providers}, indent=2) + "\n"


def entry(state: str, cost: float = 0.001, fresh: str | None = "2026-11-30") -> dict[str, Any]:
    out: dict[str, Any] = {"cost_state": state, "estimated_unit_cost": cost}
    if fresh is not None:
        out["freshness_date"] = fresh
    return out


STANDARD_LEDGER: dict[str, Any] = {
    "gemini-cloud": {
        "type": "COMMERCIAL",
        "pricing_model": "PER_1K_TOKENS",
        "capabilities": {"inference.generate_text": entry("BILLABLE", 0.0005)},
    },
    "ollama-local": {
        "type": "LOCAL",
        "pricing_model": "NONE",
        "capabilities": {"inference.generate_text": entry("FREE", 0)},
    },
    "mock-local": {
        "type": "MOCK",
        "pricing_model": "NONE",
        "capabilities": {"inference.generate_text": entry("FREE", 0)},
    },
}


def make_repo(files: Mapping[str, str]) -> GemstackRepo:
    return GemstackRepo("/repo", MemoryReader(dict(files)))


def run(files: Mapping[str, str]) -> list[Finding]:
    return list(check_repo(make_repo(files), OPTIONS))


def only(findings: Iterable[Finding], code: str) -> list[Finding]:
    return [f for f in findings if f.code == code]


def text_at(files: Mapping[str, str], f: Finding) -> str:
    assert f.span is not None
    return files[f.path][f.span.start : f.span.end]


def apply(text: str, edits: Iterable[TextEdit]) -> str:
    for e in sorted(edits, key=lambda e: e.span.start, reverse=True):
        text = text[: e.span.start] + e.new_text + text[e.span.end :]
    return text


def test_a_clean_declaration_has_no_findings() -> None:
    files = {
        f"{FEATURE}/spec.md": spec([action("summarize", ["ollama-local"])]),
        "cost-ledger.json": ledger(STANDARD_LEDGER),
    }
    assert run(files) == []


def test_unknown_provider_identity_points_at_the_provider_in_the_chain() -> None:
    files = {
        f"{FEATURE}/spec.md": spec([action("summarize", ["ollama-local", "acme-cloud"])]),
        "cost-ledger.json": ledger(STANDARD_LEDGER),
    }
    [f] = only(run(files), "UNKNOWN_PROVIDER_IDENTITY")
    assert text_at(files, f) == '"acme-cloud"'
    assert f.path == f"{FEATURE}/spec.md"
    assert f.message.startswith('Provider "acme-cloud" is not registered in provider registry (action "summarize").')
    # The fix registers it in the ledger as UNKNOWN (fail-closed), never guessing a cost.
    [fix] = f.fixes
    fixed = json.loads(apply(files["cost-ledger.json"], fix.edits))
    assert fixed["providers"]["acme-cloud"]["type"] == "COMMERCIAL"
    assert fixed["providers"]["acme-cloud"]["capabilities"]["inference.generate_text"]["cost_state"] == "UNKNOWN"


def test_a_non_canonical_provider_id_is_unknown_and_gets_no_fix() -> None:
    files = {
        f"{FEATURE}/spec.md": spec([action("summarize", ["Acme Cloud!"])]),
        "cost-ledger.json": ledger(STANDARD_LEDGER),
    }
    [f] = only(run(files), "UNKNOWN_PROVIDER_IDENTITY")
    assert "not a canonical provider id" in f.message
    assert f.fixes == ()


def test_invalid_provider_ids_in_a_ledger_are_reported_on_the_key() -> None:
    providers = dict(STANDARD_LEDGER)
    providers["Bad_Id"] = {"type": "LOCAL", "pricing_model": "NONE", "capabilities": {}}
    files = {f"{FEATURE}/spec.md": spec([action("summarize", ["ollama-local"])]), "cost-ledger.json": ledger(providers)}
    [f] = only(run(files), "UNKNOWN_PROVIDER_IDENTITY")
    assert f.path == "cost-ledger.json"
    assert text_at(files, f) == '"Bad_Id"'
    assert f.message.startswith('Invalid provider ID format: "Bad_Id"')


def test_provider_capability_undeclared_with_add_ledger_entry_fix() -> None:
    files = {
        f"{FEATURE}/spec.md": spec([action("embed-docs", ["ollama-local"], "inference.embed")]),
        "cost-ledger.json": ledger(STANDARD_LEDGER),
    }
    findings = run(files)
    [f] = only(findings, "PROVIDER_CAPABILITY_UNDECLARED")
    assert text_at(files, f) == '"ollama-local"'
    assert only(findings, "UNKNOWN_COST_CLASSIFICATION") == []  # one finding per provider, the first failing gate
    [fix] = f.fixes
    assert fix.title.startswith('Add ledger entry for "ollama-local" / "inference.embed"')
    after = dict(files)
    after["cost-ledger.json"] = apply(files["cost-ledger.json"], fix.edits)
    # Applying the fix declares the capability, still UNKNOWN: now the cost gate speaks.
    codes = {x.code for x in run(after)}
    assert "PROVIDER_CAPABILITY_UNDECLARED" not in codes
    assert "UNKNOWN_COST_CLASSIFICATION" in codes


def test_provider_capability_unsupported_when_the_adapter_lacks_it() -> None:
    caps = [
        {
            "provider_id": "gemini-cloud",
            "type": "COMMERCIAL",
            "capabilities": ["inference.embed"],
            "adapter": "GeminiAdapter",
        }
    ]
    files = {
        f"{FEATURE}/spec.md": spec([action("summarize", ["gemini-cloud"])], caps),
        "cost-ledger.json": ledger(STANDARD_LEDGER),
    }
    [f] = only(run(files), "PROVIDER_CAPABILITY_UNSUPPORTED")
    assert text_at(files, f) == '"gemini-cloud"'
    assert f.span is not None and f.span.start < files[f.path].index("gemstack-capabilities")
    assert 'Adapter "GeminiAdapter"' in f.message
    assert f.related and f.related[0].path == f"{FEATURE}/spec.md"


def test_unknown_cost_classification_for_a_missing_entry_creates_the_feature_ledger() -> None:
    caps = [{"provider_id": "acme-cloud", "type": "COMMERCIAL", "capabilities": ["inference.generate_text"]}]
    files = {f"{FEATURE}/spec.md": spec([action("summarize", ["acme-cloud"])], caps)}
    [f] = only(run(files), "UNKNOWN_COST_CLASSIFICATION")
    assert text_at(files, f) == '"acme-cloud"'
    assert "UNKNOWN cost classification" in f.message
    [fix] = f.fixes
    [edit] = fix.edits
    assert edit.path == f"{FEATURE}/cost-ledger.json"
    created = json.loads(edit.new_text)
    assert created["providers"]["acme-cloud"]["capabilities"]["inference.generate_text"]["cost_state"] == "UNKNOWN"


def test_unknown_cost_classification_for_an_unknown_entry_links_the_ledger_value() -> None:
    providers = dict(STANDARD_LEDGER)
    providers["acme-cloud"] = {
        "type": "COMMERCIAL",
        "pricing_model": "PER_REQUEST",
        "capabilities": {"inference.generate_text": entry("UNKNOWN")},
    }
    files = {f"{FEATURE}/spec.md": spec([action("summarize", ["acme-cloud"])]), "cost-ledger.json": ledger(providers)}
    [f] = only(run(files), "UNKNOWN_COST_CLASSIFICATION")
    assert "classifies" in f.message and f.fixes == ()
    [rel] = f.related
    assert rel.path == "cost-ledger.json"
    assert rel.span is not None and files["cost-ledger.json"][rel.span.start : rel.span.end] == '"UNKNOWN"'


def test_provider_fallback_to_billable_warns_on_the_billable_fallback() -> None:
    files = {
        f"{FEATURE}/spec.md": spec([action("summarize", ["ollama-local", "gemini-cloud"])]),
        "cost-ledger.json": ledger(STANDARD_LEDGER),
    }
    [f] = run(files)
    assert f.code == "PROVIDER_FALLBACK_TO_BILLABLE"
    assert f.effective_severity.lsp_name == "warning"
    assert text_at(files, f) == '"gemini-cloud"'
    # Billable first, free after: not a fallback *to* billable.
    files[f"{FEATURE}/spec.md"] = spec([action("summarize", ["gemini-cloud", "ollama-local"])])
    assert run(files) == []


def test_mock_provider_escape_violation_points_at_the_url() -> None:
    providers = dict(STANDARD_LEDGER)
    providers["mock-local"] = {
        "type": "MOCK",
        "pricing_model": "NONE",
        "url": "https://api.openai.com/v1",
        "capabilities": {"inference.generate_text": entry("FREE", 0)},
    }
    files = {f"{FEATURE}/spec.md": spec([action("summarize", ["mock-local"])]), "cost-ledger.json": ledger(providers)}
    [f] = only(run(files), "MOCK_PROVIDER_ESCAPE_VIOLATION")
    assert f.path == "cost-ledger.json"
    assert text_at(files, f) == '"https://api.openai.com/v1"'


def test_mock_escape_in_a_capabilities_block() -> None:
    caps = [
        {
            "provider_id": "mock-local",
            "type": "MOCK",
            "capabilities": ["inference.generate_text"],
            "host": "localhost:8080",
        },
        {"provider_id": "mock-b", "type": "MOCK", "capabilities": ["inference.generate_text"], "endpoint": "api.x.io"},
    ]
    files = {
        f"{FEATURE}/spec.md": spec([action("summarize", ["mock-local"])], caps),
        "cost-ledger.json": ledger(STANDARD_LEDGER),
    }
    [f] = only(run(files), "MOCK_PROVIDER_ESCAPE_VIOLATION")
    assert text_at(files, f) == '"api.x.io"'


def test_undeclared_billable_action_in_plan_and_tasks_points_at_the_id() -> None:
    plan = "# Plan\n\n" + block(
        "gemstack-billable-actions", [action("summarize", ["mock-local"]), action("translate", ["mock-local"])]
    )
    tasks = (
        "# Tasks\n\n- [ ] **T001: Summaries**\n  <!-- gemstack:validation_required=false -->\n"
        "  <!-- gemstack:actions=summarize, publish-report -->\n"
    )
    files = {
        f"{FEATURE}/spec.md": spec([action("summarize", ["ollama-local"])]),
        f"{FEATURE}/plan.md": plan,
        f"{FEATURE}/tasks.md": tasks,
        "cost-ledger.json": ledger(STANDARD_LEDGER),
    }
    found = only(run(files), "UNDECLARED_BILLABLE_ACTION")
    assert sorted((f.path, text_at(files, f)) for f in found) == [
        (f"{FEATURE}/plan.md", '"translate"'),
        (f"{FEATURE}/tasks.md", "publish-report"),
    ]


def test_plan_binding_replaces_the_spec_chain() -> None:
    plan = "# Plan\n\n" + block("gemstack-billable-actions", [action("summarize", ["acme-cloud"])])
    files = {
        f"{FEATURE}/spec.md": spec([action("summarize", ["ollama-local"])]),
        f"{FEATURE}/plan.md": plan,
        "cost-ledger.json": ledger(STANDARD_LEDGER),
    }
    [f] = run(files)
    assert (f.code, f.path, text_at(files, f)) == ("UNKNOWN_PROVIDER_IDENTITY", f"{FEATURE}/plan.md", '"acme-cloud"')


def test_ledger_findings_land_on_every_ledger_file() -> None:
    feature_ledger = ledger(
        {"ollama-local": {"type": "LOCAL", "pricing_model": "NONE", "capabilities": {"inference.generate_text": {}}}}
    )
    stale = dict(STANDARD_LEDGER)
    stale["mock-local"] = {
        "type": "MOCK",
        "pricing_model": "NONE",
        "capabilities": {"inference.generate_text": entry("FREE", 0, "2026-01-01")},
    }
    files = {
        f"{FEATURE}/spec.md": spec([action("summarize", ["mock-local"])]),
        f"{FEATURE}/cost-ledger.json": feature_ledger,
        ".gemstack/cost-ledger.json": ledger(stale),
    }
    findings = run(files)
    invalid = only(findings, "COST_LEDGER_INVALID")
    assert {f.path for f in invalid} == {f"{FEATURE}/cost-ledger.json"}
    assert len(invalid) == 2  # cost_state and estimated_unit_cost, both reported
    [stale_finding] = only(findings, "STALE_PROVIDER_COST_ASSUMPTION")
    assert stale_finding.path == ".gemstack/cost-ledger.json"
    assert text_at(files, stale_finding) == '"2026-01-01"'
    # The feature's ledger is the effective one and it is invalid: no cost-classification noise on top.
    assert only(findings, "UNKNOWN_COST_CLASSIFICATION") == []


def test_provider_declaration_conflict_between_ledger_and_block() -> None:
    caps = [{"provider_id": "ollama-local", "type": "COMMERCIAL", "capabilities": ["inference.generate_text"]}]
    files = {
        f"{FEATURE}/spec.md": spec([action("summarize", ["ollama-local"])], caps),
        "cost-ledger.json": ledger(STANDARD_LEDGER),
    }
    [f] = only(run(files), "PROVIDER_DECLARATION_CONFLICT")
    assert f.path == f"{FEATURE}/spec.md"
    assert text_at(files, f) == '"COMMERCIAL"'
    assert f.related[0].path == "cost-ledger.json"


def test_provider_registry_invalid_for_a_malformed_providers_json() -> None:
    files = {
        f"{FEATURE}/spec.md": spec([action("summarize", ["ollama-local"])]),
        "cost-ledger.json": ledger(STANDARD_LEDGER),
        ".gemstack/providers.json": '{"providers": {"x": {"capabilities": 5}}}',
    }
    [f] = only(run(files), "PROVIDER_REGISTRY_INVALID")
    assert text_at(files, f) == "5"
    files[".gemstack/providers.json"] = '{"providers": '
    [g] = only(run(files), "PROVIDER_REGISTRY_INVALID")
    assert g.message.startswith("Provider registry malformed JSON syntax")


def test_providers_json_registers_providers_and_adapters() -> None:
    files = {
        f"{FEATURE}/spec.md": spec([action("summarize", ["team-proxy"])]),
        ".gemstack/providers.json": json.dumps(
            {"providers": {"team-proxy": {"type": "local", "capabilities": ["inference.generate_text"]}}}
        ),
    }
    # Registered (type upper-cased), but no ledger classifies it: UNKNOWN, never FREE.
    [f] = run(files)
    assert f.code == "UNKNOWN_COST_CLASSIFICATION"


def test_legacy_repository_gets_only_the_informational_notice() -> None:
    files = {f"{FEATURE}/spec.md": "# Spec\n\nNo providers here.\n", ".gemstack/state.json": "{}"}
    [f] = run(files)
    assert f.code == "LEGACY_NO_PROVIDERS_DECLARED"
    assert f.effective_severity.lsp_name == "information"
    assert f.path == ".gemstack/state.json"


def test_cost_findings_reach_the_shared_analysis() -> None:
    files = {
        f"{FEATURE}/spec.md": spec([action("summarize", ["acme-cloud"])]),
        "cost-ledger.json": ledger(STANDARD_LEDGER),
    }
    codes = {f.code for f in analyze(make_repo(files), OPTIONS)}
    assert "UNKNOWN_PROVIDER_IDENTITY" in codes


def test_reference_fixture_reports_only_the_stale_assumptions(reference_repo: Any) -> None:
    from gemstack_lsp.fs import DiskReader

    repo = GemstackRepo(str(reference_repo), DiskReader(reference_repo))
    findings = list(check_repo(repo, OPTIONS))
    assert sorted((f.code, f.path) for f in findings) == [
        ("STALE_PROVIDER_COST_ASSUMPTION", "cost-ledger.json"),
        ("STALE_PROVIDER_COST_ASSUMPTION", "specs/008-cost-provider-safety-gates/cost-ledger.json"),
    ]


def test_preview_action_gives_a_decision_per_tier() -> None:
    files = {
        f"{FEATURE}/spec.md": spec([action("summarize", ["mock-local", "gemini-cloud"])]),
        "cost-ledger.json": ledger(STANDARD_LEDGER),
    }
    repo = make_repo(files)
    preview = preview_action(repo, "summarize", options=OPTIONS)
    assert {t: d.reason_code for t, d in preview.items()} == {
        "test": "ACTION_AUTHORIZED_FREE",
        "ci": "ACTION_AUTHORIZED_FREE",
        "development": "ACTION_AUTHORIZED_FREE",
        "staging": "ACTION_AUTHORIZED_FREE",
        "production": "ACTION_AUTHORIZED_FREE",
    }
    files[f"{FEATURE}/spec.md"] = spec([action("summarize", ["gemini-cloud"])])
    preview = preview_action(make_repo(files), "summarize", options=OPTIONS)
    assert {t: d.reason_code for t, d in preview.items()} == {
        "test": "ENV_COMMERCIAL_DENIED",
        "ci": "ENV_COMMERCIAL_DENIED",
        "development": "BILLABLE_ACTION_UNAUTHORIZED",
        "staging": "BILLABLE_ACTION_UNAUTHORIZED",
        "production": "BILLABLE_ACTION_UNAUTHORIZED",
    }
    only_dev = preview_action(make_repo(files), "summarize", "development", allow_billable=True, options=OPTIONS)
    assert list(only_dev) == ["development"]
    assert only_dev["development"].reason_code == "ACTION_AUTHORIZED"
    undeclared = preview_action(make_repo(files), "nope", "test", options=OPTIONS)
    assert undeclared["test"].reason_code == "UNDECLARED_BILLABLE_ACTION"


def test_a_ledger_with_a_byte_order_mark_is_invalid() -> None:
    files: dict[str, str | bytes] = {
        f"{FEATURE}/spec.md": spec([action("summarize", ["ollama-local"])]),
        "cost-ledger.json": b"\xef\xbb\xbf" + ledger(STANDARD_LEDGER).encode("utf-8"),
    }
    repo = GemstackRepo("/repo", MemoryReader(files))
    [f] = [x for x in check_repo(repo, OPTIONS) if x.code == "COST_LEDGER_INVALID"]
    assert "byte-order mark" in f.message


def test_repository_wide_declarations_are_checked_without_features() -> None:
    providers = {
        "mock-remote": {
            "type": "MOCK",
            "pricing_model": "NONE",
            "endpoint": "https://api.example.com",
            "capabilities": {"inference.generate_text": entry("FREE", 0)},
        },
        "Not A Slug": {"type": "LOCAL", "pricing_model": "NONE", "capabilities": {}},
    }
    files = {"cost-ledger.json": ledger(providers)}
    assert sorted(f.code for f in run(files)) == ["MOCK_PROVIDER_ESCAPE_VIOLATION", "UNKNOWN_PROVIDER_IDENTITY"]


def test_tasks_invoking_actions_are_not_legacy() -> None:
    tasks = (
        "# Tasks\n\n- [ ] **T001: Go**\n  <!-- gemstack:validation_required=false -->\n"
        "  <!-- gemstack:actions=ship -->\n"
    )
    files = {f"{FEATURE}/spec.md": "# Spec\n", f"{FEATURE}/tasks.md": tasks}
    [f] = run(files)
    assert (f.code, text_at(files, f)) == ("UNDECLARED_BILLABLE_ACTION", "ship")


def test_two_capability_blocks_disagreeing_on_a_provider_conflict() -> None:
    caps = [{"provider_id": "ollama-local", "type": "LOCAL", "capabilities": ["inference.generate_text"]}]
    plan_caps = [
        {
            "provider_id": "ollama-local",
            "type": "LOCAL",
            "capabilities": ["inference.generate_text", "inference.embed"],
            "adapter": "OllamaAdapter",
        }
    ]
    files = {
        f"{FEATURE}/spec.md": spec([action("summarize", ["ollama-local"])], caps),
        f"{FEATURE}/plan.md": "# Plan\n\n" + block("gemstack-capabilities", plan_caps),
        "cost-ledger.json": ledger(STANDARD_LEDGER),
    }
    [f] = only(run(files), "PROVIDER_DECLARATION_CONFLICT")
    assert f.path == f"{FEATURE}/plan.md"
    assert text_at(files, f) == '"ollama-local"'
    assert "capabilities and adapter" in f.message
