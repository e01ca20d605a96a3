"""The feature units of a large repository analysed on every core, for ``check``.

A unit's result depends only on the files it reads (``host.analysis``), so units can run in
separate processes: each worker process keeps an ``AnalysisHost`` of its own over the same
disk (a forked worker starts from a copy of the parent's) and computes the feature units of
the batches it is given; the parent adopts their results into its host, which groups and
orders the findings exactly as a serial run does. The parent computes the repository unit and
the first feature before the workers start, so that they inherit its imports and caches. Small repositories (fewer than
``PARALLEL_MIN_FEATURES`` features) and one-core machines are analysed in the parent alone:
starting processes would cost more than it saves.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import gc
import multiprocessing
import os
from collections.abc import Iterator, Sequence

from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.rules import UnitResult
from gemstack_lsp.host import AnalysisHost, Snapshot
from gemstack_lsp.host.analysis import REPOSITORY_UNIT, RETAIN_EVERY
from gemstack_lsp.report import Placed, PlaceKey, places_of

#: Below this many features a repository is analysed in one process.
PARALLEL_MIN_FEATURES = 64
#: How the features are cut into batches: each batch takes this share of the features not yet
#: handed out per worker (``batches``), so batches shrink towards the end. A worker that finishes
#: first waits for the last batch of the other: a few features then, where equal batches left a
#: batch of 20 features (some 50 ms at 500 features) to wait for; a batch costs a millisecond
#: or so to hand over, so none is smaller than ``MIN_BATCH``.
BATCH_SHARE = 1 / 3
MIN_BATCH = 4

#: One unit's result as it travels back from a worker: (unit, result, what it read, where the
#: spans of its findings lie).
Computed = tuple[str, UnitResult, frozenset[str], dict[PlaceKey, Placed]]

_WORKER_HOSTS: dict[str, AnalysisHost] = {}


#: The cyclic collector's thresholds while ``check`` analyses (see ``few_collections``).
ANALYSIS_GC_THRESHOLDS = (100_000, 1_000, 1_000)


@contextlib.contextmanager
def few_collections() -> Iterator[None]:
    """Run the block with the cyclic garbage collector seldom running.

    An analysis allocates millions of small objects (parse trees, spans, findings) that form
    no reference cycles; the collector's passes over them, triggered every 700 allocations by
    default, were a quarter of ``check``'s time, and collecting found nothing. The objects
    alive on entry (the imported modules) are frozen, so no pass looks at them again, and the
    thresholds are raised rather than the collector turned off: a cycle still gets collected.
    Worker processes forked inside the block inherit both. The collector is restored on exit.
    """
    previous = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*ANALYSIS_GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*previous)
        gc.unfreeze()


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def analyze(
    host: AnalysisHost, snapshot: Snapshot, workers: int | None = None, minimum: int | None = None
) -> dict[PlaceKey, Placed]:
    """Make every unit of ``snapshot`` current, the feature units on ``workers`` processes
    (default: one per usable core) when there are at least ``minimum`` of them.

    Returns where the spans of the workers' findings lie (``report.places_of``, computed in the
    worker, which holds the files and their line tables): printing them then reads no file
    again. Empty when the parent analysed everything itself."""
    features = [k for k in host.unit_keys(snapshot) if k != REPOSITORY_UNIT]
    workers = usable_cores() if workers is None else workers
    least = PARALLEL_MIN_FEATURES if minimum is None else minimum
    places: dict[PlaceKey, Placed] = {}
    if workers < 2 or len(features) < max(least, 2):
        host.analyze(snapshot)
        return places
    # The repository unit and the first feature run here first: they import every module a
    # feature unit needs and fill the caches (compiled patterns, the ledger schema's validator,
    # the folder listings, the Git state). Forked workers inherit all of it, and this host as
    # their own, instead of each paying for it again.
    host.analyze(snapshot, [REPOSITORY_UNIT, features[0]])
    batches = _batches(features[1:], workers)
    methods = multiprocessing.get_all_start_methods()
    fork = "fork" in methods
    context = multiprocessing.get_context("fork" if fork else "spawn")
    if fork:
        _WORKER_HOSTS[host.root] = host
    try:
        with concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            futures = [pool.submit(_run_batch, host.root, host.options, batch) for batch in batches]
            for future in futures:
                for key, result, deps, placed in future.result():
                    host.adopt(snapshot, key, result, deps)
                    places.update(placed)
    finally:
        if _WORKER_HOSTS.get(host.root) is host:
            del _WORKER_HOSTS[host.root]
    host.analyze(snapshot)  # anything a worker could not give (none in practice) runs here
    return places


def _batches(features: Sequence[str], workers: int) -> list[Sequence[str]]:
    """``features`` cut into batches, in order, each ``BATCH_SHARE`` of what is left for each
    worker (at least ``MIN_BATCH``): large batches first (fewer hand-overs), small ones last
    (the workers finish together)."""
    batches: list[Sequence[str]] = []
    at = 0
    while at < len(features):
        size = max(MIN_BATCH, int((len(features) - at) / workers * BATCH_SHARE))
        batches.append(features[at : at + size])
        at += size
    return batches


def _run_batch(root: str, options: AnalysisOptions, keys: Sequence[str]) -> list[Computed]:
    """In a worker: compute these feature units with this process's host of ``root``."""
    from gemstack_lsp.fs import DiskReader

    host = _WORKER_HOSTS.get(root)
    if host is None or host.options != options:
        host = _WORKER_HOSTS[root] = AnalysisHost(root, DiskReader(root), options)
    snapshot = host.snapshot()
    out: list[Computed] = []
    for n, key in enumerate(keys, 1):
        stored = host.compute_unit(snapshot, key)
        result = stored.result
        notice = () if result.legacy_notice is None else (result.legacy_notice,)
        with host.memo.active():  # the line tables the analysis made are reused
            placed = places_of(snapshot.repo, (*result.findings, *result.cost, *result.gemstack_only, *notice))
        out.append((key, result, stored.deps, placed))
        if n % RETAIN_EVERY == 0:
            host.retain_memo()
    host.retain_memo()
    return out
