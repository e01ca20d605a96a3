"""Every Gemstack block of one document, parsed once per (path, text).

``blocks_of`` runs the parser of each block kind of the registry (``gemstack_lsp.core.kinds``)
over a document's fences and adds the fence findings: ``FENCE_UNSEEN_BY_REFERENCE`` where the
reference gemstack CLI would miss or misread a block Markdown shows (and where it would read a
block Markdown does not show). It is memoised by (path, text), so an unchanged document costs
nothing on the next keystroke; in an edited one, each kind whose blocks the edit did not touch
keeps the result of the previous text (``MovedResult`` when the edit only moved them). One
parser module per kind lives beside this one.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
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
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jsonspan import JsonNode
from gemstack_lsp.core.markdown import Fence, _shift_fence, reference_only_blocks, scan_fences
from gemstack_lsp.core.memo import active_memo, per_text
from gemstack_lsp.core.repo import Document
from gemstack_lsp.core.text import SourceText, Span

__all__ = ["BlockResult", "DocumentBlocks", "MovedResult", "blocks_of", "blocks_of_document", "fence_findings"]

T = TypeVar("T")

_INDEX = {k.name: i for i, k in enumerate(kinds.BLOCKS)}


@record
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
    by_kind: dict[str | None, list[Fence]] = {}
    for f in fences:
        by_kind.setdefault(f.kind, []).append(f)
    memo = active_memo()
    name = f"{_BLOCKS_OF}:{path}"
    recent = memo.recent(name) if memo is not None else []
    before = recent[0][1] if recent else None
    results = tuple(
        _kind_result(k.name, path, k.parse, text, tuple(by_kind.get(k.name, ())), before) for k in kinds.BLOCKS
    )
    blocks = DocumentBlocks(path=path, fences=fences, results=results, fence_findings=fence_findings(path, text))
    if memo is not None:
        memo.remember(name, text, blocks)
    return blocks


_BLOCKS_OF = f"{__name__}.blocks_of"


def _kind_result(
    kind: str,
    path: str,
    parse: Callable[[str, str, Sequence[Fence]], BlockResult[Any]],
    text: str,
    fences: tuple[Fence, ...],
    before: DocumentBlocks | None,
) -> BlockResult[Any]:
    """The result of one kind's parser over the document's blocks of that kind.

    A parser reads only the path and the fences of its kind. ``before`` is the document's
    blocks in the last text of the same path the memo holds (the version an edit was made to):
    when the edit left this kind's fences as they were, their result is reused as it is; when it
    only moved them (an edit above), the result is a ``MovedResult``: what does not depend on
    the blocks' position is answered from the earlier result, and the parser runs on the moved
    fences only when something asks for a position (an item, a span, the tree)."""
    if before is None or not fences:
        return _guarded(kind, path, parse, text, fences)
    old = before.of(kind)
    kept: BlockResult[Any]
    if isinstance(old, MovedResult):
        kept, kept_fences = old.__dict__["_kept"], old.__dict__["_kept_fences"]
    else:
        kept, kept_fences = old, tuple(f for f in before.fences if f.kind == kind)
    if kept_fences == fences:
        return kept
    if len(kept_fences) == len(fences) and all(o.body == n.body for o, n in zip(kept_fences, fences, strict=True)):
        delta = fences[0].open_span.start - kept_fences[0].open_span.start
        line_delta = fences[0].open_line - kept_fences[0].open_line
        if all(_shift_fence(o, delta, line_delta) == n for o, n in zip(kept_fences, fences, strict=True)):
            return MovedResult(kept, kept_fences, lambda: _guarded(kind, path, parse, text, fences), fences)
    return _guarded(kind, path, parse, text, fences)


class MovedResult(BlockResult[T]):
    """The result of a kind's parser over blocks that an edit above them only moved (every
    fence the same, shifted): the result at their earlier place, ``kept``, answers what does
    not depend on the position (the kind, whether a block is present, that there is no
    finding, the values of the JSON tree: ``value_tree``); anything else (the items, the
    findings when there are some, the tree with its spans) is the parser's result over the
    moved fences, computed on first use. Equal to that result in every field."""

    def __init__(
        self,
        kept: BlockResult[T],
        kept_fences: tuple[Fence, ...],
        compute: Callable[[], BlockResult[T]],
        fences: tuple[Fence, ...],
    ) -> None:
        d = self.__dict__
        d["kind"] = kept.kind
        d["present"] = kept.present
        d["_kept"] = kept
        d["_kept_fences"] = kept_fences
        d["_compute"] = compute
        d["_result"] = None
        if kept.fence is None:
            d["fence"] = None
        else:
            # The parser's fence is one of the fences it was given: the same one, moved. Equal,
            # not necessarily the same object: a result kept as it was across edits that did not
            # touch its blocks holds the fence of the scan it was parsed from.
            index = next((i for i, f in enumerate(kept_fences) if f is kept.fence or f == kept.fence), None)
            d["fence"] = fences[index] if index is not None else self._moved().fence

    def _moved(self) -> BlockResult[T]:
        result: BlockResult[T] | None = self.__dict__["_result"]
        if result is None:
            result = self.__dict__["_compute"]()
            self.__dict__["_result"] = result
            self.__dict__["_compute"] = None
        return result

    @property
    def items(self) -> tuple[T, ...]:
        return self._moved().items

    @property
    def findings(self) -> tuple[Finding, ...]:
        # A uniform shift of the same blocks changes where findings are, never whether there are.
        return () if not self.__dict__["_kept"].findings else self._moved().findings

    @property
    def root(self) -> JsonNode | None:
        return self._moved().root

    @property
    def value_tree(self) -> JsonNode | None:
        return self.__dict__["_kept"].value_tree  # type: ignore[no-any-return]

    @property
    def plain_value(self) -> Any:
        return self.__dict__["_kept"].plain_value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BlockResult):
            return NotImplemented
        return _fields(self) == _fields(other)

    def __hash__(self) -> int:
        return hash(_fields(self))

    def __repr__(self) -> str:
        return f"MovedResult({self._moved()!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_plain, _fields(self))


def _fields(r: BlockResult[Any]) -> tuple[Any, ...]:
    return (r.kind, r.items, r.findings, r.fence, r.root, r.present)


def _plain(*fields: Any) -> BlockResult[Any]:
    return BlockResult(*fields)


def blocks_of_document(doc: Document) -> DocumentBlocks | None:
    """The blocks of a repository document (``None`` when it could not be read or decoded)."""
    if doc.text is None:
        return None
    return blocks_of(doc.path, doc.text)
