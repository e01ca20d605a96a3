"""Swarm and visual QA in the IDE layer: hover on values (roles, task ids, workers, hashes), and the
host re-running a feature when its capsule or a baseline image changes."""

from __future__ import annotations

import json

from gemstack_lsp import ide
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.host import AnalysisHost, Snapshot
from tests.core.upstream_e_data import IMAGE, SWARM, VQA, edited, files, reference_hash, swarm_manifest, vqa_manifest


def _snapshot(repo_files: dict[str, str | bytes]) -> Snapshot:
    return AnalysisHost("/repo", MemoryReader(repo_files)).snapshot()


def _hover(snap: Snapshot, path: str, needle: str, nth: int = 0) -> list[str]:
    text = snap.repo.document(path).text
    assert text is not None
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    info = ide.hover(snap, path, at + 2, ide.HoverOptions())
    return list(info.sections) if info is not None else []


def test_roles_tasks_and_workers() -> None:
    manifest = edited(swarm_manifest(), lambda m: m["waves"][0]["tasks"][1]["review"].update(reviewer_id="worker-2"))
    snap = _snapshot(files(manifest))
    (role,) = [s for s in _hover(snap, SWARM, '"implementer"') if "swarm role" in s]
    assert role.startswith("**`implementer`** · swarm role")
    (task,) = [s for s in _hover(snap, SWARM, '"T002"') if "tasks.md" in s]
    assert task == "**`T002`** · declared in tasks.md, line 4\n\n- [ ] **T002: two**"
    (worker,) = [s for s in _hover(snap, SWARM, '"worker-2"') if "swarm worker" in s]
    assert "Author of: T002 (wave 1)." in worker and "Reviewer of: T002 (wave 1)." in worker
    assert "Reviews its own work: T002 (wave 1) (SWARM_SELF_REVIEW_DETECTED)." in worker
    orphan = edited(swarm_manifest(), lambda m: m["waves"][0]["tasks"][0].update(task_id="T404"))
    (missing,) = [s for s in _hover(_snapshot(files(orphan)), SWARM, '"T404"') if "T404" in s]
    assert "Not declared in tasks.md" in missing


def test_the_recorded_capsule_hash_and_the_baseline_hash() -> None:
    capsule = "{}\n"
    manifest = swarm_manifest(source_capsule_hash="0" * 64)
    snap = _snapshot(files(manifest, vqa_manifest(), extra={"specs/a/context-capsule.json": capsule}))
    (stale,) = [s for s in _hover(snap, SWARM, '"000') if "source_capsule_hash" in s]
    assert f"hashes to `{reference_hash(capsule.encode())[:12]}…` now" in stale and "SWARM_CONTEXT_STALE" in stale
    (image,) = [s for s in _hover(snap, VQA, json.dumps(IMAGE)) if "baseline image" in s]
    assert "matches image_sha256" in image
    snap = _snapshot(files(vqa=vqa_manifest(), extra={IMAGE: b"changed"}))
    (changed,) = [s for s in _hover(snap, VQA, json.dumps(IMAGE)) if "baseline image" in s]
    assert "differs from image_sha256 (VQA_BASELINE_TAMPERED)" in changed


def test_the_host_reruns_the_feature_when_the_capsule_or_the_image_changes() -> None:
    capsule = "{}\n"
    manifest = swarm_manifest(source_capsule_hash=reference_hash(capsule.encode()))
    host = AnalysisHost(
        "/repo", MemoryReader(files(manifest, vqa_manifest(), extra={"specs/a/context-capsule.json": capsule}))
    )

    def codes() -> list[str]:
        return sorted(f.code for f in host.snapshot().findings() if f.code.startswith(("SWARM_", "VQA_")))

    assert codes() == []
    # An edited capsule (an open buffer) makes the swarm stale before it is saved.
    host.set_buffer("specs/a/context-capsule.json", '{"edited": true}\n')
    assert codes() == ["SWARM_CONTEXT_STALE"]
    host.remove_buffer("specs/a/context-capsule.json")
    assert codes() == []
    # The baseline image is a dependency of the feature too.
    host.set_buffer(IMAGE, "another picture")
    assert codes() == ["VQA_BASELINE_TAMPERED"]
