"""The finding catalogue and the reference fingerprint formula."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gemstack_lsp.core.findings import CATALOGUE, Finding, Severity, code_info, fingerprint
from gemstack_lsp.core.jscompat import json_stringify

SEED_CODES = [
    # Upgrade D, section 28.
    "CONTEXT_CAPSULE_MISSING",
    "CONTEXT_CAPSULE_INVALID",
    "CONTEXT_CAPSULE_STALE",
    "CONTEXT_CAPSULE_SOURCE_MISMATCH",
    "CONTEXT_CAPSULE_SECRET_DETECTED",
    "CONTEXT_CAPSULE_INVARIANT_DROPPED",
    "CONTEXT_CAPSULE_TOO_LARGE",
    "CONTEXT_CAPSULE_AUTHORITY_CONFLICT",
    # Upgrade C, section 14.
    "UNDECLARED_BILLABLE_ACTION",
    "BILLABLE_ACTION_UNAUTHORIZED",
    "UNKNOWN_COST_CLASSIFICATION",
    "UNKNOWN_PROVIDER_IDENTITY",
    "PROVIDER_CAPABILITY_UNDECLARED",
    "PROVIDER_CAPABILITY_UNSUPPORTED",
    "ENV_COMMERCIAL_DENIED",
    "PROVIDER_FALLBACK_UNAUTHORIZED",
    "STALE_PROVIDER_COST_ASSUMPTION",
    "BUDGET_THRESHOLD_EXCEEDED",
    "MOCK_PROVIDER_ESCAPE_VIOLATION",
    "COST_LEDGER_INVALID",
    # Reference block and task codes.
    "CONTRACT_PARSE_ERROR",
    "CONTRACT_INVALID_SHAPE",
    "CONTRACT_DUPLICATE_ID",
    "CONTRACT_UNKNOWN_TYPE",
    "TEST_MATRIX_PARSE_ERROR",
    "TEST_MATRIX_INVALID_SHAPE",
    "TEST_MATRIX_DUPLICATE_ID",
    "BINDINGS_PARSE_ERROR",
    "DUPLICATE_TEST_BINDING",
    "GATES_PARSE_ERROR",
    "TASK_VALIDATION_MISSING",
]


@pytest.mark.parametrize("code", SEED_CODES)
def test_every_seed_code_is_catalogued(code: str) -> None:
    info = CATALOGUE[code]
    assert info.summary and info.explanation
    assert info.docs_url.endswith("#" + code.lower())


def test_only_stale_cost_assumption_is_waivable_in_upgrade_c() -> None:
    assert CATALOGUE["STALE_PROVIDER_COST_ASSUMPTION"].waivable
    assert CATALOGUE["STALE_PROVIDER_COST_ASSUMPTION"].severity is Severity.WARNING
    assert not CATALOGUE["COST_LEDGER_INVALID"].waivable


def test_codes_are_canonical_uppercase() -> None:
    for code in CATALOGUE:
        assert re.fullmatch(r"[A-Z][A-Z0-9_]+", code), code


def test_severity_words_are_lsp_names() -> None:
    assert [s.lsp_name for s in Severity] == ["error", "warning", "information", "hint"]


def test_fingerprints_match_the_reference_golden_vectors(golden: dict[str, Any]) -> None:
    cases = golden["finding_fingerprints"]
    assert cases
    for case in cases:
        inp = case["input"]
        got = fingerprint(inp.get("code"), inp.get("contractId"), inp.get("phase"), inp.get("location"))
        assert got == case["fingerprint"], inp


def test_finding_defaults_come_from_the_catalogue() -> None:
    f = Finding("STALE_PROVIDER_COST_ASSUMPTION", "old", "cost-ledger.json")
    assert f.effective_severity is Severity.WARNING
    assert re.fullmatch(r"[0-9a-f]{64}", f.fingerprint)
    assert code_info("NOT_A_CODE").code == "UNKNOWN_ERROR"


def test_packaged_finding_reference_is_current() -> None:
    from gemstack_lsp.core.findings import DOCS_PATH, render_catalogue_markdown

    assert DOCS_PATH.read_text("utf-8") == render_catalogue_markdown(), "run `make docs` after changing the catalogue"
    assert all(f"### {code}" in DOCS_PATH.read_text("utf-8") for code in CATALOGUE)


def test_fingerprint_of_a_lone_surrogate_is_the_references() -> None:
    # JSON.stringify escapes a lone surrogate (node v20:
    # sha256(JSON.stringify({code: "X", contractId: "a\ud800", phase: "p", location: "l"}))).
    assert fingerprint("X", "a\ud800", "p", "l") == "4363c18004b88ae72dfcb29e34f54ea7f155c2a70bb4710d8878fb5d1568ef6f"


@settings(max_examples=500, deadline=None)
@given(st.lists(st.none() | st.text(alphabet=st.characters(max_codepoint=0x7F), max_size=8), min_size=4, max_size=4))
def test_the_ascii_fingerprint_is_javascripts_json(values: list[str | None]) -> None:
    """An ASCII payload is written by Python's C encoder: the bytes JSON.stringify gives."""
    code, contract, phase, location = values
    payload = {
        "code": code or "UNKNOWN_ERROR",
        "contractId": contract,
        "phase": phase or "unknown",
        "location": location.replace("\\", "/") if location else None,
    }
    expected = hashlib.sha256(json_stringify(payload).encode("utf-8")).hexdigest()
    assert fingerprint.__wrapped__(code, contract, phase, location) == expected
