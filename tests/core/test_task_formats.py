"""Task formats the reference reads as 0 tasks, and lifecycle headers the boxes contradict
(issue 18, item 6), on slices of upstream's own tasks.md files."""

from __future__ import annotations

from pathlib import Path

import pytest

from gemstack_lsp.core.findings import Severity
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.core.tasks import checklist_items, format_findings, parse_tasks

UPSTREAM = Path(__file__).parent.parent / "fixtures" / "upstream-realrepo"
T004 = (UPSTREAM / "tasks" / "004-release-automation.tasks.md").read_text("utf-8")
T006 = (UPSTREAM / "tasks" / "006-architecture-consistency-engine.tasks.md").read_text("utf-8")
T007 = (UPSTREAM / "tasks" / "007-mechanical-test-matrix-closure-evidence.tasks.md").read_text("utf-8")
T0X = (UPSTREAM / "current-0x" / "specs" / "current" / "tasks.md").read_text("utf-8")


def _covered(text: str, path: str = "specs/x/tasks.md") -> list[tuple[str, str]]:
    return [(f.code, text[f.span.start : f.span.end] if f.span else "") for f in format_findings(path, text)]


def test_upstream_006_headings_are_unread_and_its_header_contradicts_them() -> None:
    assert parse_tasks(T006).tasks == ()
    findings = format_findings("specs/006/tasks.md", T006)
    assert [f.code for f in findings] == ["TASKS_UNREAD_BY_REFERENCE", "TASKS_LIFECYCLE_CONTRADICTED"]
    unread, contradicted = findings
    assert unread.effective_severity is Severity.INFO
    assert "`### [ ] T001`" in unread.message and "- [ ] **T001: Title**" in unread.message
    assert "validation_required=true|false" in unread.message
    assert T006[unread.span.start : unread.span.end] == "### [ ]"  # type: ignore[union-attr]
    assert contradicted.effective_severity is Severity.WARNING
    assert T006[contradicted.span.start : contradicted.span.end] == "TASKS_COMPLETE"  # type: ignore[union-attr]
    assert "3 of 3 task box(es) are unchecked" in contradicted.message


def test_upstream_004_numbered_items_are_unread_but_all_ticked() -> None:
    assert parse_tasks(T004).tasks == ()
    (unread,) = format_findings("specs/004/tasks.md", T004)
    assert unread.code == "TASKS_UNREAD_BY_REFERENCE"
    assert "none of its 12 checklist item(s)" in unread.message
    assert "`- [x] 1.1`" in unread.message


def test_upstream_007_reads_its_tasks_but_the_header_says_complete() -> None:
    tasks = parse_tasks(T007).tasks
    assert [t.id for t in tasks] == ["T001", "T002", "T003"] and not any(t.done for t in tasks)
    assert _covered(T007) == [("TASKS_LIFECYCLE_CONTRADICTED", "TASKS_COMPLETE")]
    (f,) = format_findings("specs/007/tasks.md", T007)
    assert "3 of 3 task box(es) are unchecked" in f.message and ": T001)" in f.message


def test_upstream_0x_dotted_ids_are_unread() -> None:
    assert parse_tasks(T0X).tasks == ()
    (unread,) = format_findings("specs/current/tasks.md", T0X)
    assert "`- [ ] **T0.1:`" in unread.message


@pytest.mark.parametrize(
    "text",
    [
        "# Tasks\n\n- [ ] **T001: a**\n  <!-- gemstack:validation_required=false -->\n",
        "# Tasks\n\nNo boxes at all.\n",
        "**Lifecycle Status**: `TASKS_COMPLETE`\n\n- [x] **T001: a**\n",
        "**Lifecycle Status**: `IMPLEMENTING`\n\n- [ ] **T001: a**\n",
        "- [ ] **T001: a**\n\n**Lifecycle Status**: `SHIPPED`\n",  # below the tasks: not a header
        "```md\n- [ ] 1.1 an example inside a fence\n```\n",
        "",
    ],
)
def test_nothing_to_say(text: str) -> None:
    assert format_findings("specs/x/tasks.md", text) == []


@pytest.mark.parametrize(
    "header",
    ["**Lifecycle Status**: `SHIPPED`", "- **Status**: VERIFIED", "**lifecycle status**: done", "**Estado**: `CLOSED`"],
)
def test_lifecycle_words_that_claim_completion(header: str) -> None:
    text = f"# Tasks\n{header}\n\n- [x] **T001: a**\n- [ ] **T002: b**\n"
    (f,) = format_findings("specs/x/tasks.md", text)
    assert f.code == "TASKS_LIFECYCLE_CONTRADICTED" and "1 of 2 task box(es)" in f.message


def test_checklist_items_kinds_and_spans() -> None:
    text = "### [x] T1 — a\n  - [ ] nested\n* [X] 2.1 b\n+ [ ]\n```\n- [ ] fenced\n```\n- [] not a box\n"
    items = checklist_items(text)
    assert [(i.line, i.done, i.shape) for i in items] == [
        (0, True, "### [x] T1"),
        (1, False, "- [ ] nested"),
        (2, True, "* [X] 2.1"),
        (3, False, "+ [ ]"),
    ]
    assert all(text[i.box_span.start : i.box_span.end] in ("[ ]", "[x]", "[X]") for i in items)


def test_long_runs_of_blanks_are_read_once() -> None:
    """No regex here backtracks over a run of blanks (another helper times the parser)."""
    for text in (
        "**Lifecycle Status**:" + " " * 32_000 + "\n- [ ] a\n",
        "- [ ]" + " " * 32_000 + "\n",
        "### " + " " * 32_000 + "[ ]\n",
        "- [ ] **T001:" + " " * 32_000 + "\n",
    ):
        format_findings("specs/x/tasks.md", text)


def test_analyze_reports_both_on_a_feature() -> None:
    files = {".gemstack/state.json": "{}", "specs/006/spec.md": "# S\n", "specs/006/tasks.md": T006}
    repo = GemstackRepo("/repo", MemoryReader(files))
    codes = [f.code for f in analyze(repo) if f.path == "specs/006/tasks.md"]
    assert codes == ["TASKS_LIFECYCLE_CONTRADICTED", "TASKS_UNREAD_BY_REFERENCE"]


def test_a_spec_kit_repository_gets_no_task_format_finding() -> None:
    """Without .gemstack/ or any Gemstack artifact, another tool's task lists are left alone."""
    repo = GemstackRepo("/repo", MemoryReader({"specs/006/spec.md": "# S\n", "specs/006/tasks.md": T006}))
    assert [f.code for f in analyze(repo) if f.path == "specs/006/tasks.md"] == []
