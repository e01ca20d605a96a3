"""`gemstack-lsp check [PATH ...]`: analyse the repositories holding PATHs and print every finding.

Read-only and offline: files are read through ``DiskReader`` and nothing is written. Exit
status: 1 when any blocker (error) was found, else 0; ``--exit-zero`` 0 then; 2 when a path
cannot be read or lies in no Gemstack repository, and 2 when a check failed on an internal
error (its ``GEMSTACK_INTERNAL_ERROR`` findings are printed with the others, and stderr says so),
whatever ``--exit-zero`` says.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
from pathlib import Path

from gemstack_lsp.commands.output import say, write_stdout
from gemstack_lsp.core.reader import normalize_relpath

EXIT_OK = 0
EXIT_BLOCKERS = 1
EXIT_USAGE = 2
EXIT_INTERNAL_ERROR = 2
INTERNAL_ERROR = "GEMSTACK_INTERNAL_ERROR"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="files or folders inside Gemstack repositories (default: the current directory)",
    )
    parser.add_argument(
        "--format",
        choices=("text", "json", "sarif"),
        default="text",
        help="output format (default: text)",
    )
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even when blockers are found")


def _fail(message: str) -> int:
    say(f"gemstack-lsp check: {message}", err=True)
    return EXIT_USAGE


def _in_scope(path: str, scopes: set[str]) -> bool:
    if "" in scopes:
        return True
    return any(path == s or path.startswith(s + "/") for s in scopes)


def run(args: argparse.Namespace) -> int:
    from gemstack_lsp import containment
    from gemstack_lsp.commands import parallel
    from gemstack_lsp.core.options import AnalysisOptions
    from gemstack_lsp.fs import DiskReader
    from gemstack_lsp.host import AnalysisHost
    from gemstack_lsp.report import RepoReport, cwd_path, render_json, render_sarif, render_text, summarize

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

    reports: list[RepoReport] = []
    options = AnalysisOptions(now=dt.datetime.now(dt.UTC))  # one clock for every process
    for root, scopes in wanted.items():
        host = AnalysisHost(str(root), DiskReader(root), options)
        snapshot = host.snapshot()
        parallel.analyze(host, snapshot)
        findings = tuple(f for f in snapshot.findings() if _in_scope(f.path, scopes))
        reports.append(RepoReport(root, snapshot.repo, findings))

    if args.format == "json":
        out = render_json(reports)
    elif args.format == "sarif":
        out = render_sarif(reports, cwd)
    else:
        out = render_text(reports, cwd)
    write_stdout(out)
    internal = sum(1 for r in reports for f in r.findings if f.code == INTERNAL_ERROR)
    if internal:
        say(
            f"gemstack-lsp check: internal error: {internal} check(s) failed unexpectedly "
            f"(see the {INTERNAL_ERROR} findings); the other checks ran. Please report it.",
            err=True,
        )
        return EXIT_INTERNAL_ERROR
    for raw, root, scope, why in escaped:
        say(f"gemstack-lsp check: {raw} is not checked: {why}", err=True)
        if not any(r.root == root and any(_in_scope(f.path, {scope}) for f in r.findings) for r in reports):
            # Nothing reports it (a path deeper than analysis looks): never a silent pass.
            return EXIT_USAGE
    if args.exit_zero:
        return EXIT_OK
    return EXIT_BLOCKERS if summarize(reports).blockers else EXIT_OK
