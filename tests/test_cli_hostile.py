"""Hostile inputs on every CLI command: lone surrogates, any nesting depth, a failing check, a closed pipe.

No input crashes a command: its exit status is 0 or 1 (a verdict), every byte it prints is
valid UTF-8 and its JSON parses; an internal error exits 2 and says so on stderr, and one
feature that makes a check raise hides no other feature's findings.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gemstack_lsp.cli import main
from gemstack_lsp.core.jsonspan import MAX_DEPTH

REFERENCE_REPO = Path(__file__).parent / "fixtures" / "gemstack-reference" / "repo"
F8 = "specs/008-cost-provider-safety-gates"
F9 = "specs/009-context-capsule"


@contextlib.contextmanager
def strict_streams() -> Iterator[tuple[io.BytesIO, io.BytesIO]]:
    """stdout and stderr as real UTF-8 text streams that refuse what cannot be encoded."""
    out, err = io.BytesIO(), io.BytesIO()
    saved = sys.stdout, sys.stderr
    wrappers = [io.TextIOWrapper(b, encoding="utf-8", errors="strict", write_through=True) for b in (out, err)]
    sys.stdout, sys.stderr = wrappers
    try:
        yield out, err
    finally:
        sys.stdout, sys.stderr = saved
        for w in wrappers:
            w.flush()
            w.detach()  # keep the buffers readable


def cli(*argv: str) -> tuple[int, str, str]:
    """Run the CLI in-process; the output must be valid UTF-8."""
    with strict_streams() as (out, err):
        code = main(list(argv))
    return code, out.getvalue().decode("utf-8"), err.getvalue().decode("utf-8")


@contextlib.contextmanager
def repo_copy() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        shutil.copytree(REFERENCE_REPO, root)
        for p in root.rglob("*"):
            p.chmod(p.stat().st_mode | 0o200)
        yield root


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), "utf-8")


def every_command(root: Path) -> list[tuple[tuple[str, ...], int, str, str]]:
    """Every read-only command and ``context generate``/``show`` on ``root``: (argv, code, out, err)."""
    target = ("--target", str(root))
    runs: list[tuple[str, ...]] = [
        ("check", str(root)),
        ("check", str(root), "--format", "json"),
        ("check", str(root), "--format", "sarif"),
        ("context", "verify", *target),
        ("context", "verify", "--json", *target),
        ("context", "generate", *target),
        ("context", "verify", *target),
        ("context", "show", *target),
        ("context", "show", "--json", *target),
        ("gate", "evaluate", "--action", "generate-summary", "--env", "development", *target),
        ("gate", "evaluate", "--action", "x", "--provider", "gemini-cloud", "--env", "ci", *target),
    ]
    results = []
    for argv in runs:
        code, out, err = cli(*argv)
        results.append((argv, code, out, err))
    return results


def assert_no_crash(results: list[tuple[tuple[str, ...], int, str, str]]) -> None:
    for argv, code, out, err in results:
        # `check` exits 2 when any check raised (a GEMSTACK_INTERNAL_ERROR finding), the others on any exception.
        assert code in (0, 1), (argv, code, err)
        assert "Traceback" not in err and "internal error" not in err, (argv, err)
        if out.strip() and ("--json" in argv or "json" in argv or "sarif" in argv or argv[0] == "gate"):
            json.loads(out)


# ---------------------------------------------------------------------------------------------
# Lone surrogates


def test_lone_surrogate_in_a_ledger_provider_id_crashes_nothing() -> None:
    with repo_copy() as root:
        edit(root / "cost-ledger.json", '"gemini-cloud"', '"gemini\\ud800cloud"')
        results = every_command(root)
        assert_no_crash(results)
        report = json.loads(results[1][2])
        # The JSON report keeps the value: the escape survives the round trip.
        assert any("gemini\ud800cloud" in f["message"] for f in report["findings"])


def test_lone_surrogate_in_active_spec_crashes_nothing() -> None:
    with repo_copy() as root:
        edit(root / ".gemstack/state.json", f'"active_spec": "{F9}"', f'"active_spec": "{F9}\\udfff"')
        assert_no_crash(every_command(root))


def test_lone_surrogate_in_a_capsule_crashes_show_markdown_nothing() -> None:
    with repo_copy() as root:
        assert cli("context", "generate", "--target", str(root))[0] == 0
        capsule = root / F9 / "context-capsule.json"
        edit(capsule, '"lifecycle_status": "', '"lifecycle_status": "a\\ud800b\\udc00')
        code, _out, err = cli("context", "show", "--markdown", "--target", str(root))
        assert code == 0 and "internal error" not in err, err
        md = (root / F9 / "context-capsule.md").read_bytes().decode("utf-8")
        assert "a\ufffdb\ufffd" in md
        assert_no_crash(every_command(root))


_ESCAPES = st.lists(
    st.one_of(
        st.integers(0xD800, 0xDFFF),
        st.integers(0, 0xFFFF),
        st.sampled_from([0x22, 0x5C, 0x0, 0x2028, 0xFFFE]),
    ),
    min_size=1,
    max_size=6,
).map(lambda cps: "".join(f"\\u{cp:04x}" for cp in cps))


@settings(max_examples=12)
@given(escapes=_ESCAPES, where=st.sampled_from(["provider", "currency", "active_spec", "phase", "capsule"]))
def test_random_escapes_crash_nothing(escapes: str, where: str) -> None:
    with repo_copy() as root:
        if where == "provider":
            edit(root / "cost-ledger.json", '"gemini-cloud"', f'"gemini{escapes}"')
        elif where == "currency":
            edit(root / "cost-ledger.json", '"USD"', f'"{escapes}"')
        elif where == "active_spec":
            edit(root / ".gemstack/state.json", f'"active_spec": "{F9}"', f'"active_spec": "{F9}{escapes}"')
        elif where == "phase":
            edit(root / ".gemstack/state.json", '"implementation"', f'"{escapes}"')
        else:
            assert cli("context", "generate", "--target", str(root))[0] == 0
            edit(root / F9 / "context-capsule.json", '"project": {', f'"project": {{\n    "{escapes}": "{escapes}",')
        assert_no_crash(every_command(root))


# ---------------------------------------------------------------------------------------------
# Nesting depth


def _nested(depth: int, kind: str) -> str:
    if kind == "array":
        return "[" * depth + "]" * depth
    return '{"a": ' * depth + "1" + "}" * depth


def _findings(root: Path) -> list[dict[str, Any]]:
    code, out, err = cli("check", str(root), "--format", "json")
    assert code in (0, 1), err
    findings: list[dict[str, Any]] = json.loads(out)["findings"]
    return findings


def test_a_ledger_nested_a_thousand_deep_is_analysed_like_any_other() -> None:
    with repo_copy() as root:
        before = _findings(root)
        # A member the schema does not describe: the ledger stays valid, every finding stays.
        edit(root / "cost-ledger.json", '"currency": "USD",', f'"currency": "USD", "x": {_nested(1000, "array")},')
        assert _findings(root) == before
        code, out, err = cli("gate", "evaluate", "--action", "x", "--env", "ci", "--target", str(root))
        assert code in (0, 1) and "internal error" not in err
        assert json.loads(out)["request"]["ledger_valid"] is True


def test_a_ledger_value_nested_3000_deep_is_a_schema_finding_on_it() -> None:
    with repo_copy() as root:
        before = [f for f in _findings(root) if f["path"] == f"{F8}/cost-ledger.json"]
        edit(root / "cost-ledger.json", '"currency": "USD",', f'"currency": {_nested(3000, "object")},')
        after = _findings(root)
        assert not [f for f in after if f["code"] == "GEMSTACK_INTERNAL_ERROR"]
        invalid = [f for f in after if f["path"] == "cost-ledger.json" and f["code"] == "COST_LEDGER_INVALID"]
        assert invalid and all(f["range"]["start"]["line"] == 4 for f in invalid), invalid
        # The other ledger's findings are all still there.
        assert [f for f in after if f["path"] == f"{F8}/cost-ledger.json"] == before
        code, out, err = cli("gate", "evaluate", "--action", "x", "--env", "ci", "--target", str(root))
        assert code in (0, 1) and "internal error" not in err
        assert json.loads(out)["request"]["ledger_valid"] is False


@pytest.mark.parametrize("depth", [MAX_DEPTH, 700, 850, 985])
def test_a_deep_capsule_hides_no_other_feature(depth: int) -> None:
    with repo_copy() as root:
        for feature in (F8, F9):
            assert cli("context", "generate", "--target", str(root), "--feature", feature)[0] == 0
        # A stale capsule in 008, a deep one in 009.
        edit(root / F8 / "spec.md", "\n", "\n\nA new line.\n")
        edit(
            root / F9 / "context-capsule.json", '"project": {', f'"project": {{\n    "deep": {_nested(depth, "array")},'
        )
        findings = _findings(root)
        assert not [f for f in findings if f["code"] == "GEMSTACK_INTERNAL_ERROR"]
        assert any(f["code"] == "CONTEXT_CAPSULE_STALE" and f["path"].startswith(F8) for f in findings)
        assert any(
            f["code"] == "CONTEXT_CAPSULE_INVALID" and f["path"] == f"{F9}/context-capsule.json" for f in findings
        )
        assert_no_crash(every_command(root))


@settings(max_examples=12)
@given(
    depth=st.one_of(st.integers(1, 3000), st.sampled_from([MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, 985, 1000])),
    kind=st.sampled_from(["array", "object"]),
    where=st.sampled_from(["ledger", "state", "capsule", "block", "providers"]),
)
def test_any_nesting_depth_crashes_nothing(depth: int, kind: str, where: str) -> None:
    _plant_and_run(_nested(depth, kind), where)


@pytest.mark.parametrize("where", ["ledger", "state", "capsule", "block", "providers"])
@pytest.mark.parametrize("depth", [MAX_DEPTH - 2, MAX_DEPTH + 1, 990, 5000])
def test_deep_nesting_at_the_edges_crashes_nothing(where: str, depth: int) -> None:
    # Just below the capsule reader's limit a walk over a capsule goes deepest; around 990 the
    # standard library's recursive decoder gives up; 5000 is far beyond any recursion limit.
    _plant_and_run(_nested(depth, "array" if depth % 2 else "object"), where)


def _plant_and_run(deep: str, where: str) -> None:
    with repo_copy() as root:
        if where == "ledger":
            edit(root / "cost-ledger.json", '"currency": "USD",', f'"currency": "USD", "x": {deep},')
        elif where == "state":
            edit(root / ".gemstack/state.json", '"version": "0.1",', f'"version": "0.1", "x": {deep},')
        elif where == "capsule":
            assert cli("context", "generate", "--target", str(root))[0] == 0
            edit(root / F9 / "context-capsule.json", '"project": {', f'"project": {{\n    "deep": {deep},')
        elif where == "block":
            spec = root / F9 / "spec.md"
            spec.write_text(spec.read_text("utf-8") + f"\n```gemstack-contracts\n{deep}\n```\n", "utf-8")
        else:
            (root / ".gemstack/providers.json").write_text(f'{{"providers": {deep}}}', "utf-8")
        assert_no_crash(every_command(root))


# ---------------------------------------------------------------------------------------------
# Isolation and internal errors


def _raise_for(feature: str, real: Callable[..., Any]) -> Callable[..., Any]:
    def fake(repo: Any, f: Any, *args: Any) -> Any:
        name = f if isinstance(f, str) else f.path
        if name.rstrip("/").endswith(feature.split("/")[-1]):
            raise RuntimeError("planted bug")
        return real(repo, f, *args)

    return fake


def test_a_capsule_check_that_raises_on_one_feature_hides_no_other(monkeypatch: pytest.MonkeyPatch) -> None:
    from gemstack_lsp.core.capsule import verify

    with repo_copy() as root:
        for feature in (F8, F9):
            assert cli("context", "generate", "--target", str(root), "--feature", feature)[0] == 0
        edit(root / F8 / "plan.md", "\n", "\n\nchanged\n")
        monkeypatch.setattr(verify, "verify_capsule", _raise_for(F9, verify.verify_capsule))
        code, out, err = cli("check", str(root), "--format", "json")
        findings = json.loads(out)["findings"]
        internal = [f for f in findings if f["code"] == "GEMSTACK_INTERNAL_ERROR"]
        assert [f["path"] for f in internal] == [f"{F9}/context-capsule.json"]
        assert "planted bug" in internal[0]["message"]
        assert any(f["code"] == "CONTEXT_CAPSULE_STALE" and f["path"].startswith(F8) for f in findings)
        assert code == 2 and "internal error" in err


def test_a_cost_check_that_raises_on_one_feature_hides_no_other(monkeypatch: pytest.MonkeyPatch) -> None:
    from gemstack_lsp.core.cost import checks

    with repo_copy() as root:
        before = [f for f in _findings(root) if checks_family(f)]
        assert any(f["path"].startswith(F8) for f in before)
        real = checks.feature_findings

        def fake(view: Any, feature: Any) -> Any:
            if feature.path == F9:
                raise RuntimeError("planted bug")
            return real(view, feature)

        monkeypatch.setattr(checks, "feature_findings", fake)
        code, out, err = cli("check", str(root), "--format", "json")
        after = json.loads(out)["findings"]
        internal = [f for f in after if f["code"] == "GEMSTACK_INTERNAL_ERROR"]
        assert [f["path"] for f in internal] == [f"{F9}/spec.md"]
        kept = [f for f in after if checks_family(f) and not f["path"].startswith(F9)]
        assert kept == [f for f in before if not f["path"].startswith(F9)]
        assert code == 2 and "internal error" in err


def checks_family(finding: dict[str, Any]) -> bool:
    from gemstack_lsp.core.findings import CATALOGUE

    info = CATALOGUE.get(finding["code"])
    return info is not None and info.family == "cost"


@pytest.mark.parametrize(
    ("argv", "module", "name"),
    [
        (("context", "verify"), "gemstack_lsp.core.capsule.verify", "verify_capsule"),
        (("context", "generate"), "gemstack_lsp.core.capsule.generate", "generate_capsule"),
        (("gate", "evaluate", "--action", "x", "--env", "ci"), "gemstack_lsp.core.cost.gates", "evaluate_chain"),
        (("check",), "gemstack_lsp.host.analysis", "analyze_repository"),
    ],
)
def test_an_internal_error_exits_2_and_says_so(
    monkeypatch: pytest.MonkeyPatch, argv: tuple[str, ...], module: str, name: str
) -> None:
    import importlib

    def boom(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("planted bug")

    monkeypatch.setattr(importlib.import_module(module), name, boom)
    with repo_copy() as root:
        monkeypatch.chdir(root)
        extra = ("--target", str(root)) if argv[0] in ("context", "gate") else (str(root),)
        code, _out, err = cli(*argv, *extra)
    assert code == 2
    assert "internal error" in err and "RuntimeError: planted bug" in err and "Traceback" not in err


# ---------------------------------------------------------------------------------------------
# A reader that goes away


@pytest.mark.parametrize(
    "argv",
    [
        ("check", "--format", "sarif"),
        ("check",),
        ("context", "show"),
        ("context", "verify"),
        ("gate", "evaluate", "--action", "generate-summary", "--env", "development"),
    ],
)
def test_a_closed_stdout_ends_the_command_quietly(argv: tuple[str, ...]) -> None:
    with repo_copy() as root:
        assert cli("context", "generate", "--target", str(root))[0] == 0
        proc = subprocess.Popen(
            [sys.executable, "-m", "gemstack_lsp.cli", *argv],
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # the reader is gone before the first byte
        err = proc.stderr.read().decode("utf-8")
        code = proc.wait()
    assert "Traceback" not in err and "BrokenPipeError" not in err and "Exception ignored" not in err, err
    assert code in (0, 1, 141)


# ---------------------------------------------------------------------------------------------
# Folders outside the repository


@pytest.mark.parametrize("how", ["dotdot", "nested-dotdot", "symlink", "active_spec"])
@pytest.mark.parametrize("sub", ["verify", "show", "generate"])
def test_a_feature_outside_the_repository_is_an_error(tmp_path: Path, how: str, sub: str) -> None:
    with repo_copy() as root:
        outside = tmp_path / "elsewhere" / "specs" / "009-context-capsule"
        shutil.copytree(root / F9, outside)
        argv = ["context", sub, "--target", str(root)]
        if how == "dotdot":
            argv += ["--feature", os.path.relpath(outside, root)]
        elif how == "nested-dotdot":
            argv += ["--feature", "specs/../" + os.path.relpath(outside, root)]
        elif how == "symlink":
            (root / "specs" / "evil").symlink_to(outside)
            argv += ["--feature", "specs/evil"]
        else:
            active = os.path.relpath(outside, root)
            edit(root / ".gemstack/state.json", f'"active_spec": "{F9}"', f'"active_spec": "{active}"')
        before = sorted(p.name for p in outside.iterdir())
        code, out, err = cli(*argv)
        assert code == 1, (out, err)
        assert "outside" in err and "LEGACY" not in out
        assert sorted(p.name for p in outside.iterdir()) == before  # nothing written there


def test_an_inside_feature_named_through_dotdot_still_works() -> None:
    with repo_copy() as root:
        code, out, err = cli("context", "verify", "--target", str(root), "--feature", f"specs/../{F9}")
        assert code in (0, 1) and "outside" not in err, (out, err)


def test_check_reports_a_specs_folder_that_leaves_the_repository(tmp_path: Path) -> None:
    with repo_copy() as root:
        shutil.move(root / "specs", tmp_path / "specs")
        (root / "specs").symlink_to(tmp_path / "specs")
        code, out, _ = cli("check", str(root), "--format", "json")
        findings = json.loads(out)["findings"]
        assert code == 1
        assert [f["code"] for f in findings if f["path"] == "specs"] == ["ARTIFACT_UNREADABLE"]
        assert not [f for f in findings if f["path"].startswith("specs/")]
