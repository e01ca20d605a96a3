"""Every Gemstack block of one document, parsed once per (path, text).

``blocks_of`` runs the parser of each block kind over a document's fences and adds the fence
findings: ``FENCE_UNSEEN_BY_REFERENCE`` where the reference gemstack CLI would miss or misread
a block Markdown shows (and where it would read a block Markdown does not show). It is
memoised by (path, text), so an unchanged document costs nothing on the next keystroke. One
parser module per kind lives beside this one.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from gemstack_lsp.core.blocks.base import BlockResult
from gemstack_lsp.core.blocks.billable_actions import BillableAction, parse_billable_actions
from gemstack_lsp.core.blocks.capabilities import CapabilityDeclaration, parse_capabilities
from gemstack_lsp.core.blocks.closure_gates import ClosureGate, parse_closure_gates
from gemstack_lsp.core.blocks.contracts import FrozenContract, parse_contracts
from gemstack_lsp.core.blocks.inherited_contracts import parse_inherited_contracts
from gemstack_lsp.core.blocks.test_bindings import TestBinding, parse_test_bindings
from gemstack_lsp.core.blocks.test_matrix import TestMatrixEntry, parse_test_matrix
from gemstack_lsp.core.findings import Finding, Fix, TextEdit
from gemstack_lsp.core.markdown import REFERENCE_KINDS, Fence, reference_only_blocks, scan_fences
from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.repo import Document
from gemstack_lsp.core.text import SourceText, Span

__all__ = ["BlockResult", "DocumentBlocks", "blocks_of", "blocks_of_document", "fence_findings"]

T = TypeVar("T")


@dataclass(frozen=True)
class DocumentBlocks:
    """The parsed blocks of one document and every finding about them."""

    path: str
    fences: tuple[Fence, ...]
    contracts: BlockResult[FrozenContract]
    test_matrix: BlockResult[TestMatrixEntry]
    test_bindings: BlockResult[TestBinding]
    closure_gates: BlockResult[ClosureGate]
    billable_actions: BlockResult[BillableAction]
    capabilities: BlockResult[CapabilityDeclaration]
    fence_findings: tuple[Finding, ...]
    #: The contracts a Gemstack 2.0 plan restates (``gemstack-inherited-contracts``).
    inherited_contracts: BlockResult[FrozenContract]

    @property
    def results(self) -> tuple[BlockResult[Any], ...]:
        return (
            self.contracts,
            self.test_matrix,
            self.test_bindings,
            self.closure_gates,
            self.billable_actions,
            self.capabilities,
            self.inherited_contracts,
        )

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
        if f.kind in REFERENCE_KINDS and f.reference_issue is not None:
            finding = Finding(
                "FENCE_UNSEEN_BY_REFERENCE",
                f"The reference gemstack CLI would not read this {f.kind} block as shown: {f.reference_issue}.",
                path,
                f.open_span,
                data={"kind": f.kind, "reason": f.reference_issue},
            )
            out.append(finding.with_fixes(*_unindent_fix(path, text, f)))
    for m in reference_only_blocks(text):
        if m.kind in REFERENCE_KINDS:
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

    return DocumentBlocks(
        path=path,
        fences=fences,
        contracts=_guarded("gemstack-contracts", path, parse_contracts, text, of("gemstack-contracts")),
        test_matrix=_guarded("gemstack-test-matrix", path, parse_test_matrix, text, of("gemstack-test-matrix")),
        test_bindings=_guarded("gemstack-test-bindings", path, parse_test_bindings, text, of("gemstack-test-bindings")),
        closure_gates=_guarded("gemstack-closure-gates", path, parse_closure_gates, text, of("gemstack-closure-gates")),
        billable_actions=_guarded(
            "gemstack-billable-actions", path, parse_billable_actions, text, of("gemstack-billable-actions")
        ),
        capabilities=_guarded("gemstack-capabilities", path, parse_capabilities, text, of("gemstack-capabilities")),
        fence_findings=fence_findings(path, text),
        inherited_contracts=_guarded(
            "gemstack-inherited-contracts",
            path,
            parse_inherited_contracts,
            text,
            of("gemstack-inherited-contracts"),
        ),
    )


def blocks_of_document(doc: Document) -> DocumentBlocks | None:
    """The blocks of a repository document (``None`` when it could not be read or decoded)."""
    if doc.text is None:
        return None
    return blocks_of(doc.path, doc.text)
