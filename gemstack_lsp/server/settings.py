"""User settings: typed, with defaults, and readable errors for anything invalid.

Settings arrive as ``initializationOptions``, from ``workspace/configuration`` (section
``gemstack``) and from a project file; ``parse_settings`` turns any of them into ``Settings``
and a list of messages for what it had to ignore.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

ENVIRONMENTS = ("development", "test", "ci", "staging", "production")
LOG_LEVELS = ("error", "warning", "info", "debug")


@dataclass(frozen=True)
class Settings:
    """Everything a user can set, per workspace folder."""

    #: Environment tier used by gate hovers and the billable-actions lens.
    environment: str = "development"
    #: Minimum delay before analysing after an edit, in milliseconds (0: analyse at once).
    debounce_ms: int = 0
    #: Maximum age of a ledger freshness_date before it is reported stale.
    max_ledger_age_days: int = 90
    diagnostics: bool = True
    hover: bool = True
    code_actions: bool = True
    code_lens: bool = True
    completion: bool = True
    navigation: bool = True
    log_level: str = "info"


_CAMEL = {
    "debounceMs": "debounce_ms",
    "maxLedgerAgeDays": "max_ledger_age_days",
    "codeActions": "code_actions",
    "codeLens": "code_lens",
    "logLevel": "log_level",
}


def parse_settings(raw: Any, base: Settings | None = None) -> tuple[Settings, list[str]]:
    """Apply a settings mapping (snake_case or camelCase keys) on top of ``base``.

    Unknown keys and invalid values are skipped, each with a message; the defaults stand in.
    """
    settings = base or Settings()
    errors: list[str] = []
    if raw is None:
        return settings, errors
    if not isinstance(raw, Mapping):
        return settings, [f"gemstack settings must be an object, got {type(raw).__name__}"]
    known = {f.name: f for f in fields(Settings)}
    changes: dict[str, Any] = {}
    for key, value in raw.items():
        name = _CAMEL.get(key, key)
        if name not in known:
            errors.append(f"unknown gemstack setting {key!r} ignored")
            continue
        default = getattr(Settings(), name)
        if isinstance(default, bool):
            ok = isinstance(value, bool)
        elif isinstance(default, int):
            ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        else:
            ok = isinstance(value, str)
        if ok and name == "environment":
            ok = value in ENVIRONMENTS
        if ok and name == "log_level":
            ok = value in LOG_LEVELS
        if not ok:
            errors.append(f"invalid value {value!r} for gemstack setting {key!r}; using {default!r}")
            continue
        changes[name] = value
    return replace(settings, **changes), errors
