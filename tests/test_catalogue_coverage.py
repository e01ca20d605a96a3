"""Every code of the catalogue is produced by some analysis: one minimal case (or more) per code.

Most codes are findings of ``analyze`` on a small repository; the environment-dependent gate
verdicts come from the gates (what ``gate evaluate`` and the hovers show), and
``CONTEXT_CAPSULE_LEGACY`` from ``context verify``. ``test_every_code_has_a_case`` keeps the
table and the catalogue in step: a code nothing produces must leave the catalogue.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.cli import main
from gemstack_lsp.core.cost.gates import (
    ActionRequest,
    CapabilityRequest,
    GatePolicy,
    SpendingAuthorization,
    evaluate_billable_action,
    evaluate_chain,
    evaluate_provider_capability,
)
from gemstack_lsp.core.cost.ledger import load_ledger
from gemstack_lsp.core.cost.registry import build_registry, declarations_from_map, providers_object
from gemstack_lsp.core.findings import CATALOGUE
from gemstack_lsp.core.jsonspan import parse_json
from gemstack_lsp.core.reader import FileContent, MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from tests.conftest import REFERENCE_OUTPUT, REFERENCE_REPO
from tests.verify_catalogue_cases import CASES as VERIFY_CASES

Files = Mapping[str, str | bytes | None]

F9 = "specs/009-context-capsule"
NOW = dt.datetime(2026, 12, 2, tzinfo=dt.UTC)
CAPSULE_009: dict[str, Any] = json.loads((REFERENCE_OUTPUT / "specs-009-context-capsule.json").read_text("utf-8"))


def _fixture_files() -> dict[str, bytes]:
    return {str(p.relative_to(REFERENCE_REPO)): p.read_bytes() for p in REFERENCE_REPO.rglob("*") if p.is_file()}


FIXTURE = _fixture_files()


def analysed(files: Files, *, fixture: bool = False) -> set[str]:
    """The codes ``analyze`` reports on the fixture (or an empty repository) with ``files`` applied."""
    merged: dict[str, str | bytes] = dict(FIXTURE) if fixture else {}
    for path, content in files.items():
        if content is None:
            merged.pop(path, None)
        else:
            merged[path] = content
    return {f.code for f in analyze(GemstackRepo("/repo", MemoryReader(merged)))}


def block(kind: str, value: Any) -> str:
    return f"```{kind}\n{json.dumps(value, indent=2)}\n```\n"


def capsule(change: Callable[[dict[str, Any]], Any] | None = None) -> str:
    data = json.loads(json.dumps(CAPSULE_009))
    if change is not None:
        change(data)
    return json.dumps(data, indent=2) + "\n"


CONTRACT = {"id": "c", "type": "BOOLEAN_INVARIANT", "value": True}
ENTRY = {
    "id": "TEST-A-A01",
    "category": "C",
    "layer": "UNIT",
    "description": "d",
    "pass_criteria": "p",
    "gate": "REQUIRED",
}
SPEC_WITH_CONTRACT = "# Spec\n\n" + block("gemstack-contracts", [CONTRACT])
STATE_ACTIVE_A = json.dumps({"active_spec": "specs/a"})


def action(aid: str, providers: list[str], capability: str = "inference.generate_text") -> dict[str, Any]:
    return {
        "id": aid,
        "description": "d",
        "category": "DEFINITELY_BILLABLE",
        "capability_id": capability,
        "providers": providers,
    }


def ledger(providers: dict[str, Any]) -> str:
    return json.dumps({"version": 1, "currency": "USD", "providers": providers}, indent=2)


def priced(state: str, fresh: str = "2999-01-01") -> dict[str, Any]:
    return {"cost_state": state, "estimated_unit_cost": 0.5, "assumption_source": "list", "freshness_date": fresh}


GATE_LEDGER = {
    "gemini-cloud": {
        "type": "COMMERCIAL",
        "pricing_model": "PER_REQUEST",
        "capabilities": {"inference.generate_text": priced("BILLABLE")},
    },
    "mock-local": {
        "type": "MOCK",
        "pricing_model": "NONE",
        "capabilities": {"inference.generate_text": priced("FREE")},
    },
    "ollama-local": {
        "type": "LOCAL",
        "pricing_model": "NONE",
        "capabilities": {"inference.generate_text": priced("FREE")},
    },
}


def gate_codes() -> set[str]:
    """The reason codes of the gates over a small ledger, in every situation that denies."""
    result = load_ledger("cost-ledger.json", ledger(GATE_LEDGER), now=NOW)
    assert result.ledger is not None
    providers = providers_object(parse_json(ledger(GATE_LEDGER)).value)
    assert providers is not None
    registry = build_registry(declarations_from_map(providers, "cost-ledger.json", "ledger"))
    cap = "inference.generate_text"
    codes = set()
    for tier in ("test", "development"):
        request = ActionRequest("summarize", "gemini-cloud", cap, tier)
        codes.add(evaluate_billable_action(request, result.ledger).reason_code)
    budget = SpendingAuthorization(granted=True, max_budget_units=0.1)
    request = ActionRequest("summarize", "gemini-cloud", cap, "production", 1, budget)
    codes.add(evaluate_billable_action(request, result.ledger).reason_code)
    chain = evaluate_chain(
        "summarize",
        ["mock-local", "gemini-cloud"],
        cap,
        registry,
        result.ledger,
        GatePolicy(),
        environment="development",
        failed=frozenset({"mock-local"}),
    )
    codes.add(chain.decision.reason_code)
    codes.add(evaluate_provider_capability(CapabilityRequest("ollama-local", cap, "ci"), registry).reason_code)
    return codes


def context_verify_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> set[str]:
    """The code ``context verify --json`` reports for a feature that has no capsule and needs none."""
    root = tmp_path / "repo"
    (root / "specs" / "a").mkdir(parents=True)
    (root / "specs" / "a" / "spec.md").write_text("# A\n", "utf-8")
    capsys.readouterr()
    main(["context", "verify", "--json", "--target", str(root), "--feature", "specs/a"])
    out = json.loads(capsys.readouterr().out)
    return {f["code"] for f in out.get("findings", [])} | ({out["code"]} if "code" in out else set())


# (code, case): each case gives the codes it produces.
Case = Callable[[Path, pytest.CaptureFixture[str]], set[str]]


def fx(files: Files) -> Case:
    return lambda _tmp, _capsys: analysed(files, fixture=True)


def mini(files: Files) -> Case:
    return lambda _tmp, _capsys: analysed(files)


def _drop_invariant(c: dict[str, Any]) -> None:
    c["canonical_invariants"] = c["canonical_invariants"][1:]


def _mutate_contract(c: dict[str, Any]) -> None:
    c["frozen_contracts"][0]["type"] = "ENUM_SET"


MATRIX_SPEC = "# Spec\n\n" + block("gemstack-test-matrix", [ENTRY])
CLOSURE_BASE = {"specs/a/spec.md": MATRIX_SPEC, ".gemstack/state.json": STATE_ACTIVE_A}
STALE_CLOSURE = json.dumps(
    {
        "schema": "gemstack-closure",
        "version": 1,
        "status": "VERIFIED",
        "closure_context": {"closure_context_hash": "0" * 64},
    }
)

#: The adapter declared with the provider implements generate_text; the ledger adds another capability.
UNSUPPORTED: Files = {
    "specs/a/spec.md": block("gemstack-billable-actions", [action("go", ["gemini-cloud"], "inference.other")])
    + block(
        "gemstack-capabilities",
        [
            {
                "provider_id": "gemini-cloud",
                "type": "COMMERCIAL",
                "capabilities": ["inference.generate_text"],
                "adapter": "A",
            }
        ],
    ),
    "cost-ledger.json": ledger(
        {
            "gemini-cloud": {
                "type": "COMMERCIAL",
                "pricing_model": "PER_REQUEST",
                "capabilities": {"inference.generate_text": priced("BILLABLE"), "inference.other": priced("BILLABLE")},
            }
        }
    ),
}

CASES: list[tuple[str, Case]] = [
    # Context capsule: the reference's capsule of 009, mutated.
    ("CONTEXT_CAPSULE_MISSING", fx({})),
    ("CONTEXT_CAPSULE_INVALID", fx({f"{F9}/context-capsule.json": "{"})),
    ("CONTEXT_CAPSULE_STALE", fx({f"{F9}/context-capsule.json": capsule(), f"{F9}/plan.md": "# changed\n"})),
    ("CONTEXT_CAPSULE_SOURCE_MISMATCH", fx({f"{F9}/context-capsule.json": capsule(), f"{F9}/plan.md": None})),
    (
        "CONTEXT_CAPSULE_SECRET_DETECTED",
        fx({f"{F9}/context-capsule.json": capsule(lambda c: c.update(password="hunter2"))}),
    ),
    ("CONTEXT_CAPSULE_INVARIANT_DROPPED", fx({f"{F9}/context-capsule.json": capsule(_drop_invariant)})),
    (
        "CONTEXT_CAPSULE_TOO_LARGE",
        fx({f"{F9}/context-capsule.json": capsule(lambda c: c["project"].update(name="x" * 70000))}),
    ),
    ("CONTEXT_CAPSULE_AUTHORITY_CONFLICT", fx({f"{F9}/context-capsule.json": capsule(_mutate_contract)})),
    ("CONTEXT_CAPSULE_LEGACY", context_verify_codes),
    # Cost and provider safety.
    (
        "UNDECLARED_BILLABLE_ACTION",
        mini(
            {
                "specs/a/spec.md": "# A\n",
                "specs/a/tasks.md": "- [ ] **T1: x**\n  <!-- gemstack:validation_required=false -->\n"
                "  <!-- gemstack:actions=nope -->\n",
            }
        ),
    ),
    (
        "UNKNOWN_COST_CLASSIFICATION",
        mini(
            {
                "specs/a/spec.md": block("gemstack-billable-actions", [action("go", ["mock-local"])])
                + block(
                    "gemstack-capabilities",
                    [{"provider_id": "mock-local", "type": "MOCK", "capabilities": ["inference.generate_text"]}],
                ),
            }
        ),
    ),
    (
        "UNKNOWN_PROVIDER_IDENTITY",
        mini({"specs/a/spec.md": block("gemstack-billable-actions", [action("go", ["nobody"])])}),
    ),
    (
        "PROVIDER_CAPABILITY_UNDECLARED",
        mini(
            {
                "specs/a/spec.md": block(
                    "gemstack-billable-actions", [action("go", ["mock-local"], "inference.other")]
                ),
                "cost-ledger.json": ledger({"mock-local": GATE_LEDGER["mock-local"]}),
            }
        ),
    ),
    ("PROVIDER_CAPABILITY_UNSUPPORTED", mini(UNSUPPORTED)),
    (
        "STALE_PROVIDER_COST_ASSUMPTION",
        mini(
            {
                "specs/a/spec.md": "# A\n",
                "cost-ledger.json": ledger(
                    {
                        "gemini-cloud": {
                            "type": "COMMERCIAL",
                            "pricing_model": "PER_REQUEST",
                            "capabilities": {"inference.generate_text": priced("BILLABLE", "2000-01-01")},
                        }
                    }
                ),
            }
        ),
    ),
    (
        "MOCK_PROVIDER_ESCAPE_VIOLATION",
        mini(
            {
                "specs/a/spec.md": "# A\n",
                "cost-ledger.json": ledger(
                    {
                        "mock-local": {
                            "type": "MOCK",
                            "pricing_model": "NONE",
                            "url": "https://api.example.com",
                            "capabilities": {"inference.generate_text": priced("FREE")},
                        }
                    }
                ),
            }
        ),
    ),
    ("COST_LEDGER_INVALID", mini({"specs/a/spec.md": "# A\n", "cost-ledger.json": "{"})),
    # A Gemstack repository (it has .gemstack/) that declares no cost source; a bare spec.md is no
    # Gemstack repository and gets nothing (core/identity.py).
    ("LEGACY_NO_PROVIDERS_DECLARED", mini({"specs/a/spec.md": "# A\n", ".gemstack/state.json": "{}"})),
    (
        "PROVIDER_FALLBACK_TO_BILLABLE",
        mini(
            {
                "specs/a/spec.md": block("gemstack-billable-actions", [action("go", ["mock-local", "gemini-cloud"])]),
                "cost-ledger.json": ledger(GATE_LEDGER),
            }
        ),
    ),
    (
        "PROVIDER_DECLARATION_CONFLICT",
        mini(
            {
                "specs/a/spec.md": block(
                    "gemstack-capabilities",
                    [
                        {
                            "provider_id": "mock-local",
                            "type": "COMMERCIAL",
                            "capabilities": ["inference.generate_text"],
                        }
                    ],
                ),
                "cost-ledger.json": ledger({"mock-local": GATE_LEDGER["mock-local"]}),
            }
        ),
    ),
    ("BILLABLE_ACTIONS_INVALID", mini({"specs/a/spec.md": block("gemstack-billable-actions", {})})),
    ("CAPABILITIES_INVALID", mini({"specs/a/spec.md": block("gemstack-capabilities", {})})),
    ("PROVIDER_REGISTRY_INVALID", mini({"specs/a/spec.md": "# A\n", ".gemstack/providers.json": "{"})),
    # Gate verdicts (gate evaluate, hover, code lens).
    ("BILLABLE_ACTION_UNAUTHORIZED", lambda _t, _c: gate_codes()),
    ("ENV_COMMERCIAL_DENIED", lambda _t, _c: gate_codes()),
    ("BUDGET_THRESHOLD_EXCEEDED", lambda _t, _c: gate_codes()),
    ("PROVIDER_FALLBACK_UNAUTHORIZED", lambda _t, _c: gate_codes()),
    ("PROVIDER_DISALLOWED_IN_ENV", lambda _t, _c: gate_codes()),
    # Contracts, matrix, bindings, gates, tasks.
    ("CONTRACT_PARSE_ERROR", mini({"specs/a/spec.md": "```gemstack-contracts\n[\n```\n"})),
    ("CONTRACT_INVALID_SHAPE", mini({"specs/a/spec.md": block("gemstack-contracts", [1])})),
    ("CONTRACT_DUPLICATE_ID", mini({"specs/a/spec.md": block("gemstack-contracts", [CONTRACT, CONTRACT])})),
    ("CONTRACT_UNKNOWN_TYPE", mini({"specs/a/spec.md": block("gemstack-contracts", [{"id": "c", "type": "X"}])})),
    (
        "FROZEN_CONTRACT_VIOLATION",
        mini(
            {
                "specs/a/spec.md": SPEC_WITH_CONTRACT,
                "specs/a/plan.md": block("gemstack-inherited-contracts", [{**CONTRACT, "value": False}]),
            }
        ),
    ),
    (
        "FROZEN_ARTIFACT_CHANGED",
        mini(
            {
                "specs/a/spec.md": SPEC_WITH_CONTRACT,
                ".gemstack/state.json": json.dumps({"active_spec": "specs/a", "phase_hashes": {"spec": "0" * 64}}),
            }
        ),
    ),
    ("TEST_MATRIX_PARSE_ERROR", mini({"specs/a/spec.md": "```gemstack-test-matrix\n[\n```\n"})),
    ("TEST_MATRIX_INVALID_SHAPE", mini({"specs/a/spec.md": block("gemstack-test-matrix", [{"id": "x"}])})),
    ("TEST_MATRIX_DUPLICATE_ID", mini({"specs/a/spec.md": block("gemstack-test-matrix", [ENTRY, ENTRY])})),
    (
        "BINDINGS_PARSE_ERROR",
        mini({"specs/a/spec.md": "# A\n", "specs/a/plan.md": block("gemstack-test-bindings", [{}])}),
    ),
    (
        "DUPLICATE_TEST_BINDING",
        mini(
            {
                "specs/a/spec.md": "# A\n",
                "specs/a/plan.md": block(
                    "gemstack-test-bindings", [{"test_id": "T", "file": "a"}, {"test_id": "T", "file": "b"}]
                ),
            }
        ),
    ),
    ("GATES_PARSE_ERROR", mini({"specs/a/spec.md": "# A\n", "specs/a/plan.md": block("gemstack-closure-gates", [{}])})),
    ("TASK_VALIDATION_MISSING", mini({"specs/a/spec.md": "# A\n", "specs/a/tasks.md": "- [ ] **T1: x**\n"})),
    # Closure evidence.
    ("CLOSURE_MANIFEST_MISSING", mini(CLOSURE_BASE)),
    ("CLOSURE_MANIFEST_INVALID", mini({**CLOSURE_BASE, "specs/a/closure.json": "{"})),
    ("CLOSURE_EVIDENCE_STALE", mini({**CLOSURE_BASE, "specs/a/closure.json": STALE_CLOSURE})),
    ("CLOSURE_NOT_VERIFIED", lambda _t, _c: not_verified_codes()),
    (
        "CLOSURE_EVIDENCE_CONTRADICTED",
        mini(
            {
                **CLOSURE_BASE,
                "specs/a/tasks.md": "- [ ] **T1: x**\n  <!-- gemstack:validation_required=false -->\n",
                "specs/a/closure.json": STALE_CLOSURE,
            }
        ),
    ),
    # Documents and repository model.
    ("FENCE_UNSEEN_BY_REFERENCE", mini({"specs/a/spec.md": "  ```gemstack-contracts\n  []\n  ```\n"})),
    ("JSON_SYNTAX_ERROR", mini({"specs/a/spec.md": "# A\n", "package.json": "{,}"})),
    (
        "JSON_DUPLICATE_KEY",
        mini({"specs/a/spec.md": '```gemstack-contracts\n[{"id": "c", "id": "d", "type": "X"}]\n```\n'}),
    ),
    ("ARTIFACT_ENCODING_INVALID", mini({"specs/a/spec.md": b"\xef\xbb\xbf# A\n"})),
    ("ARTIFACT_UNREADABLE", mini({"specs/a/spec.md/x": "a directory where spec.md should be"})),
    ("STATE_INVALID", mini({"specs/a/spec.md": "# A\n", ".gemstack/state.json": "[]"})),
    (
        "STATE_ACTIVE_SPEC_MISSING",
        mini({"specs/a/spec.md": "# A\n", ".gemstack/state.json": json.dumps({"active_spec": "specs/b"})}),
    ),
    ("PATH_LOOKS_SECRET", mini({"specs/sk-abcdefghijklmnopqrstuvwxyz0123/spec.md": "# A\n"})),
    ("GEMSTACK_INTERNAL_ERROR", lambda _t, _c: internal_error_codes()),
    # --- Swarm manifests and visual QA (Gemstack 1.4+, verify stages 5.3 and 5.4) ---
    # (cases of area 'swarm' go below this line)
    ("SWARM_UNREADABLE", lambda _t, _c: _e().codes(_e().files(extra={"specs/a/swarm.json/x": "a directory"}))),
    ("SWARM_INVALID_SCHEMA", lambda _t, _c: _e().codes(_e().files("{"))),
    ("SWARM_AUTHORITY_CONFLICT", lambda _t, _c: _e().codes(_e().files(_e().swarm_manifest(overrides_spec=True)))),
    ("SWARM_WORKER_LIMIT_EXCEEDED", lambda _t, _c: _e().codes(_e().files(_e().swarm_manifest(max_workers=1)))),
    (
        "SWARM_RECURSIVE_SPAWN_DENIED",
        lambda _t, _c: _e().codes(
            _e().files(
                _e().edited(_e().swarm_manifest(), lambda m: m["waves"][0]["tasks"][0].update(spawned_children=["c"]))
            )
        ),
    ),
    (
        "SWARM_WRITE_COLLISION",
        lambda _t, _c: _e().codes(
            _e().files(
                _e().edited(_e().swarm_manifest(), lambda m: m["waves"][0]["tasks"][1].update(write_set=["src/one.js"]))
            )
        ),
    ),
    (
        "SWARM_ASSIGNMENT_INVALID",
        lambda _t, _c: _e().codes(
            _e().files(
                _e().edited(_e().swarm_manifest(), lambda m: m["waves"][0]["tasks"][0].update(assigned_role="boss"))
            )
        ),
    ),
    (
        "SWARM_SELF_REVIEW_DETECTED",
        lambda _t, _c: _e().codes(
            _e().files(
                _e().edited(
                    _e().swarm_manifest(),
                    lambda m: m["waves"][0]["tasks"][0].update(review={"reviewer_id": "worker-1"}),
                )
            )
        ),
    ),
    (
        "SWARM_TASK_ORPHANED",
        lambda _t, _c: _e().codes(
            _e().files(_e().edited(_e().swarm_manifest(), lambda m: m["waves"][0]["tasks"][0].update(task_id="T999")))
        ),
    ),
    (
        "SWARM_CONTEXT_STALE",
        lambda _t, _c: _e().codes(
            _e().files(_e().swarm_manifest(source_capsule_hash="0" * 64), extra={"specs/a/context-capsule.json": "{}"})
        ),
    ),
    (
        "SWARM_WRITE_SET_VIOLATION",
        lambda _t, _c: _e().codes(
            _e().files(
                _e().edited(_e().swarm_manifest(), lambda m: m["waves"][0]["tasks"][0].update(assigned_role="reviewer"))
            )
        ),
    ),
    (
        "VQA_UNREADABLE",
        lambda _t, _c: _e().codes(_e().files(vqa=None, extra={"specs/a/visual-qa.json/x": "a directory"})),
    ),
    ("VQA_INVALID_MANIFEST", lambda _t, _c: _e().codes(_e().files(vqa=_e().vqa_manifest(scenarios={})))),
    (
        "VQA_INVALID_VIEWPORT",
        lambda _t, _c: _e().codes(
            _e().files(vqa=_e().edited(_e().vqa_manifest(), lambda m: m["scenarios"][0]["viewport"].update(width=0)))
        ),
    ),
    (
        "VQA_BASELINE_MISSING",
        lambda _t, _c: _e().codes(
            _e().files(vqa=_e().edited(_e().vqa_manifest(), lambda m: m["scenarios"][0].pop("baseline")))
        ),
    ),
    (
        "VQA_BASELINE_TAMPERED",
        lambda _t, _c: _e().codes(_e().files(vqa=_e().vqa_manifest(), extra={_e().IMAGE: b"other"})),
    ),
    # --- Amendments, memory, manifest, .gitignore, package.json scripts, rigor, spec deltas (Gemstack 2.0 verify) ---
    # (cases of area 'verify' go below this line)
    *VERIFY_CASES,
    # --- Task formats and lifecycle headers the reference reads differently ---
    # (cases of area 'realrepo' go below this line)
    (
        "TASKS_UNREAD_BY_REFERENCE",
        mini({".gemstack/state.json": "{}", "specs/a/spec.md": "# A\n", "specs/a/tasks.md": "### [ ] T001 — a\n"}),
    ),
    (
        "TASKS_LIFECYCLE_CONTRADICTED",
        mini(
            {
                "specs/a/spec.md": "# A\n",
                "specs/a/tasks.md": "**Lifecycle Status**: `TASKS_COMPLETE`\n\n- [ ] **T1: a**\n"
                "  <!-- gemstack:validation_required=false -->\n",
            }
        ),
    ),
    # --- Configuration and suppressions ---
    # (cases of area 'config' go below this line)
    ("CONFIG_INVALID", mini({"specs/a/spec.md": "# A\n", ".gemstack/lsp.toml": "x = " + "[" * 500 + "]" * 500})),
    (
        "SUPPRESSION_INVALID",
        mini({"specs/a/spec.md": "# A\n<!-- gemstack-lsp-ignore CONTEXT_CAPSULE_STALE -->\nText.\n"}),
    ),
    ("SUPPRESSION_UNUSED", lambda _t, _c: unused_suppression_codes()),
]


def unused_suppression_codes() -> set[str]:
    """A comment with a reason that silences nothing, as `check` and the server report it (the
    policy applied where findings leave the analysis)."""
    from gemstack_lsp.core.policy import FindingPolicy, apply_policy

    files = {"specs/a/spec.md": "# A\n<!-- gemstack-lsp-ignore TASK_VALIDATION_MISSING no tasks here -->\nText.\n"}
    findings = analyze(GemstackRepo("/repo", MemoryReader(files)))
    return {f.code for f in apply_policy(findings, FindingPolicy()).visible}


def not_verified_codes() -> set[str]:
    """A fresh BLOCKED closure: the hash is this repository's own (no Git, plan, tasks or package.json)."""
    from gemstack_lsp.core.closure import compute_closure_context
    from gemstack_lsp.core.repo import Feature

    fresh = compute_closure_context(GemstackRepo("/repo", MemoryReader(dict(CLOSURE_BASE))), Feature("a")).hash
    closure = {"status": "BLOCKED", "closure_context": {"closure_context_hash": fresh}}
    return analysed({**CLOSURE_BASE, "specs/a/closure.json": json.dumps(closure)})


class _FailingReader(MemoryReader):
    """A reader that breaks on one file, as a bug in a check would."""

    def read(self, path: str) -> FileContent:
        if path == "package.json":
            raise RuntimeError("boom")
        return super().read(path)


def internal_error_codes() -> set[str]:
    """A check that raises becomes a GEMSTACK_INTERNAL_ERROR finding instead of a crash."""
    return {f.code for f in analyze(GemstackRepo("/repo", _FailingReader({"specs/a/spec.md": "# A\n"})))}


@pytest.mark.parametrize(("code", "case"), CASES, ids=[c for c, _ in CASES])
def test_the_code_is_produced(code: str, case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    produced = case(tmp_path, capsys)
    assert code in produced, sorted(produced)


def test_every_code_has_a_case() -> None:
    assert {c for c, _ in CASES} == set(CATALOGUE)


def _e() -> Any:
    """The swarm and visual QA test repositories (imported when a case runs)."""
    from tests.core import upstream_e_data

    return upstream_e_data
