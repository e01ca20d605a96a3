"""Runs every check over one repository snapshot and returns the findings.

The same function serves `gemstack-lsp check` and the language server, so CI and the
editor always agree. Each area contributes one ``check_repo(repo, options)`` function.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from gemstack_lsp.core.findings import Finding, internal_error
from gemstack_lsp.core.memo import ensure_memo
from gemstack_lsp.core.options import ENVIRONMENTS, AnalysisOptions
from gemstack_lsp.core.repo import GemstackRepo

__all__ = ["ENVIRONMENTS", "AnalysisOptions", "analyze", "sort_findings"]

Check = Callable[[GemstackRepo, AnalysisOptions], Iterable[Finding]]


def _checks() -> list[tuple[str, Check]]:
    from gemstack_lsp.core import documents
    from gemstack_lsp.core.capsule import verify
    from gemstack_lsp.core.cost import checks

    return [
        ("documents", documents.check_repo),
        ("capsule", verify.check_repo),
        ("cost", checks.check_repo),
    ]


def analyze(repo: GemstackRepo, options: AnalysisOptions | None = None) -> list[Finding]:
    """Every finding for the repository, sorted by path and position.

    A check that raises does not stop the others: its failure becomes a
    ``GEMSTACK_INTERNAL_ERROR`` finding, so a surprising document never takes the editor down.
    """
    options = options or AnalysisOptions()
    findings: list[Finding] = []
    with ensure_memo():
        _run_checks(repo, options, findings)
    return sort_findings(findings)


def _run_checks(repo: GemstackRepo, options: AnalysisOptions, findings: list[Finding]) -> None:
    for family, check in _checks():
        if family in options.disabled:
            continue
        try:
            findings.extend(check(repo, options))
        except Exception as exc:  # a bug in one check must not hide the others' findings
            # Each area isolates its features itself; this catches a failure outside them.
            path = ".gemstack/state.json" if repo.exists(".gemstack/state.json") else "specs"
            findings.append(internal_error(family, path, exc))


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.path, f.span.start if f.span else -1, f.code, f.message))
