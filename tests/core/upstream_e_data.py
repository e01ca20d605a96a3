"""Small Gemstack 1.4 repositories for the swarm and visual QA tests (``specs/a`` is active)."""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any

from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze

FEATURE = "specs/a"
SWARM = f"{FEATURE}/swarm.json"
VQA = f"{FEATURE}/visual-qa.json"
IMAGE = f"{FEATURE}/baselines/home.png"
IMAGE_BYTES = b"\x89PNG\r\n\x1a\nNOT_REALLY_A_PNG"
STATE_ACTIVE = json.dumps({"active_spec": FEATURE})
TASKS_MD = "# Tasks\n\n- [ ] **T001: one**\n- [ ] **T002: two**\n"


def reference_hash(data: bytes) -> str:
    """The reference's ``hashFile``: UTF-8 text (invalid bytes replaced), CRLF and CR to LF."""
    text = data.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def swarm_manifest(**top: Any) -> dict[str, Any]:
    """A valid manifest of one wave with two implementers, each reviewed by someone else."""
    manifest: dict[str, Any] = {
        "version": "1.0.0",
        "feature_id": "a",
        "max_workers": 4,
        "waves": [
            {
                "wave_index": 1,
                "tasks": [
                    {
                        "task_id": "T001",
                        "assigned_role": "implementer",
                        "worker_id": "worker-1",
                        "write_set": ["src/one.js"],
                        "review": {"reviewer_id": "worker-rev-1"},
                    },
                    {
                        "task_id": "T002",
                        "assigned_role": "implementer",
                        "worker_id": "worker-2",
                        "write_set": ["src/two.js"],
                        "review": {"reviewer_id": "worker-rev-2"},
                    },
                ],
            }
        ],
    }
    manifest.update(top)
    return manifest


def vqa_manifest(**top: Any) -> dict[str, Any]:
    manifest: dict[str, Any] = {
        "version": "1.0.0",
        "feature_id": "a",
        "scenarios": [
            {
                "scenario_id": "VQA-HOME-001",
                "route": "/",
                "viewport": {"width": 1280, "height": 800, "device_scale_factor": 1},
                "baseline": {"image_path": IMAGE, "image_sha256": reference_hash(IMAGE_BYTES)},
            }
        ],
    }
    manifest.update(top)
    return manifest


def files(
    swarm: Any = None,
    vqa: Any = None,
    *,
    extra: Mapping[str, str | bytes] | None = None,
    active: bool = True,
) -> dict[str, str | bytes]:
    out: dict[str, str | bytes] = {
        f"{FEATURE}/spec.md": "# A\n",
        f"{FEATURE}/tasks.md": TASKS_MD,
        IMAGE: IMAGE_BYTES,
    }
    if active:
        out[".gemstack/state.json"] = STATE_ACTIVE
    if swarm is not None:
        out[SWARM] = swarm if isinstance(swarm, str | bytes) else json.dumps(swarm, indent=2)
    if vqa is not None:
        out[VQA] = vqa if isinstance(vqa, str | bytes) else json.dumps(vqa, indent=2)
    out.update(extra or {})
    return out


def findings(repo_files: Mapping[str, str | bytes], prefix: tuple[str, ...] = ("SWARM_", "VQA_")) -> list[Finding]:
    """The swarm and visual QA findings of ``analyze`` on a repository made of ``repo_files``."""
    repo = GemstackRepo("/repo", MemoryReader(dict(repo_files)))
    return [f for f in analyze(repo) if f.code.startswith(prefix)]


def codes(repo_files: Mapping[str, str | bytes]) -> set[str]:
    return {f.code for f in findings(repo_files)}


def edited(manifest: dict[str, Any], change: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    """A deep copy of ``manifest`` with ``change`` applied."""
    copied = copy.deepcopy(manifest)
    change(copied)
    return copied
