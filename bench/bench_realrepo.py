"""Issue 18, part C: tasks.md on hostile lines, Date.parse, and translating findings to Spanish.

- ``parse_tasks`` and ``format_findings`` on a task header or a metadata comment followed by
  32,000 blanks (the reference's regular expressions backtrack quadratically there; ours read
  each line once), and on the 009 tasks.md;
- ``js_date_parse_ms`` per string on the ledger forms;
- ``localize_finding`` per finding (Spanish) over every finding of the fixture repositories.

Results are printed, never asserted.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

from gemstack_lsp.core import i18n
from gemstack_lsp.core.jscompat import js_date_parse_ms
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.core.tasks import format_findings, parse_tasks
from gemstack_lsp.fs import DiskReader

ROOT = Path(__file__).resolve().parent.parent
REPO = ROOT / "tests" / "fixtures" / "gemstack-reference" / "repo"
TASKS = REPO / "specs" / "009-context-capsule" / "tasks.md"


def _median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    parse = getattr(parse_tasks, "__wrapped__", parse_tasks)
    hostile = {
        "task header + 32,000 blanks": "- [ ] **T001:" + " " * 32_000 + "\n",
        "tests comment + 32,000 blanks": "- [ ] **T1: x**\n  <!-- gemstack:tests=a" + " " * 32_000 + "\n",
        "lifecycle header + 32,000 blanks": "**Lifecycle Status**:" + " " * 32_000 + "\n- [ ] a\n",
    }
    for name, text in hostile.items():
        print(f"parse_tasks, {name}: median {_median_ms(lambda t=text: parse(t), 20):.2f} ms")
        ms = _median_ms(lambda t=text: format_findings("specs/x/tasks.md", t), 20)
        print(f"format_findings, {name}: median {ms:.2f} ms")
    tasks = TASKS.read_text("utf-8")
    ms = _median_ms(lambda: parse(tasks), 50)
    print(f"parse_tasks, 009 tasks.md ({tasks.count(chr(10))} lines): median {ms:.2f} ms")

    dates = ["2026-09-01", "2026-9-1", "Tue, 01 Sep 2026 00:00:00 GMT", "2026-09-01 10:00:00", "2026-02-30", "soon"]
    per = _median_ms(lambda: [js_date_parse_ms(d) for d in dates * 100], 20) / (len(dates) * 100)
    print(f"js_date_parse_ms: median {per * 1000:.1f} µs per string")

    findings = []
    for root in (REPO, ROOT / "examples" / "demo"):
        findings += analyze(GemstackRepo(str(root), DiskReader(root)))
    i18n.localize("X", "warm up", "es")
    total = _median_ms(lambda: [i18n.localize_finding(f, "es") for f in findings], 20)
    print(f"localize_finding (es): {len(findings)} findings, median {total * 1000 / max(len(findings), 1):.1f} µs each")


if __name__ == "__main__":
    main()
