"""`check` analysis of the reference fixture repository, repeated: milliseconds per run.

Each run builds a fresh ``GemstackRepo`` over ``DiskReader`` (files are read and decoded anew,
as `gemstack-lsp check` does); parsers memoise by content, so the first run is the cold one
and later runs show the warm cost the language server pays for an unchanged workspace.
The "cold" figures clear those memo caches before every run.
"""

from __future__ import annotations

import functools
import gc
import statistics
import sys
import time
from pathlib import Path

from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import _checks, analyze
from gemstack_lsp.fs import DiskReader

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "gemstack-reference" / "repo"
RUNS = 20


def _clear_memo_caches() -> None:
    for module_name, module in list(sys.modules.items()):
        if not module_name.startswith("gemstack_lsp.core"):
            continue
        for value in vars(module).values():
            if isinstance(value, functools._lru_cache_wrapper):
                value.cache_clear()


def _run_once() -> tuple[float, int]:
    start = time.perf_counter()
    repo = GemstackRepo(str(FIXTURE), DiskReader(FIXTURE))
    findings = analyze(repo)
    return (time.perf_counter() - start) * 1000, len(findings)


def _series(label: str, cold: bool) -> None:
    times = []
    count = 0
    for _ in range(RUNS):
        if cold:
            _clear_memo_caches()
        gc.collect()
        ms, count = _run_once()
        times.append(ms)
    print(f"{label}: {' '.join(f'{t:.1f}' for t in times)}")
    print(
        f"{label}: min {min(times):.1f} ms, median {statistics.median(times):.1f} ms, "
        f"max {max(times):.1f} ms over {RUNS} runs ({count} findings)"
    )


def _per_family() -> None:
    """Each check family alone, cold: where the time of one analysis goes."""
    options = AnalysisOptions()
    for family, check in _checks():
        times = []
        for _ in range(RUNS):
            _clear_memo_caches()
            gc.collect()
            repo = GemstackRepo(str(FIXTURE), DiskReader(FIXTURE))
            start = time.perf_counter()
            list(check(repo, options))
            times.append((time.perf_counter() - start) * 1000)
        print(f"{family} alone, cold: median {statistics.median(times):.1f} ms, min {min(times):.1f} ms")


def main() -> None:
    print(f"fixture: {FIXTURE}")
    _series("cold (memo caches cleared) ms/run", cold=True)
    _series("warm (memo caches kept) ms/run", cold=False)
    _per_family()


if __name__ == "__main__":
    main()
