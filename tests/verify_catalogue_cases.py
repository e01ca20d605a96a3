"""Coverage cases of area 'verify' for ``tests/test_catalogue_coverage.py``: one small repository
per code of the Gemstack 2.0 verify stages (amendments, memory, manifest, .gitignore,
package.json scripts, rigor levels, spec deltas).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.core.hashing import hash_text
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.reader import GitCommit, MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze

Case = Callable[[Path, pytest.CaptureFixture[str]], set[str]]

F = "specs/a"
SPEC = '```gemstack-contracts\n[{"id": "c", "type": "BOOLEAN_INVARIANT", "value": true}]\n```\n'
PLAN = '```gemstack-contracts\n[{"id": "c", "type": "BOOLEAN_INVARIANT", "value": false}]\n```\n'
STATE = json.dumps({"active_spec": F, "phase_hashes": {"spec": hash_text("# frozen\n" + SPEC)}})


def codes(
    files: Mapping[str, str | bytes], secret: str | None = None, reader: type[MemoryReader] = MemoryReader
) -> set[str]:
    repo = GemstackRepo("/repo", reader(dict(files)))
    return {f.code for f in analyze(repo, AnalysisOptions(amendment_secret=secret))}


def case(files: Mapping[str, str | bytes], secret: str | None = None) -> Case:
    return lambda _tmp, _capsys: codes(files, secret)


def signed(secret: str | None = None, **fields: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "amendment_id": "AMD-1",
        "contract_id": "c",
        "version": 2,
        "reason": "why",
        "approved_by": "lead",
        **fields,
    }
    payload = "|".join(str(record[k]) for k in ("amendment_id", "contract_id", "version", "reason", "approved_by"))
    record.setdefault("signature", hashlib.sha256(payload.encode()).hexdigest())
    return record


def amended(amendments: Any, **extra: str) -> dict[str, str]:
    return {
        f"{F}/spec.md": SPEC,
        f"{F}/plan.md": PLAN,
        ".gemstack/state.json": STATE,
        f"{F}/amendments.json": amendments if isinstance(amendments, str) else json.dumps(amendments),
        **extra,
    }


HANDOFF = (
    "## 1. Objetivo\n## 2. Estado actual\n## 3. Archivos y cambios\n## 4. Intentos fallidos\n## 5. Próximos pasos\n"
)
INSTALLED = {"specs/a/spec.md": "# A\n", ".gemstack/manifest.json": '{"files": []}', ".gitignore": "# Gemstack\n"}


class _GitReader(MemoryReader):
    """A Git repository whose newest commit is not in handoff.md (``None``: Git cannot be asked)."""

    commits: tuple[GitCommit, ...] | None = (GitCommit("a1b2c3d", "feat: unrecorded"),)

    def recent_commits(self, limit: int) -> tuple[GitCommit, ...] | None:
        return self.commits


class _NoGitReader(_GitReader):
    commits = None


def git_case(files: Mapping[str, str], reader: type[MemoryReader]) -> Case:
    return lambda _tmp, _capsys: codes(files, reader=reader)


CASES: list[tuple[str, Case]] = [
    ("AMENDMENT_FILE_INVALID", case(amended("[{,]"))),
    ("AMENDMENT_REJECTED", case(amended([signed(signature="0" * 64)]))),
    ("UNAUTHORIZED_CONTRACT_MUTATION", case(amended([signed(contract_id="other")]))),
    ("AMENDMENT_MALFORMED", case(amended([{"amendment_id": "AMD-1", "contract_id": "c"}]))),
    ("AMENDMENT_SIGNATURE_INVALID", case(amended([signed(signature="0" * 64)]), secret="s3cr3t-key")),
    ("AMENDMENT_SECRET_MISSING", case(amended([signed(signature="0" * 64)]))),
    ("AMENDMENT_REPLAY_DETECTED", case(amended([signed(feature_id="b")]))),
    ("AMENDMENT_VERIFIED", case(amended([signed()]))),
    ("FROZEN_ARTIFACT_AMENDED", case(amended([signed()], **{f"{F}/spec.md": "# edited\n" + SPEC}))),
    ("GEMSTACK_MANIFEST_INVALID", case({**INSTALLED, ".gemstack/manifest.json": '{"files": {}}'})),
    ("GEMSTACK_FILE_MISSING", case({**INSTALLED, ".gemstack/manifest.json": '{"files": [{"path": "AGENTS.md"}]}'})),
    (
        "GEMSTACK_FILES_MODIFIED",
        case({**INSTALLED, ".gemstack/manifest.json": '{"files": [{"path": "specs/a/spec.md"}]}'}),
    ),
    ("GITIGNORE_GEMSTACK_BLOCK_MISSING", case({**INSTALLED, ".gitignore": "node_modules/\n"})),
    ("ENV_FILE_PRESENT", case({"specs/a/spec.md": "# A\n", ".env": "A=1\n"})),
    ("SCRIPT_STDERR_SUPPRESSED", case({"specs/a/spec.md": "# A\n", "package.json": '{"scripts": {"b": "x 2>nul"}}'})),
    (
        "TEST_SCRIPT_FAILURE_IGNORED",
        case({"specs/a/spec.md": "# A\n", "package.json": '{"scripts": {"test": "x || true"}}'}),
    ),
    ("HANDOFF_MISSING", case(INSTALLED)),
    ("HANDOFF_INCOMPLETE", case({"specs/a/spec.md": "# A\n", "handoff.md": "# Handoff\n"})),
    ("HANDOFF_FAILED_ATTEMPTS_REMOVED", case({"specs/a/spec.md": "# A\n", "handoff.md": "# Handoff\n"})),
    ("MEMORY_UNRECORDED_COMMITS", git_case({"specs/a/spec.md": "# A\n", "handoff.md": HANDOFF}, _GitReader)),
    (
        "MEMORY_GIT_AUDIT_UNAVAILABLE",
        git_case(
            {"specs/a/spec.md": "# A\n", "handoff.md": HANDOFF, ".git/HEAD": "ref: refs/heads/main\n"}, _NoGitReader
        ),
    ),
    (
        "INVALID_RIGOR_LEVEL",
        case({".gemstack/state.json": json.dumps({"active_spec": F}), f"{F}/spec.md": "**Rigor**: x\n"}),
    ),
    (
        "FIX_MISSING_REGRESSION_TEST",
        case({".gemstack/state.json": json.dumps({"active_spec": F}), f"{F}/spec.md": "**Rigor**: fix\n"}),
    ),
    (
        "FEATURE_PLAN_MISSING",
        case({".gemstack/state.json": json.dumps({"active_spec": F}), f"{F}/spec.md": "**Rigor**: feature\n"}),
    ),
    (
        "FEATURE_TASKS_MISSING",
        case({".gemstack/state.json": json.dumps({"active_spec": F}), f"{F}/spec.md": "**Rigor**: feature\n"}),
    ),
    (
        "HIGH_RISK_MISSING_THREAT_MODEL",
        case({".gemstack/state.json": json.dumps({"active_spec": F}), f"{F}/spec.md": "**Rigor**: high-risk\n"}),
    ),
    (
        "HIGH_RISK_MISSING_ROLLBACK_PLAN",
        case({".gemstack/state.json": json.dumps({"active_spec": F}), f"{F}/spec.md": "**Rigor**: high-risk\n"}),
    ),
    (
        "HIGH_RISK_INSUFFICIENT_APPROVALS",
        case(
            {
                ".gemstack/state.json": json.dumps({"active_spec": F}),
                f"{F}/spec.md": "**Rigor**: high-risk\n## Threat Model\n",
                f"{F}/plan.md": "## Rollback Plan\n",
                f"{F}/.gemstack.json": json.dumps({"approvals": [{"approver": "ana", "signature": "s1"}]}),
            }
        ),
    ),
    ("DELTA_PARSE_ERROR", case({f"{F}/spec.md": "```gemstack-spec-delta\n{,}\n```\n"})),
    ("INVALID_DELTA_SCHEMA", case({f"{F}/spec.md": "```gemstack-spec-delta\n1\n```\n"})),
    ("DELTA_TARGET_NOT_FOUND", case({f"{F}/spec.md": '```gemstack-spec-delta\n{"base_spec": "specs/none"}\n```\n'})),
    (
        "DELTA_ADD_CONFLICT",
        case(
            {
                "specs/b/spec.md": SPEC,
                f"{F}/spec.md": "```gemstack-spec-delta\n"
                + json.dumps({"base_spec": "b", "added": {"contracts": [{"id": "c"}]}})
                + "\n```\n",
            }
        ),
    ),
]
