"""Closure evidence (Upgrade B): ``specs/<feature>/closure.json`` read, validated and checked.

The reference's ``gemstack verify`` (stage 5) checks the active feature only, and only when its
spec.md has a ``gemstack-test-matrix`` block (a "structured" feature). In its order:

- ``CLOSURE_MANIFEST_MISSING``: there is no closure.json;
- ``CLOSURE_MANIFEST_INVALID``: ``JSON.parse`` fails (nothing else is checked then);
- ``CLOSURE_EVIDENCE_STALE``: the recorded ``closure_context.closure_context_hash`` differs from
  the one recomputed now (``closure_context_hash``: the spec, plan and tasks hashes, the
  acceptance signature, the bound test files, the tasks' files, package.json and the Git
  commit and cleanliness of the tree);
- ``CLOSURE_NOT_VERIFIED``: the hash matches but ``status`` is neither ``VERIFIED`` nor
  ``VERIFIED_WITH_EXCEPTIONS``.

The messages say what the reference's say, in English; with ``--lang es`` or a Spanish
locale they are shown in the reference's own Spanish wording (``core/i18n_es.py``). When the
hash cannot be recomputed (a broken bindings, gates or matrix block, tasks without validation
metadata, a BOM) the reference prints an error without a code; here the cause is already its
own finding (the documents check's), so the closure check says nothing more.

Beyond the reference: closure.json is validated against ``gemstack-closure.schema.json``
(warnings: the reference reads only ``closure_context`` and ``status``), and a closure that
says VERIFIED while tasks.md still has unchecked tasks, its own summary counts failed required
tests, or it names another feature is ``CLOSURE_EVIDENCE_CONTRADICTED``. Because the context
hash includes the Git commit, a committed closure.json is stale after the next commit: for a
feature that is not active only what stays meaningful is reported (an unparsable manifest, a
contradicted VERIFIED), as warnings.

``feature_closure_findings`` computes one feature's findings (cacheable per feature);
``check_repo`` runs it over every feature.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks import closure_gates, test_bindings, test_matrix
from gemstack_lsp.core.blocks.base import (
    BlockKindInfo,
    BlockResult,
    BlockSource,
    SchemaIssue,
    read_reference_block,
    schema_issues,
)
from gemstack_lsp.core.feature import CLOSURE_NAME
from gemstack_lsp.core.findings import Finding, Related, Severity
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.hashing import BomError, hash_text, sha256_hex
from gemstack_lsp.core.jscompat import json_stringify, utf16_key
from gemstack_lsp.core.jsonspan import JsonBool, JsonNode, JsonNumber, JsonObject, JsonResult, JsonString, parse_json
from gemstack_lsp.core.markdown import ReferenceBlock, reference_blocks
from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.reader import RepositoryState
from gemstack_lsp.core.repo import Feature, GemstackRepo
from gemstack_lsp.core.schemas import load_schema
from gemstack_lsp.core.state import STATE_PATH
from gemstack_lsp.core.tasks import parse_tasks
from gemstack_lsp.core.text import Span

if TYPE_CHECKING:
    from gemstack_lsp.core.options import AnalysisOptions

SCHEMA_NAME = kinds.ARTIFACT_SCHEMAS[CLOSURE_NAME]
VERIFIED_STATUSES = ("VERIFIED", "VERIFIED_WITH_EXCEPTIONS")


# ---------------------------------------------------------------------------------------------
# The manifest


@record
class ClosureManifest:
    """closure.json parsed with spans. ``root`` is ``None`` when the JSON does not parse."""

    json: JsonResult

    @property
    def root(self) -> JsonNode | None:
        return self.json.value if self.json.ok else None

    @property
    def object(self) -> JsonObject | None:
        return self.root if isinstance(self.root, JsonObject) else None

    def member(self, *path: str) -> JsonNode | None:
        node: JsonNode | None = self.object
        for key in path:
            if not isinstance(node, JsonObject):
                return None
            node = node.get(key)
        return node

    @property
    def truthy(self) -> bool:
        """JavaScript's ``if (manifest)``: ``null``, ``false``, ``0`` and ``""`` skip the checks."""
        root = self.root
        if root is None:
            return False
        value = root.to_python()
        return not (value is None or value is False or value == 0 or value == "")

    @property
    def recorded_hash(self) -> str | None:
        """``manifest.closure_context.closure_context_hash`` when it is a string."""
        node = self.member("closure_context", "closure_context_hash")
        return node.value if isinstance(node, JsonString) else None

    @property
    def status(self) -> str | None:
        node = self.member("status")
        return node.value if isinstance(node, JsonString) else None

    @property
    def shown_status(self) -> str:
        """``${manifest.status}`` as the reference prints it."""
        node = self.member("status")
        if node is None:
            return "undefined"
        value = node.to_python()
        if isinstance(value, str):
            return value
        return json_stringify(value) if not isinstance(value, bool) else ("true" if value else "false")

    @property
    def blockers_json(self) -> str:
        """``JSON.stringify(manifest.blockers || [])``."""
        node = self.member("blockers")
        value = node.to_python() if node is not None else None
        if not value:
            value = []
        return json_stringify(value)


@per_text
def parse_closure(text: str) -> ClosureManifest:
    """closure.json's text parsed with spans (memoised by text)."""
    return ClosureManifest(parse_json(text))


# ---------------------------------------------------------------------------------------------
# The closure context hash


class ContextUnavailable(Exception):
    """The reference could not recompute the closure context (it throws; the cause is another finding)."""


@record
class ClosureContext:
    """The closure context recomputed from the repository, and its hash."""

    context: Mapping[str, Any]
    hash: str
    repository: RepositoryState


@per_text
def _text_hash(text: str) -> str:
    """The reference's hash of a file's (BOM-free) text, memoised by text."""
    return hash_text(text)


def _hash_file(repo: GemstackRepo, path: str) -> str | None:
    """The reference's file hash of ``path``; ``None`` when it does not exist."""
    doc = repo.document(path)
    if not doc.exists:
        return None
    if doc.text is None:
        raise ContextUnavailable(f"{path} cannot be read")
    if doc.has_bom:
        raise ContextUnavailable(BomError().args[0])
    return _text_hash(doc.text)


def aggregate_hash(repo: GemstackRepo, paths: Iterable[str]) -> str:
    """The reference's ``computeContentAggregateHash``: the existing files of ``paths`` (sorted by
    code units), each ``{path, hash}``, as compact JSON, hashed."""
    entries = []
    for p in sorted(paths, key=utf16_key):
        digest = _hash_file(repo, p)
        if digest is not None:
            entries.append({"path": p.replace("\\", "/"), "hash": digest})
    return sha256_hex(json_stringify(entries))


def closure_context_hash(context: Mapping[str, Any]) -> str:
    """The reference's ``computeClosureContextHash``: keys sorted, one level deep, compact JSON, SHA-256."""
    normalized: dict[str, Any] = {}
    for key in sorted(context, key=utf16_key):
        value = context[key]
        if isinstance(value, Mapping):
            normalized[key] = {k: value[k] for k in sorted(value, key=utf16_key)}
        else:
            normalized[key] = value
    return sha256_hex(json_stringify(normalized))


_RULES: dict[str, tuple[BlockKindInfo, Callable[[BlockSource], BlockResult[Any]]]] = {
    test_matrix.KIND: (test_matrix.INFO, test_matrix.matrix_of),
    test_bindings.KIND: (test_bindings.INFO, test_bindings.bindings_of),
    closure_gates.KIND: (closure_gates.INFO, closure_gates.gates_of),
}


@per_text
def _reference_outcome(path: str, text: str, kind: str) -> tuple[Any, ...] | str:
    """The items of the one block of ``kind`` as the reference reads it (none when absent), or
    the message of the error the reference throws; memoised by text."""
    info, rules = _RULES[kind]
    blocks: list[ReferenceBlock] = reference_blocks(text, kind)
    if not blocks:
        return ()
    if len(blocks) > 1:
        return info.multiple_message.replace("{n}", str(len(blocks)))
    result = rules(read_reference_block(path, blocks[0], info))
    for f in result.findings:
        if f.code != "JSON_DUPLICATE_KEY":
            return f.message
    return result.items


def _reference_items(text: str, kind: str, path: str) -> tuple[Any, ...]:
    """``_reference_outcome``'s items; raises ``ContextUnavailable`` where the reference throws."""
    outcome = _reference_outcome(path, text, kind)
    if isinstance(outcome, str):
        raise ContextUnavailable(outcome)
    return outcome


def compute_closure_context(repo: GemstackRepo, feature: Feature, recorded: JsonObject | None = None) -> ClosureContext:
    """The closure context of ``feature`` now, as verify recomputes it.

    ``recorded`` (the manifest's ``closure_context``) stands in for what a reader cannot tell
    about Git (see ``reader.repository_state_of``): its commit when none could be read, its
    ``working_tree_clean`` when cleanliness is unknown. Raises ``ContextUnavailable``.
    """
    spec = repo.document(feature.spec)
    if spec.text is None:
        raise ContextUnavailable(f"{feature.spec} cannot be read")
    matrix: tuple[test_matrix.TestMatrixEntry, ...] = _reference_items(spec.text, test_matrix.KIND, feature.spec)
    plan = repo.document(feature.plan)
    bindings: tuple[test_bindings.TestBinding, ...] = ()
    if plan.exists:
        if plan.text is None:
            raise ContextUnavailable(f"{feature.plan} cannot be read")
        bindings = _reference_items(plan.text, test_bindings.KIND, feature.plan)
        _reference_items(plan.text, closure_gates.KIND, feature.plan)
    tasks_doc = repo.document(feature.tasks)
    files: list[str] = []
    if tasks_doc.exists:
        if tasks_doc.text is None:
            raise ContextUnavailable(f"{feature.tasks} cannot be read")
        tasks = parse_tasks(tasks_doc.text)
        problems = tasks.findings(feature.tasks, tasks_doc.text)
        if any(f.code == "TASK_VALIDATION_MISSING" for f in problems):
            raise ContextUnavailable(next(f.message for f in problems if f.code == "TASK_VALIDATION_MISSING"))
        for task in tasks.tasks:
            for ref in task.files:
                if ref.value not in files:
                    files.append(ref.value)
    repository = repo.repository_state()
    if not repository.known and recorded is not None:
        repository = _assume_recorded(repository, recorded)
    bound_files: list[str] = []
    for b in bindings:
        if b.file not in bound_files:
            bound_files.append(b.file)
    context = {
        "version": 1,
        "repository": repository.to_json(),
        "phase_hashes": {
            "spec": _hash_file(repo, feature.spec),
            "plan": _hash_file(repo, feature.plan),
            "tasks": _hash_file(repo, feature.tasks),
        },
        "acceptance_signature": test_matrix.acceptance_signature(matrix),
        "test_files_hash": aggregate_hash(repo, bound_files),
        "implementation_context_hash": aggregate_hash(repo, [f for f in files if not f.endswith("closure.json")]),
        "required_gate_definition_hash": aggregate_hash(repo, ["package.json"]),
    }
    return ClosureContext(context, closure_context_hash(context), repository)


def _assume_recorded(state: RepositoryState, recorded: JsonObject) -> RepositoryState:
    commit_node = recorded.get("git_commit")
    clean_node = recorded.get("working_tree_clean")
    commit = state.commit
    if commit is None and isinstance(commit_node, JsonString):
        commit = commit_node.value
    clean = state.working_tree_clean
    if clean is None and isinstance(clean_node, JsonBool):
        clean = clean_node.value
    return RepositoryState(state.type, commit, clean, known=False)


# ---------------------------------------------------------------------------------------------
# Findings


def _has_reference_matrix(text: str) -> ReferenceBlock | None:
    blocks = reference_blocks(text, test_matrix.KIND)
    return blocks[0] if blocks else None


def feature_closure_findings(repo: GemstackRepo, feature: Feature, active: bool) -> list[Finding]:
    """The closure findings of one feature (``active``: it is state.json's active feature)."""
    spec = repo.document(feature.spec)
    if spec.text is None or spec.has_bom:
        return []
    matrix_block = _has_reference_matrix(spec.text)
    closure_doc = repo.document(feature.closure)
    if active and matrix_block is None:
        return []  # a legacy feature: no closure evidence is required
    if not closure_doc.exists:
        if not active or matrix_block is None:
            return []
        return [_missing(repo, feature, matrix_block)]
    if closure_doc.text is None:
        return []  # unreadable: the artifact finding is the documents check's
    severity = None if active else Severity.WARNING
    if closure_doc.has_bom:
        # JSON.parse refuses the byte-order mark the file starts with.
        message = "closure.json is not valid JSON: Unexpected token '\ufeff' (a UTF-8 byte-order mark)"
        return [Finding("CLOSURE_MANIFEST_INVALID", message, feature.closure, Span(0, 0), severity=severity)]
    manifest = parse_closure(closure_doc.text)
    if not manifest.json.ok:
        err = manifest.json.errors[0]
        return [
            Finding(
                "CLOSURE_MANIFEST_INVALID",
                f"closure.json is not valid JSON: {err.message}",
                feature.closure,
                err.span,
                severity=severity,
            )
        ]
    out = _schema_findings(feature, closure_doc.text)
    if active and manifest.truthy:
        out.extend(_freshness_findings(repo, feature, manifest))
    out.extend(_contradiction_findings(repo, feature, manifest, severity))
    return out


def _missing(repo: GemstackRepo, feature: Feature, matrix: ReferenceBlock) -> Finding:
    state = repo.state()
    related = []
    if state is not None and state.active_spec is not None:
        related.append(Related(STATE_PATH, state.active_spec.span, "the active feature, whose closure is checked"))
    shown = state.active_spec.value if state is not None and state.active_spec is not None else feature.path
    return Finding(
        "CLOSURE_MANIFEST_MISSING",
        f'closure.json does not exist in {shown}. Run "gemstack collect" to produce the mechanical evidence.',
        feature.spec,
        matrix.open_span,
        subject="closure.json",
        phase="closure",
        related=tuple(related),
        data={"closure": feature.closure},
    )


@per_text
def _schema_issues(text: str) -> tuple[SchemaIssue, ...]:
    """closure.json's schema errors (memoised by text)."""
    return tuple(schema_issues(parse_closure(text).root, load_schema(SCHEMA_NAME)))


def _schema_findings(feature: Feature, text: str) -> list[Finding]:
    out = []
    for issue in _schema_issues(text):
        where = ".".join(str(p) for p in issue.path) or "root"
        out.append(
            Finding(
                "CLOSURE_MANIFEST_INVALID",
                f"closure.json does not match the gemstack-closure v1 schema at {where}: {issue.message}",
                feature.closure,
                issue.span,
                severity=Severity.WARNING,
                data={"schema": True},
            )
        )
    return out


def _node_span(manifest: ClosureManifest, *paths: Sequence[str]) -> Span | None:
    for path in paths:
        node = manifest.member(*path)
        if node is not None:
            return node.span
    root = manifest.root
    return root.span if root is not None else None


def _freshness_findings(repo: GemstackRepo, feature: Feature, manifest: ClosureManifest) -> list[Finding]:
    recorded_context = manifest.member("closure_context")
    try:
        fresh = compute_closure_context(
            repo, feature, recorded_context if isinstance(recorded_context, JsonObject) else None
        )
    except ContextUnavailable:
        return []
    recorded = manifest.recorded_hash
    if recorded != fresh.hash:
        shown = recorded[:12] if recorded else "none"
        return [
            Finding(
                "CLOSURE_EVIDENCE_STALE",
                "The closure evidence is out of date with the project's current state. "
                f'Run "gemstack collect" again. (Recorded: {shown}..., Current: {fresh.hash[:12]}...)',
                feature.closure,
                _node_span(manifest, ("closure_context", "closure_context_hash"), ("closure_context",)),
                subject="closure_context_hash",
                phase="closure",
                related=tuple(_repository_changes(feature, manifest, fresh.repository)),
                data={"recorded": recorded, "actual": fresh.hash, "context": dict(fresh.context)},
            )
        ]
    status = manifest.status
    if status in VERIFIED_STATUSES:
        return []
    return [
        Finding(
            "CLOSURE_NOT_VERIFIED",
            f'The manifest status is "{manifest.shown_status}". Blockers: {manifest.blockers_json}',
            feature.closure,
            _node_span(manifest, ("status",)),
            subject="status",
            phase="closure",
            data={"status": status},
        )
    ]


def _repository_changes(feature: Feature, manifest: ClosureManifest, now: RepositoryState) -> list[Related]:
    """Where the recorded Git state differs from today's (the usual reason for staleness)."""
    out = []
    commit = manifest.member("closure_context", "git_commit")
    if isinstance(commit, JsonString) and now.commit != commit.value:
        head = now.commit[:12] if now.commit else "unknown"
        out.append(
            Related(feature.closure, commit.span, f"collected at commit {commit.value[:12]}; HEAD is {head} now")
        )
    clean = manifest.member("closure_context", "working_tree_clean")
    if isinstance(clean, JsonBool) and now.working_tree_clean is not None and clean.value != now.working_tree_clean:
        was = "clean" if clean.value else "dirty"
        is_now = "clean" if now.working_tree_clean else "dirty"
        out.append(
            Related(feature.closure, clean.span, f"the working tree was {was} at collection; it is {is_now} now")
        )
    return out


def _contradiction_findings(
    repo: GemstackRepo, feature: Feature, manifest: ClosureManifest, severity: Severity | None
) -> list[Finding]:
    """CLOSURE_EVIDENCE_CONTRADICTED: a VERIFIED closure that its own feature contradicts."""
    status = manifest.status
    status_node = manifest.member("status")
    if status not in VERIFIED_STATUSES or status_node is None:
        return []
    out: list[Finding] = []
    tasks_doc = repo.document(feature.tasks)
    if tasks_doc.text is not None:
        open_tasks = [t for t in parse_tasks(tasks_doc.text).tasks if not t.done]
        if open_tasks:
            names = ", ".join(t.id for t in open_tasks[:10]) + (", ..." if len(open_tasks) > 10 else "")
            out.append(
                Finding(
                    "CLOSURE_EVIDENCE_CONTRADICTED",
                    f'closure.json says "{status}" but {len(open_tasks)} task(s) of tasks.md are not checked: {names}.',
                    feature.closure,
                    status_node.span,
                    severity=severity,
                    subject="tasks",
                    phase="closure",
                    related=tuple(
                        Related(feature.tasks, t.checkbox_span, f"{t.id} is not checked") for t in open_tasks[:20]
                    ),
                    data={"open_tasks": [t.id for t in open_tasks]},
                )
            )
    summary = manifest.member("canonical_summary")
    if isinstance(summary, JsonObject):
        total, passed = summary.get("required_total"), summary.get("required_passed")
        if isinstance(total, JsonNumber) and isinstance(passed, JsonNumber) and passed.value < total.value:
            p_value, t_value = passed.value, total.value
            out.append(
                Finding(
                    "CLOSURE_EVIDENCE_CONTRADICTED",
                    f'closure.json says "{status}" but only {p_value} of its {t_value} required canonical tests '
                    "passed.",
                    feature.closure,
                    passed.span,
                    severity=severity,
                    subject="canonical_summary",
                    phase="closure",
                    related=(Related(feature.closure, status_node.span, f'status "{status}"'),),
                )
            )
    named = manifest.member("feature")
    if isinstance(named, JsonString) and named.value:
        named_feature = repo.feature_of(named.value.strip().rstrip("/").removeprefix("./"))
        if named_feature is not None and named_feature.name != feature.name:
            out.append(
                Finding(
                    "CLOSURE_EVIDENCE_CONTRADICTED",
                    f'closure.json of {feature.path} records the evidence of another feature, "{named.value}".',
                    feature.closure,
                    named.span,
                    severity=severity,
                    subject="feature",
                    phase="closure",
                )
            )
    return out


def check_repo(repo: GemstackRepo, options: AnalysisOptions) -> Iterable[Finding]:
    """Every closure finding of the repository: each feature's, the active one as the reference checks it."""
    active = repo.active_feature()
    out: list[Finding] = []
    for feature in repo.features():
        out.extend(feature_closure_findings(repo, feature, active is not None and feature.name == active.name))
    return out


__all__ = [
    "ClosureContext",
    "ClosureManifest",
    "ContextUnavailable",
    "aggregate_hash",
    "check_repo",
    "closure_context_hash",
    "compute_closure_context",
    "feature_closure_findings",
    "parse_closure",
]
