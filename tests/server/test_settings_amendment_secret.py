"""The server hands GEMSTACK_AMENDMENT_SECRET from its environment to the analysis (never shown)."""

from __future__ import annotations

import pytest

from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.server.settings import Settings, analysis_options


def test_the_secret_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMSTACK_AMENDMENT_SECRET", "k3y-from-env")
    options = analysis_options(Settings())
    assert options.amendment_secret == "k3y-from-env"
    assert "k3y-from-env" not in repr(options)


def test_no_secret_and_an_explicit_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GEMSTACK_AMENDMENT_SECRET", raising=False)
    assert analysis_options(Settings()).amendment_secret is None
    base = AnalysisOptions(amendment_secret="given")
    assert analysis_options(Settings(), base).amendment_secret == "given"
