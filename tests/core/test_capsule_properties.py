"""Property tests: canonical JSON is stable, and no capsule text crashes verification."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gemstack_lsp.core.capsule.canonical import canonical_text, parse_json
from gemstack_lsp.core.capsule.verify import INVALID, STALE, VALID, verify_capsule
from gemstack_lsp.core.jscompat import utf16_key
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import GemstackRepo

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=25,
)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_canonical_is_idempotent_and_keeps_the_value(value: Any) -> None:
    text = canonical_text(value)
    assert text.endswith("\n")
    again = parse_json(text)
    assert canonical_text(again) == text
    if isinstance(value, dict):
        assert set(again) == set(value)


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.text(max_size=6) | st.integers(0, 50).map(str), st.integers(), max_size=8))
def test_object_keys_follow_code_units_after_integer_keys(value: dict[str, int]) -> None:
    keys = list(json.loads(canonical_text(value)))
    numeric = [k for k in keys if re.fullmatch(r"0|[1-9][0-9]*", k) and int(k) < 2**32 - 1]
    rest = [k for k in keys if k not in numeric]
    assert keys == numeric + rest
    assert numeric == sorted(numeric, key=int)
    assert rest == sorted(rest, key=utf16_key)


SPEC = "# S\n## 1. R\n- It MUST hold.\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(json_values, st.text(max_size=60)))
def test_verify_never_crashes(content: Any) -> None:
    text = content if isinstance(content, str) else json.dumps(content)
    repo = GemstackRepo("/x", MemoryReader({"specs/a/spec.md": SPEC, "specs/a/context-capsule.json": text}))
    result = verify_capsule(repo, "specs/a")
    assert result.state in (VALID, STALE, INVALID)
    if result.state != VALID:
        assert result.findings


def test_canonical_sorts_an_array_by_its_canonical_elements() -> None:
    # The order of a sorted array used to be chosen from its elements before they were
    # canonicalized: a nested array then compared by its unsorted string form ("\\," here)
    # and a second canonicalization reordered the outer array.
    value = ["", ["\\", []], {}]
    text = canonical_text(value)
    assert canonical_text(parse_json(text)) == text
    assert parse_json(text) == ["", [[], "\\"], {}]
