"""``gemstack-lsp serve`` with every thread under cProfile (``bench/profile_server.py`` runs it).

``python bench/profiled_serve.py OUT`` serves on stdin/stdout as ``gemstack-lsp serve`` does;
the main thread and every thread started later (the analysis and request workers) are
profiled, each by its own ``cProfile.Profile``. At exit the profiles are merged into ``OUT``
(pstats format), each thread's own (threads of one name merged) into ``OUT.<thread name>``,
and each thread's profiled seconds are written to ``OUT.threads`` (JSON).
"""

from __future__ import annotations

import atexit
import cProfile
import json
import pstats
import sys
import threading
from typing import Any

_profiles: list[tuple[str, cProfile.Profile]] = []
_lock = threading.Lock()


def _patch_threads() -> None:
    original = threading.Thread.run

    def run(self: threading.Thread, *args: Any, **kwargs: Any) -> None:
        profile = cProfile.Profile()
        profile.enable()
        try:
            original(self, *args, **kwargs)
        finally:
            profile.disable()
            with _lock:
                _profiles.append((self.name, profile))

    threading.Thread.run = run  # type: ignore[method-assign]


def _dump(out: str) -> None:
    with _lock:
        profiles = list(_profiles)
    if not profiles:
        return
    seconds: dict[str, float] = {}
    for name, profile in profiles:
        stats = pstats.Stats(profile)
        key = name.rstrip("0123456789_").rstrip("-_") or name
        seconds[key] = seconds.get(key, 0.0) + float(stats.total_tt)  # type: ignore[attr-defined]
    merged = pstats.Stats(profiles[0][1])
    for _, profile in profiles[1:]:
        merged.add(profile)
    merged.dump_stats(out)
    by_thread: dict[str, pstats.Stats] = {}
    for name, profile in profiles:
        key = name.rstrip("0123456789_").rstrip("-_") or name
        if key in by_thread:
            by_thread[key].add(profile)
        else:
            by_thread[key] = pstats.Stats(profile)
    for key, stats in by_thread.items():
        stats.dump_stats(f"{out}.{key}")
    with open(out + ".threads", "w") as f:
        json.dump(seconds, f)


def main() -> None:
    out = sys.argv[1]
    _patch_threads()
    atexit.register(_dump, out)
    from gemstack_lsp.cli import main as cli_main

    profile = cProfile.Profile()
    profile.enable()
    try:
        cli_main(["serve"])
    finally:
        profile.disable()
        with _lock:
            _profiles.append(("MainThread", profile))


if __name__ == "__main__":
    main()
