"""The ``gemstack-test-bindings`` block (plan.md): which test file runs each canonical test.

Rules, codes and messages are the reference's (section 9.3 of the reference notes and its
``parsePlanBindings``), in its order; every violation is reported, not only the first. The
reference's unknown-canonical-id rule exists but its CLI never passes the matrix, so it never
fires there; ``canonical_ids`` enables it here.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks.base import (
    BlockKindInfo,
    BlockResult,
    BlockSource,
    array_items,
    js_truthy_string,
    read_block,
)
from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.frozen import direct_init
from gemstack_lsp.core.jsonspan import JsonArray, JsonNode, JsonObject, JsonString
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


@direct_init
@dataclass(frozen=True)
class TestBinding:
    """A canonical test id bound to a repository-relative test file (``\\`` turned into ``/``)."""

    __test__ = False  # not a pytest test class, whatever its name says

    test_id: str
    runner: str
    file: str
    span: Span
    test_id_span: Span
    file_span: Span
    node: JsonObject


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
    return bindings_of(read_block(path, text, INFO, fences), canonical_ids)


def bindings_of(src: BlockSource, canonical_ids: Collection[str] | None = None) -> BlockResult[TestBinding]:
    """The reference's rules over a located bindings block (``read_block`` or ``read_reference_block``)."""
    message = "gemstack-test-bindings must be a JSON array"
    return array_items(
        src, "BINDINGS_PARSE_ERROR", message, functools.partial(_check_item, canonical_ids=canonical_ids)
    )


def _check_item(
    src: BlockSource,
    i: int,
    item: JsonNode,
    seen: set[str],
    out: list[Finding],
    canonical_ids: Collection[str] | None = None,
) -> TestBinding | None:
    if not isinstance(item, JsonObject | JsonArray):
        out.append(src.finding("BINDINGS_PARSE_ERROR", f"Binding at index {i} must be an object", item))
        return None
    obj = item if isinstance(item, JsonObject) else None
    before = len(out)
    # ``item.test_id || item.id``: the first truthy one.
    tid_node: JsonNode | None = None
    if obj is not None:
        tid_node = obj.get("test_id")
        if tid_node is None or not tid_node.to_python():
            alt = obj.get("id")
            if alt is not None:
                tid_node = alt
    test_id = js_truthy_string(tid_node)
    if test_id is None:
        out.append(src.finding("BINDINGS_PARSE_ERROR", f"Binding at index {i} missing test_id", tid_node or item))
    else:
        assert tid_node is not None
        if canonical_ids and test_id not in canonical_ids:
            message = f'Binding references unknown canonical ID: "{test_id}"'
            out.append(src.finding("BINDINGS_PARSE_ERROR", message, tid_node, subject=test_id))
        if test_id in seen:
            message = f'Duplicate test_id binding detected: "{test_id}"'
            out.append(src.finding("DUPLICATE_TEST_BINDING", message, tid_node, subject=test_id))
        seen.add(test_id)
    shown = test_id if test_id is not None else "undefined"
    file_node = obj.get("file") if obj is not None else None
    file = js_truthy_string(file_node)
    norm = ""
    if file is None:
        out.append(src.finding("BINDINGS_PARSE_ERROR", f'Binding for "{shown}" missing file', file_node or item))
    else:
        norm = file.replace("\\", "/")
        if _is_absolute(norm) or norm.startswith("../"):
            message = f'Binding file must be repository-relative POSIX path: "{file}"'
            out.append(src.finding("BINDINGS_PARSE_ERROR", message, file_node, subject=test_id))
    if len(out) != before or obj is None or test_id is None or tid_node is None or file_node is None:
        return None
    runner_node = obj.get("runner")
    runner = runner_node.value if isinstance(runner_node, JsonString) and runner_node.value else DEFAULT_RUNNER
    return TestBinding(test_id, runner, norm, obj.span, tid_node.span, file_node.span, obj)
