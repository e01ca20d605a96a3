"""Where the language server's own thread spends its CPU per keystroke (the LSP layer).

``python -m bench.profile_server [--keys 200] [--where block] [--top 30] [--out FILE]`` runs
``gemstack-lsp serve`` with every thread under cProfile (``bench/profiled_serve.py``: the event
loop's thread is the LSP layer: reading, structuring, dispatching, converting and writing; the
analysis runs on a worker thread) over a copy of ``examples/demo``, types
``--keys`` keystrokes into the 009 spec as ``bench_keystroke`` does, waits for each
keystroke's diagnostics, and prints each thread's profiled milliseconds per keystroke (the
set-up included) and the functions with the most cumulative and internal time.
Run it with ``PYTHONPATH=<other tree>`` to profile another version of the server side by side.
Numbers are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import pstats
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.bench_keystroke import DEMO, SPEC, plan, where_offset
from bench.lspclient import Document, LspClient


def main(argv: Sequence[str] = ()) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.profile_server")
    parser.add_argument("--where", default="block")
    parser.add_argument("--keys", type=int, default=200)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--out", default=None)
    opts = parser.parse_args(list(argv))
    with tempfile.TemporaryDirectory(prefix="gemstack-bench-profile-server-") as tmp:
        root = Path(tmp) / "demo"
        shutil.copytree(DEMO, root)
        time.sleep(2.1)  # the store caches a file only once it is 2 s old
        out = opts.out or str(Path(tmp) / "server.prof")
        command = [sys.executable, str(Path(__file__).with_name("profiled_serve.py")), out]
        client = LspClient(root, command)
        try:
            client.initialize(120)
            doc = Document(client, root / SPEC)
            doc.open()
            client.wait_publish(doc.uri, 1, client.spawned, 300)
            client.request("gemstack/status", None, timeout=300)
            at = where_offset(doc.text, opts.where)
            cpu = client.cpu_seconds()
            for i, ch in plan(opts.keys):
                sent = doc.edit(at + i, 0, ch) if ch else doc.edit(at + i, 1, "")
                if client.wait_publish(doc.uri, doc.version, sent, 60) is None:
                    raise RuntimeError("no publish within 60 s")
            cpu = client.cpu_seconds() - cpu
        finally:
            client.close()
        print(f"server CPU (all threads, under cProfile) {cpu / opts.keys * 1000:.2f} ms per key", flush=True)
        threads = json.loads(Path(out + ".threads").read_text())
        for name, seconds in sorted(threads.items(), key=lambda kv: -kv[1]):
            print(f"  thread {name}: {seconds / opts.keys * 1000:.2f} ms per key (profiled, set-up included)")
        stats = pstats.Stats(out)
        stats.sort_stats("cumulative").print_stats(opts.top)
        stats.sort_stats("tottime").print_stats(opts.top)


if __name__ == "__main__":
    main(sys.argv[1:])
