"""User settings: typed, with defaults, and readable errors for anything invalid.

Where settings come from, lowest precedence first (a later source overrides an earlier one
key by key, never wholesale):

1. the defaults of ``Settings``;
2. the repository's project file, for teams that keep settings under version control:
   ``.gemstack/lsp.toml`` (top-level keys) or, when that file does not exist, the
   ``[tool.gemstack-lsp]`` table of ``pyproject.toml`` at the repository root;
3. the client's ``initializationOptions`` (the same for every workspace folder);
4. the client's per-folder settings: the answer to ``workspace/configuration`` for section
   ``gemstack`` with the folder as scope, or, for clients that cannot be asked, the
   ``settings`` (or ``settings.gemstack``) of ``workspace/didChangeConfiguration``.

The finding policy (``severity``, ``ignore``, ``[[overrides]]``) comes from the project file
only, as ``gemstack-lsp check`` reads it (``core.config``), so the editor and CI agree; editor
settings override the other keys for the local user only. When the project file cannot be used
at all (not TOML, too deep...), the previous valid one stays in force (``configuration``).

Keys may be written in snake_case (``max_ledger_age_days``), camelCase (``maxLedgerAgeDays``)
or kebab-case (``max-ledger-age-days``, the TOML habit). Feature toggles may also be nested
under ``features`` (``{"features": {"hover": false}}``). A ``null`` value means "not set".
Unknown keys and invalid values are skipped with a message each, and the value from the
sources below stands in: a typo never switches a feature off.

A project file, for example ``.gemstack/lsp.toml``::

    environment = "ci"            # development, test, ci, staging or production
    max-ledger-age-days = 30
    debounce-ms = 0
    log-level = "info"            # error, warning, info or debug
    inlay-hints-test-results = true       # each kind of inlay hint
    inlay-hints-frozen-contracts = true
    inlay-hints-bindings = true

    [features]                    # every editor feature can be switched off
    diagnostics = true
    hover = true
    code-actions = true
    code-lens = false
    completion = true
    navigation = true             # also document highlights
    semantic-tokens = true
    rename = true
    formatting = true
    inlay-hints = true

or the same keys under ``[tool.gemstack-lsp]`` (and ``[tool.gemstack-lsp.features]``) in
``pyproject.toml``. In VS Code the same settings live under ``gemstack.*`` (camelCase).

``parse_settings`` applies one source; ``resolve_settings`` layers them all;
``read_project_file`` finds and parses the project file through a ``Reader``.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import field, fields, replace
from typing import Any

from gemstack_lsp.core.config import PROJECT_FILE, PYPROJECT_FILE, PYPROJECT_TABLE, ProjectConfig, read_project_config
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.options import AMENDMENT_SECRET_ENV, ENVIRONMENTS, AnalysisOptions
from gemstack_lsp.core.policy import FindingPolicy
from gemstack_lsp.core.reader import Reader

__all__ = [
    "ENVIRONMENTS",
    "FEATURES",
    "LOG_LEVELS",
    "PROJECT_FILE",
    "PYPROJECT_FILE",
    "PYPROJECT_TABLE",
    "ProjectFile",
    "Settings",
    "analysis_options",
    "is_project_file",
    "parse_settings",
    "python_log_level",
    "read_project_file",
    "resolve_settings",
]

LOG_LEVELS = ("error", "warning", "info", "debug")

#: The switchable editor features, by their ``Settings`` field name.
FEATURES = (
    "diagnostics",
    "hover",
    "code_actions",
    "code_lens",
    "completion",
    "navigation",
    "semantic_tokens",
    "rename",
    "formatting",
    "inlay_hints",
)

#: Keys a client sends in the ``gemstack`` section that are not server settings
#: (vscode-languageclient's ``gemstack.trace.server``, an extension's own server path).
#: ``trusted`` is the client's workspace trust, read by the session (``Session.restricted``).
_CLIENT_ONLY_KEYS = frozenset({"trace", "server", "trusted"})
#: Keys of the project file that are not editor settings (the finding policy, ``core.config``).
_PROJECT_ONLY_KEYS = frozenset({"severity", "ignore", "overrides"})


@record
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
    semantic_tokens: bool = True
    rename: bool = True
    formatting: bool = True
    inlay_hints: bool = True
    #: Each kind of inlay hint (``ide.inlay_hints``): a test's latest result from closure.json,
    #: a contract's frozen phase, the number of tests bound to a binding's file.
    inlay_hints_test_results: bool = True
    inlay_hints_frozen_contracts: bool = True
    inlay_hints_bindings: bool = True
    log_level: str = "info"
    #: The finding policy of the project file (``severity``, ``ignore``, ``[[overrides]]``);
    #: only the project file sets it, editor settings never do.
    policy: FindingPolicy = field(default_factory=FindingPolicy)

    def enabled(self, feature: str) -> bool:
        """Whether the editor feature named ``feature`` (one of ``FEATURES``) is switched on."""
        if feature not in FEATURES:
            raise ValueError(f"unknown feature {feature!r}")
        return bool(getattr(self, feature))


_DEFAULTS = Settings()
_FIELDS = frozenset(f.name for f in fields(Settings)) - {"policy"}

#: Upper bounds that catch a unit mistake (seconds for milliseconds) without being a policy.
_MAXIMUM = {"debounce_ms": 60_000, "max_ledger_age_days": 36_500}


def _field_name(key: str) -> str:
    """The ``Settings`` field a key names, whatever its spelling (may not be a field)."""
    name = key.replace("-", "_")
    out: list[str] = []
    for ch in name:
        if ch.isupper():
            out.append("_" + ch.lower())
        else:
            out.append(ch)
    return "".join(out).lstrip("_")


def _check_value(name: str, value: Any) -> bool:
    default = getattr(_DEFAULTS, name)
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        return 0 <= value <= _MAXIMUM.get(name, value)
    if not isinstance(value, str):
        return False
    if name == "environment":
        return value in ENVIRONMENTS
    if name == "log_level":
        return value in LOG_LEVELS
    return True


def _expected(name: str) -> str:
    default = getattr(_DEFAULTS, name)
    if isinstance(default, bool):
        return "true or false"
    if isinstance(default, int):
        return f"a whole number from 0 to {_MAXIMUM[name]}" if name in _MAXIMUM else "a whole number >= 0"
    if name == "environment":
        return "one of " + ", ".join(ENVIRONMENTS)
    if name == "log_level":
        return "one of " + ", ".join(LOG_LEVELS)
    return "a string"


def _flatten(raw: Mapping[Any, Any], errors: list[str], where: str) -> dict[str, Any]:
    """The settings of ``raw`` as field name -> value, with the ``features`` table merged in."""
    flat: dict[str, Any] = {}
    for key, value in raw.items():
        if not isinstance(key, str):
            errors.append(f"{where}: setting names must be strings, got {key!r}; ignored")
            continue
        if key in _CLIENT_ONLY_KEYS or key in _PROJECT_ONLY_KEYS:
            continue
        if key == "features":
            if value is None:
                continue
            if not isinstance(value, Mapping):
                errors.append(f"{where}: 'features' must be a table of feature toggles; ignored")
                continue
            for fkey, fvalue in value.items():
                fname = _field_name(str(fkey))
                if fname not in FEATURES:
                    errors.append(
                        f"{where}: unknown feature {fkey!r} in 'features' ignored (known: {', '.join(FEATURES)})"
                    )
                    continue
                flat[fname] = (f"features.{fkey}", fvalue)
            continue
        name = _field_name(key)
        if name not in _FIELDS:
            errors.append(f"{where}: unknown setting {key!r} ignored")
            continue
        flat[name] = (key, value)
    return flat


def parse_settings(
    raw: Any, base: Settings | None = None, source: str = "gemstack settings"
) -> tuple[Settings, list[str]]:
    """Apply one settings mapping on top of ``base`` (the defaults when ``None``).

    Returns the settings and one readable message per key that was ignored; an ignored key
    keeps ``base``'s value. ``source`` names where the mapping came from, for the messages.
    """
    settings = base or _DEFAULTS
    errors: list[str] = []
    if raw is None:
        return settings, errors
    if not isinstance(raw, Mapping):
        return settings, [f"{source}: settings must be an object, got {type(raw).__name__}; ignored"]
    changes: dict[str, Any] = {}
    for name, (key, value) in _flatten(raw, errors, source).items():
        if value is None:
            continue
        if not _check_value(name, value):
            errors.append(
                f"{source}: invalid value {value!r} for {key!r} (expected {_expected(name)}); "
                f"using {getattr(settings, name)!r}"
            )
            continue
        changes[name] = value
    return replace(settings, **changes), errors


def resolve_settings(layers: Sequence[tuple[str, Any]]) -> tuple[Settings, list[str]]:
    """Layer settings sources, lowest precedence first: ``[(source name, mapping or None), ...]``.

    The usual order is project file, ``initializationOptions``, then the client's per-folder
    settings (see the module docstring).
    """
    settings = _DEFAULTS
    errors: list[str] = []
    for source, raw in layers:
        settings, errs = parse_settings(raw, settings, source)
        errors.extend(errs)
    return settings, errors


#: The project file as the core reads it (``core.config``): kept under its former name.
ProjectFile = ProjectConfig


def is_project_file(relpath: str) -> bool:
    """Whether a change to this repository-relative path can change the project settings."""
    return relpath in (PROJECT_FILE, PYPROJECT_FILE)


def read_project_file(reader: Reader) -> ProjectConfig:
    """The project configuration of the repository ``reader`` serves (``core.config``).

    ``.gemstack/lsp.toml`` wins when it exists (even when it is broken: its error is reported
    and ``pyproject.toml`` is not consulted, so a team's file is never silently bypassed);
    otherwise the ``[tool.gemstack-lsp]`` table of ``pyproject.toml``, if any.
    """
    return read_project_config(reader)


def analysis_options(settings: Settings, base: AnalysisOptions | None = None) -> AnalysisOptions:
    """The analysis options these settings ask for (the clock and disabled families from ``base``),
    the project file's finding policy included."""
    base = base or AnalysisOptions()
    secret = base.amendment_secret or os.environ.get(AMENDMENT_SECRET_ENV) or None
    return replace(
        base,
        environment=settings.environment,
        max_ledger_age_days=settings.max_ledger_age_days,
        amendment_secret=secret,
        policy=settings.policy,
    )


def python_log_level(settings: Settings) -> int:
    """The ``logging`` level for ``settings.log_level``."""
    return {
        "error": logging.ERROR,
        "warning": logging.WARNING,
        "info": logging.INFO,
        "debug": logging.DEBUG,
    }[settings.log_level]
