"""Document symbols: the outline of spec, plan, tasks and ledger documents (end to end and pure)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp

from gemstack_lsp.ide.outline import outline

PLAN = "specs/008-cost-provider-safety-gates/plan.md"
TASKS = "specs/008-cost-provider-safety-gates/tasks.md"
LEDGER = "cost-ledger.json"

#: The ``make_client`` fixture of conftest.py.
MakeClient = Callable[..., Awaitable[Any]]


async def _symbols(h: Any, rel: str, text: str | None = None, language_id: str = "markdown") -> list[Any]:
    uri = h.open(rel, text, language_id=language_id)
    result = await h.request(
        lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL,
        lsp.DocumentSymbolParams(text_document=lsp.TextDocumentIdentifier(uri=uri)),
    )
    assert result is not None
    return list(result)


def _child(symbol: Any, name: str) -> Any:
    return next(c for c in symbol.children if c.name == name)


async def test_plan_outline_nests_headings_blocks_and_items(
    make_client: MakeClient, client_kind: str, gem_repo: Path
) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    symbols = await _symbols(h, PLAN)
    assert [s.name for s in symbols] == ["Plan de Implementación: Cost & Provider Safety Gates (Upgrade C)"]
    top = symbols[0]
    assert top.kind == lsp.SymbolKind.String
    assert h.text_range(PLAN, top.selection_range).startswith("# Plan de Implementación")
    assert [c.name for c in top.children] == [
        "1. Architecture Mapping",
        "2. Inherited Contracts (`gemstack-contracts`)",
        "3. Canonical Acceptance Test Bindings (`gemstack-test-bindings`)",
        "4. Project Closure Gates (`gemstack-closure-gates`)",
        "5. Explicit Deferred Work",
    ]
    block = _child(_child(top, "2. Inherited Contracts (`gemstack-contracts`)"), "gemstack-contracts")
    assert block.kind == lsp.SymbolKind.Array
    assert block.detail == "3 items"
    assert h.text_range(PLAN, block.selection_range) == "```gemstack-contracts"
    contract = block.children[0]
    assert contract.name == "zero-dependency-core"
    assert contract.kind == lsp.SymbolKind.Interface
    assert contract.detail == "BOOLEAN_INVARIANT"
    assert h.text_range(PLAN, contract.selection_range) == '"zero-dependency-core"'
    assert h.text_range(PLAN, contract.range).startswith("{")
    bindings = _child(
        _child(top, "3. Canonical Acceptance Test Bindings (`gemstack-test-bindings`)"), "gemstack-test-bindings"
    )
    assert len(bindings.children) == 20
    assert bindings.children[0].name == "TEST-COST-A01"
    assert bindings.children[0].detail == "tests/billable-action-gate.test.js"
    gate = _child(_child(top, "4. Project Closure Gates (`gemstack-closure-gates`)"), "gemstack-closure-gates")
    assert [g.name for g in gate.children] == ["project-tests"]


async def test_tasks_outline(make_client: MakeClient, client_kind: str, gem_repo: Path) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    symbols = await _symbols(h, TASKS)
    inventory = _child(symbols[0], "Tasks Inventory")
    tasks = [c for c in inventory.children if c.kind == lsp.SymbolKind.Event]
    assert [t.name.split(":")[0] for t in tasks] == [f"T00{i}" for i in range(1, 8)]
    assert tasks[0].name == "T001: Implement cost ledger loader, schema validation and secret audit"
    assert tasks[0].detail == "done"
    assert h.text_range(TASKS, tasks[0].selection_range) == "T001"


async def test_ledger_outline(make_client: MakeClient, client_kind: str, gem_repo: Path) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    symbols = await _symbols(h, LEDGER, language_id="json")
    assert [s.name for s in symbols] == ["$schema", "version", "updated_at", "currency", "providers"]
    providers = symbols[-1]
    assert [p.name for p in providers.children] == ["gemini-cloud", "mock-local"]
    cloud = providers.children[0]
    assert cloud.kind == lsp.SymbolKind.Class
    assert cloud.detail == "COMMERCIAL"
    assert [c.name for c in cloud.children] == ["inference.generate_text"]
    assert h.text_range(LEDGER, cloud.children[0].selection_range) == '"inference.generate_text"'


async def test_non_ascii_ranges_and_an_unfinished_block(
    make_client: MakeClient, client_kind: str, gem_repo: Path
) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    rel = "specs/008-cost-provider-safety-gates/spec.md"
    text = (
        "# Especificación 🚀 de prueba\n\n## Sección ñ\n\n```gemstack-contracts\n[\n"
        '  {"id": "contrato-ñ", "type": "ENUM_SET", "values": ["á"]},\n  {"id": "a-medias", "ty'
    )
    symbols = await _symbols(h, rel, text)
    top = symbols[0]
    assert top.name == "Especificación 🚀 de prueba"
    section = _child(top, "Sección ñ")
    block = section.children[0]
    assert block.detail == "invalid JSON"
    # The item being typed is listed as soon as its id is there.
    assert [c.name for c in block.children] == ["contrato-ñ", "a-medias"]
    assert h.text_range(rel, block.children[0].selection_range) == '"contrato-ñ"'
    assert h.text_range(rel, section.selection_range) == "## Sección ñ"


def test_headings_inside_code_blocks_are_not_symbols() -> None:
    text = "# Title\n\n```text\n# not a heading\n```\n\n    # indented code\n\n## Real\n"
    items = outline("specs/x/spec.md", text)
    assert [i.name for i in items] == ["Title"]
    assert [c.name for c in items[0].children] == ["Real"]


def test_sections_end_before_the_next_heading_of_their_level() -> None:
    text = "# A\n\nbody\n\n## B\n\nb body\n\n# C\n"
    a, c = outline("specs/x/plan.md", text)
    assert text[a.span.start : a.span.end] == "# A\n\nbody\n\n## B\n\nb body"
    assert text[a.children[0].span.start : a.children[0].span.end] == "## B\n\nb body"
    assert text[c.span.start : c.span.end] == "# C"


def test_capabilities_block_lists_providers_and_capabilities() -> None:
    text = (
        "# T\n\n```gemstack-capabilities\n"
        '[{"provider_id": "ollama-local", "type": "LOCAL", "capabilities": ["inference.generate_text"]}]\n```\n'
    )
    block = outline("specs/x/spec.md", text)[0].children[0]
    provider = block.children[0]
    assert (provider.name, provider.kind, provider.detail) == ("ollama-local", "provider", "LOCAL")
    assert [(c.name, c.kind) for c in provider.children] == [("inference.generate_text", "capability")]
