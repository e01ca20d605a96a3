"""`gemstack-lsp context generate|verify|show`: output lines, exit codes, JSON, writing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gemstack_lsp.cli import main

F9 = "specs/009-context-capsule"
F8 = "specs/008-cost-provider-safety-gates"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["context", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_generate_then_verify_and_show(reference_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = str(reference_repo)
    code, out, _ = run(capsys, "generate", "--target", target)
    capsule = reference_repo / F9 / "context-capsule.json"
    assert code == 0
    assert out.splitlines()[0] == f'[INFO] Generating context capsule for "{F9}" in: {reference_repo.resolve()}'
    size = len(capsule.read_bytes())
    assert out.splitlines()[-1] == (
        f"[OK] Context capsule generated successfully: {capsule.resolve()} ({size} bytes, 39 invariants)."
    )
    assert [p.name for p in capsule.parent.iterdir() if p.name.startswith(".context-capsule")] == []

    code, out, _ = run(capsys, "verify", "--target", target)
    assert code == 0
    assert out.splitlines() == [
        f'[INFO] Auditing context capsule for "{F9}" in: {reference_repo.resolve()}',
        f"[OK] [OK] Context capsule is VALID and FRESH for {F9}.",
    ]

    code, out, _ = run(capsys, "show", "--target", target)
    lines = out.splitlines()
    assert code == 0
    assert lines[:9] == [
        "=== Gemstack Context Capsule ===",
        "Schema Version: 1",
        "Project:        gemstack-fixture",
        f"Feature:        {F9}",
        "Lifecycle:      IMPLEMENTING",
        "Sources:        5 files",
        "Invariants:     39 rules",
        "Contracts:      8 contracts",
        "Acceptance:     20 tests",
    ]
    assert lines[9] == "State:          VALID"
    assert lines[10].startswith("Age:            ") and lines[10].endswith("Z)")

    code, out, _ = run(capsys, "show", "--json", "--target", target)
    assert code == 0 and out == capsule.read_text("utf-8")


def test_show_markdown_writes_companion(reference_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "generate", "--target", str(reference_repo))
    code, out, _ = run(capsys, "show", "--markdown", "--target", str(reference_repo))
    md = (reference_repo / F9 / "context-capsule.md").read_text("utf-8")
    assert code == 0 and "Derived narrative written (no authority)" in out
    assert "Derived, non-authoritative" in md and "INV-039" in md and "zero-dependency-core" in md
    # The companion is not a source: the capsule stays valid.
    assert run(capsys, "verify", "--target", str(reference_repo))[0] == 0


def test_verify_failures_list_every_finding(reference_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "generate", "--target", str(reference_repo))
    (reference_repo / F9 / "plan.md").write_text("x\n", "utf-8")
    (reference_repo / F9 / "tasks.md").write_text("y\n", "utf-8")
    code, _out, err = run(capsys, "verify", "--target", str(reference_repo))
    assert code == 1
    assert err.splitlines() == [
        "[FAIL] [STALE] Context capsule validation failed.",
        f"[FAIL]  - [CONTEXT_CAPSULE_STALE] Source file {F9}/plan.md was modified since capsule generation.",
        f"[FAIL]  - [CONTEXT_CAPSULE_STALE] Source file {F9}/tasks.md was modified since capsule generation.",
    ]


def test_verify_json(reference_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "--json", "--target", str(reference_repo))
    report = json.loads(out)
    assert code == 1 and report["state"] == "MISSING"
    assert [f["code"] for f in report["findings"]] == ["CONTEXT_CAPSULE_MISSING"]
    run(capsys, "generate", "--target", str(reference_repo))
    with (reference_repo / F9 / "spec.md").open("a", encoding="utf-8") as fh:
        fh.write("\nedit\n")
    code, out, _ = run(capsys, "verify", "--json", "--target", str(reference_repo))
    report = json.loads(out)
    assert code == 1 and report["state"] == "STALE"
    (finding,) = report["findings"]
    assert set(finding) >= {"code", "severity", "message", "path", "range", "fingerprint"}
    assert finding["severity"] == "error" and finding["path"] == f"{F9}/context-capsule.json"
    assert finding["range"]["start"]["line"] > 0 and len(finding["fingerprint"]) == 64


def test_verify_legacy_feature(reference_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "--feature", F8, "--target", str(reference_repo))
    assert code == 0
    assert out.splitlines()[-1] == (
        f'[INFO] [LEGACY] No context-capsule.json was found in "{F8}" (legacy context-free mode).'
    )
    code, out, _ = run(capsys, "verify", "--json", "--feature", F8, "--target", str(reference_repo))
    assert code == 0 and json.loads(out)["state"] == "LEGACY"
    # In Spanish, the reference's own notice, word for word.
    assert main(["--lang", "es", "context", "verify", "--feature", F8, "--target", str(reference_repo)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [
        f'[INFO] Auditando la context capsule de "{F8}" en: {reference_repo}',
        f'[INFO] [LEGACY] No se detectó context-capsule.json en "{F8}" (Modo Legacy Context-Free).',
    ]


def test_feature_flag_and_resolution_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "specs" / "a").mkdir(parents=True)
    (tmp_path / "specs" / "b").mkdir(parents=True)
    (tmp_path / "specs" / "a" / "spec.md").write_text("# A\n- X MUST y.\n", "utf-8")
    (tmp_path / "specs" / "b" / "spec.md").write_text("# B\n", "utf-8")
    code, _, err = run(capsys, "generate", "--target", str(tmp_path))
    assert code == 1 and err == "[FAIL] No active feature found or specified via --feature.\n"
    code, _, _ = run(capsys, "generate", "--target", str(tmp_path), "--feature", "specs/a")
    assert code == 0 and (tmp_path / "specs" / "a" / "context-capsule.json").exists()
    code, _, err = run(capsys, "generate", "--target", str(tmp_path), "--feature", "specs/missing")
    assert code == 1
    assert err == f"[FAIL] Feature specs/missing does not exist: there is no folder {tmp_path / 'specs/missing'}.\n"
    (tmp_path / "specs" / "empty").mkdir()
    code, _, err = run(capsys, "generate", "--target", str(tmp_path), "--feature", "specs/empty")
    assert code == 1
    assert err == (
        f"[FAIL] Feature specs/empty is not a feature: {tmp_path / 'specs/empty'} holds neither spec.md "
        "nor context-capsule.json.\n"
    )
    code, _, err = run(capsys, "bogus", "--target", str(tmp_path))
    assert code == 1 and "Unknown context subcommand: bogus" in err
    code, _, err = run(capsys, "show", "--target", str(tmp_path), "--feature", "specs/b")
    assert code == 1 and err.startswith("[FAIL] Context capsule not found at: ")
    assert run(capsys, "verify", "--target", "")[0] == 1


def test_generate_refuses_symlinked_capsule(reference_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outside = reference_repo.parent / "outside.json"
    outside.write_text("keep me\n", "utf-8")
    os.symlink(outside, reference_repo / F9 / "context-capsule.json")
    code, _, err = run(capsys, "generate", "--target", str(reference_repo))
    assert code == 1 and "Generation failed:" in err
    assert outside.read_text("utf-8") == "keep me\n"


def test_generate_secret_fails_closed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "specs" / "a").mkdir(parents=True)
    token = "ghp_" + "k" * 40
    (tmp_path / "specs" / "a" / "spec.md").write_text(f"# A\n- Use {token}, it MUST work.\n", "utf-8")
    code, _, err = run(capsys, "generate", "--target", str(tmp_path), "--feature", "specs/a")
    assert code == 1
    assert err.startswith(
        "[FAIL] Generation failed: CONTEXT_CAPSULE_SECRET_DETECTED: Forbidden credential token pattern detected."
    )
    assert token not in err
    assert not (tmp_path / "specs" / "a" / "context-capsule.json").exists()


def test_console_script_runs(reference_repo: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "gemstack_lsp", "context", "verify", "--feature", F8],
        cwd=reference_repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "[LEGACY]" in proc.stdout


def test_demo_capsule_is_deliberately_stale(capsys: pytest.CaptureFixture[str]) -> None:
    demo = Path(__file__).parents[1] / "examples" / "demo"
    code, out, _ = run(capsys, "verify", "--json", "--target", str(demo))
    report = json.loads(out)
    assert code == 1 and report["state"] == "STALE"
    assert [(f["code"], f["subject"], f["range"]["start"]["line"] + 1) for f in report["findings"]] == [
        ("CONTEXT_CAPSULE_STALE", "specs/009-context-capsule/plan.md", 367)
    ]


def test_absolute_and_windows_feature_paths(reference_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    absolute = str(reference_repo / F9)
    code, out, _ = run(capsys, "generate", "--target", str(reference_repo), "--feature", absolute)
    assert code == 0 and f'"{F9}"' in out
    code, out, _ = run(capsys, "verify", "--target", str(reference_repo), "--feature", "specs\\009-context-capsule\\")
    assert code == 0 and out.splitlines()[-1] == f"[OK] [OK] Context capsule is VALID and FRESH for {F9}."
    code, _, err = run(capsys, "verify", "--target", str(reference_repo), "--feature", str(reference_repo.parent))
    assert code == 1 and "outside the target" in err


@pytest.mark.parametrize("sub", ["verify", "generate", "show"])
@pytest.mark.parametrize("how", ["flag", "positional"])
def test_a_feature_that_does_not_exist_is_an_error(
    reference_repo: Path, capsys: pytest.CaptureFixture[str], sub: str, how: str
) -> None:
    """`context verify --feature specs/typo` used to exit 0 (legacy) on a feature that is not there."""
    feature = ["--feature", "specs/typo"] if how == "flag" else ["specs/typo"]
    code, out, err = run(capsys, sub, *feature, "--target", str(reference_repo))
    assert code == 1 and out == ""
    assert err == f"[FAIL] Feature specs/typo does not exist: there is no folder {reference_repo / 'specs/typo'}.\n"
    code, out, err = run(capsys, sub, *feature, "--json", "--target", str(reference_repo))
    assert code == 1 and err == ""
    assert json.loads(out) == {
        "command": sub,
        "feature": "specs/typo",
        "error": f"Feature specs/typo does not exist: there is no folder {reference_repo / 'specs/typo'}.",
    }
    assert not (reference_repo / "specs/typo").exists()


def test_folder_without_spec_or_capsule_is_not_a_feature(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "specs" / "notes").mkdir(parents=True)
    code, _, err = run(capsys, "verify", "specs/notes", "--target", str(tmp_path))
    assert code == 1
    assert err == (
        f"[FAIL] Feature specs/notes is not a feature: {tmp_path / 'specs/notes'} holds neither spec.md "
        "nor context-capsule.json.\n"
    )


@pytest.mark.parametrize("spelling", [F9, f"./{F9}", f"{F9}/", "specs\\009-context-capsule"])
def test_positional_feature_as_gemstack_1_4_takes_it(
    reference_repo: Path, capsys: pytest.CaptureFixture[str], spelling: str
) -> None:
    target = str(reference_repo)
    state = reference_repo / ".gemstack" / "state.json"
    state.write_text(state.read_text("utf-8").replace(F9, F8), "utf-8")  # not the active feature
    code, out, _ = run(capsys, "generate", spelling, "--target", target)
    assert code == 0 and out.splitlines()[0].startswith(f'[INFO] Generating context capsule for "{F9}"')
    code, out, _ = run(capsys, "verify", spelling, "--target", target)
    assert code == 0 and out.splitlines()[-1] == f"[OK] [OK] Context capsule is VALID and FRESH for {F9}."
    code, out, _ = run(capsys, "show", spelling, "--target", target)
    assert code == 0 and f"Feature:        {F9}" in out
    # The same feature twice is fine; two different ones are not.
    assert run(capsys, "verify", spelling, "--feature", F9, "--target", target)[0] == 0
    code, _, err = run(capsys, "verify", F9, "--feature", F8, "--target", target)
    assert code == 1 and err == f"[FAIL] Two features given: {F9} and --feature {F8}.\n"


@pytest.mark.parametrize(
    "args",
    [
        ["verify"],
        ["generate"],
        ["show"],
        ["bogus"],
        ["verify", "--target", ""],
        ["verify", "--feature", "/elsewhere/specs/x"],
        ["verify", "--unknown-flag"],
        ["verify", "a", "b"],
    ],
)
def test_json_is_one_document_even_for_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    """No feature resolves here (two features, no state): every error is still one JSON document."""
    for name in ("a", "b"):
        (tmp_path / "specs" / name).mkdir(parents=True)
        (tmp_path / "specs" / name / "spec.md").write_text(f"# {name}\n", "utf-8")
    argv = [*args, "--json"] if "--target" in args else [*args, "--json", "--target", str(tmp_path)]
    code, out, err = run(capsys, *argv)
    assert code == 1 and err == ""
    document = json.loads(out)
    assert isinstance(document["error"], str) and document["error"]


def test_json_show_of_an_unparsable_capsule_is_an_error_document(
    reference_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (reference_repo / F9 / "context-capsule.json").write_text("{not json", "utf-8")
    code, out, _ = run(capsys, "show", "--json", "--target", str(reference_repo))
    assert code == 1 and json.loads(out)["command"] == "show"


def test_json_generate_reports_what_it_wrote(reference_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "generate", "--json", "--target", str(reference_repo))
    assert code == 0 and err == ""
    document = json.loads(out)
    assert document["command"] == "generate" and document["feature"] == F9
    assert document["path"] == f"{F9}/context-capsule.json" and document["warnings"] == []
    assert document["bytes"] == (reference_repo / F9 / "context-capsule.json").stat().st_size


def test_active_spec_outside_the_target_is_an_error(reference_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = reference_repo / ".gemstack" / "state.json"
    state.write_text(json.dumps({"active_spec": "/elsewhere/specs/x"}), "utf-8")
    code, _, err = run(capsys, "verify", "--target", str(reference_repo))
    assert code == 1
    assert err == '[FAIL] The active_spec "/elsewhere/specs/x" of .gemstack/state.json lies outside the repository.\n'
