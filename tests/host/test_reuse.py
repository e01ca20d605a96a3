"""What a keystroke reuses: results whose inputs did not change are not recomputed, and a
change to one of those inputs (a buffer or the disk) is never hidden by the reuse.

The counts are of calls, not of time: "the capsule is not re-scanned" is a fact about which
functions ran."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.core.capsule import verify
from gemstack_lsp.core.reader import OverlayReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.fs import DiskReader
from gemstack_lsp.host import AnalysisHost

#: The demo repository: its 009 feature has a context capsule (the test fixture's has none).
SPEC = "specs/009-context-capsule/spec.md"
CAPSULE = "specs/009-context-capsule/context-capsule.json"
ANCHOR = '"description": "Upgrade D implementation must introduce zero'


@pytest.fixture
def repo(demo_copy: Path) -> Path:
    return demo_copy


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Counts the capsule's whole-text work: its parse, secret scan, schema check and span parse."""
    seen: Counter[str] = Counter()

    def counted(name: str, fn: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            seen[name] += 1
            return fn(*args, **kwargs)

        return wrapper

    for name in ("parse_json", "scan_secrets", "schema_errors", "parse_spans"):
        monkeypatch.setattr(verify, name, counted(name, getattr(verify, name)))
    return seen


def _expected(root: Path, buffers: dict[str, str]) -> list[object]:
    return list(analyze(GemstackRepo(str(root), OverlayReader(DiskReader(root), buffers))))


def _typed(text: str, n: int) -> str:
    at = text.index(ANCHOR) + len(ANCHOR)
    return text[:at] + "x" * n + text[at:]


def test_a_keystroke_in_the_spec_reuses_the_capsules_parse_scan_and_schema_check(
    repo: Path, calls: Counter[str]
) -> None:
    host = AnalysisHost(str(repo), DiskReader(repo))
    text = (repo / SPEC).read_text("utf-8")
    host.set_buffer(SPEC, _typed(text, 1))
    host.snapshot().findings()
    assert calls["parse_json"] == 1 and calls["scan_secrets"] == 1 and calls["schema_errors"] == 1
    before = Counter(calls)
    for n in range(2, 6):
        host.set_buffer(SPEC, _typed(text, n))
        findings = list(host.snapshot().findings())
    assert calls == before  # the capsule did not change: nothing of it was redone
    assert findings == _expected(repo, {SPEC: _typed(text, 5)})


def test_an_edit_to_the_capsule_buffer_is_seen(repo: Path, calls: Counter[str]) -> None:
    host = AnalysisHost(str(repo), DiskReader(repo))
    host.snapshot().findings()
    capsule = (repo / CAPSULE).read_text("utf-8")
    leaked = capsule.replace('"schema_version": 1', '"schema_version": 1, "note": "sk-' + "q" * 30 + '"', 1)
    assert leaked != capsule
    host.set_buffer(CAPSULE, leaked)
    findings = list(host.snapshot().findings())
    assert "CONTEXT_CAPSULE_SECRET_DETECTED" in {f.code for f in findings}
    assert findings == _expected(repo, {CAPSULE: leaked})
    host.set_buffer(CAPSULE, capsule)
    assert list(host.snapshot().findings()) == _expected(repo, {CAPSULE: capsule})


def test_a_capsule_changed_on_disk_is_seen(repo: Path) -> None:
    host = AnalysisHost(str(repo), DiskReader(repo))
    first = list(host.snapshot().findings())
    (repo / CAPSULE).write_text("{ not json", "utf-8")
    host.file_changed(CAPSULE)
    after = list(host.snapshot().findings())
    assert after != first
    assert "CONTEXT_CAPSULE_INVALID" in {f.code for f in after}
    assert after == _expected(repo, {})


def test_a_source_changed_on_disk_makes_the_capsule_stale(repo: Path) -> None:
    host = AnalysisHost(str(repo), DiskReader(repo))
    plan = "specs/009-context-capsule/plan.md"
    first = list(host.snapshot().findings())
    with (repo / plan).open("a", encoding="utf-8") as f:
        f.write("\nA new line.\n")
    host.file_changed(plan)
    after = list(host.snapshot().findings())
    assert after != first
    assert after == _expected(repo, {})


def test_the_feature_list_is_reused_until_the_specs_folder_or_a_buffer_adds_a_feature(repo: Path) -> None:
    host = AnalysisHost(str(repo), DiskReader(repo))
    names = [f.name for f in host.snapshot().repo.features()]
    kept = host.files.features_kept
    assert kept is not None
    text = (repo / SPEC).read_text("utf-8")
    host.set_buffer(SPEC, _typed(text, 1))  # a buffer inside a folder the listing has
    assert [f.name for f in host.snapshot().repo.features()] == names
    assert host.files.features_kept is kept  # reused, not rebuilt

    new_spec = "specs/011-unsaved/spec.md"  # a buffer in a folder the disk does not have
    host.set_buffer(new_spec, "# Unsaved\n")
    assert [f.name for f in host.snapshot().repo.features()] == sorted([*names, "011-unsaved"])
    host.remove_buffer(new_spec)
    assert [f.name for f in host.snapshot().repo.features()] == names

    (repo / "specs" / "012-on-disk").mkdir()
    host.file_changed("specs/012-on-disk")
    assert [f.name for f in host.snapshot().repo.features()] == sorted([*names, "012-on-disk"])
    assert list(host.snapshot().findings()) == _expected(repo, {SPEC: _typed(text, 1)})


def test_the_unit_keys_are_reused_and_a_settled_workspace_answers_nothing_pending(repo: Path) -> None:
    """A keystroke at 2,000 features walked every unit several times to find none pending: the
    keys are the same object while the feature list is, and "every unit current" is one
    comparison, which a stale unit, a new feature or a removed one still turns back."""
    host = AnalysisHost(str(repo), DiskReader(repo))
    snap = host.snapshot()
    snap.findings()
    keys = snap.units()
    assert snap.pending() == [] and snap.unit_set() == frozenset(keys)
    text = (repo / SPEC).read_text("utf-8")
    host.set_buffer(SPEC, _typed(text, 1))
    snap = host.snapshot()
    assert snap.units() is keys  # the same feature list: the same keys
    assert snap.pending() == ["", "009-context-capsule"]  # the edited feature and the repository unit
    snap.findings()
    assert snap.pending() == [] and host.stale(keys) == []

    (repo / "specs" / "012-on-disk").mkdir()
    (repo / "specs" / "012-on-disk" / "spec.md").write_text("# New\n", "utf-8")
    host.file_changed("specs/012-on-disk")
    snap = host.snapshot()
    assert snap.units() is not keys and "012-on-disk" in snap.pending()
    assert list(snap.findings()) == _expected(repo, {SPEC: _typed(text, 1)})
    assert snap.pending() == []

    shutil.rmtree(repo / "specs" / "012-on-disk")
    host.file_changed("specs/012-on-disk")
    snap = host.snapshot()
    assert "012-on-disk" not in snap.units()
    assert list(snap.findings()) == _expected(repo, {SPEC: _typed(text, 1)})
    # The removed feature's unit is dropped: keys naming it are incomplete, the others complete.
    assert host.stale(keys) == [] and host.stale([*keys, "012-on-disk"]) == ["012-on-disk"]


def test_a_keystroke_in_the_spec_reuses_the_repository_checks_that_did_not_read_it(repo: Path) -> None:
    """The repository unit re-runs on a spec edit (state.json's frozen hashes read the active
    feature's documents), but its parts that read other files are reused; an edit to a file a
    part read recomputes that part."""
    host = AnalysisHost(str(repo), DiskReader(repo))
    host.snapshot().findings()
    text = (repo / SPEC).read_text("utf-8")
    host.set_buffer(SPEC, _typed(text, 1))
    host.snapshot().findings()
    misses = host.parts.misses
    for n in range(2, 5):
        host.set_buffer(SPEC, _typed(text, n))
        findings = list(host.snapshot().findings())
    assert host.parts.misses == misses and host.parts.hits > 0
    assert "FROZEN_ARTIFACT_CHANGED" in {f.code for f in findings}  # the part that reads the spec ran
    assert findings == _expected(repo, {SPEC: _typed(text, 4)})

    host.set_buffer("package.json", '{"scripts": {')  # read by a part: it runs again
    findings = list(host.snapshot().findings())
    assert host.parts.misses > misses
    assert "JSON_SYNTAX_ERROR" in {f.code for f in findings}
    assert findings == _expected(repo, {SPEC: _typed(text, 4), "package.json": '{"scripts": {'})


def test_parts_are_not_reused_across_options(repo: Path) -> None:
    from dataclasses import replace

    host = AnalysisHost(str(repo), DiskReader(repo))
    before = list(host.snapshot().findings())
    host.set_options(replace(host.options, disabled=frozenset({"cost"})))
    assert len(host.parts) == 0
    host.snapshot().findings()
    host.set_options(replace(host.options, disabled=frozenset()))
    assert list(host.snapshot().findings()) == before


def test_keeping_a_units_result_costs_the_same_whatever_the_feature_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether a computed unit still belongs to the snapshot is a set lookup: the feature list
    is not copied and searched for each unit (at 2,000 features, 2 million comparisons a pass)."""
    from gemstack_lsp.core.repo import Feature

    (tmp_path / ".gemstack").mkdir()
    for n in range(200):
        (tmp_path / "specs" / f"{n:03d}-f").mkdir(parents=True)
        (tmp_path / "specs" / f"{n:03d}-f" / "spec.md").write_text("# Spec\n", "utf-8")
    compared = Counter[str]()
    equal = Feature.__eq__

    def counted(self: Feature, other: object) -> bool:
        compared["eq"] += 1
        return equal(self, other)

    monkeypatch.setattr(Feature, "__eq__", counted)
    host = AnalysisHost(str(tmp_path), DiskReader(tmp_path))
    snap = host.snapshot()
    host.analyze(snap)
    assert not host.stale(snap.units())  # every unit was kept
    assert compared["eq"] < 200, compared


def test_a_snapshot_reads_a_file_outside_the_features_once(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """state.json, the root ledger and the other files outside feature folders are read by
    every unit: a snapshot reads each once and keeps that version (a change on disk is the next
    snapshot's), where each unit's read used to look at the disk again."""
    host = AnalysisHost(str(repo), DiskReader(repo))
    reads: Counter[str] = Counter()
    real = host.files.disk_document

    def counted(rel: str) -> Any:
        reads[rel] += 1
        return real(rel)

    monkeypatch.setattr(host.files, "disk_document", counted)
    snap = host.snapshot()
    host.analyze(snap)
    assert reads[".gemstack/state.json"] == 1
    assert all(n == 1 for rel, n in reads.items() if not rel.startswith("specs/"))
    state = snap.repo.document(".gemstack/state.json")
    (repo / ".gemstack" / "state.json").write_text("{}", encoding="utf-8")
    assert snap.repo.document(".gemstack/state.json") is state  # this snapshot's version
    host.file_changed(".gemstack/state.json")
    assert host.snapshot().repo.document(".gemstack/state.json").text == "{}"
