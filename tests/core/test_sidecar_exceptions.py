"""Upstream's sidecar accepted exceptions (``specs/<f>/.gemstack.json``) hide the finding they name.

The expectations re-implement upstream's formulas independently (lib/findings.js
``computeFindingFingerprint`` and ``computeContextHash``, lib/contracts.js
``resolvePhaseInheritance``/``normalizeContract``, commands/verify.js stage 4 at 1bcc799):
an exception applies when its ``fingerprint`` is the finding's and its ``contextHash`` is the
current context's; a changed context invalidates it; a missing or unparseable sidecar means none.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from gemstack_lsp.core.policy import FindingPolicy, apply_policy
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import Feature, GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.core.suppressions import accepted_exceptions, context_hash

SPEC_CONTRACTS = [
    {"id": "no-free-cost", "type": "BOOLEAN_INVARIANT", "value": True},
    {"id": "tiers", "type": "ENUM_SET", "values": [" b", "a "]},
]
PLAN_CONTRACTS = [
    {"id": "no-free-cost", "type": "BOOLEAN_INVARIANT", "value": False},
    {"id": "plan-only", "type": "ENUM_SET", "values": ["z", "y"]},
]
PHASES = {"spec": "a" * 64, "plan": "b" * 64}


def block(contracts: list[dict[str, Any]]) -> str:
    return "```gemstack-contracts\n" + json.dumps(contracts) + "\n```\n"


def js(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def expected_fingerprint() -> str:
    return sha(
        js(
            {
                "code": "FROZEN_CONTRACT_VIOLATION",
                "contractId": "no-free-cost",
                "phase": "plan",
                "location": "specs/a/plan.md",
            }
        )
    )


def expected_context(phases: dict[str, str]) -> str:
    def norm(c: dict[str, Any]) -> dict[str, Any]:
        out = dict(c)
        if out["type"] in ("ENUM_SET", "IDENTITY_TUPLE", "PROVENANCE_RULE"):
            out["values"] = sorted(v.strip() for v in out["values"])
        return out

    effective: dict[str, dict[str, Any]] = {}
    for c in [*SPEC_CONTRACTS, *PLAN_CONTRACTS]:
        effective.setdefault(c["id"], norm(c))
    return sha(
        js(
            {
                "upstreamAcceptedPhaseHash": phases.get("spec", ""),
                "currentComparedPhaseHash": phases.get("plan", ""),
                "normalizedContractRepresentation": js(list(effective.values())),
            }
        )
    )


def files(sidecar: Any, phases: dict[str, str] = PHASES) -> dict[str, str]:
    out = {
        "specs/a/spec.md": "# A\n\n" + block(SPEC_CONTRACTS),
        "specs/a/plan.md": "# A plan\n\n" + block(PLAN_CONTRACTS),
        ".gemstack/state.json": json.dumps({"active_spec": "specs/a", "phase_hashes": phases}),
    }
    if sidecar is not None:
        out["specs/a/.gemstack.json"] = sidecar if isinstance(sidecar, str) else json.dumps(sidecar)
    return out


def outcome(sidecar: Any, phases: dict[str, str] = PHASES) -> Any:
    repo = GemstackRepo("/repo", MemoryReader(files(sidecar, phases)))
    findings = [f for f in analyze(repo) if f.code == "FROZEN_CONTRACT_VIOLATION"]
    return apply_policy(findings, FindingPolicy(), accepted_exceptions(repo, Feature("a")))


def sidecar_with(context: str, reason: str | None = "Pricing is checked by finance") -> dict[str, Any]:
    entry: dict[str, Any] = {"fingerprint": expected_fingerprint(), "contextHash": context}
    if reason is not None:
        entry["reason"] = reason
    return {"phase_hashes": {}, "historical_findings": [], "accepted_exceptions": [entry]}


def test_the_context_hash_is_upstreams() -> None:
    repo = GemstackRepo("/repo", MemoryReader(files(None)))
    assert context_hash(repo, Feature("a")) == expected_context(PHASES)


def test_without_a_sidecar_the_violation_is_shown() -> None:
    found = outcome(None)
    assert [f.code for f in found.visible] == ["FROZEN_CONTRACT_VIOLATION"]
    assert found.visible[0].fingerprint == expected_fingerprint()


def test_an_accepted_exception_hides_the_finding_it_names_with_its_reason() -> None:
    found = outcome(sidecar_with(expected_context(PHASES)))
    assert found.visible == ()
    (hidden,) = found.hidden
    assert hidden.source == "accepted-exception"
    assert hidden.reason == "accepted exception in specs/a/.gemstack.json: Pricing is checked by finance"


def test_the_reason_defaults_as_upstreams() -> None:
    (hidden,) = outcome(sidecar_with(expected_context(PHASES), reason=None)).hidden
    assert hidden.reason.endswith(": Approved exception")


def test_a_changed_context_invalidates_the_exception() -> None:
    moved = {**PHASES, "plan": "c" * 64}
    found = outcome(sidecar_with(expected_context(PHASES)), moved)
    assert [f.code for f in found.visible] == ["FROZEN_CONTRACT_VIOLATION"]
    assert "no longer applies" in found.notes[expected_fingerprint()]


def test_an_unparseable_sidecar_means_no_exceptions() -> None:
    assert [f.code for f in outcome("{not json").visible] == ["FROZEN_CONTRACT_VIOLATION"]
    assert [f.code for f in outcome([1, 2]).visible] == ["FROZEN_CONTRACT_VIOLATION"]
    # JSON.parse refuses NaN and a BOM, as upstream's readSidecar then falls back to its defaults.
    nan = json.dumps(sidecar_with(expected_context(PHASES))).replace('"phase_hashes": {}', '"phase_hashes": NaN')
    assert [f.code for f in outcome(nan).visible] == ["FROZEN_CONTRACT_VIOLATION"]
    bom = "\ufeff" + json.dumps(sidecar_with(expected_context(PHASES)))
    assert [f.code for f in outcome(bom).visible] == ["FROZEN_CONTRACT_VIOLATION"]


def test_a_sidecar_change_is_a_dependency_of_the_feature() -> None:
    # The analysis reads the sidecar, so the editor re-publishes plan.md when it changes.
    from gemstack_lsp.host import AnalysisHost

    reader = MemoryReader(files(None))
    host = AnalysisHost("/repo", reader)
    snap = host.snapshot()
    snap.findings()
    assert "specs/a/.gemstack.json" in {d for u in host._units.values() for d in u.deps}
