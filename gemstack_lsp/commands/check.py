"""`gemstack-lsp check [PATH ...]`: analyse the repositories holding PATHs and print every finding.

Read-only and offline: files are read through ``DiskReader`` and nothing is written. Exit
status: 1 when any blocker (error) was found, else 0; ``--exit-zero`` 0 then; 2 when a path
cannot be read or lies in no Gemstack repository, and 2 when a check failed on an internal
error (its ``GEMSTACK_INTERNAL_ERROR`` findings are printed with the others, and stderr says so),
whatever ``--exit-zero`` says.
"""

from __future__ import annotations

import argparse
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
    from gemstack_lsp.fs import DiskReader, find_repo_root
    from gemstack_lsp.host import AnalysisHost
    from gemstack_lsp.report import RepoReport, cwd_path, render_json, render_sarif, render_text, summarize

    cwd = cwd_path()
    # Repository root -> the repository-relative scopes asked for ("" = the whole repository).
    wanted: dict[Path, set[str]] = {}
    for raw in args.paths or ["."]:
        given = Path(raw)
        if not os.path.lexists(given):
            return _fail(f"cannot read {raw}: no such file or directory")
        if not os.access(given, os.R_OK) or (given.is_dir() and not os.access(given, os.X_OK)):
            return _fail(f"cannot read {raw}: permission denied")
        full = given.resolve()
        if not full.exists():
            return _fail(f"cannot read {raw}: it is a broken symbolic link")
        root = find_repo_root(full)
        if root is None:
            return _fail(f"{raw} is not inside a Gemstack repository (no .gemstack/ or specs/ folder found above it)")
        rel = normalize_relpath(full.relative_to(root).as_posix())
        wanted.setdefault(root, set()).add(rel)

    reports: list[RepoReport] = []
    for root, scopes in wanted.items():
        snapshot = AnalysisHost(str(root), DiskReader(root)).snapshot()
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
    if args.exit_zero:
        return EXIT_OK
    return EXIT_BLOCKERS if summarize(reports).blockers else EXIT_OK
