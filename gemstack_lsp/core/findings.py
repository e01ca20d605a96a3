"""Findings and the one catalogue of finding codes.

A ``Finding`` is what every check produces: a code from ``CATALOGUE``, a message, the
repository-relative file it concerns and the narrowest span that explains it, plus the fixes
an editor can offer (so that a code action never re-runs analysis).
"""

from __future__ import annotations

import enum
import hashlib
import traceback
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

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


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class TextEdit:
    """Replace ``span`` of the file at ``path`` with ``new_text``."""

    path: str
    span: Span
    new_text: str


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Related:
    """Another place that explains a finding (the declaration a redeclaration contradicts)."""

    path: str
    span: Span | None
    message: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "message", redact(self.message))


@dataclass(frozen=True)
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


def fingerprint(code: str | None, contract_id: str | None, phase: str | None, location: str | None) -> str:
    """The reference fingerprint: sha256 of the compact JSON ``{code, contractId, phase, location}``."""
    loc = location.replace("\\", "/") if location else None
    payload = {
        "code": code or "UNKNOWN_ERROR",
        "contractId": contract_id if contract_id is not None else None,
        "phase": phase or "unknown",
        "location": loc,
    }
    return hashlib.sha256(utf8(json_stringify(payload))).hexdigest()


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
        "that differs from the unchanged source it was derived from. Sources win; regenerate the capsule.",
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
        "At the offending token of package.json (a warning, as the reference's verify warns), "
        ".gemstack/manifest.json and specs/<feature>/amendments.json: strict JSON, no comments, no trailing "
        "commas, no NaN or Infinity, double-quoted strings, no byte-order mark. Files with a code of their own "
        "report their syntax errors under it: a block's parse code (CONTRACT_PARSE_ERROR, ...), STATE_INVALID, "
        "COST_LEDGER_INVALID, PROVIDER_REGISTRY_INVALID, CONTEXT_CAPSULE_INVALID, CLOSURE_MANIFEST_INVALID.",
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
    # --- Amendments, memory, manifest, .gitignore, package.json scripts, rigor, spec deltas (Gemstack 2.0 verify) ---
    # (entries of area 'verify' go below this line)
    # --- Task formats and lifecycle headers the reference reads differently ---
    # (entries of area 'realrepo' go below this line)
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
