"""`gemstack-lsp check [PATH ...]`: analyse the repositories holding PATHs and print every finding.

Read-only and offline: files are read through ``DiskReader`` and nothing is written. Exit
status: 1 when any blocker (error) was found, else 0; ``--exit-zero`` 0 then; 2 when a path
cannot be read or lies in no Gemstack repository, and 2 when a check failed on an internal
error (its ``GEMSTACK_INTERNAL_ERROR`` findings are printed with the others, and stderr says so),
whatever ``--exit-zero`` says.

The repository's configuration (``.gemstack/lsp.toml`` or ``[tool.gemstack-lsp]``, or the file
``--config`` names) is read as the server reads it (``core.config``): its ``environment`` and
``max-ledger-age-days`` reach the analysis, its ``severity``, ``ignore`` and ``[[overrides]]``
and the Markdown suppressions are applied by ``core.policy.apply_policy``, and the exit status
counts the findings left. The flags ``--environment``, ``--max-ledger-age-days``, ``--select``
and ``--ignore`` override the file for this run.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from gemstack_lsp.commands.output import say, write_stdout
from gemstack_lsp.core.i18n import CLI_MESSAGE, current_language, localize
from gemstack_lsp.core.options import AMENDMENT_SECRET_ENV, ENVIRONMENTS, AnalysisOptions
from gemstack_lsp.core.reader import normalize_relpath

if TYPE_CHECKING:
    from gemstack_lsp.core.config import ProjectConfig
    from gemstack_lsp.core.feature import Feature
    from gemstack_lsp.core.findings import Finding
    from gemstack_lsp.core.policy import FindingPolicy, HiddenFinding, Suppression
    from gemstack_lsp.core.repo import GemstackRepo

EXIT_OK = 0
EXIT_BLOCKERS = 1
EXIT_USAGE = 2
EXIT_INTERNAL_ERROR = 2
INTERNAL_ERROR = "GEMSTACK_INTERNAL_ERROR"
FORMATS = ("text", "json", "sarif", "github", "gitlab")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="files or folders inside Gemstack repositories (default: the current directory)",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="output format: text, json, sarif, github (workflow commands), gitlab (Code Quality) (default: text)",
    )
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even when blockers are found")
    # Read (and removed from the arguments) by the command line's entry point for every
    # subcommand; listed here so that `check --help` shows it.
    parser.add_argument(
        "--lang",
        choices=("en", "es"),
        help="language of the messages (default: LC_ALL, LC_MESSAGES or LANG; Spanish when it starts with es)",
    )
    parser.add_argument(
        "--config",
        metavar="PATH",
        help="read this configuration file instead of the repository's .gemstack/lsp.toml (or pyproject.toml)",
    )
    parser.add_argument(
        "--environment",
        choices=ENVIRONMENTS,
        help="environment tier for the gates (overrides the configuration's 'environment')",
    )
    parser.add_argument(
        "--max-ledger-age-days",
        type=_days,
        metavar="DAYS",
        help="maximum age of a ledger's freshness_date (overrides the configuration)",
    )
    parser.add_argument(
        "--select",
        action="append",
        metavar="CODES",
        help="report only these codes or families (comma-separated; may be repeated)",
    )
    parser.add_argument(
        "--ignore",
        action="append",
        metavar="CODES",
        help="do not report these codes or families (comma-separated; may be repeated; adds to the configuration)",
    )
    parser.add_argument(
        "--statistics", action="store_true", help="print the number of findings per code and severity instead"
    )
    parser.add_argument(
        "--show-suppressed",
        action="store_true",
        help="also list the findings the configuration or a suppression hid, with the reason (text, json; "
        "sarif as suppressed results)",
    )


def _days(raw: str) -> int:
    try:
        value = int(raw, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{raw!r} is not a whole number of days") from None
    if not 0 <= value <= 36_500:
        raise argparse.ArgumentTypeError("a whole number of days from 0 to 36500")
    return value


def _codes(values: list[str] | None) -> list[str]:
    return [c.strip() for v in values or [] for c in v.split(",") if c.strip()]


def _say(message: str) -> None:
    """A message of this command on stderr, in the run's language."""
    say(f"gemstack-lsp check: {localize(CLI_MESSAGE, message, current_language())}", err=True)


def _fail(message: str) -> int:
    _say(message)
    return EXIT_USAGE


def _explicit_config(raw: str) -> ProjectConfig | None:
    """The configuration file ``--config`` names, or ``None`` (said on stderr) when it cannot be used."""
    from gemstack_lsp.core.config import parse_project_config

    try:
        data = Path(raw).read_bytes()
    except OSError as exc:
        _fail(f"cannot read the configuration {raw}: {exc.strerror or exc}")
        return None
    config = parse_project_config(raw, data, pyproject=Path(raw).name == "pyproject.toml")
    language = current_language()
    for f in config.findings:  # ``config.errors``, each message in the run's language
        say(f"gemstack-lsp check: {f.path}: {localize(f.code, f.message, language).rstrip('.')}", err=True)
    if not config.parsed:
        _say(f"the configuration {raw} cannot be used")
        return None
    return config


def _apply_policy(
    repo: GemstackRepo, by_path: dict[str, list[Finding]], policy: FindingPolicy
) -> tuple[list[Finding], list[HiddenFinding]]:
    """The findings to print and the hidden ones: ``core.policy.apply_policy`` per file, with the
    sidecar exceptions of each feature read once (the same call the server makes)."""
    from gemstack_lsp.core.policy import apply_policy
    from gemstack_lsp.core.suppressions import accepted_exceptions, exceptions_on

    sidecars: dict[str, tuple[Suppression, ...]] = {}

    def of_feature(feature: Feature) -> tuple[Suppression, ...]:
        if feature.name not in sidecars:
            sidecars[feature.name] = accepted_exceptions(repo, feature)
        return sidecars[feature.name]

    shown: list[Finding] = []
    hidden: list[HiddenFinding] = []
    for path in sorted(by_path):
        result = apply_policy(by_path[path], policy, exceptions_on(repo, path, of_feature))
        shown.extend(result.visible)
        hidden.extend(result.hidden)
    return shown, hidden


def _in_scope(path: str, scopes: set[str]) -> bool:
    if "" in scopes:
        return True
    return any(path == s or path.startswith(s + "/") for s in scopes)


def environment_options() -> AnalysisOptions:
    """The analysis options the environment sets: ``GEMSTACK_AMENDMENT_SECRET``, the key that
    amendment signatures are checked with (as the reference's verify reads it)."""
    return AnalysisOptions(amendment_secret=os.environ.get(AMENDMENT_SECRET_ENV) or None)


def run(args: argparse.Namespace) -> int:
    from gemstack_lsp import containment
    from gemstack_lsp.commands import parallel
    from gemstack_lsp.commands.output import json_text
    from gemstack_lsp.core.config import merge_select, read_project_config
    from gemstack_lsp.core.findings import CATALOGUE
    from gemstack_lsp.core.policy import known_families
    from gemstack_lsp.fs import DiskReader
    from gemstack_lsp.host import AnalysisHost
    from gemstack_lsp.report import RepoReport, cwd_path, localized, render_json, render_sarif, render_text, summarize
    from gemstack_lsp.report_ci import (
        colour_enabled,
        colourize_text,
        render_github,
        render_gitlab,
        render_statistics,
        render_suppressed,
        suppressed_json,
        with_sarif_suppressions,
    )

    cwd = cwd_path()
    # Repository root -> the repository-relative scopes asked for ("" = the whole repository).
    wanted: dict[Path, set[str]] = {}
    #: Paths whose real path leaves their repository: (as given, root, scope, why).
    escaped: list[tuple[str, Path, str, str]] = []
    for raw in args.paths or ["."]:
        given = Path(raw)
        if not os.path.lexists(given):
            return _fail(f"cannot read {raw}: no such file or directory")
        if not os.access(given, os.R_OK) or (given.is_dir() and not os.access(given, os.X_OK)):
            return _fail(f"cannot read {raw}: permission denied")
        full = given.resolve()
        if not full.exists():
            return _fail(f"cannot read {raw}: it is a broken symbolic link")
        # The repository is found where the path is written, not where its links lead: a
        # path whose real path leaves its repository is that repository's finding.
        where = containment.locate(str(given.absolute()))
        if where.root is None:
            return _fail(f"{raw} is not inside a Gemstack repository (no .gemstack/ or specs/ folder found above it)")
        rel = where.rel if where.rel is not None else where.written_rel
        if rel is None:
            return _fail(f"{raw} is not inside a Gemstack repository (no .gemstack/ or specs/ folder found above it)")
        wanted.setdefault(Path(where.root.real), set()).add(normalize_relpath(rel))
        if where.rel is None:
            escaped.append((raw, Path(where.root.real), normalize_relpath(rel), where.escape or ""))

    select, ignore = _codes(args.select), _codes(args.ignore)
    unknown = [c for c in [*select, *ignore] if c not in CATALOGUE and c not in known_families()]
    if unknown:
        return _fail(f"unknown finding code or family: {', '.join(unknown)}")
    explicit = None
    if args.config is not None:
        explicit = _explicit_config(args.config)
        if explicit is None:
            return EXIT_USAGE

    reports: list[RepoReport] = []
    hidden: list[tuple[RepoReport, HiddenFinding]] = []
    now = dt.datetime.now(dt.UTC)  # one clock for every process
    with parallel.few_collections():  # the analysis makes many objects and no garbage cycles
        for root, scopes in wanted.items():
            config = explicit if explicit is not None else read_project_config(DiskReader(root))
            options = config.analysis_options(replace(environment_options(), now=now))
            if args.environment is not None:
                options = replace(options, environment=args.environment)
            if args.max_ledger_age_days is not None:
                options = replace(options, max_ledger_age_days=args.max_ledger_age_days)
            options = replace(options, policy=merge_select(options.policy, select, ignore))
            host = AnalysisHost(str(root), DiskReader(root), options)
            snapshot = host.snapshot()
            places = parallel.analyze(host, snapshot)  # large repositories: feature units on both cores
            by_path: dict[str, list[Finding]] = {}
            for f in snapshot.findings():
                if _in_scope(f.path, scopes):
                    by_path.setdefault(f.path, []).append(f)
            shown, gone = _apply_policy(snapshot.repo, by_path, options.policy)
            report = RepoReport(root, snapshot.repo, tuple(shown), places)
            reports.append(report)
            hidden.extend((report, h) for h in gone)

    # Every message in the run's language (English unless --lang es or a Spanish locale).
    language = current_language()
    reports = localized(reports, language)

    if args.statistics:
        out = render_statistics(reports, as_json=args.format == "json")
    elif args.format == "json":
        out = render_json(reports, language)
        if args.show_suppressed:
            payload = json.loads(out)
            payload["suppressed"] = suppressed_json(hidden)
            out = json_text(payload) + "\n"
    elif args.format == "sarif":
        out = render_sarif(reports, cwd, language)
        if args.show_suppressed:
            out = with_sarif_suppressions(out, hidden, cwd)
    elif args.format == "github":
        out = render_github(reports, cwd)
    elif args.format == "gitlab":
        out = render_gitlab(reports, cwd)
    else:
        out = render_text(reports, cwd, language)
        if args.show_suppressed:
            out += render_suppressed(hidden, cwd)
        if colour_enabled(sys.stdout):
            out = colourize_text(out)
    write_stdout(out)
    internal = sum(1 for r in reports for f in r.findings if f.code == INTERNAL_ERROR)
    if internal:
        _say(
            f"internal error: {internal} check(s) failed unexpectedly "
            f"(see the {INTERNAL_ERROR} findings); the other checks ran. Please report it."
        )
        return EXIT_INTERNAL_ERROR
    for raw, root, scope, why in escaped:
        _say(f"{raw} is not checked: {why}")
        if not any(r.root == root and any(_in_scope(f.path, {scope}) for f in r.findings) for r in reports):
            # Nothing reports it (a path deeper than analysis looks): never a silent pass.
            return EXIT_USAGE
    if args.exit_zero:
        return EXIT_OK
    return EXIT_BLOCKERS if summarize(reports).blockers else EXIT_OK
