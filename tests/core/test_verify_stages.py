"""Verify stages 1, 2 and 6 of the reference (verify.js @ 1bcc799): the installation manifest,
.gitignore, handoff.md and its git-log cross-audit, .env, and package.json scripts.

Differential expectations: the memory cases re-implement tests/context-memory-p1.test.js @
8464583 (TEST-MEM-C01..C03, over memory-audit.js @ 8464583); the others follow the branches of
verify.js @ 1bcc799 one by one (upstream's tests/verify.test.js does not reach them).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.core.findings import Finding, Severity
from gemstack_lsp.core.reader import GitCommit, MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze

SECTIONS = (
    "# Handoff\n## 1. Objetivo\nInit.\n## 2. Estado actual\n- Work done.\n## 3. Archivos y cambios\n- None.\n"
    "## 4. Intentos fallidos\n- None.\n## 5. Próximos pasos\n- Next.\n"
)
SECTIONS_ONLY = (
    "## 1. Objetivo\n## 2. Estado actual\n## 3. Archivos y cambios\n## 4. Intentos fallidos\n## 5. Próximos pasos\n"
)
MANIFEST = json.dumps({"version": "2.0.1", "files": []})
VERIFY_CODES = (
    "GEMSTACK_",
    "GITIGNORE_",
    "HANDOFF_",
    "MEMORY_",
    "ENV_FILE",
    "SCRIPT_",
    "TEST_SCRIPT",
)


class GitReader(MemoryReader):
    """A repository whose Git history is ``commits`` (``None``: Git cannot be asked)."""

    def __init__(self, files: Mapping[str, str | bytes], commits: tuple[GitCommit, ...] | None) -> None:
        super().__init__(files)
        self.commits = commits
        self.asked: list[int] = []

    def recent_commits(self, limit: int) -> tuple[GitCommit, ...] | None:
        self.asked.append(limit)
        return None if self.commits is None else self.commits[:limit]


def run(files: Mapping[str, str | bytes], commits: tuple[GitCommit, ...] | None = ()) -> list[Finding]:
    base: dict[str, str | bytes] = {"specs/a/spec.md": "# A\n"}
    base.update(files)
    return [f for f in analyze(GemstackRepo("/repo", GitReader(base, commits))) if f.code.startswith(VERIFY_CODES)]


def codes(files: Mapping[str, str | bytes], commits: tuple[GitCommit, ...] | None = ()) -> list[str]:
    return sorted(f.code for f in run(files, commits))


def marked(findings: list[Finding], files: Mapping[str, str]) -> list[tuple[str, str]]:
    out = []
    for f in findings:
        assert f.span is not None
        out.append((f.code, files[f.path][f.span.start : f.span.end]))
    return out


# --- Stage 1: the installation manifest -------------------------------------------------------


def test_a_listed_file_that_is_missing_is_an_error_on_its_path() -> None:
    manifest = json.dumps({"files": [{"path": "AGENTS.md", "checksum": "x"}]})
    found = run({".gemstack/manifest.json": manifest, ".gitignore": "# Gemstack\n", "handoff.md": SECTIONS})
    assert marked(found, {".gemstack/manifest.json": manifest}) == [("GEMSTACK_FILE_MISSING", '"AGENTS.md"')]
    assert found[0].effective_severity is Severity.BLOCKER


def test_modified_files_are_one_information_and_unchanged_ones_nothing() -> None:
    same = "# Agents\n"
    manifest = json.dumps(
        {
            "files": [
                {"path": "AGENTS.md", "checksum": hashlib.sha256(same.encode()).hexdigest()},
                {"path": "a.md", "checksum": "0" * 64},
                {"path": "b.md", "checksum": "0" * 64},
            ]
        }
    )
    files = {
        ".gemstack/manifest.json": manifest,
        "AGENTS.md": same,
        "a.md": "a",
        "b.md": "b",
        ".gitignore": "# Gemstack\n",
    }
    (info,) = run({**files, "handoff.md": SECTIONS})
    assert info.code == "GEMSTACK_FILES_MODIFIED" and info.effective_severity is Severity.INFO
    assert "2 base file(s)" in info.message and "a.md, b.md" in info.message


@pytest.mark.parametrize(
    ("files_value", "where"),
    [
        ('{"path": "x"}', '{"path": "x"}'),
        ('"AGENTS.md"', '"AGENTS.md"'),
        ('[{"checksum": "x"}]', '{"checksum": "x"}'),
        ('[{"path": "../outside.md"}]', '"../outside.md"'),
        ('[{"path": "specs"}]', '"specs"'),
        ('["AGENTS.md"]', '"AGENTS.md"'),
    ],
)
def test_a_manifest_the_reference_cannot_walk_is_invalid(files_value: str, where: str) -> None:
    manifest = '{"files": ' + files_value + "}"
    found = run({".gemstack/manifest.json": manifest, ".gitignore": "# Gemstack\n", "handoff.md": SECTIONS})
    assert marked(found, {".gemstack/manifest.json": manifest}) == [("GEMSTACK_MANIFEST_INVALID", where)]


def test_a_null_manifest_is_invalid() -> None:
    # `null.files` throws in the reference (Error leyendo manifest.json); a number or a list does not.
    files = {".gitignore": "# Gemstack\n", "handoff.md": SECTIONS}
    assert codes({**files, ".gemstack/manifest.json": "null"}) == ["GEMSTACK_MANIFEST_INVALID"]
    assert codes({**files, ".gemstack/manifest.json": "5"}) == []


def test_no_files_or_a_falsy_files_value_checks_nothing() -> None:
    for manifest in ('{"version": "1"}', '{"files": null}', '{"files": []}', "[]"):
        assert codes({".gemstack/manifest.json": manifest, ".gitignore": "# Gemstack\n", "handoff.md": SECTIONS}) == []


# --- Stage 1: .gitignore ------------------------------------------------------------------------


def test_an_installed_repository_needs_the_gemstack_block_in_gitignore() -> None:
    found = run({".gemstack/manifest.json": MANIFEST, ".gitignore": "node_modules/", "handoff.md": SECTIONS})
    (f,) = found
    assert f.code == "GITIGNORE_GEMSTACK_BLOCK_MISSING" and f.path == ".gitignore"
    (edit,) = f.fixes[0].edits
    assert "node_modules/" + edit.new_text == "node_modules/\n\n# Gemstack\n.gemstack/state.json\n.gemstack/backups/\n"
    assert codes({".gemstack/manifest.json": MANIFEST, "handoff.md": SECTIONS}) == ["GITIGNORE_GEMSTACK_BLOCK_MISSING"]


def test_a_repository_without_manifest_is_not_asked_for_gemstack_files() -> None:
    assert codes({}) == []
    assert codes({".gitignore": "node_modules/\n"}) == []


# --- Stage 2: handoff.md -------------------------------------------------------------------------


def test_an_installed_repository_needs_handoff_md() -> None:
    (f,) = run({".gemstack/manifest.json": MANIFEST, ".gitignore": "# Gemstack\n"})
    assert f.code == "HANDOFF_MISSING" and f.path == "handoff.md"


def test_TEST_MEM_C03_a_removed_failed_attempts_section_is_two_errors() -> None:
    text = SECTIONS.replace("## 4. Intentos fallidos\n- None.\n", "")
    found = run({"handoff.md": text}, commits=(GitCommit("a1b2c3d", "feat: add unrecorded secret feature"),))
    assert sorted(f.code for f in found) == ["HANDOFF_FAILED_ATTEMPTS_REMOVED", "HANDOFF_INCOMPLETE"]
    assert "4. Intentos fallidos" in found[0].message + found[1].message
    # With a section missing, the cross-audit reports nothing (memory-audit.js returns early).


def test_every_missing_section_is_listed() -> None:
    text = SECTIONS.replace("2. Estado actual", "2. State").replace("5. Próximos pasos", "5. Next")
    (f,) = run({"handoff.md": text})
    assert f.code == "HANDOFF_INCOMPLETE" and f.message.endswith("2. Estado actual, 5. Próximos pasos")


def test_TEST_MEM_C01_an_unrecorded_commit_is_a_warning_naming_its_hash() -> None:
    found = run({"handoff.md": SECTIONS}, commits=(GitCommit("a1b2c3d", "feat: add unrecorded secret feature"),))
    assert marked(found, {"handoff.md": SECTIONS}) == [("MEMORY_UNRECORDED_COMMITS", "## 3. Archivos y cambios")]
    assert "a1b2c3d" in found[0].message and found[0].effective_severity is Severity.WARNING


def test_TEST_MEM_C02_a_commit_recorded_by_hash_or_by_a_word_passes() -> None:
    text = SECTIONS.replace("- Work done.", "- Implemented commit a1b2c3d (adaptable sdd rigor).")
    assert codes({"handoff.md": text}, commits=(GitCommit("a1b2c3d", "feat: adaptable sdd rigor"),)) == []
    by_word = SECTIONS.replace("- Work done.", "- Adaptable rigor levels.")
    assert codes({"handoff.md": by_word}, commits=(GitCommit("fffffff", "feat: ADAPTABLE sdd"),)) == []


def test_short_words_and_punctuation_do_not_record_a_commit() -> None:
    # "fix:" and "sdd" are shorter than five letters once punctuation is dropped; "estado," is
    # recorded ("Estado actual", ignoring case) once its comma is dropped, as the reference does.
    assert codes({"handoff.md": SECTIONS}, commits=(GitCommit("1234567", "fix: sdd"),)) == ["MEMORY_UNRECORDED_COMMITS"]
    assert codes({"handoff.md": SECTIONS}, commits=(GitCommit("1234567", "docs: estado, ok"),)) == []


def test_only_the_five_newest_commits_are_audited() -> None:
    reader = GitReader({"handoff.md": SECTIONS}, tuple(GitCommit(f"{i:07x}", "x") for i in range(9)))
    findings = analyze(GemstackRepo("/repo", reader))
    (f,) = [f for f in findings if f.code == "MEMORY_UNRECORDED_COMMITS"]
    assert reader.asked == [5] and f.data["commits"] == [f"{i:07x}" for i in range(5)]


def test_when_git_cannot_be_asked_the_finding_says_so() -> None:
    assert codes({"handoff.md": SECTIONS, ".git/HEAD": "ref: refs/heads/main\n"}, commits=None) == [
        "MEMORY_GIT_AUDIT_UNAVAILABLE"
    ]
    # Not a Git repository at all: git log fails in the reference too, and nothing is audited.
    assert codes({"handoff.md": SECTIONS}, commits=None) == []


# --- Stage 6: .env and package.json scripts --------------------------------------------------------


def test_a_dotenv_file_that_gitignore_does_not_ignore_is_a_warning() -> None:
    assert codes({".env": "A=1\n"}) == ["ENV_FILE_PRESENT"]
    assert codes({".env": "A=1\n", ".gitignore": "node_modules/\n"}) == ["ENV_FILE_PRESENT"]
    for ignoring in (".env\n", "/.env\n", ".env*\n", "*.env\n", "**/.env\n"):
        assert codes({".env": "A=1\n", ".gitignore": ignoring}) == [], ignoring
    assert codes({".env": "A=1\n", ".gitignore": ".env\n!.env\n"}) == ["ENV_FILE_PRESENT"]
    assert codes({".env/x": "a folder"}) == []


def test_stderr_to_nul_is_an_error_in_any_script_at_the_matched_text() -> None:
    pkg = json.dumps({"scripts": {"build": "tsc 2>nul", "lint": "eslint . 2> nul", "test": "node --test"}})
    found = run({"package.json": pkg})
    assert marked(found, {"package.json": pkg}) == [
        ("SCRIPT_STDERR_SUPPRESSED", "2>nul"),
        ("SCRIPT_STDERR_SUPPRESSED", "2> nul"),
    ]
    assert all(f.effective_severity is Severity.BLOCKER for f in found)


def test_or_true_is_a_warning_only_in_test_scripts() -> None:
    pkg = json.dumps({"scripts": {"test:unit": "jest || true", "build": "tsc || true", "pretest": "x"}})
    found = run({"package.json": pkg})
    assert marked(found, {"package.json": pkg}) == [("TEST_SCRIPT_FAILURE_IGNORED", "|| true")]
    # A script with both is reported once, as the error (the reference's else-if).
    both = json.dumps({"scripts": {"test": "jest 2>nul || true"}})
    assert codes({"package.json": both}) == ["SCRIPT_STDERR_SUPPRESSED"]


def test_scripts_that_are_not_strings_or_a_broken_package_json_draw_nothing_here() -> None:
    assert codes({"package.json": json.dumps({"scripts": {"test": ["x || true"]}})}) == []
    assert codes({"package.json": json.dumps({"scripts": "test || true"})}) == []
    assert codes({"package.json": '{"scripts": {"test": "x || true",}}'}) == []


def test_a_long_script_is_matched_in_linear_time() -> None:
    pkg = json.dumps({"scripts": {"test": "|" * 200_000 + "true"}})
    assert codes({"package.json": pkg}) == []
    pkg = json.dumps({"scripts": {"test": "|" * 200_000 + " true"}})
    assert codes({"package.json": pkg}) == ["TEST_SCRIPT_FAILURE_IGNORED"]


AUDITS = json.loads(
    (Path(__file__).resolve().parent.parent / "fixtures" / "upstream-2.0" / "memory-audit.json").read_text("utf-8")
)


@pytest.mark.parametrize("case", AUDITS, ids=[c["commits"][0]["message"] for c in AUDITS])
def test_the_cross_audit_agrees_with_the_reference_under_node(case: dict[str, Any]) -> None:
    commits = tuple(GitCommit(c["hash"], c["message"]) for c in case["commits"])
    found = run({"handoff.md": SECTIONS_ONLY + case["handoff_extra"]}, commits=commits)
    unrecorded = [h for f in found if f.code == "MEMORY_UNRECORDED_COMMITS" for h in f.data["commits"]]
    assert unrecorded == case["unrecorded"]


def test_the_manifest_schema_accepts_what_init_writes_and_refuses_what_verify_cannot_walk() -> None:
    import jsonschema

    from gemstack_lsp.core.schemas import load_schema

    validator = jsonschema.Draft202012Validator(load_schema("gemstack-manifest"))
    fixture = Path(__file__).resolve().parent.parent / "fixtures" / "gemstack-reference" / "repo" / ".gemstack"
    validator.validate(json.loads((fixture / "manifest.json").read_text("utf-8")))
    validator.validate({"version": "2.0.1", "files": [{"path": "AGENTS.md", "checksum": "0" * 64}]})
    for bad in ({"files": {}}, {"files": [{"checksum": "x"}]}, {"files": ["AGENTS.md"]}):
        assert not validator.is_valid(bad)
