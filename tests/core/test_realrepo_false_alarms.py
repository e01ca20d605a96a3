"""No false alarm on real upstream trees (issue 18, item 4): a Gemstack 0.x ``specs/current``
beside ``active_spec: null`` is not the active feature of verify-like checks."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import shutil
from pathlib import Path

from gemstack_lsp.core.capsule.generate import generate_capsule
from gemstack_lsp.core.capsule.verify import feature_capsule_findings
from gemstack_lsp.core.findings import Severity
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.fs import DiskReader

FIXTURE = Path(__file__).parent.parent / "fixtures" / "upstream-realrepo" / "current-0x"

CONTRACTS = """
```gemstack-contracts
[{"id": "zero-dependency-core", "type": "BOOLEAN_INVARIANT", "value": true}]
```
"""
MATRIX = """
```gemstack-test-matrix
[{"id": "TEST-CI-A01", "category": "ci", "layer": "UNIT", "description": "d", "pass_criteria": "p", "gate": "REQUIRED"}]
```
"""


def _hash(path: Path) -> str:
    text = path.read_bytes().decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _upstream_0x_with_appended_blocks(tmp_path: Path) -> Path:
    """The 0.3 tree: its phases frozen in state.json (active_spec still null), a capsule
    generated for specs/current, then contract and matrix blocks appended to every phase."""
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    current = root / "specs" / "current"
    state_path = root / ".gemstack" / "state.json"
    state = json.loads(state_path.read_text("utf-8"))
    assert state["active_spec"] is None
    state["phase_hashes"] = {p: _hash(current / f"{p}.md") for p in ("spec", "plan", "tasks")}
    state_path.write_text(json.dumps(state, indent=2) + "\n", "utf-8")
    repo = GemstackRepo(str(root), DiskReader(root))
    result = generate_capsule(repo, "specs/current", dt.datetime(2026, 9, 1, tzinfo=dt.UTC))
    assert result.ok, result.findings
    assert result.data is not None
    (current / "context-capsule.json").write_bytes(result.data)
    for name, block in (("spec.md", CONTRACTS + MATRIX), ("plan.md", CONTRACTS), ("tasks.md", CONTRACTS)):
        with (current / name).open("a", encoding="utf-8") as fh:
            fh.write(block)
    return root


def test_specs_current_beside_a_null_active_spec_is_not_verified_as_active(tmp_path: Path) -> None:
    root = _upstream_0x_with_appended_blocks(tmp_path)
    repo = GemstackRepo(str(root), DiskReader(root))
    assert repo.active_feature() is None
    findings = analyze(repo, AnalysisOptions())
    codes = [f.code for f in findings]
    # The reference's verify checks no feature when active_spec is null: no frozen-artifact
    # check, no closure requirement (before: 6 FROZEN_ARTIFACT_CHANGED and CLOSURE_MANIFEST_MISSING).
    assert "FROZEN_ARTIFACT_CHANGED" not in codes
    assert "CLOSURE_MANIFEST_MISSING" not in codes
    # The capsule is stale, and says so, but as the capsule of an inactive feature: a warning.
    stale = [f for f in findings if f.code == "CONTEXT_CAPSULE_STALE"]
    assert stale and all(f.effective_severity is Severity.WARNING for f in stale)
    assert not [f for f in findings if f.effective_severity is Severity.BLOCKER and f.path.startswith("specs/current")]


def test_the_same_tree_with_specs_current_active_is_checked(tmp_path: Path) -> None:
    """The control: naming the folder in active_spec makes every verify-like check run."""
    root = _upstream_0x_with_appended_blocks(tmp_path)
    state_path = root / ".gemstack" / "state.json"
    state = json.loads(state_path.read_text("utf-8"))
    state["active_spec"] = "specs/current"
    state_path.write_text(json.dumps(state, indent=2) + "\n", "utf-8")
    repo = GemstackRepo(str(root), DiskReader(root))
    codes = [f.code for f in analyze(repo, AnalysisOptions())]
    assert codes.count("FROZEN_ARTIFACT_CHANGED") == 6
    assert "CLOSURE_MANIFEST_MISSING" in codes
    capsule = feature_capsule_findings(repo, repo.active_feature(), AnalysisOptions())  # type: ignore[arg-type]
    assert any(f.code == "CONTEXT_CAPSULE_STALE" and f.effective_severity is Severity.BLOCKER for f in capsule)


def test_an_active_spec_through_the_parent_that_comes_back_inside(reference_repo: Path) -> None:
    """``active_spec: "../repo/specs/009-..."`` from a root named repo: the feature it names, no
    "outside the repository" error, and a capsule that records the paths as written (as the
    reference writes them) verifies VALID."""
    from gemstack_lsp.core.capsule.sources import source_set_hash
    from gemstack_lsp.core.capsule.verify import verify_capsule
    from gemstack_lsp.core.hashing import hash_bytes
    from tests.conftest import REFERENCE_OUTPUT

    assert reference_repo.name == "repo"
    feature = "specs/009-context-capsule"
    state_path = reference_repo / ".gemstack" / "state.json"
    state = json.loads(state_path.read_text("utf-8"))
    state["active_spec"] = f"../repo/{feature}"
    state_path.write_text(json.dumps(state, indent=2) + "\n", "utf-8")
    capsule = json.loads((REFERENCE_OUTPUT / "specs-009-context-capsule.json").read_text("utf-8"))
    for source in capsule["provenance"]["sources"]:
        source["hash"] = hash_bytes((reference_repo / source["path"]).read_bytes())
        if source["path"].startswith(feature):
            source["path"] = "../repo/" + source["path"]
    capsule["provenance"]["source_set_hash"] = source_set_hash(capsule["provenance"]["sources"])
    (reference_repo / feature / "context-capsule.json").write_text(json.dumps(capsule, indent=2) + "\n", "utf-8")

    repo = GemstackRepo(str(reference_repo), DiskReader(reference_repo))
    active = repo.active_feature()
    assert active is not None and active.path == feature
    codes = [f.code for f in analyze(repo, AnalysisOptions())]
    assert "STATE_INVALID" not in codes and "STATE_ACTIVE_SPEC_MISSING" not in codes
    assert "CLOSURE_MANIFEST_MISSING" in codes  # the active feature's checks run
    result = verify_capsule(repo, feature)
    assert (result.state, [f.code for f in result.findings]) == ("VALID", [])
