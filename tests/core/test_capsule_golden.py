"""Byte-for-byte golden tests against the reference's vectors (golden-vectors.json)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gemstack_lsp.core.blocks.test_matrix import acceptance_signature
from gemstack_lsp.core.capsule.canonical import (
    canonical_text,
    canonicalize,
    compact_json,
    parse_json,
    semantic_hash,
)
from gemstack_lsp.core.capsule.extract import extract_invariants, read_test_matrix
from gemstack_lsp.core.capsule.secrets import scan_secrets
from gemstack_lsp.core.capsule.sources import source_set_hash
from gemstack_lsp.core.hashing import hash_bytes
from gemstack_lsp.core.jscompat import js_number
from gemstack_lsp.core.jscompat import json_stringify as js_stringify
from tests.conftest import REFERENCE_REPO


def _shuffled(value: Any, rng: random.Random) -> Any:
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {k: _shuffled(v, rng) for k, v in items}
    if isinstance(value, list):
        return [_shuffled(v, rng) for v in value]
    return value


@pytest.mark.parametrize(
    "name",
    [
        "key_order_utf16",
        "string_array_sorted",
        "objects_with_path",
        "objects_with_id",
        "objects_with_feature",
        "objects_path_and_id",
        "nested_arrays",
        "empty",
        "strings",
        "numbers",
    ],
)
def test_canonical_json_golden(golden: dict[str, Any], name: str) -> None:
    expected = golden["canonical_json"][name]["output"]
    value = parse_json(expected)
    assert canonical_text(value) == expected
    rng = random.Random(7)
    for _ in range(5):
        shuffled = _shuffled(value, rng)
        if isinstance(shuffled, list) and name not in ("nested_arrays",):
            rng.shuffle(shuffled)
        assert canonical_text(shuffled) == expected


def test_canonical_arrays_whose_order_is_kept(golden: dict[str, Any]) -> None:
    for name in ("mixed_first_string", "mixed_first_number", "object_without_keys_rule"):
        expected = golden["canonical_json"][name]["output"]
        assert canonical_text(parse_json(expected)) == expected


def test_canonical_number_forms(golden: dict[str, Any]) -> None:
    value = {
        "big": 1e21,
        "float_whole": 2.0,
        "int": 5,
        "neg_zero": -0.0,
        "small": 0.0005,
        "tiny": 1e-7,
        "zero_float": 0.0,
    }
    assert canonical_text(value) == golden["canonical_json"]["numbers"]["output"]
    assert [js_number(x) for x in (1.5e-7, 123.456, 1e20, -2.5e30, 2**60, 0.1 + 0.2)] == [
        "1.5e-7",
        "123.456",
        "100000000000000000000",
        "-2.5e+30",
        "1152921504606847000",
        "0.30000000000000004",
    ]


def test_canonical_string_escapes(golden: dict[str, Any]) -> None:
    value = {
        "backslash": "C:\\x",
        "ctrl": "a\x01b\tc\n",
        "del": "x\x7fy",
        "ls": "a\u2028b",
        "nonascii": "ñ ≠ –",
        "quote": 'say "hi"',
    }
    assert canonical_text(value) == golden["canonical_json"]["strings"]["output"]
    assert js_stringify("\ud800") == '"\\ud800"'


def test_parse_json_rejects_nan() -> None:
    with pytest.raises(ValueError):
        parse_json('{"a": NaN}')


def test_semantic_hash_golden(golden: dict[str, Any]) -> None:
    example = golden["semantic_hash_example"]
    assert semantic_hash(example["input"]) == example["semantic_hash"]


@pytest.mark.parametrize("kind", ["lf", "crlf", "cr", "empty"])
def test_hash_content_golden(golden: dict[str, Any], kind: str) -> None:
    texts = {"lf": "a\nb\n", "crlf": "a\r\nb\r\n", "cr": "a\rb\r", "empty": ""}
    assert hash_bytes(texts[kind].encode()) == golden["hash_content"][kind]


def test_source_set_hash_golden(golden: dict[str, Any]) -> None:
    example = golden["source_set_hash_example"]
    assert compact_json([{"path": e["path"], "hash": e["hash"]} for e in example["entries"]]) == example["json"]
    assert source_set_hash(example["entries"]) == example["hash"]


def test_acceptance_signatures_golden(golden: dict[str, Any]) -> None:
    for rel, signature in golden["acceptance_signatures"].items():
        matrix = read_test_matrix((REFERENCE_REPO / rel).read_text("utf-8"))
        assert matrix is not None and matrix.signature == signature
    small = golden["acceptance_signature_small"]
    assert acceptance_signature(small["matrix"]) == small["signature"]


def test_normative_extraction_golden(golden: dict[str, Any]) -> None:
    vector = golden["normative_extraction"]
    assert [i.as_json() for i in extract_invariants(vector["spec"])] == vector["invariants"]


def test_normative_extraction_matches_reference_capsules() -> None:
    out = REFERENCE_REPO.parent / "reference-output"
    for feature, name in (
        ("009-context-capsule", "specs-009-context-capsule.json"),
        ("008-cost-provider-safety-gates", "specs-008-cost-provider-safety-gates.json"),
    ):
        spec = (REFERENCE_REPO / "specs" / feature / "spec.md").read_text("utf-8")
        reference = json.loads((out / name).read_text("utf-8"))
        assert [i.as_json() for i in extract_invariants(spec)] == reference["canonical_invariants"]


def test_extraction_splits_only_on_lf_and_crlf() -> None:
    # A lone CR does not split a line; CRLF does; U+2028 is not a line break for the reference.
    text = "# T\r\n## 2. A\r\nx MUST y\rz MUST w\nline\u2028 MUST k\n"
    rules = [i.rule for i in extract_invariants(text)]
    assert rules == ["x MUST y\rz MUST w", "line\u2028 MUST k"]


def test_reference_capsules_canonical_bytes() -> None:
    out = REFERENCE_REPO.parent / "reference-output"
    for name in ("specs-009-context-capsule.json", "specs-008-cost-provider-safety-gates.json"):
        text = (out / name).read_text("utf-8")
        assert canonical_text(parse_json(text)) == text
        assert canonicalize(parse_json(text)) == parse_json(text)


def test_secret_scan_key_and_pattern_reporting_never_echoes() -> None:
    hits = list(scan_secrets({"a": [{"token": 1}], "b": "ghp_" + "x" * 40}))
    assert [h.message for h in hits] == [
        'CONTEXT_CAPSULE_SECRET_DETECTED: Forbidden credential property "token" detected.',
        "CONTEXT_CAPSULE_SECRET_DETECTED: Forbidden credential token pattern detected.",
    ]
    assert hits[0].where == "a[0].token"
    assert all("xxxx" not in h.message for h in hits)
    # Exact-case keys only, as the reference.
    assert list(scan_secrets({"Token": 1, "API_KEY": 2})) == []
