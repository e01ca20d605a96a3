"""A cost ledger loaded from plain values (``json.loads``, no tree) gives exactly what loading it
as a tree with spans gives: the same findings with their spans and fixes, the same ledger, the
same place for every provider and entry. A ledger with nothing to report and one whose only
findings are stale dates make no tree; ``member_place`` finds a member's spans in the text."""

from __future__ import annotations

import datetime as dt
import json
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gemstack_lsp.core.cost import ledger
from gemstack_lsp.core.jsonspan import NOT_PLAIN, member_place, node_at, parse_json

NOW = dt.datetime(2026, 12, 7, 12, 0, tzinfo=dt.UTC)
PATH = "specs/001-x/cost-ledger.json"

_DATES = st.sampled_from(["2026-11-30", "2026-08-31", "2025-01-01", "not a date", "", "2026-12-07T10:00:00Z", 7, None])
_STATES = st.sampled_from(["FREE", "BILLABLE", "POTENTIALLY_BILLABLE", "UNKNOWN", "MAYBE"])
_IDS = st.sampled_from(["gemini-cloud", "mock-local", "openai", "sk-abcdefghijklmnopqrstu", "api_key", "x"])
_CAPS = st.sampled_from(["inference.generate_text", "embed", "image.generate", "Bearer abcdefghijklmnop"])
_EXTRA = st.sampled_from(["note", "assumption_source", "requires_human_approval", "token"])


@st.composite
def _capability(draw: st.DrawFn) -> dict[str, Any]:
    cap: dict[str, Any] = {"cost_state": draw(_STATES)}
    if draw(st.booleans()):
        cap["estimated_unit_cost"] = draw(st.sampled_from([0, 0.0005, 1.5, -1, "3", None]))
    if draw(st.integers(0, 4)):  # mostly present
        cap["freshness_date"] = draw(_DATES)
    if draw(st.integers(0, 3)) == 0:
        cap[draw(_EXTRA)] = draw(st.sampled_from(["ghp_abcdefghijklmnopqrstuvwx", "plain", True, [1, {"a": []}]]))
    return cap


@st.composite
def _ledger(draw: st.DrawFn) -> str:
    providers = {
        pid: {
            "type": draw(st.sampled_from(["COMMERCIAL", "LOCAL", "MOCK", "OTHER"])),
            "pricing_model": draw(st.sampled_from(["PER_1K_TOKENS", "NONE", 3])),
            "capabilities": draw(st.dictionaries(_CAPS, _capability(), max_size=3)),
        }
        for pid in draw(st.lists(_IDS, max_size=3, unique=True))
    }
    doc: dict[str, Any] = {"version": draw(st.sampled_from([1, 2, "1"])), "currency": "USD", "providers": providers}
    if draw(st.booleans()):
        doc = {"$schema": "https://gemstack.dev/schemas/cost-ledger-v1.json", **doc}
    text = json.dumps(doc, indent=draw(st.sampled_from([None, 2, "\t"])), ensure_ascii=draw(st.booleans()))
    if draw(st.integers(0, 5)) == 0:
        # A repeated key (JSON.parse keeps the last): only a tree can place its findings.
        text = text.replace('"currency": "USD"', '"currency": "EUR", "currency": "USD"', 1)
    return text + draw(st.sampled_from(["", "\n", "\r\n  "]))


def _as_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ledger loaded as before: the tree, never the plain values."""
    monkeypatch.setattr(ledger, "plain_json", lambda text: NOT_PLAIN)


def _picture(result: ledger.LedgerResult) -> dict[str, Any]:
    """Everything a reader of a load can ask for, places included."""
    out: dict[str, Any] = {"findings": result.findings, "exists": result.exists, "valid": result.valid}
    if result.ledger is not None:
        out["currency"] = result.ledger.currency
        out["providers"] = [
            (
                p.key,
                p.type,
                p.pricing_model,
                p.key_span,
                p.span,
                [_entry(c) for c in p.capabilities.values()],
            )
            for p in result.ledger.providers.values()
        ]
    root = result.root
    out["root"] = root.to_python() if root is not None else None
    return out


def _entry(c: ledger.LedgerCapability) -> tuple[Any, ...]:
    return (
        c.capability_id,
        c.cost_state,
        c.estimated_unit_cost,
        c.freshness_date,
        c.key_span,
        c.span,
        c.cost_state_span,
    )


def _load(text: str) -> ledger.LedgerResult:
    return ledger.load_ledger(PATH, text, now=NOW)


@settings(max_examples=400, deadline=None)
@given(_ledger())
def test_plain_load_equals_tree_load(text: str) -> None:
    plain = _load(text)
    with pytest.MonkeyPatch.context() as mp:
        _as_tree(mp)
        tree = _load(text)
    assert _picture(plain) == _picture(tree)
    assert plain == tree


def test_fixture_ledgers_load_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    texts = [p.read_text(encoding="utf-8") for p in sorted(root.glob("**/cost-ledger*.json")) if ".venv" not in p.parts]
    assert texts
    plain = [_picture(_load(t)) for t in texts]
    _as_tree(monkeypatch)
    assert plain == [_picture(_load(t)) for t in texts]


def test_a_clean_or_only_stale_ledger_makes_no_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []
    real = ledger.parse_json

    def counting(text: str, *args: Any) -> Any:
        made.append(text)
        return real(text, *args)

    monkeypatch.setattr(ledger, "parse_json", counting)
    cap = {"cost_state": "BILLABLE", "estimated_unit_cost": 1, "assumption_source": "s", "freshness_date": "2026-11-30"}
    provider = {"type": "MOCK", "pricing_model": "NONE", "capabilities": {"gen": cap}}
    fresh = json.dumps({"version": 1, "currency": "USD", "providers": {"p": provider}})
    result = _load(fresh)
    assert result.valid and result.findings == () and made == []
    stale = fresh.replace("2026-11-30", "2026-01-01")
    result = _load(stale)
    assert [f.code for f in result.findings] == ["STALE_PROVIDER_COST_ASSUMPTION"]
    assert stale[result.findings[0].span.start : result.findings[0].span.end] == '"2026-01-01"'
    assert made == []
    # A place asked for is found then, and is the tree's.
    entry = result.ledger.entry("p", "gen") if result.ledger is not None else None
    assert entry is not None and stale[entry.key_span.start : entry.key_span.end] == '"gen"'
    # Places travel with a result (a worker's): the copy finds the same.
    copy = pickle.loads(pickle.dumps(entry.places))
    assert copy == entry.places and copy.place("providers", "p") == entry.places.place("providers", "p")


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        st.none() | st.integers() | st.text(max_size=3),
        lambda c: st.dictionaries(st.text(max_size=3), c),
        max_leaves=12,
    )
)
def test_member_place_is_the_trees(value: Any) -> None:
    text = json.dumps(value, indent=1)
    root = parse_json(text).value

    def paths(v: Any, at: tuple[str, ...]) -> list[tuple[str, ...]]:
        out = [at] if at else []
        if isinstance(v, dict):
            for k, child in v.items():
                out += paths(child, (*at, k))
        return out

    for path in paths(value, ()):
        found = member_place(text, path)
        node = node_at(root, path)
        assert node is not None and found is not None
        assert found[1] == node.span
        assert text[found[0].start : found[0].end] == json.dumps(path[-1])
    assert member_place(text, ("\x00absent",)) is None
