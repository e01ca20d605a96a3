"""Cost checks and gates: time ``check_repo`` on the reference fixture and on a synthetic repository
with 500 declared actions, and the gates on their own. Numbers are printed, never asserted.

"cold" is the first analysis of a snapshot whose texts were never parsed (block and ledger
parsing is memoised by content); "warm" is the median of later analyses of fresh snapshots of
the same texts, which is what the editor pays on a keystroke in another file.
"""

from __future__ import annotations

import datetime as dt
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from gemstack_lsp.core.cost.checks import check_repo, preview_action
from gemstack_lsp.core.cost.gates import GatePolicy, SpendingAuthorization, evaluate_chain
from gemstack_lsp.core.cost.view import CostView
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import Feature, GemstackRepo

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "gemstack-reference" / "repo"
NOW = dt.datetime(2026, 12, 2, tzinfo=dt.UTC)
OPTIONS = AnalysisOptions(now=NOW)
ACTIONS = 500
PROVIDERS = 40


def _fixture_files() -> dict[str, bytes]:
    return {p.relative_to(FIXTURE).as_posix(): p.read_bytes() for p in FIXTURE.rglob("*") if p.is_file()}


def synthetic_files(actions: int = ACTIONS, providers: int = PROVIDERS, salt: str = "") -> dict[str, str]:
    """A feature declaring ``actions`` actions over ``providers`` providers, with some mistakes in it."""
    ledger: dict[str, object] = {}
    caps = []
    for i in range(providers):
        kind = ("LOCAL", "MOCK", "COMMERCIAL", "COMMERCIAL")[i % 4]
        state = {"LOCAL": "FREE", "MOCK": "FREE"}.get(kind, "BILLABLE" if i % 8 else "UNKNOWN")
        ledger[f"provider-{i}"] = {
            "type": kind,
            "pricing_model": "PER_REQUEST",
            "capabilities": {
                f"cap.op{j}": {
                    "cost_state": state,
                    "estimated_unit_cost": 0.001 * j,
                    "freshness_date": "2026-01-01" if i % 5 == 0 else "2026-11-30",
                }
                for j in range(5)
            },
        }
        caps.append({"provider_id": f"provider-{i}", "type": kind, "capabilities": [f"cap.op{j}" for j in range(5)]})
    declared = [
        {
            "id": f"action-{k}{salt}",
            "description": f"Action {k}",
            "category": "DEFINITELY_BILLABLE",
            "capability_id": f"cap.op{k % 6}",
            "providers": [f"provider-{(k + d) % (providers + 3)}" for d in range(3)],
        }
        for k in range(actions)
    ]
    spec = (
        "# Synthetic feature\n\n```gemstack-billable-actions\n"
        + json.dumps(declared, indent=2)
        + "\n```\n\n```gemstack-capabilities\n"
        + json.dumps(caps, indent=2)
        + "\n```\n"
    )
    tasks = "# Tasks\n\n" + "".join(
        f"- [ ] **T{k:03d}: Task {k}**\n  <!-- gemstack:validation_required=false -->\n"
        f"  <!-- gemstack:actions=action-{k}{salt},action-x{k} -->\n"
        for k in range(100)
    )
    return {
        "specs/001-synthetic/spec.md": spec,
        "specs/001-synthetic/tasks.md": tasks,
        "cost-ledger.json": json.dumps({"version": 1, "currency": "USD", "providers": ledger}, indent=2),
        ".gemstack/state.json": '{"active_spec": "specs/001-synthetic"}',
    }


def _time(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def _report(label: str, make_repo: Callable[[], GemstackRepo], repeats: int = 15) -> None:
    count = 0

    def run() -> None:
        nonlocal count
        count = len(list(check_repo(make_repo(), OPTIONS)))

    cold = _time(run)
    warm = [_time(run) for _ in range(repeats)]
    print(
        f"{label}: {count} findings; cold {cold:.1f} ms, warm median {statistics.median(warm):.2f} ms "
        f"(min {min(warm):.2f}, max {max(warm):.2f}, n={repeats})"
    )


def main() -> None:
    fixture = _fixture_files()
    _report("check_repo, reference fixture", lambda: GemstackRepo("/fixture", MemoryReader(fixture)))

    synthetic = synthetic_files(salt="-a")
    _report(
        f"check_repo, synthetic {ACTIONS} actions x 3 providers",
        lambda: GemstackRepo("/synthetic", MemoryReader(synthetic)),
    )

    repo = GemstackRepo("/synthetic", MemoryReader(synthetic))
    fc = CostView(repo, NOW).feature(Feature("001-synthetic"))
    ledger = fc.ledger.ledger if fc.ledger is not None else None
    policy = GatePolicy(allow_billable=True, declared_actions=fc.declared_ids)
    token = SpendingAuthorization(source="CLI_FLAG", max_budget_units=10.0)
    actions = [fc.effective(a) for a in fc.declared]

    def gates() -> None:
        for a in actions:
            evaluate_chain(
                a.id,
                [p.id for p in a.providers],
                a.capability_id,
                fc.registry,
                ledger,
                policy,
                environment="production",
                authorization=token,
            )

    runs = [_time(gates) for _ in range(5)]
    per_chain = statistics.median(runs) / len(actions) * 1000
    print(
        f"evaluate_chain: {len(actions)} chains in {statistics.median(runs):.1f} ms median ({per_chain:.1f} us/chain)"
    )

    previews = [_time(lambda: preview_action(repo, "action-7-a", options=OPTIONS)) for _ in range(15)]
    print(f"preview_action (5 tiers, warm): median {statistics.median(previews):.2f} ms")


if __name__ == "__main__":
    main()
