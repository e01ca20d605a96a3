"""Runs every check over one repository snapshot and returns the findings.

The same functions serve `gemstack-lsp check` and the language server, so CI and the editor
always agree. A repository's analysis is made of units that can be computed, and cached, on
their own: one unit per feature (``analyze_feature``: the documents, capsule and cost checks of
``specs/<name>/``) and one for what belongs to no feature (``analyze_repository``: state.json,
the root ledgers, providers.json). ``combine`` turns the units' results into the repository's
findings; ``analyze`` does all of it at once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

from gemstack_lsp.core.config import PROJECT_FILE, config_findings
from gemstack_lsp.core.findings import Finding, internal_error
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.identity import feature_is_gemstack, has_gemstack_folder
from gemstack_lsp.core.memo import ensure_memo
from gemstack_lsp.core.options import ENVIRONMENTS, AnalysisOptions
from gemstack_lsp.core.repo import Feature, GemstackRepo
from gemstack_lsp.core.state import STATE_PATH

__all__ = [
    "ENVIRONMENTS",
    "AnalysisOptions",
    "UnitResult",
    "analyze",
    "analyze_feature",
    "analyze_repository",
    "combine",
    "sort_findings",
]


@record
class UnitResult:
    """The findings of one unit of analysis (a feature, or the repository-level files)."""

    findings: tuple[Finding, ...]
    #: Cost findings: repository-wide declarations are checked with each feature's registry,
    #: so they are reported once across units (``combine`` deduplicates them).
    cost: tuple[Finding, ...] = ()
    #: True when the unit declares any cost source (else the repository may be provider-free).
    cost_declared: bool = False
    #: The repository unit's LEGACY_NO_PROVIDERS_DECLARED, reported when no unit declares and
    #: the repository is a Gemstack repository.
    legacy_notice: Finding | None = None
    #: True when this unit's files make the repository a Gemstack repository (``.gemstack/``
    #: for the repository unit, a Gemstack artifact in the feature for a feature's): the
    #: repository is one when any unit says so (``core.identity``).
    gemstack: bool = False
    #: Findings reported only in a Gemstack repository (what the reference would read
    #: differently in tasks.md): a spec-kit repository's own files are none of our business.
    gemstack_only: tuple[Finding, ...] = ()


def analyze(repo: GemstackRepo, options: AnalysisOptions | None = None) -> list[Finding]:
    """Every finding for the repository, sorted by path and position."""
    options = options or AnalysisOptions()
    with ensure_memo():
        units = [analyze_repository(repo, options)]
        units.extend(analyze_feature(repo, feature, options) for feature in repo.features())
    return combine(units)


def analyze_feature(repo: GemstackRepo, feature: Feature, options: AnalysisOptions) -> UnitResult:
    """The documents, capsule and cost findings of one feature.

    A check that raises does not stop the others: its failure becomes a
    ``GEMSTACK_INTERNAL_ERROR`` finding on the feature's spec.md, so a surprising document
    never takes the editor down nor hides another feature's findings.
    """
    from gemstack_lsp.core.cost import checks

    findings: list[Finding] = []
    for family, check in feature_checks():
        if family not in options.disabled:
            # An internal error sits on the file the family is about: the capsule when there is
            # one, else the spec.
            where = feature.capsule if family == "capsule" and repo.exists(feature.capsule) else feature.spec
            findings.extend(_contained(family, where, functools.partial(check, repo, feature, options)))
    if "documents" not in options.disabled:
        findings = _amended(feature.spec, findings, lambda: _amend_violations(repo, feature, options, findings))
    cost: tuple[Finding, ...] = ()
    declared = False
    if "cost" not in options.disabled:
        try:
            part = checks.feature_cost(repo, feature, options)
        except Exception as exc:
            cost, declared = (internal_error("cost", feature.spec, exc),), True
        else:
            cost, declared = part.findings, part.declares
    gated: tuple[Finding, ...] = ()
    if "documents" not in options.disabled:
        gated = tuple(_contained("documents", feature.tasks, functools.partial(_tasks_format, repo, feature)))
    return UnitResult(tuple(findings), cost, declared, gemstack=_is_gemstack(repo, feature), gemstack_only=gated)


def _tasks_format(repo: GemstackRepo, feature: Feature) -> list[Finding]:
    from gemstack_lsp.core.documents import tasks_format_findings

    return tasks_format_findings(repo, feature)


def _is_gemstack(repo: GemstackRepo, feature: Feature) -> bool:
    try:
        return feature_is_gemstack(repo, feature)
    except Exception:  # a document too odd to read: the other units still decide
        return False


FeatureCheck = Callable[[GemstackRepo, Feature, AnalysisOptions], Iterable[Finding]]


def feature_checks() -> list[tuple[str, FeatureCheck]]:
    """The check families run on each feature besides cost: (family, check)."""
    from gemstack_lsp.core import amendments, documents, pathsecrets, rigor, spec_delta
    from gemstack_lsp.core.capsule import verify

    return [
        ("documents", lambda repo, feature, options: documents.feature_findings(repo, feature)),
        ("documents", amendments.feature_findings),
        ("documents", lambda repo, feature, options: rigor.rigor_findings(repo, feature)),
        ("documents", lambda repo, feature, options: spec_delta.delta_findings(repo, feature)),
        ("documents", lambda repo, feature, options: pathsecrets.feature_path_findings(feature)),
        ("closure", _closure_findings),
        ("capsule", verify.feature_capsule_findings),
        ("swarm", _swarm_findings),
        ("config", _suppression_findings),
    ]


def _suppression_findings(repo: GemstackRepo, feature: Feature, options: AnalysisOptions) -> list[Finding]:
    from gemstack_lsp.core.suppressions import feature_suppression_findings

    return feature_suppression_findings(repo, feature)


def _closure_findings(repo: GemstackRepo, feature: Feature, options: AnalysisOptions) -> list[Finding]:
    from gemstack_lsp.core import closure

    active = repo.active_feature()
    return closure.feature_closure_findings(repo, feature, active is not None and active.name == feature.name)


def _swarm_findings(repo: GemstackRepo, feature: Feature, options: AnalysisOptions) -> list[Finding]:
    """Gemstack 1.4's swarm.json and visual-qa.json (verify stages 5.3 and 5.4)."""
    from gemstack_lsp.core import swarm, visual_qa

    active = repo.active_feature()
    is_active = active is not None and active.name == feature.name
    return swarm.feature_swarm_findings(repo, feature, is_active) + visual_qa.feature_visual_qa_findings(
        repo, feature, is_active
    )


def analyze_repository(repo: GemstackRepo, options: AnalysisOptions) -> UnitResult:
    """The findings of what belongs to no feature: state.json, root ledgers, providers.json."""
    from gemstack_lsp.core import documents

    # Each check is a part (``GemstackRepo.part``): a host that re-runs this unit because a
    # feature's spec changed (the frozen-artifact hashes of state.json read the active
    # feature's documents) reuses every check that did not read it.
    findings: list[Finding] = []
    if "documents" not in options.disabled:
        findings.extend(_contained("documents", STATE_PATH, lambda: documents.repository_findings(repo)))
        findings = _amended(STATE_PATH, findings, lambda: _amend_artifacts(repo, options, findings))
        for path, check in repository_stage_checks():
            contained = functools.partial(_contained, "documents", path, functools.partial(check, repo))
            findings.extend(repo.part(("rules.repository", path), functools.partial(_tupled, contained)))
    if "config" not in options.disabled:
        findings.extend(
            repo.part(
                ("rules.repository", PROJECT_FILE),
                lambda: tuple(
                    _contained("config", PROJECT_FILE, lambda: config_findings(lambda p: repo.document(p).content))
                ),
            )
        )
    cost: tuple[Finding, ...] = ()
    declared = False
    notice: Finding | None = None
    if "cost" not in options.disabled:
        cost, declared, notice = repo.part(("rules.repository", "cost"), lambda: _repository_cost(repo, options))
    return UnitResult(tuple(findings), cost, declared, notice, gemstack=has_gemstack_folder(repo))


def _repository_cost(repo: GemstackRepo, options: AnalysisOptions) -> tuple[tuple[Finding, ...], bool, Finding | None]:
    """The repository-level cost findings, whether any cost source is declared, and the legacy notice."""
    from gemstack_lsp.core.cost import checks

    try:
        part = checks.repository_cost(repo, options)
        # Outside Gemstack (a spec-kit repository) there is nothing to say, not even this:
        # ``combine`` reports it only in a Gemstack repository.
        notice = checks.legacy_notice(repo)
    except Exception as exc:
        return (internal_error("cost", STATE_PATH, exc),), True, None
    return tuple(part.findings), part.declares, notice


def _tupled(compute: Callable[[], Iterable[Finding]]) -> tuple[Finding, ...]:
    return tuple(compute())


def repository_stage_checks() -> list[tuple[str, Callable[[GemstackRepo], list[Finding]]]]:
    """The repository-level stages of the reference's verify besides state.json, each with the file
    an internal error is reported on: the installation manifest and .gitignore (stage 1), the
    session memory (stage 2), .env and package.json's scripts (stage 6)."""
    from gemstack_lsp.core import installation, memory, scripts

    return [
        (memory.MANIFEST_PATH, installation.manifest_findings),
        (installation.GITIGNORE_PATH, installation.gitignore_findings),
        (memory.HANDOFF_PATH, memory.handoff_findings),
        (installation.ENV_NAME, installation.env_findings),
        (scripts.PACKAGE_PATH, scripts.script_findings),
    ]


def combine(units: Iterable[UnitResult]) -> list[Finding]:
    """The repository's findings from every unit's result, sorted by path and position."""
    from gemstack_lsp.core.cost.checks import dedupe

    units = list(units)
    findings = [f for u in units for f in u.findings]
    gemstack = any(u.gemstack for u in units)
    if gemstack:
        findings.extend(f for u in units for f in u.gemstack_only)
    if any(u.cost_declared for u in units):
        findings.extend(dedupe(f for u in units for f in u.cost))
    elif gemstack:
        findings.extend(u.legacy_notice for u in units if u.legacy_notice is not None)
    return sort_findings(findings)


def _amend_violations(
    repo: GemstackRepo, feature: Feature, options: AnalysisOptions, found: list[Finding]
) -> list[Finding]:
    from gemstack_lsp.core import amendments

    return amendments.amend_contract_violations(repo, feature, options, found)


def _amend_artifacts(repo: GemstackRepo, options: AnalysisOptions, found: list[Finding]) -> list[Finding]:
    from gemstack_lsp.core import amendments

    return amendments.amend_frozen_artifacts(repo, options, found)


def _amended(path: str, findings: list[Finding], amend: Callable[[], list[Finding]]) -> list[Finding]:
    """The findings as verified amendments leave them (signed amendments lift the frozen findings of
    the contracts they authorize); unchanged, plus an internal error, when that step raises."""
    try:
        return amend()
    except Exception as exc:  # a bug here must not hide the findings themselves
        return [*findings, internal_error("documents", path, exc)]


def _contained(family: str, path: str, check: Callable[[], Iterable[Finding]]) -> list[Finding]:
    try:
        return list(check())
    except Exception as exc:  # a bug in one check must not hide the others' findings
        return [internal_error(family, path, exc)]


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.path, f.span.start if f.span else -1, f.code, f.message))
