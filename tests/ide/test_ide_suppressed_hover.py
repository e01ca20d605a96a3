"""The hover explains findings: the code, its catalogue link, how to silence it, and why a
silenced one is not shown (a comment, the configuration, an accepted exception)."""

from __future__ import annotations

from dataclasses import replace

from gemstack_lsp import ide
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.policy import FindingPolicy, PathRule
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.host import AnalysisHost
from gemstack_lsp.ide.hover import finding_code_section

TASKS = "specs/a/tasks.md"
TEXT = (
    "# Tasks\n\n<!-- gemstack-lsp-ignore TASK_VALIDATION_MISSING checked by hand -->\n"
    "- [ ] **T1: one**\n- [ ] **T2: two**\n"
)


def hover_at(files: dict[str, str], needle: str, policy: FindingPolicy | None = None) -> str:
    options = replace(AnalysisOptions(), policy=policy or FindingPolicy())
    host = AnalysisHost("/repo", MemoryReader(files), options)
    snapshot = host.snapshot()
    snapshot.findings()
    text = files[TASKS]
    info = ide.hover(snapshot, TASKS, text.index(needle) + 2, ide.HoverOptions())
    return info.markdown if info is not None else ""


def test_the_code_section_links_the_catalogue_and_says_how_to_silence() -> None:
    section = finding_code_section("STALE_PROVIDER_COST_ASSUMPTION") or ""
    assert section.startswith("**STALE_PROVIDER_COST_ASSUMPTION**")
    assert "<!-- gemstack-lsp-ignore STALE_PROVIDER_COST_ASSUMPTION reason -->" in section
    assert 'ignore = ["STALE_PROVIDER_COST_ASSUMPTION"]' in section
    assert "findings.md#stale_provider_cost_assumption)" in section
    assert "cannot be silenced" in (finding_code_section("GEMSTACK_INTERNAL_ERROR") or "")


def test_a_finding_silenced_by_a_comment_says_why() -> None:
    files = {"specs/a/spec.md": "# A\n", TASKS: TEXT}
    shown = hover_at(files, "T1: one")
    assert "**TASK_VALIDATION_MISSING** is not shown here" in shown and "checked by hand" in shown
    assert "is not shown here" not in hover_at(files, "T2: two")


def test_a_finding_switched_off_in_the_configuration_says_where() -> None:
    files = {"specs/a/spec.md": "# A\n", TASKS: TEXT.replace("<!-- gemstack-lsp-ignore", "<!-- note")}
    policy = FindingPolicy(overrides=(PathRule(("specs/a/**",), ignore=frozenset({"tasks"}), reason="old feature"),))
    shown = hover_at(files, "T2: two", policy)
    assert "switched off in .gemstack/lsp.toml ([[overrides]] entry 1): old feature" in shown
