"""Every Gemstack block of one document, parsed once per (path, text).

``blocks_of`` runs the parser of each block kind of the registry (``gemstack_lsp.core.kinds``)
over a document's fences and adds the fence findings: ``FENCE_UNSEEN_BY_REFERENCE`` where the
reference gemstack CLI would miss or misread a block Markdown shows (and where it would read a
block Markdown does not show). It is memoised by (path, text), so an unchanged document costs
nothing on the next keystroke. One parser module per kind lives beside this one.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks.base import BlockResult
from gemstack_lsp.core.blocks.billable_actions import BillableAction
from gemstack_lsp.core.blocks.capabilities import CapabilityDeclaration
from gemstack_lsp.core.blocks.closure_gates import ClosureGate
from gemstack_lsp.core.blocks.contracts import FrozenContract
from gemstack_lsp.core.blocks.test_bindings import TestBinding
from gemstack_lsp.core.blocks.test_matrix import TestMatrixEntry
from gemstack_lsp.core.findings import Finding, Fix, TextEdit
from gemstack_lsp.core.markdown import Fence, reference_only_blocks, scan_fences
from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.repo import Document
from gemstack_lsp.core.text import SourceText, Span

__all__ = ["BlockResult", "DocumentBlocks", "blocks_of", "blocks_of_document", "fence_findings"]

T = TypeVar("T")

_INDEX = {k.name: i for i, k in enumerate(kinds.BLOCKS)}


@dataclass(frozen=True)
class DocumentBlocks:
    """The parsed blocks of one document and every finding about them.

    ``results`` holds one result per kind of ``kinds.BLOCKS``, in its order; ``of`` finds one by
    fence name, and the properties below give the typed results of the kinds other modules read.
    """

    path: str
    fences: tuple[Fence, ...]
    results: tuple[BlockResult[Any], ...]
    fence_findings: tuple[Finding, ...]

    def of(self, kind: str) -> BlockResult[Any]:
        """The result of the block kind named ``kind`` (a fence name of ``kinds.BLOCKS``)."""
        return self.results[_INDEX[kind]]

    @property
    def contracts(self) -> BlockResult[FrozenContract]:
        return self.of(kinds.CONTRACTS)

    @property
    def test_matrix(self) -> BlockResult[TestMatrixEntry]:
        return self.of(kinds.TEST_MATRIX)

    @property
    def test_bindings(self) -> BlockResult[TestBinding]:
        return self.of(kinds.TEST_BINDINGS)

    @property
    def closure_gates(self) -> BlockResult[ClosureGate]:
        return self.of(kinds.CLOSURE_GATES)

    @property
    def billable_actions(self) -> BlockResult[BillableAction]:
        return self.of(kinds.BILLABLE_ACTIONS)

    @property
    def capabilities(self) -> BlockResult[CapabilityDeclaration]:
        return self.of(kinds.CAPABILITIES)

    @property
    def inherited_contracts(self) -> BlockResult[FrozenContract]:
        """The contracts a Gemstack 2.0 plan restates (``gemstack-inherited-contracts``)."""
        return self.of(kinds.INHERITED_CONTRACTS)

    @property
    def spec_delta(self) -> BlockResult[None]:
        """The first change to a base spec (``gemstack-spec-delta``, Gemstack 2.0)."""
        return self.of(kinds.SPEC_DELTA)

    @property
    def contract_items(self) -> tuple[FrozenContract, ...]:
        """Every contract the document states: its own (``gemstack-contracts``), then the ones it
        restates as inherited (``gemstack-inherited-contracts``)."""
        return self.contracts.items + self.inherited_contracts.items

    @property
    def findings(self) -> tuple[Finding, ...]:
        """Every finding of the document's blocks, in document order."""
        out = list(self.fence_findings)
        for r in self.results:
            out.extend(r.findings)
        out.sort(key=lambda f: (f.span.start if f.span else -1, f.code, f.message))
        return tuple(out)


def _unindent_fix(path: str, text: str, fence: Fence) -> tuple[Fix, ...]:
    """Move an indented block's fences to column 0, when indentation is all that hides it.

    Offered only for a plain three-backtick fence whose info string is the bare kind, outside
    any container, closed by a bare fence: after the edit the reference reads it exactly.
    """
    if (
        fence.indent == 0
        or fence.in_container
        or not fence.terminated
        or fence.close_line is None
        or fence.fence_char != "`"
        or fence.fence_len != 3
        or fence.info.strip() != fence.kind
    ):
        return ()
    source = SourceText(text)
    edits = []
    for line in (fence.open_line, fence.close_line):
        start = source.line_start(line)
        content = source.line_text(line)
        width = len(content) - len(content.lstrip(" "))
        if content.strip() not in ("```", f"```{fence.kind}") or width > 3:
            return ()
        if width:
            edits.append(TextEdit(path, Span(start, start + width), ""))
    return (Fix("Move the Gemstack fence to column 0", tuple(edits), preferred=True),) if edits else ()


def fence_findings(path: str, text: str) -> tuple[Finding, ...]:
    """FENCE_UNSEEN_BY_REFERENCE for every block the reference would read differently from Markdown."""
    out: list[Finding] = []
    for f in scan_fences(text):
        if f.kind in kinds.REFERENCE_NAMES and f.reference_issue is not None:
            finding = Finding(
                "FENCE_UNSEEN_BY_REFERENCE",
                f"The reference gemstack CLI would not read this {f.kind} block as shown: {f.reference_issue}.",
                path,
                f.open_span,
                data={"kind": f.kind, "reason": f.reference_issue},
            )
            out.append(finding.with_fixes(*_unindent_fix(path, text, f)))
    for m in reference_only_blocks(text):
        if m.kind in kinds.REFERENCE_NAMES:
            out.append(Finding("FENCE_UNSEEN_BY_REFERENCE", m.message, path, m.span, data={"kind": m.kind}))
    return tuple(out)


def _guarded(
    kind: str,
    path: str,
    parse: Callable[[str, str, Sequence[Fence]], BlockResult[T]],
    text: str,
    fences: Sequence[Fence],
) -> BlockResult[T]:
    """Run one parser; a parser that raises yields a GEMSTACK_INTERNAL_ERROR finding, not a crash."""
    try:
        return parse(path, text, fences)
    except Exception as exc:  # one broken parser must not hide the other blocks
        where = traceback.extract_tb(exc.__traceback__)[-1]
        message = (
            f"Parsing the {kind} block failed: {type(exc).__name__}: {exc} "
            f"({where.filename.rsplit('/', 1)[-1]}:{where.lineno})"
        )
        span = fences[0].open_span if fences else None
        finding = Finding("GEMSTACK_INTERNAL_ERROR", message, path, span)
        return BlockResult(kind, findings=(finding,), present=bool(fences))


@per_text
def blocks_of(path: str, text: str) -> DocumentBlocks:
    """Every Gemstack block of the document at ``path`` (repository-relative) holding ``text``."""
    fences = scan_fences(text)

    def of(kind: str) -> tuple[Fence, ...]:
        return tuple(f for f in fences if f.kind == kind)

    results = tuple(_guarded(k.name, path, k.parse, text, of(k.name)) for k in kinds.BLOCKS)
    return DocumentBlocks(path=path, fences=fences, results=results, fence_findings=fence_findings(path, text))


def blocks_of_document(doc: Document) -> DocumentBlocks | None:
    """The blocks of a repository document (``None`` when it could not be read or decoded)."""
    if doc.text is None:
        return None
    return blocks_of(doc.path, doc.text)
