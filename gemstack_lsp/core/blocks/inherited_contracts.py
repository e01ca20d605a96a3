"""The ``gemstack-inherited-contracts`` block (Gemstack 2.0 plans): the contracts a phase restates.

Upstream 2.0 plans (specs 012-014) open with ``## 1. Inherited Architecture Contracts`` and a
``gemstack-inherited-contracts`` block: a JSON array of contracts in the ``gemstack-contracts``
shape, restating the feature's own spec.md contracts. The reference CLI reads no such block (it
is legacy text to ``gemstack verify``), so a contradiction there would go unseen. Here it gets
the contract rules and codes of ``gemstack-contracts`` (``CONTRACT_PARSE_ERROR``,
``CONTRACT_INVALID_SHAPE``, ``CONTRACT_DUPLICATE_ID``, ``CONTRACT_UNKNOWN_TYPE``), and the
documents check compares each entry with the declaration it inherits
(``FROZEN_CONTRACT_VIOLATION``, exactly as a redeclaration in ``gemstack-contracts``).
"""

from __future__ import annotations

from collections.abc import Sequence

from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks.base import BlockKindInfo, BlockResult, read_block
from gemstack_lsp.core.blocks.contracts import FrozenContract, contracts_of
from gemstack_lsp.core.markdown import Fence

KIND = kinds.INHERITED_CONTRACTS

INFO = BlockKindInfo(
    KIND,
    "CONTRACT_PARSE_ERROR",
    "Multiple gemstack-inherited-contracts blocks detected ({n}). Exactly one is permitted.",
    "Malformed JSON in gemstack-inherited-contracts block: ",
)


def parse_inherited_contracts(
    path: str, text: str, fences: Sequence[Fence] | None = None
) -> BlockResult[FrozenContract]:
    """The inherited-contracts block of one document (upstream writes it in plan.md)."""
    return contracts_of(read_block(path, text, INFO, fences, plain=True))
