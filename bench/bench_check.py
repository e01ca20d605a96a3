"""`check` analysis of the reference fixture repository, repeated: milliseconds per run.

Each run builds a fresh ``GemstackRepo`` over ``DiskReader`` (files are read and decoded anew,
as `gemstack-lsp check` does); parsers memoise by content, so the first run is the cold one
and later runs show the warm cost the language server pays for an unchanged workspace.
The "cold" figures give every run a fresh memo.
"""

from __future__ import annotations

import gc
import statistics
import time
from pathlib import Path

from gemstack_lsp.core.memo import Memo
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze, feature_checks
from gemstack_lsp.fs import DiskReader

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "gemstack-reference" / "repo"
RUNS = 20


def _run_once(memo: Memo) -> tuple[float, int]:
    start = time.perf_counter()
    repo = GemstackRepo(str(FIXTURE), DiskReader(FIXTURE))
    with memo.active():
        findings = analyze(repo)
    return (time.perf_counter() - start) * 1000, len(findings)


def _series(label: str, cold: bool) -> None:
    times = []
    count = 0
    warm = Memo()
    for _ in range(RUNS):
        gc.collect()
        ms, count = _run_once(Memo() if cold else warm)
        times.append(ms)
    print(f"{label}: {' '.join(f'{t:.1f}' for t in times)}")
    print(
        f"{label}: min {min(times):.1f} ms, median {statistics.median(times):.1f} ms, "
        f"max {max(times):.1f} ms over {RUNS} runs ({count} findings)"
    )


def _per_family() -> None:
    """Each check family alone, cold: where the time of one analysis goes."""
    options = AnalysisOptions()
    for family, check in feature_checks():
        times = []
        for _ in range(RUNS):
            gc.collect()
            repo = GemstackRepo(str(FIXTURE), DiskReader(FIXTURE))
            start = time.perf_counter()
            with Memo().active():
                for feature in repo.features():
                    list(check(repo, feature, options))
            times.append((time.perf_counter() - start) * 1000)
        print(f"{family} alone, cold: median {statistics.median(times):.1f} ms, min {min(times):.1f} ms")


def main() -> None:
    print(f"fixture: {FIXTURE}")
    _series("cold (a fresh memo each run) ms/run", cold=True)
    _series("warm (one memo kept across runs) ms/run", cold=False)
    _per_family()


if __name__ == "__main__":
    main()
