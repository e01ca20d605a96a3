"""The spec-delta block is a registry kind like the others: hover and completion read its
schema, the outline lists it, navigation and its checks are unchanged."""

from __future__ import annotations

from ide_repository import FILES, SPEC2, offset, snapshot

from gemstack_lsp import ide
from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks import blocks_of

DELTA = """# Other, changed

```gemstack-spec-delta
{
  "base_spec": "specs/001-images",
  "removed": {"tests": ["TEST-IMG-A02"]},
  "added": {"contracts": [{"id": "new-rule", "type": "BOOLEAN_INVARIANT", "value": true}]},

}
```
"""


def _files() -> dict[str, str]:
    return {**FILES, SPEC2: DELTA}


def test_the_block_is_parsed_as_its_registry_entry() -> None:
    result = blocks_of(SPEC2, DELTA).of(kinds.SPEC_DELTA)
    assert result.present and result.fence is not None and result.fence.kind == kinds.SPEC_DELTA
    assert result.findings == ()  # its findings are the cross-document ones of core.spec_delta


def test_hover_on_a_key_shows_the_schema_text() -> None:
    snap = snapshot(_files())
    info = ide.hover(snap, SPEC2, offset(snap, SPEC2, '"base_spec"', 3), ide.HoverOptions())
    assert info is not None
    assert any("Base spec" in s and "specs/<feature>" in s for s in info.sections)


def test_completion_offers_the_keys_the_schema_has_left() -> None:
    snap = snapshot(_files())
    at = offset(snap, SPEC2, "},\n\n}", 3)
    labels = {c.label for c in ide.complete(snap, SPEC2, at)}
    assert "modified" in labels
    assert "base_spec" not in labels and "added" not in labels


def test_the_outline_lists_the_block_without_counting_items() -> None:
    valid = DELTA.replace('"value": true}]},\n\n}', '"value": true}]}\n}')
    assert valid != DELTA
    snap = snapshot({**FILES, SPEC2: valid})

    def walk(items: tuple[ide.OutlineItem, ...]) -> list[ide.OutlineItem]:
        return [x for item in items for x in (item, *walk(item.children))]

    blocks = [item for item in walk(ide.document_outline(snap, SPEC2)) if item.kind == "block"]
    assert [(b.name, b.detail) for b in blocks] == [(kinds.SPEC_DELTA, None)]
    broken = ide.document_outline(snapshot(_files()), SPEC2)
    assert [(b.name, b.detail) for b in walk(broken) if b.kind == "block"] == [(kinds.SPEC_DELTA, "invalid JSON")]
