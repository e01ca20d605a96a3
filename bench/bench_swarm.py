"""Swarm and visual QA checks: the upstream 010 slice, and a large synthetic swarm (cold, no memo)."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import Feature, GemstackRepo
from gemstack_lsp.core.swarm import feature_swarm_findings
from gemstack_lsp.core.visual_qa import feature_visual_qa_findings

SLICE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "upstream-010"
F10 = Feature("010-agent-swarm-visual-qa")


def _median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def _slice_files() -> dict[str, bytes]:
    return {str(p.relative_to(SLICE)): p.read_bytes() for p in SLICE.rglob("*") if p.is_file()}


def _large(waves: int, per_wave: int) -> dict[str, bytes]:
    tasks_md = "\n".join(f"- [ ] **TASK-{w}-{t}: work**" for w in range(waves) for t in range(per_wave))
    manifest = {
        "version": "1.0.0",
        "feature_id": "big",
        "max_workers": 8,
        "waves": [
            {
                "wave_index": w + 1,
                "tasks": [
                    {
                        "task_id": f"TASK-{w}-{t}",
                        "assigned_role": "implementer",
                        "worker_id": f"worker-{t}",
                        "write_set": [f"src/w{w}/t{t}/file{k}.js" for k in range(5)],
                        "review": {"reviewer_id": f"reviewer-{t}"},
                    }
                    for t in range(per_wave)
                ],
            }
            for w in range(waves)
        ],
    }
    return {
        "specs/big/spec.md": b"# Big\n",
        "specs/big/tasks.md": tasks_md.encode(),
        "specs/big/swarm.json": json.dumps(manifest, indent=2).encode(),
        ".gemstack/state.json": b'{"active_spec": "specs/big"}',
    }


def main() -> None:
    files = _slice_files()

    def slice_run() -> object:
        repo = GemstackRepo("/repo", MemoryReader(files))
        return feature_swarm_findings(repo, F10, True) + feature_visual_qa_findings(repo, F10, True)

    print(f"upstream 010 slice, swarm.json + visual-qa.json, cold: median {_median_ms(slice_run, 200):.3f} ms")
    for waves, per_wave in ((10, 8), (250, 8)):
        big = _large(waves, per_wave)
        size = len(big["specs/big/swarm.json"])

        def big_run(big: dict[str, bytes] = big) -> object:
            return feature_swarm_findings(GemstackRepo("/repo", MemoryReader(big)), Feature("big"), True)

        med = _median_ms(big_run, 20)
        shape = f"{waves} waves x {per_wave} tasks ({size / 1000:.0f} k chars)"
        print(f"synthetic swarm, {shape}, cold: median {med:.2f} ms")


if __name__ == "__main__":
    main()
