"""The consumer resolver of seed section 6: the authoritative source wins over the capsule.

A continuation session asks a question (is task T003 complete? what is contract X?). The
resolver answers from the source that governs it (tasks.md, spec.md, state.json) whenever that
source is present, and reports whether the capsule disagreed. Only when no source can answer
does it fall back to the capsule's claim, and says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gemstack_lsp.core.capsule.extract import BlockError, read_contracts
from gemstack_lsp.core.capsule.generate import DEFAULT_PHASE, DEFAULT_STATUS
from gemstack_lsp.core.capsule.sources import CAPSULE_FILE, feature_path, read_state
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.tasks import parse_tasks

COMPLETE, OPEN = "COMPLETE", "OPEN"


@dataclass(frozen=True)
class Resolution:
    """An answer, the file it came from, what the capsule claimed, and whether they disagreed."""

    question: str
    value: Any
    authority: str
    capsule_value: Any
    conflict: bool

    @property
    def from_capsule(self) -> bool:
        return self.authority.endswith(CAPSULE_FILE)


def _capsule_task_status(capsule: Mapping[str, Any], task_id: str) -> str | None:
    tasks = capsule.get("tasks_state")
    if not isinstance(tasks, Mapping):
        return None
    if task_id in (tasks.get("completed_task_ids") or []):
        return COMPLETE
    if task_id in (tasks.get("active_task_ids") or []) or tasks.get("in_progress") == task_id:
        return OPEN
    return None


def resolve_task_status(repo: GemstackRepo, feature: str, capsule: Mapping[str, Any], task_id: str) -> Resolution:
    """``COMPLETE``/``OPEN`` for a task: tasks.md's checkbox governs; the capsule only when tasks.md is absent."""
    fp = feature_path(feature)
    claimed = _capsule_task_status(capsule, task_id)
    doc = repo.document(f"{fp}/tasks.md")
    question = f"status of task {task_id}"
    if doc.text is not None:
        task = parse_tasks(doc.text).by_id(task_id)
        value = None if task is None else (COMPLETE if task.done else OPEN)
        return Resolution(question, value, doc.path, claimed, claimed is not None and claimed != value)
    return Resolution(question, claimed, f"{fp}/{CAPSULE_FILE}", claimed, False)


def _capsule_contract(capsule: Mapping[str, Any], contract_id: str) -> Mapping[str, Any] | None:
    for c in capsule.get("frozen_contracts") or []:
        if isinstance(c, Mapping) and c.get("id") == contract_id:
            return c
    return None


def resolve_contract(repo: GemstackRepo, feature: str, capsule: Mapping[str, Any], contract_id: str) -> Resolution:
    """A frozen contract ``{id, type, value|values|entity}``: spec.md's declaration governs."""
    fp = feature_path(feature)
    claimed = _capsule_contract(capsule, contract_id)
    doc = repo.document(f"{fp}/spec.md")
    question = f"frozen contract {contract_id}"
    if doc.text is not None:
        try:
            contracts = read_contracts(doc.text) or []
        except BlockError:
            contracts = []
        src = next((c for c in contracts if c.id == contract_id), None)
        value = src.as_capsule_json() if src is not None else None
        conflict = claimed is not None and (src is None or bool(src.claim_conflicts(claimed)))
        return Resolution(question, value, doc.path, claimed, conflict)
    return Resolution(question, claimed, f"{fp}/{CAPSULE_FILE}", claimed, False)


def resolve_phase(repo: GemstackRepo, capsule: Mapping[str, Any]) -> Resolution:
    """The current lifecycle phase: state.json governs (its defaults when it is absent)."""
    project = capsule.get("project")
    claimed = project.get("current_phase") if isinstance(project, Mapping) else None
    state = read_state(repo)
    value = (state or {}).get("current_phase") or DEFAULT_PHASE
    return Resolution("current phase", value, ".gemstack/state.json", claimed, claimed is not None and claimed != value)


def resolve_status(repo: GemstackRepo, capsule: Mapping[str, Any]) -> Resolution:
    """The lifecycle status: state.json governs."""
    project = capsule.get("project")
    claimed = project.get("lifecycle_status") if isinstance(project, Mapping) else None
    state = read_state(repo)
    value = (state or {}).get("status") or DEFAULT_STATUS
    return Resolution(
        "lifecycle status", value, ".gemstack/state.json", claimed, claimed is not None and claimed != value
    )
