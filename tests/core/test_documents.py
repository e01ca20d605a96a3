"""The documents check: one test per finding code it emits, on the fixture repository and small repos."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gemstack_lsp.core.documents import check_repo
from gemstack_lsp.core.findings import CATALOGUE, Finding
from gemstack_lsp.core.hashing import hash_bytes
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.reader import DirEntry, FileContent, MemoryReader, ReadStatus
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.fs import DiskReader

REFERENCE_REPO = Path(__file__).parents[1] / "fixtures" / "gemstack-reference" / "repo"
F009 = "specs/009-context-capsule"
F008 = "specs/008-cost-provider-safety-gates"


def fixture_files() -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for p in REFERENCE_REPO.rglob("*"):
        if p.is_file():
            out[p.relative_to(REFERENCE_REPO).as_posix()] = p.read_bytes()
    return out


def check(files: dict[str, Any], root: str = "/repo") -> list[Finding]:
    return list(check_repo(GemstackRepo(root, MemoryReader(files)), AnalysisOptions()))


def codes(findings: list[Finding]) -> list[str]:
    return [f.code for f in findings]


def text_at(files: dict[str, Any], f: Finding) -> str:
    data = files[f.path]
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    assert f.span is not None
    return str(text[f.span.start : f.span.end])


def edit(files: dict[str, bytes], path: str, old: str, new: str) -> None:
    text = files[path].decode("utf-8")
    assert text.count(old) == 1, old
    files[path] = text.replace(old, new).encode("utf-8")


def test_fixture_repository_has_no_documents_findings() -> None:
    repo = GemstackRepo(str(REFERENCE_REPO), DiskReader(REFERENCE_REPO))
    assert list(check_repo(repo, AnalysisOptions())) == []


def test_every_emitted_code_is_in_the_catalogue_under_the_documents_families() -> None:
    emitted = {
        "ARTIFACT_ENCODING_INVALID",
        "ARTIFACT_UNREADABLE",
        "FROZEN_CONTRACT_VIOLATION",
        "FROZEN_ARTIFACT_CHANGED",
        "BINDINGS_PARSE_ERROR",
        "TASK_VALIDATION_MISSING",
        "STATE_INVALID",
        "STATE_ACTIVE_SPEC_MISSING",
        "JSON_DUPLICATE_KEY",
    }
    assert emitted <= set(CATALOGUE)
    assert all(CATALOGUE[c].family not in ("capsule", "cost") for c in emitted)


# --- ARTIFACT_ENCODING_INVALID -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "span_text", "message"),
    [
        (b"\xef\xbb\xbf# Spec\n", "", "starts with a UTF-8 byte-order mark"),
        (b"# Sp\xc3\xa9c \xf0\x9f\x8e\x89 \xff here\n", "\ufffd", "byte 0xFF at byte offset 13"),
        (b"# ok\n\xc3\n", "\ufffd", "byte 0xC3 at byte offset 5"),
    ],
)
def test_ARTIFACT_ENCODING_INVALID(data: bytes, span_text: str, message: str) -> None:
    findings = check({f"{F008}/spec.md": data})
    (f,) = findings
    assert f.code == "ARTIFACT_ENCODING_INVALID"
    assert f.path == f"{F008}/spec.md"
    assert message in f.message
    text = data.decode("utf-8", errors="replace").removeprefix("\ufeff")
    assert f.span is not None
    assert text[f.span.start : f.span.end] == span_text
    if not span_text:
        assert (f.span.start, f.span.end) == (0, 0)


def test_ARTIFACT_ENCODING_INVALID_on_state_json() -> None:
    findings = check({".gemstack/state.json": b"\xef\xbb\xbf{}"})
    assert codes(findings) == ["ARTIFACT_ENCODING_INVALID"]
    assert findings[0].path == ".gemstack/state.json"


# --- ARTIFACT_UNREADABLE -------------------------------------------------------------------------


class StubReader:
    """A memory reader whose answers for some paths are replaced by a fixed read outcome."""

    def __init__(self, files: dict[str, Any], outcomes: dict[str, FileContent]) -> None:
        self.base = MemoryReader(files)
        self.outcomes = outcomes

    def read(self, path: str) -> FileContent:
        return self.outcomes.get(path) or self.base.read(path)

    def list_dir(self, path: str) -> list[DirEntry] | None:
        return self.base.list_dir(path)


@pytest.mark.parametrize(
    ("status", "detail", "reason"),
    [
        (ReadStatus.NOT_A_FILE, "is a directory", "it is not a regular file (is a directory)"),
        (ReadStatus.SYMLINK_OUTSIDE, "resolves to /etc/passwd", "symbolic link that leads outside the repository"),
        (ReadStatus.TOO_LARGE, "20000000 bytes", "too large to analyse (20000000 bytes)"),
        (ReadStatus.ERROR, "Permission denied", "could not be read (Permission denied)"),
    ],
)
def test_ARTIFACT_UNREADABLE(status: ReadStatus, detail: str, reason: str) -> None:
    path = f"{F008}/plan.md"
    reader = StubReader({f"{F008}/spec.md": "# spec\n"}, {path: FileContent(path, status, detail=detail)})
    findings = list(check_repo(GemstackRepo("/repo", reader), AnalysisOptions()))
    (f,) = findings
    assert (f.code, f.path, f.span) == ("ARTIFACT_UNREADABLE", path, None)
    assert reason in f.message


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_ARTIFACT_UNREADABLE_for_a_real_symlink_leaving_the_repository(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "specs" / "a").mkdir(parents=True)
    outside = tmp_path / "outside.md"
    outside.write_text("# secret\n")
    (root / "specs" / "a" / "spec.md").symlink_to(outside)
    (root / "specs" / "a" / "plan.md").mkdir()
    findings = list(check_repo(GemstackRepo(str(root), DiskReader(root)), AnalysisOptions()))
    assert sorted((f.code, f.path) for f in findings) == [
        ("ARTIFACT_UNREADABLE", "specs/a/plan.md"),
        ("ARTIFACT_UNREADABLE", "specs/a/spec.md"),
    ]


# --- FROZEN_CONTRACT_VIOLATION -------------------------------------------------------------------


def test_FROZEN_CONTRACT_VIOLATION_plan_against_spec_matches_the_reference_fingerprint(golden: dict[str, Any]) -> None:
    files = fixture_files()
    plan = f"{F009}/plan.md"
    plan_text = files[plan].decode("utf-8")
    start = plan_text.index('"id": "zero-dependency-core"', plan_text.index("```gemstack-contracts"))
    value_at = plan_text.index('"value": true', start)
    files[plan] = (plan_text[:value_at] + '"value": false' + plan_text[value_at + len('"value": true') :]).encode()
    files[".gemstack/state.json"] = b'{"active_spec": null}'
    findings = check(files)
    (f,) = findings
    assert (f.code, f.path, f.subject, f.phase) == ("FROZEN_CONTRACT_VIOLATION", plan, "zero-dependency-core", "plan")
    assert text_at(files, f) == "false"
    expected = next(
        g["fingerprint"]
        for g in golden["finding_fingerprints"]
        if g["input"]["code"] == "FROZEN_CONTRACT_VIOLATION" and g["input"]["location"] == plan
    )
    assert f.fingerprint == expected
    (rel,) = f.related
    spec_text = files[f"{F009}/spec.md"].decode("utf-8")
    assert rel.path == f"{F009}/spec.md" and rel.span is not None
    assert spec_text[rel.span.start : rel.span.end] == '"zero-dependency-core"'
    assert f.data["violationType"] == "BOOLEAN_CONTRADICTION"
    assert f.data["delta"] == {"expected": True, "observed": False}
    # The fix restores the spec's value.
    (fix,) = f.fixes
    (e,) = fix.edits
    fixed = files[plan].decode("utf-8")
    fixed = fixed[: e.span.start] + e.new_text + fixed[e.span.end :]
    files[plan] = fixed.encode("utf-8")
    assert check(files) == []


SPEC = """# Spec
```gemstack-contracts
[
  {"id": "states", "type": "ENUM_SET", "values": ["A", "B"]},
  {"id": "limit", "type": "ROADMAP_LIMIT", "value": 3},
  {"id": "net", "type": "BOUNDARY", "value": "FORBIDDEN"}
]
```
"""

PLAN = """# Plan
```gemstack-contracts
[
  {"id": "states", "type": "ENUM_SET", "values": ["B", " A "]},
  {"id": "plan-only", "type": "BOOLEAN_INVARIANT", "value": true}
]
```
"""


@pytest.mark.parametrize(
    ("tasks_block", "expected"),
    [
        # Redeclaring with the same normalised values is fine; so is a new id.
        (
            '[{"id": "states", "type": "ENUM_SET", "values": ["A", "B"]},'
            ' {"id": "t", "type": "BOUNDARY", "value": "REQUIRED"}]',
            [],
        ),
        (
            '[{"id": "states", "type": "ENUM_SET", "values": ["A", "C"]}]',
            [("states", '["A", "C"]', "ENUM_SET_MISMATCH")],
        ),
        ('[{"id": "limit", "type": "BOUNDARY", "value": "REQUIRED"}]', [("limit", '"BOUNDARY"', "TYPE_MUTATION")]),
        ('[{"id": "net", "type": "BOUNDARY", "value": "REQUIRED"}]', [("net", '"REQUIRED"', "BOUNDARY_CONTRADICTION")]),
        # Plan additions are frozen for tasks too, and the related location is plan.md then.
        (
            '[{"id": "plan-only", "type": "BOOLEAN_INVARIANT", "value": false}]',
            [("plan-only", "false", "BOOLEAN_CONTRADICTION")],
        ),
    ],
)
def test_FROZEN_CONTRACT_VIOLATION_tasks_against_spec_and_plan_additions(
    tasks_block: str, expected: list[tuple[str, str, str]]
) -> None:
    tasks = f"# Tasks\n```gemstack-contracts\n{tasks_block}\n```\n"
    files = {"specs/a/spec.md": SPEC, "specs/a/plan.md": PLAN, "specs/a/tasks.md": tasks}
    findings = check(files)
    got = [(f.subject, text_at(files, f), f.data["violationType"]) for f in findings]
    assert got == expected
    for f in findings:
        assert (f.code, f.path, f.phase) == ("FROZEN_CONTRACT_VIOLATION", "specs/a/tasks.md", "tasks")
        (rel,) = f.related
        assert rel.path == ("specs/a/plan.md" if f.subject == "plan-only" else "specs/a/spec.md")


# --- FROZEN_ARTIFACT_CHANGED ---------------------------------------------------------------------


def test_FROZEN_ARTIFACT_CHANGED_on_state_json_and_on_the_artifact() -> None:
    files = fixture_files()
    tasks = f"{F009}/tasks.md"
    files[tasks] = files[tasks].replace(b"- [x] **T001:", b"- [ ] **T001:", 1)
    findings = check(files)
    # The unticked box also contradicts the header's `TASKS_COMPLETE` (issue 18).
    expected = ["FROZEN_ARTIFACT_CHANGED", "FROZEN_ARTIFACT_CHANGED", "TASKS_LIFECYCLE_CONTRADICTED"]
    assert sorted(codes(findings)) == expected
    findings = [f for f in findings if f.code == "FROZEN_ARTIFACT_CHANGED"]
    on_state, on_tasks = sorted(findings, key=lambda f: f.path)
    assert on_state.path == ".gemstack/state.json"
    state_text = files[".gemstack/state.json"].decode("utf-8")
    assert on_state.span is not None
    assert (
        state_text[on_state.span.start : on_state.span.end]
        == '"8921f2faa46bed964ae74705f6a0870c69f5948b8d3d971b7fbb057d78bb7bff"'
    )
    assert on_tasks.path == tasks
    assert text_at(files, on_tasks) == "# Tareas de Implementación: Context Capsule / Context Compression (Upgrade D)"
    assert on_state.phase == on_tasks.phase == "tasks"
    assert on_state.data["actual"] == hash_bytes(files[tasks])
    assert "recorded 8921f2faa46b..." in on_state.message
    # Both say that regenerating the capsule does not clear them, and what does.
    for f in (on_state, on_tasks):
        assert "Regenerating the context capsule does not re-freeze the tasks phase" in f.message
        assert "approve the tasks phase again" in f.message and "phase_hashes.tasks" in f.message


def test_no_FROZEN_ARTIFACT_CHANGED_for_a_legacy_spec_or_crlf_line_endings() -> None:
    files = fixture_files()
    # CRLF hashes like LF (the reference normalises line endings before hashing).
    for name in ("spec.md", "plan.md", "tasks.md"):
        files[f"{F009}/{name}"] = files[f"{F009}/{name}"].replace(b"\n", b"\r\n")
    assert check(files) == []
    # A spec without a contracts block is "legacy": the reference checks no phase hashes.
    files[f"{F009}/spec.md"] = b"# no contracts\n"
    assert "FROZEN_ARTIFACT_CHANGED" not in codes(check(files))


# --- BINDINGS_PARSE_ERROR (unknown canonical id) ---------------------------------------------------

MATRIX_SPEC = """# Spec
```gemstack-test-matrix
[
  {"id": "TEST-A-A01", "category": "C", "layer": "UNIT", "description": "d", "pass_criteria": "p", "gate": "REQUIRED"}
]
```
"""

BINDINGS_PLAN = """# Plan
```gemstack-test-bindings
[
  {"test_id": "TEST-A-A01", "file": "tests/a.test.js"},
  {"test_id": "TEST-A-Z99", "file": "tests/z.test.js"}
]
```
"""


def test_BINDINGS_PARSE_ERROR_for_a_binding_the_matrix_does_not_declare() -> None:
    files = {"specs/a/spec.md": MATRIX_SPEC, "specs/a/plan.md": BINDINGS_PLAN}
    (f,) = check(files)
    assert (f.code, f.path, f.subject) == ("BINDINGS_PARSE_ERROR", "specs/a/plan.md", "TEST-A-Z99")
    assert f.message == 'Binding references unknown canonical ID: "TEST-A-Z99"'
    assert text_at(files, f) == '"TEST-A-Z99"'
    assert f.related[0].path == "specs/a/spec.md"


def test_no_unknown_binding_finding_without_a_matrix() -> None:
    assert check({"specs/a/spec.md": "# Spec\n", "specs/a/plan.md": BINDINGS_PLAN}) == []


# --- Pass-through of tasks, block and state findings ---------------------------------------------


@pytest.mark.parametrize(
    ("files", "code", "path", "span_text"),
    [
        (
            {"specs/a/tasks.md": "- [ ] **T001: t**\n"},
            "TASK_VALIDATION_MISSING",
            "specs/a/tasks.md",
            "- [ ] **T001: t**",
        ),
        (
            {"specs/a/spec.md": '```gemstack-contracts\n[{"id": "x", "type": "NOPE"}]\n```\n'},
            "CONTRACT_UNKNOWN_TYPE",
            "specs/a/spec.md",
            '"NOPE"',
        ),
        (
            {"specs/a/plan.md": "  ```gemstack-closure-gates\n  []\n  ```\n"},
            "FENCE_UNSEEN_BY_REFERENCE",
            "specs/a/plan.md",
            "  ```gemstack-closure-gates",
        ),
        ({".gemstack/state.json": '{"active_spec": 1}'}, "STATE_INVALID", ".gemstack/state.json", "1"),
        (
            {".gemstack/state.json": '{"active_spec": "specs/b"}', "specs/a/spec.md": ""},
            "STATE_ACTIVE_SPEC_MISSING",
            ".gemstack/state.json",
            '"specs/b"',
        ),
        ({".gemstack/state.json": '{"a": 1, "a": 2}'}, "JSON_DUPLICATE_KEY", ".gemstack/state.json", '"a"'),
    ],
)
def test_findings_of_tasks_blocks_and_state_are_reported(
    files: dict[str, str], code: str, path: str, span_text: str
) -> None:
    findings = check(files)
    assert [(f.code, f.path, text_at(files, f)) for f in findings] == [(code, path, span_text)]


def test_TASK_VALIDATION_MISSING() -> None:
    files = fixture_files()
    edit(files, f"{F008}/tasks.md", "  <!-- gemstack:tests=TEST-COST-D01,TEST-COST-D02 -->\n", "")
    (f,) = check(files)
    assert (f.code, f.subject, f.message) == (
        "TASK_VALIDATION_MISSING",
        "T005",
        "Task T005 has validation_required=true but specifies no tests",
    )


def test_STATE_INVALID() -> None:
    (f,) = check({".gemstack/state.json": "{,}"})
    assert f.code == "STATE_INVALID"
    assert f.span is not None and f.span.start == 1


def test_STATE_ACTIVE_SPEC_MISSING() -> None:
    files = fixture_files()
    edit(files, ".gemstack/state.json", '"active_spec": "specs/009-context-capsule"', '"active_spec": "specs/010-x"')
    assert codes(check(files)) == ["STATE_ACTIVE_SPEC_MISSING"]


# --- Bad input never crashes -----------------------------------------------------------------------

FRAGMENTS = [
    b"```gemstack-contracts\n",
    b"```gemstack-test-matrix\n",
    b"```gemstack-test-bindings\n",
    b"```\n",
    b"  ```gemstack-closure-gates\n",
    b'[{"id": "x", "type": "ENUM_SET", "values": ["a"]}]\n',
    b'{"test_id": "TEST-A-A01", "file": "../x"}',
    b"- [ ] **T001: t**\n",
    b"<!-- gemstack:tests=A,B -->\n",
    b"<!-- gemstack:validation_required=true -->\n",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"\r\n",
    b"\r",
    "é😀\u2028".encode(),
    b'{"active_spec": "specs/a", "phase_hashes": {"spec": "00"}}',
    b"[",
    b"}",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(FRAGMENTS), max_size=12).map(b"".join),
    st.lists(st.sampled_from(FRAGMENTS), max_size=12).map(b"".join),
    st.lists(st.sampled_from(FRAGMENTS), max_size=12).map(b"".join),
    st.lists(st.sampled_from(FRAGMENTS), max_size=6).map(b"".join),
)
def test_any_input_gives_findings_inside_their_documents(spec: bytes, plan: bytes, tasks: bytes, state: bytes) -> None:
    files = {"specs/a/spec.md": spec, "specs/a/plan.md": plan, "specs/a/tasks.md": tasks, ".gemstack/state.json": state}
    repo = GemstackRepo("/repo", MemoryReader(files))
    for f in check_repo(repo, AnalysisOptions()):
        assert f.code in CATALOGUE
        text = repo.document(f.path).text
        assert text is not None
        if f.span is not None:
            assert 0 <= f.span.start <= f.span.end <= len(text)
