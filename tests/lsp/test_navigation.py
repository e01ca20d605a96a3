"""Navigation end to end: definition, references, document links and workspace symbols."""

from __future__ import annotations

import json
import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp

from gemstack_lsp.core.text import Position, SourceText
from gemstack_lsp.fs import DiskReader
from gemstack_lsp.host import AnalysisHost
from gemstack_lsp.ide.navigation import definitions, occurrence_at, references
from gemstack_lsp.uris import path_to_uri

F8 = "specs/008-cost-provider-safety-gates"
F9 = "specs/009-context-capsule"
SPEC8, PLAN8, TASKS8 = f"{F8}/spec.md", f"{F8}/plan.md", f"{F8}/tasks.md"
SPEC9, TASKS9, CAPSULE9, CLOSURE9 = (
    f"{F9}/spec.md",
    f"{F9}/tasks.md",
    f"{F9}/context-capsule.json",
    f"{F9}/closure.json",
)
REFERENCE_OUTPUT = Path(__file__).parent.parent / "fixtures" / "gemstack-reference" / "reference-output"

ACTIONS = """

## Billable actions

```gemstack-billable-actions
[
  {"id": "summarise", "description": "Summarise.", "category": "DEFINITELY_BILLABLE",
   "capability_id": "inference.generate_text", "providers": ["gemini-cloud", "mock-local"]}
]
```
"""

#: The ``make_client`` fixture of conftest.py.
MakeClient = Callable[..., Awaitable[Any]]


def _loc_text(root: Path, loc: Any, encoding: str) -> tuple[str, str]:
    """(repository-relative path, text of the range) of a location, read from disk."""
    rel = loc.uri[len(path_to_uri(root)) + 1 :]
    source = SourceText((root / rel).read_text("utf-8"))
    start = source.offset(Position(loc.range.start.line, loc.range.start.character), encoding)  # type: ignore[arg-type]
    end = source.offset(Position(loc.range.end.line, loc.range.end.character), encoding)  # type: ignore[arg-type]
    return rel, source.text[start:end]


async def _definition(h: Any, rel: str, needle: str, delta: int = 2) -> list[tuple[str, str]]:
    uri = h.uri(rel)
    if uri not in h.texts:
        h.open(rel, language_id="json" if rel.endswith(".json") else "markdown")
    result = await h.request(
        lsp.TEXT_DOCUMENT_DEFINITION,
        lsp.DefinitionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=h.position(rel, needle, delta)
        ),
    )
    return [_loc_text(h.root, loc, h.encoding) for loc in result or []]


async def _references(h: Any, rel: str, needle: str, declaration: bool = True, delta: int = 2) -> list[tuple[str, str]]:
    uri = h.uri(rel)
    if uri not in h.texts:
        h.open(rel, language_id="json" if rel.endswith(".json") else "markdown")
    result = await h.request(
        lsp.TEXT_DOCUMENT_REFERENCES,
        lsp.ReferenceParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            position=h.position(rel, needle, delta),
            context=lsp.ReferenceContext(include_declaration=declaration),
        ),
    )
    return [_loc_text(h.root, loc, h.encoding) for loc in result or []]


async def test_definition_of_test_ids(make_client: MakeClient, client_kind: str, gem_repo: Path) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    # From tasks.md metadata and from a plan binding to the test matrix of the spec.
    assert await _definition(h, TASKS8, "TEST-COST-E02") == [(SPEC8, '"TEST-COST-E02"')]
    assert await _definition(h, PLAN8, '"TEST-COST-A03"') == [(SPEC8, '"TEST-COST-A03"')]
    # A task id in depends= goes to the task header.
    assert await _definition(h, TASKS8, "depends=T003", 9) == [(TASKS8, "T003")]


async def test_definition_of_contracts_follows_the_open_buffer(
    make_client: MakeClient, client_kind: str, gem_repo: Path
) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    # From plan.md's inherited contract to the spec's declaration.
    assert await _definition(h, PLAN8, '"unknown-cost-never-free"') == [(SPEC8, '"unknown-cost-never-free"')]
    # Unsaved edits count: the spec renames the contract in its buffer only.
    h.open(SPEC8)
    h.replace(SPEC8, '"unknown-cost-never-free"', '"unknown-cost-is-never-free"')
    # plan.md's own declaration is then the only one left.
    assert await _definition(h, PLAN8, '"unknown-cost-never-free"') == [(PLAN8, '"unknown-cost-never-free"')]


async def test_definition_of_providers_and_capabilities(
    make_client: MakeClient, client_kind: str, gem_repo: Path
) -> None:
    spec = gem_repo / SPEC8
    spec.write_text(spec.read_text("utf-8") + ACTIONS, "utf-8")
    h = await make_client(client_kind, gem_repo, fake=False)
    found = await _definition(h, SPEC8, '"gemini-cloud", "mock-local"', 18)
    assert sorted(found) == [("cost-ledger.json", '"mock-local"'), (f"{F8}/cost-ledger.json", '"mock-local"')]
    found = await _definition(h, SPEC8, '"inference.generate_text", "providers": ["gemini-cloud"', 2)
    assert (f"{F8}/cost-ledger.json", '"inference.generate_text"') in found
    assert ("cost-ledger.json", '"inference.generate_text"') in found
    assert all(text == '"inference.generate_text"' for _, text in found)


def _with_capsule(root: Path) -> None:
    shutil.copy(REFERENCE_OUTPUT / "specs-009-context-capsule.json", root / CAPSULE9)
    closure = {
        "schema": "gemstack-closure",
        "version": 1,
        "tests": [{"test_id": "TEST-CONTEXT-A02", "status": "PASS", "file": "tests/context-freshness.test.js"}],
    }
    (root / CLOSURE9).write_text(json.dumps(closure, indent=2), "utf-8")


async def test_definition_of_a_capsule_source_path(make_client: MakeClient, client_kind: str, gem_repo: Path) -> None:
    _with_capsule(gem_repo)
    h = await make_client(client_kind, gem_repo, fake=False)
    found = await _definition(h, CAPSULE9, '"specs/009-context-capsule/tasks.md"')
    assert found == [(TASKS9, "")]
    # A capsule's copy of a test id goes to the matrix.
    assert await _definition(h, CAPSULE9, '"TEST-CONTEXT-A02"') == [(SPEC9, '"TEST-CONTEXT-A02"')]


async def test_references_of_a_test_id_across_the_feature(
    make_client: MakeClient, client_kind: str, gem_repo: Path
) -> None:
    _with_capsule(gem_repo)
    h = await make_client(client_kind, gem_repo, fake=False)
    found = await _references(h, SPEC9, '"id": "TEST-CONTEXT-A02"', delta=10)
    paths = [p for p, _ in found]
    assert set(paths) == {SPEC9, f"{F9}/plan.md", TASKS9, CAPSULE9, CLOSURE9}
    assert all(text.strip('"') == "TEST-CONTEXT-A02" for _, text in found)
    assert paths.count(SPEC9) == 1
    without = await _references(h, TASKS9, "TEST-CONTEXT-A02", declaration=False)
    assert SPEC9 not in [p for p, _ in without]
    assert len(without) == len(found) - 1


async def test_references_of_a_contract_id(make_client: MakeClient, client_kind: str, gem_repo: Path) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    found = await _references(h, SPEC8, '"zero-dependency-core"')
    assert found == [(SPEC8, '"zero-dependency-core"'), (PLAN8, '"zero-dependency-core"')]


async def test_document_links(make_client: MakeClient, client_kind: str, gem_repo: Path) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    for rel, first in ((TASKS8, "src/lib/cost-ledger.js"), (PLAN8, '"tests/billable-action-gate.test.js"')):
        uri = h.open(rel)
        links = await h.request(
            lsp.TEXT_DOCUMENT_DOCUMENT_LINK, lsp.DocumentLinkParams(text_document=lsp.TextDocumentIdentifier(uri=uri))
        )
        assert links
        assert h.text_range(rel, links[0].range) == first
        assert links[0].target == path_to_uri(gem_repo / first.strip('"'))
        assert all(Path(lsp_path(link.target)).is_file() for link in links)
    # A path to a file that does not exist is no link.
    h.replace(TASKS8, "src/lib/cost-ledger.js", "src/lib/missing.js")
    links = await h.request(
        lsp.TEXT_DOCUMENT_DOCUMENT_LINK,
        lsp.DocumentLinkParams(text_document=lsp.TextDocumentIdentifier(uri=h.uri(TASKS8))),
    )
    assert "src/lib/missing.js" not in [h.text_range(TASKS8, link.range) for link in links]


def lsp_path(uri: str) -> str:
    from gemstack_lsp.uris import uri_to_path

    path = uri_to_path(uri)
    assert path is not None
    return path


async def test_workspace_symbols(make_client: MakeClient, client_kind: str, gem_repo: Path) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    symbols = await h.request(lsp.WORKSPACE_SYMBOL, lsp.WorkspaceSymbolParams(query="TEST-COST-E0"))
    names = sorted(s.name for s in symbols)
    assert names == [
        "TEST-COST-E01",
        "TEST-COST-E01",
        "TEST-COST-E02",
        "TEST-COST-E02",
        "TEST-COST-E03",
        "TEST-COST-E03",
    ]
    kinds: dict[str, set[lsp.SymbolKind]] = {s.name: set() for s in symbols}
    for s in symbols:
        kinds[s.name].add(s.kind)
    assert kinds["TEST-COST-E01"] == {lsp.SymbolKind.Method, lsp.SymbolKind.Field}
    features = await h.request(lsp.WORKSPACE_SYMBOL, lsp.WorkspaceSymbolParams(query="context-capsule"))
    module = next(s for s in features if s.kind == lsp.SymbolKind.Module)
    assert module.name == "009-context-capsule"
    assert module.location.uri == path_to_uri(gem_repo / SPEC9)
    assert module.container_name == f"{gem_repo.name}/specs"
    # Fuzzy: letters in order.
    fuzzy = await h.request(lsp.WORKSPACE_SYMBOL, lsp.WorkspaceSymbolParams(query="zdepcore"))
    fuzzy_names = {s.name for s in fuzzy}
    assert "zero-dependency-core" in fuzzy_names
    assert "T001: Enforce zero-dependency core architecture for Upgrade D" in fuzzy_names
    assert "TEST-COST-E01" not in fuzzy_names


def test_navigation_without_a_server(gem_repo: Path) -> None:
    repo = AnalysisHost(str(gem_repo), DiskReader(gem_repo)).snapshot()
    text = (gem_repo / TASKS8).read_text("utf-8")
    occ = occurrence_at(TASKS8, text, text.index("TEST-COST-B04"))
    assert occ is not None and (occ.kind, occ.value, occ.declaration) == ("test", "TEST-COST-B04", False)
    [decl] = definitions(repo, TASKS8, occ)
    assert (decl.path, decl.kind, decl.declaration) == (SPEC8, "test", True)
    refs = references(repo, TASKS8, occ)
    assert [(r.path, r.declaration) for r in refs] == [(SPEC8, True), (PLAN8, False), (TASKS8, False)]
    # Outside any identifier: nothing.
    assert occurrence_at(TASKS8, text, 0) is None
    # A path that leaves the repository is never followed.
    fake = type(occ)(TASKS8, occ.span, "path", "../outside.txt")
    assert definitions(repo, TASKS8, fake) == []


async def test_references_of_a_provider_and_an_action(
    make_client: MakeClient, client_kind: str, gem_repo: Path
) -> None:
    spec = gem_repo / SPEC8
    spec.write_text(spec.read_text("utf-8") + ACTIONS, "utf-8")
    tasks = gem_repo / TASKS8
    tasks.write_text(
        tasks.read_text("utf-8").replace(
            "<!-- gemstack:depends=T003 -->", "<!-- gemstack:depends=T003 -->\n  <!-- gemstack:actions=summarise -->"
        ),
        "utf-8",
    )
    h = await make_client(client_kind, gem_repo, fake=False)
    found = await _references(h, SPEC8, '"gemini-cloud", "mock-local"', delta=2)
    assert sorted(p for p, _ in found) == ["cost-ledger.json", f"{F8}/cost-ledger.json", SPEC8]
    found = await _references(h, TASKS8, "actions=summarise", delta=9)
    assert found == [(SPEC8, '"summarise"'), (TASKS8, "summarise")]
    assert await _definition(h, TASKS8, "actions=summarise", 9) == [(SPEC8, '"summarise"')]


async def test_definition_of_an_id_mentioned_in_prose(
    make_client: MakeClient, client_kind: str, gem_repo: Path
) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    plan9 = f"{F9}/plan.md"
    # A contract id in backticks in plan.md's table goes to its declarations (the spec's and
    # the copies plan.md and tasks.md inherit), as from the block itself.
    found = await _definition(h, plan9, "| `zero-dependency-core` |", 5)
    assert found == [
        (SPEC9, '"zero-dependency-core"'),
        (plan9, '"zero-dependency-core"'),
        (TASKS9, '"zero-dependency-core"'),
    ]
    # References from the same place find the same declarations.
    refs = await _references(h, plan9, "| `zero-dependency-core` |", delta=5)
    assert (SPEC9, '"zero-dependency-core"') in refs
    # A test id in the spec's prose goes to the test matrix.
    assert await _definition(h, SPEC8, "(`TEST-COST-B01`", 4) == [(SPEC8, '"TEST-COST-B01"')]
