"""What the case tables share: the feature folder, its paths, and a line-by-line text builder.

Documents are written as a list of lines (``doc(...)``) so that a finding's 0-based line is
the index of its line in the call, and its column can be counted on that one line.
"""

from __future__ import annotations

from collections.abc import Mapping

from corpus.harness import Case, Content

FEATURE = "specs/001-demo"
SPEC = f"{FEATURE}/spec.md"
PLAN = f"{FEATURE}/plan.md"
TASKS = f"{FEATURE}/tasks.md"
STATE = ".gemstack/state.json"

#: A valid contract, matrix entry, binding and gate, one line each.
CONTRACT = '  {"id": "c1", "type": "BOOLEAN_INVARIANT", "value": true}'
MATRIX_ENTRY = (
    '  {"id": "TEST-DEMO-A01", "category": "C", "layer": "UNIT", "description": "d", '
    '"pass_criteria": "p", "gate": "REQUIRED"}'
)
BINDING = '  {"test_id": "TEST-DEMO-A01", "file": "tests/a.test.js"}'
GATE = '  {"id": "g1", "type": "PACKAGE_SCRIPT", "script": "test", "requirement": "REQUIRED", "waivable": false}'
ACTION = (
    '  {"id": "act.one", "description": "d", "category": "LLM", "capability_id": "cap.one", '
    '"providers": ["prov.local"]}'
)
PROVIDER = '  {"provider_id": "prov.local", "type": "LOCAL", "capabilities": ["cap.one"]}'

#: One valid entry per block kind, and the finding code of each kind's parse errors.
VALID_ENTRY = {
    "gemstack-contracts": CONTRACT,
    "gemstack-test-matrix": MATRIX_ENTRY,
    "gemstack-test-bindings": BINDING,
    "gemstack-closure-gates": GATE,
    "gemstack-billable-actions": ACTION,
    "gemstack-capabilities": PROVIDER,
}
PARSE_CODE = {
    "gemstack-contracts": "CONTRACT_PARSE_ERROR",
    "gemstack-test-matrix": "TEST_MATRIX_PARSE_ERROR",
    "gemstack-test-bindings": "BINDINGS_PARSE_ERROR",
    "gemstack-closure-gates": "GATES_PARSE_ERROR",
    "gemstack-billable-actions": "BILLABLE_ACTIONS_INVALID",
    "gemstack-capabilities": "CAPABILITIES_INVALID",
}
KINDS = tuple(VALID_ENTRY)


def doc(*lines: str, eol: str = "\n") -> str:
    """The lines joined, each ended by ``eol``."""
    return "".join(line + eol for line in lines)


def block(kind: str, *body: str, fence: str = "```") -> list[str]:
    """A fenced block's lines: the opening fence, the body, the closing fence."""
    return [fence + kind, *body, fence]


def valid_block(kind: str) -> list[str]:
    return block(kind, "[", VALID_ENTRY[kind], "]")


def col(line: str, needle: str, nth: int = 1) -> int:
    """The UTF-16 column of the ``nth`` occurrence of ``needle`` in ``line``."""
    at = -1
    for _ in range(nth):
        at = line.index(needle, at + 1)
    return len(line[:at].encode("utf-16-le")) // 2


def at(code: str, index: int, needle: str, nth: int = 1) -> tuple[str, int, str, int]:
    """A finding expected on item ``index``'s line, at the ``nth`` occurrence of ``needle``."""
    return code, index, needle, nth


def block_case(
    name: str,
    path: str,
    kind: str,
    items: list[str],
    expected: list[tuple[str, int, str, int]],
    extra: Mapping[str, Content] | None = None,
) -> Case:
    """A case whose document at ``path`` holds one block of ``kind`` with ``items``, one a line.

    The block opens on line 1 (after a heading), ``[`` is line 2 and item ``i`` is line
    ``3 + i`` (commas are added between items). ``expected`` is made with ``at``; item index
    ``-1`` means the line of ``[`` (the array itself).
    """
    item_lines = [item + ("," if k < len(items) - 1 else "") for k, item in enumerate(items)]
    lines = ["# Demo", "```" + kind, "[", *item_lines, "]", "```"]
    found = tuple((code, path, 3 + i, col(lines[3 + i], needle, nth)) for code, i, needle, nth in expected)
    files: dict[str, Content] = {path: doc(*lines)}
    files.update(extra or {})
    return Case(name, files, found)
