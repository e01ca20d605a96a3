"""The analysis host: the same findings as a whole analysis, recomputing only what an edit touched.

A spy reader records every read the host makes, so "an edit in one feature reads no other
feature" is a fact about I/O, not about timing. Memory is bounded by counts of what the host
keeps (documents, memo texts, units), measured over many edits.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gemstack_lsp.core import kinds
from gemstack_lsp.core.reader import DirEntry, FileContent, OverlayReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.fs import DiskReader
from gemstack_lsp.host import AnalysisHost

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "gemstack-reference" / "repo"
SPEC_008 = "008-cost-provider-safety-gates"
SPEC_009 = "009-context-capsule"


class SpyReader:
    """A disk reader that records every path it is asked for."""

    def __init__(self, root: Path) -> None:
        self._disk = DiskReader(root)
        self.reads: list[str] = []
        self.listings: list[str] = []

    def read(self, path: str) -> FileContent:
        self.reads.append(path)
        return self._disk.read(path)

    def list_dir(self, path: str) -> list[DirEntry] | None:
        self.listings.append(path)
        return self._disk.list_dir(path)


def _replicated(tmp_path: Path, copies: int) -> Path:
    """A repository with ``copies`` features: odd ones copies of 008, even ones of 009."""
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns("specs"))
    (root / "specs").mkdir()
    for i in range(1, copies + 1):
        base = SPEC_008 if i % 2 else SPEC_009
        shutil.copytree(FIXTURE / "specs" / base, root / "specs" / f"{i:04d}-{base[4:]}")
    state = root / ".gemstack" / "state.json"
    state.write_text(state.read_text("utf-8").replace(f"specs/{SPEC_009}", "specs/0002-context-capsule"), "utf-8")
    return root


def _expected(root: Path, buffers: dict[str, str]) -> list[object]:
    return list(analyze(GemstackRepo(str(root), OverlayReader(DiskReader(root), buffers))))


def test_host_findings_equal_a_whole_analysis_on_the_fixture() -> None:
    host = AnalysisHost(str(FIXTURE), DiskReader(FIXTURE))
    assert list(host.snapshot().findings()) == _expected(FIXTURE, {})


def test_an_edit_to_one_spec_reruns_that_feature_only_and_reads_no_other_feature(tmp_path: Path) -> None:
    root = _replicated(tmp_path, 6)
    spy = SpyReader(root)
    host = AnalysisHost(str(root), spy)
    host.snapshot().findings()
    computed = host.stats.units_computed
    assert computed == 7  # six features and the repository unit

    spy.reads.clear()
    spy.listings.clear()
    rel = "specs/0003-cost-provider-safety-gates/spec.md"
    text = (root / rel).read_text("utf-8") + "\nAn edit.\n"
    host.set_buffer(rel, text)
    findings = list(host.snapshot().findings())

    assert host.stats.units_computed == computed + 1  # 0003 alone (it is not the active feature)
    assert all(p.startswith("specs/0003-") or not p.startswith("specs/") for p in spy.reads), spy.reads
    assert findings == _expected(root, {rel: text})


def test_an_edit_to_state_json_reruns_exactly_the_units_that_read_it(tmp_path: Path) -> None:
    root = _replicated(tmp_path, 4)
    host = AnalysisHost(str(root), DiskReader(root))
    host.snapshot().findings()
    before = host.stats.units_computed
    state = (root / ".gemstack" / "state.json").read_text("utf-8")
    edited = state.replace('"status": "IMPLEMENTING"', '"status": "IMPLEMENTING" ')
    host.set_buffer(".gemstack/state.json", edited)
    findings = list(host.snapshot().findings())
    readers = {k for k, u in host._units.items() if ".gemstack/state.json" in u.deps}
    assert host.stats.units_computed - before == len(readers)
    assert findings == _expected(root, {".gemstack/state.json": edited})


def test_a_file_changed_on_disk_reruns_its_readers(tmp_path: Path) -> None:
    root = _replicated(tmp_path, 2)
    host = AnalysisHost(str(root), DiskReader(root))
    first = list(host.snapshot().findings())
    ledger = root / "specs" / "0001-cost-provider-safety-gates" / "cost-ledger.json"
    ledger.write_text("{ not json", "utf-8")
    host.file_changed("specs/0001-cost-provider-safety-gates/cost-ledger.json")
    after = list(host.snapshot().findings())
    assert after != first
    assert after == _expected(root, {})


def test_a_new_feature_folder_is_seen_after_the_watcher_reports_it(tmp_path: Path) -> None:
    root = _replicated(tmp_path, 2)
    host = AnalysisHost(str(root), DiskReader(root))
    host.snapshot().findings()
    shutil.copytree(FIXTURE / "specs" / SPEC_008, root / "specs" / "0003-new")
    host.file_changed("specs/0003-new")
    assert "0003-new" in host.snapshot().units()
    assert list(host.snapshot().findings()) == _expected(root, {})
    shutil.rmtree(root / "specs" / "0003-new")
    host.file_changed("specs/0003-new")
    assert "0003-new" not in host.snapshot().units()
    assert list(host.snapshot().findings()) == _expected(root, {})
    assert "0003-new" not in host._units


@pytest.mark.parametrize("edits", [50, 400])
def test_what_the_host_keeps_is_bounded_by_the_repository_not_by_the_edits(tmp_path: Path, edits: int) -> None:
    root = _replicated(tmp_path, 4)
    host = AnalysisHost(str(root), DiskReader(root))
    host.snapshot().findings()
    rel = "specs/0002-context-capsule/spec.md"
    text = (root / rel).read_text("utf-8")
    for i in range(edits):
        host.set_buffer(rel, text.replace("capsule", f"capsule{i}", 1))
        host.snapshot().findings_by_path()
    sizes = host.sizes()
    # One buffer (current and previous version), at most the bounded recent documents, one
    # result per unit: the same whatever the number of edits.
    assert sizes["units"] == 5
    assert sizes["memo_texts"] <= host.files.kept
    assert sizes["documents"] <= 2 + 48
    assert sizes["per_document"] == 0
    # The repository unit's parts: one per check, whatever the edits; the kept block results
    # (memo pieces) are those of the documents the last analysis read.
    assert sizes["parts"] <= 12
    assert host.memo.pieces <= 3 * len(kinds.BLOCKS)


def test_snapshots_are_immutable_an_old_one_keeps_its_findings(tmp_path: Path) -> None:
    root = _replicated(tmp_path, 2)
    host = AnalysisHost(str(root), DiskReader(root))
    rel = "specs/0002-context-capsule/spec.md"
    text = (root / rel).read_text("utf-8")
    old = host.snapshot()
    old_findings = list(old.findings())
    host.set_buffer(rel, text + "\n```gemstack-contracts\n[1]\n```\n")
    new = host.snapshot()
    assert new is not old and not old.current
    assert list(new.findings()) != old_findings
    assert list(old.findings()) == old_findings
    assert old.document(rel).text == text


def test_an_unchanged_file_keeps_the_same_finding_group_across_revisions(tmp_path: Path) -> None:
    root = _replicated(tmp_path, 4)
    host = AnalysisHost(str(root), DiskReader(root))
    before = dict(host.snapshot().findings_by_path())
    rel = "specs/0003-cost-provider-safety-gates/spec.md"
    host.set_buffer(rel, (root / rel).read_text("utf-8") + "\nmore\n")
    after = host.snapshot().findings_by_path()
    for path, group in after.items():
        if not path.startswith("specs/0003-"):
            assert group is before[path], path


def test_per_document_summaries_survive_revisions_while_the_document_is_unchanged(tmp_path: Path) -> None:
    root = _replicated(tmp_path, 2)
    host = AnalysisHost(str(root), DiskReader(root))
    calls: list[str] = []

    def summary(doc: object) -> int:
        calls.append(getattr(doc, "path", ""))
        return len(getattr(doc, "text", "") or "")

    rel = "specs/0001-cost-provider-safety-gates/spec.md"
    other = "specs/0002-context-capsule/spec.md"
    assert host.snapshot().per_document(rel, "len", summary) > 0
    host.set_buffer(other, "# changed\n")
    host.snapshot().per_document(rel, "len", summary)
    assert calls == [rel]
    host.set_buffer(rel, "# changed too\n")
    assert host.snapshot().per_document(rel, "len", summary) == len("# changed too\n")
    assert calls == [rel, rel]


def test_a_feature_whose_check_raises_does_not_hide_the_others(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gemstack_lsp.core import documents

    root = _replicated(tmp_path, 2)
    real = documents.feature_findings

    def flaky(repo: GemstackRepo, feature: object) -> list[object]:
        if getattr(feature, "name", "").startswith("0001"):
            raise RuntimeError("boom")
        return list(real(repo, feature))  # type: ignore[arg-type]

    monkeypatch.setattr(documents, "feature_findings", flaky)
    host = AnalysisHost(str(root), DiskReader(root))
    groups = host.snapshot().findings_by_path()
    spec_0001 = "specs/0001-cost-provider-safety-gates/spec.md"
    assert any(f.code == "GEMSTACK_INTERNAL_ERROR" for f in groups[spec_0001])
    assert any(p.startswith("specs/0002-") for p in groups)


def test_host_groups_equal_combine_without_cost_declarations_and_after_one_appears(tmp_path: Path) -> None:
    # The host groups per file through ``rules.combine``: the legacy notice while no unit
    # declares a cost source, deduplicated cost findings once one does.
    root = tmp_path / "repo"
    (root / "specs" / "001-x").mkdir(parents=True)
    (root / ".gemstack").mkdir()
    (root / "specs" / "001-x" / "spec.md").write_text("# X\n- The tool MUST work.\n", "utf-8")
    host = AnalysisHost(str(root), DiskReader(root))
    found = list(host.snapshot().findings())
    assert found == _expected(root, {})
    assert "LEGACY_NO_PROVIDERS_DECLARED" in {f.code for f in found}
    shutil.copytree(FIXTURE / "specs" / SPEC_008, root / "specs" / SPEC_008)
    host.file_changed()
    found = list(host.snapshot().findings())
    assert found == _expected(root, {})
    assert "LEGACY_NO_PROVIDERS_DECLARED" not in {f.code for f in found}
