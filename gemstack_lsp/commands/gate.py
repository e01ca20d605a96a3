"""`gemstack-lsp gate evaluate`: ask the Upgrade C gates whether an action may run, without running it.

    gemstack-lsp gate evaluate --action ID [--provider P ...] [--capability C] [--env ENV]
                               [--allow-billable] [--units N] [--budget N] [--target DIR]
                               [--failed P ...] [--feature NAME]

Non-interactive by design (seed section 11): it never prompts and never reads standard input.
The decision is printed as JSON on standard output; the exit status is 0 for ALLOW and 1 for
DENY (2 for a usage error). The provider registry, the ledger and the declared actions come
from the repository holding ``--target`` (read-only, offline); ``--provider`` repeated gives the
fallback chain, each candidate evaluated on its own; ``--failed P`` previews the chain as if P
failed at run time. Without ``--provider`` or
``--capability`` the action's declared chain and capability are used. ``--env`` names the tier;
without it the tier comes from ``GEMSTACK_ENV``, then ``CI``/``CONTINUOUS_INTEGRATION``, then
``NODE_ENV=test``, else ``development``. Credentials in the environment are never consulted:
they do not authorize anything. ``--allow-billable`` is the explicit spending grant
(``--budget`` caps it).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
from pathlib import Path
from typing import Any

from gemstack_lsp.commands.output import json_text, say, write_stdout

EXIT_ALLOW = 0
EXIT_DENY = 1
EXIT_USAGE = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from gemstack_lsp.core.cost.environment import TIERS

    sub = parser.add_subparsers(dest="gate_command", metavar="SUBCOMMAND")
    ev = sub.add_parser("evaluate", help="evaluate the capability and billable-action gates for an action")
    ev.add_argument("--action", required=True, metavar="ID", help="the billable action id (declared in spec.md)")
    ev.add_argument(
        "--provider",
        action="append",
        default=[],
        metavar="P",
        help="provider id; repeat for a fallback chain (default: the action's declared chain)",
    )
    ev.add_argument("--capability", metavar="C", help="capability id (default: the action's declared capability)")
    ev.add_argument("--env", choices=TIERS, help="environment tier (default: from GEMSTACK_ENV, CI, NODE_ENV)")
    ev.add_argument("--allow-billable", action="store_true", help="explicitly authorize spending for this evaluation")
    ev.add_argument("--units", type=float, metavar="N", help="requested units (default 1)")
    ev.add_argument("--budget", type=float, metavar="N", help="maximum budget in the ledger's currency")
    ev.add_argument(
        "--failed",
        action="append",
        default=[],
        metavar="P",
        help="treat provider P as failing at run time, to see what its fallbacks would do (repeatable)",
    )
    ev.add_argument("--target", default=".", metavar="DIR", help="a folder inside the repository (default: .)")
    ev.add_argument("--feature", metavar="NAME", help="the feature folder under specs/ (default: where declared)")


def _usage(message: str) -> int:
    from gemstack_lsp.core.i18n import CLI_MESSAGE, current_language, localize
    from gemstack_lsp.core.redact import redact

    say(f"gemstack-lsp gate: {redact(localize(CLI_MESSAGE, message, current_language()))}", err=True)
    return EXIT_USAGE


def _localized(out: dict[str, Any]) -> dict[str, Any]:
    """The decision's JSON with every ``message`` (the decision's, each candidate's) in the run's
    language; reason codes and every other field are unchanged."""
    from gemstack_lsp.core.i18n import GATE_DECISION, current_language, localize

    language = current_language()
    if language == "en":
        return out
    out["message"] = localize(GATE_DECISION, out["message"], language)
    for candidate in out.get("candidates", []):
        candidate["message"] = localize(GATE_DECISION, candidate["message"], language)
    return out


def run(args: argparse.Namespace) -> int:
    if getattr(args, "gate_command", None) != "evaluate":
        return _usage("expected a subcommand: evaluate")
    return evaluate(args)


def evaluate(args: argparse.Namespace) -> int:
    from gemstack_lsp.core.cost.environment import resolve_tier
    from gemstack_lsp.core.cost.gates import CLI_AUTHORIZATION, GatePolicy, SpendingAuthorization, evaluate_chain
    from gemstack_lsp.core.cost.registry import build_registry
    from gemstack_lsp.core.cost.view import CostView, FeatureCost
    from gemstack_lsp.core.repo import GemstackRepo
    from gemstack_lsp.fs import DiskReader, find_repo_root

    target = Path(args.target)
    if not target.is_dir():
        return _usage(f"--target {args.target} is not a folder")
    if args.units is not None and (args.units != args.units or args.units < 0):
        return _usage("--units must be a number of at least 0")
    if args.budget is not None and (args.budget != args.budget or args.budget < 0):
        return _usage("--budget must be a number of at least 0")
    root = find_repo_root(target) or target.resolve()
    repo = GemstackRepo(str(root), DiskReader(root))
    now = dt.datetime.now(dt.UTC)
    view = CostView(repo, now)

    fc: FeatureCost | None = None
    features = repo.features()
    if args.feature is not None:
        chosen = [f for f in features if f.name == args.feature]
        if not chosen:
            return _usage(f"no feature specs/{args.feature} in {root}")
        fc = view.feature(chosen[0])
    else:
        active = repo.active_feature()
        ordered = ([active] if active is not None else []) + [f for f in features if f != active]
        for feature in ordered:
            candidate = view.feature(feature)
            if candidate.action(args.action) is not None:
                fc = candidate
                break
        if fc is None and active is not None:
            fc = view.feature(active)

    declared = fc.action(args.action) if fc is not None else None
    providers = list(args.provider) or ([p.id for p in declared.providers] if declared is not None else [])
    capability = args.capability or (declared.capability_id if declared is not None else None)
    registry = fc.registry if fc is not None else build_registry(())
    ledger_result = fc.ledger if fc is not None else None
    ledger = ledger_result.ledger if ledger_result is not None else None

    authorization: SpendingAuthorization | None = None
    if args.allow_billable:
        authorization = SpendingAuthorization(
            source=CLI_AUTHORIZATION.source, granted_by=CLI_AUTHORIZATION.granted_by, max_budget_units=args.budget
        )
    elif args.budget is not None:
        authorization = SpendingAuthorization(max_budget_units=args.budget)

    policy = GatePolicy(
        allow_billable=args.allow_billable,
        now=now,
        env=dict(os.environ),
        declared_actions=fc.declared_ids if fc is not None else frozenset(),
    )
    tier = resolve_tier(args.env, policy.env)
    chain = evaluate_chain(
        args.action,
        providers,
        capability,
        registry,
        ledger,
        policy,
        environment=tier,
        requested_units=args.units,
        authorization=authorization,
        failed=args.failed,
    )
    out = _localized(chain.to_json())
    out["request"] = {
        "action_id": args.action,
        "providers": providers,
        "capability_id": capability,
        "environment": tier,
        "requested_units": args.units if args.units is not None else 1,
        "allow_billable": bool(args.allow_billable),
        "max_budget_units": args.budget,
        "failed": list(args.failed),
        "feature": fc.feature.name if fc is not None else None,
        "ledger": ledger_result.path if ledger_result is not None else None,
        # An invalid ledger is never trusted: every cost is then UNKNOWN (run `check` for why).
        "ledger_valid": ledger_result.valid if ledger_result is not None else False,
    }
    from gemstack_lsp.core.redact import redact_json

    # The decision quotes the ids it was given: never one that looks like a secret.
    write_stdout(json_text(redact_json(out)) + "\n")
    return EXIT_ALLOW if chain.decision.authorized else EXIT_DENY
