"""The IDE features see ``gemstack-inherited-contracts``: hover, references, outline, completion."""

from __future__ import annotations

from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.host import AnalysisHost, Snapshot
from gemstack_lsp.ide.completion import completions, repo_facts
from gemstack_lsp.ide.hover import HoverOptions, hover
from gemstack_lsp.ide.navigation import definitions, references, target_at
from gemstack_lsp.ide.outline import outline

SPEC = (
    '# Spec\n\n```gemstack-contracts\n[{"id": "conflict-detector", "type": "BOOLEAN_INVARIANT", "value": true}]\n```\n'
)
PLAN = (
    "# Plan\n\n## 1. Inherited Architecture Contracts\n\n```gemstack-inherited-contracts\n"
    '[{"id": "conflict-detector", "type": "BOOLEAN_INVARIANT", "value": false}]\n```\n'
)
FILES = {"specs/a/spec.md": SPEC, "specs/a/plan.md": PLAN}


def snapshot() -> Snapshot:
    return AnalysisHost("/r", MemoryReader(FILES)).snapshot()


def test_hover_on_the_declaration_names_the_inherited_restatement() -> None:
    info = hover(snapshot(), "specs/a/spec.md", SPEC.index("conflict-detector") + 1, HoverOptions())
    assert info is not None
    (section,) = [s for s in info.sections if "Frozen contract" in s]
    assert "redeclared in `specs/a/plan.md:6`: **disagrees**" in section


def test_references_and_definition_reach_the_inherited_block() -> None:
    snap = snapshot()
    occ = target_at(snap, "specs/a/plan.md", PLAN.index("conflict-detector") + 1)
    assert occ is not None and occ.kind == "contract"
    assert {o.path for o in references(snap, "specs/a/plan.md", occ)} == {"specs/a/spec.md", "specs/a/plan.md"}
    assert next(d.path for d in definitions(snap, "specs/a/plan.md", occ)) == "specs/a/spec.md"


def test_outline_lists_the_inherited_contracts() -> None:
    items = [i for top in outline("specs/a/plan.md", PLAN) for i in top.walk()]
    contract = next(i for i in items if i.kind == "contract")
    assert contract.name == "conflict-detector" and contract.detail == "BOOLEAN_INVARIANT"
    assert any(i.kind == "block" and "gemstack-inherited-contracts" in i.name for i in items)


def test_completion_offers_the_block_name_and_its_keys() -> None:
    facts = repo_facts(snapshot())
    text = "# Plan\n\n```gemstack-inh"
    names = [c.label for c in completions("specs/a/plan.md", text, len(text), facts)]
    assert "gemstack-inherited-contracts" in names
    text = '```gemstack-inherited-contracts\n[{"id": "a", "type": ""}]\n```\n'
    offset = text.index('"type": "') + len('"type": "')
    values = [c.label for c in completions("specs/a/plan.md", text, offset, facts)]
    assert "BOOLEAN_INVARIANT" in values
