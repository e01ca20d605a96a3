"""Start-up against its floor: the bare import of pygls and lsprotocol.

Per round (``--rounds``, default 7; medians reported, the machine is shared):

- ``bare``: spawn ``python -c "import lsprotocol.types, pygls.lsp.server"`` until it exits (the
  interpreter's start plus the two libraries every pygls server imports);
- ``initialize``: spawn ``gemstack-lsp serve`` (the venv's console script) on the fixture
  repository until its answer to ``initialize`` arrives;
- ``first diagnostics``: the same spawn until the first ``publishDiagnostics`` of the opened
  009 spec.

Both run with bytecode caches (``PYTHONDONTWRITEBYTECODE`` is dropped and one warm-up round
writes them), as an installed server runs. Targets (issue 22): initialize <= 1.2x bare, first
diagnostics <= 1.4x bare. Where the time goes:
``python -X importtime -m gemstack_lsp serve < /dev/null 2> imports.txt``.

Usage: ``python -m bench startup [--rounds 7]``. Numbers are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

from bench.lspclient import Document, LspClient
from bench.workspace import FIXTURE

BARE = "import lsprotocol.types, pygls.lsp.server"


def bare_seconds() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", BARE], check=True)
    return time.perf_counter() - started


def server_seconds() -> tuple[float, float]:
    """(spawn -> initialize answered, spawn -> first publish of the opened spec)."""
    client = LspClient(FIXTURE)
    try:
        reply = client.initialize(60)
        if not reply.answered:
            raise RuntimeError("initialize was not answered in 60 s")
        initialized = time.perf_counter() - client.spawned
        doc = Document(client, FIXTURE / "specs" / "009-context-capsule" / "spec.md")
        doc.open()
        first = client.wait_publish(doc.uri, 1, client.spawned, 60)
        if first is None:
            raise RuntimeError("no diagnostics in 60 s")
    finally:
        client.close()
    return initialized, first


def main(argv: Sequence[str] = ()) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench startup")
    parser.add_argument("--rounds", type=int, default=7)
    opts = parser.parse_args(list(argv))
    # As installed: with bytecode caches (an environment that forbids writing them would make
    # every start compile the server's sources, which no user pays).
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    bare_seconds()
    server_seconds()  # warm-up: writes the caches
    bare: list[float] = []
    init: list[float] = []
    first: list[float] = []
    for _ in range(opts.rounds):  # interleaved, so a busy moment costs every figure alike
        bare.append(bare_seconds())
        i, f = server_seconds()
        init.append(i)
        first.append(f)
    b, i, f = statistics.median(bare), statistics.median(init), statistics.median(first)
    print(f"bare import of pygls + lsprotocol: {b * 1000:.0f} ms (median of {opts.rounds})")
    print(f"spawn -> initialize answered: {i * 1000:.0f} ms = {i / b:.2f}x bare (target <= 1.2x)")
    print(f"spawn -> first diagnostics of the opened spec: {f * 1000:.0f} ms = {f / b:.2f}x bare (target <= 1.4x)")
