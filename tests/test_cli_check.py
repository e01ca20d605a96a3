"""`gemstack-lsp check`: text, JSON and SARIF output, exit codes, path handling."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from gemstack_lsp.cli import main
from gemstack_lsp.core.findings import CATALOGUE, fingerprint

REFERENCE_REPO = Path(__file__).parent / "fixtures" / "gemstack-reference" / "repo"

TASKS_WITHOUT_VALIDATION = "# Tasks\n\n- [ ] **T001: Café ☕ task**\n  body\n"


@pytest.fixture
def broken_repo(tmp_path: Path) -> Path:
    """A small repository with one blocker (a task without validation) and one BOM."""
    root = tmp_path / "repo"
    shutil.copytree(REFERENCE_REPO, root)
    feature = root / "specs" / "008-cost-provider-safety-gates"
    (feature / "tasks.md").write_text(TASKS_WITHOUT_VALIDATION, "utf-8")
    return root


def _documents_family(code: str) -> bool:
    """Codes of this area (the capsule, closure and cost checks have their own tests)."""
    return CATALOGUE[code].family not in ("capsule", "closure", "cost")


def add_fresh_closure(root: Path, feature: str = "specs/009-context-capsule") -> None:
    """Write the closure evidence `gemstack collect` would write for ``feature`` now (VERIFIED)."""
    from gemstack_lsp.core.closure import compute_closure_context
    from gemstack_lsp.core.repo import GemstackRepo
    from gemstack_lsp.fs import DiskReader

    repo = GemstackRepo(str(root), DiskReader(root))
    fresh = compute_closure_context(repo, repo.feature_of(feature + "/spec.md"))  # type: ignore[arg-type]
    manifest = {
        "schema": "gemstack-closure",
        "version": 1,
        "feature": feature,
        "status": "VERIFIED",
        "closure_context": {"closure_context_hash": fresh.hash, "repository_type": fresh.repository.type},
    }
    (root / feature / "closure.json").write_text(json.dumps(manifest, indent=2) + "\n", "utf-8")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["check", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_fixture_fails_as_the_reference_verify_does(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The active feature 009 has a test matrix and no closure.json: the reference's verify exits 1.
    monkeypatch.chdir(REFERENCE_REPO)
    code, out, _ = run(capsys, "--format", "json")
    assert code == 1
    errors = [f for f in json.loads(out)["findings"] if f["severity"] == "error"]
    assert [(f["code"], f["path"]) for f in errors] == [
        ("CLOSURE_MANIFEST_MISSING", "specs/009-context-capsule/spec.md")
    ]


def test_clean_fixture_repository_exits_zero(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    root = tmp_path / "repo"
    shutil.copytree(REFERENCE_REPO, root)
    add_fresh_closure(root)
    monkeypatch.chdir(root)
    code, out, _ = run(capsys)
    assert code == 0, out
    assert re.fullmatch(
        r"0 errors, .* \(1 repository checked\)\.|No findings \(1 repository checked\)\.", out.splitlines()[-1]
    )
    code, out, _ = run(capsys, "--format", "json")
    assert code == 0
    assert [f for f in json.loads(out)["findings"] if _documents_family(f["code"])] == []


def test_text_format(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, broken_repo: Path) -> None:
    monkeypatch.chdir(broken_repo)
    code, out, _ = run(capsys, "specs")
    lines = out.strip().splitlines()
    assert code == 1
    assert (
        "specs/008-cost-provider-safety-gates/tasks.md:3:1: error TASK_VALIDATION_MISSING "
        "Task T001 must explicitly declare validation_required"
    ) in lines
    assert re.fullmatch(
        r"\d+ errors?, \d+ warnings?, \d+ information, \d+ hints? in \d+ files? \(1 repository checked\)\.", lines[-1]
    )


def test_text_paths_are_absolute_outside_the_current_directory(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, broken_repo: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, _ = run(capsys, str(broken_repo))
    assert code == 1
    expected = f"{broken_repo.resolve()}/specs/008-cost-provider-safety-gates/tasks.md:3:1: error"
    assert any(line.startswith(expected) for line in out.splitlines())


def test_json_format(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, broken_repo: Path) -> None:
    monkeypatch.chdir(broken_repo)
    code, out, _ = run(capsys, "--format", "json")
    assert code == 1
    payload = json.loads(out)
    (task,) = [f for f in payload["findings"] if f["code"] == "TASK_VALIDATION_MISSING"]
    path = "specs/008-cost-provider-safety-gates/tasks.md"
    assert task["severity"] == "error"
    assert task["path"] == path
    header = "- [ ] **T001: Café ☕ task**"
    # 0-based, UTF-16: every character of the header is one code unit.
    assert task["range"] == {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": len(header)}}
    assert task["fingerprint"] == fingerprint("TASK_VALIDATION_MISSING", "T001", "tasks", path)
    assert re.fullmatch(r"[0-9a-f]{64}", task["fingerprint"])
    summary = payload["summary"]
    assert summary["error"] == sum(1 for f in payload["findings"] if f["severity"] == "error")
    assert summary["total"] == len(payload["findings"])
    assert summary["repositories"] == 1
    assert summary["files"] == len({f["path"] for f in payload["findings"]})
    for key in ("warning", "information", "hint"):
        assert isinstance(summary[key], int)


def test_json_ranges_count_utf16_code_units(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    root = tmp_path / "repo"
    (root / "specs" / "a").mkdir(parents=True)
    (root / "specs" / "a" / "tasks.md").write_text("- [ ] **T001: 😀**\n", "utf-8")
    monkeypatch.chdir(root)
    _, out, _ = run(capsys, "--format", "json")
    (f,) = [f for f in json.loads(out)["findings"] if f["code"] == "TASK_VALIDATION_MISSING"]
    # The emoji is two UTF-16 code units.
    assert f["range"]["end"] == {"line": 0, "character": len("- [ ] **T001: ") + 2 + 2}


def test_exit_zero(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, broken_repo: Path) -> None:
    monkeypatch.chdir(broken_repo)
    code, out, _ = run(capsys, "--exit-zero")
    assert code == 0
    assert "TASK_VALIDATION_MISSING" in out


def test_paths_narrow_the_report(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, broken_repo: Path
) -> None:
    add_fresh_closure(broken_repo)
    monkeypatch.chdir(broken_repo)
    code, out, _ = run(capsys, "--format", "json", "specs/009-context-capsule")
    assert code == 0
    paths = {f["path"] for f in json.loads(out)["findings"]}
    assert all(p.startswith("specs/009-context-capsule/") for p in paths)
    code, out, _ = run(capsys, "--format", "json", "specs/008-cost-provider-safety-gates/tasks.md")
    assert code == 1
    assert {f["path"] for f in json.loads(out)["findings"]} == {"specs/008-cost-provider-safety-gates/tasks.md"}


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("missing", "no such file or directory"),
        ("no-repo", "is not inside a Gemstack repository"),
    ],
)
def test_unusable_path_exits_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, setup: str, message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "nothing-here"
    if setup == "no-repo":
        target.mkdir()
    code, out, err = run(capsys, str(target))
    assert code == 2
    assert out == ""
    assert err.startswith("gemstack-lsp check: ")
    assert message in err


def test_two_repositories_in_one_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, broken_repo: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    shutil.copytree(REFERENCE_REPO, other)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "--format", "json", str(broken_repo), str(other), str(broken_repo / "specs"))
    payload = json.loads(out)
    assert code == 1
    assert payload["summary"]["repositories"] == 2
    blockers = [f for f in payload["findings"] if f["code"] == "TASK_VALIDATION_MISSING"]
    assert {f["repository"] for f in blockers} == {str(broken_repo.resolve())}
    assert {f["repository"] for f in payload["findings"]} <= {str(broken_repo.resolve()), str(other.resolve())}


# --- SARIF ------------------------------------------------------------------------------------

#: The parts of the SARIF 2.1.0 schema (oasis-tcs/sarif-spec, sarif-schema-2.1.0.json) that a log
#: must satisfy, restated here as a readable record of what we rely on: required properties, enums
#: and minimums of every object we emit. The whole schema is checked too (``sarif_validator``).
SARIF_SUBSET: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "$schema": {"type": "string", "format": "uri"},
        "version": {"const": "2.1.0"},
        "runs": {"type": "array", "items": {"$ref": "#/$defs/run"}},
    },
    "$defs": {
        "message": {
            "type": "object",
            "anyOf": [{"required": ["text"]}, {"required": ["id"]}],
            "properties": {"text": {"type": "string"}},
        },
        "multiformatMessageString": {
            "type": "object",
            "required": ["text"],
            "properties": {"text": {"type": "string"}},
        },
        "run": {
            "type": "object",
            "required": ["tool"],
            "properties": {
                "tool": {"$ref": "#/$defs/tool"},
                "results": {"type": "array", "items": {"$ref": "#/$defs/result"}},
                "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
                "originalUriBaseIds": {
                    "type": "object",
                    "additionalProperties": {
                        "type": "object",
                        "properties": {"uri": {"type": "string", "pattern": "/$"}},
                    },
                },
            },
        },
        "tool": {"type": "object", "required": ["driver"], "properties": {"driver": {"$ref": "#/$defs/driver"}}},
        "driver": {
            "type": "object",
            "required": ["name"],
            "properties": {
                "name": {"type": "string"},
                "version": {"type": "string"},
                "informationUri": {"type": "string", "format": "uri"},
                "rules": {"type": "array", "items": {"$ref": "#/$defs/reportingDescriptor"}},
            },
        },
        "reportingDescriptor": {
            "type": "object",
            "required": ["id"],
            "properties": {
                "id": {"type": "string"},
                "shortDescription": {"$ref": "#/$defs/multiformatMessageString"},
                "fullDescription": {"$ref": "#/$defs/multiformatMessageString"},
                "help": {"$ref": "#/$defs/multiformatMessageString"},
                "helpUri": {"type": "string", "format": "uri"},
                "defaultConfiguration": {
                    "type": "object",
                    "properties": {"level": {"enum": ["none", "note", "warning", "error"]}},
                },
            },
        },
        "result": {
            "type": "object",
            "required": ["message"],
            "properties": {
                "ruleId": {"type": "string"},
                "ruleIndex": {"type": "integer", "minimum": -1},
                "level": {"enum": ["none", "note", "warning", "error"]},
                "message": {"$ref": "#/$defs/message"},
                "locations": {"type": "array", "items": {"$ref": "#/$defs/location"}},
                "relatedLocations": {"type": "array", "items": {"$ref": "#/$defs/location"}},
                "partialFingerprints": {"type": "object", "additionalProperties": {"type": "string"}},
            },
        },
        "location": {
            "type": "object",
            "properties": {
                "id": {"type": "integer", "minimum": -1},
                "physicalLocation": {"$ref": "#/$defs/physicalLocation"},
                "message": {"$ref": "#/$defs/message"},
            },
        },
        "physicalLocation": {
            "type": "object",
            "anyOf": [{"required": ["address"]}, {"required": ["artifactLocation"]}],
            "properties": {
                "artifactLocation": {
                    "type": "object",
                    "properties": {
                        "uri": {"type": "string", "format": "uri-reference"},
                        "uriBaseId": {"type": "string"},
                    },
                },
                "region": {
                    "type": "object",
                    "properties": {
                        "startLine": {"type": "integer", "minimum": 1},
                        "startColumn": {"type": "integer", "minimum": 1},
                        "endLine": {"type": "integer", "minimum": 1},
                        "endColumn": {"type": "integer", "minimum": 1},
                    },
                },
            },
        },
    },
}


def test_sarif_format(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, broken_repo: Path, sarif_validator: Any
) -> None:
    monkeypatch.chdir(broken_repo)
    code, out, _ = run(capsys, "--format", "sarif")
    assert code == 1
    log = json.loads(out)
    jsonschema.Draft202012Validator(SARIF_SUBSET, format_checker=jsonschema.FormatChecker()).validate(log)
    sarif_validator.validate(log)
    (run_,) = log["runs"]
    driver = run_["tool"]["driver"]
    assert driver["name"] == "gemstack-lsp"
    rules = driver["rules"]
    assert [r["id"] for r in rules] == list(CATALOGUE)
    for rule in rules:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        # A public page, never a path on the machine that ran the check.
        assert rule["helpUri"].startswith("https://") and rule["helpUri"].endswith("#" + rule["id"].lower())
    assert run_["columnKind"] == "utf16CodeUnits"
    assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] == broken_repo.resolve().as_uri() + "/"
    (result,) = [r for r in run_["results"] if r["ruleId"] == "TASK_VALIDATION_MISSING"]
    assert rules[result["ruleIndex"]]["id"] == "TASK_VALIDATION_MISSING"
    assert result["level"] == "error"
    (loc,) = result["locations"]
    assert loc["physicalLocation"]["artifactLocation"] == {
        "uri": "specs/008-cost-provider-safety-gates/tasks.md",
        "uriBaseId": "%SRCROOT%",
    }
    header = "- [ ] **T001: Café ☕ task**"
    assert loc["physicalLocation"]["region"] == {
        "startLine": 3,
        "startColumn": 1,
        "endLine": 3,
        "endColumn": len(header) + 1,
    }
    path = "specs/008-cost-provider-safety-gates/tasks.md"
    assert result["partialFingerprints"] == {
        "gemstackFingerprint/v1": fingerprint("TASK_VALIDATION_MISSING", "T001", "tasks", path)
    }


def test_sarif_uses_absolute_uris_outside_the_current_directory(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    broken_repo: Path,
    tmp_path: Path,
    sarif_validator: Any,
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    _, out, _ = run(capsys, "--format", "sarif", str(broken_repo))
    log = json.loads(out)
    jsonschema.Draft202012Validator(SARIF_SUBSET).validate(log)
    sarif_validator.validate(log)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
    assert (broken_repo.resolve() / "specs/008-cost-provider-safety-gates/tasks.md").as_uri() in uris


# --- The demo repository ----------------------------------------------------------------------

DEMO = Path(__file__).parents[1] / "examples" / "demo"

#: The problems planted in examples/demo (see its README): code, path, 1-based line and column.
DEMO_PROBLEMS = [
    ("CONTRACT_UNKNOWN_TYPE", "specs/008-cost-provider-safety-gates/spec.md", 152, 13),
    ("TEST_MATRIX_DUPLICATE_ID", "specs/008-cost-provider-safety-gates/spec.md", 459, 11),
    ("FROZEN_CONTRACT_VIOLATION", "specs/008-cost-provider-safety-gates/plan.md", 47, 14),
    ("BINDINGS_PARSE_ERROR", "specs/008-cost-provider-safety-gates/plan.md", 58, 16),
    ("FENCE_UNSEEN_BY_REFERENCE", "specs/008-cost-provider-safety-gates/plan.md", 167, 1),
    ("TASK_VALIDATION_MISSING", "specs/008-cost-provider-safety-gates/tasks.md", 44, 1),
]

#: The finding families whose planted problems are listed above.
DEMO_DOCUMENT_FAMILIES = {"contracts", "matrix", "bindings", "gates", "tasks", "documents"}


def test_demo_reports_each_planted_problem(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(DEMO.parents[1])
    code, out, _ = run(capsys, "--format", "json", "examples/demo")
    assert code == 1
    found = {
        (f["code"], f["path"], f["range"]["start"]["line"] + 1, f["range"]["start"]["character"] + 1)
        for f in json.loads(out)["findings"]
        if CATALOGUE[f["code"]].family in DEMO_DOCUMENT_FAMILIES
    }
    assert found == set(DEMO_PROBLEMS)


def test_demo_text_report_lists_the_problems_relative_to_the_current_directory(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(DEMO.parents[1])
    _, out, _ = run(capsys, "examples/demo")
    for code, path, line, col in DEMO_PROBLEMS:
        assert any(
            row.startswith(f"examples/demo/{path}:{line}:{col}: ") and f" {code} " in row for row in out.splitlines()
        )


def test_console_entry_point_runs_check_without_loading_the_language_server() -> None:
    probe = (
        "import sys\n"
        "from gemstack_lsp.cli import main\n"
        "code = main(['check', '--format', 'json', sys.argv[1]])\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol'))\n"
        "sys.stderr.write(repr(loaded))\n"
        "raise SystemExit(code)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe, str(DEMO)], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == "[]"
    assert {f["code"] for f in json.loads(proc.stdout)["findings"]} >= {code for code, *_ in DEMO_PROBLEMS}
