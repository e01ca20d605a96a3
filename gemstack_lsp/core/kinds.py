"""The one place per concept: every Gemstack block kind, and every Gemstack JSON file's schema.

``BLOCKS`` has one ``BlockKind`` per fenced block kind (```` ```gemstack-contracts ````...): its
fence name, its JSON Schema in ``gemstack_lsp/schemas``, its parser in
``gemstack_lsp.core.blocks``, and what the other layers show of it (the fence-name completion's
description, the snippet for a new item, the outline's item kind, id key and detail keys).
Markdown's fence scan, the block parsers' dispatch (``blocks_of``), the fence findings,
completion, hover and the outline all read it, so adding a kind means one entry here, its parser
module and its schema file.

``ARTIFACT_SCHEMAS`` maps each Gemstack JSON file to its schema: completion and hover read it, and
so do the modules that validate those files.

This module is pure data that imports only ``core.feature``'s file names (``markdown`` imports it);
a parser is named by ``module:function`` and imported on first use.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from gemstack_lsp.core.feature import CAPSULE_NAME, CLOSURE_NAME, LEDGER_NAME
from gemstack_lsp.core.frozen import record

if TYPE_CHECKING:
    from gemstack_lsp.core.blocks.base import BlockResult
    from gemstack_lsp.core.markdown import Fence

__all__ = [
    "ARTIFACT_SCHEMAS",
    "BILLABLE_ACTIONS",
    "BLOCKS",
    "BLOCK_NAMES",
    "BY_NAME",
    "CAPABILITIES",
    "CLOSURE_GATES",
    "CONTRACTS",
    "CONTRACT_TYPES",
    "INHERITED_CONTRACTS",
    "REFERENCE_NAMES",
    "SPEC_DELTA",
    "TEST_BINDINGS",
    "TEST_MATRIX",
    "BlockKind",
    "Ref",
    "artifact_schema",
    "block_kind",
]

#: The fence names, for the modules that treat one kind specially.
CONTRACTS: Final = "gemstack-contracts"
TEST_MATRIX: Final = "gemstack-test-matrix"
TEST_BINDINGS: Final = "gemstack-test-bindings"
CLOSURE_GATES: Final = "gemstack-closure-gates"
BILLABLE_ACTIONS: Final = "gemstack-billable-actions"
CAPABILITIES: Final = "gemstack-capabilities"
INHERITED_CONTRACTS: Final = "gemstack-inherited-contracts"
SPEC_DELTA: Final = "gemstack-spec-delta"

#: The contract types a ``gemstack-contracts`` entry may declare (the snippet offers them).
CONTRACT_TYPES: Final = (
    "ENUM_SET",
    "IDENTITY_TUPLE",
    "PROVENANCE_RULE",
    "BOOLEAN_INVARIANT",
    "BOUNDARY",
    "ROADMAP_LIMIT",
)


@record
class Ref:
    """A member of a block's items whose string value (or array of strings) names a Gemstack
    symbol: navigation indexes it, completion offers the repository's ids for it, inlay hints,
    lenses and the outline find the ids they annotate through it."""

    #: The member's key; with several, the first whose value is a non-empty string (the reference
    #: reads a binding's ``test_id || id``).
    keys: tuple[str, ...]
    #: What the value names: ``contract``, ``test``, ``action``, ``provider``, ``capability`` or
    #: ``path`` (tasks name ``task``).
    symbol: str
    #: Whether the item declares the symbol (a contract's ``id``) rather than refer to one.
    declares: bool = False
    #: Declares only in this file (an action is declared in spec.md and bound in plan.md).
    declared_in: str | None = None
    #: The value is an array of strings rather than one string.
    many: bool = False
    #: Completion offers the ids the repository declares for ``symbol`` in this member.
    complete: bool = False

    def declares_in(self, file_name: str) -> bool:
        """Whether the member declares its symbol in a file of that base name."""
        return self.declares and (self.declared_in is None or self.declared_in == file_name)


@record
class BlockKind:
    """One fenced block kind and every hook the layers use for it."""

    #: The info-string word that opens the block (```` ```<name> ````).
    name: str
    #: The ``DocumentBlocks`` attribute holding its parse result.
    field: str
    #: Its JSON Schema, a file of ``gemstack_lsp/schemas``.
    schema: str
    #: Its parser, ``module:function`` (``parse(path, text, fences) -> BlockResult``).
    parser: str
    #: True when the reference gemstack CLI itself extracts the kind (fence findings concern these).
    reference: bool
    #: One line shown beside the fence-name completion.
    description: str
    #: The outline's kind for one item of the block.
    item: str
    #: The key whose value names an item.
    id_key: str
    #: The keys whose values make an item's outline detail.
    detail_keys: tuple[str, ...]
    #: A new item of the block: (label, VS Code snippet body); ``None`` offers none.
    snippet: tuple[str, str] | None
    #: The members of an item that name Gemstack symbols.
    refs: tuple[Ref, ...] = ()
    #: Members whose completion offers the values the block's other items already use (free text).
    complete_used: tuple[str, ...] = ()
    #: The gate-preview lens (the actions an environment denies) is shown above the block.
    gate_lens: bool = False

    @property
    def parse(self) -> Callable[[str, str, Sequence[Fence]], BlockResult[Any]]:
        """The parser function (imported on first use)."""
        parse: Callable[[str, str, Sequence[Fence]], BlockResult[Any]] = _import(self.parser)
        return parse


@functools.cache
def _import(spec: str) -> Any:
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


_CONTRACT_SNIPPET = (
    '{\n  "id": "${1:contract-id}",\n  "type": "${2|' + ",".join(CONTRACT_TYPES) + '|}",\n'
    '  "value": ${3:true},\n  "description": "${4:What the contract protects}"\n}'
)

_BLOCKS = "gemstack_lsp.core.blocks"

#: Every block kind, in the order findings, completions and ``DocumentBlocks.results`` list them.
BLOCKS: Final = (
    BlockKind(
        name=CONTRACTS,
        field="contracts",
        schema="gemstack-contracts.schema.json",
        parser=f"{_BLOCKS}.contracts:parse_contracts",
        reference=True,
        description="Frozen architecture contracts (spec.md, plan.md, tasks.md).",
        item="contract",
        id_key="id",
        detail_keys=("type",),
        snippet=("New contract", _CONTRACT_SNIPPET),
        refs=(Ref(("id",), "contract", declares=True),),
    ),
    BlockKind(
        name=TEST_MATRIX,
        field="test_matrix",
        schema="gemstack-test-matrix.schema.json",
        parser=f"{_BLOCKS}.test_matrix:parse_test_matrix",
        reference=True,
        description="The canonical acceptance test matrix (spec.md).",
        item="test",
        id_key="id",
        detail_keys=("category", "layer", "gate"),
        snippet=(
            "New test-matrix entry",
            '{\n  "id": "TEST-${1:AREA}-${2:A01}",\n  "category": "${3:CATEGORY}",\n'
            '  "layer": "${4|UNIT,INTEGRATION,E2E,CLI|}",\n  "description": "${5:What the test exercises}",\n'
            '  "pass_criteria": "${6:What must hold}",\n  "gate": "${7|REQUIRED,SUPPLEMENTAL|}"\n}',
        ),
        refs=(Ref(("id",), "test", declares=True),),
        complete_used=("category",),
    ),
    BlockKind(
        name=TEST_BINDINGS,
        field="test_bindings",
        schema="gemstack-test-bindings.schema.json",
        parser=f"{_BLOCKS}.test_bindings:parse_test_bindings",
        reference=True,
        description="Test ids bound to runnable test files (plan.md).",
        item="binding",
        id_key="test_id",
        detail_keys=("file",),
        snippet=(
            "New test binding",
            '{\n  "test_id": "${1:TEST-AREA-A01}",\n  "runner": "${2:node:test}",\n  "file": "${3:tests/x.test.js}"\n}',
        ),
        refs=(Ref(("test_id", "id"), "test", complete=True), Ref(("file",), "path")),
    ),
    BlockKind(
        name=CLOSURE_GATES,
        field="closure_gates",
        schema="gemstack-closure-gates.schema.json",
        parser=f"{_BLOCKS}.closure_gates:parse_closure_gates",
        reference=True,
        description="Project closure gates, package scripts (plan.md).",
        item="gate",
        id_key="id",
        detail_keys=("type", "requirement"),
        snippet=(
            "New closure gate",
            '{\n  "id": "${1:project-tests}",\n  "type": "PACKAGE_SCRIPT",\n  "script": "${2:test}",\n'
            '  "requirement": "${3|REQUIRED,SUPPLEMENTAL|}",\n  "waivable": ${4:false}\n}',
        ),
    ),
    BlockKind(
        name=BILLABLE_ACTIONS,
        field="billable_actions",
        schema="gemstack-billable-actions.schema.json",
        parser=f"{_BLOCKS}.billable_actions:parse_billable_actions",
        reference=False,
        description="Billable provider actions (declared in spec.md, bound in plan.md).",
        item="action",
        id_key="id",
        detail_keys=("category", "capability_id"),
        snippet=(
            "New billable action",
            '{\n  "id": "${1:action-id}",\n  "description": "${2:What the action does}",\n'
            '  "category": "${3|DEFINITELY_BILLABLE,POTENTIALLY_BILLABLE,NON_BILLABLE_LOCAL,EXTERNALLY_MUTATING,'
            'METERED_READ|}",\n  "capability_id": "${4:inference.generate_text}",\n'
            '  "providers": ["${5:provider-id}"]\n}',
        ),
        refs=(
            Ref(("id",), "action", declares=True, declared_in="spec.md", complete=True),
            Ref(("capability_id",), "capability", complete=True),
            Ref(("providers",), "provider", many=True, complete=True),
        ),
        gate_lens=True,
    ),
    BlockKind(
        name=CAPABILITIES,
        field="capabilities",
        schema="gemstack-capabilities.schema.json",
        parser=f"{_BLOCKS}.capabilities:parse_capabilities",
        reference=False,
        description="A provider registry: providers and the capabilities they declare.",
        item="provider",
        id_key="provider_id",
        detail_keys=("type",),
        snippet=(
            "New provider",
            '{\n  "provider_id": "${1:provider-id}",\n  "type": "${2|COMMERCIAL,LOCAL,MOCK|}",\n'
            '  "capabilities": ["${3:inference.generate_text}"]\n}',
        ),
        refs=(
            Ref(("provider_id",), "provider", declares=True),
            Ref(("capabilities",), "capability", declares=True, many=True, complete=True),
        ),
    ),
    BlockKind(
        name=INHERITED_CONTRACTS,
        field="inherited_contracts",
        schema="gemstack-inherited-contracts.schema.json",
        parser=f"{_BLOCKS}.inherited_contracts:parse_inherited_contracts",
        reference=False,
        description="The spec's frozen contracts restated by the plan (Gemstack 2.0, plan.md).",
        item="contract",
        id_key="id",
        detail_keys=("type",),
        #: An inherited contract restates a spec contract in the same shape.
        snippet=("Inherited contract", _CONTRACT_SNIPPET),
        refs=(Ref(("id",), "contract", declares=True),),
    ),
    BlockKind(
        name=SPEC_DELTA,
        field="spec_delta",
        schema="gemstack-spec-delta.schema.json",
        parser=f"{_BLOCKS}.spec_delta:parse_spec_delta",
        reference=False,
        description="A change to a base spec: contracts, requirements and tests added, modified or removed (spec.md).",
        item="change",
        id_key="id",
        detail_keys=(),
        #: One object, not a list of items: no snippet for a new item.
        snippet=None,
    ),
)

#: The fence names of every kind, in registry order.
BLOCK_NAMES: Final = tuple(k.name for k in BLOCKS)
#: The kinds the reference gemstack CLI itself extracts.
REFERENCE_NAMES: Final = tuple(k.name for k in BLOCKS if k.reference)
BY_NAME: Final = {k.name: k for k in BLOCKS}


def block_kind(name: str) -> BlockKind | None:
    """The registry entry of a fence name (``None`` for a name that is no Gemstack kind)."""
    return BY_NAME.get(name)


#: Every Gemstack JSON file and its schema (a file of ``gemstack_lsp/schemas``). A key without a
#: ``/`` is a base name (a feature's file under ``specs/<feature>/``, or a registry anywhere); a
#: key with one is a repository-relative path.
ARTIFACT_SCHEMAS: Final = {
    LEDGER_NAME: "cost-ledger-v1.schema.json",
    "providers.json": "providers.schema.json",
    CAPSULE_NAME: "context-capsule-v1.schema.json",
    "swarm.json": "swarm.schema.json",
    "visual-qa.json": "visual-qa.schema.json",
    "amendments.json": "amendments.schema.json",
    CLOSURE_NAME: "gemstack-closure.schema.json",
    ".gemstack/manifest.json": "gemstack-manifest.schema.json",
}


def artifact_schema(path: str) -> str | None:
    """The schema file of a Gemstack JSON file at ``path`` (repository-relative), or ``None``."""
    if path in ARTIFACT_SCHEMAS:
        return ARTIFACT_SCHEMAS[path]
    base = path.rsplit("/", 1)[-1]
    return ARTIFACT_SCHEMAS.get(base)
