"""cost-ledger.json: load order, secret audit, schema messages and spans, staleness, fixes."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.core.cost.ledger import add_entry_fix, check_staleness, load_ledger
from gemstack_lsp.core.findings import Severity, TextEdit, fingerprint
from gemstack_lsp.core.jscompat import UNDEFINED, js_date_parse, js_number

REPO = Path(__file__).parent.parent / "fixtures" / "gemstack-reference" / "repo"
NOW = dt.datetime(2026, 12, 2, tzinfo=dt.UTC)


def apply(text: str, edits: Iterable[TextEdit]) -> str:
    for e in sorted(edits, key=lambda e: e.span.start, reverse=True):
        text = text[: e.span.start] + e.new_text + text[e.span.end :]
    return text


def ledger_text(**overrides: Any) -> str:
    data: dict[str, Any] = {
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
                    }
                },
            }
        },
    }
    data.update(overrides)
    return json.dumps(data, indent=2)


def messages(text: str) -> list[str]:
    return [f.message for f in load_ledger("cost-ledger.json", text, now=NOW).findings]


def test_fixture_ledger_matches_the_golden_result(golden: dict[str, Any]) -> None:
    vector = golden["cost_ledger_fixture"]
    now = dt.datetime.fromisoformat(vector["referenceDate"].replace("Z", "+00:00"))
    result = load_ledger("cost-ledger.json", (REPO / "cost-ledger.json").read_text("utf-8"), now=now)
    assert result.valid is vector["valid"]
    assert [f.message for f in result.findings] == [f["details"] for f in vector["findings"]]
    for got, want in zip(result.findings, vector["findings"], strict=True):
        assert got.code == want["code"]
        assert got.subject == want["contractId"]
        assert got.phase == want["phase"]
        assert got.effective_severity is Severity.WARNING  # is_blocking: false
        # The reference fingerprints the absolute path it was given; same slots, same formula.
        assert fingerprint(got.code, got.subject, got.phase, "/abs/repo/cost-ledger.json") == next(
            v["fingerprint"]
            for v in golden["finding_fingerprints"]
            if v.get("input", {}).get("code") == got.code and v["input"]["location"] == "/abs/repo/cost-ledger.json"
        )


def test_staleness_boundaries_match_golden(golden: dict[str, Any]) -> None:
    for case in golden["cost_ledger_staleness_boundaries"]:
        now = dt.datetime.fromisoformat(case["referenceDate"].replace("Z", "+00:00"))
        got = check_staleness(case["freshness_date"], now)
        want = case["result"]
        assert (got.is_stale, got.age_days, got.message) == (want["isStale"], want["ageDays"], want["message"])


def test_maximum_age_is_configurable() -> None:
    text = ledger_text()
    assert messages(text) == []
    result = load_ledger("cost-ledger.json", text, now=NOW, max_age_days=1)
    assert [f.message for f in result.findings] == [
        '[gemini-cloud.inference.generate_text] Pricing assumption freshness date "2026-11-30" is 2 days old '
        "(exceeds 1 days limit)"
    ]


def test_missing_freshness_date_warns_and_offers_todays_date() -> None:
    data = json.loads(ledger_text())
    del data["providers"]["gemini-cloud"]["capabilities"]["inference.generate_text"]["freshness_date"]
    text = json.dumps(data, indent=2)
    result = load_ledger("cost-ledger.json", text, now=NOW)
    assert result.valid
    [finding] = result.findings
    assert finding.code == "STALE_PROVIDER_COST_ASSUMPTION"
    assert finding.message == "[gemini-cloud.inference.generate_text] Capability entry missing required freshness_date"
    assert finding.span is not None and text[finding.span.start : finding.span.end] == '"inference.generate_text"'
    [fix] = finding.fixes
    assert fix.title == "Add freshness_date (2026-12-02)"
    fixed = apply(text, fix.edits)
    assert (
        json.loads(fixed)["providers"]["gemini-cloud"]["capabilities"]["inference.generate_text"]["freshness_date"]
        == "2026-12-02"
    )
    assert '      "freshness_date": "2026-12-02"\n' in fixed  # written at the members' indentation
    assert load_ledger("cost-ledger.json", fixed, now=NOW).findings == ()


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"version": 2}, ["Cost ledger version must be 1, got 2"]),
        ({"version": "1"}, ['Cost ledger version must be 1, got "1"']),
        ({"version": True}, ["Cost ledger version must be 1, got true"]),
        ({"version": None}, ["Cost ledger version must be 1, got null"]),
        ({"currency": "   "}, ['Cost ledger requires non-empty string field "currency"']),
        ({"currency": 5}, ['Cost ledger requires non-empty string field "currency"']),
        ({"providers": []}, ['Cost ledger requires "providers" map']),
        (
            {"version": 0, "currency": "", "providers": None},
            [
                "Cost ledger version must be 1, got 0",
                'Cost ledger requires non-empty string field "currency"',
                'Cost ledger requires "providers" map',
            ],
        ),
        (
            {"providers": {"a": 1, "b": {"type": "cloud", "pricing_model": " ", "capabilities": []}}},
            [
                'Provider "a" must be an object',
                'Provider "b" has invalid type "cloud". Must be one of: COMMERCIAL, LOCAL, MOCK',
                'Provider "b" requires string field "pricing_model"',
                'Provider "b" requires "capabilities" map',
            ],
        ),
        (
            {
                "providers": {
                    "p": {
                        "type": "LOCAL",
                        "pricing_model": "NONE",
                        "capabilities": {
                            "c": {"cost_state": "CHEAP", "estimated_unit_cost": True, "freshness_date": "soon"},
                            "d": [],
                            "e": {"cost_state": "FREE", "estimated_unit_cost": -0.5},
                        },
                    }
                }
            },
            [
                'Capability "p.c" has invalid cost_state "CHEAP". Must be one of: FREE, BILLABLE, '
                "POTENTIALLY_BILLABLE, UNKNOWN",
                'Capability "p.c" requires non-negative number "estimated_unit_cost"',
                'Capability "p.c" has invalid freshness_date: "soon"',
                'Provider "p" capability "d" must be an object',
                'Capability "p.e" requires non-negative number "estimated_unit_cost"',
            ],
        ),
    ],
)
def test_schema_errors_are_all_reported_with_the_reference_messages(
    overrides: dict[str, Any], expected: list[str]
) -> None:
    result = load_ledger("cost-ledger.json", ledger_text(**overrides), now=NOW)
    assert not result.valid
    assert [f.message for f in result.findings] == expected
    assert {f.code for f in result.findings} == {"COST_LEDGER_INVALID"}
    assert {f.subject for f in result.findings} == {"upgrade-c-cost-states"}


def test_missing_members_are_reported_in_reference_words() -> None:
    text = '{"providers": {"p": {"capabilities": {"c": {}}}}}'
    assert messages(text) == [
        "Cost ledger version must be 1, got undefined",
        'Cost ledger requires non-empty string field "currency"',
        'Provider "p" has invalid type "undefined". Must be one of: COMMERCIAL, LOCAL, MOCK',
        'Provider "p" requires string field "pricing_model"',
        'Capability "p.c" has invalid cost_state "undefined". Must be one of: FREE, BILLABLE, '
        "POTENTIALLY_BILLABLE, UNKNOWN",
        'Capability "p.c" requires non-negative number "estimated_unit_cost"',
    ]


def test_each_schema_finding_points_at_its_json() -> None:
    text = '{"version": 3, "currency": "USD", "providers": {"p": {"type": "X", "capabilities": {"c": 7}}}}'
    result = load_ledger("cost-ledger.json", text, now=NOW)
    spans = {f.message: text[f.span.start : f.span.end] for f in result.findings if f.span is not None}
    assert spans == {
        "Cost ledger version must be 1, got 3": "3",
        'Provider "p" has invalid type "X". Must be one of: COMMERCIAL, LOCAL, MOCK': '"X"',
        'Provider "p" requires string field "pricing_model"': '"p"',  # the key of the object lacking it
        'Provider "p" capability "c" must be an object': "7",
    }


def test_root_must_be_an_object() -> None:
    assert messages("[1, 2]") == ["Cost ledger root must be a JSON object"]


def test_malformed_json_points_at_the_token() -> None:
    text = '{\n  "version": 1,\n  "currency": "USD",\n  "providers": {},\n}\n'
    result = load_ledger("cost-ledger.json", text, now=NOW)
    [finding] = result.findings
    assert finding.code == "COST_LEDGER_INVALID"
    assert finding.message.startswith("Cost ledger malformed JSON syntax: ")
    assert finding.span is not None and text[finding.span.start : finding.span.end] == ","


def test_missing_and_unreadable_files() -> None:
    [missing] = load_ledger("x/cost-ledger.json", None, now=NOW, exists=False).findings
    assert missing.message == "Cost ledger file not found at: x/cost-ledger.json"
    [unreadable] = load_ledger("cost-ledger.json", None, now=NOW, read_error="is a directory").findings
    assert unreadable.message == "Failed to read cost ledger: is a directory"


def test_secret_audit_reports_every_violation_and_never_the_value() -> None:
    secret_values = [
        "sk-" + "a" * 24,
        "ghp_" + "B" * 24,
        "bearer " + "c" * 20,
        "AIza" + "d" * 32,
        "-----BEGIN RSA PRIVATE KEY-----",
    ]
    data = json.loads(ledger_text())
    data["providers"]["gemini-cloud"]["api-key"] = "x"
    data["Authorization"] = "y"
    data["notes"] = [{"Client-Secret": 1}, *secret_values]
    text = json.dumps(data, indent=2)
    result = load_ledger("cost-ledger.json", text, now=NOW)
    assert not result.valid
    assert [f.message for f in result.findings] == [
        'Secret violation at providers.gemini-cloud.api-key: Forbidden credential property name detected: "api-key"',
        'Secret violation at Authorization: Forbidden credential property name detected: "Authorization"',
        'Secret violation at notes[0].Client-Secret: Forbidden credential property name detected: "Client-Secret"',
        "Secret violation at notes[1]: Forbidden secret pattern detected matching /sk-[a-zA-Z0-9_-]{16,}/",
        "Secret violation at notes[2]: Forbidden secret pattern detected matching /ghp_[a-zA-Z0-9]{20,}/",
        "Secret violation at notes[3]: Forbidden secret pattern detected matching /Bearer\\s+[a-zA-Z0-9._-]{16,}/i",
        "Secret violation at notes[4]: Forbidden secret pattern detected matching /AIza[0-9A-Za-z-_]{30,}/",
        "Secret violation at notes[5]: Forbidden secret pattern detected matching /-----BEGIN [A-Z ]*PRIVATE KEY-----/",
    ]
    assert {f.subject for f in result.findings} == {"secrets-forbidden-in-safety-artifacts"}
    assert {f.effective_severity for f in result.findings} == {Severity.BLOCKER}
    rendered = " ".join(f.message for f in result.findings)
    for value in secret_values:
        assert value not in rendered
    # The value findings point at the values themselves (for the editor), not into the message.
    value_spans = [text[f.span.start : f.span.end] for f in result.findings[3:] if f.span is not None]
    assert value_spans == [json.dumps(v) for v in secret_values]


def test_secret_audit_runs_before_the_schema() -> None:
    # A ledger that is schema-invalid and holds a secret reports only the secret (reference load order).
    assert messages('{"version": 9, "token": "t"}') == [
        'Secret violation at token: Forbidden credential property name detected: "token"'
    ]


def test_add_entry_fix_inserts_an_unknown_entry_under_an_existing_provider() -> None:
    text = ledger_text()
    result = load_ledger("cost-ledger.json", text, now=NOW)
    fix = add_entry_fix("cost-ledger.json", result, "gemini-cloud", "inference.embed", "COMMERCIAL")
    assert fix is not None
    fixed = json.loads(apply(text, fix.edits))
    assert fixed["providers"]["gemini-cloud"]["capabilities"]["inference.embed"]["cost_state"] == "UNKNOWN"
    reloaded = load_ledger("cost-ledger.json", apply(text, fix.edits), now=NOW)
    assert reloaded.valid  # schema-valid; only the missing freshness_date warns
    assert [f.code for f in reloaded.findings] == ["STALE_PROVIDER_COST_ASSUMPTION"]


def test_add_entry_fix_adds_a_provider_and_creates_a_ledger() -> None:
    text = ledger_text()
    result = load_ledger("cost-ledger.json", text, now=NOW)
    fix = add_entry_fix("cost-ledger.json", result, "ollama-local", "inference.generate_text", "LOCAL")
    assert fix is not None
    added = json.loads(apply(text, fix.edits))["providers"]["ollama-local"]
    assert added["type"] == "LOCAL"
    assert added["capabilities"]["inference.generate_text"]["cost_state"] == "UNKNOWN"

    created = add_entry_fix("specs/x/cost-ledger.json", None, "p", "a.b", "COMMERCIAL")
    assert created is not None
    [edit] = created.edits
    assert (edit.path, edit.span.start, edit.span.end) == ("specs/x/cost-ledger.json", 0, 0)
    assert load_ledger("specs/x/cost-ledger.json", edit.new_text, now=NOW).valid


def test_add_entry_fix_keeps_one_line_objects_on_one_line() -> None:
    text = (
        '{"version": 1, "currency": "USD", '
        '"providers": {"p": {"type": "MOCK", "pricing_model": "NONE", "capabilities": {}}}}'
    )
    result = load_ledger("cost-ledger.json", text, now=NOW)
    fix = add_entry_fix("cost-ledger.json", result, "p", "a.b", "MOCK")
    assert fix is not None
    fixed = apply(text, fix.edits)
    assert "\n" not in fixed
    assert json.loads(fixed)["providers"]["p"]["capabilities"]["a.b"]["cost_state"] == "UNKNOWN"


def test_add_entry_fix_refuses_broken_json() -> None:
    result = load_ledger("cost-ledger.json", "{", now=NOW)
    assert add_entry_fix("cost-ledger.json", result, "p", "a.b", "COMMERCIAL") is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026-08-31", dt.datetime(2026, 8, 31, tzinfo=dt.UTC)),
        ("2026-08", dt.datetime(2026, 8, 1, tzinfo=dt.UTC)),
        ("2026-08-31T10:00:00Z", dt.datetime(2026, 8, 31, 10, tzinfo=dt.UTC)),
        ("2026-08-31T10:00:00+02:00", dt.datetime(2026, 8, 31, 8, tzinfo=dt.UTC)),
        ("2026/08/31", dt.datetime(2026, 8, 31, tzinfo=dt.UTC)),
        ("Aug 31 2026", dt.datetime(2026, 8, 31, tzinfo=dt.UTC)),
        ("2026-13-01", None),
        ("soon", None),
        (True, None),
    ],
)
def test_js_date_parse(value: Any, expected: dt.datetime | None) -> None:
    assert js_date_parse(value) == expected


def test_js_number_prints_like_javascript() -> None:
    assert [js_number(v) for v in (50.0, 0.001, 0.5, 5, 1e-7, 1e21, 0.0005 * 100000)] == [
        "50",
        "0.001",
        "0.5",
        "5",
        "1e-7",
        "1e+21",
        "50",
    ]
    assert check_staleness(UNDEFINED, NOW).message == "Capability entry missing required freshness_date"


@pytest.mark.parametrize(
    ("freshness_date", "age"),
    [
        ("2026-9-1", 92),
        ("2026-02-30", 275),  # 2 March: the day rolls over, as in JavaScript
        ("Tue, 01 Sep 2026 00:00:00 GMT", 92),
        ("2026-09-01 10:00:00", 91),  # a date-time without a zone is read as UTC
    ],
)
def test_dates_javascript_accepts_are_stale_warnings_not_invalid(freshness_date: str, age: int) -> None:
    """Issue 18: the reference reads these with Date.parse; too old is a warning, never COST_LEDGER_INVALID."""
    ledger = {
        "version": 1,
        "currency": "USD",
        "providers": {
            "p": {
                "type": "COMMERCIAL",
                "pricing_model": "PER_CALL",
                "capabilities": {
                    "a.b": {"cost_state": "BILLABLE", "estimated_unit_cost": 1, "freshness_date": freshness_date}
                },
            }
        },
    }
    result = load_ledger("cost-ledger.json", json.dumps(ledger), now=NOW)
    assert [f.code for f in result.findings] == ["STALE_PROVIDER_COST_ASSUMPTION"]
    assert f'"{freshness_date}" is {age} days old' in result.findings[0].message
