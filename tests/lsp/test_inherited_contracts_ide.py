"""The editor features see ``gemstack-inherited-contracts``: hover, references, outline, completion."""

from __future__ import annotations

from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import Feature, GemstackRepo
from gemstack_lsp.server.completion import complete, repo_facts
from gemstack_lsp.server.hover import HoverContext, hover_markdown, word_at
from gemstack_lsp.server.navigation import definitions, occurrence_at, references
from gemstack_lsp.server.symbols import outline

SPEC = (
    '# Spec\n\n```gemstack-contracts\n[{"id": "conflict-detector", "type": "BOOLEAN_INVARIANT", "value": true}]\n```\n'
)
PLAN = (
    "# Plan\n\n## 1. Inherited Architecture Contracts\n\n```gemstack-inherited-contracts\n"
    '[{"id": "conflict-detector", "type": "BOOLEAN_INVARIANT", "value": false}]\n```\n'
)
FILES = {"specs/a/spec.md": SPEC, "specs/a/plan.md": PLAN}


def repo() -> GemstackRepo:
    return GemstackRepo("/r", MemoryReader(FILES))


def test_hover_on_the_declaration_names_the_inherited_restatement() -> None:
    r = repo()
    offset = SPEC.index("conflict-detector") + 1
    word, start, end = word_at(SPEC, offset)  # type: ignore[misc]
    ctx = HoverContext(r, "specs/a/spec.md", SPEC, offset, word, start, end, Feature("a"), "development")
    (section,) = [s for s in hover_markdown(ctx) if "Frozen contract" in s]
    assert "redeclared in `specs/a/plan.md:6`: **disagrees**" in section


def test_references_and_definition_reach_the_inherited_block() -> None:
    r = repo()
    occ = occurrence_at("specs/a/plan.md", PLAN, PLAN.index("conflict-detector") + 1)
    assert occ is not None and occ.kind == "contract"
    assert {o.path for o in references(r, "specs/a/plan.md", occ)} == {"specs/a/spec.md", "specs/a/plan.md"}
    assert next(d.path for d in definitions(r, "specs/a/plan.md", occ)) == "specs/a/spec.md"


def test_outline_lists_the_inherited_contracts() -> None:
    items = [i for top in outline("specs/a/plan.md", PLAN) for i in top.walk()]
    contract = next(i for i in items if i.kind == "contract")
    assert contract.name == "conflict-detector" and contract.detail == "BOOLEAN_INVARIANT"
    assert any(i.kind == "block" and "gemstack-inherited-contracts" in i.name for i in items)


def test_completion_offers_the_block_name_and_its_keys() -> None:
    text = "# Plan\n\n```gemstack-inh"
    names = [c.label for c in complete("specs/a/plan.md", text, len(text), repo_facts(repo()))]
    assert "gemstack-inherited-contracts" in names
    text = '```gemstack-inherited-contracts\n[{"id": "a", "type": ""}]\n```\n'
    offset = text.index('"type": "') + len('"type": "')
    values = [c.label for c in complete("specs/a/plan.md", text, offset, repo_facts(repo()))]
    assert "BOOLEAN_INVARIANT" in values
