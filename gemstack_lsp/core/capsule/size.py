"""The capsule's size budget and the priority model of seed section 19.

Above the 32 KiB target, priority 3 content is condensed first (historical features reduced to
their id and status token), then priority 2 (completed-task ids and the boundary prose go; task
counts, active ids, acceptance ids and the file list stay). Priority 1 (provenance, invariants,
frozen contracts, lifecycle) is never touched: if the capsule is still above the 64 KiB hard
limit, generation fails closed with ``CONTEXT_CAPSULE_TOO_LARGE``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gemstack_lsp.core.capsule.canonical import canonical_bytes
from gemstack_lsp.core.frozen import record

TARGET_BYTES = 32_768
HARD_LIMIT_BYTES = 65_536

TOO_LARGE_MESSAGE = "CONTEXT_CAPSULE_TOO_LARGE: Critical invariants exceed capsule size budget ({size} > 65536 bytes)."


def _condense_priority_3(capsule: dict[str, Any]) -> None:
    history = capsule.get("historical_context")
    if isinstance(history, list):
        capsule["historical_context"] = [
            {"feature": h.get("feature"), "status": h.get("status")} if isinstance(h, dict) else h for h in history
        ]


def _condense_priority_2(capsule: dict[str, Any]) -> None:
    tasks = capsule.get("tasks_state")
    if isinstance(tasks, dict):
        tasks.pop("completed_task_ids", None)
    summary = capsule.get("architecture_summary")
    if isinstance(summary, dict):
        summary["critical_boundaries"] = []


#: (name, step) in the order they are applied.
CONDENSATION_STEPS: tuple[tuple[str, Callable[[dict[str, Any]], None]], ...] = (
    ("priority-3", _condense_priority_3),
    ("priority-2", _condense_priority_2),
)


@record
class SizedCapsule:
    """The serialized capsule, which condensation steps ran, and whether it fits the hard limit."""

    data: bytes
    condensed: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def too_large(self) -> bool:
        return self.size > HARD_LIMIT_BYTES


def fit_budget(capsule: dict[str, Any], target: int = TARGET_BYTES) -> SizedCapsule:
    """Serialize ``capsule`` (mutating it as condensation requires) within the budget if possible."""
    data = canonical_bytes(capsule)
    done: list[str] = []
    for name, step in CONDENSATION_STEPS:
        if len(data) <= target:
            break
        step(capsule)
        done.append(name)
        data = canonical_bytes(capsule)
    return SizedCapsule(data, tuple(done))
