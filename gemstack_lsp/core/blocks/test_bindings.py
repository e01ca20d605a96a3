"""The ``gemstack-test-bindings`` block (plan.md): which test file runs each canonical test.

Rules, codes and messages are the reference's (section 9.3 of the reference notes and its
``parsePlanBindings``), in its order; every violation is reported, not only the first. The
reference's unknown-canonical-id rule exists but its CLI never passes the matrix, so it never
fires there; ``canonical_ids`` enables it here.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from dataclasses import field
from typing import Any

from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks.base import (
    BlockItem,
    BlockKindInfo,
    BlockResult,
    BlockSource,
    plain_items,
    read_block,
)
from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.markdown import Fence
from gemstack_lsp.core.text import Span

KIND = kinds.TEST_BINDINGS

INFO = BlockKindInfo(
    KIND,
    "BINDINGS_PARSE_ERROR",
    "Multiple gemstack-test-bindings blocks detected. Exactly one is permitted.",
    "Failed to parse gemstack-test-bindings JSON: ",
)

DEFAULT_RUNNER = "node:test"


@record(eq=False)
class TestBinding(BlockItem):
    """A canonical test id bound to a repository-relative test file (``\\`` turned into ``/``)."""

    __test__ = False  # not a pytest test class, whatever its name says

    test_id: str
    runner: str
    file: str
    #: The block the binding was read from and its place there (``BlockItem``).
    source: BlockSource = field(repr=False)
    index: int = field(repr=False)

    @property
    def test_id_span(self) -> Span:
        key = _test_id_key(self.node.to_python())
        assert key is not None  # a binding has its test id (``_check_item``)
        return self.member_span(key)

    @property
    def file_span(self) -> Span:
        return self.member_span("file")

    def _values(self) -> tuple[Any, ...]:
        return (self.test_id, self.runner, self.file)


def _test_id_key(obj: dict[str, Any]) -> str | None:
    """The member ``item.test_id || item.id`` reads: ``test_id`` unless it is missing or falsy
    and ``id`` is there (``None`` when neither is)."""
    if ("test_id" not in obj or not obj["test_id"]) and "id" in obj:
        return "id"
    return "test_id" if "test_id" in obj else None


def _is_absolute(p: str) -> bool:
    # Node's path.isAbsolute on POSIX: a leading slash.
    return p.startswith("/")


def parse_test_bindings(
    path: str,
    text: str,
    fences: Sequence[Fence] | None = None,
    canonical_ids: Collection[str] | None = None,
) -> BlockResult[TestBinding]:
    """The test bindings of one document (the reference reads them from plan.md)."""
    return bindings_of(read_block(path, text, INFO, fences, plain=True), canonical_ids)


def bindings_of(src: BlockSource, canonical_ids: Collection[str] | None = None) -> BlockResult[TestBinding]:
    """The reference's rules over a located bindings block (``read_block`` or ``read_reference_block``)."""
    message = "gemstack-test-bindings must be a JSON array"
    return plain_items(
        src, "BINDINGS_PARSE_ERROR", message, functools.partial(_check_item, canonical_ids=canonical_ids)
    )


def _check_item(
    src: BlockSource,
    i: int,
    item: Any,
    seen: set[str],
    out: list[Finding],
    canonical_ids: Collection[str] | None = None,
) -> TestBinding | None:
    """The reference's rules over the ``i``-th binding, read as plain values; a finding is
    placed on the value its rule is about, through the block's tree."""

    def at(*path: str) -> Span | None:
        return src.span_at((i, *path))

    if not isinstance(item, dict | list):
        out.append(src.finding("BINDINGS_PARSE_ERROR", f"Binding at index {i} must be an object", at()))
        return None
    obj = item if isinstance(item, dict) else None
    before = len(out)
    tid_key = _test_id_key(obj) if obj is not None else None
    tid_value = obj[tid_key] if obj is not None and tid_key is not None else None
    test_id = tid_value if isinstance(tid_value, str) and tid_value else None

    def tid_at() -> Span | None:
        return at(tid_key) if tid_key is not None else at()

    if test_id is None:
        out.append(src.finding("BINDINGS_PARSE_ERROR", f"Binding at index {i} missing test_id", tid_at()))
    else:
        if canonical_ids and test_id not in canonical_ids:
            message = f'Binding references unknown canonical ID: "{test_id}"'
            out.append(src.finding("BINDINGS_PARSE_ERROR", message, tid_at(), subject=test_id))
        if test_id in seen:
            message = f'Duplicate test_id binding detected: "{test_id}"'
            out.append(src.finding("DUPLICATE_TEST_BINDING", message, tid_at(), subject=test_id))
        seen.add(test_id)
    shown = test_id if test_id is not None else "undefined"
    has_file = obj is not None and "file" in obj
    file_value = obj["file"] if obj is not None and has_file else None
    file = file_value if isinstance(file_value, str) and file_value else None
    norm = ""
    if file is None:
        out.append(
            src.finding("BINDINGS_PARSE_ERROR", f'Binding for "{shown}" missing file', at("file") if has_file else at())
        )
    else:
        norm = file.replace("\\", "/")
        if _is_absolute(norm) or norm.startswith("../"):
            message = f'Binding file must be repository-relative POSIX path: "{file}"'
            out.append(src.finding("BINDINGS_PARSE_ERROR", message, at("file"), subject=test_id))
    if len(out) != before or obj is None or test_id is None or not has_file:
        return None
    runner = obj.get("runner")
    return TestBinding(test_id, runner if isinstance(runner, str) and runner else DEFAULT_RUNNER, norm, src, i)
