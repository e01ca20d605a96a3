"""Hover: the lookups on repository snapshots (data-driven), and one request end to end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from lsprotocol import types as lsp

from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import Feature, GemstackRepo
from gemstack_lsp.fs import DiskReader
from gemstack_lsp.host import AnalysisHost
from gemstack_lsp.ide.hover import HoverContext, hover_markdown, word_at
from tests.conftest import REFERENCE_REPO

if TYPE_CHECKING:
    from tests.lsp.conftest import MakeClient

SPEC_009 = "specs/009-context-capsule/spec.md"

SYNTHETIC_SPEC = """# Feature: image search

```gemstack-capabilities
[
  {"provider_id": "vision-cloud", "type": "COMMERCIAL", "capabilities": ["vision.search"]},
  {"provider_id": "vision-mock", "type": "MOCK", "capabilities": ["vision.search"]}
]
```

```gemstack-billable-actions
[
  {
    "id": "search-images",
    "description": "Search the image index.",
    "category": "DEFINITELY_BILLABLE",
    "capability_id": "vision.search",
    "providers": ["vision-cloud"]
  }
]
```
"""

LEDGER = {
    "version": 1,
    "currency": "USD",
    "providers": {
        "vision-cloud": {
            "type": "COMMERCIAL",
            "pricing_model": "PER_REQUEST",
            "capabilities": {
                "vision.search": {
                    "cost_state": "BILLABLE",
                    "estimated_unit_cost": 0.002,
                    "assumption_source": "vendor price list",
                    "freshness_date": "2020-01-01",
                    "requires_human_approval": False,
                }
            },
        }
    },
}


def _ctx(repo: GemstackRepo, rel: str, needle: str, delta: int = 1, environment: str = "development") -> HoverContext:
    text = repo.document(rel).text
    assert text is not None
    offset = text.index(needle) + delta
    found = word_at(text, offset)
    assert found is not None
    parts = rel.split("/")
    return HoverContext(
        snapshot=AnalysisHost(repo.root, repo.reader).snapshot(),
        rel=rel,
        text=text,
        offset=offset,
        word=found[0],
        word_start=found[1],
        word_end=found[2],
        feature=Feature(parts[1]) if parts[0] == "specs" else None,
        environment=environment,
    )


@pytest.fixture
def reference() -> GemstackRepo:
    return GemstackRepo(str(REFERENCE_REPO), DiskReader(REFERENCE_REPO))


@pytest.fixture
def synthetic() -> GemstackRepo:
    files = {
        "specs/001-images/spec.md": SYNTHETIC_SPEC,
        "specs/001-images/cost-ledger.json": json.dumps(LEDGER, indent=2),
    }
    return GemstackRepo("/synthetic", MemoryReader(files))


def test_word_at_takes_ids_codes_and_dotted_capabilities() -> None:
    text = 'a "vision.search" CONTEXT_CAPSULE_STALE TEST-CONTEXT-A01.'
    assert word_at(text, text.index("search"))[0] == "vision.search"  # type: ignore[index]
    assert word_at(text, text.index("STALE"))[0] == "CONTEXT_CAPSULE_STALE"  # type: ignore[index]
    assert word_at(text, text.index("A01"))[0] == "TEST-CONTEXT-A01"  # type: ignore[index]
    assert word_at("   ", 1) is None


def test_contract_hover_shows_type_value_declaration_and_redeclarations(reference: GemstackRepo) -> None:
    (section,) = [s for s in hover_markdown(_ctx(reference, SPEC_009, '"zero-dependency-core"')) if "contract" in s]
    assert "**Frozen contract `zero-dependency-core`** · `BOOLEAN_INVARIANT`" in section
    assert "value: `true`" in section
    assert f"declared in `{SPEC_009}:" in section
    assert "redeclared in `specs/009-context-capsule/plan.md:" in section and "agrees" in section
    assert "context capsule: none" in section
    assert "zero external production npm dependencies" in section


def test_test_hover_shows_matrix_entry_bindings_and_tasks(reference: GemstackRepo) -> None:
    spec = reference.document(SPEC_009).text
    assert spec is not None
    test_id = next(w for w in spec.split('"') if w.startswith("TEST-CONTEXT-"))
    sections = hover_markdown(_ctx(reference, SPEC_009, f'"{test_id}"'))
    (section,) = [s for s in sections if s.startswith("**Acceptance test")]
    assert f"`{test_id}`" in section
    assert "layer `" in section and "gate `" in section
    assert "Bound to: `" in section


def test_finding_code_hover_in_any_text(reference: GemstackRepo) -> None:
    repo = GemstackRepo("/m", MemoryReader({"specs/x/spec.md": "<!-- see CONTEXT_CAPSULE_STALE -->\n"}))
    (section,) = hover_markdown(_ctx(repo, "specs/x/spec.md", "CONTEXT_CAPSULE_STALE"))
    assert section.startswith("**CONTEXT_CAPSULE_STALE** · error · not waivable")
    assert "Regenerate the capsule." in section
    assert "docs/findings.md#context_capsule_stale" in section


def test_billable_action_hover_has_a_gate_table_per_tier(synthetic: GemstackRepo) -> None:
    ctx = _ctx(synthetic, "specs/001-images/spec.md", '"search-images"', environment="ci")
    (section,) = [s for s in hover_markdown(ctx) if s.startswith("**Billable action")]
    assert "`DEFINITELY_BILLABLE`" in section
    assert "| environment | decision | reason |" in section
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| environment")]
    assert [r.split("|")[1].strip() for r in rows] == ["test", "ci (current)", "development", "staging", "production"]
    assert all(" DENY " in r for r in rows[:2])  # commercial actions are denied in test and ci


def test_provider_and_capability_hover_show_ledger_and_freshness(synthetic: GemstackRepo) -> None:
    ctx = _ctx(synthetic, "specs/001-images/spec.md", '"vision-cloud"')
    (provider,) = [s for s in hover_markdown(ctx) if s.startswith("**Provider")]
    assert "**Provider `vision-cloud`** · `COMMERCIAL`" in provider
    assert "cost_state `BILLABLE`" in provider and "stale" in provider
    ctx = _ctx(synthetic, "specs/001-images/spec.md", '"vision.search"')
    (capability,) = [s for s in hover_markdown(ctx) if s.startswith("**Capability")]
    assert "`vision-cloud` (COMMERCIAL)" in capability and "`vision-mock` (MOCK)" in capability


def test_block_key_hover_shows_the_schema_description(reference: GemstackRepo) -> None:
    sections = hover_markdown(_ctx(reference, SPEC_009, '"type": "BOOLEAN_INVARIANT"', delta=2))
    keys = [s for s in sections if s.startswith("**`type`**")]
    assert keys and "gemstack-contracts" in keys[0]


def test_ledger_key_hover(reference: GemstackRepo) -> None:
    sections = hover_markdown(_ctx(reference, "cost-ledger.json", '"cost_state"', delta=2))
    assert any(s.startswith("**`cost_state`**") and "cost-ledger-v1" in s for s in sections)


async def test_hover_end_to_end_reads_the_contract_type(
    make_client: MakeClient, gem_repo: Path, client_kind: str
) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    uri = h.open(SPEC_009)
    result = await h.request(
        lsp.TEXT_DOCUMENT_HOVER,
        lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            position=h.position(SPEC_009, '"capsule-is-derived-not-authority"', 5),
        ),
    )
    assert result is not None
    assert isinstance(result.contents, lsp.MarkupContent)
    assert result.contents.kind == lsp.MarkupKind.Markdown
    assert "`BOOLEAN_INVARIANT`" in result.contents.value
    assert result.range is not None
    assert h.text_range(SPEC_009, result.range) == "capsule-is-derived-not-authority"


async def test_hover_on_a_diagnostic_explains_its_code(make_client: MakeClient, gem_repo: Path) -> None:
    h = await make_client("vscode", gem_repo, fake=False)
    uri = h.open(SPEC_009)
    (missing,) = [d for d in await h.diagnostics(SPEC_009) if d.code == "CONTEXT_CAPSULE_MISSING"]
    result = await h.request(
        lsp.TEXT_DOCUMENT_HOVER,
        lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=missing.range.start),
    )
    assert result is not None and "**CONTEXT_CAPSULE_MISSING**" in result.contents.value


async def test_finding_code_hover_outside_any_repository(
    make_client: MakeClient, gem_repo: Path, tmp_path: Path
) -> None:
    h = await make_client("neovim", gem_repo, fake=False)
    note = tmp_path / "ci-log.md"
    note.write_text("CI failed: 😀 CONTEXT_CAPSULE_STALE on spec.md\n", "utf-8")
    import os

    rel = os.path.relpath(note, gem_repo)
    uri = h.open(rel)
    result = await h.request(
        lsp.TEXT_DOCUMENT_HOVER,
        lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=h.position(rel, "CONTEXT_CAPSULE_STALE", 4)
        ),
    )
    assert result is not None and "**CONTEXT_CAPSULE_STALE**" in result.contents.value
    assert h.text_range(rel, result.range) == "CONTEXT_CAPSULE_STALE"


def test_contract_hover_says_the_capsule_holds_it(reference: GemstackRepo) -> None:
    import datetime as dt

    from gemstack_lsp.core.capsule.generate import generate_capsule
    from gemstack_lsp.core.reader import OverlayReader

    result = generate_capsule(reference, "specs/009-context-capsule", dt.datetime(2026, 12, 2, tzinfo=dt.UTC))
    assert result.data is not None
    overlay = OverlayReader(reference.reader, {result.path: result.data.decode("utf-8")})
    repo = GemstackRepo(reference.root, overlay)
    (section,) = [s for s in hover_markdown(_ctx(repo, SPEC_009, '"zero-dependency-core"')) if "contract" in s]
    assert "context capsule: holds it" in section
