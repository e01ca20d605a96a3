"""What the team decided about findings, applied where findings leave the analysis.

``apply_policy`` is the one function both front ends call (``gemstack-lsp check`` for each
repository, the server for each file it publishes): it takes the findings of the analysis, the
repository's ``FindingPolicy`` (from ``.gemstack/lsp.toml``: ``severity``, ``ignore``,
``[[overrides]]``, and the CLI's ``--select``/``--ignore``) and the suppressions that apply (the
Markdown ``<!-- gemstack-lsp-ignore ... -->`` comments and the accepted exceptions of the
feature's ``.gemstack.json`` sidecar) and returns the findings to show, each with its effective
severity, and the hidden ones with the reason each is hidden (for hover and
``check --show-suppressed``).

A comment directive reaches this function as a ``SUPPRESSION_UNUSED`` finding on the comment
that carries the parsed ``Suppression`` in ``data["suppression"]`` (see ``core.suppressions``):
the analysis reports every directive as unused, and this function keeps only the ones that
silenced nothing. So a file whose only finding is an unused directive is still a file with a
finding, for the CLI and for the server alike.

Some findings can never be hidden or lowered (``UNSILENCEABLE``): an internal error (the checks
did not run), a secret in a capsule or a ledger (silencing it would leave the secret in the
repository unseen) and a containment refusal (a file that leaves the repository). The
suppression findings themselves cannot be silenced by a comment, only switched off in the
configuration.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field, replace
from functools import lru_cache

from gemstack_lsp.core.findings import CATALOGUE, Finding, Severity
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.text import Span

__all__ = [
    "SEVERITY_WORDS",
    "SUPPRESSION_CODES",
    "UNSILENCEABLE",
    "FindingPolicy",
    "HiddenFinding",
    "PathRule",
    "PolicyOutcome",
    "Suppression",
    "apply_policy",
    "glob_matches",
    "is_silenceable",
    "known_families",
]

#: The words a configuration may give a code or family; ``off`` hides its findings.
SEVERITY_WORDS: Mapping[str, Severity | None] = {
    "error": Severity.BLOCKER,
    "warning": Severity.WARNING,
    "information": Severity.INFO,
    "info": Severity.INFO,
    "hint": Severity.HINT,
    "off": None,
}

#: Codes no configuration, comment or accepted exception can hide or lower.
UNSILENCEABLE: frozenset[str] = frozenset(
    {
        "GEMSTACK_INTERNAL_ERROR",
        "CONTEXT_CAPSULE_SECRET_DETECTED",
        "ARTIFACT_UNREADABLE",
    }
)

#: The codes of the suppression mechanism itself (a comment cannot silence them).
SUPPRESSION_CODES: frozenset[str] = frozenset({"SUPPRESSION_INVALID", "SUPPRESSION_UNUSED"})

#: The data key of a directive's ``SUPPRESSION_UNUSED`` finding that carries the directive.
DIRECTIVE_KEY = "suppression"


def is_silenceable(code: str) -> bool:
    """Whether a configuration or a suppression may hide or re-grade findings of ``code``."""
    return code not in UNSILENCEABLE


def known_families() -> frozenset[str]:
    """The catalogue's families (``capsule``, ``cost``, ``documents``...), valid as keys too."""
    return frozenset(info.family for info in CATALOGUE.values())


@record
class PathRule:
    """One ``[[overrides]]`` entry: globs (relative to the root) and what they change."""

    paths: tuple[str, ...]
    severity: tuple[tuple[str, str], ...] = ()
    ignore: frozenset[str] = frozenset()
    #: Why the team decided so (shown where a hidden finding is explained).
    reason: str = ""

    def matches(self, path: str) -> bool:
        return any(glob_matches(g, path) for g in self.paths)


@record
class FindingPolicy:
    """A repository's decisions about findings (hashable: it is part of ``AnalysisOptions``).

    ``severity`` maps a code or a family to a word of ``SEVERITY_WORDS``; ``ignore`` lists
    codes or families; ``overrides`` apply in order to the files their globs match (a later
    entry wins); ``select`` (the CLI's ``--select``) keeps only the codes or families it names.
    ``source`` names the file the policy came from, for the reasons given in hovers.
    """

    severity: tuple[tuple[str, str], ...] = ()
    ignore: frozenset[str] = frozenset()
    overrides: tuple[PathRule, ...] = ()
    select: frozenset[str] | None = None
    source: str = ".gemstack/lsp.toml"

    @property
    def empty(self) -> bool:
        return not (self.severity or self.ignore or self.overrides or self.select is not None)

    def with_ignore(self, codes: Iterable[str]) -> FindingPolicy:
        """This policy with more ignored codes or families (the CLI's ``--ignore``)."""
        return replace(self, ignore=self.ignore | frozenset(codes))


@record
class Suppression:
    """One decision to hide findings, with its reason and where it is written.

    ``kind`` is ``next-line`` (a comment: findings starting in ``[start, end)`` of ``path``),
    ``file`` (a whole-file comment) or ``accepted-exception`` (a sidecar entry: the finding
    whose reference fingerprint is ``fingerprint``, while ``context_hash`` equals
    ``current_context``, as upstream Gemstack's ``evaluateAcceptedExceptions`` decides).
    """

    kind: str
    path: str
    reason: str
    declared_in: str
    span: Span | None
    codes: frozenset[str] = frozenset()
    start: int = 0
    end: int = 0
    fingerprint: str | None = None
    context_hash: str | None = None
    current_context: str | None = None

    def covers(self, finding: Finding) -> bool:
        if finding.path != self.path:
            return False
        if self.kind == "accepted-exception":
            return finding.fingerprint == self.fingerprint
        if finding.code not in self.codes:
            return False
        if self.kind == "file":
            return True
        return finding.span is not None and self.start <= finding.span.start < self.end

    @property
    def in_force(self) -> bool:
        """An accepted exception applies only while its context is unchanged (upstream)."""
        if self.kind != "accepted-exception":
            return True
        return self.current_context is not None and self.context_hash == self.current_context

    def describe(self) -> str:
        if self.kind == "accepted-exception":
            return f"accepted exception in {self.declared_in}: {self.reason}"
        form = "gemstack-lsp-ignore-file" if self.kind == "file" else "gemstack-lsp-ignore"
        return f"`{form}` comment in {self.declared_in}: {self.reason}"


@record
class HiddenFinding:
    """A finding the policy hides, and why (``source``: config, select, comment, accepted-exception)."""

    finding: Finding
    source: str
    reason: str
    #: The suppression that hid it (``None`` when the configuration did).
    suppression: Suppression | None = None


@record
class PolicyOutcome:
    """The findings to show (effective severity applied) and the ones hidden."""

    visible: tuple[Finding, ...]
    hidden: tuple[HiddenFinding, ...] = ()
    #: Fingerprint -> why an accepted exception naming that finding no longer applies.
    notes: Mapping[str, str] = field(default_factory=dict)


@lru_cache(maxsize=512)
def _glob_regex(pattern: str) -> re.Pattern[str]:
    out: list[str] = []
    i = 0
    pattern = pattern.strip().lstrip("./") if pattern.startswith("./") else pattern.strip()
    while i < len(pattern):
        ch = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif ch == "*":
            out.append("[^/]*")
            i += 1
        elif ch == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(ch))
            i += 1
    return re.compile("".join(out).rstrip("/"))


def glob_matches(pattern: str, path: str) -> bool:
    """Whether a root-relative glob matches ``path`` or a folder holding it (``*`` stays in a
    path segment, ``**`` crosses them, ``?`` is one character)."""
    rx = _glob_regex(pattern)
    if rx.fullmatch(path):
        return True
    parts = path.split("/")
    return any(rx.fullmatch("/".join(parts[:n])) for n in range(1, len(parts)))


def _decide(code: str, family: str, severity: Mapping[str, str], ignore: frozenset[str]) -> str | None:
    """One layer's word for a finding: a code's own entry beats its family's; ``ignore`` is ``off``."""
    if code in severity:
        return severity[code]
    if code in ignore:
        return "off"
    if family in severity:
        return severity[family]
    if family in ignore:
        return "off"
    return None


def _configured(finding: Finding, policy: FindingPolicy) -> tuple[str | None, str]:
    """The configured word for ``finding`` (``None``: unchanged) and where it was decided."""
    family = CATALOGUE[finding.code].family if finding.code in CATALOGUE else ""
    word = _decide(finding.code, family, dict(policy.severity), policy.ignore)
    where = policy.source
    for i, rule in enumerate(policy.overrides):
        if rule.matches(finding.path):
            decided = _decide(finding.code, family, dict(rule.severity), rule.ignore)
            if decided is not None:
                why = f": {rule.reason}" if rule.reason else ""
                word, where = decided, f"{policy.source} ([[overrides]] entry {i + 1}){why}"
    return word, where


class _DirectiveIndex:
    """The comment directives of one file, found for a finding without looking at every one.

    Whole-file directives are indexed by code. The ranges of the others never partly overlap
    (a range is one line, or a fenced block, after a comment that stands outside every block),
    so the range that may hold an offset is found by bisection on the ranges' starts.
    """

    def __init__(self, directives: Sequence[Suppression]) -> None:
        self.by_code: dict[str, list[int]] = {}
        scopes: dict[int, list[int]] = {}
        self.ends: dict[int, int] = {}
        for i, d in enumerate(directives):
            if d.kind == "file":
                for code in d.codes:
                    self.by_code.setdefault(code, []).append(i)
            else:
                scopes.setdefault(d.start, []).append(i)
                self.ends[d.start] = max(self.ends.get(d.start, d.end), d.end)
        self.starts = sorted(scopes)
        self.scopes = scopes

    def candidates(self, finding: Finding) -> list[int]:
        out = list(self.by_code.get(finding.code, ()))
        if finding.span is not None and self.starts:
            at = bisect.bisect_right(self.starts, finding.span.start) - 1
            if at >= 0:
                start = self.starts[at]
                if finding.span.start < self.ends[start]:
                    out.extend(self.scopes[start])
        return out


def _directive(finding: Finding) -> Suppression | None:
    if finding.code != "SUPPRESSION_UNUSED":
        return None
    found = finding.data.get(DIRECTIVE_KEY)
    return found if isinstance(found, Suppression) else None


def apply_policy(
    findings: Sequence[Finding],
    policy: FindingPolicy,
    suppressions: Iterable[Suppression] = (),
) -> PolicyOutcome:
    """The findings to show and the hidden ones, for ``policy`` and the ``suppressions``
    (accepted exceptions; the comment directives travel inside ``findings``)."""
    directives: list[tuple[Finding, Suppression]] = []
    plain: list[Finding] = []
    for f in findings:
        d = _directive(f)
        if d is not None:
            directives.append((f, d))
        else:
            plain.append(f)
    exceptions = tuple(suppressions)
    used: dict[int, set[str]] = {}
    visible: list[Finding] = []
    hidden: list[HiddenFinding] = []
    notes: dict[str, str] = {}

    def configured(f: Finding) -> Finding | None:
        """``f`` with its configured severity, or ``None`` when the configuration hides it."""
        if not is_silenceable(f.code):
            return f
        if policy.select is not None:
            family = CATALOGUE[f.code].family if f.code in CATALOGUE else ""
            if f.code not in policy.select and family not in policy.select:
                hidden.append(HiddenFinding(f, "select", "not among the codes --select names"))
                return None
        word, where = _configured(f, policy)
        if word is None:
            return f
        level = SEVERITY_WORDS.get(word)
        if level is None:
            hidden.append(HiddenFinding(f, "config", f"switched off in {where}"))
            return None
        return f if f.effective_severity is level else replace(f, severity=level)

    comments = _DirectiveIndex([d for _, d in directives])
    by_fingerprint: dict[str | None, list[Suppression]] = {}
    for ex in exceptions:
        by_fingerprint.setdefault(ex.fingerprint, []).append(ex)
    decided: dict[int, Finding | None] = {}
    for f in plain:
        shown = configured(f)
        decided[id(f)] = shown
        if shown is None or not is_silenceable(f.code) or f.code in SUPPRESSION_CODES:
            continue
        silenced = False
        for i in comments.candidates(f):
            d = directives[i][1]
            if d.covers(f):
                used.setdefault(i, set()).add(f.code)
                if not silenced:
                    hidden.append(HiddenFinding(shown, "comment", d.describe(), d))
                    silenced = True
        if not silenced:
            for ex in by_fingerprint.get(f.fingerprint, ()):
                if ex.covers(f):
                    if ex.in_force:
                        hidden.append(HiddenFinding(shown, "accepted-exception", ex.describe(), ex))
                        silenced = True
                    else:
                        notes[f.fingerprint] = (
                            f"The accepted exception for this finding in {ex.declared_in} no longer applies: "
                            "its contextHash was recorded for other phase hashes or contracts."
                        )
                    break
        if silenced:
            decided[id(f)] = None

    index = {id(marker): i for i, (marker, _) in enumerate(directives)}
    for f in findings:
        if id(f) not in index:
            kept = decided.get(id(f))
            if kept is not None:
                visible.append(kept)
            continue
        i = index[id(f)]
        d = directives[i][1]
        unused = sorted(d.codes - used.get(i, set()))
        if not unused:
            continue
        names = ", ".join(unused)
        where = "in this file" if d.kind == "file" else "on the line or block it precedes"
        shown = configured(replace(f, message=f"This suppression silences nothing: no {names} finding {where}."))
        if shown is not None:
            visible.append(shown)
    return PolicyOutcome(tuple(visible), tuple(hidden), notes)
