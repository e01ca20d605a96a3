"""The analysis host follows amendments.json as the editor edits it: both units that read it
(the active feature's, and the repository's for state.json's frozen hashes) are recomputed, and
the answer equals a full analysis."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.hashing import hash_text
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.host import AnalysisHost

F = "specs/001-test"
SPEC = '```gemstack-contracts\n[{"id": "c1", "type": "BOOLEAN_INVARIANT", "value": true}]\n```\n'
PLAN = '```gemstack-contracts\n[{"id": "c1", "type": "BOOLEAN_INVARIANT", "value": false}]\n```\n'
RECORD = {"amendment_id": "AMD-1", "contract_id": "c1", "version": 2, "reason": "r", "approved_by": "lead"}
SIGNED = json.dumps([{**RECORD, "signature": hashlib.sha256(b"AMD-1|c1|2|r|lead").hexdigest()}])
FILES = {
    f"{F}/spec.md": "# edited\n" + SPEC,
    f"{F}/plan.md": PLAN,
    ".gemstack/state.json": json.dumps({"active_spec": F, "phase_hashes": {"spec": hash_text(SPEC)}}),
}


def codes(findings: Iterable[Finding]) -> list[str]:
    return sorted(f.code for f in findings if f.code.startswith(("AMEND", "FROZEN")))


def test_editing_amendments_json_moves_both_units() -> None:
    host = AnalysisHost("/repo", MemoryReader(FILES))
    assert codes(host.snapshot().findings()) == ["FROZEN_ARTIFACT_CHANGED"] * 2 + ["FROZEN_CONTRACT_VIOLATION"]

    host.set_buffer(f"{F}/amendments.json", SIGNED)
    amended = codes(host.snapshot().findings())
    assert amended == ["AMENDMENT_VERIFIED"] * 2 + ["FROZEN_ARTIFACT_AMENDED"] * 2
    full = analyze(GemstackRepo("/repo", MemoryReader({**FILES, f"{F}/amendments.json": SIGNED})))
    assert amended == codes(full)

    host.set_buffer(f"{F}/amendments.json", SIGNED.replace('"r"', '"tampered"'))
    assert codes(host.snapshot().findings()) == [
        "AMENDMENT_REJECTED",
        "AMENDMENT_SECRET_MISSING",
        "FROZEN_ARTIFACT_CHANGED",
        "FROZEN_ARTIFACT_CHANGED",
        "FROZEN_CONTRACT_VIOLATION",
    ]
