"""Capsules identical for identical repository states, wherever they are checked out (issue 12).

No input may depend on the folder name, the user or the machine; an absolute ``active_spec``
is resolved from the root as the reference does; numbers are compared as JavaScript compares
them; prose that trips the reference's secret patterns is left out with a warning instead of
failing generation; an "Open Questions" section that says NONE yields no blockers.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from gemstack_lsp.cli import main as cli_main
from gemstack_lsp.core.capsule.generate import CapsuleResult, generate_capsule
from gemstack_lsp.core.capsule.verify import verify_capsule
from gemstack_lsp.core.findings import Severity
from gemstack_lsp.core.jscompat import js_strict_equal
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.fs import DiskReader, write_atomic
from tests.conftest import REFERENCE_REPO
from tests.core.test_capsule_verify import reference_context_verify

NOW = dt.datetime(2026, 12, 2, 12, 0, tzinfo=dt.UTC)
F9 = "specs/009-context-capsule"
FEATURE = "specs/001-x"


def disk(root: Path) -> GemstackRepo:
    return GemstackRepo(str(root), DiskReader(root))


def generate(root: Path, feature: str = F9) -> CapsuleResult:
    result = generate_capsule(disk(root), feature, NOW)
    assert result.ok and result.data is not None, [f.message for f in result.findings]
    return result


def checkout(tmp_path: Path, name: str, package_json: str | None) -> Path:
    """A copy of the reference repository in a folder called ``name``."""
    root = tmp_path / name
    shutil.copytree(REFERENCE_REPO, root)
    for p in root.rglob("*"):
        p.chmod(p.stat().st_mode | 0o200)
    if package_json is None:
        (root / "package.json").unlink()
    else:
        (root / "package.json").write_text(package_json, "utf-8")
    return root


@pytest.mark.parametrize(
    "package_json",
    [None, '{"version": "1.0.0", "private": true}', '{"name": ""}', '{"name": "shared-name"}'],
    ids=["no-package-json", "no-name", "empty-name", "named"],
)
def test_two_differently_named_copies_give_byte_identical_capsules(tmp_path: Path, package_json: str | None) -> None:
    first = checkout(tmp_path, "first-checkout", package_json)
    second = checkout(tmp_path, "a-completely-different-folder", package_json)
    a, b = generate(first), generate(second)
    assert a.data == b.data
    assert a.data is not None
    assert b"first-checkout" not in a.data and b"a-completely-different-folder" not in b.data
    assert str(tmp_path).encode() not in a.data


def test_a_committed_capsule_stays_valid_after_a_clone_into_another_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    origin = checkout(tmp_path, "origin", None)
    result = generate(origin)
    assert result.data is not None
    write_atomic(origin / result.path, result.data)
    clone = tmp_path / "clone-with-another-name"
    shutil.copytree(origin, clone)
    assert verify_capsule(disk(clone), F9).state == "VALID"
    assert reference_context_verify(clone, F9) == ("VALID", None)
    assert cli_main(["context", "verify", "--target", str(clone)]) == 0
    # `check` fails only for what the reference's verify fails too (009 is active and has no
    # closure.json yet): never for the capsule.
    cli_main(["check", str(clone)])
    reported = capsys.readouterr().out
    assert "CONTEXT_CAPSULE" not in reported
    assert not [f for f in analyze(disk(clone)) if f.code.startswith("CONTEXT_CAPSULE")]
    assert {f.code for f in analyze(disk(clone)) if f.effective_severity.name == "BLOCKER"} <= {
        "CLOSURE_MANIFEST_MISSING"
    }


def test_a_capsule_recording_a_folder_name_is_not_stale(tmp_path: Path) -> None:
    """gemstack-lsp before this fix wrote the folder's name when none was declared."""
    root = checkout(tmp_path, "repo", None)
    result = generate(root)
    assert result.capsule is not None and "name" not in result.capsule["project"]
    capsule = dict(result.capsule)
    capsule["project"] = {**capsule["project"], "name": "the-old-folder"}
    (root / result.path).write_text(json.dumps(capsule, indent=2) + "\n", "utf-8")
    assert verify_capsule(disk(root), F9).state == "VALID"


def test_a_declared_name_that_changes_makes_the_capsule_stale(tmp_path: Path) -> None:
    root = checkout(tmp_path, "repo", None)
    result = generate(root)
    assert result.data is not None
    write_atomic(root / result.path, result.data)
    (root / "pyproject.toml").write_text('[project]\nname = "now-named"\n', "utf-8")
    verdict = verify_capsule(disk(root), F9)
    assert verdict.state == "STALE"
    assert [f.subject for f in verdict.findings] == ["project.name"]


# --- an absolute active_spec ------------------------------------------------------------------


def _minimal(root: Path, spec: str, state: dict[str, object] | None = None) -> Path:
    (root / FEATURE).mkdir(parents=True)
    (root / FEATURE / "spec.md").write_text(spec, "utf-8")
    if state is not None:
        (root / ".gemstack").mkdir()
        (root / ".gemstack" / "state.json").write_text(json.dumps(state), "utf-8")
    return root


@pytest.mark.parametrize("spelling", ["{root}/specs/001-x", "{root}/specs/001-x/", "./specs/001-x", "specs/001-x/"])
def test_active_spec_spelled_any_way_generates_and_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], spelling: str
) -> None:
    root = tmp_path.resolve() / "repo"
    _minimal(root, "# X\n- It MUST work.\n", {"active_spec": spelling.format(root=root), "current_phase": "plan"})
    assert cli_main(["context", "generate", "--target", str(root)]) == 0
    capsule = json.loads((root / FEATURE / "context-capsule.json").read_text("utf-8"))
    assert capsule["project"]["active_feature"] == FEATURE
    assert [s["path"] for s in capsule["provenance"]["sources"]] == [".gemstack/state.json", f"{FEATURE}/spec.md"]
    assert cli_main(["context", "verify", "--target", str(root)]) == 0
    # A changed spec is STALE, never a legacy pass.
    (root / FEATURE / "spec.md").write_text("# X\n- It MUST work well.\n", "utf-8")
    capsys.readouterr()
    assert cli_main(["context", "verify", "--target", str(root)]) == 1
    assert "[FAIL] [STALE] Context capsule validation failed." in capsys.readouterr().err
    stale = [f for f in analyze(disk(root)) if f.code == "CONTEXT_CAPSULE_STALE"]
    assert [(f.path, f.effective_severity) for f in stale] == [(f"{FEATURE}/spec.md", Severity.BLOCKER)]


# --- numbers as JavaScript compares them ------------------------------------------------------


def test_js_strict_equal_compares_numbers_as_doubles() -> None:
    assert js_strict_equal(2**53 + 1, 2**53)
    assert js_strict_equal(9007199254740993, 9007199254740992.0)
    assert not js_strict_equal(2**53 + 2, 2**53)
    assert js_strict_equal(10**400, 10**401)  # both Infinity to JSON.parse
    assert not js_strict_equal(True, 1) and js_strict_equal(1, 1.0)


ROADMAP_SPEC = """# Limits
```gemstack-contracts
[{"id": "max-items", "type": "ROADMAP_LIMIT", "value": 9007199254740993}]
```
"""


def test_a_roadmap_limit_above_2_53_keeps_our_own_fresh_capsule_valid(tmp_path: Path) -> None:
    root = _minimal(tmp_path / "repo", ROADMAP_SPEC)
    result = generate(root, FEATURE)
    assert result.data is not None
    assert b'"value": 9007199254740992' in result.data  # the JavaScript-rounded number, as the reference writes
    write_atomic(root / result.path, result.data)
    assert verify_capsule(disk(root), FEATURE).state == "VALID"
    assert reference_context_verify(root, FEATURE) == ("VALID", None)
    # A different double is still a conflict.
    text = (root / result.path).read_text("utf-8").replace("9007199254740992", "9007199254740994")
    (root / result.path).write_text(text, "utf-8")
    verdict = verify_capsule(disk(root), FEATURE)
    assert [f.code for f in verdict.findings] == ["CONTEXT_CAPSULE_AUTHORITY_CONFLICT"]


def test_a_plan_redeclaring_the_rounded_limit_is_no_contradiction() -> None:
    plan = ROADMAP_SPEC.replace("9007199254740993", "9007199254740992")
    files = {
        ".gemstack/state.json": json.dumps({"active_spec": FEATURE}),
        f"{FEATURE}/spec.md": ROADMAP_SPEC,
        f"{FEATURE}/plan.md": plan,
    }
    findings = analyze(GemstackRepo("/r", MemoryReader(files)))
    assert not [f for f in findings if f.code == "FROZEN_CONTRACT_VIOLATION"]
    files[f"{FEATURE}/plan.md"] = ROADMAP_SPEC.replace("9007199254740993", "9007199254740995")
    findings = analyze(GemstackRepo("/r", MemoryReader(files)))
    assert [f.code for f in findings if f.code == "FROZEN_CONTRACT_VIOLATION"]


# --- prose that trips the reference's secret patterns -----------------------------------------

PROSE_SPEC = """# Feature: Bearer tokens done right
## 1. Rules
- The gateway MUST authenticate every request.

```gemstack-contracts
[
  {"id": "auth-header-only", "type": "BOOLEAN_INVARIANT", "value": true,
   "description": "Bearer tokens are sent only in the Authorization header."},
  {"id": "no-query-tokens", "type": "BOUNDARY", "value": "FORBIDDEN",
   "description": "Credentials never travel in query strings."},
  {"id": "schemes", "type": "ENUM_SET", "values": ["Basic", "Bearer token"]}
]
```

## 2. Explicit Deferred Items
- Bearer token rotation (out of scope for this upgrade).
- Audit logging of failed logins.

## 3. Open Questions
- Should bearer tokens expire after one hour?
- Which clock source do we trust?
"""


def test_derived_prose_tripping_the_bearer_pattern_is_left_out_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _minimal(tmp_path / "repo", PROSE_SPEC)
    result = generate(root, FEATURE)
    assert result.data is not None and result.capsule is not None
    assert b"bearer" not in result.data.lower()
    capsule = result.capsule
    assert capsule["architecture_summary"] == {
        "core_purpose": "",
        "critical_boundaries": ["Credentials never travel in query strings."],
    }
    assert capsule["deferred_items"] == ["[UPGRADE_DEFERRED] Audit logging of failed logins."]
    assert capsule["unresolved_blockers"] == ["Which clock source do we trust?"]
    schemes = next(c for c in capsule["frozen_contracts"] if c["id"] == "schemes")
    assert schemes == {"id": "schemes", "type": "ENUM_SET"}  # as the reference writes it, minus value
    # Each left-out item is named, with where it is and why; its text is never echoed.
    spec = (root / FEATURE / "spec.md").read_text("utf-8")
    warnings = [(w.code, w.effective_severity, spec[w.span.start : w.span.end]) for w in result.warnings if w.span]
    assert warnings == [
        ("CONTEXT_CAPSULE_SECRET_DETECTED", Severity.WARNING, "# Feature: Bearer tokens done right"),
        ("CONTEXT_CAPSULE_SECRET_DETECTED", Severity.WARNING, '"auth-header-only"'),
        ("CONTEXT_CAPSULE_SECRET_DETECTED", Severity.WARNING, '"schemes"'),
        (
            "CONTEXT_CAPSULE_SECRET_DETECTED",
            Severity.WARNING,
            "- Bearer token rotation (out of scope for this upgrade).",
        ),
        ("CONTEXT_CAPSULE_SECRET_DETECTED", Severity.WARNING, "- Should bearer tokens expire after one hour?"),
    ]
    assert all("earer" not in w.message.split("matches the")[0] for w in result.warnings)
    assert 'the description of contract "auth-header-only" (specs/001-x/spec.md line 7)' in result.warnings[1].message
    # The capsule keeps passing the reference's verify (its secret scan unchanged) and ours.
    write_atomic(root / result.path, result.data)
    assert reference_context_verify(root, FEATURE) == ("VALID", None)
    assert verify_capsule(disk(root), FEATURE).state == "VALID"
    # The command succeeds and says what it left out, on stderr.
    capsys.readouterr()
    assert cli_main(["context", "generate", FEATURE, "--target", str(root)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 5 and all(line.startswith("[WARN] [CONTEXT_CAPSULE_SECRET_DETECTED] Left out") for line in err)
    capsys.readouterr()
    assert cli_main(["context", "generate", FEATURE, "--json", "--target", str(root)]) == 0
    assert len(json.loads(capsys.readouterr().out)["warnings"]) == 5


def test_a_secret_in_a_normative_line_still_fails_closed(tmp_path: Path) -> None:
    """Normative lines are the reference's own content: leaving one out would drop an invariant."""
    root = _minimal(tmp_path / "repo", "# X\n- Clients MUST send Bearer tokens in the header.\n")
    result = generate_capsule(disk(root), FEATURE, NOW)
    assert not result.ok
    assert [f.code for f in result.findings] == ["CONTEXT_CAPSULE_SECRET_DETECTED"]


def test_a_shipped_feature_title_with_a_token_pattern_is_left_out(tmp_path: Path) -> None:
    root = _minimal(tmp_path / "repo", "# X\n", {"last_completed_feature": "specs/000-old"})
    (root / "specs/000-old").mkdir()
    (root / "specs/000-old/spec.md").write_text("# Spec: Bearer auth\n", "utf-8")
    result = generate(root, FEATURE)
    assert result.capsule is not None
    (entry,) = result.capsule["historical_context"]
    assert entry["feature"] == "specs/000-old" and "title" not in entry
    assert [w.path for w in result.warnings] == ["specs/000-old/spec.md"]


# --- "Open Questions: NONE" -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("section", "blockers"),
    [
        ("**NONE.**  \nEverything is resolved.\n", []),
        ("**NONE.** All questions were settled during specification:\n- X MUST be Y.\n- Z is Q.\n", []),
        ("None remaining at spec close.\n\n- Earlier question: answered in plan.md.\n", []),
        ("- NONE\n", []),
        ("- N/A\n", []),
        ("No open questions.\n- One resolved item.\n", []),
        ("- Which clock do we trust?\n- Who owns the cache?\n", ["Which clock do we trust?", "Who owns the cache?"]),
        ("None of these is settled yet:\n- Which clock?\n", ["Which clock?"]),
    ],
)
def test_open_questions_that_say_none_yield_no_blockers(section: str, blockers: list[str]) -> None:
    spec = f"# X\n## 1. Rules\n- A MUST b.\n\n## 9. Open Questions\n\n{section}\n## 10. Next\n- not a question\n"
    result = generate_capsule(GemstackRepo("/r", MemoryReader({f"{FEATURE}/spec.md": spec})), FEATURE, NOW)
    assert result.capsule is not None
    assert result.capsule["unresolved_blockers"] == sorted(blockers)


@pytest.mark.parametrize("phase", [7, True, ["plan"], None, ""])
def test_a_fresh_capsule_is_valid_whatever_type_state_json_gives_the_phase(tmp_path: Path, phase: object) -> None:
    """state.json is never type-checked upstream: an odd value must not make our own capsule conflict."""
    root = _minimal(tmp_path / "repo", "# X\n- It MUST work.\n", {"current_phase": phase, "status": phase})
    result = generate(root, FEATURE)
    assert result.data is not None and result.capsule is not None
    assert result.capsule["project"]["current_phase"] == "specification"
    write_atomic(root / result.path, result.data)
    assert verify_capsule(disk(root), FEATURE).state == "VALID"
    # A capsule holding the value as the reference writes it (any truthy value) is no conflict either.
    if phase:
        capsule = json.loads((root / result.path).read_text("utf-8"))
        capsule["project"]["current_phase"] = phase
        capsule["project"]["lifecycle_status"] = phase
        (root / result.path).write_text(json.dumps(capsule), "utf-8")
        assert not [f for f in verify_capsule(disk(root), FEATURE).findings if "AUTHORITY" in f.code]
