"""Capsule generation: a pure function from a repository snapshot to the capsule's bytes.

``generate_capsule(repo, feature, now)`` reads only through the repository's reader (disk, or
disk overlaid with the editor's buffers), never writes, and returns the canonical bytes, the
capsule as data and the findings that stopped it (a secret, the size limit, a malformed block,
an unhashable source). Writing is the caller's business (``gemstack_lsp.fs.write_atomic``).

Formats follow the reference CLI to the byte (hashing, sources, ``source_set_hash``, canonical
JSON, normative extraction); fields the reference hard-codes are derived from the sources
instead (see docs/capsule.md).
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from dataclasses import field
from typing import Any

from gemstack_lsp import __version__
from gemstack_lsp.core.capsule.canonical import canonicalize, parse_json
from gemstack_lsp.core.capsule.extract import (
    BlockError,
    Contract,
    Section,
    extract_invariants,
    first_heading,
    plan_bound_files,
    read_contracts,
    read_test_matrix,
    sections,
)
from gemstack_lsp.core.capsule.secrets import scan_secrets
from gemstack_lsp.core.capsule.size import HARD_LIMIT_BYTES, TOO_LARGE_MESSAGE, fit_budget
from gemstack_lsp.core.capsule.sources import (
    CAPSULE_FILE,
    SourceError,
    SourceRecord,
    collect_sources,
    feature_path,
    read_state,
    source_set_hash,
)
from gemstack_lsp.core.findings import Finding, Fix, Severity
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.hashing import BomError, hash_bytes
from gemstack_lsp.core.repo import Feature, GemstackRepo
from gemstack_lsp.core.state import active_spec_folder
from gemstack_lsp.core.tasks import TaskList, parse_tasks
from gemstack_lsp.core.text import Span

SCHEMA_URL = "https://gemstack.dev/schemas/context-capsule-v1.json"
SCHEMA_VERSION = 1
GENERATOR_NAME = "gemstack-lsp"

DEFAULT_PHASE = "specification"
DEFAULT_STATUS = "SPEC_COMPLETE"

#: The lifecycle in order; ``next_permitted_phase`` is the phase after the current one.
PHASES = ("specification", "plan", "tasks", "implementation", "verification", "ship")
_PHASE_ALIASES = {
    "spec": "specification",
    "specify": "specification",
    "planning": "plan",
    "task": "tasks",
    "implement": "implementation",
    "implementing": "implementation",
    "verify": "verification",
    "validation": "verification",
    "closure": "verification",
    "shipped": "ship",
    "shipping": "ship",
    "closed": "ship",
    "done": "ship",
}

_DEFERRED_HEADING = re.compile(r"^(?:[\d.]+\s*)?(?:explicit\s+)?deferred\s+(?:items|work|scope)\s*$", re.IGNORECASE)
_OPEN_QUESTIONS_HEADING = re.compile(r"^(?:[\d.]+\s*)?(?:open|unresolved)\s+(?:questions|blockers)\s*$", re.IGNORECASE)
_NONE_ITEM = re.compile(r"^\W*(none|n/a|ninguna?)\W*$", re.IGNORECASE)
#: A section that opens with one of these says it has nothing to list ("None of ..." does not).
_NONE_TEXT = re.compile(
    r"^\W*(?:none|n/a|nothing|ninguna?|nada|no (?:open |unresolved )?(?:questions?|blockers?))\b(?!\s+of\b)",
    re.IGNORECASE,
)
_NON_GOAL = re.compile(r"non-goal|out of scope|not in scope", re.IGNORECASE)
_DRIVE = re.compile(r"^[A-Za-z]:")


@record
class CapsuleResult:
    """The outcome of one generation: bytes to write, or the findings that prevented it."""

    feature: str
    data: bytes | None
    capsule: dict[str, Any] | None
    findings: tuple[Finding, ...] = ()
    condensed: tuple[str, ...] = field(default=())
    #: What was left out of a capsule that was generated, and why (warnings, never blocking).
    warnings: tuple[Finding, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return self.data is not None

    @property
    def path(self) -> str:
        """Where the capsule belongs, repository-relative."""
        return f"{self.feature}/{CAPSULE_FILE}"

    @property
    def error_message(self) -> str:
        """The first finding's message (what the CLI prints after ``Generation failed:``)."""
        return self.findings[0].message if self.findings else ""


def iso_millis(now: dt.datetime) -> str:
    """``2026-12-02T10:53:53.672Z``: JavaScript's ``Date.toISOString``."""
    if now.tzinfo is None:
        now = now.replace(tzinfo=dt.UTC)
    now = now.astimezone(dt.UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def normalize_phase(phase: object) -> str | None:
    if not isinstance(phase, str):
        return None
    key = phase.strip().lower()
    key = _PHASE_ALIASES.get(key, key)
    return key if key in PHASES else None


def next_permitted_phase(current_phase: str) -> str | None:
    """The phase after ``current_phase`` in upper case (``NONE`` after ship, ``None`` if unknown)."""
    phase = normalize_phase(current_phase)
    if phase is None:
        return None
    i = PHASES.index(phase)
    return PHASES[i + 1].upper() if i + 1 < len(PHASES) else "NONE"


#: Where a repository declares its name, in the order they are asked: (file, table path, key).
PROJECT_NAME_SOURCES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("package.json", ("name",)),
    ("pyproject.toml", ("project", "name")),
    ("pyproject.toml", ("tool", "poetry", "name")),
    ("Cargo.toml", ("package", "name")),
)


def project_name(repo: GemstackRepo) -> str | None:
    """The name the repository declares for itself, or ``None`` when it declares none.

    The first non-empty string among package.json's ``name``, pyproject.toml's
    ``[project] name`` (or ``[tool.poetry] name``) and Cargo.toml's ``[package] name``. Never
    the folder's name: a capsule must be identical wherever the repository is checked out.
    """
    declared = declared_project_name(repo)
    return declared[0] if declared is not None else None


def declared_project_name(repo: GemstackRepo) -> tuple[str, str] | None:
    """``project_name`` and the file that declares it."""
    for path, keys in PROJECT_NAME_SOURCES:
        value = _declared(repo, path, keys)
        if isinstance(value, str) and value.strip():
            return value.strip(), path
    return None


def _declared(repo: GemstackRepo, path: str, keys: tuple[str, ...]) -> object:
    doc = repo.document(path)
    if doc.text is None:
        return None
    data: object
    try:
        data = parse_json(doc.text) if path.endswith(".json") else tomllib.loads(doc.text)
    except ValueError:  # json.JSONDecodeError and tomllib.TOMLDecodeError are ValueErrors
        return None
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def capsule_fixes(feature: str) -> tuple[Fix, ...]:
    """The fixes every capsule finding offers: regenerate (preferred) and verify again."""
    return (
        Fix(
            "Regenerate the context capsule", command="gemstack.regenerateCapsule", arguments=(feature,), preferred=True
        ),
        Fix("Verify the context capsule", command="gemstack.verifyCapsule", arguments=(feature,)),
    )


def clean_repo_path(path: str) -> str | None:
    """A POSIX repository-relative path, or ``None`` for absolute, drive-letter or escaping paths."""
    p = path.strip().replace("\\", "/")
    if not p or p.startswith("/") or _DRIVE.match(p):
        return None
    parts = [s for s in p.split("/") if s not in ("", ".")]
    if not parts or ".." in parts:
        return None
    return "/".join(parts)


def _title_purpose(title: str | None) -> str:
    if not title:
        return ""
    return title.split(": ", 1)[1].strip() if ": " in title else title.strip()


def _strip_markup(text: str) -> str:
    return text.replace("**", "").strip()


class _Pruner:
    """Keeps credential-looking prose out of the fields this generator derives.

    The reference copies nothing but normative lines and contract values into a capsule; the
    extras derived here (contract descriptions, deferred items, open questions, titles, file
    names) are prose, and prose such as "Bearer tokens are sent only in the Authorization
    header." trips the reference's case-insensitive bearer pattern. Such an item is left out
    (never written, so the capsule still passes the reference's secret scan) and a warning
    says which and why, without echoing it.
    """

    def __init__(self, repo: GemstackRepo) -> None:
        self.repo = repo
        self.warnings: list[Finding] = []

    def keep(self, value: object, what: str, path: str, span: Span | None, subject: str | None = None) -> bool:
        hits = list(scan_secrets(value))
        if not hits:
            return True
        kind = hits[0].kind or f'a forbidden property name "{hits[0].key}"'
        where = f"{path} line {span_line(self.repo.document(path).text or '', span)}" if span is not None else path
        self.warnings.append(
            Finding(
                "CONTEXT_CAPSULE_SECRET_DETECTED",
                f"Left out of the capsule: {what} ({where}) matches the {kind} pattern of the capsule's "
                "secret scan. Nothing that looks like a credential is ever written; reword it to keep it.",
                path,
                span,
                severity=Severity.WARNING,
                subject=subject or what,
                phase="capsule",
            )
        )
        return False


def span_line(text: str, span: Span) -> int:
    """The 1-based line number of ``span.start`` in ``text``."""
    return text.count("\n", 0, span.start) + 1


def _deferred(docs: list[tuple[str, str]], pruner: _Pruner) -> list[str]:
    """The deferred items of the spec and plan (``docs``: (path, text)), each categorised."""
    out: list[str] = []
    for path, text in docs:
        for section in sections(text, _DEFERRED_HEADING):
            for item in section.items:
                clean = _strip_markup(item.text)
                if not clean:
                    continue
                category = "NON_GOAL" if _NON_GOAL.search(clean) else "UPGRADE_DEFERRED"
                entry = f"[{category}] {clean}"
                if entry in out or not pruner.keep(entry, f'a deferred item of "{section.heading}"', path, item.span):
                    continue
                out.append(entry)
    return out


def _says_none(section: Section) -> bool:
    """True when an open-questions section opens by saying there are none ("**NONE.** All
    resolved:", "None remaining.", "- N/A")."""
    return section.lead is not None and _NONE_TEXT.match(_strip_markup(section.lead)) is not None


def _blockers(spec_path: str, spec_text: str, pruner: _Pruner) -> list[str]:
    """The open questions of the spec: the list items of its "Open Questions" sections, unless a
    section says NONE (then its items are the questions it resolved, not blockers)."""
    out: list[str] = []
    for section in sections(spec_text, _OPEN_QUESTIONS_HEADING):
        if _says_none(section):
            continue
        for item in section.items:
            clean = _strip_markup(item.text)
            if not clean or _NONE_ITEM.match(clean) or clean in out:
                continue
            if pruner.keep(clean, f'an open question of "{section.heading}"', spec_path, item.span):
                out.append(clean)
    return out


def _tasks_state(tasks: TaskList | None) -> dict[str, Any]:
    if tasks is None:
        return {"total": 0, "completed": 0, "in_progress": None, "active_task_ids": [], "completed_task_ids": []}
    open_ids = [t.id for t in tasks.tasks if not t.done]
    return {
        "total": len(tasks.tasks),
        "completed": sum(1 for t in tasks.tasks if t.done),
        "in_progress": open_ids[0] if open_ids else None,
        "active_task_ids": open_ids,
        "completed_task_ids": [t.id for t in tasks.tasks if t.done],
    }


def _relevant_files(
    tasks: TaskList | None, tasks_path: str, plan_text: str | None, plan_path: str, pruner: _Pruner
) -> list[str]:
    files: list[tuple[str, str, Span | None]] = []
    if tasks is not None:
        for t in tasks.tasks:
            files.extend((ref.value, tasks_path, ref.span) for ref in t.files)
    if plan_text is not None:
        files.extend((f, plan_path, None) for f in plan_bound_files(plan_text))
    out: list[str] = []
    for f, path, span in files:
        clean = clean_repo_path(f)
        if clean is not None and clean not in out and pruner.keep(clean, "a relevant file name", path, span):
            out.append(clean)
    return out


def shipped_features(state: dict[str, Any] | None, active: str, root: str) -> list[str]:
    """Features state.json records as completed (``last_completed_feature``, ``completed_features``...).

    Each path is resolved as ``active_spec`` is (``root`` is the repository's absolute root):
    ``specs/x/``, ``./specs/x`` and an absolute path inside the repository name ``specs/x``.
    """
    if not state:
        return []
    names: list[str] = []
    last = state.get("last_completed_feature")
    if isinstance(last, str):
        names.append(last)
    for key in ("completed_features", "shipped_features"):
        value = state.get(key)
        if isinstance(value, list):
            names.extend(v for v in value if isinstance(v, str))
    out: list[str] = []
    for n in names:
        p = active_spec_folder(n, root)
        if p and p != active and p not in out:
            out.append(p)
    return out


def historical_entry(repo: GemstackRepo, feature: str) -> dict[str, Any]:
    """A closed feature in one record: status, title, permanent contracts, task and matrix summary.

    ``spec_hash`` lets verification notice when the shipped spec it summarises has changed.
    """
    entry: dict[str, Any] = {"feature": feature, "status": "CLOSED", "key_guarantees": []}
    doc = repo.document(f"{feature}/spec.md")
    if doc.text is None or doc.data is None:
        return entry
    try:
        entry["spec_hash"] = hash_bytes(doc.data)
    except BomError:
        return entry
    heading = first_heading(doc.text)
    if heading:
        entry["title"] = _title_purpose(heading[0])
    try:
        contracts = read_contracts(doc.text) or []
        entry["key_guarantees"] = [c.id for c in contracts]
    except BlockError:
        pass
    try:
        matrix = read_test_matrix(doc.text)
        if matrix is not None:
            entry["acceptance"] = f"{len(matrix.entries)} tests, signature {matrix.signature}"
    except BlockError:
        pass
    tasks_doc = repo.document(f"{feature}/tasks.md")
    if tasks_doc.text is not None:
        tasks = parse_tasks(tasks_doc.text)
        if tasks.tasks:
            done = tasks.completed
            total = len(tasks.tasks)
            entry["tasks"] = f"{done}/{total} {'COMPLETE' if done == total else 'INCOMPLETE'}"
    return entry


def _boundaries(contracts: list[Contract], spec_path: str, pruner: _Pruner) -> list[str]:
    """The descriptions of the spec's BOOLEAN_INVARIANT and BOUNDARY contracts."""
    out: list[str] = []
    for c in contracts:
        desc = c.raw.get("description")
        if not (c.type in ("BOOLEAN_INVARIANT", "BOUNDARY") and isinstance(desc, str) and desc.strip()):
            continue
        if pruner.keep(desc.strip(), f'the description of contract "{c.id}"', spec_path, c.span, c.id):
            out.append(desc.strip())
    return out


def _frozen_contracts(contracts: list[Contract], spec_path: str, pruner: _Pruner) -> list[dict[str, Any]]:
    """The spec's contracts; ``values`` / ``entity`` (which the reference's capsule leaves out)
    are left out of one that carries credential-looking text there, too. ``id``, ``type`` and
    ``value`` are the reference's: a secret there fails generation, as in the reference."""
    out: list[dict[str, Any]] = []
    for c in contracts:
        item = c.as_capsule_json()
        for member in ("values", "entity"):
            if member in item and not pruner.keep(
                item[member], f'the {member} of contract "{c.id}"', spec_path, c.span, c.id
            ):
                del item[member]
        out.append(item)
    return out


def _pruned_history(repo: GemstackRepo, entry: dict[str, Any], pruner: _Pruner) -> dict[str, Any]:
    """A historical entry without the title or contract ids that look like credentials."""
    spec_path = f"{entry.get('feature')}/spec.md"
    doc = repo.document(spec_path)
    if "title" in entry:
        heading = first_heading(doc.text) if doc.text is not None else None
        if not pruner.keep(
            entry["title"], "the title of a shipped feature", spec_path, heading[1] if heading else None
        ):
            del entry["title"]
    guarantees = entry.get("key_guarantees")
    if isinstance(guarantees, list):
        entry["key_guarantees"] = [
            g for g in guarantees if pruner.keep(g, "a contract id of a shipped feature", spec_path, None, str(g))
        ]
    return entry


def _fail(feature: str, *findings: Finding) -> CapsuleResult:
    fixes = capsule_fixes(feature)
    return CapsuleResult(feature, None, None, tuple(f.with_fixes(*fixes) if not f.fixes else f for f in findings))


def generate_capsule(repo: GemstackRepo, feature: str | Feature, now: dt.datetime) -> CapsuleResult:
    """The capsule for ``feature`` as of ``now``: canonical bytes plus data, or the blocking findings."""
    fp = feature_path(feature.path if isinstance(feature, Feature) else feature)
    spec_path = f"{fp}/spec.md"
    spec = repo.document(spec_path)
    if spec.text is None:
        return _fail(
            fp,
            Finding(
                "CONTEXT_CAPSULE_SOURCE_MISMATCH",
                f"Cannot generate context capsule: spec.md not found in {fp}",
                spec_path,
                subject="spec.md",
                phase="capsule",
            ),
        )
    try:
        sources: list[SourceRecord] = collect_sources(repo, fp)
    except SourceError as exc:
        code = "ARTIFACT_ENCODING_INVALID" if "BOM" in str(exc) else "ARTIFACT_UNREADABLE"
        return _fail(fp, Finding(code, str(exc), exc.path, Span(0, 0), phase="capsule"))

    state = read_state(repo)
    spec_text = spec.text
    invariants = extract_invariants(spec_text)
    try:
        contracts = read_contracts(spec_text) or []
        matrix = read_test_matrix(spec_text)
    except BlockError as exc:
        return _fail(fp, Finding(exc.code, str(exc), spec_path, exc.span, phase="spec"))

    plan_doc = repo.document(f"{fp}/plan.md")
    tasks_doc = repo.document(f"{fp}/tasks.md")
    tasks = parse_tasks(tasks_doc.text) if tasks_doc.text is not None else None

    current_phase = state.get("current_phase") if state else None
    status = state.get("status") if state else None
    phase_value = current_phase if isinstance(current_phase, str) and current_phase else DEFAULT_PHASE
    status_value = status if isinstance(status, str) and status else DEFAULT_STATUS
    heading = first_heading(spec_text)
    plan_path, tasks_path = f"{fp}/plan.md", f"{fp}/tasks.md"
    pruner = _Pruner(repo)

    purpose = _title_purpose(heading[0] if heading else None)
    if not pruner.keep(purpose, "the spec's title", spec_path, heading[1] if heading else None):
        purpose = ""
    project: dict[str, Any] = {
        "active_feature": fp,
        "current_phase": phase_value,
        "lifecycle_status": status_value,
        "next_permitted_phase": next_permitted_phase(phase_value),
    }
    declared = declared_project_name(repo)
    if declared is not None and pruner.keep(declared[0], "the project name", declared[1], None):
        project["name"] = declared[0]
    deferred_docs = [(spec_path, spec_text)] + ([(plan_path, plan_doc.text)] if plan_doc.text is not None else [])

    capsule: dict[str, Any] = {
        "$schema": SCHEMA_URL,
        "schema_version": SCHEMA_VERSION,
        "generated_at": iso_millis(now),
        "generator": {"name": GENERATOR_NAME, "version": __version__},
        "provenance": {
            "source_set_hash": source_set_hash([s.as_json() for s in sources]),
            "sources": [s.as_json() for s in sources],
        },
        "project": project,
        "historical_context": [
            _pruned_history(repo, historical_entry(repo, f), pruner) for f in shipped_features(state, fp, repo.root)
        ],
        "architecture_summary": {
            "core_purpose": purpose,
            "critical_boundaries": _boundaries(contracts, spec_path, pruner),
        },
        "canonical_invariants": [i.as_json() for i in invariants],
        "frozen_contracts": _frozen_contracts(contracts, spec_path, pruner),
        "acceptance_matrix": (
            {"total_required": len(matrix.entries), "signature": matrix.signature, "canonical_ids": matrix.ids}
            if matrix is not None
            else {"total_required": 0, "signature": None, "canonical_ids": []}
        ),
        "tasks_state": _tasks_state(tasks),
        "relevant_files": _relevant_files(tasks, tasks_path, plan_doc.text, plan_path, pruner),
        "deferred_items": _deferred(deferred_docs, pruner),
        "unresolved_blockers": _blockers(spec_path, spec_text, pruner),
    }

    # Whatever the reference itself writes (normative lines, contract ids and values, task ids)
    # is never left out: a secret there fails generation closed, as in the reference.
    secret_findings = []
    for hit in scan_secrets(capsule):
        span: Span | None = None
        if len(hit.path) >= 2 and hit.path[0] == "canonical_invariants" and isinstance(hit.path[1], int):
            span = invariants[hit.path[1]].span
        elif len(hit.path) >= 2 and hit.path[0] == "frozen_contracts" and isinstance(hit.path[1], int):
            span = contracts[hit.path[1]].span
        secret_findings.append(
            Finding(
                "CONTEXT_CAPSULE_SECRET_DETECTED",
                f"{hit.message} (at {hit.where})",
                spec_path,
                span,
                subject=hit.where,
                phase="capsule",
            )
        )
    if secret_findings:
        return _fail(fp, *secret_findings)

    sized = fit_budget(capsule)
    if sized.too_large:
        return _fail(
            fp,
            Finding(
                "CONTEXT_CAPSULE_TOO_LARGE",
                TOO_LARGE_MESSAGE.format(size=sized.size),
                spec_path,
                heading[1] if heading else None,
                phase="capsule",
                data={"size": sized.size, "limit": HARD_LIMIT_BYTES},
            ),
        )
    return CapsuleResult(fp, sized.data, canonicalize(capsule), (), sized.condensed, tuple(pruner.warnings))
