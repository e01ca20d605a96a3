"""CI-native renderings of `gemstack-lsp check`: GitHub workflow commands, GitLab Code Quality,
per-code statistics, the findings a configuration hid, and colour for a terminal.

The plain text, JSON and SARIF formats live in ``report``; this module adds what CI services
show inline in a pull or merge request without any extra service:

- ``render_github``: one ``::error``/``::warning``/``::notice`` workflow command per finding,
  with ``file``, ``line``, ``col``, ``endLine``, ``endColumn`` and the code as ``title``; values
  and messages escaped as GitHub's workflow commands require (``%``, ``\\r``, ``\\n`` everywhere,
  ``:`` and ``,`` in properties too), so no repository string can end a command or forge one;
- ``render_gitlab``: a Code Quality report (JSON array) whose ``fingerprint`` is the finding's
  reference fingerprint (stable across commits while the finding stays);
- ``render_statistics``: the count per code and severity, most frequent first.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from gemstack_lsp.commands.output import json_text
from gemstack_lsp.core.findings import Severity
from gemstack_lsp.core.i18n import SUPPRESSION_REASON, current_language, localize, localize_finding, ui
from gemstack_lsp.core.policy import HiddenFinding
from gemstack_lsp.report import RepoReport, display_path

__all__ = [
    "GITHUB_COMMAND",
    "GITLAB_SEVERITY",
    "colour_enabled",
    "colourize_text",
    "escape_github_data",
    "escape_github_property",
    "render_github",
    "render_gitlab",
    "render_statistics",
    "render_suppressed",
    "statistics",
    "suppressed_json",
    "with_sarif_suppressions",
]

GITHUB_COMMAND = {
    Severity.BLOCKER: "error",
    Severity.WARNING: "warning",
    Severity.INFO: "notice",
    Severity.HINT: "notice",
}
#: Gemstack severities as GitLab Code Quality's (info, minor, major, critical, blocker).
GITLAB_SEVERITY = {
    Severity.BLOCKER: "blocker",
    Severity.WARNING: "minor",
    Severity.INFO: "info",
    Severity.HINT: "info",
}


#: Control characters other than CR and LF (which GitHub's own escapes cover): written as
#: visible ``\\uXXXX`` text, so a repository string cannot drive the log viewer or a terminal.
_CONTROL = re.compile(r"[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]")


def _visible(text: str) -> str:
    """One line of text with every control character (line breaks included) written as ``\\uXXXX``."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text).replace("\r", "\\u000d").replace("\n", "\\u000a")


def escape_github_data(text: str) -> str:
    """A workflow command's message: ``%``, CR and LF escaped (GitHub's ``escapeData``), other
    control characters written as ``\\uXXXX``."""
    text = _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_github_property(text: str) -> str:
    """A workflow command's property value: also ``:`` and ``,`` (GitHub's ``escapeProperty``)."""
    return escape_github_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(reports: Sequence[RepoReport], cwd: Path) -> str:
    """One workflow command per finding (1-based lines and character columns)."""
    lines: list[str] = []
    for r in reports:
        for f in r.findings:
            start, end = r.finding_range(f, "utf-32")
            props = {
                "file": display_path(r.root, f.path, cwd),
                "line": str(start.line + 1),
                "col": str(start.character + 1),
                "endLine": str(end.line + 1),
                "endColumn": str(end.character + 1),
                "title": f.code,
            }
            rendered = ",".join(f"{k}={escape_github_property(v)}" for k, v in props.items())
            command = GITHUB_COMMAND[f.effective_severity]
            lines.append(f"::{command} {rendered}::{escape_github_data(f.message)}")
    return "".join(line + "\n" for line in lines)


def render_gitlab(reports: Sequence[RepoReport], cwd: Path) -> str:
    """A GitLab Code Quality report: one issue per finding, fingerprints stable and unique."""
    issues: list[dict[str, Any]] = []
    seen: Counter[str] = Counter()
    for r in reports:
        for f in r.findings:
            start, end = r.finding_range(f, "utf-32")
            fp = f.fingerprint
            seen[fp] += 1
            if seen[fp] > 1:
                # Two findings with one reference fingerprint (the same code on the same file):
                # GitLab needs each issue to have its own, and the order is stable.
                fp = hashlib.sha256(f"{fp}:{seen[fp]}".encode()).hexdigest()
            issues.append(
                {
                    "type": "issue",
                    "check_name": f.code,
                    "description": f"{f.code}: {f.message}",
                    "categories": ["Bug Risk"],
                    "severity": GITLAB_SEVERITY[f.effective_severity],
                    "fingerprint": fp,
                    "location": {
                        "path": display_path(r.root, f.path, cwd),
                        "positions": {
                            "begin": {"line": start.line + 1, "column": start.character + 1},
                            "end": {"line": end.line + 1, "column": end.character + 1},
                        },
                    },
                }
            )
    return json_text(issues) + "\n"


def statistics(reports: Sequence[RepoReport]) -> list[tuple[str, Severity, int]]:
    """(code, severity, count) for every code and effective severity, most frequent first."""
    counts: Counter[tuple[str, Severity]] = Counter((f.code, f.effective_severity) for r in reports for f in r.findings)
    return sorted(((c, s, n) for (c, s), n in counts.items()), key=lambda t: (-t[2], t[1].rank, t[0]))


def render_statistics(reports: Sequence[RepoReport], as_json: bool = False) -> str:
    """The count per code and severity: a table, or JSON (``[{code, severity, count}]``)."""
    rows = statistics(reports)
    if as_json:
        return json_text([{"code": c, "severity": s.lsp_name, "count": n} for c, s, n in rows]) + "\n"
    if not rows:
        return ui("statistics.none", current_language()) + "\n"
    width = max(len(str(n)) for _, _, n in rows)
    language = current_language()
    return "".join(f"{n:>{width}}  {ui(f'severity.{s.lsp_name}', language):<11}  {c}\n" for c, s, n in rows)


def render_suppressed(hidden: Sequence[tuple[RepoReport, HiddenFinding]], cwd: Path) -> str:
    """The findings the configuration or a suppression hid, each with its reason (text)."""
    lines = []
    language = current_language()
    for r, h in hidden:
        f = h.finding
        start, _ = r.finding_range(f, "utf-32")
        where = display_path(r.root, f.path, cwd)
        reason = localize(SUPPRESSION_REASON, h.reason, language)
        line = ui(
            "suppressed.line",
            language,
            where=f"{where}:{start.line + 1}:{start.character + 1}",
            code=f.code,
            reason=reason,
        )
        lines.append(_visible(line))
    if not lines:
        return ""
    return "".join(line + "\n" for line in lines)


def suppressed_json(hidden: Sequence[tuple[RepoReport, HiddenFinding]]) -> list[dict[str, Any]]:
    """The hidden findings as JSON items (``--show-suppressed`` with ``--format json``)."""
    out = []
    language = current_language()
    for r, h in hidden:
        f = h.finding
        start, end = r.finding_range(f)
        out.append(
            {
                "code": f.code,
                "severity": f.effective_severity.lsp_name,
                "message": localize_finding(f, language).message,
                "path": f.path,
                "range": {
                    "start": {"line": start.line, "character": start.character},
                    "end": {"line": end.line, "character": end.character},
                },
                "fingerprint": f.fingerprint,
                "repository": str(r.root),
                "suppressed_by": h.source,
                "reason": localize(SUPPRESSION_REASON, h.reason, language),
            }
        )
    return out


def with_sarif_suppressions(sarif: str, hidden: Sequence[tuple[RepoReport, HiddenFinding]], cwd: Path) -> str:
    """The SARIF log ``sarif`` with the hidden findings added as suppressed results
    (``suppressions``: ``inSource`` for a comment, ``external`` for the configuration or a
    sidecar exception, the reason as ``justification``), as code scanning reads them."""
    from gemstack_lsp.report import render_sarif

    if not hidden:
        return sarif
    log = json.loads(sarif)
    # One rendering of every hidden finding (grouped by repository, in order), then each result
    # is paired with the decision that hid it.
    groups: list[tuple[RepoReport, list[HiddenFinding]]] = []
    for r, h in hidden:
        if not groups or groups[-1][0] is not r:
            groups.append((r, []))
        groups[-1][1].append(h)
    language = current_language()
    reports = [
        RepoReport(r.root, r.repo, tuple(localize_finding(h.finding, language) for h in hs), r.places)
        for r, hs in groups
    ]
    extra = json.loads(render_sarif(reports, cwd, language))["runs"][0]["results"]
    decisions = [h for _, hs in groups for h in hs]
    for result, h in zip(extra, decisions, strict=True):
        result["suppressions"] = [
            {
                "kind": "inSource" if h.source == "comment" else "external",
                "justification": localize(SUPPRESSION_REASON, h.reason, language),
            }
        ]
    log["runs"][0]["results"].extend(extra)
    return json_text(log) + "\n"


def colour_enabled(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Colour only on a terminal: ``FORCE_COLOR`` (not ``0``) forces it, ``NO_COLOR`` (any
    non-empty value) turns it off, else it is on when ``stream`` is a terminal."""
    env = os.environ if environ is None else environ
    force = env.get("FORCE_COLOR")
    if force is not None and force not in ("", "0"):
        return True
    if env.get("NO_COLOR"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


_ANSI = {"error": "\x1b[1;31m", "warning": "\x1b[33m", "information": "\x1b[36m", "hint": "\x1b[2m"}
_RESET = "\x1b[0m"
#: The position and severity of a text-format line (searched, not matched from the start, so
#: the cost stays linear in the line's length whatever the path holds).
_FINDING_LINE = re.compile(r":\d+:\d+: (?P<sev>error|warning|information|hint) (?P<code>[A-Z0-9_]+)")


def colourize_text(text: str) -> str:
    """The text format with the location dimmed, the severity coloured and the code bold."""
    out = []
    for line in text.split("\n"):
        m = _FINDING_LINE.search(line)
        if m is None:
            out.append(line)
            continue
        sev = m.group("sev")
        where = line[: m.start("sev")]
        out.append(
            f"\x1b[2m{where}{_RESET}{_ANSI[sev]}{sev}{_RESET} \x1b[1m{m.group('code')}{_RESET}" + line[m.end() :]
        )
    return "\n".join(out)
