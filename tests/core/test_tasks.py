"""tasks.md metadata: the reference grammar (section 9.5), our 1.4 ids, spans and findings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gemstack_lsp.core.tasks import parse_tasks

REFERENCE_REPO = Path(__file__).parents[1] / "fixtures" / "gemstack-reference" / "repo"


def _as_reference(text: str, *, reference_v1_3: bool) -> list[dict[str, Any]]:
    return [
        {
            "id": t.id,
            "title": t.title,
            "validation_required": t.validation_required,
            "tests": [r.value for r in t.tests],
            "files": [r.value for r in t.files],
            "depends": [r.value for r in t.depends],
        }
        for t in parse_tasks(text, reference_v1_3=reference_v1_3).tasks
    ]


def test_golden_tasks_parse_sample_matches_reference_v1_3(golden: dict[str, Any]) -> None:
    sample = golden["tasks_parse_sample"]
    assert _as_reference(sample["tasks_md"], reference_v1_3=True) == sample["parsed_v1_3"]


def test_golden_sample_with_v1_4_ids_adds_the_ud_task(golden: dict[str, Any]) -> None:
    sample = golden["tasks_parse_sample"]
    parsed = _as_reference(sample["tasks_md"], reference_v1_3=False)
    assert parsed[:2] == sample["parsed_v1_3"]
    assert parsed[2] == {
        "id": "UD-T003",
        "title": "not matched in v1.3.0",
        "validation_required": False,
        "tests": [],
        "files": [],
        "depends": [],
    }
    tasks = parse_tasks(sample["tasks_md"]).tasks
    assert [t.reference_v1_3 for t in tasks] == [True, True, False]
    assert [t.done for t in tasks] == [True, False, True]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("- [ ] **T001: Title**", ("T001", "Title", False)),
        ("* [x] **T002:Title**", ("T002", "Title", True)),
        ("-\t[X]   **UD-T010:   Spaced title  ** trailing", ("UD-T010", "Spaced title", True)),
        ("- [ ] **TASK-001: Implementar**", ("TASK-001", "Implementar", False)),
        ("- [ ] **T003: Title with `code`** and **bold**", ("T003", "Title with `code`", False)),
        ("  - [ ] **T001: indented**", None),
        ("- [] **T001: no box**", None),
        ("- [ ] T001: no bold", None),
        ("- [ ] **T.1: dotted id**", None),
        ("+ [ ] **T001: plus marker**", None),
    ],
)
def test_task_header_grammar(line: str, expected: tuple[str, str, bool] | None) -> None:
    tasks = parse_tasks(line + "\n").tasks
    if expected is None:
        assert tasks == ()
    else:
        assert len(tasks) == 1
        assert (tasks[0].id, tasks[0].title, tasks[0].done) == expected


@pytest.mark.parametrize(
    ("comment", "kind", "values"),
    [
        ("<!-- gemstack:tests=A, B ,,C -->", "tests", ["A", "B", "C"]),
        ("text <!--gemstack:tests=A-->", "tests", ["A"]),
        ("<!-- gemstack:tests= -->", "tests", []),
        ("<!-- gemstack:files=src\\a.js, b/c.md -->", "files", ["src/a.js", "b/c.md"]),
        ("<!-- gemstack:depends=T001,UD-T002 -->", "depends", ["T001", "UD-T002"]),
        ("<!-- gemstack:actions=send-email,ocr-scan -->", "actions", ["send-email", "ocr-scan"]),
        # JavaScript's whitespace (a no-break space, an em space, a BOM) trims items too.
        ("<!-- gemstack:tests=\u00a0A\u2003,\ufeff , B\t,\u3000 -->", "tests", ["A", "B"]),
        ("<!-- gemstack:files= \u00a0a\\b.py , \\\u2003-->", "files", ["a/b.py", "/"]),
    ],
)
def test_comment_items_and_their_exact_spans(comment: str, kind: str, values: list[str]) -> None:
    text = f"- [ ] **T001: t**\n  {comment}\n"
    task = parse_tasks(text).tasks[0]
    refs = {"tests": task.tests, "files": task.files, "depends": task.depends, "actions": task.actions}[kind]
    assert [r.value for r in refs] == values
    for ref in refs:
        # The span covers the item as written (files keep their original backslashes in the text).
        assert text[ref.span.start : ref.span.end].replace("\\", "/") == ref.value
    c = task.comment(kind)
    assert c is not None
    assert text[c.span.start : c.span.end].startswith("<!--")
    assert text[c.span.start : c.span.end].endswith("-->")


def test_first_kind_on_a_line_wins_and_later_comments_replace_earlier() -> None:
    text = (
        "- [ ] **T001: t**\n"
        "<!-- gemstack:tests=X --> <!-- gemstack:validation_required=true -->\n"
        "<!-- gemstack:tests=Y -->\n"
    )
    task = parse_tasks(text).tasks[0]
    assert task.validation_required is True
    assert [r.value for r in task.tests] == ["Y"]
    assert [c.kind for c in task.comments] == ["validation_required", "tests"]


def test_comments_before_any_header_are_ignored() -> None:
    text = "<!-- gemstack:validation_required=true -->\n- [ ] **T001: t**\n"
    assert parse_tasks(text).tasks[0].validation_required is None


def test_spans_use_code_points_with_non_ascii_text_and_crlf() -> None:
    text = "# Tâches — ünïcode 🎉\r\n- [x] **T001: Ñandú 🎉**\r\n  <!-- gemstack:tests=TEST-É-A01 -->\r\n\r\n"
    task = parse_tasks(text).tasks[0]
    assert text[task.id_span.start : task.id_span.end] == "T001"
    assert text[task.title_span.start : task.title_span.end] == "Ñandú 🎉"
    assert text[task.checkbox_span.start : task.checkbox_span.end] == "[x]"
    assert [text[r.span.start : r.span.end] for r in task.tests] == ["TEST-É-A01"]
    # The section stops at the last non-blank line.
    assert text[task.span.start : task.span.end].endswith("-->")


def test_task_sections_and_lookup() -> None:
    text = "- [ ] **T001: a**\n  body\n\n- [x] **T002: b**\n  more\n"
    tl = parse_tasks(text)
    t1, t2 = tl.tasks
    assert text[t1.span.start : t1.span.end] == "- [ ] **T001: a**\n  body"
    assert tl.task_at(text.index("body")) is t1
    assert tl.task_at(text.index("more")) is t2
    assert tl.by_id("T002") is t2
    assert tl.by_id("T999") is None
    assert tl.completed == 1


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("", "Task T001 must explicitly declare validation_required"),
        ("<!-- gemstack:tests=A -->", "Task T001 must explicitly declare validation_required"),
        ("<!-- gemstack:validation_required=true -->", "Task T001 has validation_required=true but specifies no tests"),
        (
            "<!-- gemstack:validation_required=true -->\n<!-- gemstack:tests= -->",
            "Task T001 has validation_required=true but specifies no tests",
        ),
        ("<!-- gemstack:validation_required=false -->", None),
        ("<!-- gemstack:validation_required=true -->\n<!-- gemstack:tests=A -->", None),
    ],
)
def test_TASK_VALIDATION_MISSING(body: str, message: str | None) -> None:
    text = f"- [ ] **T001: title**\n{body}\n"
    findings = parse_tasks(text).findings("specs/x/tasks.md", text)
    if message is None:
        assert findings == []
        return
    (f,) = findings
    assert (f.code, f.message, f.path, f.subject, f.phase) == (
        "TASK_VALIDATION_MISSING",
        message,
        "specs/x/tasks.md",
        "T001",
        "tasks",
    )
    assert f.span is not None
    assert text[f.span.start : f.span.end] == "- [ ] **T001: title**"


def test_missing_declaration_fix_inserts_the_comment_after_the_header() -> None:
    text = "- [ ] **T001: title**\r\nbody\r\n"
    (f,) = parse_tasks(text).findings("t.md", text)
    titles = [fix.title for fix in f.fixes]
    assert titles == ["Declare validation_required=false for T001", "Declare validation_required=true for T001"]
    (edit,) = f.fixes[0].edits
    fixed = text[: edit.span.start] + edit.new_text + text[edit.span.end :]
    assert fixed == "- [ ] **T001: title**\r\n  <!-- gemstack:validation_required=false -->\r\nbody\r\n"
    assert parse_tasks(fixed).findings("t.md", fixed) == []


@pytest.mark.parametrize("feature", ["008-cost-provider-safety-gates", "009-context-capsule"])
def test_fixture_tasks_parse_without_findings(feature: str) -> None:
    text = (REFERENCE_REPO / "specs" / feature / "tasks.md").read_text("utf-8")
    tl = parse_tasks(text)
    assert len(tl.tasks) > 0
    assert all(t.reference_v1_3 for t in tl.tasks)
    assert tl.findings("tasks.md", text) == []
    assert [t.id for t in tl.tasks] == [f"T{i:03d}" for i in range(1, len(tl.tasks) + 1)]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "- [ ] **T001: a**",
                "* [x] **UD-T2:b**",
                "<!-- gemstack:tests=A, B -->",
                "<!-- gemstack:files=a\\b -->",
                "<!-- gemstack:validation_required=false -->",
                "<!-- gemstack:actions=x -->",
                "\u2028",
                "😀",
                " ",
                "\r\n",
                "\n",
                "\r",
                "**",
                ",",
            ]
        ),
        max_size=30,
    ).map("".join)
)
def test_any_text_parses_with_spans_inside_it(text: str) -> None:
    tl = parse_tasks(text)
    for t in tl.tasks:
        for span in (t.id_span, t.title_span, t.checkbox_span, t.header_span, t.span):
            assert 0 <= span.start <= span.end <= len(text)
        assert text[t.id_span.start : t.id_span.end] == t.id
        for _, ref in t.refs():
            assert text[ref.span.start : ref.span.end].replace("\\", "/") == ref.value
    for f in tl.findings("t.md", text):
        assert f.span is not None and f.span.end <= len(text)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "- [ ] **T001: a**",
                "* [x] **T12:b**",
                "- [ ] **T3x: c**",
                "* [x] **UD-T2:b**",
                "- [ ] **T4:",
                "-\u2028[ ]\t**T5: d**",
                " - [ ] **T6: e**",
                "<!-- gemstack:tests=A -->",
                "\u2028",
                " ",
                "\r\n",
                "\n",
                "\r",
                "**",
            ]
        ),
        max_size=30,
    ).map("".join)
)
def test_the_1_3_reference_sees_exactly_the_tasks_whose_ids_are_1_3_ids(text: str) -> None:
    """What the capsule check counts as the 1.3 reference's total: the one parse's tasks with
    ``T<digits>`` ids are the tasks the 1.3 grammar reads on its own (no second parse)."""
    v13 = parse_tasks(text, reference_v1_3=True).tasks
    assert sum(t.reference_v1_3 for t in parse_tasks(text).tasks) == len(v13)
    assert [t.id for t in parse_tasks(text).tasks if t.reference_v1_3] == [t.id for t in v13]
