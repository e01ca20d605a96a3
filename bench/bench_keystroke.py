"""The cost of one keystroke in the demo's 009 spec (913 lines, with a context capsule).

Two measurements, each repeated (``--rounds``) and reported as the median of the rounds'
medians (the machine is shared; one run proves nothing):

- ``host``: in-process, no LSP. The analysis host over a copy of ``examples/demo`` types into
  the spec as a buffer (inside the ``gemstack-contracts`` block's JSON string, or at the end
  of a prose line) and takes the findings, with the server's unit hook installed (the
  workspace indexes, which skip a feature with an open buffer, as in the server); per
  keystroke: wall time and the units recomputed.
- ``lsp``: ``gemstack-lsp serve`` over the same copy, driven by the raw client
  (``bench/lspclient.py``): didChange -> publishDiagnostics latency (median, p95) and the
  server's CPU per keystroke (its utime + stime over all keystrokes, divided by their count:
  the kernel counts CPU in 10 ms ticks, so a per-keystroke median would be 0 or 10 ms), and the
  part of it on the server's main thread (its event loop: the LSP layer; the analysis runs on
  a worker thread). ``python -m bench.profile_server`` shows where either goes.

Usage: ``python -m bench keystroke [--where block,prose] [--keys 100] [--rounds 3] [--parts host,lsp]``.
Numbers are printed, never asserted.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.lspclient import Document, LspClient
from bench.workspace import REPO

DEMO = REPO / "examples" / "demo"
SPEC = "specs/009-context-capsule/spec.md"
BLOCK_ANCHOR = '"description": "Upgrade D implementation must introduce zero'
PROSE_ANCHOR = "Gemstack requires a canonical, deterministic"
PHRASE = " also in offline mode"


def where_offset(text: str, where: str) -> int:
    if where == "block":
        return text.index(BLOCK_ANCHOR) + len(BLOCK_ANCHOR)
    return text.index("\n", text.index(PROSE_ANCHOR))


def plan(count: int) -> list[tuple[int, str]]:
    """``count`` keystrokes: the phrase typed then erased, again and again ((offset, char))."""
    out: list[tuple[int, str]] = []
    while len(out) < count:
        out.extend((i, ch) for i, ch in enumerate(PHRASE))
        out.extend((i - 1, "") for i in range(len(PHRASE), 0, -1))
    return out[:count]


def host_round(root: Path, where: str, keys: int) -> tuple[float, float]:
    """Median seconds per keystroke and mean units recomputed per keystroke."""
    from gemstack_lsp.fs import DiskReader
    from gemstack_lsp.host import AnalysisHost

    text = (root / SPEC).read_text("utf-8")
    at = where_offset(text, where)
    from gemstack_lsp.server.session import Session

    host = AnalysisHost(str(root), DiskReader(root))
    # The server's own unit hook (server/session.py): the workspace indexes follow the
    # analysis, except for a feature with an open buffer (this spec is one).
    host.unit_hooks.append(Session._index_hook(host))
    host.snapshot().findings()
    times: list[float] = []
    units: list[int] = []
    current = text
    for i, ch in plan(keys):
        pos = at + i
        current = current[:pos] + ch + current[pos:] if ch else current[:pos] + current[pos + 1 :]
        before = host.stats.units_computed
        started = time.perf_counter()
        host.set_buffer(SPEC, current)
        host.snapshot().findings()
        times.append(time.perf_counter() - started)
        units.append(host.stats.units_computed - before)
    return statistics.median(times), statistics.mean(units)


def lsp_round(root: Path, where: str, keys: int) -> tuple[float, float, float, float]:
    """Latency median, p95 (seconds), server CPU seconds per keystroke and the part of it spent
    on the server's main thread (its event loop: the LSP layer; the analysis runs on a worker)."""
    client = LspClient(root)
    try:
        client.initialize(120)
        doc = Document(client, root / SPEC)
        doc.open()
        client.wait_publish(doc.uri, 1, client.spawned, 300)
        client.request("gemstack/status", None, timeout=300)
        at = where_offset(doc.text, where)
        latencies: list[float] = []
        cpu = client.cpu_seconds()
        main_cpu = client.main_thread_cpu_seconds()
        for i, ch in plan(keys):
            sent = doc.edit(at + i, 0, ch) if ch else doc.edit(at + i, 1, "")
            latency = client.wait_publish(doc.uri, doc.version, sent, 60)
            if latency is None:
                raise RuntimeError("no publish within 60 s")
            latencies.append(latency)
        cpu = client.cpu_seconds() - cpu
        main_cpu = client.main_thread_cpu_seconds() - main_cpu
    finally:
        client.close()
    ordered = sorted(latencies)
    count = len(latencies)
    return statistics.median(ordered), ordered[round(0.95 * (len(ordered) - 1))], cpu / count, main_cpu / count


def main(argv: Sequence[str] = ()) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench keystroke")
    parser.add_argument("--where", default="block,prose")
    parser.add_argument("--keys", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--parts", default="host,lsp")
    opts = parser.parse_args(list(argv))
    parts = opts.parts.split(",")
    with tempfile.TemporaryDirectory(prefix="gemstack-bench-keystroke-") as tmp:
        root = Path(tmp) / "demo"
        shutil.copytree(DEMO, root)
        time.sleep(2.1)  # the store caches a file only once it is 2 s old (host/files.py _RACY_NS)
        for where in opts.where.split(","):
            if "host" in parts:
                rounds = [host_round(root, where, opts.keys) for _ in range(opts.rounds)]
                medians = [r[0] * 1000 for r in rounds]
                print(
                    f"host, keystroke in {where}: {statistics.median(medians):.2f} ms median per key "
                    f"(rounds: {', '.join(f'{m:.2f}' for m in medians)}; "
                    f"{rounds[0][1]:.1f} units recomputed per key; target <= 5 ms of server CPU)",
                    flush=True,
                )
            if "lsp" in parts:
                lsp = [lsp_round(root, where, opts.keys) for _ in range(opts.rounds)]
                cpu = [r[2] * 1000 for r in lsp]
                print(
                    f"lsp, keystroke in {where}: server CPU {statistics.median(cpu):.2f} ms per key "
                    f"(rounds: {', '.join(f'{c:.2f}' for c in cpu)}; target <= 5 ms; on the main thread "
                    f"{statistics.median(r[3] * 1000 for r in lsp):.2f} ms); latency median "
                    f"{statistics.median(r[0] for r in lsp) * 1000:.1f} ms, p95 "
                    f"{statistics.median(r[1] for r in lsp) * 1000:.1f} ms",
                    flush=True,
                )
