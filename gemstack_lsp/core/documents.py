"""Placeholder until this area lands: contributes no findings yet."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.repo import GemstackRepo

if TYPE_CHECKING:
    from gemstack_lsp.core.rules import AnalysisOptions


def check_repo(repo: GemstackRepo, options: AnalysisOptions) -> Iterable[Finding]:
    return ()
