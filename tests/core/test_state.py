""".gemstack/state.json: values with spans, STATE_INVALID at the token, the active spec."""

from __future__ import annotations

from pathlib import Path

import pytest

from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.state import parse_state, resolve_active_spec, state_findings

REFERENCE_REPO = Path(__file__).parents[1] / "fixtures" / "gemstack-reference" / "repo"


def _at(text: str, token: str, nth: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = text.index(token, start + 1)
    return start, start + len(token)


def test_fixture_state_values_and_spans() -> None:
    text = (REFERENCE_REPO / ".gemstack" / "state.json").read_text("utf-8")
    state = parse_state(text)
    assert state.reference_parsable
    assert state.findings == ()
    assert state.active_spec is not None
    assert state.active_spec.value == "specs/009-context-capsule"
    s = state.active_spec.span
    assert text[s.start : s.end] == '"specs/009-context-capsule"'
    assert state.current_phase is not None and state.current_phase.value == "implementation"
    assert state.status is not None and state.status.value == "IMPLEMENTING"
    assert state.last_completed_feature is not None
    assert state.last_completed_feature.value == "specs/008-cost-provider-safety-gates"
    assert [v.value for v in state.completed_phases] == ["spec", "plan", "tasks"]
    assert [p.phase for p in state.phase_hashes] == ["spec", "plan", "tasks"]
    plan = state.phase_hash("plan")
    assert plan is not None
    assert text[plan.span.start : plan.span.end] == f'"{plan.value}"'
    assert text[plan.key_span.start : plan.key_span.end] == '"plan"'


@pytest.mark.parametrize(
    ("text", "token", "message", "parsable"),
    [
        ("", "", "state.json is not valid JSON: Unexpected end of JSON input", False),
        ('{"active_spec": "specs/x",}', ",", "state.json is not valid JSON: Trailing comma", False),
        ("{'active_spec': 1}", "'active_spec'", "state.json is not valid JSON: Unexpected single-quoted", False),
        ("[1, 2]", "[1, 2]", "state.json must hold a JSON object, not an array.", True),
        ('"text"', '"text"', "state.json must hold a JSON object, not a string.", True),
        ('{"active_spec": 7}', "7", '"active_spec" must be a string or null, not a number.', True),
        ('{"current_phase": null}', "null", '"current_phase" must be a string, not null.', True),
        ('{"completed_phases": "spec"}', '"spec"', '"completed_phases" must be an array of strings', True),
        ('{"completed_phases": ["spec", 2]}', "2", '"completed_phases" must hold only strings', True),
        ('{"phase_hashes": []}', "[]", '"phase_hashes" must be an object, not an array.', True),
        ('{"phase_hashes": {"plan": true}}', "true", '"phase_hashes.plan" must be a hash string', True),
    ],
)
def test_STATE_INVALID_at_the_offending_token(text: str, token: str, message: str, parsable: bool) -> None:
    state = parse_state(text)
    invalid = [f for f in state.findings if f.code == "STATE_INVALID"]
    assert len(invalid) == 1, state.findings
    f = invalid[0]
    assert f.path == ".gemstack/state.json"
    assert f.message.startswith(message)
    assert f.span is not None
    expected = _at(text, token) if token else (0, 0)
    assert (f.span.start, f.span.end) == expected
    assert state.reference_parsable is parsable


def test_a_bom_makes_the_state_unreadable_for_the_reference() -> None:
    state = parse_state('{"active_spec": "specs/a"}', has_bom=True)
    assert state.findings == ()
    assert state.active_spec is not None
    assert not state.reference_parsable


def test_repeated_key_keeps_the_last_value_and_is_reported() -> None:
    text = '{"active_spec": "specs/a", "active_spec": "specs/b"}'
    state = parse_state(text)
    assert state.active_spec is not None and state.active_spec.value == "specs/b"
    (dup,) = state.findings
    assert dup.code == "JSON_DUPLICATE_KEY"
    assert dup.span is not None and (dup.span.start, dup.span.end) == _at(text, '"active_spec"', 1)


def test_partial_tree_survives_a_syntax_error() -> None:
    state = parse_state('{"active_spec": "specs/a", "status": ')
    assert state.active_spec is not None and state.active_spec.value == "specs/a"
    assert not state.reference_parsable


@pytest.mark.parametrize(
    ("raw", "path", "feature", "problem"),
    [
        ("specs/009-x", "specs/009-x", "009-x", None),
        ("specs/009-x/", "specs/009-x", "009-x", None),
        ("./specs/009-x", "specs/009-x", "009-x", None),
        ("specs\\009-x", "specs/009-x", "009-x", None),
        ("/repo/specs/009-x", "specs/009-x", "009-x", None),
        ("C:\\repo\\specs\\009-x", None, None, "lies outside the repository"),
        ("/elsewhere/specs/009-x", None, None, "lies outside the repository"),
        ("specs/a/../b", "specs/b", "b", None),
        ("../specs/x", None, None, "does not name a folder inside the repository"),
        ("features/x", "features/x", None, "is not a feature folder under specs/"),
        ("specs/x/sub", "specs/x/sub", None, "is not a feature folder under specs/"),
    ],
)
def test_resolve_active_spec(raw: str, path: str | None, feature: str | None, problem: str | None) -> None:
    resolved = resolve_active_spec(raw, "/repo")
    assert (resolved.path, resolved.feature_name) == (path, feature)
    if problem is None:
        assert resolved.problem is None
    else:
        assert resolved.problem is not None and problem in resolved.problem


def _repo(files: dict[str, str | bytes]) -> GemstackRepo:
    return GemstackRepo("/repo", MemoryReader(files))


def test_STATE_ACTIVE_SPEC_MISSING() -> None:
    text = '{"active_spec": "specs/010-missing"}'
    repo = _repo({".gemstack/state.json": text, "specs/009-x/spec.md": "# x\n"})
    (f,) = state_findings(repo)
    assert f.code == "STATE_ACTIVE_SPEC_MISSING"
    assert f.span is not None and (f.span.start, f.span.end) == _at(text, '"specs/010-missing"')
    assert "specs/010-missing/spec.md does not exist" in f.message


def test_active_spec_outside_specs_is_invalid_and_missing() -> None:
    text = '{"active_spec": "../x"}'
    codes = [f.code for f in state_findings(_repo({".gemstack/state.json": text}))]
    assert codes == ["STATE_INVALID"]


@pytest.mark.parametrize("text", ['{"active_spec": null}', '{"active_spec": ""}', "{}"])
def test_no_active_spec_is_no_finding(text: str) -> None:
    assert state_findings(_repo({".gemstack/state.json": text, "specs/a/spec.md": ""})) == []


def test_no_state_file_is_no_finding() -> None:
    repo = _repo({"specs/a/spec.md": ""})
    assert repo.state() is None
    assert state_findings(repo) == []
