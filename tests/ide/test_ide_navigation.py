"""Definition, references and links at the IDE boundary: repository texts in, plain data out."""

from __future__ import annotations

import pytest
from ide_repository import LEDGER, PLAN, SPEC, SPEC2, TASKS, F, offset, snapshot, spanned

from gemstack_lsp import ide
from gemstack_lsp.ide import navigation

#: (document, text near the cursor, cursor delta into it) -> where the definition is.
DEFINITIONS = [
    # Ids of blocks and task metadata, to their declarations in the feature.
    (PLAN, '"test_id": "TEST-IMG-A01"', 14, [(SPEC, '"TEST-IMG-A01"')]),
    (TASKS, "tests=TEST-IMG-A02", 9, [(SPEC, '"TEST-IMG-A02"')]),
    (TASKS, "depends=T001", 9, [(TASKS, "T001")]),
    (SPEC, '"vision-mock"]', 2, [(LEDGER, '"vision-mock"')]),
    # From plan.md's inherited contract to the spec's declaration.
    (PLAN, '"no-free-lunch"', 2, [(SPEC, '"no-free-lunch"')]),
    # Ids mentioned in prose: a contract and a test id in backticks in plan.md's table...
    (PLAN, "`no-free-lunch` |", 3, [(SPEC, '"no-free-lunch"'), (PLAN, '"no-free-lunch"')]),
    (PLAN, "`TEST-IMG-A02`", 3, [(SPEC, '"TEST-IMG-A02"')]),
    # ... a task id, a billable action and a capability in a sentence...
    (PLAN, "Task T002", 6, [(TASKS, "T002")]),
    (PLAN, "`search-images` to", 2, [(SPEC, '"search-images"')]),
    (PLAN, "`vision.search`;", 4, [(LEDGER, '"vision.search"'), (LEDGER, '"vision.search"')]),
    # ... and a test id in the spec's own prose: the feature's declaration, not the other one's.
    (SPEC, "and TEST-IMG-A01 proves", 8, [(SPEC, '"TEST-IMG-A01"')]),
    # A word nothing declares, and a word in a heading: no definition.
    (PLAN, "`not-an-id`", 3, []),
    (SPEC, "# Images", 3, []),
]


@pytest.mark.parametrize(("path", "needle", "delta", "expected"), DEFINITIONS)
def test_definition(path: str, needle: str, delta: int, expected: list[tuple[str, str]]) -> None:
    snap = snapshot()
    occ = ide.target_at(snap, path, offset(snap, path, needle, delta))
    found = ide.definitions(snap, path, occ) if occ is not None else []
    assert [spanned(snap, d.path, d.span) for d in found] == expected


def test_a_prose_mention_is_a_string_occurrence_under_the_cursor() -> None:
    snap = snapshot()
    occ = ide.target_at(snap, PLAN, offset(snap, PLAN, "`TEST-IMG-A02`", 5))
    assert occ is not None
    assert (occ.kind, occ.value, occ.declaration) == ("string", "TEST-IMG-A02", False)
    assert spanned(snap, PLAN, occ.span) == (PLAN, "TEST-IMG-A02")
    # Prose is no occurrence of the index: the pure lookup finds nothing there.
    text = snap.repo.document(PLAN).text
    assert text is not None
    assert navigation.occurrence_at(PLAN, text, occ.span.start) is None


REFERENCES = [
    # A test id: its declaration, the plan's binding and the task naming it; never the other
    # feature's test of the same id.
    (
        SPEC,
        '"TEST-IMG-A01"',
        2,
        True,
        [(SPEC, '"TEST-IMG-A01"'), (PLAN, '"TEST-IMG-A01"'), (TASKS, "TEST-IMG-A01")],
    ),
    (SPEC, '"TEST-IMG-A01"', 2, False, [(PLAN, '"TEST-IMG-A01"'), (TASKS, "TEST-IMG-A01")]),
    # From a prose mention, the same answer as from the declaration.
    (
        PLAN,
        "`no-free-lunch` |",
        3,
        True,
        [(SPEC, '"no-free-lunch"'), (PLAN, '"no-free-lunch"')],
    ),
    (TASKS, "depends=T001", 9, True, [(TASKS, "T001"), (TASKS, "T001")]),
]


@pytest.mark.parametrize(("path", "needle", "delta", "declaration", "expected"), REFERENCES)
def test_references(path: str, needle: str, delta: int, declaration: bool, expected: list[tuple[str, str]]) -> None:
    snap = snapshot()
    occ = ide.target_at(snap, path, offset(snap, path, needle, delta))
    assert occ is not None
    assert [spanned(snap, r.path, r.span) for r in ide.references(snap, path, occ, declaration)] == expected


def test_document_links_resolve_to_existing_files() -> None:
    snap = snapshot()
    links = ide.document_links(snap, PLAN)
    assert [(spanned(snap, PLAN, link.span)[1], link.value) for link in links] == [
        ('"tests/images.test.js"', "tests/images.test.js")
    ]


def test_the_occurrence_index_is_built_once_per_revision_and_shared() -> None:
    host_snapshot = snapshot()
    index = ide.occurrence_index(host_snapshot)
    # Every request of the revision sees the same index: definitions, references, completion.
    occ = ide.target_at(host_snapshot, TASKS, offset(host_snapshot, TASKS, "depends=T001", 9))
    assert occ is not None
    ide.references(host_snapshot, TASKS, occ)
    ide.complete(host_snapshot, PLAN, offset(host_snapshot, PLAN, '"test_id": "', 12))
    assert ide.occurrence_index(host_snapshot) is index
    assert set(index.files) >= {SPEC, PLAN, TASKS, LEDGER, SPEC2, f"{F}/context-capsule.json"}


def test_an_edit_reparses_only_the_edited_document(monkeypatch: pytest.MonkeyPatch) -> None:
    from ide_repository import host

    parsed: list[str] = []
    blocks = navigation._block_occurrences

    def counting(path: str, text: str):  # type: ignore[no-untyped-def]
        parsed.append(path)
        return blocks(path, text)

    monkeypatch.setattr(navigation, "_block_occurrences", counting)
    h = host()
    ide.occurrence_index(h.snapshot())
    assert sorted(parsed) == sorted([SPEC, PLAN, TASKS, SPEC2])
    parsed.clear()
    ide.occurrence_index(h.snapshot())
    assert parsed == []
    text = h.snapshot().repo.document(PLAN).text
    assert text is not None
    h.set_buffer(PLAN, text + "\nMore prose.\n")
    edited = h.snapshot()
    index = ide.occurrence_index(edited)
    assert parsed == [PLAN]
    assert index.by_file[PLAN] == ide.occurrence_index(edited).by_file[PLAN]
