"""Findings and the one catalogue of finding codes.

A ``Finding`` is what every check produces: a code from ``CATALOGUE``, a message, the
repository-relative file it concerns and the narrowest span that explains it, plus the fixes
an editor can offer (so that a code action never re-runs analysis).
"""

from __future__ import annotations

import enum
import functools
import hashlib
import json
import traceback
from collections.abc import Callable, Iterable, Mapping
from dataclasses import field, replace
from pathlib import Path
from typing import Any

from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jscompat import json_stringify
from gemstack_lsp.core.redact import looks_secret, redact
from gemstack_lsp.core.text import Span, utf8

#: The finding reference shipped inside the package (rendered from this catalogue by
#: ``render_catalogue_markdown``); diagnostics link to its anchors, which works offline.
DOCS_PATH = Path(__file__).resolve().parent.parent / "docs" / "findings.md"
DOCS_URL = DOCS_PATH.as_uri()


class Severity(enum.Enum):
    """Gemstack severities. ``lsp_name`` is the word used in JSON output and by LSP."""

    BLOCKER = "BLOCKER"
    WARNING = "WARNING"
    INFO = "INFO"
    HINT = "HINT"

    @property
    def lsp_name(self) -> str:
        return {"BLOCKER": "error", "WARNING": "warning", "INFO": "information", "HINT": "hint"}[self.value]

    @property
    def rank(self) -> int:
        """1 for the most severe, as LSP's ``DiagnosticSeverity`` numbers them."""
        return {"BLOCKER": 1, "WARNING": 2, "INFO": 3, "HINT": 4}[self.value]


@record
class CodeInfo:
    """What the catalogue knows of one finding code."""

    code: str
    severity: Severity
    waivable: bool
    summary: str
    explanation: str
    family: str

    @property
    def docs_url(self) -> str:
        return f"{DOCS_URL}#{self.code.lower()}"


@record
class TextEdit:
    """Replace ``span`` of the file at ``path`` with ``new_text``."""

    path: str
    span: Span
    new_text: str


@record
class Fix:
    """A remedy an editor can offer: workspace edits, a command to run, or both.

    ``command`` names a ``gemstack.*`` command (``gemstack.regenerateCapsule``...) and
    ``arguments`` are JSON-compatible values.
    """

    title: str
    edits: tuple[TextEdit, ...] = ()
    command: str | None = None
    arguments: tuple[Any, ...] = ()
    preferred: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "title", redact(self.title))

    @property
    def spreads_secret(self) -> bool:
        """True when applying it would copy a secret-looking value somewhere (never offered)."""
        return any(looks_secret(e.new_text) for e in self.edits) or any(looks_secret(str(a)) for a in self.arguments)


@record
class Related:
    """Another place that explains a finding (the declaration a redeclaration contradicts)."""

    path: str
    span: Span | None
    message: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "message", redact(self.message))


@record
class Finding:
    """One problem, at one place.

    ``path`` is repository-relative POSIX; ``span`` indexes the decoded text of that file
    (``None`` means the file as a whole, shown on its first line). ``subject`` is what the
    finding is about (a contract, test, provider or action id) and fills the ``contractId`` slot
    of the reference fingerprint; ``phase`` fills its ``phase`` slot.
    """

    code: str
    message: str
    path: str
    span: Span | None = None
    severity: Severity | None = None
    subject: str | None = None
    phase: str | None = None
    fixes: tuple[Fix, ...] = ()
    related: tuple[Related, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        # The one place every finding passes: no message, subject or fix quotes a secret,
        # whichever output (text, JSON, SARIF, diagnostics, hovers) shows it later.
        object.__setattr__(self, "message", redact(self.message))
        if self.subject is not None:
            object.__setattr__(self, "subject", redact(self.subject))
        if any(fix.spreads_secret for fix in self.fixes):
            object.__setattr__(self, "fixes", tuple(fix for fix in self.fixes if not fix.spreads_secret))

    @property
    def info(self) -> CodeInfo:
        return code_info(self.code)

    @property
    def effective_severity(self) -> Severity:
        return self.severity if self.severity is not None else self.info.severity

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.code, self.subject, self.phase, self.path)

    def with_fixes(self, *fixes: Fix) -> Finding:
        return replace(self, fixes=self.fixes + fixes)


@functools.lru_cache(maxsize=8192)
def fingerprint(code: str | None, contract_id: str | None, phase: str | None, location: str | None) -> str:
    """The reference fingerprint: sha256 of the compact JSON ``{code, contractId, phase, location}``.
    Remembered (a pure function of four strings): the same findings are fingerprinted again at
    every analysis, by the policy and by the conversion to diagnostics."""
    loc = location.replace("\\", "/") if location else None
    payload = {
        "code": code or "UNKNOWN_ERROR",
        "contractId": contract_id if contract_id is not None else None,
        "phase": phase or "unknown",
        "location": loc,
    }
    if all(v is None or v.isascii() for v in payload.values()):
        # Python's compact JSON of ASCII strings is JavaScript's, byte for byte (the same
        # escapes): the C encoder writes it.
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    else:
        text = json_stringify(payload)
    return hashlib.sha256(utf8(text)).hexdigest()


def _c(code: str, severity: Severity, waivable: bool, family: str, summary: str, explanation: str) -> CodeInfo:
    return CodeInfo(code, severity, waivable, summary, explanation, family)


B, W, INF = Severity.BLOCKER, Severity.WARNING, Severity.INFO

_ENTRIES: tuple[CodeInfo, ...] = (
    # --- Context capsule (Upgrade D, section 28) -------------------------------------------
    _c(
        "CONTEXT_CAPSULE_MISSING",
        W,
        False,
        "capsule",
        "The feature has no context capsule.",
        "A feature that opts into Upgrade D must carry specs/<feature>/context-capsule.json. "
        "Run `gemstack-lsp context generate` (or the editor's Regenerate action) to derive it from the sources.",
    ),
    _c(
        "CONTEXT_CAPSULE_INVALID",
        B,
        False,
        "capsule",
        "The context capsule is not valid JSON or fails its schema.",
        "The capsule could not be parsed, or its schema_version or shape is not context-capsule v1. "
        "A capsule is derived data: regenerate it rather than editing it by hand.",
    ),
    _c(
        "CONTEXT_CAPSULE_STALE",
        B,
        False,
        "capsule",
        "A source changed since the capsule was generated.",
        "A recorded source file (spec.md, plan.md, tasks.md, state.json, closure.json or a ledger) no longer "
        "hashes to the value the capsule recorded, a new source appeared, or source_set_hash does not reconcile. "
        "Regenerate the capsule. Reported once per capsule, on the spec's title; an error for the active "
        "feature, a warning for a shipped or inactive one.",
    ),
    _c(
        "CONTEXT_CAPSULE_SOURCE_MISMATCH",
        B,
        False,
        "capsule",
        "A recorded source file is missing.",
        "The capsule records a source that no longer exists on disk (or a mandatory source is absent). "
        "Regenerate the capsule from the current sources.",
    ),
    _c(
        "CONTEXT_CAPSULE_SECRET_DETECTED",
        B,
        False,
        "capsule",
        "A credential key or secret pattern was found.",
        "Capsules must never carry credentials. A forbidden property name (apiKey, token, password, ...) or a "
        "value that looks like an access key, bearer token or private key was found. The value is never shown. "
        "As a warning from `context generate`: derived prose (a contract description, a deferred item, an open "
        "question, a title) matched a pattern and was left out of the capsule; reword it to keep it.",
    ),
    _c(
        "CONTEXT_CAPSULE_INVARIANT_DROPPED",
        B,
        False,
        "capsule",
        "A normative MUST/MUST NOT rule is missing from the capsule.",
        "Semantic constraint losslessness: every normative line of spec.md must appear among "
        "canonical_invariants. A rule in the spec has no counterpart in the capsule.",
    ),
    _c(
        "CONTEXT_CAPSULE_TOO_LARGE",
        B,
        False,
        "capsule",
        "The capsule exceeds the 64 KiB hard limit.",
        "After condensing priority 3 and 2 content the capsule is still above 65,536 bytes. Priority 1 content "
        "(invariants, contracts, acceptance ids) is never dropped, so the feature must be split or its spec trimmed.",
    ),
    _c(
        "CONTEXT_CAPSULE_AUTHORITY_CONFLICT",
        B,
        False,
        "capsule",
        "The capsule claims what its sources contradict.",
        "The capsule states a frozen contract, acceptance matrix, task state, lifecycle phase or active feature "
        "that differs from the unchanged source it was derived from, or gives a recorded source a role its path "
        "contradicts (spec.md labelled PLAN). Sources win; regenerate the capsule.",
    ),
    _c(
        "CONTEXT_CAPSULE_LEGACY",
        INF,
        True,
        "capsule",
        "No context capsule and none required (legacy mode).",
        "The feature neither has a capsule nor opts into Upgrade D: it runs in legacy, context-free mode.",
    ),
    # --- Cost and provider safety (Upgrade C, section 14) -----------------------------------
    _c(
        "UNDECLARED_BILLABLE_ACTION",
        B,
        False,
        "cost",
        "The action is not declared in spec.md.",
        "Every billable or provider action a plan or task invokes must be declared in the spec's "
        "gemstack-billable-actions block.",
    ),
    _c(
        "BILLABLE_ACTION_UNAUTHORIZED",
        B,
        False,
        "cost",
        "The action needs a spending authorization that was not granted.",
        "A billable action in this environment tier needs explicit authorization (--allow-billable in "
        "development, a spending token elsewhere).",
    ),
    _c(
        "UNKNOWN_COST_CLASSIFICATION",
        B,
        False,
        "cost",
        "The cost state is UNKNOWN or missing from the ledger.",
        "No cost-ledger entry classifies this provider and capability, or it is UNKNOWN. UNKNOWN is never "
        "treated as FREE: add a ledger entry with a verified cost_state.",
    ),
    _c(
        "UNKNOWN_PROVIDER_IDENTITY",
        B,
        False,
        "cost",
        "The provider id is not registered.",
        "The provider is not declared in any registry (ledger providers, .gemstack/providers.json, "
        "gemstack-capabilities blocks), or its identity is ambiguous.",
    ),
    _c(
        "PROVIDER_CAPABILITY_UNDECLARED",
        B,
        False,
        "cost",
        "The provider does not declare the capability.",
        "The capability requested from this provider is not declared for it in the spec or plan.",
    ),
    _c(
        "PROVIDER_CAPABILITY_UNSUPPORTED",
        B,
        False,
        "cost",
        "The adapter lacks support for the declared capability.",
        "The provider's adapter is declared, but without implementation support for this capability.",
    ),
    _c(
        "ENV_COMMERCIAL_DENIED",
        B,
        False,
        "cost",
        "Commercial provider action in the test or ci tier.",
        "The test and ci environment tiers deny commercial provider actions whatever credentials are present.",
    ),
    _c(
        "PROVIDER_FALLBACK_UNAUTHORIZED",
        B,
        False,
        "cost",
        "A fallback provider failed its own gate evaluation.",
        "Every fallback candidate is re-evaluated by both gates; the chain stops at the first unauthorized one.",
    ),
    _c(
        "STALE_PROVIDER_COST_ASSUMPTION",
        W,
        True,
        "cost",
        "The ledger's cost estimate is older than the freshness limit.",
        "The ledger entry's freshness_date is missing or older than the maximum age (90 days by default). "
        "Re-verify the provider's pricing and update freshness_date.",
    ),
    _c(
        "BUDGET_THRESHOLD_EXCEEDED",
        B,
        False,
        "cost",
        "The estimated cost exceeds the configured budget.",
        "units x estimated_unit_cost is above the spending limit for this action.",
    ),
    _c(
        "MOCK_PROVIDER_ESCAPE_VIOLATION",
        B,
        False,
        "cost",
        "A MOCK provider would reach a remote endpoint.",
        "Providers declared as MOCK must stay local; a remote URL or network invocation breaks mock integrity.",
    ),
    _c(
        "COST_LEDGER_INVALID",
        B,
        False,
        "cost",
        "cost-ledger.json fails its schema or JSON syntax.",
        "The cost ledger must be valid JSON matching cost-ledger v1, and must not contain credentials.",
    ),
    _c(
        "PROVIDER_DISALLOWED_IN_ENV",
        B,
        False,
        "cost",
        "The provider is not allowed in this environment tier.",
        'The test and ci tiers run only MOCK providers (seed section 11, "Mock Required"): the '
        "ProviderCapabilityGate refuses a LOCAL provider there (a commercial one gets ENV_COMMERCIAL_DENIED). "
        "A gate decision (gate evaluate, hover), not a finding: it depends on the tier of the run. The reference "
        "never produces it.",
    ),
    _c(
        "LEGACY_NO_PROVIDERS_DECLARED",
        INF,
        True,
        "cost",
        "No providers are declared (legacy repository).",
        "The repository declares no providers or billable actions; provider safety gates have nothing to check.",
    ),
    _c(
        "PROVIDER_FALLBACK_TO_BILLABLE",
        W,
        True,
        "cost",
        "A fallback chain moves from a free or local provider to a billable one.",
        "When the first provider fails the chain would spend money; make sure that is intended and authorized.",
    ),
    _c(
        "PROVIDER_DECLARATION_CONFLICT",
        B,
        False,
        "cost",
        "The same provider is declared differently in two registries.",
        "Two registries (ledger providers, .gemstack/providers.json, gemstack-capabilities) disagree on a "
        "provider's type or capabilities.",
    ),
    _c(
        "BILLABLE_ACTIONS_INVALID",
        B,
        False,
        "cost",
        "A gemstack-billable-actions block is malformed.",
        "The block must be a JSON array of actions "
        "{id, description, category, capability_id, providers, side_effect?}.",
    ),
    _c(
        "CAPABILITIES_INVALID",
        B,
        False,
        "cost",
        "A gemstack-capabilities block is malformed.",
        "The block must be a JSON array of providers {provider_id, type, capabilities, adapter?}.",
    ),
    _c(
        "PROVIDER_REGISTRY_INVALID",
        B,
        False,
        "cost",
        ".gemstack/providers.json fails its schema or JSON syntax.",
        "The provider registry must be a JSON object whose providers map has the ledger's provider shape "
        "(type, capabilities as a list or a map, adapter?).",
    ),
    # --- Contracts, test matrix, bindings, gates, tasks (reference section 9) ---------------
    _c(
        "CONTRACT_PARSE_ERROR",
        B,
        False,
        "contracts",
        "The gemstack-contracts block cannot be parsed.",
        "Exactly one gemstack-contracts block of strict JSON is permitted per document.",
    ),
    _c(
        "CONTRACT_INVALID_SHAPE",
        B,
        False,
        "contracts",
        "A frozen contract has the wrong shape.",
        "Contracts are a JSON array of objects with a string id, a known type and the fields that type needs.",
    ),
    _c(
        "CONTRACT_DUPLICATE_ID",
        B,
        False,
        "contracts",
        "Two contracts share an id.",
        "Contract ids are unique within a block.",
    ),
    _c(
        "CONTRACT_UNKNOWN_TYPE",
        B,
        False,
        "contracts",
        "The contract type is not one Gemstack knows.",
        "Types: ENUM_SET, IDENTITY_TUPLE, PROVENANCE_RULE, BOOLEAN_INVARIANT, BOUNDARY, ROADMAP_LIMIT.",
    ),
    _c(
        "FROZEN_CONTRACT_VIOLATION",
        B,
        True,
        "contracts",
        "plan.md or tasks.md contradicts a frozen contract.",
        "A downstream phase redeclares a contract of spec.md with another type or value.",
    ),
    _c(
        "FROZEN_ARTIFACT_CHANGED",
        B,
        False,
        "contracts",
        "A frozen phase artifact changed after its hash was recorded.",
        "state.json records a phase hash that the artifact no longer matches. Regenerating the context "
        "capsule does not re-freeze the phase: undo the change, or approve the phase again in the Gemstack "
        "workflow so that it records the new hash in .gemstack/state.json (phase_hashes).",
    ),
    _c(
        "TEST_MATRIX_PARSE_ERROR",
        B,
        False,
        "matrix",
        "The gemstack-test-matrix block cannot be parsed.",
        "Exactly one gemstack-test-matrix block of strict JSON is permitted in spec.md.",
    ),
    _c(
        "TEST_MATRIX_INVALID_SHAPE",
        B,
        False,
        "matrix",
        "A test-matrix entry has the wrong shape.",
        "Entries are objects with exactly id, category, layer, description, pass_criteria and gate.",
    ),
    _c(
        "TEST_MATRIX_DUPLICATE_ID",
        B,
        False,
        "matrix",
        "Two test-matrix entries share an id.",
        "Test ids are unique within the matrix.",
    ),
    _c(
        "BINDINGS_PARSE_ERROR",
        B,
        False,
        "bindings",
        "The gemstack-test-bindings block is malformed.",
        "Bindings are a JSON array of {test_id, runner?, file} with a repository-relative file.",
    ),
    _c(
        "DUPLICATE_TEST_BINDING",
        B,
        False,
        "bindings",
        "A test id is bound twice.",
        "Each canonical test id is bound to one test file.",
    ),
    _c(
        "GATES_PARSE_ERROR",
        B,
        False,
        "gates",
        "The gemstack-closure-gates block is malformed.",
        "Gates are a JSON array of {id, type: PACKAGE_SCRIPT, script, requirement, waivable}.",
    ),
    _c(
        "TASK_VALIDATION_MISSING",
        B,
        False,
        "tasks",
        "A task does not declare its validation.",
        "Each task must carry <!-- gemstack:validation_required=true|false --> and, when true, at least one test.",
    ),
    _c(
        "CLOSURE_MANIFEST_MISSING",
        B,
        False,
        "closure",
        "The active feature has no closure.json.",
        "The active feature's spec.md declares a gemstack-test-matrix, so `gemstack verify` requires its "
        "mechanical closure evidence, specs/<feature>/closure.json; run `gemstack collect`. Reported on the "
        "spec's test matrix.",
    ),
    _c(
        "CLOSURE_MANIFEST_INVALID",
        B,
        False,
        "closure",
        "closure.json cannot be parsed, or does not match its schema.",
        "closure.json must be valid JSON (an error: `gemstack verify` stops there). A manifest that parses but "
        "does not match the gemstack-closure v1 schema is a warning: the reference reads only its "
        "closure_context and status.",
    ),
    _c(
        "CLOSURE_EVIDENCE_STALE",
        B,
        False,
        "closure",
        "The closure evidence no longer matches the feature.",
        "closure_context.closure_context_hash differs from the one recomputed now from spec.md, plan.md, "
        "tasks.md, the acceptance matrix, the bound test files, the tasks' files, package.json and the Git "
        "commit and cleanliness of the working tree. Any new commit makes committed evidence stale; run "
        "`gemstack collect` again. Checked for the active feature only.",
    ),
    _c(
        "CLOSURE_NOT_VERIFIED",
        B,
        False,
        "closure",
        "closure.json is fresh but not VERIFIED.",
        "The evidence matches the feature but its status is neither VERIFIED nor VERIFIED_WITH_EXCEPTIONS "
        "(collect writes BLOCKED, with the blockers). Checked for the active feature only.",
    ),
    _c(
        "CLOSURE_EVIDENCE_CONTRADICTED",
        B,
        False,
        "closure",
        "closure.json says VERIFIED but its feature says otherwise.",
        "A VERIFIED closure while tasks.md still has unchecked tasks, while its own canonical_summary counts "
        "fewer passed than required tests, or recording another feature's evidence. An error for the active "
        "feature, a warning for the others (this project's check; the reference has none).",
    ),
    # --- Documents and repository model (this project) --------------------------------------
    _c(
        "FENCE_UNSEEN_BY_REFERENCE",
        W,
        True,
        "documents",
        "The reference gemstack CLI would not see this block.",
        "The reference only recognises a block whose opening line is exactly ```gemstack-<name> in column 0 "
        "and which closes with a bare ``` line. This block is indented, uses tildes or a longer fence, carries "
        "extra info, or is unterminated, so `gemstack verify` would ignore or misread it.",
    ),
    _c(
        "JSON_SYNTAX_ERROR",
        B,
        False,
        "documents",
        "A JSON file Gemstack reads is not valid JSON.",
        "At the offending token of package.json (a warning, as the reference's verify warns) and "
        ".gemstack/manifest.json: strict JSON, no comments, no trailing "
        "commas, no NaN or Infinity, double-quoted strings, no byte-order mark. Files with a code of their own "
        "report their syntax errors under it: a block's parse code (CONTRACT_PARSE_ERROR, ...), STATE_INVALID, "
        "COST_LEDGER_INVALID, PROVIDER_REGISTRY_INVALID, CONTEXT_CAPSULE_INVALID, CLOSURE_MANIFEST_INVALID, "
        "AMENDMENT_FILE_INVALID.",
    ),
    _c(
        "JSON_DUPLICATE_KEY",
        W,
        False,
        "documents",
        "An object repeats a key.",
        "JSON.parse keeps the last value of a repeated key; the earlier one is silently lost.",
    ),
    _c(
        "ARTIFACT_ENCODING_INVALID",
        B,
        False,
        "documents",
        "The file is not plain UTF-8 without a BOM.",
        "Gemstack phase artifacts must be UTF-8 without a byte-order mark; the reference refuses a BOM and "
        "invalid bytes change the file's hash.",
    ),
    _c(
        "ARTIFACT_UNREADABLE",
        B,
        False,
        "documents",
        "The file cannot be read.",
        "The file is missing, a directory, a symlink that leaves the repository, or too large to analyse.",
    ),
    _c(
        "STATE_INVALID",
        B,
        False,
        "documents",
        ".gemstack/state.json is malformed.",
        "An error when state.json is not valid JSON (the reference cannot read it and falls back to its defaults) "
        "or active_spec leaves the repository. A hint when a field this tool reads holds a value of the wrong "
        "type (it is ignored). Gemstack never type-checks state.json: null in any field and unknown fields are "
        "normal and draw no finding.",
    ),
    _c(
        "STATE_ACTIVE_SPEC_MISSING",
        W,
        False,
        "documents",
        "state.json names an active spec that does not exist.",
        "The active_spec folder has no spec.md.",
    ),
    _c(
        "PATH_LOOKS_SECRET",
        W,
        True,
        "documents",
        "A feature folder's name looks like a secret.",
        "The folder name matches a secret pattern of the capsule or ledger audit. Paths are never redacted "
        "(a URI or location must name the real file, and a folder that merely looks like a key keeps working), "
        "so the name would be printed with every finding of the feature. The message does not quote it; rename "
        "the folder if it holds a real credential.",
    ),
    _c(
        "GEMSTACK_INTERNAL_ERROR",
        B,
        False,
        "documents",
        "gemstack-lsp failed while checking this file.",
        "A check raised an unexpected error on this file. The other files and features were still checked; "
        "`gemstack-lsp check` exits 2. Please report this with the file.",
    ),
    # --- Swarm manifests and visual QA (Gemstack 1.4+, verify stages 5.3 and 5.4) ---
    # (entries of area 'swarm' go below this line)
    _c(
        "SWARM_UNREADABLE",
        B,
        False,
        "swarm",
        "swarm.json exists but cannot be read.",
        "specs/<feature>/swarm.json (the Gemstack 1.4 swarm manifest) is a directory, a symbolic link that leaves "
        "the repository, or too large to analyse. `gemstack verify` (stage 5.3) reports the same code. Checked for "
        "the active feature as upstream does (an error); for any other feature, a warning.",
    ),
    _c(
        "SWARM_INVALID_SCHEMA",
        B,
        False,
        "swarm",
        "swarm.json is not a valid swarm manifest.",
        'The manifest must be JSON with an object root, version absent or "1.0.0", a non-empty string '
        "feature_id and a waves array (the reference stops at the first of these; every one is listed here). "
        "Also a value of a type on which upstream's `gemstack verify` stops with a TypeError: a null wave or "
        "task, a tasks or write_set that is not an array, a write_set entry, worker_id, reviewer_id or task_id "
        "that is not a string, a source_capsule_hash that is neither a string nor an array. Nothing else of the "
        "manifest is checked then.",
    ),
    _c(
        "SWARM_AUTHORITY_CONFLICT",
        B,
        False,
        "swarm",
        "The swarm manifest claims authority over the specifications.",
        "overrides_spec or alter_contracts is true. A swarm is subordinate to spec.md, plan.md, tasks.md and the "
        "frozen contracts (contract swarm-authority-subordinate).",
    ),
    _c(
        "SWARM_WORKER_LIMIT_EXCEEDED",
        B,
        False,
        "swarm",
        "A wave has more workers than allowed.",
        "A wave names more distinct worker_id values than max_workers (4 when unset) or than the hard limit of 8. "
        "Reported on the first worker over the limit.",
    ),
    _c(
        "SWARM_RECURSIVE_SPAWN_DENIED",
        B,
        False,
        "swarm",
        "A worker claims to have spawned child workers.",
        "spawned_children is a non-empty list (or string): recursive subagent spawning is prohibited.",
    ),
    _c(
        "SWARM_WRITE_COLLISION",
        B,
        False,
        "swarm",
        "Two tasks of one wave write the same file.",
        "Concurrent tasks must declare disjoint write sets (contract exclusive-task-write-ownership). A path "
        "claimed twice in one wave (backslashes read as slashes, the same task included) is a collision; move "
        "one task to a later wave.",
    ),
    _c(
        "SWARM_ASSIGNMENT_INVALID",
        B,
        False,
        "swarm",
        "A task's worker id or role is invalid.",
        "Each task needs a non-empty string worker_id and an assigned_role among implementer, reviewer, "
        "security-auditor, coordinator.",
    ),
    _c(
        "SWARM_SELF_REVIEW_DETECTED",
        B,
        False,
        "swarm",
        "A task is reviewed by its own author.",
        "review.reviewer_id equals the task's worker_id (trimmed, ignoring case). The author of a task cannot "
        "review it (contract author-not-reviewer, not waivable).",
    ),
    _c(
        "SWARM_TASK_ORPHANED",
        B,
        False,
        "swarm",
        "A swarm task is not declared in tasks.md.",
        "tasks.md declares task ids (the reference reads the first TASK-..., UE-T000 or T000 of each line) but not "
        "this task_id. Checked only when tasks.md exists and declares at least one id.",
    ),
    _c(
        "SWARM_CONTEXT_STALE",
        B,
        False,
        "swarm",
        "swarm.json was planned from another context capsule.",
        "source_capsule_hash is not the file hash of the feature's context-capsule.json (line endings normalised, "
        "SHA-256). Regenerating the capsule makes it stale: upstream `gemstack verify` fails with this code until "
        "the manifest records the new hash. Upstream has no command that updates it (`gemstack swarm plan` writes a "
        "placeholder); the quick fix records the current capsule's hash, and changes nothing else. Checked only "
        "when the feature has a capsule.",
    ),
    _c(
        "SWARM_WRITE_SET_VIOLATION",
        W,
        False,
        "swarm",
        "A read-only role declares files to write.",
        "A task whose assigned_role is reviewer or security-auditor lists files in its write_set; those roles are "
        "strictly read-only. A warning of this project: the reference applies the rule to the files a worker "
        "modified, at run time, and its verify does not check it.",
    ),
    _c(
        "VQA_UNREADABLE",
        B,
        False,
        "swarm",
        "visual-qa.json or a baseline image cannot be read.",
        "specs/<feature>/visual-qa.json (Gemstack 1.4 visual QA) cannot be read, or a baseline image cannot be "
        "hashed: a file starting with a UTF-8 byte-order mark (upstream's hasher refuses it and verify stops), or "
        "one too large to analyse (a warning: its hash is not verified).",
    ),
    _c(
        "VQA_INVALID_MANIFEST",
        B,
        False,
        "swarm",
        "visual-qa.json is not a valid visual QA manifest.",
        'The manifest must be JSON with an object root, version absent or "1.0.0", a non-empty string '
        "feature_id and a scenarios array; each scenario needs a unique scenario_id, a route and a viewport "
        "object. Also a baseline image_path or image_sha256 that is not a string (upstream's verify stops with "
        "a TypeError). Nothing else is checked then.",
    ),
    _c(
        "VQA_INVALID_VIEWPORT",
        B,
        False,
        "swarm",
        "A scenario's viewport is not deterministic.",
        "width and height must be positive integers and device_scale_factor, when present, a positive number "
        "(contract deterministic-viewports). Upstream's verify reports this under VQA_INVALID_MANIFEST, since its "
        "schema pass raises it; the code here is the one its validateViewport assigns.",
    ),
    _c(
        "VQA_BASELINE_MISSING",
        B,
        False,
        "swarm",
        "A scenario's baseline image is missing.",
        "The scenario declares no baseline, or baseline.image_path (relative to the repository root) does not "
        "exist or is not a file.",
    ),
    _c(
        "VQA_BASELINE_TAMPERED",
        B,
        False,
        "swarm",
        "A baseline image no longer matches its recorded hash.",
        "The image's file hash (its bytes read as UTF-8 text, line endings normalised, SHA-256, as upstream's "
        "hashFile computes it) is not baseline.image_sha256: baselines change only by explicit promotion "
        "(`gemstack vqa promote`). Also a baseline path outside the repository, which is never read.",
    ),
    # --- Amendments, memory, manifest, .gitignore, package.json scripts, rigor, spec deltas (Gemstack 2.0 verify) ---
    # (entries of area 'verify' go below this line)
    _c(
        "AMENDMENT_FILE_INVALID",
        B,
        False,
        "amendments",
        "amendments.json cannot be parsed.",
        "specs/<feature>/amendments.json is strict JSON: a list of amendment records, or one record. The "
        "reference's verify reports `[AMENDMENT_FILE_INVALID]` for the active feature and then validates none.",
    ),
    _c(
        "AMENDMENT_REJECTED",
        B,
        False,
        "amendments",
        "The active feature's amendments are rejected.",
        "At least one declared amendment fails validation (the codes are listed, each also at its own place), "
        "so the frozen findings stay errors: FROZEN_CONTRACT_VIOLATION of every contract and "
        "FROZEN_ARTIFACT_CHANGED of spec.md. Upstream prints this line with the first failure's code.",
    ),
    _c(
        "UNAUTHORIZED_CONTRACT_MUTATION",
        B,
        False,
        "amendments",
        "A frozen contract changed without an amendment naming it.",
        "Once amendments are declared, every contract of spec.md that plan.md's gemstack-contracts modifies "
        "(compared as JSON.stringify writes them) or drops must be named by an amendment's contract_id.",
    ),
    _c(
        "AMENDMENT_MALFORMED",
        B,
        False,
        "amendments",
        "An amendment lacks a required field.",
        "Each amendment needs amendment_id, contract_id, version, reason, approved_by and signature, each "
        "non-empty (0 counts as present, as in the reference).",
    ),
    _c(
        "AMENDMENT_SIGNATURE_INVALID",
        B,
        False,
        "amendments",
        "An amendment's signature does not match it.",
        "The signature is the hex HMAC-SHA256, keyed with GEMSTACK_AMENDMENT_SECRET, of "
        "amendment_id|contract_id|version|reason|approved_by (reason and approver trimmed); without a secret, "
        "the hex SHA-256 of the same text. Changing any of these fields invalidates it.",
    ),
    _c(
        "AMENDMENT_SECRET_MISSING",
        B,
        False,
        "amendments",
        "An amendment cannot be checked: no signing secret is set.",
        "The signature is not the unkeyed SHA-256 of the amendment, and GEMSTACK_AMENDMENT_SECRET is not set, "
        "so it cannot be checked as an HMAC-SHA256: set the secret in the environment of gemstack-lsp check "
        "and of the editor. The secret is never shown.",
    ),
    _c(
        "AMENDMENT_REPLAY_DETECTED",
        B,
        False,
        "amendments",
        "An amendment signed for another feature.",
        "The amendment's feature_id names another feature than the folder it lies in: an amendment approved for "
        "one feature cannot authorize a change in another (Gemstack 2.0.1).",
    ),
    _c(
        "AMENDMENT_VERIFIED",
        INF,
        False,
        "amendments",
        "A signed amendment authorizes a frozen contract's change.",
        "Every amendment of the active feature is well formed and correctly signed, and every changed contract "
        "is amended. Shown on each amendment, and in place of the FROZEN_CONTRACT_VIOLATION findings of the "
        "contracts it amends (the reference stops reporting them).",
    ),
    _c(
        "FROZEN_ARTIFACT_AMENDED",
        INF,
        False,
        "amendments",
        "spec.md changed after it was frozen, authorized by a signed amendment.",
        "state.json's phase_hashes.spec no longer matches spec.md, and the active feature's amendments are "
        "verified, so the change is formally authorized (in place of FROZEN_ARTIFACT_CHANGED). plan.md and "
        "tasks.md are not covered by amendments.",
    ),
    _c(
        "INVALID_RIGOR_LEVEL",
        B,
        False,
        "rigor",
        "spec.md declares an unknown rigor level.",
        "Gemstack 2.0 rigor levels are quick, fix, feature and high-risk, declared in front matter "
        "(`rigor: fix`) or inline (`**Rigor**: fix`). Checked for the active feature, as `gemstack spec "
        "validate` does.",
    ),
    _c(
        "FIX_MISSING_REGRESSION_TEST",
        B,
        False,
        "rigor",
        "A fix declares no regression test.",
        "Rigor `fix` requires a regression test in spec.md's gemstack-test-matrix: category REGRESSION, an id "
        "containing REG, or a description that mentions a regression or how to reproduce the bug.",
    ),
    _c(
        "FEATURE_PLAN_MISSING",
        B,
        False,
        "rigor",
        "A feature-rigor spec has no plan.md.",
        "Rigor `feature` requires the three SDD artifacts: spec.md, plan.md and tasks.md (non-empty). Rigor "
        "`quick` needs none but the spec.",
    ),
    _c(
        "FEATURE_TASKS_MISSING",
        B,
        False,
        "rigor",
        "A feature-rigor spec has no tasks.md.",
        "Rigor `feature` requires the three SDD artifacts: spec.md, plan.md and tasks.md (non-empty).",
    ),
    _c(
        "HIGH_RISK_MISSING_THREAT_MODEL",
        B,
        False,
        "rigor",
        "A high-risk spec has no threat model.",
        "Rigor `high-risk` requires a `## Threat Model` (or `## Modelo de Amenazas`) section in spec.md.",
    ),
    _c(
        "HIGH_RISK_MISSING_ROLLBACK_PLAN",
        B,
        False,
        "rigor",
        "A high-risk plan has no rollback plan.",
        "Rigor `high-risk` requires a `## Rollback Plan` (or `## Plan de Rollback`) section in plan.md. (Its "
        "two human approvals live in the feature's .gemstack.json sidecar.)",
    ),
    _c(
        "HIGH_RISK_INSUFFICIENT_APPROVALS",
        B,
        False,
        "rigor",
        "A high-risk feature has fewer than two distinct human approvals.",
        "Rigor `high-risk` requires at least 2 distinct human approval signatures in the feature's "
        ".gemstack.json sidecar: `approvals: [{approver, signature, timestamp}, ...]`. An approval counts when "
        "both approver and signature are set; approvals by the same approver count once. A missing or "
        "unreadable sidecar has no approvals (as `gemstack spec validate` reads it).",
    ),
    _c(
        "DELTA_PARSE_ERROR",
        B,
        False,
        "deltas",
        "A gemstack-spec-delta block is not valid JSON.",
        "A spec delta (Gemstack 2.0) is strict JSON: {base_spec, added, modified, removed}, each of the last "
        "three with contracts, requirements and tests lists.",
    ),
    _c(
        "INVALID_DELTA_SCHEMA",
        B,
        False,
        "deltas",
        "A gemstack-spec-delta block does not hold an object.",
        "The reference refuses a delta that is not an object (null, a string, a number).",
    ),
    _c(
        "DELTA_TARGET_NOT_FOUND",
        B,
        False,
        "deltas",
        "A spec delta modifies or removes something its base spec does not have.",
        "Applied in the reference's order (removals, modifications, additions), each removed or modified "
        "contract or test id must exist in the spec base_spec names (specs/<feature>/spec.md): its "
        "gemstack-contracts and gemstack-test-matrix. Also reported when base_spec names no spec.",
    ),
    _c(
        "DELTA_ADD_CONFLICT",
        B,
        False,
        "deltas",
        "A spec delta adds an id its base spec already has.",
        "An added contract or test must have a new id; change an existing one under `modified` instead.",
    ),
    _c(
        "GEMSTACK_MANIFEST_INVALID",
        B,
        False,
        "installation",
        ".gemstack/manifest.json cannot be walked.",
        'The installation manifest `gemstack init` writes lists files as {path, checksum}. Its "files" must be '
        "a list of objects with a string path inside the repository; the reference's verify (stage 1) stops "
        "with `Error leyendo manifest.json` otherwise. Syntax errors are JSON_SYNTAX_ERROR.",
    ),
    _c(
        "GEMSTACK_FILE_MISSING",
        B,
        False,
        "installation",
        "A file gemstack init installed is missing.",
        "A path listed in .gemstack/manifest.json does not exist (verify stage 1, one error per file). "
        "Run `gemstack init` again, or restore the file.",
    ),
    _c(
        "GEMSTACK_FILES_MODIFIED",
        INF,
        False,
        "installation",
        "Files gemstack init installed were customised.",
        "The SHA-256 of these files' bytes no longer matches the checksum .gemstack/manifest.json recorded. "
        "Local customisation is allowed; `gemstack init` may overwrite it.",
    ),
    _c(
        "GITIGNORE_GEMSTACK_BLOCK_MISSING",
        W,
        True,
        "installation",
        ".gitignore has no Gemstack block.",
        "In a repository gemstack init installed, .gitignore must contain the `# Gemstack` block that keeps "
        ".gemstack/state.json and .gemstack/backups/ out of version control (verify stage 1).",
    ),
    _c(
        "ENV_FILE_PRESENT",
        W,
        True,
        "installation",
        "A .env file that .gitignore does not ignore.",
        "A .env file at the repository root usually holds credentials; verify (stage 6) warns about it. This "
        "tool warns only when .gitignore does not ignore it (the reference asks you to check that). Its "
        "content is never read.",
    ),
    _c(
        "SCRIPT_STDERR_SUPPRESSED",
        B,
        False,
        "installation",
        "A package.json script hides its errors with 2>nul.",
        "`2>nul` (or `2> nul`) in any script masks failures and is not portable between PowerShell and Bash "
        "(verify stage 6, an error). Use a cross-platform runner: `node --test <paths>` or `tsx --test <paths>`.",
    ),
    _c(
        "TEST_SCRIPT_FAILURE_IGNORED",
        W,
        True,
        "installation",
        "A test script ignores failures with || true.",
        "A package.json script whose name contains `test` and whose command contains `|| true` always "
        "succeeds, so failing tests pass (verify stage 6, a warning).",
    ),
    _c(
        "HANDOFF_MISSING",
        B,
        False,
        "memory",
        "handoff.md does not exist.",
        "Session memory is mandatory: handoff.md at the repository root (verify stage 2). Reported in "
        "repositories gemstack init installed (they have .gemstack/manifest.json).",
    ),
    _c(
        "HANDOFF_INCOMPLETE",
        B,
        False,
        "memory",
        "handoff.md lacks mandatory sections.",
        "handoff.md must contain the five sections `1. Objetivo`, `2. Estado actual`, `3. Archivos y cambios`, "
        "`4. Intentos fallidos` and `5. Próximos pasos` (found as plain text, as the reference looks for them).",
    ),
    _c(
        "HANDOFF_FAILED_ATTEMPTS_REMOVED",
        B,
        False,
        "memory",
        "handoff.md's failed-attempts section was removed.",
        "The section `4. Intentos fallidos` is immutable session memory (a constitution rule): what was tried "
        "and failed must never be deleted. Reported besides HANDOFF_INCOMPLETE, as the reference does.",
    ),
    _c(
        "MEMORY_UNRECORDED_COMMITS",
        W,
        True,
        "memory",
        "Recent commits are not recorded in handoff.md.",
        "Of the five newest commits (git log --oneline), these appear in handoff.md neither by abbreviated hash "
        "nor by any word of five or more letters of their subject (Gemstack 2.0 memory cross-audit).",
    ),
    _c(
        "MEMORY_GIT_AUDIT_UNAVAILABLE",
        INF,
        False,
        "memory",
        "handoff.md could not be cross-audited with git log.",
        "The repository is a Git repository but its newest commits could not be read (Git missing, no commit "
        "yet, or a repository Git refuses), so the memory cross-audit did not run. Git is asked read-only with "
        "hooks, fsmonitor, pagers, external diffs and signature checks switched off.",
    ),
    # --- Task formats and lifecycle headers the reference reads differently ---
    # (entries of area 'realrepo' go below this line)
    _c(
        "TASKS_UNREAD_BY_REFERENCE",
        INF,
        True,
        "documents",
        "The reference reads no tasks in this tasks.md.",
        "tasks.md has checklist items, but none in the one form the reference's task parser reads, so "
        "`gemstack verify`, `collect` and the capsule see 0 tasks here (no validation declarations, no test "
        "bindings, an empty tasks_state). The reference reads a task only from a list item at the start of a "
        "line, `- [ ] **T001: Title**` (the id made of letters, digits, `_` and `-`), with "
        "`<!-- gemstack:validation_required=true|false -->` and `<!-- gemstack:tests=... -->` on the lines "
        "below it. Headings such as `### [ ] T001 — Title`, numbered items such as `- [x] 1.1 Title` and ids "
        "with dots (`**T0.1: ...**`) are not read. Information only: rewrite the items in that form if the "
        "feature's tasks should count.",
    ),
    _c(
        "TASKS_LIFECYCLE_CONTRADICTED",
        W,
        True,
        "documents",
        "The lifecycle header says the tasks are complete, but boxes are unchecked.",
        "A header line of tasks.md (`**Lifecycle Status**: `TASKS_COMPLETE``, or a later phase's word such as "
        "IMPLEMENTED, VERIFIED or SHIPPED) says the work is done while task boxes below it are still `[ ]`. "
        "One of the two is wrong: tick the tasks that are done, or set the header to the phase the boxes show.",
    ),
    # --- Configuration and suppressions ---
    # (entries of area 'config' go below this line)
    _c(
        "CONFIG_INVALID",
        B,
        False,
        "config",
        "The repository's configuration file has a problem.",
        "An error when .gemstack/lsp.toml (or [tool.gemstack-lsp] in pyproject.toml) cannot be used at all: "
        "not UTF-8, not valid TOML, larger than 1 MB, nested more than 32 deep or holding a number of more "
        "than 64 digits. The editor keeps the previous valid configuration; `check` runs with the defaults. "
        "A warning for one key or value that is skipped (an unknown key, a misspelt code, a level that is not "
        "error/warning/information/hint/off, a code that cannot be silenced). See docs/configuration.md.",
    ),
    _c(
        "SUPPRESSION_INVALID",
        W,
        False,
        "config",
        "A gemstack-lsp-ignore comment cannot be used.",
        "A suppression comment must name known finding codes and give a reason: "
        "`<!-- gemstack-lsp-ignore CODE[,CODE...] reason -->`. Codes that cannot be silenced "
        "(GEMSTACK_INTERNAL_ERROR, CONTEXT_CAPSULE_SECRET_DETECTED, ARTIFACT_UNREADABLE and the suppression "
        "codes) are refused. The comment silences nothing until it is fixed.",
    ),
    _c(
        "SUPPRESSION_UNUSED",
        W,
        True,
        "config",
        "A gemstack-lsp-ignore comment silences nothing.",
        "No finding of the codes it names is reported on the line or fenced block the comment precedes (or, "
        "for the -file form, in the file): the problem was fixed, or the comment names the wrong code or "
        "stands in the wrong place. Delete it, so that a new problem there is not hidden by an old reason.",
    ),
)

CATALOGUE: Mapping[str, CodeInfo] = {e.code: e for e in _ENTRIES}

_UNKNOWN = CodeInfo("UNKNOWN_ERROR", B, False, "unknown", "Unknown finding code.", "This code is not in the catalogue.")


def code_info(code: str) -> CodeInfo:
    """The catalogue entry for ``code`` (an explicit placeholder for codes it does not know)."""
    return CATALOGUE.get(code, _UNKNOWN)


def render_catalogue_markdown() -> str:
    """The catalogue as the Markdown page diagnostics link to (``gemstack_lsp/docs/findings.md``)."""
    lines = [
        "# Gemstack finding codes",
        "",
        "Generated from `gemstack_lsp/core/findings.py` by `make docs`; do not edit by hand.",
        "",
    ]
    families: dict[str, list[CodeInfo]] = {}
    for info in CATALOGUE.values():
        families.setdefault(info.family, []).append(info)
    for family, infos in families.items():
        lines += [f"## {family}", ""]
        for info in infos:
            lines += [
                f"### {info.code}",
                "",
                f"*{info.severity.value}*, {'waivable' if info.waivable else 'not waivable'}. {info.summary}",
                "",
                info.explanation,
                "",
            ]
    return "\n".join(lines)


def internal_error(family: str, path: str, exc: BaseException) -> Finding:
    """The ``GEMSTACK_INTERNAL_ERROR`` finding for a check of ``family`` that raised while checking ``path``."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" ({frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno})" if frames else ""
    return Finding(
        "GEMSTACK_INTERNAL_ERROR",
        f"The {family} checks failed on {path}: {type(exc).__name__}: {exc}{where}",
        path,
    )


def contained(family: str, path: str, check: Callable[[], Iterable[Finding]]) -> list[Finding]:
    """The findings of ``check``, or one ``GEMSTACK_INTERNAL_ERROR`` on ``path`` when it raises.

    Each area runs every feature (and every repository-level file) through here, so a bug that
    one surprising file triggers never hides the findings of the others.
    """
    try:
        return list(check())
    except Exception as exc:  # a bug must not hide the other files' findings
        return [internal_error(family, path, exc)]
