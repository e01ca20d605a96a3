"""The adversarial corpus through `gemstack-lsp check --format json` and through ``analyze``.

Each case (``tests/corpus/cases/``) is a small repository written to tmp_path and the exact
documents findings it must produce, as (code, path, 0-based line, UTF-16 column). Cases that
show a bug of a module this corpus does not own are in ``test_known_bugs.py``-style functions
below, one per bug, and fail until the bug is fixed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from corpus.cases import ALL
from corpus.harness import Case, check_case


@pytest.mark.parametrize("case", ALL, ids=str)
def test_case(case: Case, tmp_path: Path, capsys: Any) -> None:
    check_case(tmp_path, case, capsys)


def test_reference_fixture_has_no_documents_findings(capsys: Any) -> None:
    """The reference repository is valid: no documents finding at all, through both paths."""
    from corpus.harness import analyze_positions, cli_json, cli_positions

    root = Path(__file__).resolve().parent.parent / "fixtures" / "gemstack-reference" / "repo"
    assert analyze_positions(root)[0] == []
    _, payload = cli_json(root, capsys)
    assert cli_positions(payload) == []


def test_corpus_names_are_unique() -> None:
    names = [c.name for c in ALL]
    assert len(names) == len(set(names))
