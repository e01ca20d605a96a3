"""Environment safety tiers (Upgrade C section 11) and the commercial-action policy of each tier.

The tier is resolved exactly as the reference does it (``gemstack-cli.md`` section 12.2): an
explicit tier name wins when it is exactly one of the five tiers (case-sensitive, as in 1.3.0),
then ``GEMSTACK_ENV``, then the CI markers, then the test-runner markers, else ``development``.
The process environment is never read here: callers pass the mapping they want honoured.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Final, Literal

from gemstack_lsp.core.frozen import record

Tier = Literal["test", "ci", "development", "staging", "production"]

#: The five tiers, in the order seed section 11 lists them.
TIERS: Final[tuple[Tier, ...]] = ("test", "ci", "development", "staging", "production")


def as_tier(name: str | None) -> Tier | None:
    """``name`` when it is exactly a tier name (case-sensitive, no trimming), else ``None``."""
    for tier in TIERS:
        if name == tier:
            return tier
    return None


def resolve_tier(
    environment: str | None = None,
    env: Mapping[str, str] | None = None,
    *,
    test_runner: bool = False,
) -> Tier:
    """The environment tier a gate evaluates in.

    ``environment`` is the request's or the caller's explicit tier; ``env`` the environment
    variables to honour (``GEMSTACK_ENV``, ``CI``, ``CONTINUOUS_INTEGRATION``, ``NODE_ENV``);
    ``test_runner`` stands for the reference's "a test framework is loaded" probe.
    """
    explicit = as_tier(environment)
    if explicit is not None:
        return explicit
    variables = env or {}
    from_env = as_tier(variables.get("GEMSTACK_ENV"))
    if from_env is not None:
        return from_env
    if variables.get("CI") in ("true", "1") or variables.get("CONTINUOUS_INTEGRATION") == "true":
        return "ci"
    if variables.get("NODE_ENV") == "test" or test_runner:
        return "test"
    return "development"


@record
class CiWaiver:
    """A secret-free, signed waiver that lets commercial actions run in the ``ci`` tier until it expires."""

    signed: bool
    expires_at: dt.datetime


@record
class TierPolicy:
    """Whether a tier lets commercial providers act, and the reason code that says so."""

    allowed: bool
    reason_code: str
    message: str


def commercial_policy(
    tier: Tier,
    *,
    allow_billable: bool = False,
    ci_waiver: CiWaiver | None = None,
    now: dt.datetime | None = None,
) -> TierPolicy:
    """The commercial-action policy of ``tier`` (seed section 11, reference section 12.2).

    ``test`` always denies, whatever credentials exist; ``ci`` denies unless a signed waiver
    is still valid at ``now``; ``development`` needs ``allow_billable`` (``--allow-billable``);
    ``staging`` and ``production`` allow (spending still needs an authorization token).
    """
    if tier == "test":
        return TierPolicy(
            False, "ENV_COMMERCIAL_DENIED", "Commercial provider invocation is strictly denied in test environment."
        )
    if tier == "ci":
        if ci_waiver is not None and ci_waiver.signed and now is not None and ci_waiver.expires_at > now:
            return TierPolicy(
                True, "CI_WAIVER_ACCEPTED", "Commercial invocation permitted in CI via explicit signed waiver."
            )
        return TierPolicy(
            False,
            "ENV_COMMERCIAL_DENIED",
            "Commercial provider invocation is denied in CI environment without explicit signed waiver.",
        )
    if tier == "development":
        if not allow_billable:
            return TierPolicy(
                False,
                "BILLABLE_ACTION_UNAUTHORIZED",
                "Commercial provider actions in development require explicit authorization (--allow-billable).",
            )
        return TierPolicy(True, "DEV_AUTHORIZED", "Commercial execution authorized for development session.")
    return TierPolicy(True, "PRODUCTION_ALLOWED", "Commercial execution permitted under managed environment.")
