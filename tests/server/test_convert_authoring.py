"""The authoring features' LSP encoding: semantic tokens in each position encoding, deltas,
selection chains and folding kinds."""

from __future__ import annotations

import random

import pytest
from lsprotocol import types as lsp

from gemstack_lsp.core.text import Encoding, SourceText, Span
from gemstack_lsp.ide.folding import Fold
from gemstack_lsp.ide.selection import SelectionChain
from gemstack_lsp.ide.semantic_tokens import LEGEND_MODIFIERS, LEGEND_TYPES, SemanticToken
from gemstack_lsp.server import convert_authoring

TEXT = "Café 😀 `no-free-lunch`\n  😀😀 TEST-A-B01 and T001\n"


def _span(word: str, nth: int = 0) -> Span:
    at = -1
    for _ in range(nth + 1):
        at = TEXT.index(word, at + 1)
    return Span(at, at + len(word))


TOKENS = [
    SemanticToken(_span("no-free-lunch"), "contract", declaration=True, readonly=True),
    SemanticToken(_span("TEST-A-B01"), "test"),
    SemanticToken(_span("T001"), "task"),
]


@pytest.mark.parametrize(
    ("encoding", "expected"),
    [
        # "Café 😀 `" is 9 UTF-16 units (the emoji is two), 12 UTF-8 bytes, 8 code points;
        # "  😀😀 " is 7, 11 and 5.
        ("utf-16", [0, 9, 13, 0, 3, 1, 7, 10, 1, 0, 0, 15, 4, 2, 0]),
        ("utf-8", [0, 12, 13, 0, 3, 1, 11, 10, 1, 0, 0, 15, 4, 2, 0]),
        ("utf-32", [0, 8, 13, 0, 3, 1, 5, 10, 1, 0, 0, 15, 4, 2, 0]),
    ],
)
def test_tokens_are_encoded_in_the_negotiated_encoding(encoding: Encoding, expected: list[int]) -> None:
    assert convert_authoring.encode_tokens(TOKENS, SourceText(TEXT), encoding) == expected


def test_the_legend_is_standard_lsp() -> None:
    standard_types = {t.value for t in lsp.SemanticTokenTypes}
    standard_modifiers = {m.value for m in lsp.SemanticTokenModifiers}
    assert set(LEGEND_TYPES) <= standard_types and set(LEGEND_MODIFIERS) <= standard_modifiers
    assert convert_authoring.LEGEND.token_types == list(LEGEND_TYPES)


def _apply(old: list[int], edits: list[lsp.SemanticTokensEdit]) -> list[int]:
    out = list(old)
    for e in sorted(edits, key=lambda e: e.start, reverse=True):
        out[e.start : e.start + e.delete_count] = list(e.data or [])
    return out


def test_a_delta_turns_the_old_integers_into_the_new() -> None:
    rng = random.Random(20)
    for _ in range(300):
        old = [rng.randrange(4) for _ in range(rng.randrange(0, 30))]
        new = list(old)
        for _ in range(rng.randrange(0, 4)):
            at = rng.randrange(len(new) + 1)
            if rng.random() < 0.5 and new:
                del new[min(at, len(new) - 1)]
            else:
                new.insert(at, rng.randrange(4))
        edits = convert_authoring.token_edits(old, new)
        assert _apply(old, edits) == new
        assert (edits == []) == (old == new)
        assert len(edits) <= 1


def test_selection_ranges_nest_outwards() -> None:
    source = SourceText(TEXT)
    chain = SelectionChain((_span("no-free-lunch"), Span(0, source.line_end(0)), Span(0, len(TEXT))))
    (first,) = convert_authoring.to_selection_ranges([chain], source, "utf-16", [lsp.Position(line=0, character=10)])
    sel: lsp.SelectionRange | None = first
    widths = []
    while sel is not None:
        widths.append((sel.range.start.character, sel.range.end.line, sel.range.end.character))
        sel = sel.parent
    assert widths == [(9, 0, 22), (0, 0, 23), (0, 2, 0)]


def test_an_empty_chain_is_the_cursor_itself() -> None:
    at = lsp.Position(line=1, character=3)
    (sel,) = convert_authoring.to_selection_ranges([SelectionChain(())], SourceText(TEXT), "utf-16", [at])
    assert sel.range == lsp.Range(start=at, end=at) and sel.parent is None


def test_blocks_fold_as_regions() -> None:
    ranges = convert_authoring.to_folding_ranges([Fold(0, 3, "block"), Fold(1, 2, "json")])
    assert [(r.start_line, r.end_line, r.kind) for r in ranges] == [(0, 3, lsp.FoldingRangeKind.Region), (1, 2, None)]
