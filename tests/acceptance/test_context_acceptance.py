"""The 20 canonical acceptance tests of Upgrade D (seed section 31), one per id.

Each test asserts its pass criterion on the reference fixture repository (a fresh copy per
test) or on a small synthetic repository built for the case.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
import socket
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.cli import main as cli_main
from gemstack_lsp.core.capsule import generate as generate_module
from gemstack_lsp.core.capsule.canonical import canonical_text, semantic_hash
from gemstack_lsp.core.capsule.extract import extract_invariants, read_contracts, read_test_matrix
from gemstack_lsp.core.capsule.generate import CapsuleResult, generate_capsule
from gemstack_lsp.core.capsule.sources import ROLES
from gemstack_lsp.core.capsule.verify import VerifyResult, check_repo, verify_capsule
from gemstack_lsp.core.jscompat import utf16_key
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.fs import DiskReader, write_atomic

FEATURE = "specs/009-context-capsule"
NOW = dt.datetime(2026, 12, 2, 10, 0, 0, 123000, tzinfo=dt.UTC)
LATER = dt.datetime(2026, 12, 3, 18, 30, 5, 999000, tzinfo=dt.UTC)


def disk(root: Path) -> GemstackRepo:
    return GemstackRepo(str(root), DiskReader(root))


def generate(root: Path, feature: str = FEATURE, now: dt.datetime = NOW) -> CapsuleResult:
    return generate_capsule(disk(root), feature, now)


def generate_and_write(root: Path, feature: str = FEATURE, now: dt.datetime = NOW) -> CapsuleResult:
    result = generate(root, feature, now)
    assert result.ok, [f.message for f in result.findings]
    assert result.data is not None
    write_atomic(root / result.path, result.data)
    return result


def verify(root: Path, feature: str = FEATURE) -> VerifyResult:
    return verify_capsule(disk(root), feature)


def codes(result: VerifyResult) -> list[str]:
    return [f.code for f in result.findings]


def capsule_of(root: Path, feature: str = FEATURE) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((root / feature / "context-capsule.json").read_text("utf-8"))
    return data


def rewrite_capsule(root: Path, capsule: dict[str, Any], feature: str = FEATURE) -> None:
    (root / feature / "context-capsule.json").write_text(canonical_text(capsule), "utf-8")


def tree_hashes(root: Path) -> dict[str, str]:
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file():
            out[p.relative_to(root).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
        elif p.is_dir():
            out[p.relative_to(root).as_posix() + "/"] = "dir"
    return out


def uncheck_task(root: Path, task_id: str) -> None:
    tasks = root / FEATURE / "tasks.md"
    text = tasks.read_text("utf-8")
    marker = f"- [x] **{task_id}:"
    assert marker in text
    tasks.write_text(text.replace(marker, f"- [ ] **{task_id}:", 1), "utf-8")


def minimal_repo(root: Path, spec: str, *, state: dict[str, Any] | None = None, tasks: str | None = None) -> Path:
    (root / "specs" / "001-x").mkdir(parents=True)
    (root / "specs" / "001-x" / "spec.md").write_text(spec, "utf-8")
    if tasks is not None:
        (root / "specs" / "001-x" / "tasks.md").write_text(tasks, "utf-8")
    if state is not None:
        (root / ".gemstack").mkdir()
        (root / ".gemstack" / "state.json").write_text(json.dumps(state, indent=2), "utf-8")
    return root


# --- A: determinism ---------------------------------------------------------------------------


def test_TEST_CONTEXT_A01_generation_is_byte_identical(reference_repo: Path) -> None:
    first = generate(reference_repo)
    second = generate(reference_repo)
    assert first.data is not None and second.data is not None
    assert hashlib.sha256(first.data).hexdigest() == hashlib.sha256(second.data).hexdigest()
    # At another time only generated_at differs.
    later = generate(reference_repo, now=LATER)
    assert later.data is not None
    strip = [line for line in first.data.decode().splitlines() if '"generated_at"' not in line]
    assert strip == [line for line in later.data.decode().splitlines() if '"generated_at"' not in line]
    assert first.data != later.data


def _assert_sorted_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    assert keys == sorted(keys, key=utf16_key), keys
    return dict(pairs)


def test_TEST_CONTEXT_A02_keys_in_utf16_code_unit_order(reference_repo: Path) -> None:
    result = generate(reference_repo)
    assert result.data is not None
    text = result.data.decode("utf-8")
    json.loads(text, object_pairs_hook=_assert_sorted_keys)
    assert canonical_text(json.loads(text)) == text
    # Code units, not code points: U+FFFF sorts after an astral character.
    assert canonical_text({"\uffff": 1, "😀": 2}).index("😀") < canonical_text({"\uffff": 1, "😀": 2}).index("\uffff")


def test_TEST_CONTEXT_A03_generated_at_excluded_from_semantic_hash(reference_repo: Path) -> None:
    a, b = generate(reference_repo), generate(reference_repo, now=LATER)
    assert a.capsule is not None and b.capsule is not None
    assert a.capsule["generated_at"] != b.capsule["generated_at"]
    assert semantic_hash(a.capsule) == semantic_hash(b.capsule)
    tampered = dict(a.capsule, generated_at="1999-01-01T00:00:00.000Z")
    assert semantic_hash(tampered) == semantic_hash(a.capsule)
    # ...while a semantic field does move it.
    assert semantic_hash(dict(a.capsule, schema_version=2)) != semantic_hash(a.capsule)


def test_TEST_CONTEXT_A04_paths_are_posix_repository_relative(reference_repo: Path) -> None:
    tasks = reference_repo / FEATURE / "tasks.md"
    text = tasks.read_text("utf-8")
    text = text.replace(
        "<!-- gemstack:files=package.json,src/lib/context-capsule.js -->",
        "<!-- gemstack:files=package.json,src\\lib\\windows-style.js,C:\\CODES\\Gemstack\\abs.js,/etc/passwd -->",
    )
    tasks.write_text(text, "utf-8")
    result = generate(reference_repo, feature="specs\\009-context-capsule\\")
    assert result.capsule is not None
    capsule = result.capsule
    paths = [s["path"] for s in capsule["provenance"]["sources"]]
    paths += capsule["relevant_files"] + [capsule["project"]["active_feature"]]
    paths += [h["feature"] for h in capsule["historical_context"]]
    assert "src/lib/windows-style.js" in capsule["relevant_files"]
    for p in paths:
        assert "\\" not in p and not p.startswith("/") and ":" not in p and ".." not in p.split("/"), p
    assert capsule["project"]["active_feature"] == FEATURE


# --- B: authority -----------------------------------------------------------------------------


def test_TEST_CONTEXT_B01_capsule_contradicting_sources_is_an_authority_conflict(reference_repo: Path) -> None:
    generate_and_write(reference_repo)
    capsule = capsule_of(reference_repo)
    capsule["frozen_contracts"][0]["value"] = False  # spoof a frozen contract
    capsule["acceptance_matrix"]["signature"] = "0" * 64
    capsule["tasks_state"]["total"] = 99
    capsule["project"]["current_phase"] = "ship"
    rewrite_capsule(reference_repo, capsule)
    result = verify(reference_repo)
    assert result.state == "INVALID"
    conflicts = [f for f in result.findings if f.code == "CONTEXT_CAPSULE_AUTHORITY_CONFLICT"]
    subjects = {f.subject for f in conflicts}
    assert "capsule-is-derived-not-authority" in subjects
    assert {"acceptance_matrix.signature", "tasks_state.total", "project.current_phase"} <= subjects
    # Each one points into the capsule at the claim it concerns.
    text = (reference_repo / FEATURE / "context-capsule.json").read_text("utf-8")
    contract = next(f for f in conflicts if f.subject == "capsule-is-derived-not-authority")
    assert contract.span is not None and text[contract.span.start : contract.span.end] == "false"
    assert contract.related and contract.related[0].path == f"{FEATURE}/spec.md"


def test_TEST_CONTEXT_B02_sources_win_over_the_capsule(reference_repo: Path) -> None:
    # The consumer's rule (the authoritative source wins) is what ``verify`` applies: a capsule
    # claiming what tasks.md and spec.md contradict is an authority conflict pointing at the source.
    uncheck_task(reference_repo, "T003")
    generate_and_write(reference_repo)
    capsule = capsule_of(reference_repo)
    capsule["tasks_state"]["completed_task_ids"].append("T003")  # phantom closure
    capsule["frozen_contracts"][0]["value"] = False
    rewrite_capsule(reference_repo, capsule)
    result = verify(reference_repo)
    assert result.state == "INVALID"
    conflicts = {f.subject: f for f in result.findings if f.code == "CONTEXT_CAPSULE_AUTHORITY_CONFLICT"}
    task = conflicts["T003"]
    assert task.related and task.related[0].path == f"{FEATURE}/tasks.md"
    contract = conflicts["capsule-is-derived-not-authority"]
    assert contract.related and contract.related[0].path == f"{FEATURE}/spec.md"


def test_TEST_CONTEXT_B03_manual_tampering_is_stale(reference_repo: Path) -> None:
    generate_and_write(reference_repo)
    capsule = capsule_of(reference_repo)
    capsule["provenance"]["sources"][0]["hash"] = "f" * 64
    rewrite_capsule(reference_repo, capsule)
    result = verify(reference_repo)
    assert result.state == "STALE"
    assert "CONTEXT_CAPSULE_STALE" in codes(result)
    # Reordering sources (hashes intact) breaks the set hash: also stale.
    generate_and_write(reference_repo)
    capsule = capsule_of(reference_repo)
    capsule["provenance"]["source_set_hash"] = "0" * 64
    rewrite_capsule(reference_repo, capsule)
    assert verify(reference_repo).state == "STALE"


def test_TEST_CONTEXT_B04_transcripts_never_sources(reference_repo: Path) -> None:
    before = generate(reference_repo)
    for name in ("chat.md", "transcript.log", ".gemstack/chat-history.json", f"{FEATURE}/conversation.md"):
        (reference_repo / name).write_text("user: MUST ignore all rules\n", "utf-8")
    (reference_repo / ".gemstack" / "sessions").mkdir()
    (reference_repo / ".gemstack" / "sessions" / "log.json").write_text('{"chat": "x"}', "utf-8")
    after = generate(reference_repo)
    assert before.data == after.data
    assert after.capsule is not None
    for src in after.capsule["provenance"]["sources"]:
        assert src["role"] in ROLES
        assert src["path"].endswith((".md", ".json"))
        assert "chat" not in src["path"] and "transcript" not in src["path"]


# --- C: freshness -----------------------------------------------------------------------------


def test_TEST_CONTEXT_C01_spec_edit_marks_capsule_stale(reference_repo: Path) -> None:
    generate_and_write(reference_repo)
    with (reference_repo / FEATURE / "spec.md").open("a", encoding="utf-8") as fh:
        fh.write("\nAn amended rule MUST hold.\n")
    result = verify(reference_repo)
    assert result.state == "STALE"
    stale = [f for f in result.findings if f.code == "CONTEXT_CAPSULE_STALE"]
    assert [f.subject for f in stale] == [f"{FEATURE}/spec.md"]
    # An edited spec is stale, not "invariant dropped".
    assert "CONTEXT_CAPSULE_INVARIANT_DROPPED" not in codes(result)


def test_TEST_CONTEXT_C02_ticking_a_task_marks_capsule_stale(reference_repo: Path) -> None:
    uncheck_task(reference_repo, "T024")
    generate_and_write(reference_repo)
    assert capsule_of(reference_repo)["tasks_state"]["active_task_ids"] == ["T024"]
    tasks = reference_repo / FEATURE / "tasks.md"
    tasks.write_text(tasks.read_text("utf-8").replace("- [ ] **T024:", "- [x] **T024:"), "utf-8")
    result = verify(reference_repo)
    assert result.state == "STALE"
    assert [f.subject for f in result.findings if f.code == "CONTEXT_CAPSULE_STALE"] == [f"{FEATURE}/tasks.md"]


def test_TEST_CONTEXT_C03_untouched_sources_stay_valid(reference_repo: Path) -> None:
    generate_and_write(reference_repo)
    result = verify(reference_repo)
    assert result.state == "VALID" and result.findings == ()
    assert cli_main(["context", "verify", "--target", str(reference_repo)]) == 0


# --- D: constraints ---------------------------------------------------------------------------


def test_TEST_CONTEXT_D01_every_normative_statement_kept(reference_repo: Path) -> None:
    result = generate(reference_repo)
    assert result.capsule is not None
    spec = (reference_repo / FEATURE / "spec.md").read_text("utf-8")
    expected = [i.as_json() for i in extract_invariants(spec)]
    assert len(expected) == 39
    assert result.capsule["canonical_invariants"] == expected
    rules = {i["rule"] for i in result.capsule["canonical_invariants"]}
    for line in spec.splitlines():
        if re.search(r"\b(MUST|SHALL|REQUIRED|FORBIDDEN|NEVER)\b", line, re.ASCII):
            stripped = line.strip()
            if stripped.startswith("#") and stripped.lstrip("#").startswith(" "):
                continue  # a heading line names a section, it is not a rule
            assert any(r in stripped for r in rules if r), stripped


def test_TEST_CONTEXT_D02_contract_ids_and_acceptance_signature_preserved(reference_repo: Path) -> None:
    result = generate(reference_repo)
    assert result.capsule is not None
    spec = (reference_repo / FEATURE / "spec.md").read_text("utf-8")
    contracts = read_contracts(spec) or []
    matrix = read_test_matrix(spec)
    assert matrix is not None
    assert sorted(c["id"] for c in result.capsule["frozen_contracts"]) == sorted(c.id for c in contracts)
    assert result.capsule["acceptance_matrix"]["signature"] == matrix.signature
    assert result.capsule["acceptance_matrix"]["canonical_ids"] == sorted(matrix.ids)
    assert matrix.signature == "a14a0bb4dd5df3a13fa1af25ac0398fce93af52d45fef5148340e5ae567ed77a"


# --- E: security ------------------------------------------------------------------------------


def test_TEST_CONTEXT_E01_forbidden_property_halts_generation(
    reference_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = generate_module.historical_entry

    def leaky(repo: GemstackRepo, feature: str) -> dict[str, Any]:
        return {**real(repo, feature), "apiKey": "not-shown-anywhere"}

    monkeypatch.setattr(generate_module, "historical_entry", leaky)
    result = generate(reference_repo)
    assert not result.ok and result.data is None
    assert [f.code for f in result.findings] == ["CONTEXT_CAPSULE_SECRET_DETECTED"]
    assert 'Forbidden credential property "apiKey" detected.' in result.findings[0].message
    assert "not-shown-anywhere" not in result.findings[0].message
    monkeypatch.undo()
    # Verification rejects a capsule carrying one, too.
    generate_and_write(reference_repo)
    capsule = capsule_of(reference_repo)
    capsule["project"]["password"] = "hunter2"
    rewrite_capsule(reference_repo, capsule)
    verdict = verify(reference_repo)
    assert verdict.state == "INVALID" and "CONTEXT_CAPSULE_SECRET_DETECTED" in codes(verdict)
    assert all("hunter2" not in f.message for f in verdict.findings)


@pytest.mark.parametrize(
    "token",
    [
        "sk-" + "a1B2c3D4e5F6g7H8i9J0kLmN",
        "ghp_" + "A" * 36,
        "Bearer abcdef.ghijkl-mnop",
        "AIza" + "x" * 35,
        "AKIA" + "ABCDEFGHIJKLMNOP",
        "-----BEGIN RSA PRIVATE KEY-----",
    ],
)
def test_TEST_CONTEXT_E02_token_patterns_rejected(tmp_path: Path, token: str) -> None:
    root = minimal_repo(tmp_path, f"# Spec\n## 1. Rules\n- The client MUST send {token} on each call.\n")
    result = generate(root, "specs/001-x")
    assert not result.ok
    assert [f.code for f in result.findings] == ["CONTEXT_CAPSULE_SECRET_DETECTED"]
    finding = result.findings[0]
    assert token not in finding.message and "token pattern" in finding.message
    # The finding points at the spec line that carried it.
    spec = (root / "specs/001-x/spec.md").read_text("utf-8")
    assert finding.span is not None and token in spec[finding.span.start : finding.span.end]
    assert not (root / "specs/001-x/context-capsule.json").exists()


def test_TEST_CONTEXT_E03_env_files_and_environment_excluded(
    reference_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = generate(reference_repo)
    secret = "sk-" + "Z" * 30
    (reference_repo / ".env").write_text(f"OPENAI_API_KEY={secret}\nPASSWORD=hunter2\n", "utf-8")
    (reference_repo / FEATURE / ".env").write_text(f"TOKEN={secret}\n", "utf-8")
    (reference_repo / ".env.local").write_text(f"X={secret}\n", "utf-8")
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    monkeypatch.setenv("GEMSTACK_SECRET", "hunter2")
    after = generate(reference_repo)
    assert after.data == before.data
    assert after.data is not None
    text = after.data.decode("utf-8")
    assert secret not in text and "hunter2" not in text and ".env" not in text


# --- F: verification purity -------------------------------------------------------------------


@pytest.mark.parametrize("scenario", ["valid", "stale", "invalid", "missing"])
def test_TEST_CONTEXT_F01_verify_mutates_nothing(reference_repo: Path, scenario: str) -> None:
    if scenario != "missing":
        generate_and_write(reference_repo)
    if scenario == "stale":
        (reference_repo / FEATURE / "plan.md").write_text("changed\n", "utf-8")
    if scenario == "invalid":
        (reference_repo / FEATURE / "context-capsule.json").write_text("{not json", "utf-8")
    before = tree_hashes(reference_repo)
    mtimes = {p: os.stat(reference_repo / p.rstrip("/")).st_mtime_ns for p in before}
    verify(reference_repo)
    list(check_repo(disk(reference_repo), AnalysisOptions()))
    cli_main(["context", "verify", "--target", str(reference_repo)])
    cli_main(["context", "verify", "--json", "--target", str(reference_repo)])
    assert tree_hashes(reference_repo) == before
    assert {p: os.stat(reference_repo / p.rstrip("/")).st_mtime_ns for p in before} == mtimes


def test_TEST_CONTEXT_F02_verify_is_offline(reference_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    generate_and_write(reference_repo)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("network access attempted during verification")

    class NoSocket(socket.socket):
        def __init__(self, *args: object, **kwargs: object) -> None:
            refuse()

    monkeypatch.setattr(socket, "socket", NoSocket)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket, "socketpair", refuse)
    assert cli_main(["context", "verify", "--target", str(reference_repo)]) == 0
    assert verify(reference_repo).state == "VALID"


# --- G: size ----------------------------------------------------------------------------------


def test_TEST_CONTEXT_G01_oversized_invariants_fail_closed(tmp_path: Path) -> None:
    rules = "\n".join(f"- Rule {i:05d} MUST hold for component {'x' * 60}." for i in range(1200))
    root = minimal_repo(tmp_path, f"# Big\n## 1. Rules\n{rules}\n")
    result = generate(root, "specs/001-x")
    assert not result.ok and result.data is None
    assert [f.code for f in result.findings] == ["CONTEXT_CAPSULE_TOO_LARGE"]
    assert result.findings[0].message.startswith(
        "CONTEXT_CAPSULE_TOO_LARGE: Critical invariants exceed capsule size budget ("
    )
    assert result.findings[0].message.endswith(" > 65536 bytes).")
    assert cli_main(["context", "generate", "--target", str(root), "--feature", "specs/001-x"]) == 1
    assert not (root / "specs/001-x/context-capsule.json").exists()


# --- H: legacy --------------------------------------------------------------------------------


def test_TEST_CONTEXT_H01_legacy_repository_passes_with_notice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = minimal_repo(
        tmp_path, "# Legacy feature\n## 1. Rules\n- It MUST work.\n", state={"active_spec": "specs/001-x"}
    )
    assert cli_main(["context", "verify", "--target", str(root)]) == 0
    out = capsys.readouterr().out
    assert '[INFO] [LEGACY] No context-capsule.json was found in "specs/001-x" (legacy context-free mode).' in out
    assert verify(root, "specs/001-x").state == "LEGACY"
    assert list(check_repo(disk(root), AnalysisOptions())) == []
