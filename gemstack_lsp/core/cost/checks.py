"""The static cost checks: the gates applied to what the documents declare, without running anything.

For every action of a spec's ``gemstack-billable-actions`` block (with plan.md's binding
applied) and every provider of its fallback chain, in order: the provider must be registered
(``UNKNOWN_PROVIDER_IDENTITY``), declare the capability (``PROVIDER_CAPABILITY_UNDECLARED``),
have an adapter that implements it when an adapter is declared
(``PROVIDER_CAPABILITY_UNSUPPORTED``) and a known cost classification in the effective ledger
(``UNKNOWN_COST_CLASSIFICATION``); a chain that falls back from a free or local provider to a
billable one is a ``PROVIDER_FALLBACK_TO_BILLABLE`` warning. Each of these points at the
provider id in the chain. Action ids named by plan.md or tasks.md but not declared in spec.md
are ``UNDECLARED_BILLABLE_ACTION`` on the id. Every ledger file is loaded and reported on
(``COST_LEDGER_INVALID``, ``STALE_PROVIDER_COST_ASSUMPTION``), MOCK providers that name a remote
endpoint are ``MOCK_PROVIDER_ESCAPE_VIOLATION``, and registry conflicts
``PROVIDER_DECLARATION_CONFLICT``. A repository that declares no provider anywhere gets the one
informational ``LEGACY_NO_PROVIDERS_DECLARED``.

Environment-dependent verdicts (``ENV_COMMERCIAL_DENIED``, ``BILLABLE_ACTION_UNAUTHORIZED``,
budgets) are not findings: they depend on the tier a run uses, and are shown by
``preview_action`` (hover, code lens) and ``gemstack-lsp gate evaluate``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks.base import schema_issues
from gemstack_lsp.core.blocks.billable_actions import BillableAction, ProviderRef
from gemstack_lsp.core.cost.environment import TIERS, Tier, as_tier
from gemstack_lsp.core.cost.gates import (
    CLI_AUTHORIZATION,
    ActionRequest,
    ChainDecision,
    Decision,
    GatePolicy,
    evaluate_billable_action,
    evaluate_chain,
)
from gemstack_lsp.core.cost.ledger import add_entry_fix
from gemstack_lsp.core.cost.registry import (
    PROVIDER_ID,
    ProviderRegistry,
    RegisteredProvider,
    mock_escapes,
    normalize_id,
)
from gemstack_lsp.core.cost.view import GEMSTACK_LEDGER, PROVIDERS_PATH, ROOT_LEDGER, CostView, FeatureCost
from gemstack_lsp.core.findings import Finding, Fix, Related, contained
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.repo import Feature, GemstackRepo
from gemstack_lsp.core.schemas import load_schema
from gemstack_lsp.core.state import STATE_PATH

if TYPE_CHECKING:
    from gemstack_lsp.core.options import AnalysisOptions

PHASE = "IMPLEMENTATION"
FREE_TYPES = frozenset({"LOCAL", "MOCK"})
BILLABLE_STATES = frozenset({"BILLABLE", "POTENTIALLY_BILLABLE"})


@record
class CostFindings:
    """The cost findings of one part of a repository, and whether that part declares anything
    (a ledger, providers.json, a billable-actions or capabilities block, a task's actions)."""

    findings: tuple[Finding, ...]
    declares: bool


def check_repo(repo: GemstackRepo, options: AnalysisOptions) -> Iterable[Finding]:
    """Every cost and provider finding of the repository (see the module docstring)."""
    parts = [repository_cost(repo, options)] + [feature_cost(repo, f, options) for f in repo.features()]
    if not any(p.declares for p in parts):
        return [legacy_notice(repo)]
    return dedupe(f for p in parts for f in p.findings)


def dedupe(findings: Iterable[Finding]) -> list[Finding]:
    """One finding per (code, path, span, message): repository-wide declarations are checked
    with every feature's registry, and reported once."""
    out: dict[tuple[object, ...], Finding] = {}
    for f in findings:
        out.setdefault((f.code, f.path, f.span, f.message), f)
    return list(out.values())


def repository_cost(repo: GemstackRepo, options: AnalysisOptions) -> CostFindings:
    """The findings of the repository-wide cost sources: the root ledgers, providers.json and
    the registry they make (checked even where no feature uses them)."""
    view = CostView(repo, options.clock(), options.max_ledger_age_days)
    findings: list[Finding] = []
    declares = repo.exists(PROVIDERS_PATH)
    for path in (ROOT_LEDGER, GEMSTACK_LEDGER):
        result = view.ledger(path)
        if result is not None:
            declares = True
            findings.extend(result.findings)
    findings.extend(_providers_json_findings(view))
    findings.extend(_registry_findings(view.root_registry()))
    return CostFindings(tuple(dedupe(findings)), declares)


def feature_cost(repo: GemstackRepo, feature: Feature, options: AnalysisOptions) -> CostFindings:
    """The cost findings of one feature: its ledger, its registry, its actions and their uses."""
    view = CostView(repo, options.clock(), options.max_ledger_age_days)
    findings: list[Finding] = []
    ledger = view.ledger(feature.ledger)
    if ledger is not None:
        findings.extend(ledger.findings)
    findings.extend(contained("cost", feature.spec, functools.partial(feature_findings, view, feature)))
    declares = ledger is not None or _declares(view, feature)
    return CostFindings(tuple(dedupe(findings)), declares)


def feature_findings(view: CostView, feature: Feature) -> list[Finding]:
    """The cost findings of one feature: its registry, its actions' chains, its undeclared action ids."""
    fc = view.feature(feature)
    return [*_registry_findings(fc.registry), *_action_findings(fc), *_undeclared_findings(fc)]


def _declares(view: CostView, feature: Feature) -> bool:
    """True when the feature declares providers or actions (also when reading it failed: that is no legacy)."""
    try:
        fc = view.feature(feature)
    except Exception:  # already reported by feature_findings as an internal error
        return True
    return fc.has_blocks or bool(fc.task_uses)


def legacy_notice(repo: GemstackRepo) -> Finding:
    if repo.exists(STATE_PATH):
        path = STATE_PATH
    else:
        path = next((f.spec for f in repo.features() if repo.exists(f.spec)), STATE_PATH)
    return Finding(
        "LEGACY_NO_PROVIDERS_DECLARED",
        "No cost or provider declarations were found (legacy provider-free mode): no ledger, no "
        ".gemstack/providers.json, no gemstack-billable-actions or gemstack-capabilities block.",
        path,
        None,
        phase=PHASE,
    )


def _providers_json_findings(view: CostView) -> Iterator[Finding]:
    parsed, _ = view.providers_json()
    if parsed is None:
        return
    for err in parsed.errors:
        yield Finding(
            "PROVIDER_REGISTRY_INVALID",
            f"Provider registry malformed JSON syntax: {err.message}",
            PROVIDERS_PATH,
            err.span,
        )
    if parsed.ok and parsed.value is not None:
        for issue in schema_issues(parsed.value, load_schema(kinds.ARTIFACT_SCHEMAS["providers.json"])):
            where = ".".join(str(p) for p in issue.path) or "root"
            yield Finding(
                "PROVIDER_REGISTRY_INVALID",
                f"Invalid provider registry at {where}: {issue.message}",
                PROVIDERS_PATH,
                issue.span,
            )


def _registry_findings(registry: ProviderRegistry) -> Iterator[Finding]:
    for issue in registry.issues:
        yield Finding(
            issue.code,
            issue.message,
            issue.path,
            issue.span,
            subject=issue.subject,
            phase=PHASE,
            related=tuple(Related(p, s, m) for p, s, m in issue.related),
        )
    for provider in registry.providers.values():
        for decl in provider.declarations:
            for endpoint, message in mock_escapes(decl):
                yield Finding(
                    "MOCK_PROVIDER_ESCAPE_VIOLATION",
                    f'{message} (provider "{provider.id}")',
                    decl.path,
                    endpoint.span,
                    subject=provider.id,
                    phase=PHASE,
                )


def _classify(fc: FeatureCost, provider: RegisteredProvider | None, ref: ProviderRef, cap: str) -> str | None:
    """The cost state the effective ledger gives (provider, capability), ``None`` without an entry."""
    ledger = fc.ledger.ledger if fc.ledger is not None else None
    if ledger is None:
        return None
    entry = ledger.entry(provider.id if provider else normalize_id(ref.id), cap)
    return entry.cost_state if entry is not None else None


def _action_findings(fc: FeatureCost) -> Iterator[Finding]:
    ledger_broken = fc.ledger is not None and not fc.ledger.valid
    for declared in fc.declared:
        action = fc.effective(declared)
        cap = action.capability_id
        free_before: ProviderRef | None = None
        for index, ref in enumerate(action.providers):
            provider = fc.registry.get(ref.id)
            data = {"action_id": action.id, "provider_id": ref.id, "capability_id": cap}
            if provider is None:
                yield _unknown_provider(fc, action, ref, data)
                continue
            if cap not in provider.capabilities:
                fix = add_entry_fix(fc.ledger_path, fc.ledger, provider.id, cap, provider.type)
                yield Finding(
                    "PROVIDER_CAPABILITY_UNDECLARED",
                    f'Capability "{cap}" is not declared for provider "{provider.id}" (action "{action.id}").',
                    action.path,
                    ref.span,
                    subject=action.id,
                    phase=PHASE,
                    fixes=(fix,) if fix else (),
                    related=_declared_at(provider),
                    data=data,
                )
                continue
            adapter_caps = provider.adapter_capabilities
            if adapter_caps is not None and cap not in adapter_caps:
                adapter = next(d for d in provider.declarations if d.adapter)
                yield Finding(
                    "PROVIDER_CAPABILITY_UNSUPPORTED",
                    f'Adapter "{adapter.adapter}" for provider "{provider.id}" does not implement capability '
                    f'"{cap}" (action "{action.id}").',
                    action.path,
                    ref.span,
                    subject=action.id,
                    phase=PHASE,
                    related=(Related(adapter.path, adapter.id_span, f'adapter "{adapter.adapter}" declared here'),),
                    data=data,
                )
            state = _classify(fc, provider, ref, cap)
            if not ledger_broken and (state is None or state == "UNKNOWN"):
                yield _unknown_cost(fc, action, ref, provider, state, data)
            free = state == "FREE" or provider.type in FREE_TYPES
            billable = state in BILLABLE_STATES or (provider.type == "COMMERCIAL" and state != "FREE")
            if index > 0 and billable and free_before is not None:
                yield Finding(
                    "PROVIDER_FALLBACK_TO_BILLABLE",
                    f'Action "{action.id}" falls back from "{free_before.id}" to billable provider "{provider.id}": '
                    f'if "{free_before.id}" fails, the action would spend money. "{provider.id}" is gated again '
                    "on its own and needs its own spending authorization.",
                    action.path,
                    ref.span,
                    subject=action.id,
                    phase=PHASE,
                    related=(Related(action.path, free_before.span, f'free or local provider "{free_before.id}"'),),
                    data=data,
                )
            if free and free_before is None:
                free_before = ref


def _declared_at(provider: RegisteredProvider) -> tuple[Related, ...]:
    return tuple(Related(d.path, d.id_span, f'provider "{provider.id}" declared here') for d in provider.declarations)


def _unknown_provider(fc: FeatureCost, action: BillableAction, ref: ProviderRef, data: Mapping[str, str]) -> Finding:
    canonical = PROVIDER_ID.match(normalize_id(ref.id)) is not None
    detail = (
        "Declare it in a gemstack-capabilities block, .gemstack/providers.json or a cost ledger."
        if canonical
        else "It is not a canonical provider id (a lower-case slug such as gemini-cloud)."
    )
    fixes: tuple[Fix, ...] = ()
    if canonical:
        fix = add_entry_fix(fc.ledger_path, fc.ledger, normalize_id(ref.id), action.capability_id, "COMMERCIAL")
        fixes = (fix,) if fix else ()
    return Finding(
        "UNKNOWN_PROVIDER_IDENTITY",
        f'Provider "{ref.id}" is not registered in provider registry (action "{action.id}"). {detail}',
        action.path,
        ref.span,
        subject=action.id,
        phase=PHASE,
        fixes=fixes,
        data=data,
    )


def _unknown_cost(
    fc: FeatureCost,
    action: BillableAction,
    ref: ProviderRef,
    provider: RegisteredProvider,
    state: str | None,
    data: Mapping[str, str],
) -> Finding:
    cap = action.capability_id
    related: tuple[Related, ...] = ()
    fixes: tuple[Fix, ...] = ()
    ledger = fc.ledger.ledger if fc.ledger is not None else None
    if state is None:
        where = fc.ledger_path if fc.ledger is not None else f"any cost ledger (a fix creates {fc.ledger_path})"
        why = f'no entry for "{provider.id}" / "{cap}" in {where}'
        fix = add_entry_fix(fc.ledger_path, fc.ledger, provider.id, cap, provider.type)
        fixes = (fix,) if fix else ()
    else:
        why = f'the ledger classifies "{provider.id}" / "{cap}" as UNKNOWN'
        entry = ledger.entry(provider.id, cap) if ledger is not None else None
        if entry is not None and entry.cost_state_span is not None:
            related = (Related(ledger.path if ledger else fc.ledger_path, entry.cost_state_span, "classified here"),)
    return Finding(
        "UNKNOWN_COST_CLASSIFICATION",
        f'Action "{action.id}" has UNKNOWN cost classification on provider "{provider.id}" ({why}). '
        "Fail-closed: execution denied until it is classified.",
        action.path,
        ref.span,
        subject=action.id,
        phase=PHASE,
        fixes=fixes,
        related=related,
        data=data,
    )


def _undeclared_findings(fc: FeatureCost) -> Iterator[Finding]:
    declared = fc.declared_ids
    spec = fc.feature.spec
    for binding in fc.bindings.values():
        if binding.id not in declared:
            yield Finding(
                "UNDECLARED_BILLABLE_ACTION",
                f'Billable action "{binding.id}" is bound in plan.md but not declared in {spec}.',
                binding.path,
                binding.id_span,
                subject=binding.id,
                phase=PHASE,
            )
    for use in fc.task_uses:
        if use.id not in declared:
            yield Finding(
                "UNDECLARED_BILLABLE_ACTION",
                f'Billable action "{use.id}" is invoked by a task but not declared in {spec}.',
                use.path,
                use.ref.span,
                subject=use.id,
                phase=PHASE,
            )


# ---------------------------------------------------------------------------------------------
# Previews for hover and code lens


def preview_action(
    repo: GemstackRepo,
    action_id: str,
    environment: str | None = None,
    *,
    feature_name: str | None = None,
    allow_billable: bool = False,
    options: AnalysisOptions | None = None,
) -> dict[Tier, Decision]:
    """The gates' verdict on a declared action's whole provider chain, per environment tier.

    Every tier when ``environment`` is ``None``, else only that one. No spending token is
    assumed (the answer a non-interactive run gets); ``allow_billable`` stands for
    ``--allow-billable``, which also grants spending (as ``gate evaluate`` does), without a
    budget. An action no feature declares is denied as undeclared in every tier.
    """
    chains = preview_chain(
        repo, action_id, environment, feature_name=feature_name, allow_billable=allow_billable, options=options
    )
    return {tier: chain.decision for tier, chain in chains.items()}


def preview_chain(
    repo: GemstackRepo,
    action_id: str,
    environment: str | None = None,
    *,
    feature_name: str | None = None,
    allow_billable: bool = False,
    options: AnalysisOptions | None = None,
) -> dict[Tier, ChainDecision]:
    """As ``preview_action``, with every candidate's own decision (for a detailed hover)."""
    from gemstack_lsp.core.options import AnalysisOptions

    opts = options or AnalysisOptions()
    view = CostView(repo, opts.clock(), opts.max_ledger_age_days)
    tiers: tuple[Tier, ...] = TIERS
    if environment is not None:
        tier = as_tier(environment)
        tiers = (tier,) if tier is not None else ("development",)
    features = [f for f in repo.features() if feature_name is None or f.name == feature_name]
    for feature in features:
        fc = view.feature(feature)
        action = fc.action(action_id)
        if action is None:
            continue
        ledger = fc.ledger.ledger if fc.ledger is not None else None
        policy = GatePolicy(allow_billable=allow_billable, now=opts.clock(), declared_actions=fc.declared_ids)
        return {
            tier: evaluate_chain(
                action.id,
                [p.id for p in action.providers],
                action.capability_id,
                fc.registry,
                ledger,
                policy,
                environment=tier,
                authorization=CLI_AUTHORIZATION if allow_billable else None,
            )
            for tier in tiers
        }
    undeclared = GatePolicy(declared_actions=frozenset())
    return {
        tier: ChainDecision(
            evaluate_billable_action(ActionRequest(action_id, "", None, tier), None, undeclared), (), None
        )
        for tier in tiers
    }
