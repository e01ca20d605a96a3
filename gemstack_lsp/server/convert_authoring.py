"""The authoring features' plain data as LSP values: semantic tokens, highlights, folding and
selection ranges, inlay hints, and text edits.

Positions are in the negotiated encoding (``convert.to_range``); semantic tokens are encoded
as LSP's relative five-integer groups, each length counted in that encoding's code units.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from lsprotocol import types as lsp

from gemstack_lsp.core.text import Encoding, SourceText, column_width
from gemstack_lsp.ide.folding import Fold
from gemstack_lsp.ide.highlight import Highlight
from gemstack_lsp.ide.inlay_hints import InlayHint
from gemstack_lsp.ide.selection import SelectionChain
from gemstack_lsp.ide.semantic_tokens import LEGEND_MODIFIERS, LEGEND_TYPES, SemanticToken
from gemstack_lsp.server import convert

__all__ = [
    "LEGEND",
    "encode_tokens",
    "to_folding_ranges",
    "to_highlights",
    "to_inlay_hints",
    "to_selection_ranges",
    "token_edits",
]

#: The semantic tokens legend the server advertises (``ide.semantic_tokens`` documents it).
LEGEND = lsp.SemanticTokensLegend(token_types=list(LEGEND_TYPES), token_modifiers=list(LEGEND_MODIFIERS))

_TYPE_INDEX = {t: i for i, t in enumerate(LEGEND_TYPES)}
_MODIFIER_BIT = {m: 1 << i for i, m in enumerate(LEGEND_MODIFIERS)}


def encode_tokens(tokens: Iterable[SemanticToken], source: SourceText, encoding: Encoding) -> list[int]:
    """Tokens (in document order, each on one line) as LSP's relative integers."""
    data: list[int] = []
    prev_line = prev_char = 0
    for tok in tokens:
        start = source.position(tok.span.start, encoding)
        length = column_width(source.text[tok.span.start : tok.span.end], encoding)
        if length <= 0:
            continue
        delta_line = start.line - prev_line
        delta_char = start.character - prev_char if delta_line == 0 else start.character
        bits = 0
        for m in tok.modifiers:
            bits |= _MODIFIER_BIT[m]
        data += [delta_line, delta_char, length, _TYPE_INDEX[tok.token_type], bits]
        prev_line, prev_char = start.line, start.character
    return data


def token_edits(old: Sequence[int], new: Sequence[int]) -> list[lsp.SemanticTokensEdit]:
    """The edit turning ``old`` into ``new``: one replacement of the part between their common
    prefix and suffix (none when they are equal)."""
    if list(old) == list(new):
        return []
    prefix = 0
    limit = min(len(old), len(new))
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    return [
        lsp.SemanticTokensEdit(
            start=prefix, delete_count=len(old) - prefix - suffix, data=list(new[prefix : len(new) - suffix])
        )
    ]


def to_highlights(found: Iterable[Highlight], source: SourceText, encoding: Encoding) -> list[lsp.DocumentHighlight]:
    return [
        lsp.DocumentHighlight(
            range=convert.to_range(source, h.span, encoding),
            kind=lsp.DocumentHighlightKind.Write if h.write else lsp.DocumentHighlightKind.Read,
        )
        for h in found
    ]


_FOLD_KINDS = {"json": None, "block": lsp.FoldingRangeKind.Region, "heading": None, "task": None}


def to_folding_ranges(folds: Iterable[Fold]) -> list[lsp.FoldingRange]:
    """Folding ranges of whole lines (what clients with ``lineFoldingOnly`` accept too)."""
    return [lsp.FoldingRange(start_line=f.start_line, end_line=f.end_line, kind=_FOLD_KINDS.get(f.kind)) for f in folds]


def to_selection_ranges(
    chains: Iterable[SelectionChain], source: SourceText, encoding: Encoding, positions: Sequence[lsp.Position]
) -> list[lsp.SelectionRange]:
    """One selection range per position, its ``parent`` chain growing outwards."""
    out: list[lsp.SelectionRange] = []
    for chain, position in zip(chains, positions, strict=True):
        current: lsp.SelectionRange | None = None
        for span in reversed(chain.spans):
            current = lsp.SelectionRange(range=convert.to_range(source, span, encoding), parent=current)
        out.append(current or lsp.SelectionRange(range=lsp.Range(start=position, end=position)))
    return out


def to_inlay_hints(hints: Iterable[InlayHint], source: SourceText, encoding: Encoding) -> list[lsp.InlayHint]:
    return [
        lsp.InlayHint(
            position=convert.to_position(source, h.offset, encoding),
            label=h.label,
            padding_left=True,
            tooltip=h.tooltip,
        )
        for h in hints
    ]
