"""Capsule verification: read-only, offline, every finding reported.

``verify_capsule(repo, feature)`` reads the capsule and its sources through the repository's
reader and returns one state and all findings (design: ARCHITECTURE.md, "Capsule verify states"):

- ``INVALID``: the capsule cannot be trusted as written (unparsable, unsupported schema or
  shape, a secret, over the hard limit, a normative rule or frozen contract dropped, or an
  authority conflict: a claim contradicting a source whose recorded hash still matches);
- ``STALE``: a recorded source changed or vanished, a new source appeared, or
  ``source_set_hash`` does not reconcile;
- ``VALID``; ``MISSING`` when a feature that opted in has no capsule; ``LEGACY`` otherwise.

The reference's checks (``gemstack-cli.md`` section 6) are all here with its messages, so a
capsule the reference calls STALE or INVALID is STALE or INVALID here too; the conflict checks
are this project's (the reference never emits AUTHORITY_CONFLICT).

``feature_capsule_findings`` turns one feature's result into editor and ``check`` findings
(one per stale capsule; errors for the active feature, warnings for the others);
``check_repo`` runs it for every feature.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import field, replace
from typing import TYPE_CHECKING, Any

from gemstack_lsp.core.capsule.canonical import parse_json
from gemstack_lsp.core.capsule.extract import (
    BlockError,
    Contract,
    extract_invariants,
    first_heading,
    read_contracts,
    read_test_matrix,
)
from gemstack_lsp.core.capsule.generate import (
    DEFAULT_PHASE,
    DEFAULT_STATUS,
    GENERATOR_NAME,
    capsule_fixes,
    clean_repo_path,
    normalize_phase,
    project_name,
    shipped_features,
)
from gemstack_lsp.core.capsule.schema import schema_errors
from gemstack_lsp.core.capsule.secrets import scan_secrets
from gemstack_lsp.core.capsule.size import HARD_LIMIT_BYTES
from gemstack_lsp.core.capsule.sources import (
    CAPSULE_FILE,
    SourceError,
    candidate_paths,
    feature_path,
    hash_source,
    read_state,
    source_set_hash,
    state_folder,
)
from gemstack_lsp.core.findings import Finding, Related, Severity
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jscompat import UNDEFINED, is_js_number, js_number, js_strict_equal, js_string
from gemstack_lsp.core.jsonspan import JsonNode, JsonPath, member_span, value_span
from gemstack_lsp.core.jsonspan import parse_json as parse_spans
from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.reader import ReadStatus, normalize_relpath
from gemstack_lsp.core.repo import Feature, GemstackRepo
from gemstack_lsp.core.state import active_spec_folder, relative_inside
from gemstack_lsp.core.tasks import parse_tasks
from gemstack_lsp.core.text import Span

if TYPE_CHECKING:
    from gemstack_lsp.core.options import AnalysisOptions

VALID, STALE, INVALID, MISSING, LEGACY = "VALID", "STALE", "INVALID", "MISSING", "LEGACY"

_INVALID_CODES = frozenset(
    {
        "CONTEXT_CAPSULE_INVALID",
        "CONTEXT_CAPSULE_TOO_LARGE",
        "CONTEXT_CAPSULE_SECRET_DETECTED",
        "CONTEXT_CAPSULE_INVARIANT_DROPPED",
        "CONTEXT_CAPSULE_AUTHORITY_CONFLICT",
    }
)
_STALE_CODES = frozenset({"CONTEXT_CAPSULE_STALE", "CONTEXT_CAPSULE_SOURCE_MISMATCH"})

#: Contracts whose presence in a spec opts the feature into Upgrade D.
UPGRADE_D_CONTRACTS = frozenset(
    {
        "capsule-is-derived-not-authority",
        "compression-preserves-semantic-constraints",
        "verify-never-regenerates-capsule",
        "capsule-secrets-forbidden",
        "capsule-offline-deterministic",
        "capsule-size-budget-fail-closed",
        "legacy-capsule-compatibility",
    }
)

LEGACY_NOTICE = '[LEGACY] No context-capsule.json was found in "{feature}" (legacy context-free mode).'

#: Phases at which a missing capsule blocks (seed section 18: warning in dev, blocker at ship).
_SHIP_PHASES = frozenset({"verification", "ship"})


@record
class VerifyResult:
    """One feature's capsule state and every finding that explains it."""

    feature: str
    state: str
    findings: tuple[Finding, ...] = ()
    capsule: Mapping[str, Any] | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """True for VALID and LEGACY (the command exits 0)."""
        return self.state in (VALID, LEGACY)

    @property
    def path(self) -> str:
        return f"{self.feature}/{CAPSULE_FILE}"


def opted_in(repo: GemstackRepo, feature: str) -> bool:
    """True when a feature asks for a capsule (seed section 26, "Feature Opt-In").

    A feature opts in when its spec declares an Upgrade D contract, when its tasks.md lists
    its context-capsule.json among a task's files, or when state.json says a capsule is
    required (``"context_capsule": "required"`` or ``{"required": true}``) while it is active.
    """
    fp = feature_path(feature)
    spec = repo.document(f"{fp}/spec.md")
    if spec.text is not None:
        try:
            contracts = read_contracts(spec.text) or []
        except BlockError:
            contracts = []
        if any(c.id in UPGRADE_D_CONTRACTS for c in contracts):
            return True
    tasks = repo.document(f"{fp}/tasks.md")
    if tasks.text is not None and CAPSULE_FILE in tasks.text:
        target = f"{fp}/{CAPSULE_FILE}"
        for t in parse_tasks(tasks.text).tasks:
            if any(normalize_relpath(ref.value) == target for ref in t.files):
                return True
    state = read_state(repo)
    if state and state_folder(repo, "active_spec") == fp:
        flag = state.get("context_capsule")
        if flag == "required" or (isinstance(flag, dict) and flag.get("required") is True):
            return True
    return False


def is_active(repo: GemstackRepo, feature: str) -> bool:
    """True when ``feature`` is the repository's active feature (state.json's ``active_spec``
    resolved as the reference does, else ``specs/current``)."""
    active = repo.active_feature()
    return active is not None and active.path == feature_path(feature)


def at_closure(repo: GemstackRepo, feature: str) -> bool:
    """True when ``feature`` is being closed: it is active and state.json's phase is
    verification or ship (seed section 18: a missing capsule is a blocker at ship)."""
    state = read_state(repo)
    return (
        bool(state) and is_active(repo, feature) and normalize_phase((state or {}).get("current_phase")) in _SHIP_PHASES
    )


def _title_span(repo: GemstackRepo, spec_path: str) -> Span | None:
    doc = repo.document(spec_path)
    if doc.text is None:
        return None
    heading = first_heading(doc.text)
    return heading[1] if heading else Span(0, 0)


class _Collector:
    """Accumulates findings for one capsule with the shared fields filled in."""

    def __init__(self, feature: str, capsule_path: str, text: str | None = None) -> None:
        self.feature = feature
        self.capsule_path = capsule_path
        self.text = text
        self._tree: JsonNode | None = None
        self.findings: list[Finding] = []
        self.fixes = capsule_fixes(feature)

    @property
    def tree(self) -> JsonNode | None:
        """The capsule's JSON with spans, parsed on the first finding that needs one."""
        if self._tree is None and self.text is not None:
            self._tree = _span_tree(self.text)
        return self._tree

    def add(
        self,
        code: str,
        message: str,
        *,
        at: JsonPath | None = None,
        member: bool = False,
        path: str | None = None,
        span: Span | None = None,
        subject: str | None = None,
        related: tuple[Related, ...] = (),
        severity: Severity | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> None:
        if path is None:
            path = self.capsule_path
            if at is not None:
                span = member_span(self.tree, at) if member else value_span(self.tree, at)
        self.findings.append(
            Finding(
                code,
                message,
                path,
                span,
                severity=severity,
                subject=subject,
                phase="capsule",
                fixes=self.fixes,
                related=related,
                data=dict(data or {}),
            )
        )


@per_text
def _span_tree(text: str) -> JsonNode | None:
    """The capsule's JSON with spans (parsed once per capsule text while the host holds it)."""
    return parse_spans(text).value


@per_text
def _parsed(text: str) -> tuple[Any, ValueError | None]:
    """The capsule's value, or the error that refused it (once per capsule text)."""
    try:
        return parse_json(text), None
    except ValueError as exc:
        return None, exc


@per_text
def _content_findings(text: str, fp: str) -> tuple[Finding, ...]:
    """The findings that depend on the capsule's text alone (its secrets and its schema),
    computed once per capsule text: a keystroke in a source reuses them."""
    capsule = _parsed(text)[0]
    c = _Collector(fp, f"{fp}/{CAPSULE_FILE}", text)
    for hit in scan_secrets(capsule):
        c.add(
            "CONTEXT_CAPSULE_SECRET_DETECTED",
            f"{hit.message} (at {hit.where})",
            at=hit.path,
            member=hit.key is not None,
            subject=hit.where,
        )
    _schema_findings(c, capsule)
    return tuple(c.findings)


def _state_of(findings: Iterable[Finding]) -> str:
    codes = {f.code for f in findings}
    if codes & _INVALID_CODES:
        return INVALID
    if codes & _STALE_CODES:
        return STALE
    return VALID


def verify_capsule(repo: GemstackRepo, feature: str | Feature) -> VerifyResult:
    """The capsule state of one feature, with all findings. Reads only; writes nothing."""
    fp = feature_path(feature.path if isinstance(feature, Feature) else feature)
    capsule_path = f"{fp}/{CAPSULE_FILE}"
    spec_path = f"{fp}/spec.md"
    doc = repo.document(capsule_path)

    if doc.content.status is ReadStatus.MISSING:
        if opted_in(repo, fp):
            c = _Collector(fp, capsule_path)
            c.add(
                "CONTEXT_CAPSULE_MISSING",
                f"Context capsule not found at {capsule_path}",
                path=spec_path,
                span=_title_span(repo, spec_path),
                subject=CAPSULE_FILE,
                severity=Severity.BLOCKER if at_closure(repo, fp) else Severity.WARNING,
            )
            return VerifyResult(fp, MISSING, tuple(c.findings))
        return VerifyResult(fp, LEGACY, (), notes=(LEGACY_NOTICE.format(feature=fp),))

    c = _Collector(fp, capsule_path)
    if doc.content.status is ReadStatus.TOO_LARGE:
        c.add(
            "CONTEXT_CAPSULE_TOO_LARGE",
            f"Capsule exceeds hard size limit ({doc.content.detail} > {HARD_LIMIT_BYTES} bytes).",
            span=None,
        )
        return VerifyResult(fp, INVALID, tuple(c.findings))
    if doc.text is None or doc.data is None:
        c.add(
            "CONTEXT_CAPSULE_INVALID",
            f"Context capsule cannot be read: {doc.content.detail or doc.content.status.value}",
            span=None,
        )
        return VerifyResult(fp, INVALID, tuple(c.findings))
    text = doc.text
    if doc.has_bom:
        c.add(
            "CONTEXT_CAPSULE_INVALID", "Context capsule JSON parse error: the file starts with a BOM", span=Span(0, 0)
        )
        return VerifyResult(fp, INVALID, tuple(c.findings))
    capsule, error = _parsed(text)
    if error is not None:
        exc = error
        pos = getattr(exc, "pos", None)
        span = Span(pos, min(pos + 1, len(text))) if isinstance(pos, int) else Span(0, 0)
        msg = getattr(exc, "msg", str(exc))
        c.add("CONTEXT_CAPSULE_INVALID", f"Context capsule JSON parse error: {msg}", span=span)
        return VerifyResult(fp, INVALID, tuple(c.findings))
    c.text = text
    if not isinstance(capsule, dict):
        c.add("CONTEXT_CAPSULE_INVALID", "Context capsule must be a JSON object", at=())
        return VerifyResult(fp, INVALID, tuple(c.findings))

    version = capsule.get("schema_version")
    if not js_strict_equal(version, 1):  # The reference tests `schema_version !== 1`.
        shown = js_string(capsule.get("schema_version", UNDEFINED))
        c.add("CONTEXT_CAPSULE_INVALID", f"Unsupported schema version: {shown}", at=("schema_version",))
        return VerifyResult(fp, INVALID, tuple(c.findings), capsule)

    size = len(doc.data)
    if size > HARD_LIMIT_BYTES:
        c.add(
            "CONTEXT_CAPSULE_TOO_LARGE",
            f"Capsule exceeds hard size limit ({size} > {HARD_LIMIT_BYTES} bytes).",
            span=Span(0, 0),
            data={"size": size},
        )
    c.findings.extend(_content_findings(text, fp))

    sources = _recorded_sources(capsule)
    if sources is None:
        return VerifyResult(fp, _state_of(c.findings), tuple(c.findings), capsule)

    unchanged = _freshness(repo, c, fp, capsule, sources)
    _dropped_and_conflicts(repo, c, fp, capsule, unchanged)
    return VerifyResult(fp, _state_of(c.findings), tuple(c.findings), capsule, _lossy_notes(capsule))


def _lossy_notes(capsule: Mapping[str, Any]) -> tuple[str, ...]:
    """Informational notes for a capsule written by the reference generator (lossy, never a finding)."""
    generator = capsule.get("generator")
    if not isinstance(generator, dict) or generator.get("name") == GENERATOR_NAME:
        return ()
    return (
        f"Written by {generator.get('name')} {generator.get('version')}: project name, next phase, history, "
        "files and deferred items are constants there, completed tasks are always 0 and ENUM_SET values "
        "are dropped. Regenerate with gemstack-lsp for derived content.",
    )


def _schema_findings(c: _Collector, capsule: dict[str, Any]) -> None:
    for where, message in schema_errors(capsule):
        shown = "/".join(str(p) for p in where) or "(root)"
        c.add(
            "CONTEXT_CAPSULE_INVALID",
            f"Capsule does not match context-capsule v1 at {shown}: {message}",
            at=where,
            subject=shown,
        )


def _recorded_sources(capsule: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    prov = capsule.get("provenance")
    if not isinstance(prov, dict) or not isinstance(prov.get("sources"), list):
        return None
    sources = prov["sources"]
    if not all(isinstance(s, dict) and isinstance(s.get("path"), str) for s in sources):
        return None
    return list(sources)


def _freshness(
    repo: GemstackRepo, c: _Collector, fp: str, capsule: Mapping[str, Any], sources: list[dict[str, Any]]
) -> dict[str, str]:
    """Re-hash every recorded source; returns role -> path for the first unchanged source of each role.

    A source's role is the one its path implies (``<feature>/spec.md`` is the SPECIFICATION,
    whatever label the capsule gives it): the checks that read a source (dropped rules, claims)
    find it by path, so relabelling an entry cannot switch them off. A label that contradicts
    its path is itself an authority conflict. Only a path that is none of the feature's sources
    keeps its recorded label.
    """
    unchanged: dict[str, str] = {}
    seen_roles: set[str] = set()
    recorded: set[str] = set()
    role_of_path = {path: role for role, path in candidate_paths(fp)}
    for i, src in enumerate(sources):
        raw_path = src["path"]
        role = src.get("role")
        # A path through the parent that comes back inside the root (the reference records the
        # active_spec as written: "../repo/specs/a/spec.md") names that file, as Node joins it.
        rel = clean_repo_path(raw_path) or relative_inside(raw_path, repo.root)
        at: JsonPath = ("provenance", "sources", i)
        if rel is None:
            c.add(
                "CONTEXT_CAPSULE_INVALID",
                f"Recorded source path is not repository-relative: {raw_path}",
                at=(*at, "path"),
                subject=raw_path,
            )
            continue
        recorded.add(rel)
        expected = role_of_path.get(rel)
        if expected is not None and role != expected:
            c.add(
                "CONTEXT_CAPSULE_AUTHORITY_CONFLICT",
                f'Capsule records {raw_path} with role "{js_string(role if "role" in src else UNDEFINED)}", '
                f"but that file is the feature's {expected} source.",
                at=(*at, "role") if "role" in src else at,
                subject=raw_path,
                data={"source": rel, "role": expected},
            )
            role = expected
        try:
            current = hash_source(repo, rel)
        except SourceError as exc:
            c.add(
                "CONTEXT_CAPSULE_SOURCE_MISMATCH",
                f"Recorded source file {raw_path} cannot be hashed: {exc}",
                at=at,
                subject=raw_path,
            )
            continue
        if current is None:
            c.add(
                "CONTEXT_CAPSULE_SOURCE_MISMATCH",
                f"Recorded source file missing on disk: {raw_path}",
                at=at,
                subject=raw_path,
                data={"source": rel, "role": role},
            )
        elif current != src.get("hash"):
            c.add(
                "CONTEXT_CAPSULE_STALE",
                f"Source file {raw_path} was modified since capsule generation.",
                at=at,
                subject=raw_path,
                data={"source": rel, "role": role},
            )
        elif isinstance(role, str) and role not in seen_roles:
            unchanged[role] = rel
        if isinstance(role, str):
            seen_roles.add(role)

    prov = capsule["provenance"]
    if prov.get("source_set_hash") != source_set_hash(sources):
        c.add(
            "CONTEXT_CAPSULE_STALE",
            "Capsule source_set_hash does not reconcile with recorded source files.",
            at=("provenance", "source_set_hash"),
            subject="source_set_hash",
        )
    for role, path in candidate_paths(fp):
        if path in recorded:
            continue
        try:
            exists = hash_source(repo, path) is not None
        except SourceError:
            exists = True
        if exists:
            c.add(
                "CONTEXT_CAPSULE_STALE",
                f"New source {path} ({role}) appeared since capsule generation.",
                at=("provenance", "sources"),
                subject=path,
                data={"source": path, "role": role},
            )
            unchanged.pop(role, None)

    generator = capsule.get("generator")
    if isinstance(generator, dict) and generator.get("name") == GENERATOR_NAME:
        _derived_freshness(repo, c, capsule)
    return unchanged


def _derived_freshness(repo: GemstackRepo, c: _Collector, capsule: Mapping[str, Any]) -> None:
    """Inputs this generator reads beyond the reference's sources: package.json and shipped specs."""
    project = capsule.get("project")
    declared = project_name(repo)
    # Only a name the repository declares is checked: one that is not declared (a capsule of
    # an older gemstack-lsp recorded the folder's name) is no claim about any source.
    if isinstance(project, dict) and declared is not None and project.get("name") != declared:
        c.add(
            "CONTEXT_CAPSULE_STALE",
            f'The project name changed since capsule generation (now "{declared}", from '
            "package.json, pyproject.toml or Cargo.toml).",
            at=("project", "name") if "name" in project else ("project",),
            subject="project.name",
        )
    history = capsule.get("historical_context")
    if not isinstance(history, list):
        return
    for i, entry in enumerate(history):
        if not isinstance(entry, dict) or not isinstance(entry.get("spec_hash"), str):
            continue
        feature = clean_repo_path(str(entry.get("feature", "")))
        if feature is None:
            continue
        try:
            current = hash_source(repo, f"{feature}/spec.md")
        except SourceError:
            current = None
        if current != entry["spec_hash"]:
            c.add(
                "CONTEXT_CAPSULE_STALE",
                f"Shipped feature spec {feature}/spec.md changed since capsule generation.",
                at=("historical_context", i),
                subject=f"{feature}/spec.md",
            )


def _dropped_and_conflicts(
    repo: GemstackRepo, c: _Collector, fp: str, capsule: Mapping[str, Any], unchanged: Mapping[str, str]
) -> None:
    spec_path = unchanged.get("SPECIFICATION")
    if spec_path is not None:
        spec = repo.document(spec_path)
        if spec.text is not None:
            _check_spec_claims(c, spec_path, spec.text, capsule)
    tasks_path = unchanged.get("TASKS")
    if tasks_path is not None:
        tasks = repo.document(tasks_path)
        if tasks.text is not None:
            _check_task_claims(c, tasks_path, tasks.text, capsule)
    recorded_roles = {s.get("role") for s in capsule["provenance"]["sources"] if isinstance(s, dict)}
    state_path = unchanged.get("LIFECYCLE_STATE")
    if state_path is not None or ("LIFECYCLE_STATE" not in recorded_roles and not repo.exists(".gemstack/state.json")):
        _check_project_claims(repo, c, capsule)
    project = capsule.get("project")
    if isinstance(project, dict) and isinstance(project.get("active_feature"), str):
        claimed = active_spec_folder(project["active_feature"], repo.root)
        if claimed != fp:
            c.add(
                "CONTEXT_CAPSULE_AUTHORITY_CONFLICT",
                f'Capsule claims active feature "{project["active_feature"]}" but it belongs to {fp}.',
                at=("project", "active_feature"),
                subject="project.active_feature",
            )


def _check_spec_claims(c: _Collector, spec_path: str, text: str, capsule: Mapping[str, Any]) -> None:
    invariants = capsule.get("canonical_invariants")
    if isinstance(invariants, list):
        rules = {i.get("rule") for i in invariants if isinstance(i, dict)}
        for inv in extract_invariants(text):
            if inv.rule not in rules:
                c.add(
                    "CONTEXT_CAPSULE_INVARIANT_DROPPED",
                    f'Normative constraint "{inv.rule}" is missing from capsule.',
                    path=spec_path,
                    span=inv.span,
                    subject=inv.id,
                )
    try:
        contracts = read_contracts(text)
    except BlockError:
        contracts = None
    claimed = capsule.get("frozen_contracts")
    if contracts is not None and isinstance(claimed, list):
        _check_contracts(c, spec_path, contracts, claimed)
    matrix_claim = capsule.get("acceptance_matrix")
    if isinstance(matrix_claim, dict):
        try:
            matrix = read_test_matrix(text)
        except BlockError:
            return
        _check_matrix(c, spec_path, matrix, matrix_claim)


def _check_contracts(c: _Collector, spec_path: str, contracts: list[Contract], claimed: list[Any]) -> None:
    by_id = {k.id: k for k in contracts}
    claimed_ids: set[str] = set()
    conflict = "CONTEXT_CAPSULE_AUTHORITY_CONFLICT"
    for i, item in enumerate(claimed):
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            continue
        cid = item["id"]
        claimed_ids.add(cid)
        at: JsonPath = ("frozen_contracts", i)
        src = by_id.get(cid)
        if src is None:
            c.add(
                conflict, f'Capsule claims frozen contract "{cid}" that spec.md does not declare.', at=at, subject=cid
            )
            continue
        related = (Related(spec_path, src.span, f'"{cid}" as declared in spec.md'),)
        messages = {
            "type": f'Frozen contract "{cid}": capsule says type {item.get("type")}, spec.md declares {src.type}.',
            "value": f'Frozen contract "{cid}": capsule value differs from the value spec.md declares.',
            "values": f'Frozen contract "{cid}": capsule values differ from the values spec.md declares.',
            "entity": f'Frozen contract "{cid}": capsule entity differs from spec.md.',
        }
        for member in src.claim_conflicts(item):
            c.add(conflict, messages[member], at=(*at, member), subject=cid, related=related)
    for k in contracts:
        if k.id not in claimed_ids:
            c.add(
                "CONTEXT_CAPSULE_INVARIANT_DROPPED",
                f'Frozen contract "{k.id}" is missing from capsule.',
                path=spec_path,
                span=k.span,
                subject=k.id,
            )


def _check_matrix(c: _Collector, spec_path: str, matrix: Any, claim: Mapping[str, Any]) -> None:
    conflict = "CONTEXT_CAPSULE_AUTHORITY_CONFLICT"
    related = (Related(spec_path, matrix.span if matrix else None, "gemstack-test-matrix in spec.md"),)
    ids = matrix.ids if matrix is not None else []
    total = claim.get("total_required")
    if is_js_number(total) and total != len(ids):
        c.add(
            conflict,
            f"Capsule claims {js_number(total)} acceptance tests; spec.md declares {len(ids)}.",
            at=("acceptance_matrix", "total_required"),
            subject="acceptance_matrix.total_required",
            related=related,
        )
    if "signature" in claim:
        expected = matrix.signature if matrix is not None else None
        if claim["signature"] != expected:
            c.add(
                conflict,
                "Capsule acceptance signature does not match spec.md's gemstack-test-matrix.",
                at=("acceptance_matrix", "signature"),
                subject="acceptance_matrix.signature",
                related=related,
            )
    claimed_ids = claim.get("canonical_ids")
    if isinstance(claimed_ids, list):
        extra = [str(x) for x in claimed_ids if x not in ids]
        missing = [x for x in ids if x not in claimed_ids]
        if extra or missing:
            parts = []
            if extra:
                parts.append("claims " + ", ".join(extra))
            if missing:
                parts.append("omits " + ", ".join(missing))
            c.add(
                conflict,
                f"Capsule acceptance ids differ from spec.md: {'; '.join(parts)}.",
                at=("acceptance_matrix", "canonical_ids"),
                subject="acceptance_matrix.canonical_ids",
                related=related,
            )


_REFERENCE_EMPTY_TASKS: dict[str, Any] = {"total": 0, "completed": 0, "in_progress": None, "active_task_ids": []}


def _check_task_claims(c: _Collector, tasks_path: str, text: str, capsule: Mapping[str, Any]) -> None:
    claim = capsule.get("tasks_state")
    if not isinstance(claim, dict) or claim == _REFERENCE_EMPTY_TASKS:
        # The reference writes this default when it cannot parse tasks.md: an omission.
        return
    tasks = parse_tasks(text).tasks
    ids = [t.id for t in tasks]
    done = {t.id for t in tasks if t.done}
    # The 1.3 reference counts only ``T<digits>`` headers: its total is not a conflict either.
    # Its grammar differs from 1.4's only in the id, so its headers are these tasks' 1.3 ones.
    totals = {len(ids), sum(1 for t in tasks if t.reference_v1_3)}
    conflict = "CONTEXT_CAPSULE_AUTHORITY_CONFLICT"
    related = (Related(tasks_path, None, "tasks.md"),)
    total = claim.get("total")
    if is_js_number(total) and total not in totals:
        c.add(
            conflict,
            f"Capsule claims {js_number(total)} tasks; tasks.md lists {len(ids)}.",
            at=("tasks_state", "total"),
            subject="tasks_state.total",
            related=related,
        )
    completed = claim.get("completed")
    if is_js_number(completed) and completed > len(done):
        c.add(
            conflict,
            f"Capsule claims {js_number(completed)} completed tasks; tasks.md shows {len(done)} checked.",
            at=("tasks_state", "completed"),
            subject="tasks_state.completed",
            related=related,
        )
    by_id = {t.id: t for t in tasks}
    for key in ("active_task_ids", "completed_task_ids"):
        values = claim.get(key)
        if not isinstance(values, list):
            continue
        for i, tid in enumerate(values):
            if tid not in by_id:
                c.add(
                    conflict,
                    f'Capsule lists task "{tid}" that tasks.md does not declare.',
                    at=("tasks_state", key, i),
                    subject=str(tid),
                    related=related,
                )
            elif key == "completed_task_ids" and tid not in done:
                task = by_id[tid]
                c.add(
                    conflict,
                    f"Capsule claims task {tid} is complete; tasks.md shows it unchecked.",
                    at=("tasks_state", key, i),
                    subject=str(tid),
                    related=(Related(tasks_path, task.checkbox_span, f"{tid} in tasks.md"),),
                )
    in_progress = claim.get("in_progress")
    if isinstance(in_progress, str) and in_progress not in by_id:
        c.add(
            conflict,
            f'Capsule names task "{in_progress}" in progress, but tasks.md does not declare it.',
            at=("tasks_state", "in_progress"),
            subject=in_progress,
            related=related,
        )


def json_key(value: Any) -> str:
    """A JSON value as a comparable key (``true`` and ``1`` stay different)."""
    return json.dumps(value, sort_keys=True)


def _check_project_claims(repo: GemstackRepo, c: _Collector, capsule: Mapping[str, Any]) -> None:
    project = capsule.get("project")
    if not isinstance(project, dict):
        return
    state = read_state(repo) or {}
    # The reference writes any truthy value as it is; this generator only a string (else the
    # default). Either is what state.json says.
    raw_phase, raw_status = state.get("current_phase"), state.get("status")
    phase = raw_phase if isinstance(raw_phase, str) and raw_phase else DEFAULT_PHASE
    status = raw_status if isinstance(raw_status, str) and raw_status else DEFAULT_STATUS
    phases = {json_key(phase), json_key(raw_phase or DEFAULT_PHASE)}
    statuses = {json_key(status), json_key(raw_status or DEFAULT_STATUS)}
    related = (Related(".gemstack/state.json", None, "state.json"),) if repo.exists(".gemstack/state.json") else ()
    if "current_phase" in project and json_key(project["current_phase"]) not in phases:
        c.add(
            "CONTEXT_CAPSULE_AUTHORITY_CONFLICT",
            f'Capsule claims phase "{project["current_phase"]}"; state.json says "{phase}".',
            at=("project", "current_phase"),
            subject="project.current_phase",
            related=related,
        )
    if "lifecycle_status" in project and json_key(project["lifecycle_status"]) not in statuses:
        c.add(
            "CONTEXT_CAPSULE_AUTHORITY_CONFLICT",
            f'Capsule claims lifecycle status "{project["lifecycle_status"]}"; state.json says "{status}".',
            at=("project", "lifecycle_status"),
            subject="project.lifecycle_status",
            related=related,
        )


# ---------------------------------------------------------------------------------------------
# Editor and `check` findings


def check_repo(repo: GemstackRepo, options: AnalysisOptions) -> Iterable[Finding]:
    """Capsule findings for every feature that has a capsule or opted into one
    (``feature_capsule_findings`` for each feature, in order)."""
    out: list[Finding] = []
    for feature in repo.features():
        out.extend(feature_capsule_findings(repo, feature, options))
    return out


def feature_capsule_findings(repo: GemstackRepo, feature: Feature, options: AnalysisOptions) -> list[Finding]:
    """One feature's capsule findings, for ``check`` and the editor.

    - A stale capsule is one finding on the spec's title line, naming every source that
      changed, with the capsule's stale source entries (and the changed files) as related
      places; INVALID findings stay where they belong (a claim, a spec line, a contract).
    - They are errors only for the active feature, whose capsule is the continuation context
      in use. A shipped or inactive feature's capsule findings are warnings: the reference's
      verify never looks at them, and one state.json edit makes every capsule that records it
      stale (so it is said once per capsule, naming state.json, as a warning).
    - A missing capsule is reported only for a feature that opted in (``verify_capsule``): a
      warning, an error when the feature is at closure; never for a shipped feature.

    Reads only the feature's folder, ``.gemstack/state.json``, the root ``cost-ledger.json``,
    the files that declare the project name (package.json, pyproject.toml, Cargo.toml), the
    spec.md of each shipped feature its capsule summarises, and whether ``specs/current``
    exists (the active-feature fallback): a cache per feature can be keyed on those.
    """
    result = verify_capsule(repo, feature.path)
    if result.state in (VALID, LEGACY):
        return []
    active = is_active(repo, feature.path)
    if result.state == MISSING:
        if not active and feature.path in _shipped(repo):
            return []
        return list(result.findings)
    findings = _merged_stale(repo, feature, result) + [f for f in result.findings if f.code not in _STALE_CODES]
    if active:
        return findings
    return [_as_inactive(f, feature) for f in findings]


def _shipped(repo: GemstackRepo) -> set[str]:
    """The features state.json records as shipped (``last_completed_feature`` and the lists)."""
    return set(shipped_features(read_state(repo), "", repo.root))


def _as_inactive(finding: Finding, feature: Feature) -> Finding:
    if finding.effective_severity.rank >= Severity.WARNING.rank:
        return finding
    note = f" ({feature.path} is not the active feature: a warning, not an error.)"
    return replace(finding, severity=Severity.WARNING, message=finding.message + note)


def _merged_stale(repo: GemstackRepo, feature: Feature, result: VerifyResult) -> list[Finding]:
    """The staleness of one capsule as a single finding (``[]`` when it is not stale)."""
    stale = [f for f in result.findings if f.code in _STALE_CODES]
    if not stale:
        return []
    changed = [str(f.subject) for f in stale if f.code == "CONTEXT_CAPSULE_STALE" and f.subject]
    missing = [str(f.subject) for f in stale if f.code == "CONTEXT_CAPSULE_SOURCE_MISMATCH" and f.subject]
    parts = []
    if changed:
        parts.append(f"{_names(changed)} changed")
    if missing:
        parts.append(f"{_names(missing)} {'is' if len(missing) == 1 else 'are'} missing or unreadable")
    code = "CONTEXT_CAPSULE_STALE" if changed or not missing else "CONTEXT_CAPSULE_SOURCE_MISMATCH"
    related = [Related(f.path, f.span, f.message) for f in stale]
    for f in stale:
        source = f.data.get("source")
        if isinstance(source, str) and f.code == "CONTEXT_CAPSULE_STALE" and repo.exists(source):
            related.append(Related(source, None, f"{source} as it is now"))
    # On the spec's title, where the feature is read and edited (its code lens shows the state
    # too); without a readable spec.md, on the capsule's first stale source entry.
    title = _title_span(repo, feature.spec) if repo.exists(feature.spec) else None
    path, span = (feature.spec, title) if title is not None else (stale[0].path, stale[0].span)
    return [
        Finding(
            code,
            f"Context capsule of {feature.path} is STALE: {' and '.join(parts)} since it was generated. Regenerate it.",
            path,
            span,
            subject=CAPSULE_FILE,
            phase="capsule",
            fixes=capsule_fixes(feature.path),
            related=tuple(related[:20]),
            data={"changed": changed, "missing": missing},
        )
    ]


def _names(subjects: list[str]) -> str:
    unique = list(dict.fromkeys(subjects))
    return ", ".join(unique[:-1]) + f" and {unique[-1]}" if len(unique) > 1 else unique[0]
