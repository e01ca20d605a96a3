"""What one repository snapshot declares about cost and providers, gathered once per analysis.

``CostView`` loads every ledger file (the root one, ``.gemstack/cost-ledger.json`` and each
feature's), ``.gemstack/providers.json`` and each feature's ``gemstack-billable-actions`` and
``gemstack-capabilities`` blocks, and answers, per feature: its provider registry (reference
load order, then the blocks), its effective ledger (the first existing one of the feature's,
the root's and ``.gemstack``'s, as verify stage 5.1 picks it) and its actions, with plan.md's
bindings applied. Everything is read through the repository's reader; nothing is written.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks import blocks_of
from gemstack_lsp.core.blocks.billable_actions import BillableAction
from gemstack_lsp.core.blocks.capabilities import CapabilityDeclaration
from gemstack_lsp.core.cost.ledger import DEFAULT_MAX_AGE_DAYS, LedgerResult, load_ledger
from gemstack_lsp.core.cost.registry import (
    Endpoint,
    ProviderDeclaration,
    ProviderRegistry,
    build_registry,
    declarations_from_map,
    normalize_id,
    providers_object,
)
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jsonspan import JsonResult, parse_json
from gemstack_lsp.core.repo import LEDGER_NAME, Feature, GemstackRepo
from gemstack_lsp.core.tasks import TaskRef, parse_tasks

ROOT_LEDGER = LEDGER_NAME
GEMSTACK_LEDGER = f".gemstack/{LEDGER_NAME}"
PROVIDERS_PATH = ".gemstack/providers.json"


@record
class ActionUse:
    """An action id named outside spec.md: a plan.md binding or a tasks.md comment."""

    id: str
    path: str
    ref: TaskRef


@record
class FeatureCost:
    """The cost picture of one feature."""

    feature: Feature
    registry: ProviderRegistry
    #: The ledger the gates classify costs with (``None`` when no ledger exists at all).
    ledger: LedgerResult | None
    #: Where "Add ledger entry" writes: the effective ledger, or the feature's new one.
    ledger_path: str
    #: Actions declared in spec.md, in block order.
    declared: tuple[BillableAction, ...]
    #: plan.md's bindings by action id (declared or not).
    bindings: Mapping[str, BillableAction]
    #: Action ids named by tasks.md.
    task_uses: tuple[ActionUse, ...]
    #: Whether spec.md or plan.md has a billable-actions or capabilities block.
    has_blocks: bool

    def effective(self, action: BillableAction) -> BillableAction:
        """The action as it runs: plan.md's binding replaces the spec's chain when there is one."""
        return self.bindings.get(action.id, action)

    def action(self, action_id: str) -> BillableAction | None:
        for a in self.declared:
            if a.id == action_id:
                return self.effective(a)
        return None

    @property
    def declared_ids(self) -> frozenset[str]:
        return frozenset(a.id for a in self.declared)


@dataclass
class CostView:
    """Every cost source of one snapshot; feature views are computed on demand and memoised."""

    repo: GemstackRepo
    now: dt.datetime
    max_age_days: int = DEFAULT_MAX_AGE_DAYS
    _ledgers: dict[str, LedgerResult | None] = field(default_factory=dict, init=False, repr=False)
    _features: dict[str, FeatureCost] = field(default_factory=dict, init=False, repr=False)
    _providers_json: list[tuple[JsonResult | None, list[ProviderDeclaration]]] = field(
        default_factory=list, init=False, repr=False
    )

    def ledger(self, path: str) -> LedgerResult | None:
        """The ledger at ``path`` loaded and checked, or ``None`` when the file does not exist."""
        if path not in self._ledgers:
            doc = self.repo.document(path)
            if not doc.exists:
                self._ledgers[path] = None
            else:
                detail = doc.content.detail or doc.content.status.value
                self._ledgers[path] = load_ledger(
                    path,
                    doc.text,
                    now=self.now,
                    max_age_days=self.max_age_days,
                    read_error=detail,
                    has_bom=doc.has_bom,
                )
        return self._ledgers[path]

    def providers_json(self) -> tuple[JsonResult | None, list[ProviderDeclaration]]:
        """``.gemstack/providers.json`` parsed (``None`` when absent) and its declarations."""
        if not self._providers_json:
            doc = self.repo.document(PROVIDERS_PATH)
            if doc.text is None:
                self._providers_json.append((None, []))
            else:
                parsed = parse_json(doc.text)
                providers = providers_object(parsed.value) if parsed.ok else None
                decls = declarations_from_map(providers, PROVIDERS_PATH, "providers.json") if providers else []
                self._providers_json.append((parsed, decls))
        return self._providers_json[0]

    def root_registry(self) -> ProviderRegistry:
        """The registry of the repository-wide sources alone (root ledgers and providers.json)."""
        declarations: list[ProviderDeclaration] = []
        for path in (ROOT_LEDGER, GEMSTACK_LEDGER):
            result = self.ledger(path)
            if result is not None and result.providers_node is not None:
                declarations.extend(declarations_from_map(result.providers_node, path, "ledger"))
        declarations.extend(self.providers_json()[1])
        return build_registry(declarations)

    def feature(self, feature: Feature) -> FeatureCost:
        cached = self._features.get(feature.name)
        if cached is None:
            cached = self._build(feature)
            self._features[feature.name] = cached
        return cached

    def _build(self, feature: Feature) -> FeatureCost:
        declarations: list[ProviderDeclaration] = []
        for path, source in ((feature.ledger, "ledger"), (ROOT_LEDGER, "ledger"), (GEMSTACK_LEDGER, "ledger")):
            result = self.ledger(path)
            if result is not None and result.providers_node is not None:
                declarations.extend(declarations_from_map(result.providers_node, path, source))
        declarations.extend(self.providers_json()[1])

        declared: tuple[BillableAction, ...] = ()
        bindings: dict[str, BillableAction] = {}
        has_blocks = False
        for path in (feature.spec, feature.plan):
            doc = self.repo.document(path)
            if doc.text is None:
                continue
            blocks = blocks_of(path, doc.text)
            caps, actions = blocks.capabilities, blocks.billable_actions
            has_blocks = has_blocks or caps.present or actions.present
            declarations.extend(_from_block(d) for d in caps.items)
            if path == feature.spec:
                declared = actions.items
            else:
                for a in actions.items:
                    bindings.setdefault(a.id, a)

        uses: list[ActionUse] = []
        tasks_doc = self.repo.document(feature.tasks)
        if tasks_doc.text is not None:
            for task in parse_tasks(tasks_doc.text).tasks:
                uses.extend(ActionUse(ref.value, feature.tasks, ref) for ref in task.actions)

        ledger_path = next(
            (p for p in (feature.ledger, ROOT_LEDGER, GEMSTACK_LEDGER) if self.ledger(p) is not None),
            None,
        )
        return FeatureCost(
            feature=feature,
            registry=build_registry(declarations),
            ledger=self.ledger(ledger_path) if ledger_path else None,
            ledger_path=ledger_path or feature.ledger,
            declared=declared,
            bindings=MappingProxyType(bindings),
            task_uses=tuple(uses),
            has_blocks=has_blocks,
        )


def _from_block(decl: CapabilityDeclaration) -> ProviderDeclaration:
    return ProviderDeclaration(
        provider_id=normalize_id(decl.provider_id),
        raw_id=decl.provider_id,
        type=decl.type.upper(),
        explicit_type=True,
        capabilities=tuple(c.id for c in decl.capabilities),
        source=kinds.CAPABILITIES,
        path=decl.path,
        id_span=decl.provider_span,
        type_span=decl.type_span,
        capability_spans=MappingProxyType({c.id: c.span for c in reversed(decl.capabilities)}),
        adapter=decl.adapter,
        endpoints=tuple(Endpoint(e.name, e.value, e.span) for e in decl.endpoints),
    )
