""".gemstack/state.json: values with spans, STATE_INVALID at the token, the active spec."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gemstack_lsp.core.findings import Severity
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
    ],
)
def test_STATE_INVALID_error_at_a_syntax_error(text: str, token: str, message: str, parsable: bool) -> None:
    state = parse_state(text)
    invalid = [f for f in state.findings if f.code == "STATE_INVALID"]
    assert len(invalid) == 1, state.findings
    f = invalid[0]
    assert f.path == ".gemstack/state.json"
    assert f.message.startswith(message)
    assert f.effective_severity is Severity.BLOCKER
    assert f.span is not None
    expected = _at(text, token) if token else (0, 0)
    assert (f.span.start, f.span.end) == expected
    assert state.reference_parsable is parsable


@pytest.mark.parametrize(
    ("text", "token", "message"),
    [
        ("[1, 2]", "[1, 2]", "state.json should hold a JSON object, not an array; it is ignored."),
        ('"text"', '"text"', "state.json should hold a JSON object, not a string; it is ignored."),
        ('{"active_spec": 7}', "7", '"active_spec" should be a string or null, not a number; it is ignored.'),
        ('{"current_phase": 2}', "2", '"current_phase" should be a string or null, not a number'),
        ('{"completed_phases": "spec"}', '"spec"', '"completed_phases" should be an array of strings'),
        ('{"completed_phases": ["spec", 2]}', "2", '"completed_phases" should hold only strings'),
        ('{"phase_hashes": []}', "[]", '"phase_hashes" should be an object, not an array; it is ignored.'),
        ('{"phase_hashes": {"plan": true}}', "true", '"phase_hashes.plan" should be a hash string or null'),
    ],
)
def test_a_value_of_the_wrong_type_is_only_a_hint(text: str, token: str, message: str) -> None:
    """The reference never type-checks state.json: a value this tool cannot use is ignored, with a hint."""
    state = parse_state(text)
    (f,) = state.findings
    assert f.code == "STATE_INVALID"
    assert f.effective_severity is Severity.HINT
    assert f.message.startswith(message)
    assert f.span is not None and (f.span.start, f.span.end) == _at(text, token)
    assert state.reference_parsable


@pytest.mark.parametrize(
    "field",
    [
        "stop_reason",
        "last_update",
        "version",
        "current_phase",
        "status",
        "active_spec",
        "last_completed_feature",
        "completed_phases",
        "completed_features",
        "phase_hashes",
        "guard_mode",
        "consistency",
    ],
)
def test_null_is_accepted_in_any_field(field: str) -> None:
    """Gemstack writes ``null`` into any field (``"stop_reason": null``, ``"last_update": null``)."""
    other = "status" if field == "current_phase" else "current_phase"
    state = parse_state(f'{{"{field}": null, "{other}": "shipped"}}')
    assert state.findings == ()
    assert getattr(state, other) is not None and getattr(state, other).value == "shipped"


def test_unknown_fields_and_null_items_are_accepted() -> None:
    text = (
        '{"guard_mode": {"careful": false}, "consistency": {"status": "PASS", "open_blockers": 0},'
        ' "initialized": true, "x-tool": [1, {"a": null}], "completed_phases": ["spec", null],'
        ' "phase_hashes": {"spec": null, "plan": "", "tasks": "abc"}}'
    )
    state = parse_state(text)
    assert state.findings == ()
    assert [v.value for v in state.completed_phases] == ["spec"]
    # A null or empty phase hash is "nothing recorded" to the reference's verify.
    assert [p.phase for p in state.phase_hashes] == ["tasks"]


UPSTREAM_STATES = Path(__file__).parents[1] / "fixtures" / "upstream-state"


@pytest.mark.parametrize("name", sorted(p.name for p in UPSTREAM_STATES.glob("*.json")))
def test_upstream_state_files_draw_no_finding(name: str) -> None:
    """Every state.json upstream Gemstack committed, from 0.1 to 2.0, is read without a finding."""
    text = (UPSTREAM_STATES / name).read_text("utf-8")
    state = parse_state(text)
    assert state.findings == ()
    assert state.reference_parsable
    repo = _repo({".gemstack/state.json": text, "specs/010-agent-swarm-visual-qa/spec.md": "# x\n"})
    assert state_findings(repo) == []


def test_upstream_shipped_state_has_no_active_feature_and_its_last_feature() -> None:
    text = (UPSTREAM_STATES / "1e19c3d-007-shipped.json").read_text("utf-8")
    repo = _repo({".gemstack/state.json": text, "specs/current/spec.md": "# c\n"})
    state = repo.state()
    assert state is not None and state.active_spec is None
    assert state.last_completed_feature is not None
    assert state.last_completed_feature.value == "specs/007-mechanical-test-matrix-closure-evidence/"
    # active_spec null: the reference's verify checks no feature (only `context` would fall
    # back to specs/current when choosing what to generate).
    assert repo.active_feature() is None


def test_upstream_active_spec_in_closure_phase() -> None:
    text = (UPSTREAM_STATES / "cc14db4-010-closure.json").read_text("utf-8")
    repo = _repo({".gemstack/state.json": text, "specs/010-agent-swarm-visual-qa/spec.md": "# x\n"})
    active = repo.active_feature()
    assert active is not None and active.name == "010-agent-swarm-visual-qa"
    state = repo.state()
    assert state is not None and [p.phase for p in state.phase_hashes] == ["spec", "plan", "tasks"]


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
        ("/repo/specs/009-x/", "specs/009-x", "009-x", None),
        ("/repo/./specs/009-x", "specs/009-x", "009-x", None),
        ("/REPO/specs/009-x", None, None, "lies outside the repository"),
        ("/repository/specs/009-x", None, None, "lies outside the repository"),
        ("/repo", None, None, "names the repository root"),
        ("./", None, None, "names the repository root"),
        ("C:\\repo\\specs\\009-x", None, None, "lies outside the repository"),
        ("/elsewhere/specs/009-x", None, None, "lies outside the repository"),
        ("specs/a/../b", "specs/b", "b", None),
        ("../specs/x", None, None, "leads outside the repository"),
        # Through the parent and back into the root, as Node's path.resolve reads it (issue 18).
        ("../repo/specs/009-x", "specs/009-x", "009-x", None),
        ("..\\repo\\specs\\009-x\\", "specs/009-x", "009-x", None),
        ("../repo/../repo/specs/009-x", "specs/009-x", "009-x", None),
        ("../repo", None, None, "names the repository root"),
        ("../repository/specs/009-x", None, None, "leads outside the repository"),
        ("../REPO/specs/009-x", None, None, "leads outside the repository"),
        # Above "/" is "/" again, so this comes back inside too, as in Node.
        ("../../repo/specs/009-x", "specs/009-x", "009-x", None),
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
    assert '"specs/010-missing/spec.md" does not exist' in f.message and f.message.startswith("State drift")


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


def test_active_spec_leaving_the_repository_is_an_error_and_other_folders_a_hint() -> None:
    (escape,) = state_findings(_repo({".gemstack/state.json": '{"active_spec": "../x"}'}))
    assert escape.effective_severity is Severity.BLOCKER
    other = state_findings(_repo({".gemstack/state.json": '{"active_spec": "features/x"}', "features/x/spec.md": ""}))
    assert [(f.code, f.effective_severity) for f in other] == [("STATE_INVALID", Severity.HINT)]


def test_windows_drive_root_compares_without_case() -> None:
    resolved = resolve_active_spec("c:\\REPO\\specs\\009-x\\", "C:\\repo")
    assert (resolved.path, resolved.feature_name) == ("specs/009-x", "009-x")


@pytest.mark.parametrize(
    "raw",
    ["specs/009-x", "./specs/009-x", "specs/009-x/", ".\\specs\\009-x\\", "/repo/specs/009-x", "specs/a/../009-x"],
)
def test_every_spelling_of_the_active_spec_names_the_same_feature(raw: str) -> None:
    text = json.dumps({"active_spec": raw})
    repo = _repo({".gemstack/state.json": text, "specs/009-x/spec.md": "# x\n"})
    active = repo.active_feature()
    assert active is not None and active.name == "009-x"
    assert state_findings(repo) == []
