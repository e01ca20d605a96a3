"""Language server latency as a client sees it: the real server over stdio, a minimal client.

Measures
- spawn to first diagnostics (process start, initialize, the first workspace publish);
- didChange to publishDiagnostics on the 900-line seed spec and on a synthetic 10,000-line
  spec (median and p95 over 200 edits; each edit toggles a JSON error in the contracts block,
  so every edit changes the published set and is published);
- a workspace of 500 features: time to first workspace diagnostics (all published) and the
  server's resident memory.

Targets (ARCHITECTURE.md): median under 50 ms on the seed spec; first diagnostics under 1 s.
Run with ``python -m bench bench_lsp``; numbers are printed, never asserted.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "tests" / "fixtures" / "gemstack-reference" / "repo"
SEED_SPEC = "specs/009-context-capsule/spec.md"
EDITS = 200
TOGGLE_FROM = '"type": "BOOLEAN_INVARIANT"'
TOGGLE_TO = '"type": "BOOLEAN_INVARIANT",,'


def uri(path: Path) -> str:
    return path.resolve().as_uri()


class Client:
    """Just enough LSP: framed JSON over the server's pipes, a reader thread, blocking waits."""

    def __init__(self, root: Path) -> None:
        self.spawned = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gemstack_lsp", "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=root,
        )
        self.messages: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
        self._next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            body = out.read(length)
            self.messages.put((time.perf_counter(), json.loads(body)))

    def send(self, message: dict[str, Any]) -> None:
        data = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        stdin = self.proc.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: Any) -> Any:
        self._next_id += 1
        msg_id = self._next_id
        self.send({"id": msg_id, "method": method, "params": params})
        _, message = self.wait(lambda m: m.get("id") == msg_id and "method" not in m)
        return message.get("result")

    def wait(self, predicate: Any, timeout: float = 120.0) -> tuple[float, dict[str, Any]]:
        deadline = time.perf_counter() + timeout
        while True:
            at, message = self.messages.get(timeout=max(0.01, deadline - time.perf_counter()))
            if message.get("method") == "client/registerCapability" or message.get("method") == (
                "window/workDoneProgress/create"
            ):
                self.send({"id": message["id"], "result": None})
            if predicate(message):
                return at, message

    def initialize(self, root: Path) -> None:
        self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": uri(root),
                "workspaceFolders": [{"uri": uri(root), "name": root.name}],
                "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": True}}},
            },
        )
        self.notify("initialized", {})

    def rss_kib(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return -1

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


def _is_publish(message: dict[str, Any], target: str | None = None, version: int | None = None) -> bool:
    if message.get("method") != "textDocument/publishDiagnostics":
        return False
    params = message["params"]
    return (target is None or params["uri"] == target) and (version is None or params.get("version") == version)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def edit_latency(root: Path, rel: str, edits: int = EDITS) -> tuple[list[float], float]:
    """didChange -> publishDiagnostics (that version) for ``edits`` toggling edits; also spawn time."""
    client = Client(root)
    client.initialize(root)
    at, _ = client.wait(_is_publish)
    first = at - client.spawned
    path = root / rel
    target = uri(path)
    text = path.read_text("utf-8")
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": target, "languageId": "markdown", "version": 1, "text": text}},
    )
    client.request("gemstack/status", None)
    start = text.index(TOGGLE_FROM)
    line = text.count("\n", 0, start)
    col = len(text[text.rfind("\n", 0, start) + 1 : start].encode("utf-16-le")) // 2
    samples: list[float] = []
    broken = False
    for i in range(edits):
        version = i + 2
        old, new = (TOGGLE_TO, TOGGLE_FROM) if broken else (TOGGLE_FROM, TOGGLE_TO)
        end = {"line": line, "character": col + len(old)}
        change = {"range": {"start": {"line": line, "character": col}, "end": end}, "text": new}
        sent = time.perf_counter()
        client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": target, "version": version}, "contentChanges": [change]},
        )
        at, _ = client.wait(lambda m, v=version: _is_publish(m, target, v))
        samples.append((at - sent) * 1000)
        broken = not broken
    client.close()
    return samples, first


def synthetic_spec(lines: int) -> str:
    """A spec of about ``lines`` lines: the seed's blocks, then numbered requirement paragraphs."""
    seed = (FIXTURE / SEED_SPEC).read_text("utf-8")
    filler: list[str] = []
    n = seed.count("\n")
    i = 0
    while n + len(filler) < lines:
        i += 1
        filler.append(f"- REQ-{i:05d}: the system SHOULD keep requirement {i} — ünïcödé 😀 text for realism.")
    return seed + "\n## Synthetic requirements\n\n" + "\n".join(filler) + "\n"


def feature_files(i: int) -> dict[str, str]:
    name = f"specs/{i:03d}-feature-{i}"
    spec = f"""# Feature {i}

The system MUST do thing {i}.

```gemstack-contracts
[
  {{"id": "contract-{i}-a", "type": "BOOLEAN_INVARIANT", "value": true, "description": "A rule."}},
  {{"id": "contract-{i}-b", "type": "ENUM_SET", "values": ["A", "B"], "description": "States."}}
]
```

```gemstack-test-matrix
[
  {{"id": "TEST-F{i}-A01", "category": "unit", "layer": "UNIT", "description": "d",
    "pass_criteria": "p", "gate": "REQUIRED"}}
]
```
"""
    plan = f"""# Plan {i}

```gemstack-test-bindings
[{{"test_id": "TEST-F{i}-A01", "runner": "node", "file": "tests/f{i}.test.js"}}]
```
"""
    tasks = f"""# Tasks {i}

- [ ] T001 Do it <!-- gemstack:validation_required=true --> <!-- gemstack:tests=TEST-F{i}-A01 -->
"""
    return {f"{name}/spec.md": spec, f"{name}/plan.md": plan, f"{name}/tasks.md": tasks}


def workspace(root: Path) -> tuple[float, int, int]:
    """Spawn on a 500-feature workspace: seconds to the settled first diagnostics, files, RSS."""
    client = Client(root)
    client.initialize(root)
    status = client.request("gemstack/status", None)
    settled = time.perf_counter() - client.spawned
    files = sum(r["files"] for r in status["roots"])
    rss = client.rss_kib()
    client.close()
    return settled, files, rss


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        seed_root = base / "seed"
        shutil.copytree(FIXTURE, seed_root)
        samples, first = edit_latency(seed_root, SEED_SPEC)
        lines = (seed_root / SEED_SPEC).read_text("utf-8").count("\n")
        print(f"spawn to first diagnostics: {first * 1000:.0f} ms (target < 1000)")
        print(
            f"seed spec ({lines} lines), didChange -> publishDiagnostics over {len(samples)} edits: "
            f"median {statistics.median(samples):.1f} ms, p95 {percentile(samples, 0.95):.1f} ms "
            f"(target median < 50)"
        )

        big_root = base / "big"
        shutil.copytree(FIXTURE, big_root)
        big = "specs/010-synthetic/spec.md"
        (big_root / big).parent.mkdir(parents=True)
        (big_root / big).write_text(synthetic_spec(10_000), "utf-8")
        samples, _ = edit_latency(big_root, big)
        print(
            f"synthetic spec (10,000 lines), didChange -> publishDiagnostics over {len(samples)} edits: "
            f"median {statistics.median(samples):.1f} ms, p95 {percentile(samples, 0.95):.1f} ms"
        )

        ws_root = base / "workspace"
        (ws_root / ".gemstack").mkdir(parents=True)
        for i in range(1, 501):
            for rel, text in feature_files(i).items():
                path = ws_root / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, "utf-8")
        settled, files, rss = workspace(ws_root)
        print(
            f"workspace of 500 features: first workspace diagnostics settled after {settled * 1000:.0f} ms "
            f"({files} files with diagnostics), server RSS {rss / 1024:.1f} MiB"
        )
        samples, _ = edit_latency(ws_root, "specs/250-feature-250/spec.md", edits=20)
        print(
            f"workspace of 500 features, didChange -> publishDiagnostics over {len(samples)} edits of one spec: "
            f"median {statistics.median(samples):.1f} ms, p95 {percentile(samples, 0.95):.1f} ms"
        )


if __name__ == "__main__":
    main()
