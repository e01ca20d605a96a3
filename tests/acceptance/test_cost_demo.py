"""The cost problems planted in examples/demo (listed in its README) are found exactly there."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from gemstack_lsp.core.cost.checks import check_repo, preview_action
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.text import SourceText
from gemstack_lsp.fs import DiskReader

DEMO = Path(__file__).resolve().parents[2] / "examples" / "demo"
OPTIONS = AnalysisOptions(now=dt.datetime(2026, 12, 2, tzinfo=dt.UTC))

#: (code, path, 1-based line, 1-based UTF-16 column), as examples/demo/README.md lists them.
PLANTED = {
    ("UNKNOWN_PROVIDER_IDENTITY", "specs/010-release-notes/spec.md", 30, 19),
    ("PROVIDER_FALLBACK_TO_BILLABLE", "specs/010-release-notes/spec.md", 22, 35),
    ("STALE_PROVIDER_COST_ASSUMPTION", "specs/010-release-notes/cost-ledger.json", 28, 29),
}


def test_demo_cost_problems_are_reported_where_the_readme_says() -> None:
    repo = GemstackRepo(str(DEMO), DiskReader(DEMO))
    found = set()
    for f in check_repo(repo, OPTIONS):
        if not f.path.startswith("specs/010-release-notes/"):
            continue
        text = repo.document(f.path).text
        assert text is not None and f.span is not None
        pos = SourceText(text).position(f.span.start)
        found.add((f.code, f.path, pos.line + 1, pos.character + 1))
    assert found == PLANTED


def test_demo_mock_action_is_allowed_everywhere() -> None:
    repo = GemstackRepo(str(DEMO), DiskReader(DEMO))
    preview = preview_action(repo, "test-summaries", options=OPTIONS)
    assert {d.reason_code for d in preview.values()} == {"ACTION_AUTHORIZED_FREE"}
