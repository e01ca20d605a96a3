"""What an analysis needs besides the files: the clock, the user's limits, the checks switched off.

A leaf module (it imports only the policy value type), so every check, the host, the IDE layer and
the server can name ``AnalysisOptions`` without importing ``rules`` and what it imports.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import field

from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.policy import FindingPolicy

#: The environment variable the front ends read the amendment signing key from (never the core).
AMENDMENT_SECRET_ENV = "GEMSTACK_AMENDMENT_SECRET"

#: The environment tiers a gate preview may run in, in the order the settings list them.
ENVIRONMENTS = ("development", "test", "ci", "staging", "production")


@record
class AnalysisOptions:
    """What a check may need besides the files: an injectable clock and user settings."""

    #: The clock for staleness checks; ``None`` means the wall clock at analysis time.
    now: dt.datetime | None = None
    #: Maximum age of a ledger's freshness_date before STALE_PROVIDER_COST_ASSUMPTION.
    max_ledger_age_days: int = 90
    #: The environment tier used by gate previews (hover, lens).
    environment: str = "development"
    #: Check families switched off by the user ("capsule", "cost", "documents").
    disabled: frozenset[str] = field(default_factory=frozenset)
    #: The HMAC key amendment signatures are checked with (``GEMSTACK_AMENDMENT_SECRET``, read by
    #: the CLI and the server, never by the core); ``None`` checks unkeyed SHA-256 signatures.
    amendment_secret: str | None = field(default=None, repr=False)
    #: The repository's decisions about findings (``core.config``), applied where findings
    #: leave the analysis (``core.policy.apply_policy``); part of the options so that a change
    #: to them brings every published finding up to date.
    policy: FindingPolicy = field(default_factory=FindingPolicy)

    def clock(self) -> dt.datetime:
        return self.now if self.now is not None else dt.datetime.now(dt.UTC)
