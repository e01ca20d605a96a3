"""Parsing cost: blocks_of on the 900-line 009 spec (cold: no memo active), and jsonspan against json.loads."""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

from gemstack_lsp.core.blocks import blocks_of
from gemstack_lsp.core.jsonspan import parse_json
from gemstack_lsp.core.markdown import scan_fences
from gemstack_lsp.core.memo import Memo

REPO = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "gemstack-reference" / "repo"
SPEC = REPO / "specs" / "009-context-capsule" / "spec.md"
PLAN = REPO / "specs" / "009-context-capsule" / "plan.md"


def _per_call_ms(fn: object, runs: int, before: object = None) -> tuple[float, float]:
    """Median and best time of one call, in milliseconds (``before`` runs untimed before each call)."""
    assert callable(fn)
    times = []
    for _ in range(runs):
        if callable(before):
            before()
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), min(times)


def main() -> None:
    spec = SPEC.read_text("utf-8")
    plan = PLAN.read_text("utf-8")
    lines = spec.count("\n")

    med, best = _per_call_ms(lambda: blocks_of("specs/009-context-capsule/spec.md", spec), 100)
    print(f"blocks_of, cold, 009 spec.md ({lines} lines): median {med:.2f} ms, best {best:.2f} ms per document")
    med, best = _per_call_ms(lambda: blocks_of("specs/009-context-capsule/plan.md", plan), 100)
    print(f"blocks_of, cold, 009 plan.md ({plan.count(chr(10))} lines): median {med:.2f} ms, best {best:.2f} ms")
    med, _ = _per_call_ms(lambda: scan_fences(spec), 100)
    print(f"scan_fences, cold, 009 spec.md: median {med:.2f} ms")
    with Memo().active():
        blocks_of("specs/009-context-capsule/spec.md", spec)
        med, _ = _per_call_ms(lambda: blocks_of("specs/009-context-capsule/spec.md", spec), 1000)
    print(f"blocks_of, memoised (unchanged document): median {med * 1000:.1f} µs")

    bodies = [f.body for f in scan_fences(spec) + scan_fences(plan) if f.kind is not None]
    big = json.dumps(
        [{"id": f"TEST-X-{i}", "text": "≠ émoji 😀 ╔═╗", "n": i * 1.5, "ok": True, "z": None} for i in range(5000)],
        ensure_ascii=False,
    )
    for label, texts, runs in (("009 block bodies", bodies, 50), ("synthetic array", [big], 5)):
        total = sum(len(t) for t in texts)
        med_span, _ = _per_call_ms(lambda texts=texts: [parse_json(t) for t in texts], runs)
        med_std, _ = _per_call_ms(lambda texts=texts: [json.loads(t) for t in texts], runs)
        print(
            f"{label} ({total / 1000:.0f} k chars): "
            f"jsonspan {med_span:.2f} ms ({total / med_span / 1000:.1f} M chars/s), "
            f"json.loads {med_std:.3f} ms ({total / med_std / 1000:.1f} M chars/s), ratio {med_span / med_std:.0f}x"
        )


if __name__ == "__main__":
    main()
