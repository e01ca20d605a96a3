"""Every message the test corpus and the fixtures produce has its Spanish (issue 18, item 7).

The corpus cases (``tests/corpus``), the fixture repositories (the reference's, the demo, the
upstream slices) and every case of the catalogue coverage table are analysed; each finding's
message, related messages and fix titles must match a template of ``core/i18n.py``. A check
added later whose messages have no Spanish fails here: register its ``SPANISH`` table with
``i18n.register_table`` (see the module docstring of ``gemstack_lsp/core/i18n.py``).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.core import i18n
from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.fs import DiskReader

ROOT = Path(__file__).parent.parent
FIXTURE_REPOS = [
    ROOT / "examples" / "demo",
    ROOT / "tests" / "fixtures" / "gemstack-reference" / "repo",
    ROOT / "tests" / "fixtures" / "upstream-realrepo" / "current-0x",
    ROOT / "tests" / "fixtures" / "upstream-013",
]
NOW = dt.datetime(2026, 12, 2, tzinfo=dt.UTC)


def _corpus_findings(tmp_path: Path) -> list[Finding]:
    from corpus.cases import ALL
    from corpus.harness import make_case

    out: list[Finding] = []
    for i, case in enumerate(ALL):
        root = make_case(tmp_path / "corpus" / str(i), case)
        out += analyze(GemstackRepo(str(root.resolve()), DiskReader(root)), AnalysisOptions(now=NOW))
    return out


def _fixture_findings() -> list[Finding]:
    out: list[Finding] = []
    for root in FIXTURE_REPOS:
        out += analyze(GemstackRepo(str(root), DiskReader(root)), AnalysisOptions(now=NOW))
    return out


def _catalogue_case_findings(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any) -> list[Finding]:
    """Every finding created while the catalogue coverage table runs, whichever analysis (``analyze``,
    a check's own entry point, a CLI command) made it: ``Finding.__post_init__`` is recorded."""
    import tests.test_catalogue_coverage as coverage

    recorded: list[Finding] = []
    original = Finding.__post_init__

    def recording(self: Finding) -> None:
        original(self)
        recorded.append(self)

    monkeypatch.setattr(Finding, "__post_init__", recording)
    for i, (_code, case) in enumerate(coverage.CASES):
        folder = tmp_path / "catalogue" / str(i)
        folder.mkdir(parents=True)
        case(folder, capsys)
    capsys.readouterr()
    monkeypatch.setattr(Finding, "__post_init__", original)
    return recorded


def test_every_produced_message_has_its_spanish(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    findings = _corpus_findings(tmp_path) + _fixture_findings()
    findings += _catalogue_case_findings(tmp_path, capsys, monkeypatch)
    codes = {f.code for f in findings}
    assert len(findings) > 500 and len(codes) >= 45  # the corpus really ran
    missing = i18n.missing_templates(findings)
    assert missing == [], "no Spanish template (register one with i18n.register):\n" + "\n".join(
        f"{code}: {message}" for code, message in missing
    )
    # And the translation is really Spanish: no message comes out unchanged but the few that are
    # the same words in both languages.
    same = {
        (f.code, f.message)
        for f in findings
        if i18n.localize(f.code, f.message, "es") == f.message and any(c.isalpha() for c in f.message)
    }
    assert same == set()


def test_every_catalogue_code_has_its_spanish() -> None:
    assert i18n.missing_catalogue() == []
