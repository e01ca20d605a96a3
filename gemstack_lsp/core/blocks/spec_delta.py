"""The ``gemstack-spec-delta`` block (Gemstack 2.0 specs): a change to a base spec.

The block is one JSON object (``base_spec``, ``added``, ``modified``, ``removed``). What it means
is a check across documents (its targets against the base spec's blocks), so its findings are
``core.spec_delta``'s, for every delta block of a feature's spec.md as the reference reads
them; this parser gives the registry what every kind has: the block located and parsed with
spans, for hover, completion, the outline and highlighting.
"""

from __future__ import annotations

from collections.abc import Sequence

from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks.base import BlockResult, parse_fence_json
from gemstack_lsp.core.markdown import Fence, fences_of_kind

KIND = kinds.SPEC_DELTA


def parse_spec_delta(path: str, text: str, fences: Sequence[Fence] | None = None) -> BlockResult[None]:
    """The first spec-delta block of one document, parsed (no findings of its own: see above)."""
    found = [f for f in (fences if fences is not None else fences_of_kind(text, KIND)) if f.kind == KIND]
    if not found:
        return BlockResult(KIND)
    fence = found[0]
    return BlockResult(KIND, fence=fence, root=parse_fence_json(fence).value, present=True)
