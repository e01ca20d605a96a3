"""Swarm manifests (Gemstack 1.4, verify stage 5.3): ``specs/<feature>/swarm.json`` checked.

The reference's ``validateSwarmManifest`` (``src/lib/swarm.js``) runs on the active feature
only. A missing manifest is legacy mode (nothing to report). Otherwise, in its order:

- ``SWARM_UNREADABLE``: the file cannot be read;
- ``SWARM_INVALID_SCHEMA``: ``JSON.parse`` fails, the root is not an object, ``version`` is set
  and is not ``"1.0.0"``, ``feature_id`` is not a non-empty string, ``waves`` is not an array
  (the reference stops at the first; here each is listed, and nothing else is checked then);
- ``SWARM_AUTHORITY_CONFLICT``: ``overrides_spec`` or ``alter_contracts`` is ``true``;
- ``SWARM_WORKER_LIMIT_EXCEEDED``: a wave names more distinct workers than ``max_workers``
  (4 when unset) or than the hard limit of 8;
- ``SWARM_RECURSIVE_SPAWN_DENIED``: a task lists ``spawned_children``;
- ``SWARM_WRITE_COLLISION``: two tasks of one wave (or one task twice) claim the same path of
  their ``write_set`` (backslashes read as slashes);
- ``SWARM_ASSIGNMENT_INVALID``: a task's ``worker_id`` is not a non-empty string, or its
  ``assigned_role`` is not one of the canonical roles;
- ``SWARM_SELF_REVIEW_DETECTED``: a task's ``review.reviewer_id`` is its own ``worker_id``
  (trimmed, case-insensitive);
- ``SWARM_TASK_ORPHANED``: tasks.md exists and declares task ids (the first ``TASK-…``,
  ``UE-T000`` or ``T000`` of each line) but not this task's ``task_id``;
- ``SWARM_CONTEXT_STALE``: the feature has a context capsule and ``source_capsule_hash`` is
  set but is not the capsule's file hash (the reference's ``hashFile``: line endings
  normalised, SHA-256). So regenerating a capsule makes the swarm manifest stale, and the
  finding says so at once; its fix records the new hash, and nothing else, in swarm.json.

Where the reference's JavaScript would throw on a value of an unexpected type (a ``null``
wave, a ``write_set`` that is a string, a numeric ``worker_id`` under a review ...), its
verify stops with a TypeError: that is reported here as ``SWARM_INVALID_SCHEMA`` on the value,
and nothing else is checked, as the reference reports nothing else either.

Beyond the reference: a task of a read-only role (``reviewer``, ``security-auditor``) that
declares a non-empty ``write_set`` is ``SWARM_WRITE_SET_VIOLATION`` (a warning; the reference
applies that rule to the files a worker modified, at run time). For a feature that is not the
active one every finding is a warning: upstream checks it again only once it is active.

Messages are the reference's (English); ``ENGLISH`` and ``SPANISH`` hold every template, per
code, index for index, with the same named placeholders.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from gemstack_lsp.core.findings import Finding, Fix, Related, Severity, TextEdit
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.hashing import hash_text
from gemstack_lsp.core.jscompat import js_double, js_trim
from gemstack_lsp.core.jsonspan import JsonArray, JsonNode, JsonNull, JsonObject, JsonResult, JsonString, parse_json
from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.reader import ReadStatus
from gemstack_lsp.core.repo import Document, Feature, GemstackRepo
from gemstack_lsp.core.text import Span
from gemstack_lsp.core.upgrade_e import items, js_number_of, js_text, js_truthy, members, opening, path_text, say

SWARM_NAME = "swarm.json"
SCHEMA_VERSION = "1.0.0"
CANONICAL_ROLES = ("implementer", "reviewer", "security-auditor", "coordinator")
READ_ONLY_ROLES = ("reviewer", "security-auditor")
DEFAULT_MAX_WORKERS = 4
HARD_MAX_WORKERS = 8

_CRASH = "upstream `gemstack verify` stops with a TypeError here"
_CRASH_ES = "el `gemstack verify` de referencia se detiene aquí con un TypeError"

ENGLISH: dict[str, tuple[str, ...]] = {
    "SWARM_UNREADABLE": ("swarm.json cannot be read: {detail}",),
    "SWARM_INVALID_SCHEMA": (
        "Invalid JSON in swarm manifest: {detail}",
        "Swarm manifest root must be a JSON object.",
        'Unsupported swarm schema version: "{version}". Expected "1.0.0".',
        'Swarm manifest must declare a valid "feature_id".',
        'Swarm manifest must declare a "waves" array.',
        "{where} is null: " + _CRASH + ".",
        "{where} is neither an array nor empty: " + _CRASH + ".",
        "{where} is neither a string nor empty: " + _CRASH + ".",
        "context-capsule.json starts with a UTF-8 byte-order mark, which upstream's hasher refuses: "
        "`gemstack verify` stops with an error here.",
    ),
    "SWARM_AUTHORITY_CONFLICT": (
        "Swarm manifest attempted to declare authority overrides over specifications or contracts.",
    ),
    "SWARM_WORKER_LIMIT_EXCEEDED": ("Wave {wave} declared {count} workers, exceeding maximum allowed ({limit}).",),
    "SWARM_RECURSIVE_SPAWN_DENIED": (
        'Worker "{worker}" claimed spawned child workers. Recursive subagent spawning is prohibited.',
    ),
    "SWARM_WRITE_COLLISION": ('Write collision on "{path}": concurrently claimed by "{first}" and "{second}".',),
    "SWARM_ASSIGNMENT_INVALID": (
        "Worker ID must be a non-empty explicit string.",
        'Assigned role "{role}" is not in canonical roles: implementer, reviewer, security-auditor, coordinator.',
    ),
    "SWARM_SELF_REVIEW_DETECTED": (
        'Self-review detected on task "{task}": Author "{author}" is identical to Reviewer "{reviewer}".',
    ),
    "SWARM_TASK_ORPHANED": ('Task "{task}" in swarm manifest is not declared in authoritative tasks.md.',),
    "SWARM_CONTEXT_STALE": ("Swarm manifest source_capsule_hash ({recorded}...) is stale. Live: {live}...",),
    "SWARM_WRITE_SET_VIOLATION": (
        'Role "{role}" on task "{task}" is strictly read-only but its write_set declares {count} file(s).',
    ),
}

SPANISH: dict[str, tuple[str, ...]] = {
    "SWARM_UNREADABLE": ("No se puede leer swarm.json: {detail}",),
    "SWARM_INVALID_SCHEMA": (
        "JSON inválido en el manifiesto de swarm: {detail}",
        "La raíz del manifiesto de swarm debe ser un objeto JSON.",
        'Versión de esquema de swarm no soportada: "{version}". Se esperaba "1.0.0".',
        'El manifiesto de swarm debe declarar un "feature_id" válido.',
        'El manifiesto de swarm debe declarar un arreglo "waves".',
        "{where} es null: " + _CRASH_ES + ".",
        "{where} no es un arreglo ni está vacío: " + _CRASH_ES + ".",
        "{where} no es una cadena ni está vacío: " + _CRASH_ES + ".",
        "context-capsule.json empieza con una marca de orden de bytes UTF-8, que el hasher de referencia "
        "rechaza: `gemstack verify` se detiene aquí con un error.",
    ),
    "SWARM_AUTHORITY_CONFLICT": (
        "El manifiesto de swarm intentó declarar autoridad por encima de las especificaciones o los contratos.",
    ),
    "SWARM_WORKER_LIMIT_EXCEEDED": (
        "La ola {wave} declaró {count} workers, por encima del máximo permitido ({limit}).",
    ),
    "SWARM_RECURSIVE_SPAWN_DENIED": (
        'El worker "{worker}" declaró workers hijos. El lanzamiento recursivo de subagentes está prohibido.',
    ),
    "SWARM_WRITE_COLLISION": ('Colisión de escritura en "{path}": reclamado a la vez por "{first}" y "{second}".',),
    "SWARM_ASSIGNMENT_INVALID": (
        "El ID del worker debe ser una cadena explícita no vacía.",
        'El rol asignado "{role}" no está entre los roles canónicos: implementer, reviewer, security-auditor, '
        "coordinator.",
    ),
    "SWARM_SELF_REVIEW_DETECTED": (
        'Auto-revisión detectada en la tarea "{task}": el autor "{author}" es idéntico al revisor "{reviewer}".',
    ),
    "SWARM_TASK_ORPHANED": (
        'La tarea "{task}" del manifiesto de swarm no está declarada en el tasks.md autoritativo.',
    ),
    "SWARM_CONTEXT_STALE": (
        "El source_capsule_hash del manifiesto de swarm ({recorded}...) está desactualizado. Vivo: {live}...",
    ),
    "SWARM_WRITE_SET_VIOLATION": (
        'El rol "{role}" de la tarea "{task}" es estrictamente de solo lectura, pero su write_set declara '
        "{count} archivo(s).",
    ),
}

#: The task ids the reference harvests from tasks.md: the first match of each line.
TASK_ID = re.compile(r"\b(TASK-[A-Za-z0-9_-]+|UE-T[0-9]{3}|T[0-9]{3})\b", re.ASCII | re.IGNORECASE)


def _say(code: str, index: int = 0, **values: object) -> str:
    return say(ENGLISH, code, index, **values)


@per_text
def parse_swarm(text: str) -> JsonResult:
    """swarm.json's text parsed with spans (memoised by text)."""
    return parse_json(text)


@per_text
def capsule_file_hash(text: str) -> str:
    """The reference's ``hashFile`` of a capsule's (BOM-free) text, memoised by text."""
    return hash_text(text)


def declared_task_ids(text: str) -> set[str]:
    """The task ids tasks.md declares as the reference reads them (upper case)."""
    ids = set()
    for line in text.split("\n"):
        m = TASK_ID.search(line)
        if m:
            ids.add(m.group(1).upper())
    return ids


@record
class _Task:
    """One entry of a wave's ``tasks`` and where it sits."""

    node: JsonNode
    wave: int
    index: int

    @property
    def obj(self) -> JsonObject | None:
        return members(self.node)

    def get(self, key: str) -> JsonNode | None:
        obj = self.obj
        return obj.get(key) if obj is not None else None

    def where(self, *rest: str | int) -> str:
        return path_text("waves", self.wave, "tasks", self.index, *rest)

    @property
    def anchor(self) -> Span:
        """Where a finding about the task as a whole sits: its ``task_id`` value, else the task."""
        task_id = self.get("task_id")
        return task_id.span if task_id is not None else opening(self.node)


def _tasks_of(wave: JsonNode) -> tuple[JsonNode, ...]:
    obj = members(wave)
    return items(obj.get("tasks")) if obj is not None else ()


def _all_tasks(waves: JsonArray) -> Iterator[_Task]:
    for w, wave in enumerate(waves.items):
        for i, node in enumerate(_tasks_of(wave)):
            yield _Task(node, w, i)


# ---------------------------------------------------------------------------------------------
# The checks


def feature_swarm_findings(repo: GemstackRepo, feature: Feature, active: bool) -> list[Finding]:
    """The swarm findings of one feature (``active``: it is state.json's active feature)."""
    path = feature.file(SWARM_NAME)
    doc = repo.document(path)
    if not doc.exists:
        return []
    severity = None if active else Severity.WARNING
    out = [with_severity(f, severity) for f in _manifest_findings(repo, feature, path, doc)]
    return out


def with_severity(finding: Finding, severity: Severity | None) -> Finding:
    """The finding at ``severity`` unless it has its own (a warning beyond the reference stays one)."""
    if severity is None or finding.severity is not None:
        return finding
    return replace(finding, severity=severity)


def _finding(code: str, message: str, path: str, span: Span | None, **extra: Any) -> Finding:
    extra.setdefault("subject", "swarm-authority-subordinate")
    return Finding(code, message, path, span, phase="swarm", **extra)


def unreadable_detail(doc: Document) -> str:
    """Why a file that exists could not be read, in the words Node would use."""
    status = doc.content.status
    if status is ReadStatus.NOT_A_FILE:
        return "EISDIR: illegal operation on a directory, read"
    if status is ReadStatus.TOO_LARGE:
        return f"the file is too large to analyse ({doc.content.detail})"
    if status is ReadStatus.SYMLINK_OUTSIDE:
        return "it is a symbolic link that leaves the repository"
    return doc.content.detail or status.value


def _manifest_findings(repo: GemstackRepo, feature: Feature, path: str, doc: Document) -> list[Finding]:
    if doc.text is None:
        return [_finding("SWARM_UNREADABLE", _say("SWARM_UNREADABLE", detail=unreadable_detail(doc)), path, None)]
    if doc.has_bom:
        detail = "Unexpected token '\ufeff' (a UTF-8 byte-order mark)"
        return [_finding("SWARM_INVALID_SCHEMA", _say("SWARM_INVALID_SCHEMA", 0, detail=detail), path, Span(0, 0))]
    parsed = parse_swarm(doc.text)
    if not parsed.ok or parsed.value is None:
        err = parsed.errors[0]
        return [_finding("SWARM_INVALID_SCHEMA", _say("SWARM_INVALID_SCHEMA", 0, detail=err.message), path, err.span)]
    root = parsed.value
    schema = _schema_findings(path, root)
    if schema or not isinstance(root, JsonObject):
        return schema
    waves = root.get("waves")
    assert isinstance(waves, JsonArray)
    crash = _crash(repo, feature, path, root, waves)
    if crash is not None:
        return [crash]
    out: list[Finding] = []
    out.extend(_authority(path, root))
    out.extend(_limits(path, root, waves))
    for w, wave in enumerate(waves.items):
        tasks = [_Task(node, w, i) for i, node in enumerate(_tasks_of(wave))]
        out.extend(_collisions(path, tasks))
        for task in tasks:
            out.extend(_assignment(path, task))
            out.extend(_self_review(path, task))
            out.extend(_write_scope(path, task))
    out.extend(_orphans(repo, feature, path, waves))
    out.extend(_stale_context(repo, feature, path, root))
    return out


def _schema_findings(path: str, root: JsonNode) -> list[Finding]:
    code = "SWARM_INVALID_SCHEMA"
    if not isinstance(root, JsonObject):
        return [_finding(code, _say(code, 1), path, root.span)]
    out = []
    version = root.get("version")
    if js_truthy(version) and not (isinstance(version, JsonString) and version.value == SCHEMA_VERSION):
        assert version is not None
        out.append(_finding(code, _say(code, 2, version=js_text(version)), path, version.span))
    feature_id = root.get("feature_id")
    if not (isinstance(feature_id, JsonString) and feature_id.value):
        out.append(_finding(code, _say(code, 3), path, feature_id.span if feature_id else opening(root)))
    waves = root.get("waves")
    if not isinstance(waves, JsonArray):
        out.append(_finding(code, _say(code, 4), path, waves.span if waves else opening(root)))
    return out


def _crash(repo: GemstackRepo, feature: Feature, path: str, root: JsonObject, waves: JsonArray) -> Finding | None:
    """Where the reference's JavaScript would throw, in the order it evaluates the manifest."""
    code = "SWARM_INVALID_SCHEMA"

    def null(node: JsonNode, where: str) -> Finding:
        return _finding(code, _say(code, 5, where=where), path, node.span)

    def not_array(node: JsonNode, where: str) -> Finding:
        return _finding(code, _say(code, 6, where=where), path, node.span)

    def not_string(node: JsonNode, where: str) -> Finding:
        return _finding(code, _say(code, 7, where=where), path, node.span)

    # validateWorkerLimits reads every wave's tasks, and every task's worker_id.
    for w, wave in enumerate(waves.items):
        if isinstance(wave, JsonNull):
            return null(wave, path_text("waves", w))
        obj = members(wave)
        listed = obj.get("tasks") if obj is not None else None
        if listed is not None and js_truthy(listed) and not isinstance(listed, JsonArray):
            return not_array(listed, path_text("waves", w, "tasks"))
        for i, node in enumerate(items(listed)):
            if isinstance(node, JsonNull):
                return null(node, path_text("waves", w, "tasks", i))
    # Then, wave by wave: the write sets, then each task's review.
    for w, wave in enumerate(waves.items):
        tasks = [_Task(node, w, i) for i, node in enumerate(_tasks_of(wave))]
        for task in tasks:
            write_set = task.get("write_set")
            if write_set is None or not js_truthy(write_set):
                continue
            if not isinstance(write_set, JsonArray):
                return not_array(write_set, task.where("write_set"))
            for k, entry in enumerate(write_set.items):
                if js_truthy(entry) and not isinstance(entry, JsonString):
                    return not_string(entry, task.where("write_set", k))
        for task in tasks:
            review = task.get("review")
            if not js_truthy(review):
                continue
            worker = task.get("worker_id")
            if worker is not None and js_truthy(worker) and not isinstance(worker, JsonString):
                return not_string(worker, task.where("worker_id"))
            review_obj = members(review)
            reviewer = review_obj.get("reviewer_id") if review_obj is not None else None
            if reviewer is not None and js_truthy(reviewer) and not isinstance(reviewer, JsonString):
                return not_string(reviewer, task.where("review", "reviewer_id"))
    # resolveTaskOwnership upper-cases every task_id when tasks.md exists.
    if repo.document(feature.tasks).text is not None:
        for task in _all_tasks(waves):
            task_id = task.get("task_id")
            if task_id is not None and js_truthy(task_id) and not isinstance(task_id, JsonString):
                return not_string(task_id, task.where("task_id"))
    # The capsule's hash, and the recorded one sliced for the message.
    recorded = root.get("source_capsule_hash")
    capsule = repo.document(feature.capsule)
    if recorded is not None and js_truthy(recorded) and capsule.text is not None:
        if capsule.has_bom:
            return _finding(code, _say(code, 8), path, recorded.span)
        if not isinstance(recorded, JsonString | JsonArray):
            return not_string(recorded, "source_capsule_hash")
    return None


def _authority(path: str, root: JsonObject) -> list[Finding]:
    flags = [root.get(k) for k in ("overrides_spec", "alter_contracts")]
    claimed = [n for n in flags if n is not None and n.to_python() is True]
    if not claimed:
        return []
    code = "SWARM_AUTHORITY_CONFLICT"
    related = tuple(Related(path, n.span, "also claims authority") for n in claimed[1:])
    return [_finding(code, _say(code), path, claimed[0].span, subject="swarm-authority-subordinate", related=related)]


def _worker_key(node: JsonNode) -> object:
    """How a ``Set`` tells worker ids apart: by value for scalars, by identity for objects."""
    if isinstance(node, JsonObject | JsonArray):
        return ("object", node.span.start)
    value = node.to_python()
    if isinstance(value, bool):
        return ("boolean", value)
    if isinstance(value, int | float):
        return ("number", js_double(value))
    return ("string", value)


def _limits(path: str, root: JsonObject, waves: JsonArray) -> list[Finding]:
    out: list[Finding] = []
    max_node = root.get("max_workers")
    limit_node = max_node if js_truthy(max_node) else None
    limit = js_number_of(limit_node) if limit_node is not None else float(DEFAULT_MAX_WORKERS)
    shown = js_text(limit_node) if limit_node is not None else str(DEFAULT_MAX_WORKERS)
    for w, wave in enumerate(waves.items):
        tasks = [_Task(node, w, i) for i, node in enumerate(_tasks_of(wave))]
        seen: dict[object, JsonNode] = {}
        for task in tasks:
            worker = task.get("worker_id")
            if worker is not None and js_truthy(worker):
                seen.setdefault(_worker_key(worker), worker)
        workers = list(seen.values())
        over = next((n for k, n in enumerate(workers, 1) if k > limit or k > HARD_MAX_WORKERS), None)
        if over is not None:
            code = "SWARM_WORKER_LIMIT_EXCEEDED"
            obj = members(wave)
            index = obj.get("wave_index") if obj is not None else None
            related = (Related(path, limit_node.span, f"max_workers is {shown}"),) if limit_node is not None else ()
            message = _say(code, wave=js_text(index), count=len(workers), limit=shown)
            out.append(_finding(code, message, path, over.span, subject="swarm-authority-subordinate", related=related))
        for task in tasks:
            children = task.get("spawned_children")
            if children is None or not js_truthy(children):
                continue
            if isinstance(children, JsonArray | JsonString) and (
                children.items if isinstance(children, JsonArray) else children.value
            ):
                code = "SWARM_RECURSIVE_SPAWN_DENIED"
                message = _say(code, worker=js_text(task.get("worker_id")))
                out.append(_finding(code, message, path, children.span, subject="swarm-authority-subordinate"))
    return out


def _collisions(path: str, tasks: list[_Task]) -> list[Finding]:
    out: list[Finding] = []
    claimed: dict[str, tuple[JsonNode | None, JsonNode]] = {}
    for task in tasks:
        for entry in items(task.get("write_set")):
            raw = entry.value if isinstance(entry, JsonString) else ""
            normalized = raw.replace("\\", "/")
            if normalized in claimed:
                first_task, first_entry = claimed[normalized]
                code = "SWARM_WRITE_COLLISION"
                message = _say(code, path=normalized, first=js_text(first_task), second=js_text(task.get("task_id")))
                related = (Related(path, first_entry.span, f'first claimed by "{js_text(first_task)}"'),)
                out.append(
                    _finding(code, message, path, entry.span, subject="exclusive-task-write-ownership", related=related)
                )
            else:
                claimed[normalized] = (task.get("task_id"), entry)
    return out


def _assignment(path: str, task: _Task) -> list[Finding]:
    code = "SWARM_ASSIGNMENT_INVALID"
    out = []
    worker = task.get("worker_id")
    if not (isinstance(worker, JsonString) and js_trim(worker.value)):
        span = worker.span if worker is not None else task.anchor
        out.append(_finding(code, _say(code, 0), path, span, subject="swarm-authority-subordinate"))
    role = task.get("assigned_role")
    if not (isinstance(role, JsonString) and role.value in CANONICAL_ROLES):
        span = role.span if role is not None else task.anchor
        out.append(_finding(code, _say(code, 1, role=js_text(role)), path, span, subject="swarm-authority-subordinate"))
    return out


def _trimmed(node: JsonNode | None) -> str:
    """``(value || '').trim()`` for a value that is a string or falsy (the crash check ran)."""
    return js_trim(node.value) if isinstance(node, JsonString) else ""


def _self_review(path: str, task: _Task) -> list[Finding]:
    review = task.get("review")
    if not js_truthy(review):
        return []
    review_obj = members(review)
    reviewer_node = review_obj.get("reviewer_id") if review_obj is not None else None
    author, reviewer = _trimmed(task.get("worker_id")), _trimmed(reviewer_node)
    if not (author and reviewer and author.lower() == reviewer.lower()):
        return []
    assert reviewer_node is not None
    code = "SWARM_SELF_REVIEW_DETECTED"
    message = _say(code, task=js_text(task.get("task_id")), author=author, reviewer=reviewer)
    worker = task.get("worker_id")
    related = (Related(path, worker.span, "the author of the task"),) if worker is not None else ()
    return [_finding(code, message, path, reviewer_node.span, subject="author-not-reviewer", related=related)]


def _write_scope(path: str, task: _Task) -> list[Finding]:
    role = task.get("assigned_role")
    write_set = task.get("write_set")
    if not (isinstance(role, JsonString) and role.value in READ_ONLY_ROLES and isinstance(write_set, JsonArray)):
        return []
    if not write_set.items:
        return []
    code = "SWARM_WRITE_SET_VIOLATION"
    message = _say(code, role=role.value, task=js_text(task.get("task_id")), count=len(write_set.items))
    return [
        _finding(
            code,
            message,
            path,
            write_set.span,
            severity=Severity.WARNING,
            subject="author-not-reviewer",
            related=(Related(path, role.span, f'assigned role "{role.value}"'),),
        )
    ]


def _orphans(repo: GemstackRepo, feature: Feature, path: str, waves: JsonArray) -> list[Finding]:
    tasks_doc = repo.document(feature.tasks)
    if tasks_doc.text is None:
        return []
    declared = declared_task_ids(tasks_doc.text)
    if not declared:
        return []
    out = []
    code = "SWARM_TASK_ORPHANED"
    for task in _all_tasks(waves):
        task_id = task.get("task_id")
        tid = task_id.value.upper() if isinstance(task_id, JsonString) else ""
        if tid not in declared:
            message = _say(code, task=js_text(task_id))
            out.append(
                _finding(
                    code,
                    message,
                    path,
                    task.anchor,
                    subject="swarm-authority-subordinate",
                    related=(Related(feature.tasks, None, "the tasks the feature declares"),),
                )
            )
    return out


def _stale_context(repo: GemstackRepo, feature: Feature, path: str, root: JsonObject) -> list[Finding]:
    recorded = root.get("source_capsule_hash")
    if recorded is None or not js_truthy(recorded):
        return []
    capsule = repo.document(feature.capsule)
    if capsule.text is None:
        return []  # no capsule (or one the capsule check reports as unreadable)
    live = capsule_file_hash(capsule.text)
    if isinstance(recorded, JsonString):
        if recorded.value == live:
            return []
        shown = recorded.value[:12]
    else:
        assert isinstance(recorded, JsonArray)
        shown = js_text(JsonArray(recorded.items[:12], recorded.span))
    code = "SWARM_CONTEXT_STALE"
    fix = Fix(
        f"Record the current capsule in swarm.json (source_capsule_hash {live[:12]}...)",
        edits=(TextEdit(path, recorded.span, json.dumps(live)),),
    )
    return [
        _finding(
            code,
            _say(code, recorded=shown, live=live[:12]),
            path,
            recorded.span,
            subject="swarm-context-projected",
            fixes=(fix,),
            related=(Related(feature.capsule, None, f"the capsule hashes to {live[:12]}... now"),),
            data={"recorded": recorded.to_python(), "live": live, "capsule": feature.capsule},
        )
    ]


def stale_after_regenerate(repo: GemstackRepo, feature: Feature, capsule: bytes, active: bool) -> str | None:
    """What Regenerate must tell when the feature's swarm.json records another capsule.

    ``capsule`` is what was just written. ``None`` when there is no swarm.json, it records no
    capsule hash (or cannot be read), or it records exactly this capsule.
    """
    doc = repo.document(feature.file(SWARM_NAME))
    if doc.text is None or doc.has_bom:
        return None
    parsed = parse_swarm(doc.text)
    root = members(parsed.value) if parsed.ok else None
    recorded = root.get("source_capsule_hash") if root is not None else None
    if recorded is None or not js_truthy(recorded):
        return None
    try:
        live = hash_text(capsule.decode("utf-8", errors="replace"))
    except ValueError:
        return None
    if isinstance(recorded, JsonString) and recorded.value == live:
        return None
    previous = recorded.value[:12] if isinstance(recorded, JsonString) else js_text(recorded)
    when = "" if active else f" once {feature.path} is the active feature again"
    return (
        f"{feature.path}/swarm.json records the previous capsule (source_capsule_hash {previous}...), not this one "
        f"({live[:12]}...): upstream `gemstack verify` will fail with SWARM_CONTEXT_STALE{when} until "
        "source_capsule_hash is updated (the SWARM_CONTEXT_STALE quick fix records the new hash; upstream has no "
        "command that does)."
    )


__all__ = [
    "CANONICAL_ROLES",
    "ENGLISH",
    "SPANISH",
    "SWARM_NAME",
    "capsule_file_hash",
    "declared_task_ids",
    "feature_swarm_findings",
    "parse_swarm",
    "stale_after_regenerate",
]
