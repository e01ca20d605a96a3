"""Context capsule generation and verification: milliseconds per run (median of several).

Two inputs: the reference fixture repository (feature 009, read from disk through
``DiskReader``, a fresh snapshot per run) and a synthetic in-memory feature whose spec has
5,000 normative lines. The synthetic capsule is far above the 64 KiB hard limit, so its
generation fails closed (TOO_LARGE) after doing all the work; to time verification of such a
capsule the hard limit is lifted for the one generation that produces it.
"""

from __future__ import annotations

import datetime as dt
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from gemstack_lsp.core.capsule import size
from gemstack_lsp.core.capsule.generate import generate_capsule
from gemstack_lsp.core.capsule.verify import verify_capsule
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.fs import DiskReader, write_atomic

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "gemstack-reference" / "repo"
FEATURE = "specs/009-context-capsule"
NOW = dt.datetime(2026, 12, 2, tzinfo=dt.UTC)
RUNS = 15


def _time(fn: Callable[[], object], runs: int = RUNS) -> tuple[float, float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), min(samples)


def _report(label: str, fn: Callable[[], object], runs: int = RUNS) -> None:
    median, best = _time(fn, runs)
    print(f"{label:<58} median {median:8.2f} ms   best {best:8.2f} ms   ({runs} runs)")


def _synthetic_files(lines: int) -> dict[str, str]:
    rules = "\n".join(f"- Component {i:05d} MUST keep invariant {i} and MUST NOT drop rule {i}." for i in range(lines))
    spec = f"# Synthetic\n## 1. Rules\n{rules}\n"
    tasks = "".join(f"- [{'x' if i % 2 else ' '}] **T{i:03d}: task {i}**\n" for i in range(1, 200))
    return {"specs/big/spec.md": spec, "specs/big/tasks.md": tasks, "package.json": '{"name": "bench"}'}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        shutil.copytree(FIXTURE, root)

        def disk() -> GemstackRepo:
            return GemstackRepo(str(root), DiskReader(root))

        result = generate_capsule(disk(), FEATURE, NOW)
        assert result.data is not None
        print(f"fixture capsule: {len(result.data)} bytes, {len(result.capsule or {}).__str__()} top-level keys")
        _report("fixture 009: generate (fresh snapshot, disk)", lambda: generate_capsule(disk(), FEATURE, NOW))
        write_atomic(root / result.path, result.data)
        _report("fixture 009: verify VALID (fresh snapshot, disk)", lambda: verify_capsule(disk(), FEATURE))
        (root / FEATURE / "plan.md").write_text("edited\n", "utf-8")
        _report("fixture 009: verify STALE (fresh snapshot, disk)", lambda: verify_capsule(disk(), FEATURE))

    files = _synthetic_files(5000)
    spec_bytes = len(files["specs/big/spec.md"].encode())

    def memory() -> GemstackRepo:
        return GemstackRepo("/bench", MemoryReader(files))

    failed = generate_capsule(memory(), "specs/big", NOW)
    print(f"synthetic spec: 5000 normative lines, {spec_bytes} bytes -> {[f.code for f in failed.findings]}")
    _report(
        "synthetic 5,000 lines: generate (fails closed, TOO_LARGE)",
        lambda: generate_capsule(memory(), "specs/big", NOW),
        7,
    )
    saved = size.HARD_LIMIT_BYTES
    size.HARD_LIMIT_BYTES = 1 << 30
    try:
        big = generate_capsule(memory(), "specs/big", NOW)
    finally:
        size.HARD_LIMIT_BYTES = saved
    assert big.data is not None
    files["specs/big/context-capsule.json"] = big.data.decode("utf-8")
    print(f"synthetic capsule (limit lifted): {len(big.data)} bytes")
    _report("synthetic 5,000 lines: verify (all checks, TOO_LARGE)", lambda: verify_capsule(memory(), "specs/big"), 7)


if __name__ == "__main__":
    main()
