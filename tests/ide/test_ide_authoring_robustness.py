"""Bad input never breaks an authoring feature: every feature, on documents cut at many points
(unterminated fences and strings, half objects), with a BOM, NULs and lone surrogates, at
every kind of cursor, answers with data (or refuses with its own exception), never raises."""

from __future__ import annotations

import contextlib
import itertools
from pathlib import Path

import pytest
from authoring_fixture import parse_fixture

from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.text import Span
from gemstack_lsp.host import AnalysisHost
from gemstack_lsp.ide.folding import document_folds
from gemstack_lsp.ide.formatting import FormatRefused, format_document
from gemstack_lsp.ide.highlight import document_highlights
from gemstack_lsp.ide.inlay_hints import inlay_hints
from gemstack_lsp.ide.rename import RenameRefused, plan_rename
from gemstack_lsp.ide.selection import selection_chains
from gemstack_lsp.ide.semantic_tokens import semantic_tokens

BASE = parse_fixture(
    "base", (Path(__file__).parent / "authoring" / "semantic_tokens" / "feature_documents.fixture").read_text("utf-8")
)
SPEC = "specs/001-images/spec.md"
PLAN = "specs/001-images/plan.md"
LEDGER = "specs/001-images/cost-ledger.json"


def _variants(text: str) -> list[str | bytes]:
    cuts: list[str | bytes] = [text[:n] for n in range(0, len(text), max(1, len(text) // 40))]
    broken = text.encode("utf-8")
    return [
        *cuts,
        "\ufeff" + text,
        text.replace('"', "", 3),
        text.replace("```", "~~~", 1),
        "\x00" + text,
        b"\xff\xfe" + broken[: len(broken) // 2] + b"\xc3" + broken[len(broken) // 2 :],
    ]


def _exercise(files: dict[str, str | bytes], path: str) -> None:
    snap = AnalysisHost("/repo", MemoryReader(files)).snapshot()
    text = snap.repo.document(path).text or ""
    tokens = semantic_tokens(snap, path)
    assert all(0 <= t.span.start < t.span.end <= len(text) for t in tokens)
    assert all(a.span.end <= b.span.start for a, b in itertools.pairwise(tokens))
    folds = document_folds(snap, path)
    assert all(0 <= f.start_line < f.end_line for f in folds)
    inlay_hints(snap, path)
    inlay_hints(snap, path, Span(0, len(text) // 2))
    with contextlib.suppress(FormatRefused):
        format_document(snap, path)
    offsets = sorted({0, len(text), *range(0, len(text), max(1, len(text) // 25))})
    for chain in selection_chains(snap, path, offsets):
        assert all(a.start >= b.start and a.end <= b.end for a, b in itertools.pairwise(chain.spans))
    for offset in offsets:
        document_highlights(snap, path, offset)
        with contextlib.suppress(RenameRefused):
            plan_rename(snap, path, offset, "renamed-id")


@pytest.mark.parametrize("path", [SPEC, PLAN, LEDGER])
def test_broken_documents_never_break_a_feature(path: str) -> None:
    for variant in _variants(BASE.files[path]):
        _exercise({**BASE.files, path: variant}, path)
