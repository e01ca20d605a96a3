"""Upstream Gemstack 2.0 as its authors keep it: no false alarm from the 2.0 verify stages, and
the one true finding upstream's own logic reports (see tests/fixtures/upstream-2.0/README.md)."""

from __future__ import annotations

from pathlib import Path

from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.reader import GitCommit, MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.gitlog import parse_oneline

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SLICE = FIXTURES / "upstream-2.0"
FEATURE_013 = FIXTURES / "upstream-013"
NEW_STAGES = (
    "AMENDMENT_",
    "UNAUTHORIZED_",
    "FROZEN_ARTIFACT_AMENDED",
    "GEMSTACK_",
    "GITIGNORE_",
    "ENV_FILE",
    "SCRIPT_",
    "TEST_SCRIPT",
    "HANDOFF_",
    "MEMORY_",
    "INVALID_RIGOR",
    "FIX_MISSING",
    "FEATURE_PLAN",
    "FEATURE_TASKS",
    "HIGH_RISK",
    "DELTA_",
    "INVALID_DELTA",
)


class _Upstream(MemoryReader):
    """Upstream's files, with the commit log stored beside them."""

    def __init__(self, files: dict[str, bytes], commits: tuple[GitCommit, ...]) -> None:
        super().__init__(files)
        self._commits = commits

    def recent_commits(self, limit: int) -> tuple[GitCommit, ...]:
        return self._commits[:limit]


def files(handoff: str = "handoff.md") -> dict[str, bytes]:
    out = {str(p.relative_to(FEATURE_013)): p.read_bytes() for p in FEATURE_013.rglob("*") if p.is_file()}
    out.pop("README.md")
    for name in ("package.json", ".gitignore"):
        out[name] = (SLICE / name).read_bytes()
    out["handoff.md"] = (SLICE / handoff).read_bytes()
    out[".git/HEAD"] = b"ref: refs/heads/main\n"
    return out


def run(handoff: str = "handoff.md") -> list[Finding]:
    commits = parse_oneline((SLICE / "git-log-77c99d8.txt").read_text("utf-8"))
    repo = GemstackRepo("/upstream", _Upstream(files(handoff), commits))
    return [f for f in analyze(repo) if f.code.startswith(NEW_STAGES)]


def test_upstream_2_0_draws_only_the_unrecorded_commit_upstream_reports() -> None:
    (f,) = run()
    assert f.code == "MEMORY_UNRECORDED_COMMITS" and f.data["commits"] == ["85326c8"]


def test_the_0_4_handoff_misses_every_mandatory_section_as_upstream_says() -> None:
    found = run("handoff-ae055a0.md")
    assert sorted(f.code for f in found) == ["HANDOFF_FAILED_ATTEMPTS_REMOVED", "HANDOFF_INCOMPLETE"]
    (incomplete,) = [f for f in found if f.code == "HANDOFF_INCOMPLETE"]
    assert incomplete.data["missing"] == [
        "1. Objetivo",
        "2. Estado actual",
        "3. Archivos y cambios",
        "4. Intentos fallidos",
        "5. Próximos pasos",
    ]
