"""Rendering findings for `gemstack-lsp check`: plain text, JSON and SARIF 2.1.0.

The analysis is done before this module is reached; it only turns each finding's span into
lines and columns (through the repository snapshot that produced it) and prints them.
Positions are 0-based UTF-16 in JSON (LSP's convention), 1-based UTF-16 in SARIF (with
``columnKind`` saying so), and 1-based characters in the text format.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field, replace
from pathlib import Path
from typing import Any

from gemstack_lsp import __version__
from gemstack_lsp.commands.output import json_text
from gemstack_lsp.core.findings import CATALOGUE, Finding, Severity
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.i18n import Language, catalogue_text, localize_finding, ui
from gemstack_lsp.core.printable import printable
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.text import Encoding, Position, SourceText, Span
from gemstack_lsp.uris import path_to_uri, quote_path

TOOL_NAME = "gemstack-lsp"
INFORMATION_URI = "https://github.com/gemstack/gemstack-lsp"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
#: The finding reference as published with the sources (SARIF consumers open it in a browser,
#: so the catalogue's offline ``file:`` link, which names a path on the analysing machine, is
#: not used there).
PUBLIC_DOCS_URL = f"{INFORMATION_URI}/blob/main/gemstack_lsp/docs/findings.md"
#: The ``partialFingerprints`` key carrying the reference fingerprint.
FINGERPRINT_KEY = "gemstackFingerprint/v1"

_SEVERITIES = (Severity.BLOCKER, Severity.WARNING, Severity.INFO, Severity.HINT)
_SARIF_LEVEL = {Severity.BLOCKER: "error", Severity.WARNING: "warning", Severity.INFO: "note", Severity.HINT: "note"}


#: Where a span lies in its file: its start and end in UTF-16 code units (JSON, SARIF), then in
#: characters (the text formats).
Placed = tuple[Position, Position, Position, Position]
#: A span of a file, as findings and their related locations name it (``None``: the whole file).
PlaceKey = tuple[str, Span | None]


def span_range(
    repo: GemstackRepo, path: str, span: Span | None, encoding: Encoding = "utf-16"
) -> tuple[Position, Position]:
    """The start and end of ``span`` in the file at ``path``, in ``encoding``'s units: a
    whole-file span (``None``) covers the file's first line, and a file that cannot be read
    puts everything at its start."""
    return _range_in(repo.document(path).source, span, encoding)


def _range_in(source: SourceText | None, span: Span | None, encoding: Encoding) -> tuple[Position, Position]:
    if source is None:
        return Position(0, 0), Position(0, 0)
    return source.range(span if span is not None else Span(0, source.line_end(0)), encoding)


def place(repo: GemstackRepo, path: str, span: Span | None) -> Placed:
    """Where ``span`` lies in the file at ``path``, in both units (see ``span_range``), the
    file read once."""
    source = repo.document(path).source
    return (*_range_in(source, span, "utf-16"), *_range_in(source, span, "utf-32"))


def places_of(repo: GemstackRepo, findings: Iterable[Finding]) -> dict[PlaceKey, Placed]:
    """Where every span of ``findings`` (their own and their related locations') lies: computed
    where the analysis holds the files, so that printing them reads no file again."""
    out: dict[PlaceKey, Placed] = {}
    for f in findings:
        for key in ((f.path, f.span), *((r.path, r.span) for r in f.related)):
            if key not in out:
                out[key] = place(repo, *key)
    return out


@record
class RepoReport:
    """One analysed repository: its root, the snapshot analysis read, and what it found."""

    root: Path
    repo: GemstackRepo
    findings: tuple[Finding, ...]
    #: Where spans lie, as the analysis computed them (``places_of``; the worker processes of a
    #: large repository did); a span missing here is placed by reading its file again.
    places: Mapping[PlaceKey, Placed] = field(default_factory=dict)

    def range(self, path: str, span: Span | None, encoding: Encoding = "utf-16") -> tuple[Position, Position]:
        """The start and end of ``span`` in the file at ``path``, in ``encoding``'s units."""
        placed = self.places.get((path, span))
        if placed is None or encoding not in ("utf-16", "utf-32"):
            return span_range(self.repo, path, span, encoding)
        return (placed[0], placed[1]) if encoding == "utf-16" else (placed[2], placed[3])

    def finding_range(self, finding: Finding, encoding: Encoding = "utf-16") -> tuple[Position, Position]:
        """The 0-based start and end of a finding; a file-wide finding covers its first line."""
        return self.range(finding.path, finding.span, encoding)


@record
class Summary:
    """Counts over every repository of one run."""

    by_severity: dict[Severity, int]
    files: int
    repositories: int

    @property
    def total(self) -> int:
        return sum(self.by_severity.values())

    @property
    def blockers(self) -> int:
        return self.by_severity.get(Severity.BLOCKER, 0)


def localized(reports: Sequence[RepoReport], language: Language) -> list[RepoReport]:
    """The reports with every finding's message, related messages and fix titles in ``language``."""
    if language == "en":
        return list(reports)
    return [replace(r, findings=tuple(localize_finding(f, language) for f in r.findings)) for r in reports]


def summarize(reports: Sequence[RepoReport]) -> Summary:
    counts = dict.fromkeys(_SEVERITIES, 0)
    files: set[tuple[Path, str]] = set()
    for r in reports:
        for f in r.findings:
            counts[f.effective_severity] += 1
            files.add((r.root, f.path))
    return Summary(counts, len(files), len(reports))


def finding_range(repo: GemstackRepo, finding: Finding, encoding: Encoding = "utf-16") -> tuple[Position, Position]:
    """The 0-based start and end of a finding; a file-wide finding covers its first line."""
    return span_range(repo, finding.path, finding.span, encoding)


def display_path(root: Path, relpath: str, cwd: Path) -> str:
    """``relpath`` (repository-relative) relative to ``cwd`` when inside it, else absolute."""
    full = root / relpath if relpath else root
    try:
        rel = full.relative_to(cwd)
    except ValueError:
        return str(full)
    return rel.as_posix() if rel.parts else "."


def _plural(n: int, word: str, plural: str, language: Language) -> str:
    return ui(f"count.{word if n == 1 else plural}", language, n=n)


def summary_line(summary: Summary, language: Language = "en") -> str:
    checked = ui(
        f"checked.{'repository' if summary.repositories == 1 else 'repositories'}", language, n=summary.repositories
    )
    if summary.total == 0:
        return ui("summary.none", language, checked=checked)
    c = summary.by_severity
    return ui(
        "summary",
        language,
        errors=_plural(c[Severity.BLOCKER], "error", "errors", language),
        warnings=_plural(c[Severity.WARNING], "warning", "warnings", language),
        information=c[Severity.INFO],
        hints=_plural(c[Severity.HINT], "hint", "hints", language),
        files=_plural(summary.files, "file", "files", language),
        checked=checked,
    )


def render_text(reports: Sequence[RepoReport], cwd: Path, language: Language = "en") -> str:
    """``path:line:col: severity CODE message`` per finding, then a summary line.

    Lines and columns are 1-based, columns counted in characters; the severity is LSP's word
    (``error`` for a blocker), as compilers print it and editors' error formats expect (in
    Spanish the words are translated too; the codes never are).
    """
    lines: list[str] = []
    for r in reports:
        for f in r.findings:
            start, _ = r.finding_range(f, "utf-32")
            where = display_path(r.root, f.path, cwd)
            severity = ui(f"severity.{f.effective_severity.lsp_name}", language)
            # A path or message with a line break or a terminal escape could forge a line of
            # its own (a finding no check made) or drive the terminal: both are escaped.
            lines.append(
                f"{printable(where)}:{start.line + 1}:{start.character + 1}: {severity} {f.code} {printable(f.message)}"
            )
    lines.append(summary_line(summarize(reports), language))
    return "\n".join(lines) + "\n"


def _range_json(start: Position, end: Position) -> dict[str, Any]:
    return {
        "start": {"line": start.line, "character": start.character},
        "end": {"line": end.line, "character": end.character},
    }


def render_json(reports: Sequence[RepoReport], language: Language = "en") -> str:
    """Every finding as JSON (0-based UTF-16 ranges, LSP's severity words) and the summary.

    The findings arrive with their messages already in ``language``; keys and severity words
    stay English (they are the format, not text).
    """
    del language  # The messages are localized before rendering; the format is the same.
    findings: list[dict[str, Any]] = []
    for r in reports:
        for f in r.findings:
            start, end = r.finding_range(f)
            item: dict[str, Any] = {
                "code": f.code,
                "severity": f.effective_severity.lsp_name,
                "message": f.message,
                "path": f.path,
                "range": _range_json(start, end),
                "fingerprint": f.fingerprint,
                "repository": str(r.root),
            }
            if f.subject is not None:
                item["subject"] = f.subject
            if f.related:
                item["related"] = [_related_json(r, rel.path, rel.span, rel.message) for rel in f.related]
            findings.append(item)
    summary = summarize(reports)
    payload = {
        "findings": findings,
        "summary": {
            **{s.lsp_name: summary.by_severity[s] for s in _SEVERITIES},
            "total": summary.total,
            "files": summary.files,
            "repositories": summary.repositories,
        },
    }
    return json_text(payload) + "\n"


def _related_json(report: RepoReport, path: str, span: Span | None, message: str) -> dict[str, Any]:
    start, end = report.range(path, span)
    return {"path": path, "range": _range_json(start, end), "message": message}


# --- SARIF ------------------------------------------------------------------------------------


def _file_uri(path: Path, directory: bool = False) -> str:
    uri = path_to_uri(path)
    return uri + "/" if directory and not uri.endswith("/") else uri


def _artifact_location(root: Path, relpath: str, cwd: Path) -> dict[str, Any]:
    full = root / relpath
    try:
        rel = full.relative_to(cwd)
    except ValueError:
        return {"uri": _file_uri(full)}
    return {"uri": quote_path(rel.as_posix()), "uriBaseId": "%SRCROOT%"}


def _region(start: Position, end: Position) -> dict[str, int]:
    return {
        "startLine": start.line + 1,
        "startColumn": start.character + 1,
        "endLine": end.line + 1,
        "endColumn": end.character + 1,
    }


def _public_help_uri(code: str, docs_url: str) -> str:
    if docs_url.startswith(("http://", "https://")):
        return docs_url
    return f"{PUBLIC_DOCS_URL}#{code.lower()}"


def sarif_rules(language: Language = "en") -> list[dict[str, Any]]:
    """One reportingDescriptor per catalogue code, in catalogue order (texts in ``language``)."""
    rules = []
    for info in CATALOGUE.values():
        summary, explanation = catalogue_text(info.code, language)
        rules.append(
            {
                "id": info.code,
                "name": "".join(part.capitalize() for part in info.code.split("_")),
                "shortDescription": {"text": summary},
                "fullDescription": {"text": explanation},
                "help": {
                    "text": f"{summary} {explanation}",
                    "markdown": f"**{summary}**\n\n{explanation}",
                },
                "helpUri": _public_help_uri(info.code, info.docs_url),
                "defaultConfiguration": {"level": _SARIF_LEVEL[info.severity]},
                "properties": {"tags": ["gemstack", info.family], "waivable": info.waivable},
            }
        )
    return rules


def render_sarif(reports: Sequence[RepoReport], cwd: Path, language: Language = "en") -> str:
    """A SARIF 2.1.0 log with one run, as GitHub code scanning accepts it.

    Paths inside ``cwd`` (the checkout root in CI) are relative to ``%SRCROOT%``; others are
    absolute ``file:`` URIs.
    """
    rules = sarif_rules(language)
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    results: list[dict[str, Any]] = []
    for r in reports:
        for f in r.findings:
            start, end = r.finding_range(f)
            result: dict[str, Any] = {
                "ruleId": f.code,
                "level": _SARIF_LEVEL[f.effective_severity],
                "message": {"text": f.message},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": _artifact_location(r.root, f.path, cwd),
                            "region": _region(start, end),
                        }
                    }
                ],
                "partialFingerprints": {FINGERPRINT_KEY: f.fingerprint},
            }
            if f.code in index:
                result["ruleIndex"] = index[f.code]
            related = list(_sarif_related(r, f, cwd))
            if related:
                result["relatedLocations"] = related
            results.append(result)
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": TOOL_NAME,
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": _file_uri(cwd, directory=True)}},
                "columnKind": "utf16CodeUnits",
                "results": results,
            }
        ],
    }
    return json_text(log) + "\n"


def _sarif_related(report: RepoReport, finding: Finding, cwd: Path) -> Iterable[dict[str, Any]]:
    for i, rel in enumerate(finding.related):
        start, end = report.range(rel.path, rel.span)
        yield {
            "id": i,
            "physicalLocation": {
                "artifactLocation": _artifact_location(report.root, rel.path, cwd),
                "region": _region(start, end),
            },
            "message": {"text": rel.message},
        }


def cwd_path() -> Path:
    """The current directory with symlinks resolved (repository roots are resolved too)."""
    return Path(os.getcwd()).resolve()
