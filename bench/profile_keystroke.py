"""One keystroke analysed in-process (no LSP): where the time goes, phase by phase.

``python -m bench.profile_keystroke ROOT SPEC`` builds the analysis host over ``ROOT``
(``AnalysisHost(root, DiskReader(root))``), analyses the whole repository once (cold), then
types one character into ``SPEC`` (a buffer, as the editor sends it) and analyses again, first
plainly timed, then under cProfile. It prints one JSON object per line as each step finishes
(so a caller that runs out of time still gets the steps that completed): ``cold``,
``keystroke`` (with the garbage collector's pauses), ``profile`` (the functions with the most
cumulative time, and the most called functions).
"""

from __future__ import annotations

import cProfile
import gc
import json
import pstats
import sys
import time
from pathlib import Path
from typing import Any

TOP = 25
PROSE_ANCHOR = "Gemstack requires a canonical, deterministic"


class GcTimer:
    """Collects the garbage collector's pauses (count, seconds) while installed."""

    def __init__(self) -> None:
        self.passes = 0
        self.seconds = 0.0
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.passes += 1
            self.seconds += time.perf_counter() - self._started

    def __enter__(self) -> GcTimer:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


def emit(step: str, **data: Any) -> None:
    print(json.dumps({"step": step, **data}), flush=True)


def typed(text: str, n: int) -> str:
    """The spec with ``n`` characters typed at the end of a prose line."""
    at = text.index("\n", text.index(PROSE_ANCHOR)) if PROSE_ANCHOR in text else len(text)
    return text[:at] + "x" * n + text[at:]


def function_name(key: tuple[str, int, str]) -> str:
    filename, line, name = key
    if filename == "~":
        return name
    path = Path(filename)
    parts = path.parts
    inside = "gemstack_lsp" in parts
    module = ".".join(parts[parts.index("gemstack_lsp") :]).removesuffix(".py") if inside else path.name
    return f"{module}:{line}({name})"


def main(argv: list[str]) -> int:
    from gemstack_lsp.fs import DiskReader
    from gemstack_lsp.host import AnalysisHost

    root, rel = Path(argv[0]).resolve(), argv[1]
    text = (root / rel).read_text("utf-8")
    host = AnalysisHost(str(root), DiskReader(root))

    started = time.perf_counter()
    with GcTimer() as gct:
        findings = len(host.snapshot().findings())
    emit("cold", seconds=time.perf_counter() - started, findings=findings, gc_passes=gct.passes, gc_seconds=gct.seconds)

    host.set_buffer(rel, typed(text, 1))
    started = time.perf_counter()
    with GcTimer() as gct:
        findings = len(host.snapshot().findings())
    emit(
        "keystroke",
        seconds=time.perf_counter() - started,
        findings=findings,
        gc_passes=gct.passes,
        gc_seconds=gct.seconds,
    )

    host.set_buffer(rel, typed(text, 2))
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    host.snapshot().findings()
    profiler.disable()
    elapsed = time.perf_counter() - started
    stats = pstats.Stats(profiler)
    rows = stats.stats  # type: ignore[attr-defined]
    ordered = sorted(rows.items(), key=lambda item: item[1][3], reverse=True)
    top = [
        {"function": function_name(key), "calls": value[1], "tottime": value[2], "cumtime": value[3]}
        for key, value in ordered
        if "gemstack_lsp" in key[0] or key[0] == "~"
    ][:TOP]
    most_called = [
        {"function": function_name(key), "calls": value[1], "cumtime": value[3]}
        for key, value in sorted(rows.items(), key=lambda item: item[1][1], reverse=True)[:10]
    ]
    emit("profile", seconds=elapsed, top=top, most_called=most_called)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
