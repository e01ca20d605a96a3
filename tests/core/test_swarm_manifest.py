"""Swarm manifests and visual QA (Gemstack 1.4, verify stages 5.3 and 5.4).

Three kinds of tests:

- the upstream 1.4.0 slice (tests/fixtures/upstream-010, feature 010 as its authors keep it):
  no false alarm as kept, and each breaking edit of its swarm.json draws the reference's code
  on the offending value, with the reference's message;
- Regenerate: a capsule written for 010 makes its swarm.json stale at once (SWARM_CONTEXT_STALE
  on source_capsule_hash), ``context generate`` says so, and the finding's fix records the new
  hash and clears it;
- differential cases: the expectations of upstream's own tests, re-implemented here (each test
  names the upstream test file and commit it follows), plus the places where the reference's
  JavaScript would throw.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.cli import main as cli_main
from gemstack_lsp.core.findings import Finding, Severity
from gemstack_lsp.core.reader import FileContent, MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.core.swarm import capsule_file_hash, declared_task_ids
from gemstack_lsp.core.text import Span
from gemstack_lsp.fs import DiskReader
from tests.conftest import FIXTURES
from tests.core.upstream_e_data import (
    IMAGE,
    IMAGE_BYTES,
    SWARM,
    VQA,
    edited,
    files,
    findings,
    reference_hash,
    swarm_manifest,
    vqa_manifest,
)

UPSTREAM = FIXTURES / "upstream-010"
F10 = "specs/010-agent-swarm-visual-qa"
EMPTY_HASH = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


@pytest.fixture
def upstream(tmp_path: Path) -> Path:
    root = tmp_path / "Gemstack"
    shutil.copytree(UPSTREAM, root, ignore=shutil.ignore_patterns("README.md"))
    return root


def on_disk(root: Path) -> list[Finding]:
    repo = GemstackRepo(str(root), DiskReader(root))
    return [f for f in analyze(repo) if f.code.startswith(("SWARM_", "VQA_"))]


def spanned(f: Finding, text: str) -> str:
    assert f.span is not None
    return text[f.span.start : f.span.end]


def described(found: list[Finding], root: Path) -> list[tuple[str, Severity, str, str]]:
    """(code, severity, the text under the span, message) of each finding."""
    out = []
    for f in found:
        text = (root / f.path).read_text("utf-8")
        out.append((f.code, f.effective_severity, spanned(f, text), f.message))
    return out


# ---------------------------------------------------------------------------------------------
# The upstream slice


def test_the_upstream_feature_as_kept_raises_nothing(upstream: Path) -> None:
    assert on_disk(upstream) == []
    # As shipped at 2.0 (active_spec null), the feature is still clean.
    state = upstream / ".gemstack" / "state.json"
    data = json.loads(state.read_text("utf-8"))
    data["active_spec"] = None
    state.write_text(json.dumps(data, indent=2), "utf-8")
    assert on_disk(upstream) == []


def _task(m: dict[str, Any], i: int) -> dict[str, Any]:
    task: dict[str, Any] = m["waves"][0]["tasks"][i]
    return task


BREAKING_EDITS: list[tuple[str, Any, str, str, str]] = [
    (
        "version",
        lambda m: m.update(version="2.0.0"),
        "SWARM_INVALID_SCHEMA",
        '"2.0.0"',
        'Unsupported swarm schema version: "2.0.0". Expected "1.0.0".',
    ),
    (
        "role",
        lambda m: _task(m, 0).update(assigned_role="architect"),
        "SWARM_ASSIGNMENT_INVALID",
        '"architect"',
        'Assigned role "architect" is not in canonical roles: implementer, reviewer, security-auditor, coordinator.',
    ),
    (
        "worker id",
        lambda m: _task(m, 1).update(worker_id="   "),
        "SWARM_ASSIGNMENT_INVALID",
        '"   "',
        "Worker ID must be a non-empty explicit string.",
    ),
    (
        "max_workers",
        lambda m: m.update(max_workers=1),
        "SWARM_WORKER_LIMIT_EXCEEDED",
        '"worker-impl-gamma"',
        "Wave 1 declared 2 workers, exceeding maximum allowed (1).",
    ),
    (
        "write collision",
        lambda m: _task(m, 1).update(write_set=["src\\lib\\contracts.js"]),
        "SWARM_WRITE_COLLISION",
        '"src\\\\lib\\\\contracts.js"',
        'Write collision on "src/lib/contracts.js": concurrently claimed by "UE-T001" and "UE-T002".',
    ),
    (
        "self-review",
        lambda m: _task(m, 1)["review"].update(reviewer_id=" Worker-Impl-Gamma "),
        "SWARM_SELF_REVIEW_DETECTED",
        '" Worker-Impl-Gamma "',
        'Self-review detected on task "UE-T002": Author "worker-impl-gamma" is identical to Reviewer '
        '"Worker-Impl-Gamma".',
    ),
    (
        "orphan task",
        lambda m: _task(m, 0).update(task_id="UE-T030"),
        "SWARM_TASK_ORPHANED",
        '"UE-T030"',
        'Task "UE-T030" in swarm manifest is not declared in authoritative tasks.md.',
    ),
]


@pytest.mark.parametrize(
    ("change", "code", "under", "message"),
    [edit[1:] for edit in BREAKING_EDITS],
    ids=[edit[0] for edit in BREAKING_EDITS],
)
def test_each_breaking_edit_of_the_upstream_manifest_draws_the_reference_code(
    upstream: Path, change: Any, code: str, under: str, message: str
) -> None:
    path = upstream / F10 / "swarm.json"
    manifest = json.loads(path.read_text("utf-8"))
    change(manifest)
    path.write_text(json.dumps(manifest, indent=2), "utf-8")
    assert described(on_disk(upstream), upstream) == [(code, Severity.BLOCKER, under, message)]


def test_a_feature_that_is_not_active_gets_warnings(upstream: Path) -> None:
    state = upstream / ".gemstack" / "state.json"
    state.write_text(json.dumps({"active_spec": None}), "utf-8")
    path = upstream / F10 / "swarm.json"
    manifest = json.loads(path.read_text("utf-8"))
    _task(manifest, 1)["review"]["reviewer_id"] = "worker-impl-gamma"
    path.write_text(json.dumps(manifest, indent=2), "utf-8")
    assert [(f.code, f.effective_severity) for f in on_disk(upstream)] == [
        ("SWARM_SELF_REVIEW_DETECTED", Severity.WARNING)
    ]


# ---------------------------------------------------------------------------------------------
# Regenerate and the upstream gate


def test_regenerating_the_capsule_makes_the_swarm_manifest_stale_and_says_so(
    upstream: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_main(["context", "generate", "--target", str(upstream)]) == 0
    out = capsys.readouterr()
    capsule = (upstream / F10 / "context-capsule.json").read_bytes()
    live = reference_hash(capsule)
    assert (
        f"[SWARM_CONTEXT_STALE] {F10}/swarm.json records the previous capsule (source_capsule_hash "
        f"{EMPTY_HASH[:12]}...), not this one ({live[:12]}...): upstream `gemstack verify` will fail with "
        "SWARM_CONTEXT_STALE until source_capsule_hash is updated" in out.err
    )
    found = on_disk(upstream)
    assert described(found, upstream) == [
        (
            "SWARM_CONTEXT_STALE",
            Severity.BLOCKER,
            f'"{EMPTY_HASH}"',
            f"Swarm manifest source_capsule_hash ({EMPTY_HASH[:12]}...) is stale. Live: {live[:12]}...",
        )
    ]
    # The check reports it too, at once.
    assert cli_main(["check", str(upstream)]) != 0
    assert "SWARM_CONTEXT_STALE" in capsys.readouterr().out
    # The fix records the new hash in swarm.json, and changes nothing else.
    (fix,) = found[0].fixes
    (edit,) = fix.edits
    path = upstream / F10 / "swarm.json"
    before = path.read_text("utf-8")
    after = before[: edit.span.start] + edit.new_text + before[edit.span.end :]
    assert after == before.replace(EMPTY_HASH, live)
    path.write_text(after, "utf-8")
    assert on_disk(upstream) == []
    # And regenerating the same capsule again has nothing to say about the swarm.
    assert cli_main(["context", "generate", "--target", str(upstream), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    again = (upstream / F10 / "context-capsule.json").read_bytes()
    # Unchanged sources give the same capsule (the swarm is current); a new capsule is stale again.
    assert ("swarm_context_stale" in document) == (again != capsule)


def test_context_generate_json_reports_the_stale_swarm(upstream: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["context", "generate", "--target", str(upstream), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert "upstream `gemstack verify` will fail with SWARM_CONTEXT_STALE" in document["swarm_context_stale"]


def test_the_capsule_hash_is_the_reference_file_hash() -> None:
    # hasher.js @ 978b898: CRLF and lone CR become LF, invalid bytes are read as U+FFFD.
    data = b'{\r\n  "a": "\xff\xfe"\r}\n'
    assert capsule_file_hash(data.decode("utf-8", errors="replace")) == reference_hash(data)


# ---------------------------------------------------------------------------------------------
# Differential: upstream tests/swarm-partitioning.test.js @ cc14db40e3636d6a4899bcce1e2cc75570689374


def test_a01_disjoint_write_sets_are_clean() -> None:
    assert findings(files(swarm_manifest())) == []


def test_a02_a_shared_path_in_one_wave_is_one_collision() -> None:
    wave = {
        "wave_index": 1,
        "tasks": [
            {"task_id": "T001", "worker_id": "w1", "assigned_role": "implementer", "write_set": ["src/lib/c.js"]},
            {"task_id": "T002", "worker_id": "w2", "assigned_role": "implementer", "write_set": ["src/lib/c.js"]},
        ],
    }
    found = findings(files(swarm_manifest(waves=[wave])))
    assert [(f.code, f.subject) for f in found] == [("SWARM_WRITE_COLLISION", "exclusive-task-write-ownership")]
    # The same path in two waves is no collision: waves run one after the other.
    first, second = (dict(wave, tasks=[t]) for t in wave["tasks"])
    assert findings(files(swarm_manifest(waves=[first, second]))) == []


def test_authority_override_is_a_conflict() -> None:
    found = findings(files(swarm_manifest(overrides_spec=True)))
    assert [(f.code, f.subject) for f in found] == [("SWARM_AUTHORITY_CONFLICT", "swarm-authority-subordinate")]
    assert findings(files(swarm_manifest(alter_contracts=True)))[0].code == "SWARM_AUTHORITY_CONFLICT"
    # Only the boolean true counts (=== true).
    assert findings(files(swarm_manifest(overrides_spec="true", alter_contracts=1))) == []


def test_task_ownership_finds_the_one_orphan() -> None:
    tasks_md = "\n# Tasks\n### Task UE-T001\nSome description\n### Task UE-T002\nAnother description\n"
    wave = {
        "wave_index": 1,
        "tasks": [
            {"task_id": "UE-T001", "worker_id": "worker-1", "assigned_role": "implementer", "write_set": []},
            {"task_id": "UNKNOWN-TASK-999", "worker_id": "worker-2", "assigned_role": "implementer", "write_set": []},
        ],
    }
    repo_files = files(swarm_manifest(waves=[wave]), extra={"specs/a/tasks.md": tasks_md})
    found = findings(repo_files)
    assert [f.code for f in found] == ["SWARM_TASK_ORPHANED"]
    assert spanned(found[0], str(repo_files[SWARM])) == '"UNKNOWN-TASK-999"'


def test_task_ids_are_the_first_reference_pattern_of_each_line() -> None:
    text = "T001 and T002\n- [ ] task-7 TASK-ab_1\nUE_T003 UE-T004\r\nt005x T006\n"
    # Only the first match of a line; case-insensitive; \b is ASCII; TASK- ids take [A-Za-z0-9_-].
    assert declared_task_ids(text) == {"T001", "TASK-7", "UE-T004", "T006"}
    # No declared id at all: nothing is an orphan.
    assert findings(files(swarm_manifest(), extra={"specs/a/tasks.md": "# Tasks\n\nnone yet\n"})) == []


# ---------------------------------------------------------------------------------------------
# Differential: upstream tests/swarm-review.test.js @ cc14db40e3636d6a4899bcce1e2cc75570689374


def _one_task(**task: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"task_id": "T001", "worker_id": "worker-alice", "assigned_role": "implementer"}
    base.update(task)
    return swarm_manifest(waves=[{"wave_index": 1, "tasks": [base]}])


def test_b01_self_review_is_detected() -> None:
    found = findings(files(_one_task(review={"reviewer_id": "worker-alice", "reviewer_role": "reviewer"})))
    assert [(f.code, f.subject) for f in found] == [("SWARM_SELF_REVIEW_DETECTED", "author-not-reviewer")]


def test_b02_a_distinct_reviewer_is_accepted() -> None:
    assert findings(files(_one_task(review={"reviewer_id": "worker-bob", "reviewer_role": "reviewer"}))) == []


def test_a_reviewer_with_files_to_write_is_a_write_set_violation() -> None:
    found = findings(files(_one_task(assigned_role="reviewer", write_set=["src/lib/foo.js"])))
    assert [(f.code, f.effective_severity) for f in found] == [("SWARM_WRITE_SET_VIOLATION", Severity.WARNING)]
    assert findings(files(_one_task(assigned_role="reviewer", write_set=[]))) == []


def test_recursive_spawning_is_denied() -> None:
    found = findings(files(_one_task(worker_id="worker-1", spawned_children=["worker-child-1", "worker-child-2"])))
    assert [f.code for f in found] == ["SWARM_RECURSIVE_SPAWN_DENIED"]
    assert found[0].message == (
        'Worker "worker-1" claimed spawned child workers. Recursive subagent spawning is prohibited.'
    )
    assert findings(files(_one_task(spawned_children=[]))) == []


def test_the_worker_limit_counts_distinct_truthy_workers() -> None:
    tasks = [
        {"task_id": f"T00{i}", "worker_id": w, "assigned_role": "implementer"}
        for i, w in enumerate(["a", "b", "c", "d", "a"], 1)
    ]
    assert (
        findings(files(swarm_manifest(waves=[{"wave_index": 2, "tasks": tasks}]), extra={"specs/a/tasks.md": ""})) == []
    )
    tasks.append({"task_id": "T006", "worker_id": "e", "assigned_role": "implementer"})
    found = findings(files(swarm_manifest(waves=[{"wave_index": 2, "tasks": tasks}]), extra={"specs/a/tasks.md": ""}))
    assert [f.message for f in found] == ["Wave 2 declared 5 workers, exceeding maximum allowed (4)."]
    # max_workers above the hard limit of 8 still stops at 8; "0" and 0 fall back to 4 as `||` does.
    many = [{"task_id": f"T1{i:02d}", "worker_id": f"w{i}", "assigned_role": "implementer"} for i in range(9)]
    big = swarm_manifest(max_workers=20, waves=[{"wave_index": 1, "tasks": many}])
    assert [f.message for f in findings(files(big, extra={"specs/a/tasks.md": ""}))] == [
        "Wave 1 declared 9 workers, exceeding maximum allowed (20)."
    ]
    assert findings(files(swarm_manifest(max_workers=0), extra={"specs/a/tasks.md": ""})) == []


# ---------------------------------------------------------------------------------------------
# Schema and where the reference's JavaScript throws


@pytest.mark.parametrize(
    ("manifest", "message", "under"),
    [
        ("[]", "Swarm manifest root must be a JSON object.", "[]"),
        ("null", "Swarm manifest root must be a JSON object.", "null"),
        (
            '{"feature_id": "a", "waves": [], "version": 1}',
            'Unsupported swarm schema version: "1". Expected "1.0.0".',
            "1",
        ),
        ('{"feature_id": "", "waves": []}', 'Swarm manifest must declare a valid "feature_id".', '""'),
        ('{"feature_id": "a", "waves": {}}', 'Swarm manifest must declare a "waves" array.', "{}"),
        (
            '{"feature_id": "a", "waves": [null]}',
            "waves[0] is null: upstream `gemstack verify` stops with a TypeError here.",
            "null",
        ),
        (
            '{"feature_id": "a", "waves": [{"tasks": "T001"}]}',
            "waves[0].tasks is neither an array nor empty: upstream `gemstack verify` stops with a TypeError here.",
            '"T001"',
        ),
        (
            '{"feature_id": "a", "waves": [{"tasks": [{"task_id": "T001", "write_set": [7]}]}]}',
            "waves[0].tasks[0].write_set[0] is neither a string nor empty: upstream `gemstack verify` stops with a "
            "TypeError here.",
            "7",
        ),
        (
            '{"feature_id": "a", "waves": [{"tasks": [{"task_id": 5, "worker_id": "w", "assigned_role": "x"}]}]}',
            "waves[0].tasks[0].task_id is neither a string nor empty: upstream `gemstack verify` stops with a "
            "TypeError here.",
            "5",
        ),
    ],
)
def test_a_manifest_the_reference_refuses_is_one_schema_finding(manifest: str, message: str, under: str) -> None:
    found = findings(files(manifest))
    assert [(f.code, f.message, spanned(f, manifest)) for f in found] == [("SWARM_INVALID_SCHEMA", message, under)]


def test_each_root_schema_problem_is_listed() -> None:
    manifest = '{"version": "0.9"}'
    found = findings(files(manifest))
    assert sorted(f.message for f in found) == [
        'Swarm manifest must declare a "waves" array.',
        'Swarm manifest must declare a valid "feature_id".',
        'Unsupported swarm schema version: "0.9". Expected "1.0.0".',
    ]
    # The absent members are reported on the object's opening brace.
    assert sorted(spanned(f, manifest) for f in found) == ['"0.9"', "{", "{"]


def test_unparsable_and_unreadable_manifests() -> None:
    (bad,) = findings(files('{"feature_id": "a",}'))
    assert bad.code == "SWARM_INVALID_SCHEMA" and bad.message.startswith("Invalid JSON in swarm manifest: ")
    (bom,) = findings(files(b'\xef\xbb\xbf{"feature_id": "a", "waves": []}'))
    assert bom.code == "SWARM_INVALID_SCHEMA" and "byte-order mark" in bom.message
    (unreadable,) = findings(files(extra={"specs/a/swarm.json/inner": "x"}))
    assert unreadable.code == "SWARM_UNREADABLE" and unreadable.span is None


def test_a_stale_hash_recorded_for_a_capsule_that_does_not_exist_is_not_checked() -> None:
    assert findings(files(swarm_manifest(source_capsule_hash="0" * 64))) == []
    capsule = b'{"schema_version": 1}\r\n'
    with_capsule = files(
        swarm_manifest(source_capsule_hash=reference_hash(capsule)), extra={"specs/a/context-capsule.json": capsule}
    )
    assert findings(with_capsule) == []


# ---------------------------------------------------------------------------------------------
# Differential: upstream tests/visual-manifest.test.js @ cc14db40e3636d6a4899bcce1e2cc75570689374


def test_the_visual_manifest_as_written_is_clean() -> None:
    assert findings(files(vqa=vqa_manifest())) == []


@pytest.mark.parametrize(
    ("scenarios", "code", "message"),
    [
        (
            [{"scenario_id": "VQA-01", "viewport": {"width": 1920, "height": 1080}}],
            "VQA_INVALID_MANIFEST",
            'Scenario "VQA-01" is missing required "route".',
        ),
        (
            [{"scenario_id": "VQA-01", "route": "/dashboard"}],
            "VQA_INVALID_MANIFEST",
            'Scenario "VQA-01" is missing required "viewport" configuration.',
        ),
        (
            [
                {"scenario_id": "VQA-01", "route": "/a", "viewport": {"width": 1920, "height": 1080}},
                {"scenario_id": "VQA-01", "route": "/b", "viewport": {"width": 1920, "height": 1080}},
            ],
            "VQA_INVALID_MANIFEST",
            'Duplicate scenario_id detected: "VQA-01".',
        ),
        (
            [{"scenario_id": "VQA-01", "route": "/", "viewport": {"width": 1920, "height": -100}}],
            "VQA_INVALID_VIEWPORT",
            'Scenario "VQA-01": Viewport height must be a positive integer.',
        ),
        (
            [{"scenario_id": "VQA-01", "route": "/", "viewport": {"width": 0, "height": 800}}],
            "VQA_INVALID_VIEWPORT",
            'Scenario "VQA-01": Viewport width must be a positive integer.',
        ),
        (
            [{"scenario_id": "VQA-01", "route": "/", "viewport": {"width": 1920.5, "height": 800}}],
            "VQA_INVALID_VIEWPORT",
            'Scenario "VQA-01": Viewport width must be a positive integer.',
        ),
        (
            [
                {
                    "scenario_id": "VQA-01",
                    "route": "/",
                    "viewport": {"width": 10, "height": 8, "device_scale_factor": None},
                }
            ],
            "VQA_INVALID_VIEWPORT",
            'Scenario "VQA-01": Viewport device_scale_factor must be a positive number.',
        ),
        (
            [{"route": "/", "viewport": {"width": 1, "height": 1}}],
            "VQA_INVALID_MANIFEST",
            'Every visual QA scenario must declare an explicit "scenario_id".',
        ),
    ],
)
def test_a01_a02_scenarios_and_viewports(scenarios: list[Any], code: str, message: str) -> None:
    found = findings(files(vqa=vqa_manifest(scenarios=scenarios)))
    assert [(f.code, f.message) for f in found] == [(code, message)]


def test_a_null_scenario_is_what_upstream_reports_it_as() -> None:
    found = findings(files(vqa=vqa_manifest(scenarios=[None])))
    assert [(f.code, f.message) for f in found] == [
        (
            "VQA_INVALID_MANIFEST",
            "scenarios[0] is null (upstream reports: Cannot read properties of null (reading 'scenario_id')).",
        )
    ]


def test_a02_valid_profiles_pass() -> None:
    for width, height, scale in ((1920, 1080, 1), (375, 667, 2), (768, 1024, 1.5)):
        scenario = {
            "scenario_id": "S",
            "route": "/",
            "viewport": {"width": width, "height": height, "device_scale_factor": scale},
        }
        assert [f.code for f in findings(files(vqa=vqa_manifest(scenarios=[scenario])))] == ["VQA_BASELINE_MISSING"]


def test_b01_the_baseline_hash_is_checked() -> None:
    original = b"FAKE_PNG_BYTES_CANONICAL"
    manifest = edited(
        vqa_manifest(),
        lambda m: m["scenarios"][0]["baseline"].update(image_sha256=reference_hash(original)),
    )
    assert findings(files(vqa=manifest, extra={IMAGE: original})) == []
    repo_files = files(vqa=manifest, extra={IMAGE: b"TAMPERED_PNG_BYTES_ANOMALY"})
    found = findings(repo_files)
    assert [(f.code, f.subject) for f in found] == [("VQA_BASELINE_TAMPERED", "baseline-explicit-update-only")]
    assert found[0].message == (
        f'Baseline image "{IMAGE}" was modified on disk without explicit promotion. '
        f"Recorded: {reference_hash(original)[:12]}..., Actual: {reference_hash(b'TAMPERED_PNG_BYTES_ANOMALY')[:12]}..."
    )
    assert spanned(found[0], str(repo_files[VQA])) == json.dumps(reference_hash(original))


def test_the_image_hash_is_the_reference_text_hash_of_its_bytes() -> None:
    # A binary image: upstream hashes it as UTF-8 text (invalid bytes replaced, CR to LF).
    crlf = b"\x89PNG\r\n\x1a\n\x00\xff"
    manifest = edited(vqa_manifest(), lambda m: m["scenarios"][0]["baseline"].update(image_sha256=reference_hash(crlf)))
    assert findings(files(vqa=manifest, extra={IMAGE: crlf})) == []


def test_b02_verification_reads_the_baseline_and_never_writes_it(tmp_path: Path) -> None:
    for rel, content in files(vqa=vqa_manifest()).items():
        target = tmp_path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert on_disk(tmp_path) == []
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize(
    ("change", "code", "message"),
    [
        (
            lambda b: b.update(image_path="specs/a/baselines/none.png"),
            "VQA_BASELINE_MISSING",
            'Baseline image file "specs/a/baselines/none.png" does not exist on disk.',
        ),
        (
            lambda b: b.update(image_path="specs/a/baselines"),
            "VQA_BASELINE_MISSING",
            'Baseline image file "specs/a/baselines" is not a file (EISDIR: illegal operation on a directory, read): '
            "upstream `gemstack verify` stops with an error here.",
        ),
        (
            lambda b: b.update(image_path="../outside.png"),
            "VQA_BASELINE_TAMPERED",
            "Error validating baseline path: [PATH_TRAVERSAL_DETECTED] Path Traversal blocked: ../outside.png "
            "(a baseline outside the repository is never read).",
        ),
        (
            lambda b: b.pop("image_path"),
            "VQA_INVALID_MANIFEST",
            "scenarios[0].baseline.image_path is not a string: upstream `gemstack verify` stops with an error here.",
        ),
        (
            lambda b: b.update(image_sha256=None),
            "VQA_INVALID_MANIFEST",
            "scenarios[0].baseline.image_sha256 is not a string: upstream `gemstack verify` stops with an error here.",
        ),
    ],
)
def test_baseline_paths_and_hashes(change: Any, code: str, message: str) -> None:
    manifest = edited(vqa_manifest(), lambda m: change(m["scenarios"][0]["baseline"]))
    assert [(f.code, f.message) for f in findings(files(vqa=manifest))] == [(code, message)]


def test_a_leading_slash_is_inside_the_repository_as_path_join_reads_it() -> None:
    manifest = edited(vqa_manifest(), lambda m: m["scenarios"][0]["baseline"].update(image_path="/" + IMAGE))
    assert findings(files(vqa=manifest)) == []


class _Recording(MemoryReader):
    def __init__(self, repo_files: dict[str, str | bytes]) -> None:
        super().__init__(repo_files)
        self.paths: list[str] = []

    def read(self, path: str) -> FileContent:
        self.paths.append(path)
        return super().read(path)


def test_a_baseline_outside_the_repository_is_never_read(tmp_path: Path) -> None:
    manifest = edited(vqa_manifest(), lambda m: m["scenarios"][0]["baseline"].update(image_path="specs/../../x.png"))
    reader = _Recording(files(vqa=manifest))
    found = [f for f in analyze(GemstackRepo("/repo", reader)) if f.code.startswith("VQA_")]
    assert [f.code for f in found] == ["VQA_BASELINE_TAMPERED"]
    assert not [p for p in reader.paths if p.endswith("x.png")]
    # A symbolic link inside that leads outside is refused the same way, on disk.
    outside = tmp_path / "outside.png"
    outside.write_bytes(IMAGE_BYTES)
    root = tmp_path / "repo"
    for rel, content in files(vqa=vqa_manifest()).items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if rel == IMAGE:
            target.symlink_to(outside)
        else:
            target.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    assert [f.code for f in on_disk(root)] == ["VQA_BASELINE_TAMPERED"]


def test_a_missing_baseline_is_reported_on_the_scenario() -> None:
    manifest = edited(vqa_manifest(), lambda m: m["scenarios"][0].pop("baseline"))
    repo_files = files(vqa=manifest)
    (found,) = findings(repo_files)
    assert (found.code, found.message) == (
        "VQA_BASELINE_MISSING",
        'Scenario "VQA-HOME-001" does not declare a baseline.',
    )
    assert spanned(found, str(repo_files[VQA])) == '"VQA-HOME-001"'
    assert found.span is not None and isinstance(found.span, Span)
