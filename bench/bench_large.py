"""A user's real day, as the language-server client sees it, on workspaces of real features.

Workspaces (``bench/workspace.py``): the fixture repository itself (size 1), and 500 or 2,000
replicated real features (byte copies of the fixture's 008 and 009 folders). A raw JSON-RPC
client (``bench/lspclient.py``, Neovim-0.11-like capabilities: push diagnostics, no pull,
``positionEncodings`` ``["utf-8", "utf-16"]``, work-done progress, dynamic watchers) spawns
``gemstack-lsp serve`` and measures, per size:

- spawn -> first ``publishDiagnostics`` of the opened 009 spec; the settled RSS (after the
  initial workspace pass, awaited with ``gemstack/status``) and the RSS after opening 10 files;
- keystroke -> diagnostics (``didChange`` sent -> ``publishDiagnostics`` of that uri and version
  received), median and p95, and the server's CPU time (utime + stime) per key; the keystrokes
  type a phrase then erase it, mostly in prose, every fourth phrase inside a JSON string of the
  ``gemstack-contracts`` block;
- ``workspace/symbol`` (median of realistic queries), a ``didChange`` sent right behind 10 of
  them (its publish latency), hover on a frozen contract id and on a test id, completion inside
  a gemstack block, and whether malformed requests are answered at all (hover at character -1,
  hover without a position, a request with its params omitted; 2 s timeout each);

then, on the largest size, a per-phase profile of one keystroke in-process (the analysis host,
no LSP; ``bench/profile_keystroke.py``) and ``gemstack-lsp check`` on the command line (its
bytecode compiled, as installed: ``with_bytecode``), also on a spec-kit repository of that
many features (``spec_kit_workspace``: nothing to report); and the
memory run: RSS after 300 and after 3,000 analysed edits of the 009 spec (fixture workspace).

Every wait has a timeout, reported as a result; a slow configuration is sampled until its
per-measurement budget is spent and says how many samples it took. Figures print as
``figure: value (target)`` and are written to ``bench/results/large-<time>.json`` (and
``bench/results/large-latest.json``). Numbers are never asserted.

Usage: ``python -m bench large [options]`` (``make bench`` runs it with the defaults)::

    --features 1,500,2000   sizes to measure (1 is the fixture repository itself)
    --parts lsp,memory,profile,check   what to run (default: all four)
    --edits 200             keystrokes per latency measurement
    --memory-edits 3000     analysed edits of the memory run (RSS read at 300 and at the end)
    --memory-budget 600     seconds the memory run may take (it stops there and says how far it got)
    --budget 60             seconds one measurement may spend sampling before it stops
    --timeout 120           seconds one wait (a publish, a reply) may take before it is a timeout
    --rebuild               rebuild the cached workspaces (.cache/bench/workspaces)

e.g. ``python -m bench large --features 500``, or ``python -m bench large --parts memory``.

How long it takes follows the server: on the baseline of issue 11 (keystrokes of 45 s at 2,000
features) a full run took about 40 minutes on 2 shared cores, each slow figure cut off by
``--budget`` and ``--timeout``; a server that meets the targets is measured in a few minutes.
Workspaces are built once (about 1 s for 2,000 features, 180 MB) and reused.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from bench.lspclient import Document, LspClient, Reply, Typist
from bench.workspace import REPO, Workspace, build, feature_name

RESULTS = REPO / "bench" / "results"
PROSE_ANCHOR = "Gemstack requires a canonical, deterministic"
BLOCK_ANCHOR = '"description": "Upgrade D implementation must introduce zero'
CONTRACT_ID = '"id": "capsule-is-derived-not-authority"'
TEST_ID = '"id": "TEST-CONTEXT-A01"'
CONTRACTS_FENCE = "```gemstack-contracts"
SYMBOL_QUERIES = (
    "TEST-",
    "capsule",
    "",
    "zero-dependency",
    "TEST-CONTEXT-A0",
    "provider",
    "T0",
    "gate",
    "ledger",
    "context",
    "TEST-COST",
    "billable",
    "secret",
    "freshness",
    "invariant",
    "mock",
    "T01",
    "Upgrade D",
    "determinism",
    "ZERO",
)
MALFORMED_TIMEOUT = 2.0
LARGE = 2000


@dataclass(frozen=True)
class Figure:
    """One measured figure, its unit and the target it is read against."""

    key: str
    label: str
    value: float | None
    unit: str
    target: str = ""
    note: str = ""

    def render(self) -> str:
        if self.value is None:
            value = "n/a"
        elif self.unit == "ms":
            value = f"{self.value:.1f} ms"
        elif self.unit == "s":
            value = f"{self.value:.2f} s"
        elif self.unit == "MiB":
            value = f"{self.value:.1f} MiB"
        elif self.unit == "x":
            value = f"{self.value:.1f}x"
        else:
            value = f"{self.value:g} {self.unit}".rstrip()
        out = f"{self.label}: {value}"
        if self.target:
            out += f" ({self.target})"
        if self.note:
            out += f" [{self.note}]"
        return out


@dataclass
class Results:
    figures: list[Figure] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def add(self, figure: Figure) -> None:
        self.figures.append(figure)
        print("  " + figure.render(), flush=True)

    def value(self, key: str) -> float | None:
        for figure in self.figures:
            if figure.key == key:
                return figure.value
        return None


@dataclass(frozen=True)
class Options:
    features: tuple[int, ...]
    parts: frozenset[str]
    edits: int
    memory_edits: int
    budget: float
    timeout: float
    rebuild: bool
    memory_budget: float = 600.0


@dataclass
class Sampled:
    """Samples of one measurement (seconds), and why it stopped early, if it did."""

    samples: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    wanted: int = 0
    stopped: str = ""

    def note(self) -> str:
        parts = [f"{len(self.samples)}/{self.wanted} samples"]
        if self.stopped:
            parts.append(self.stopped)
        return ", ".join(parts)


def percentile(values: Sequence[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def median_ms(values: Sequence[float]) -> float | None:
    return statistics.median(values) * 1000 if values else None


def p95_ms(values: Sequence[float]) -> float | None:
    return percentile(values, 0.95) * 1000 if values else None


def size_label(n: int) -> str:
    return "1 repository" if n == 1 else f"{n:,} features"


def at_large(n: int, target: str) -> str:
    return f"target {target}" if n >= LARGE else ""


# --- measurements over one server ----------------------------------------------------------


def keystrokes(client: LspClient, doc: Document, typist: Typist, count: int, opts: Options, start: int = 0) -> Sampled:
    """Send up to ``count`` keystrokes, each awaited (its version published) before the next."""
    out = Sampled(wanted=count)
    began = time.perf_counter()
    for n in range(start, start + count):
        if time.perf_counter() - began > opts.budget:
            out.stopped = f"budget of {opts.budget:.0f} s spent"
            break
        cpu = client.cpu_seconds()
        sent = typist.keystroke(doc, n)
        latency = client.wait_publish(doc.uri, doc.version, sent, opts.timeout)
        if latency is None:
            out.stopped = f"no publish in {opts.timeout:.0f} s"
            break
        out.samples.append(latency)
        out.cpu.append(client.cpu_seconds() - cpu)
    return out


def settle_timeout(opts: Options) -> float:
    """How long to wait for a busy server to settle (at least 300 s: the first workspace pass)."""
    return max(opts.timeout, 300.0)


def settle(client: LspClient, timeout: float) -> Reply:
    """Wait until the server says its pending analyses are done (``gemstack/status``)."""
    return client.request("gemstack/status", None, timeout=timeout)


def timed_requests(
    client: LspClient, make: Callable[[int], tuple[str, Any]], count: int, opts: Options
) -> tuple[Sampled, list[Reply]]:
    out = Sampled(wanted=count)
    replies: list[Reply] = []
    began = time.perf_counter()
    for i in range(count):
        if time.perf_counter() - began > opts.budget:
            out.stopped = f"budget of {opts.budget:.0f} s spent"
            break
        method, params = make(i)
        sent = time.perf_counter()
        msg_id = client.send_request(method, params)
        reply = client.wait_reply(msg_id, sent, opts.timeout)
        replies.append(reply)
        if not reply.answered:
            client.cancel(msg_id)
            out.stopped = f"no answer in {opts.timeout:.0f} s"
            break
        out.samples.append(reply.seconds)
    return out, replies


def same_request(method: str, params: Any) -> Callable[[int], tuple[str, Any]]:
    return lambda i: (method, params)


def offset_in(text: str, anchor: str, after: int = 0, into: int = 0) -> int:
    return text.index(anchor, after) + into


def other_files(ws: Workspace, count: int) -> list[Path]:
    """``count`` files an editor would open next: spec, plan and tasks of neighbouring features."""
    if ws.features == 1:
        candidates = sorted(p for p in (ws.root / "specs").rglob("*.md") if not p.as_posix().endswith(ws.spec))
        candidates += [ws.root / "handoff.md", ws.root / ".gemstack" / "state.json"]
    else:
        candidates = []
        for i in range(1, ws.features + 1):
            for name in ("spec.md", "plan.md", "tasks.md"):
                path = ws.root / feature_name(i) / name
                if path.exists() and path.relative_to(ws.root).as_posix() != ws.spec:
                    candidates.append(path)
            if len(candidates) >= count:
                break
    return candidates[:count]


def measure_server(ws: Workspace, opts: Options, results: Results) -> None:
    n = ws.features
    tag = f"n{n}"
    label = size_label(n)
    print(f"-- {label}: {ws.root}", flush=True)
    client = LspClient(ws.root)
    try:
        init = client.initialize(opts.timeout)
        if not init.answered:
            results.add(Figure(f"{tag}.initialize", f"{label}: initialize", None, "s", note=init.describe()))
            return
        doc = Document(client, ws.root / ws.spec)
        doc.open()
        first = client.wait_publish(doc.uri, 1, client.spawned, max(opts.timeout, 300))
        results.add(
            Figure(
                f"{tag}.spawn_to_first_publish",
                f"{label}: spawn -> first publish of the opened spec",
                first,
                "s",
                at_large(n, "<= 1.5 s"),
                "" if first is not None else "no publish within the timeout",
            )
        )
        status = settle(client, settle_timeout(opts))
        settled_at = time.perf_counter() - client.spawned
        results.add(
            Figure(
                f"{tag}.settled_after",
                f"{label}: spawn -> initial workspace pass settled",
                settled_at if status.answered else None,
                "s",
                note="" if status.answered else status.describe(),
            )
        )
        results.add(
            Figure(f"{tag}.rss_settled", f"{label}: RSS settled", client.rss_mib(), "MiB", at_large(n, "<= 300 MiB"))
        )
        if status.answered and isinstance(status.result, dict):
            roots = status.result.get("roots") or [{}]
            results.extra[f"{tag}.status"] = roots[0]
        for path in other_files(ws, 10):
            Document(client, path).open()
        status = settle(client, settle_timeout(opts))
        results.add(
            Figure(
                f"{tag}.rss_open10",
                f"{label}: RSS after opening 10 more files",
                client.rss_mib(),
                "MiB",
                note="" if status.answered else "still analysing: " + status.describe(),
            )
        )

        typist = Typist(doc.text, PROSE_ANCHOR, BLOCK_ANCHOR)
        keys = keystrokes(client, doc, typist, opts.edits, opts)
        results.add(
            Figure(
                f"{tag}.keystroke_median",
                f"{label}: keystroke -> diagnostics, median",
                median_ms(keys.samples),
                "ms",
                at_large(n, "<= 10 ms"),
                keys.note(),
            )
        )
        results.add(
            Figure(
                f"{tag}.keystroke_p95",
                f"{label}: keystroke -> diagnostics, p95",
                p95_ms(keys.samples),
                "ms",
                at_large(n, "<= 25 ms"),
            )
        )
        results.add(
            Figure(
                f"{tag}.cpu_per_key",
                f"{label}: server CPU per keystroke, median",
                median_ms(keys.cpu),
                "ms",
            )
        )
        # The kernel counts CPU in 10 ms ticks: a per-key median is 0 or 10 ms; the mean over
        # all keystrokes is the figure to compare.
        results.add(
            Figure(
                f"{tag}.cpu_per_key_mean",
                f"{label}: server CPU per keystroke, mean",
                statistics.mean(keys.cpu) * 1000 if keys.cpu else None,
                "ms",
                at_large(n, "<= 5 ms"),
            )
        )
        if keys.stopped.startswith("no publish"):
            settle(client, settle_timeout(opts))
        keys_done = len(keys.samples) + (1 if keys.stopped.startswith("no publish") else 0)

        symbols, replies = timed_requests(
            client,
            lambda i: ("workspace/symbol", {"query": SYMBOL_QUERIES[i % len(SYMBOL_QUERIES)]}),
            len(SYMBOL_QUERIES),
            opts,
        )
        counts = [len(r.result) for r in replies if r.answered and isinstance(r.result, list)]
        results.add(
            Figure(
                f"{tag}.workspace_symbol_first",
                f"{label}: first workspace/symbol",
                symbols.samples[0] * 1000 if symbols.samples else None,
                "ms",
                at_large(n, "<= 1,000 ms"),
            )
        )
        results.add(
            Figure(
                f"{tag}.rss_after_symbols",
                f"{label}: RSS after the workspace/symbol queries",
                client.rss_mib(),
                "MiB",
                at_large(n, "<= 300 MiB"),
            )
        )
        results.add(
            Figure(
                f"{tag}.workspace_symbol_median",
                f"{label}: workspace/symbol, median",
                median_ms(symbols.samples),
                "ms",
                at_large(n, "<= 150 ms"),
                symbols.note() + (f", up to {max(counts)} symbols" if counts else ""),
            )
        )

        queued = queued_change(client, doc, typist, keys_done, opts)
        results.add(
            Figure(
                f"{tag}.change_behind_10_symbols",
                f"{label}: didChange queued behind 10 workspace/symbol, published after",
                queued * 1000 if queued is not None else None,
                "ms",
                at_large(n, "<= 150 ms"),
                "" if queued is not None else f"no publish in {opts.timeout:.0f} s",
            )
        )
        if not settle(client, settle_timeout(opts)).answered:
            results.add(
                Figure(
                    f"{tag}.skipped",
                    f"{label}: hover, completion and malformed requests",
                    None,
                    "",
                    note=f"skipped: the server did not settle within {settle_timeout(opts):.0f} s",
                )
            )
            return

        text = doc.text
        fence = text.index(CONTRACTS_FENCE)
        contract = doc.position(offset_in(text, CONTRACT_ID, fence, len('"id": "') + 4))
        test = doc.position(offset_in(text, TEST_ID, 0, len('"id": "') + 6))
        type_value = doc.position(offset_in(text, '"type": "', fence, len('"type": "')))
        key_start = doc.position(offset_in(text, '"value": true', fence, 1))
        td = {"uri": doc.uri}
        for key, what, method, position in (
            ("hover_contract", "hover on a frozen contract id", "textDocument/hover", contract),
            ("hover_test", "hover on a test id", "textDocument/hover", test),
            ("completion_value", "completion of a block value", "textDocument/completion", type_value),
            ("completion_key", "completion of a block key", "textDocument/completion", key_start),
        ):
            request_params = {"textDocument": td, "position": position}
            sampled, replies = timed_requests(client, same_request(method, request_params), 10, opts)
            empty = all(r.answered and not r.result for r in replies)
            results.add(
                Figure(
                    f"{tag}.{key}",
                    f"{label}: {what}, median",
                    median_ms(sampled.samples),
                    "ms",
                    at_large(n, "<= 50 ms"),
                    sampled.note() + (", empty result" if replies and empty else ""),
                )
            )

        for key, what, method, params, omit in (
            ("malformed_hover_negative", "hover at character -1", "textDocument/hover",
             {"textDocument": td, "position": {"line": 3, "character": -1}}, False),
            ("malformed_hover_no_position", "hover without a position", "textDocument/hover",
             {"textDocument": td}, False),
            ("malformed_params_omitted", "documentSymbol with params omitted", "textDocument/documentSymbol",
             None, True),
        ):  # fmt: skip
            reply = client.request(method, params, timeout=MALFORMED_TIMEOUT, omit_params=omit)
            results.add(
                Figure(
                    f"{tag}.{key}",
                    f"{label}: {what}",
                    reply.seconds * 1000 if reply.answered else None,
                    "ms",
                    "answered within ms",
                    reply.describe(),
                )
            )
    finally:
        results.add(
            Figure(
                f"{tag}.rss_peak",
                f"{label}: peak RSS of the whole session (VmHWM)",
                client.peak_rss_mib(),
                "MiB",
                at_large(n, "<= 300 MiB"),
            )
        )
        client.close()


def queued_change(client: LspClient, doc: Document, typist: Typist, n: int, opts: Options) -> float | None:
    """Seconds from a ``didChange`` sent right behind 10 ``workspace/symbol`` to its publish."""
    began = time.perf_counter()
    ids = [client.send_request("workspace/symbol", {"query": q}) for q in SYMBOL_QUERIES[:10]]
    sent = typist.keystroke(doc, n)
    latency = client.wait_publish(doc.uri, doc.version, sent, opts.timeout)
    for msg_id in ids:
        if not client.wait_reply(msg_id, began, opts.timeout).answered:
            client.cancel(msg_id)
    return latency


# --- the memory run ---------------------------------------------------------------------------

MEMORY_CHECKPOINTS = (300, 1000, 2000, 3000)


def measure_memory(ws: Workspace, opts: Options, results: Results) -> None:
    """RSS after 300 and after ``opts.memory_edits`` analysed edits of the 009 spec."""
    print(f"-- memory over {opts.memory_edits:,} edits: {size_label(ws.features)}", flush=True)
    client = LspClient(ws.root)
    try:
        client.initialize(opts.timeout)
        doc = Document(client, ws.root / ws.spec)
        doc.open()
        settle(client, settle_timeout(opts))
        typist = Typist(doc.text, PROSE_ANCHOR, BLOCK_ANCHOR)
        checkpoints = sorted({c for c in MEMORY_CHECKPOINTS if c < opts.memory_edits} | {opts.memory_edits})
        budget = opts.memory_budget
        rss: dict[int, float] = {}
        done = 0
        began = time.perf_counter()
        stopped = ""
        for checkpoint in checkpoints:
            left = budget - (time.perf_counter() - began)
            run_opts = replace(opts, budget=left)
            keys = keystrokes(client, doc, typist, checkpoint - done, run_opts, start=done)
            done += len(keys.samples)
            rss[done] = client.rss_mib()
            print(f"  after {done:,} edits: RSS {rss[done]:.1f} MiB", flush=True)
            if keys.stopped:
                stopped = keys.stopped
                break
        results.extra["memory.rss_by_edits"] = rss
        first = next((v for k, v in rss.items() if k >= min(300, opts.memory_edits)), None)
        results.add(Figure("memory.rss_300", "RSS after 300 edits", rss.get(300), "MiB"))
        last = rss.get(done)
        results.add(
            Figure(
                "memory.rss_end",
                f"RSS after {done:,} edits",
                last,
                "MiB",
                note=stopped,
            )
        )
        growth = last - first if first is not None and last is not None and done > 300 else None
        results.add(
            Figure(
                "memory.growth",
                f"RSS growth from edit 300 to edit {done:,}",
                growth,
                "MiB",
                "target <= 20 MiB (300 -> 3,000)",
                f"{growth / (done - 300) * 1024:.1f} KiB per edit" if growth is not None else "",
            )
        )
    finally:
        client.close()


# --- in-process profile and the command line ----------------------------------------------


def measure_profile(ws: Workspace, opts: Options, results: Results) -> None:
    print(f"-- profile of one keystroke in-process: {size_label(ws.features)}", flush=True)
    timeout = max(opts.timeout, 10 * opts.budget)
    steps = run_lines([sys.executable, "-m", "bench.profile_keystroke", str(ws.root), ws.spec], timeout)
    tag = f"n{ws.features}.inprocess"
    by_step = {s.get("step"): s for s in steps}
    for step, what in (("cold", "first analysis (cold)"), ("keystroke", "analysis after one keystroke")):
        got = by_step.get(step)
        gc_note = f"{got['gc_passes']} GC passes, {got['gc_seconds']:.2f} s in GC" if got else ""
        note = gc_note if got else f"not finished in {timeout:.0f} s"
        value = got["seconds"] if got else None
        results.add(Figure(f"{tag}.{step}", f"{size_label(ws.features)}: in-process {what}", value, "s", note=note))
    profile = by_step.get("profile")
    if profile is None:
        return
    results.extra[f"{tag}.profile"] = profile
    print(f"  profiled keystroke: {profile['seconds']:.2f} s; top cumulative phases:")
    for row in profile["top"]:
        print(
            f"    {row['cumtime']:8.3f} s cum {row['tottime']:8.3f} s own {row['calls']:>9,} calls  {row['function']}"
        )
    print("  most called:")
    for row in profile["most_called"]:
        print(f"    {row['calls']:>10,} calls {row['cumtime']:8.3f} s  {row['function']}")


def run_lines(command: list[str], timeout: float) -> list[dict[str, Any]]:
    """Run ``command`` for at most ``timeout`` seconds; the JSON lines it printed by then."""
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=REPO, text=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    lines = []
    for line in out.splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            continue
    return lines


_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*(gemstack-[\w-]+)[^\n]*\n(.*?)^ {0,3}\1[ \t]*$", re.M | re.S)


def read_floor(root: Path) -> tuple[float, int]:
    """Seconds to read every file of the features and ``json.loads`` every block and JSON file.

    The floor ``check`` is read against: no analysis, just the bytes and the C JSON parser (the
    fences found with one regular expression), in this one process."""
    started = time.perf_counter()
    blocks = 0
    for path in sorted((root / "specs").rglob("*")):
        if not path.is_file():
            continue
        text = path.read_bytes().decode("utf-8", "replace")
        if path.suffix == ".json":
            with contextlib.suppress(ValueError):
                json.loads(text)
                blocks += 1
        elif path.suffix == ".md":
            for match in _FENCE.finditer(text):
                with contextlib.suppress(ValueError):
                    json.loads(match.group(3))
                    blocks += 1
    return time.perf_counter() - started, blocks


def with_bytecode() -> dict[str, str]:
    """The environment ``check`` runs in, as an installed package runs: with the bytecode of
    ``gemstack_lsp`` compiled (pip compiles it on install). An environment that forbids writing
    bytecode (``PYTHONDONTWRITEBYTECODE``) would make every run compile the sources again, some
    0.1 s no user pays; as ``bench startup`` does, that variable is dropped and the package is
    compiled once beforehand (into its ``__pycache__`` folders, which git ignores)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    compile_package = (
        "import compileall, gemstack_lsp, os; compileall.compile_dir(os.path.dirname(gemstack_lsp.__file__), quiet=1)"
    )
    subprocess.run([sys.executable, "-c", compile_package], env=env, cwd=REPO, capture_output=True, check=False)
    return env


def measure_check(ws: Workspace, opts: Options, results: Results) -> None:
    label = size_label(ws.features)
    tag = f"n{ws.features}"
    read_floor(ws.root)  # once to warm the page cache, as check's files are by then
    floor, blocks = read_floor(ws.root)
    results.add(Figure(f"{tag}.read_floor", f"{label}: read every file and json.loads every block", floor, "s",
                       note=f"{blocks:,} blocks and JSON files"))  # fmt: skip
    script = Path(sys.executable).with_name("gemstack-lsp")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "gemstack_lsp"]
    timeout = max(opts.timeout, 10 * opts.budget)
    env = with_bytecode()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [*command, "check", str(ws.root), "--format", "json", "--exit-zero"],
            capture_output=True,
            timeout=timeout,
            cwd=REPO,
            env=env,
        )
    except subprocess.TimeoutExpired:
        results.add(Figure(f"n{ws.features}.check", f"{size_label(ws.features)}: gemstack-lsp check", None, "s",
                           note=f"not finished in {timeout:.0f} s"))  # fmt: skip
        return
    elapsed = time.perf_counter() - started
    try:
        findings = len(json.loads(done.stdout)["findings"])
        note = f"{findings:,} findings"
    except (ValueError, KeyError):
        note = f"exit {done.returncode}, unreadable output"
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    results.add(Figure(f"{tag}.check", f"{label}: gemstack-lsp check", elapsed, "s",
                       at_large(ws.features, "<= 8 s"), note=note))  # fmt: skip
    results.add(Figure(f"{tag}.check_floor_ratio", f"{label}: check / read floor (wall)", elapsed / floor, "x",
                       "target <= 3x"))  # fmt: skip
    results.add(Figure(f"{tag}.check_cpu_per_feature", f"{label}: check CPU per feature (all processes)",
                       cpu / ws.features * 1000, "ms", "target <= 4 ms"))  # fmt: skip


SPEC_KIT_SPEC = """# Feature Specification: {title}

**Feature Branch**: `{name}`
**Status**: Draft

## User Scenarios & Testing *(mandatory)*

### User Story 1 - {title} (Priority: P1)

A user works with {title}: they open it, change it and see the result at once.

**Acceptance Scenarios**:

1. **Given** a signed-in user, **When** they open {title}, **Then** it shows their items.
2. **Given** an item, **When** they change it, **Then** the change is kept.

## Requirements *(mandatory)*

- **FR-001**: System MUST let users create items in {title}.
- **FR-002**: System MUST keep every change a user makes.
- **FR-003**: System MUST show an item within one second.
"""
SPEC_KIT_PLAN = """# Implementation Plan: {title}

## Technical Context

**Language/Version**: Python 3.11
**Storage**: SQLite

```json
{{"endpoints": ["/items", "/items/{{id}}"]}}
```
"""
SPEC_KIT_TASKS = """# Tasks: {title}

## Phase 3.1: Setup
- [ ] T001 Create project structure for {title}
- [ ] T002 [P] Configure linting and formatting

## Phase 3.2: Core
- [ ] T003 [P] Item model in src/models/item.py
- [ ] T004 Item service in src/services/items.py
- [X] T005 Endpoint GET /items
"""


def spec_kit_workspace(n: int) -> Path:
    """A spec-kit repository of ``n`` features (``specs/###-x/`` with spec.md, plan.md and
    tasks.md as ``/specify``, ``/plan`` and ``/tasks`` write them; no Gemstack anywhere), built
    once in the workspace cache."""
    root = REPO / ".cache" / "bench" / "workspaces" / f"spec-kit-{n}"
    done = root.with_name(root.name + ".complete")
    if done.exists():
        return root
    (root / ".specify" / "memory").mkdir(parents=True, exist_ok=True)
    (root / ".specify" / "memory" / "constitution.md").write_text("# Constitution\n", "utf-8")
    for i in range(1, n + 1):
        name = f"{i:03d}-feature-{i}"
        folder = root / "specs" / name
        folder.mkdir(parents=True, exist_ok=True)
        title = f"Feature {i}"
        for file, text in (("spec.md", SPEC_KIT_SPEC), ("plan.md", SPEC_KIT_PLAN), ("tasks.md", SPEC_KIT_TASKS)):
            (folder / file).write_text(text.format(title=title, name=name), "utf-8")
    done.write_text("", "utf-8")
    return root


def measure_spec_kit_check(n: int, opts: Options, results: Results) -> None:
    """``check`` on a spec-kit repository: nothing to report, and each feature's analysis reads
    its own files only (it once read every feature's to learn that the repository is not a
    Gemstack one: 12 s at 400 features)."""
    root = spec_kit_workspace(n)
    script = Path(sys.executable).with_name("gemstack-lsp")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "gemstack_lsp"]
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [*command, "check", str(root), "--format", "json", "--exit-zero"],
            capture_output=True,
            timeout=max(opts.timeout, 10 * opts.budget),
            cwd=REPO,
            env=with_bytecode(),
        )
    except subprocess.TimeoutExpired:
        results.add(Figure(f"speckit{n}.check", f"spec-kit, {n:,} features: gemstack-lsp check", None, "s",
                           note="timed out"))  # fmt: skip
        return
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    try:
        note = f"{len(json.loads(done.stdout)['findings']):,} findings (expected none)"
    except (ValueError, KeyError):
        note = f"exit {done.returncode}, unreadable output"
    results.add(Figure(f"speckit{n}.check", f"spec-kit, {n:,} features: gemstack-lsp check", elapsed, "s",
                       note=note))  # fmt: skip
    results.add(Figure(f"speckit{n}.check_cpu_per_feature", f"spec-kit, {n:,} features: check CPU per feature",
                       cpu / n * 1000, "ms"))  # fmt: skip


# --- the run ----------------------------------------------------------------------------------


def ratio(results: Results) -> None:
    small = results.value("n1.keystroke_median")
    large = results.value(f"n{LARGE}.keystroke_median")
    if small and large:
        results.add(
            Figure(
                "keystroke_ratio",
                f"keystroke median at {LARGE:,} features / 1 repository",
                large / small,
                "x",
                "target <= 3x",
            )
        )


def machine() -> dict[str, Any]:
    info: dict[str, Any] = {"cpus": os.cpu_count(), "python": sys.version.split()[0]}
    with contextlib.suppress(OSError):
        info["loadavg"] = Path("/proc/loadavg").read_text().split()[:3]
    with contextlib.suppress(OSError):
        info["commit"] = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=REPO, check=False
        ).stdout.strip()
    return info


def write_results(results: Results, opts: Options, started: dict[str, Any]) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    data = {
        "when": stamp,
        "machine_at_start": started,
        "machine_at_end": machine(),
        "options": {**asdict(opts), "parts": sorted(opts.parts)},
        "figures": [asdict(f) for f in results.figures],
        "extra": results.extra,
    }
    path = RESULTS / f"large-{stamp}.json"
    text = json.dumps(data, indent=2, default=str)
    path.write_text(text, "utf-8")
    (RESULTS / "large-latest.json").write_text(text, "utf-8")
    return path


def parse(argv: Sequence[str]) -> Options:
    parser = argparse.ArgumentParser(prog="python -m bench large", description=__doc__.split("\n\n")[0])
    parser.add_argument("--features", default="1,500,2000", help="comma-separated sizes (1 = the fixture)")
    parser.add_argument("--parts", default="lsp,memory,profile,check", help="lsp, memory, profile, check")
    parser.add_argument("--edits", type=int, default=200)
    parser.add_argument("--memory-edits", type=int, default=3000)
    parser.add_argument("--budget", type=float, default=60.0)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--memory-budget", type=float, default=600.0)
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args(list(argv))
    parts = frozenset(p.strip() for p in args.parts.split(",") if p.strip())
    unknown = parts - {"lsp", "memory", "profile", "check"}
    if unknown:
        parser.error(f"unknown parts: {', '.join(sorted(unknown))}")
    sizes = tuple(sorted({int(s) for s in args.features.split(",") if s.strip()}))
    return Options(
        sizes, parts, args.edits, args.memory_edits, args.budget, args.timeout, args.rebuild, args.memory_budget
    )


def main(argv: Sequence[str] = ()) -> None:
    opts = parse(argv)
    started = machine()
    print(f"machine: {started} (numbers measured under whatever load the machine has)", flush=True)
    results = Results()
    workspaces = {}
    for n in opts.features:
        began = time.perf_counter()
        workspaces[n] = build(n, rebuild=opts.rebuild)
        print(f"workspace of {size_label(n)} ready in {time.perf_counter() - began:.1f} s", flush=True)
    if "memory" in opts.parts:
        measure_memory(build(1, rebuild=opts.rebuild), opts, results)
    if "lsp" in opts.parts:
        for n in opts.features:
            measure_server(workspaces[n], opts, results)
        ratio(results)
    largest = workspaces[max(opts.features)]
    if "profile" in opts.parts:
        measure_profile(largest, opts, results)
    if "check" in opts.parts:
        for n in opts.features:
            print(f"-- gemstack-lsp check: {size_label(n)}", flush=True)
            measure_check(workspaces[n], opts, results)
        spec_kit = max(n for n in opts.features)
        if spec_kit > 1:
            print(f"-- gemstack-lsp check: a spec-kit repository of {size_label(spec_kit)}", flush=True)
            measure_spec_kit_check(spec_kit, opts, results)
    path = write_results(results, opts, started)
    print("\nSummary (figure: value (target) [note]):")
    for figure in results.figures:
        print("  " + figure.render())
    print(f"\nall figures written to {path.relative_to(REPO)}")


if __name__ == "__main__":
    main(sys.argv[1:])
