"""The ledger's schema shortcut (``ledger._surely_valid``: the schema compiled by
fastjsonschema) agrees with jsonschema: it never passes what jsonschema refuses."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gemstack_lsp.core.cost import ledger
from gemstack_lsp.core.schemas import load_schema

VALID: dict[str, Any] = {
    "$schema": "https://gemstack.dev/schemas/cost-ledger-v1.json",
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
                    "freshness_date": "2026-08-31",
                }
            },
        },
        "mock-local": {
            "type": "MOCK",
            "pricing_model": "NONE",
            "capabilities": {"x": {"cost_state": "FREE", "estimated_unit_cost": 0}},
        },
    },
}

#: Values that break (or, for jsonschema, sometimes do not break) each rule.
ODD = [None, True, False, 0, 1, 1.0, -1, -0.5, "", " ", "\u00a0", "x", "USD", "FREE", "MOCK", [], {}, [1], {"a": 1}]


def _errors(data: Any) -> list[Any]:
    return list(jsonschema.Draft202012Validator(load_schema(ledger.SCHEMA_FILE)).iter_errors(data))


def test_the_shortcut_is_on_for_the_shipped_schema() -> None:
    shared = load_schema(ledger.SCHEMA_FILE)
    before = copy.deepcopy(shared)
    ledger._fast_check.cache_clear()
    assert ledger._fast_check() is not None
    assert load_schema(ledger.SCHEMA_FILE) == before  # compiling leaves the shared schema alone
    assert ledger._surely_valid(copy.deepcopy(VALID))
    assert not _errors(VALID)


def _places(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(data, dict):
        for k, v in data.items():
            out.extend(_places(v, (*path, k)))
    return out


def _with(data: Any, path: tuple[Any, ...], value: Any, *, delete: bool = False) -> Any:
    data = copy.deepcopy(data)
    if not path:
        return value
    cur = data
    for p in path[:-1]:
        cur = cur[p]
    if delete:
        del cur[path[-1]]
    else:
        cur[path[-1]] = value
    return data


@pytest.mark.parametrize("path", _places(VALID)[1:])
def test_every_single_change_the_shortcut_passes_is_valid_for_jsonschema(path: tuple[Any, ...]) -> None:
    variants = [_with(VALID, path, None, delete=True)] + [_with(VALID, path, v) for v in ODD]
    for data in variants:
        assert ledger._surely_valid(data) == (not _errors(data)), (path, data)


_leaf = st.one_of(st.sampled_from(ODD), st.text(max_size=4), st.integers(-2, 2), st.floats(-1, 1, allow_nan=False))


@settings(max_examples=300, deadline=None)
@given(
    version=_leaf,
    currency=_leaf,
    kind=st.one_of(_leaf, st.sampled_from(["COMMERCIAL", "LOCAL", "MOCK"])),
    pricing=_leaf,
    state=st.one_of(_leaf, st.sampled_from(["FREE", "BILLABLE", "POTENTIALLY_BILLABLE", "UNKNOWN"])),
    cost=_leaf,
)
def test_generated_ledgers_agree(version: Any, currency: Any, kind: Any, pricing: Any, state: Any, cost: Any) -> None:
    data = {
        "version": version,
        "currency": currency,
        "providers": {
            "p": {
                "type": kind,
                "pricing_model": pricing,
                "capabilities": {"c": {"cost_state": state, "estimated_unit_cost": cost}},
            }
        },
    }
    # Both ways: a ledger jsonschema accepts takes the shortcut too (it is not a mere filter).
    assert ledger._surely_valid(data) == (not _errors(data)), data


def test_the_shortcut_follows_the_schema_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """It is compiled from the file jsonschema reads: a rule added there holds at once."""
    schema = copy.deepcopy(load_schema(ledger.SCHEMA_FILE))
    schema["$defs"]["capability"]["properties"]["estimated_unit_cost"]["maximum"] = 10
    monkeypatch.setattr(ledger, "load_schema", lambda name: schema)
    ledger._fast_check.cache_clear()
    try:
        assert ledger._surely_valid(copy.deepcopy(VALID))
        over = _with(VALID, ("providers", "mock-local", "capabilities", "x", "estimated_unit_cost"), 11)
        assert not ledger._surely_valid(over)
    finally:
        monkeypatch.undo()
        ledger._fast_check.cache_clear()
