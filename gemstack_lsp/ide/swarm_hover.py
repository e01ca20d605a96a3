"""Hover on the values of swarm.json and visual-qa.json (Gemstack 1.4).

- ``assigned_role``: what the role may do;
- ``task_id``: where tasks.md declares the task, as the reference finds it (or that it does not);
- ``worker_id`` / ``reviewer_id``: the tasks the worker writes and reviews, in every wave;
- ``source_capsule_hash``: the capsule's hash now, and whether the manifest records it;
- a baseline's ``image_path`` / ``image_sha256``: the image's hash now, and whether it matches.

Keys are explained by the schemas (``hover.key_section``); finding codes by the catalogue.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gemstack_lsp.core import jsonspan, swarm, visual_qa
from gemstack_lsp.core.jsonspan import JsonArray, JsonNode, JsonObject, JsonString
from gemstack_lsp.core.repo import Feature, GemstackRepo

if TYPE_CHECKING:
    from gemstack_lsp.ide.hover import HoverContext

ROLES = {
    "implementer": "writes the files of its `write_set`; another worker reviews its task.",
    "reviewer": "reviews another worker's task: read-only (an empty `write_set`), never the task's author.",
    "security-auditor": "audits another worker's task: read-only (an empty `write_set`), never the task's author.",
    "coordinator": "plans and schedules the waves, subordinate to spec.md, plan.md, tasks.md and the frozen contracts.",
}


def swarm_section(ctx: HoverContext) -> str | None:
    """The hover of a value in a feature's swarm.json or visual-qa.json."""
    base = ctx.rel.rsplit("/", 1)[-1]
    if ctx.feature is None or base not in (swarm.SWARM_NAME, visual_qa.VISUAL_QA_NAME):
        return None
    parsed = swarm.parse_swarm(ctx.text) if base == swarm.SWARM_NAME else visual_qa.parse_visual_qa(ctx.text)
    root = parsed.value if parsed.ok else None
    where = jsonspan.locate(root, ctx.offset)
    if where.is_key or not isinstance(where.node, JsonString) or not where.path:
        return None
    key, value = where.path[-1], where.node.value
    if base == visual_qa.VISUAL_QA_NAME:
        if key in ("image_path", "image_sha256") and isinstance(where.container, JsonObject):
            return _image(ctx.repo, where.container)
        return None
    if key == "assigned_role":
        text = ROLES.get(value)
        if text is None:
            return f"**`{value}`** is not a canonical role (SWARM_ASSIGNMENT_INVALID): " + ", ".join(ROLES) + "."
        return f"**`{value}`** · swarm role\n\n{text}"
    if key == "task_id":
        return _task(ctx.repo, ctx.feature, value)
    if key in ("worker_id", "reviewer_id") and isinstance(root, JsonObject):
        return _worker(root, value)
    if key == "source_capsule_hash" and len(where.path) == 1:
        return _capsule(ctx.repo, ctx.feature, value)
    return None


def _task(repo: GemstackRepo, feature: Feature, task_id: str) -> str:
    doc = repo.document(feature.tasks)
    if doc.text is None:
        return f"**`{task_id}`** · swarm task\n\n{feature.tasks} does not exist: the reference checks no task id."
    for number, line in enumerate(doc.text.split("\n"), 1):
        m = swarm.TASK_ID.search(line)
        if m and m.group(1).upper() == task_id.upper():
            shown = line.strip()[:160]
            return f"**`{task_id}`** · declared in tasks.md, line {number}\n\n{shown}"
    return (
        f"**`{task_id}`** · swarm task\n\nNot declared in tasks.md as the reference reads it (the first `TASK-…`, "
        "`UE-T000` or `T000` of a line): SWARM_TASK_ORPHANED when tasks.md declares any id."
    )


def _worker(root: JsonObject, worker: str) -> str:
    writes: list[str] = []
    reviews: list[str] = []
    key = worker.strip().lower()
    for w, wave in enumerate(_items(root.get("waves")), 1):
        for task in _items(wave.get("tasks") if isinstance(wave, JsonObject) else None):
            if not isinstance(task, JsonObject):
                continue
            task_id = task.get("task_id")
            name = f"{task_id.value if isinstance(task_id, JsonString) else '?'} (wave {w})"
            author = task.get("worker_id")
            if isinstance(author, JsonString) and author.value.strip().lower() == key:
                writes.append(name)
            review = task.get("review")
            reviewer = review.get("reviewer_id") if isinstance(review, JsonObject) else None
            if isinstance(reviewer, JsonString) and reviewer.value.strip().lower() == key:
                reviews.append(name)
    lines = [
        f"**`{worker}`** · swarm worker",
        "Author of: " + (", ".join(writes) if writes else "no task") + ".",
        "Reviewer of: " + (", ".join(reviews) if reviews else "no task") + ".",
    ]
    both = sorted(set(writes) & set(reviews))
    if both:
        lines.append(f"Reviews its own work: {', '.join(both)} (SWARM_SELF_REVIEW_DETECTED).")
    return "\n\n".join(lines)


def _items(node: JsonNode | None) -> tuple[JsonNode, ...]:
    return node.items if isinstance(node, JsonArray) else ()


def _capsule(repo: GemstackRepo, feature: Feature, recorded: str) -> str:
    doc = repo.document(feature.capsule)
    head = "**`source_capsule_hash`** · the capsule this swarm was planned from"
    if doc.text is None or doc.has_bom:
        return f"{head}\n\n{feature.capsule} does not exist (or cannot be hashed): nothing to compare."
    live = swarm.capsule_file_hash(doc.text)
    if live == recorded:
        return f"{head}\n\n{feature.capsule} hashes to `{live[:12]}…`: the manifest is current."
    return (
        f"{head}\n\n{feature.capsule} hashes to `{live[:12]}…` now, not `{recorded[:12]}…`: upstream "
        "`gemstack verify` fails with SWARM_CONTEXT_STALE."
    )


def _image(repo: GemstackRepo, baseline: JsonObject) -> str | None:
    image = baseline.get("image_path")
    recorded = baseline.get("image_sha256")
    if not isinstance(image, JsonString):
        return None
    rel = visual_qa.baseline_path(image.value)
    head = f"**`{image.value}`** · baseline image"
    if rel is None:
        return f"{head}\n\nOutside the repository: never read (VQA_BASELINE_TAMPERED)."
    if not rel:
        return f"{head}\n\nThe repository root, not an image."
    doc = repo.document(rel)
    if doc.text is None or doc.has_bom:
        return f"{head}\n\nCannot be read or hashed here ({doc.content.status.value})."
    live = swarm.capsule_file_hash(doc.text)
    size = len(doc.content.data or b"")
    if isinstance(recorded, JsonString) and recorded.value == live:
        return f"{head}\n\n{size} bytes, hashes to `{live[:12]}…`: matches image_sha256."
    return f"{head}\n\n{size} bytes, hashes to `{live[:12]}…`: differs from image_sha256 (VQA_BASELINE_TAMPERED)."
