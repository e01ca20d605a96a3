"""The repository's configuration file, parsed with limits, for the CLI and the server alike.

The file is ``.gemstack/lsp.toml`` (top-level keys) or, when that file does not exist, the
``[tool.gemstack-lsp]`` table of ``pyproject.toml`` at the repository root; ``gemstack-lsp check
--config PATH`` reads another one. Its keys (kebab-case, snake_case or camelCase alike)::

    #:schema ./gemstack-lsp-config.schema.json   (optional: completion in taplo-based editors)
    environment = "ci"                  # development, test, ci, staging or production
    max-ledger-age-days = 30
    debounce-ms = 0                     # editor only
    log-level = "info"                  # editor only: error, warning, info or debug
    ignore = ["LEGACY_NO_PROVIDERS_DECLARED"]      # codes or families

    [severity]                          # code or family -> error, warning, information, hint, off
    STALE_PROVIDER_COST_ASSUMPTION = "information"
    capsule = "warning"

    [[overrides]]                       # in order; a later entry wins
    paths = ["specs/010-*/**"]
    reason = "010 is a legacy feature, frozen before the fences were checked"
    ignore = ["FENCE_UNSEEN_BY_REFERENCE"]
    severity = { CONTEXT_CAPSULE_STALE = "hint" }

    [features]                          # editor features, all on by default
    code-lens = false

Nothing the file holds can take the tool down: the file is refused before parsing when it is
larger than ``MAX_BYTES``, nests arrays or tables deeper than ``MAX_DEPTH`` or writes a number
longer than ``MAX_NUMBER_CHARS`` (a 5,000-digit integer would make Python's ``int`` raise), and
any error ``tomllib`` raises is caught. Every problem is a ``CONFIG_INVALID`` finding on the file
with the span that explains it: an error when the file cannot be used at all (the server keeps
the previous valid configuration), a warning for one key that is skipped.

Pure: the functions take the bytes, or a function that reads a repository-relative path.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from typing import Any

from gemstack_lsp.core.findings import CATALOGUE, Finding, Severity
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.options import ENVIRONMENTS, AnalysisOptions
from gemstack_lsp.core.policy import (
    SEVERITY_WORDS,
    UNSILENCEABLE,
    FindingPolicy,
    PathRule,
    known_families,
)
from gemstack_lsp.core.reader import FileContent, Reader, ReadStatus
from gemstack_lsp.core.text import Span

__all__ = [
    "EDITOR_KEYS",
    "FEATURES",
    "LOG_LEVELS",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_NUMBER_CHARS",
    "POLICY_KEYS",
    "PROJECT_FILE",
    "PYPROJECT_FILE",
    "PYPROJECT_TABLE",
    "ProjectConfig",
    "config_findings",
    "field_name",
    "parse_project_config",
    "project_config",
    "read_project_config",
]

PROJECT_FILE = ".gemstack/lsp.toml"
PYPROJECT_FILE = "pyproject.toml"
PYPROJECT_TABLE = ("tool", "gemstack-lsp")

#: A configuration file larger than this is refused unread (a real one is a few hundred bytes).
MAX_BYTES = 1_000_000
#: Arrays and tables nested deeper than this are refused before parsing.
MAX_DEPTH = 32
#: A run of digits (a number, a bare key) longer than this is refused before parsing.
MAX_NUMBER_CHARS = 64
#: Skipped keys reported one by one; the rest are counted in one finding.
MAX_WARNINGS = 50

LOG_LEVELS = ("error", "warning", "info", "debug")
FEATURES = ("diagnostics", "hover", "code_actions", "code_lens", "completion", "navigation")
#: Keys only the editor uses.
EDITOR_KEYS = ("debounce_ms", "log_level", "features")
#: Keys of the finding policy (project file only: editor settings do not carry them).
POLICY_KEYS = ("severity", "ignore", "overrides")
_INT_RANGE = {"max_ledger_age_days": 36_500, "debounce_ms": 60_000}


def field_name(key: str) -> str:
    """The snake_case name of a key written in kebab-case, snake_case or camelCase."""
    out: list[str] = []
    for ch in key.replace("-", "_"):
        out.append("_" + ch.lower() if ch.isupper() else ch)
    return "".join(out).lstrip("_")


@record
class ProjectConfig:
    """One configuration file as far as it could be read.

    ``path`` is ``None`` when the repository has none. ``parsed`` is False when the file exists
    but cannot be used at all (unreadable, too large, too deep, not UTF-8, not TOML): the
    server then keeps the previous valid configuration. ``table`` holds the keys as written
    (for the server's settings layers), ``policy`` the validated finding policy and
    ``environment``/``max_ledger_age_days`` the validated analysis values (``None``: not set).
    """

    path: str | None
    table: Mapping[str, Any] | None = field(default=None, compare=False)
    policy: FindingPolicy = field(default_factory=FindingPolicy)
    environment: str | None = None
    max_ledger_age_days: int | None = None
    findings: tuple[Finding, ...] = ()
    parsed: bool = True

    @property
    def errors(self) -> tuple[str, ...]:
        """One line per problem (for ``window/showMessage`` and the CLI's stderr)."""
        return tuple(f"{f.path}: {f.message.rstrip('.')}" for f in self.findings)

    def analysis_options(self, base: AnalysisOptions | None = None) -> AnalysisOptions:
        """``base`` (the defaults when ``None``) with what this file sets."""
        from dataclasses import replace

        base = base or AnalysisOptions()
        changes: dict[str, Any] = {"policy": self.policy}
        if self.environment is not None:
            changes["environment"] = self.environment
        if self.max_ledger_age_days is not None:
            changes["max_ledger_age_days"] = self.max_ledger_age_days
        return replace(base, **changes)


# --- limits, checked before parsing ----------------------------------------------------------


def _limit_problem(text: str) -> tuple[int, str] | None:
    """(offset, message) of the first place the text exceeds a limit, in one linear pass that
    skips strings and comments as TOML writes them."""
    depth = 0
    digits = 0
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            digits = 0
            continue
        if ch in "\"'":
            triple = text.startswith(ch * 3, i)
            quote = ch * 3 if triple else ch
            j = i + len(quote)
            while j < n:
                if ch == '"' and text[j] == "\\":
                    j += 2
                    continue
                if text.startswith(quote, j):
                    break
                if not triple and text[j] == "\n":
                    break
                j += 1
            i = j + len(quote)
            digits = 0
            continue
        if ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return i, f"Arrays or tables nest more than {MAX_DEPTH} deep; the configuration is not used."
        elif ch in "]}":
            depth = max(0, depth - 1)
        if ch.isdigit():
            digits += 1
            if digits > MAX_NUMBER_CHARS:
                start = i - digits + 1
                return start, f"A number is longer than {MAX_NUMBER_CHARS} digits; the configuration is not used."
        elif ch != "_":
            digits = 0
        i += 1
    return None


_AT = re.compile(r"\(at line (\d+), column (\d+)\)")


def _offset_of(text: str, line: int, column: int) -> int:
    """The offset of 1-based ``line``/``column`` (clamped to the text)."""
    at = 0
    for _ in range(line - 1):
        nxt = text.find("\n", at)
        if nxt < 0:
            return len(text)
        at = nxt + 1
    return min(len(text), at + max(0, column - 1))


def _error(path: str, message: str, span: Span | None) -> Finding:
    return Finding("CONFIG_INVALID", message, path, span)


def _warning(path: str, message: str, span: Span | None) -> Finding:
    return Finding("CONFIG_INVALID", message, path, span, severity=Severity.WARNING)


def _point(text: str, offset: int) -> Span:
    end = offset + 1 if offset < len(text) and text[offset] != "\n" else offset
    return Span(offset, end)


def _decode(path: str, data: bytes) -> tuple[str | None, Finding | None]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        replaced = data[: exc.start].decode("utf-8", "replace")
        full = data.decode("utf-8", "replace")
        return None, _error(
            path,
            f"Not valid UTF-8 (byte {exc.start}); the configuration is not used.",
            _point(full, len(replaced)),
        )
    return text.removeprefix("\ufeff"), None


def _parse_toml(path: str, data: bytes) -> tuple[str | None, dict[str, Any] | None, Finding | None]:
    """(text, document, problem) for TOML bytes, every limit checked first."""
    if len(data) > MAX_BYTES:
        return None, None, _error(path, f"Larger than {MAX_BYTES:,} bytes; the configuration is not used.", None)
    text, problem = _decode(path, data)
    if text is None:
        return None, None, problem
    over = _limit_problem(text)
    if over is not None:
        return text, None, _error(path, over[1], _point(text, over[0]))
    try:
        return text, tomllib.loads(text), None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        m = _AT.search(message)
        offset = _offset_of(text, int(m.group(1)), int(m.group(2))) if m else len(text)
        clean = _AT.sub("", message).strip()
        return (
            text,
            None,
            _error(path, f"Not valid TOML: {clean}; the configuration is not used.", _point(text, offset)),
        )
    except Exception as exc:  # tomllib raises ValueError (and worse) on inputs it cannot hold
        return (
            text,
            None,
            _error(path, f"Cannot be read as TOML ({type(exc).__name__}); the configuration is not used.", None),
        )


# --- validation ------------------------------------------------------------------------------


class _Spans:
    """Where keys are written (approximately: the first place after a section that writes them)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def section(self, name: str, after: int = 0) -> int:
        m = re.compile(r"(?m)^[ \t]*\[+[ \t]*(?:[\w.\"'-]*\.)?[\"']?" + re.escape(name) + r"[\"']?[ \t]*\]").search(
            self.text, after
        )
        if m is not None:
            return m.start()
        m = re.compile(r"(?<![\w-])[\"']?" + re.escape(name) + r"[\"']?[ \t]*=").search(self.text, after)
        return m.start() if m is not None else after

    def key(self, key: str, after: int = 0) -> Span | None:
        rx = re.compile(
            r"(?<![\w-])(?:\"" + re.escape(key) + r"\"|'" + re.escape(key) + r"'|" + re.escape(key) + r")(?![\w-])"
        )
        m = rx.search(self.text, after) or rx.search(self.text)
        return Span(m.start(), m.end()) if m is not None else None


class _Validator:
    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.spans = _Spans(text)
        self.findings: list[Finding] = []
        self.skipped = 0
        self.codes = frozenset(CATALOGUE)
        self.families = known_families()

    def warn(self, message: str, key: str, after: int = 0) -> None:
        self.skipped += 1
        if self.skipped > MAX_WARNINGS:
            return  # counted, reported once at the end: each one costs a search of the text
        span = self.spans.key(key, after)
        if span is None and after < len(self.spans.text):
            span = _point(self.spans.text, after)
        self.findings.append(_warning(self.path, message, span))

    def target(self, name: Any, where: str, after: int) -> str | None:
        """A code or family name, or ``None`` (with a finding) when it is not one."""
        if not isinstance(name, str):
            self.warn(f"{where}: {name!r} is not a finding code or family; skipped", str(name), after)
            return None
        if name in UNSILENCEABLE:
            self.warn(f"{where}: {name} cannot be silenced or re-graded; skipped", name, after)
            return None
        if name not in self.codes and name not in self.families:
            self.warn(
                f"{where}: {name!r} is neither a finding code nor a family "
                f"({', '.join(sorted(self.families))}); skipped",
                name,
                after,
            )
            return None
        return name

    def severity(self, raw: Any, where: str, after: int) -> tuple[tuple[str, str], ...]:
        if not isinstance(raw, Mapping):
            self.warn(f"'{where}' must be a table of code or family = level; skipped", where, after)
            return ()
        start = self.spans.section(where, after)
        out: list[tuple[str, str]] = []
        for name, word in raw.items():
            target = self.target(name, where, start)
            if target is None:
                continue
            if not isinstance(word, str) or word not in SEVERITY_WORDS:
                self.warn(
                    f"{where}: {word!r} for {name} is not one of {', '.join(SEVERITY_WORDS)}; skipped", name, start
                )
                continue
            out.append((target, word))
        return tuple(out)

    def ignore(self, raw: Any, where: str, after: int) -> frozenset[str]:
        if not isinstance(raw, list):
            self.warn(f"'{where}' must be an array of codes or families; skipped", where, after)
            return frozenset()
        start = self.spans.section(where, after)
        return frozenset(t for t in (self.target(n, where, start) for n in raw) if t is not None)

    def overrides(self, raw: Any) -> tuple[PathRule, ...]:
        if not isinstance(raw, list):
            self.warn("'overrides' must be an array of tables ([[overrides]]); skipped", "overrides")
            return ()
        rules: list[PathRule] = []
        after = 0
        for i, entry in enumerate(raw):
            after = self.spans.section("overrides", after) + 1 if i else self.spans.section("overrides")
            where = f"overrides[{i + 1}]"
            if not isinstance(entry, Mapping):
                self.warn(f"{where} must be a table; skipped", "overrides", after)
                continue
            paths = entry.get("paths")
            if not isinstance(paths, list) or not paths or not all(isinstance(p, str) and p for p in paths):
                self.warn(f"{where} needs 'paths', a non-empty array of globs; the entry is skipped", "paths", after)
                continue
            for key in entry:
                if key not in ("paths", "severity", "ignore", "reason"):
                    self.warn(
                        f"{where}: unknown key {key!r} skipped (paths, severity, ignore, reason)", str(key), after
                    )
            reason = entry.get("reason", "")
            if not isinstance(reason, str):
                self.warn(f"{where}: 'reason' must be a string; skipped", "reason", after)
                reason = ""
            severity = self.severity(entry.get("severity", {}), "severity", after)
            ignore = self.ignore(entry.get("ignore", []), "ignore", after)
            rules.append(PathRule(tuple(paths), severity, ignore, reason.strip()))
        return tuple(rules)


def _validate(path: str, text: str, table: Mapping[str, Any]) -> ProjectConfig:
    v = _Validator(path, text)
    policy_parts: dict[str, Any] = {}
    environment: str | None = None
    age: int | None = None
    for key, value in table.items():
        name = field_name(str(key))
        if value is None:
            continue
        if name == "environment":
            if isinstance(value, str) and value in ENVIRONMENTS:
                environment = value
            else:
                v.warn(f"environment {value!r} is not one of {', '.join(ENVIRONMENTS)}; skipped", str(key))
        elif name in _INT_RANGE:
            if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= _INT_RANGE[name]:
                if name == "max_ledger_age_days":
                    age = value
            else:
                v.warn(f"{key} must be a whole number from 0 to {_INT_RANGE[name]}; skipped", str(key))
        elif name == "log_level":
            if not (isinstance(value, str) and value in LOG_LEVELS):
                v.warn(f"log-level {value!r} is not one of {', '.join(LOG_LEVELS)}; skipped", str(key))
        elif name == "features":
            if not isinstance(value, Mapping):
                v.warn("'features' must be a table of feature = true/false; skipped", str(key))
                continue
            for fkey, fvalue in value.items():
                if field_name(str(fkey)) not in FEATURES or not isinstance(fvalue, bool):
                    v.warn(f"features: {fkey!r} = {fvalue!r} is not a feature switch; skipped", str(fkey))
        elif name == "severity":
            policy_parts["severity"] = v.severity(value, "severity", 0)
        elif name == "ignore":
            policy_parts["ignore"] = v.ignore(value, "ignore", 0)
        elif name == "overrides":
            policy_parts["overrides"] = v.overrides(value)
        else:
            v.warn(f"unknown key {key!r} skipped", str(key))
    if v.skipped > MAX_WARNINGS:
        more = v.skipped - MAX_WARNINGS
        v.findings.append(
            _warning(path, f"{more} more key(s) or value(s) skipped (the first {MAX_WARNINGS} are listed).", None)
        )
    policy = FindingPolicy(source=path, **policy_parts)
    return ProjectConfig(path, table, policy, environment, age, tuple(v.findings), True)


def parse_project_config(path: str, data: bytes, *, pyproject: bool = False) -> ProjectConfig:
    """The configuration in ``data``, the file at ``path`` (its ``[tool.gemstack-lsp]`` table
    when ``pyproject``: a ``pyproject.toml`` without one is no configuration)."""
    text, doc, problem = _parse_toml(path, data)
    if problem is not None:
        if pyproject and (text is None or "gemstack-lsp" not in text):
            # A broken pyproject.toml that does not configure us is the Python tooling's business.
            return ProjectConfig(None)
        return ProjectConfig(path, None, FindingPolicy(source=path), findings=(problem,), parsed=False)
    assert text is not None and doc is not None
    table: Any = doc
    if pyproject:
        for part in PYPROJECT_TABLE:
            table = table.get(part) if isinstance(table, Mapping) else None
        if table is None:
            return ProjectConfig(None)
        if not isinstance(table, Mapping):
            span = _Spans(text).key("gemstack-lsp")
            return ProjectConfig(
                path,
                None,
                FindingPolicy(source=path),
                findings=(_error(path, "[tool.gemstack-lsp] must be a table; the configuration is not used.", span),),
                parsed=False,
            )
    return _validate(path, text, table)


def project_config(read: Callable[[str], FileContent]) -> ProjectConfig:
    """The repository's configuration, its files read through ``read`` (repository-relative).

    ``.gemstack/lsp.toml`` wins when it exists, even broken (its problem is reported and
    ``pyproject.toml`` is not consulted, so a team's file is never silently bypassed).
    """
    for path, pyproject in ((PROJECT_FILE, False), (PYPROJECT_FILE, True)):
        content = read(path)
        if content.status is ReadStatus.MISSING:
            continue
        if content.data is None:
            why = content.status.value + (f": {content.detail}" if content.detail else "")
            if pyproject:
                return ProjectConfig(None)
            return ProjectConfig(
                path,
                None,
                FindingPolicy(source=path),
                findings=(_error(path, f"Cannot be read ({why}); the configuration is not used.", None),),
                parsed=False,
            )
        found = parse_project_config(path, content.data, pyproject=pyproject)
        if found.path is not None or not pyproject:
            return found
    return ProjectConfig(None)


def read_project_config(reader: Reader) -> ProjectConfig:
    """The configuration of the repository ``reader`` serves."""
    return project_config(reader.read)


def config_findings(read: Callable[[str], FileContent]) -> list[Finding]:
    """The ``CONFIG_INVALID`` findings of the repository's configuration file."""
    return list(project_config(read).findings)


def merge_select(policy: FindingPolicy, select: Sequence[str] | None, ignore: Sequence[str]) -> FindingPolicy:
    """``policy`` with the CLI's ``--select`` and ``--ignore`` applied."""
    from dataclasses import replace

    out = policy.with_ignore(ignore) if ignore else policy
    if select:
        out = replace(out, select=frozenset(select))
    return out
