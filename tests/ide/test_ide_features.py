"""Outline, workspace symbols, completion, hover and lenses at the IDE boundary, as plain data."""

from __future__ import annotations

import dataclasses

import pytest
from ide_repository import FILES, LEDGER, PLAN, SPEC, SPEC2, TASKS, host, offset, snapshot, spanned

from gemstack_lsp import ide
from gemstack_lsp.core.options import AnalysisOptions


def _walk(items: tuple[ide.OutlineItem, ...], depth: int = 0) -> list[tuple[int, str, str]]:
    out: list[tuple[int, str, str]] = []
    for item in items:
        out.append((depth, item.kind, item.name))
        out.extend(_walk(item.children, depth + 1))
    return out


OUTLINES = [
    (
        SPEC,
        [
            (0, "heading", "Images"),
            (1, "block", "gemstack-contracts"),
            (2, "contract", "no-free-lunch"),
            (1, "heading", "Tests"),
            (2, "block", "gemstack-test-matrix"),
            (3, "test", "TEST-IMG-A01"),
            (3, "test", "TEST-IMG-A02"),
            (1, "heading", "Billable actions"),
            (2, "block", "gemstack-billable-actions"),
            (3, "action", "search-images"),
        ],
    ),
    (
        TASKS,
        [(0, "heading", "Tasks"), (1, "task", "T001: Ledger"), (1, "task", "T002: Search after T001")],
    ),
    (
        LEDGER,
        [
            (0, "key", "version"),
            (0, "key", "updated_at"),
            (0, "key", "currency"),
            (0, "key", "providers"),
            (1, "provider", "vision-cloud"),
            (2, "capability", "vision.search"),
            (1, "provider", "vision-mock"),
            (2, "capability", "vision.search"),
        ],
    ),
]


@pytest.mark.parametrize(("path", "expected"), OUTLINES)
def test_document_outline(path: str, expected: list[tuple[int, str, str]]) -> None:
    snap = snapshot()
    items = ide.document_outline(snap, path)
    assert _walk(items) == expected
    # Shared by every request of the revision.
    assert ide.document_outline(snap, path) is items


SYMBOLS = [
    ("", None),
    # Fuzzy: the query's characters in order ("Search after T001" has an a, a 0 and a 1).
    (
        "A01",
        [
            ("test", "TEST-IMG-A01", SPEC, "001-images"),
            ("binding", "TEST-IMG-A01", PLAN, "001-images"),
            ("task", "T002: Search after T001", TASKS, "001-images"),
            ("test", "TEST-IMG-A01", SPEC2, "002-other"),
        ],
    ),
    ("imgs", [("feature", "001-images", SPEC, "specs"), ("action", "search-images", SPEC, "001-images")]),
    ("nofree", [("contract", "no-free-lunch", SPEC, "001-images"), ("contract", "no-free-lunch", PLAN, "001-images")]),
]


@pytest.mark.parametrize(("query", "expected"), SYMBOLS)
def test_workspace_symbols(query: str, expected: list[tuple[str, str, str, str]] | None) -> None:
    snap = snapshot()
    found = [(s.kind, s.name, s.path, s.container) for s in ide.workspace_symbols(snap, query)]
    if expected is None:
        # No query: every feature and every id its documents declare.
        assert ("feature", "002-other", SPEC2, "specs") in found
        assert ("task", "T002: Search after T001", TASKS, "001-images") in found
        assert len(found) == len(ide.all_symbols(snap))
    else:
        assert found == expected
    for entry in ide.workspace_symbols(snap, query):
        if entry.kind != "feature":
            assert spanned(snap, entry.path, entry.span)[1].strip('"') == entry.name.split(":")[0]


COMPLETIONS = [
    # A binding's test id: the tests of the feature's matrix.
    (PLAN, '"test_id": "', 12, ["TEST-IMG-A01", "TEST-IMG-A02"]),
    # A task's tests= list: the matrix's tests not listed yet.
    (TASKS, "tests=TEST-IMG-A02", 6, ["TEST-IMG-A01", "TEST-IMG-A02"]),
    # A billable action's providers: the providers the registries declare.
    (SPEC, '"providers": ["', 15, ["vision-cloud", "vision-mock"]),
]


@pytest.mark.parametrize(("path", "needle", "delta", "expected"), COMPLETIONS)
def test_completion_offers_the_repository_ids(path: str, needle: str, delta: int, expected: list[str]) -> None:
    snap = snapshot()
    labels = [c.label for c in ide.complete(snap, path, offset(snap, path, needle, delta)) if c.kind == "id"]
    assert labels == expected


def test_repository_facts_are_collected_once_per_revision() -> None:
    h = host()
    snap = h.snapshot()
    facts = ide.repo_facts(snap)
    assert facts.providers == ("vision-cloud", "vision-mock")
    assert facts.tests is not None and facts.tests["001-images"] == ("TEST-IMG-A01", "TEST-IMG-A02")
    assert facts.actions is not None and facts.actions["001-images"] == ("search-images",)
    assert ide.repo_facts(snap) is facts
    # A new revision has its own facts: the edit shows.
    h.set_buffer(SPEC2, FILES[SPEC2].replace("TEST-IMG-A01", "TEST-OTHER-A01"))
    again = ide.repo_facts(h.snapshot())
    assert again is not facts
    assert again.tests is not None and again.tests["002-other"] == ("TEST-OTHER-A01",)


HOVERS = [
    (SPEC, '"no-free-lunch"', 3, "**Frozen contract `no-free-lunch`** · `BOOLEAN_INVARIANT`", "no-free-lunch"),
    (PLAN, '"TEST-IMG-A01"', 3, "**Acceptance test `TEST-IMG-A01`**", "TEST-IMG-A01"),
    (SPEC, '"vision-cloud"', 3, "**Provider `vision-cloud`** · `COMMERCIAL`", "vision-cloud"),
    (SPEC, '"search-images"', 3, "**Billable action `search-images`** · `DEFINITELY_BILLABLE`", "search-images"),
]


@pytest.mark.parametrize(("path", "needle", "delta", "first", "word"), HOVERS)
def test_hover(path: str, needle: str, delta: int, first: str, word: str) -> None:
    snap = snapshot()
    info = ide.hover(snap, path, offset(snap, path, needle, delta), ide.HoverOptions())
    assert info is not None and info.span is not None
    assert any(s.startswith(first) for s in info.sections)
    assert spanned(snap, path, info.span)[1] == word


def test_hover_explains_the_codes_under_the_cursor_and_finding_codes_anywhere() -> None:
    snap = snapshot()
    at = offset(snap, SPEC, "# Images", 0)
    info = ide.hover(snap, SPEC, at, ide.HoverOptions(), codes=["CONTEXT_CAPSULE_MISSING"])
    assert info is not None and info.sections[-1].startswith("**CONTEXT_CAPSULE_MISSING**")
    assert ide.hover(snap, SPEC, at, ide.HoverOptions()) is None
    outside = ide.code_hover("CI: CONTEXT_CAPSULE_STALE\n", 6)
    assert outside is not None and outside.span is not None
    assert outside.sections[0].startswith("**CONTEXT_CAPSULE_STALE**")
    assert ide.code_hover("nothing here", 2) is None


def test_code_lenses_show_the_capsule_state_and_the_gate_preview() -> None:
    snap = snapshot()
    ci = dataclasses.replace(AnalysisOptions(), environment="ci")
    lenses = ide.code_lenses(snap, SPEC, ci)
    feature = ("specs/001-images",)
    assert [(spanned(snap, SPEC, lens.span)[1], lens.title, lens.command, lens.arguments) for lens in lenses] == [
        ("# Images", "Capsule: none (legacy, context-free)", None, ()),
        ("# Images", "Generate capsule", "gemstack.regenerateCapsule", feature),
        ("# Images", "Verify", "gemstack.verifyCapsule", feature),
        # The mock provider of the chain serves the action in CI.
        ("```gemstack-billable-actions", "ci: all 1 action allowed", None, ()),
    ]
    assert ide.code_lenses(snap, SPEC, ci) is lenses
    assert ide.code_lenses(snap, PLAN, ci) == ()
    # Without the mock, the commercial provider is denied in CI.
    files = dict(FILES)
    files[SPEC] = files[SPEC].replace('"vision-cloud", "vision-mock"', '"vision-cloud"')
    titles = [lens.title for lens in ide.code_lenses(snapshot(files), SPEC, ci)]
    assert titles[-1] == "ci: 1 of 1 action denied (search-images: ENV_COMMERCIAL_DENIED)"


@pytest.mark.parametrize("query", ["", "a01", "IMG", "t0:", "s.i", "no-free", "(", "zz", "é"])
def test_workspace_symbols_filter_as_fuzzy_match_does(query: str) -> None:
    from gemstack_lsp.ide.symbols import fuzzy_match

    snap = snapshot()
    expected = [e for e in ide.all_symbols(snap) if fuzzy_match(query, e.name)]
    assert ide.workspace_symbols(snap, query) == expected


def test_fuzzy_matching_of_an_adversarial_query_is_a_single_pass() -> None:
    """A query whose characters all match early but whose last never does: a backtracking
    matcher tries every placement of the earlier characters (an 8-character query against a
    200-character id took minutes); one greedy pass answers at once, and correctly."""
    from gemstack_lsp.ide.symbols import fuzzy_match

    long_id = "a-" * 100
    assert not fuzzy_match("aaaaaaab", long_id)
    assert fuzzy_match("aaaaaaaa", long_id)
    assert fuzzy_match("A-a", long_id) and not fuzzy_match("a-b", long_id)
    files = dict(FILES)
    files[SPEC] = files[SPEC].replace('"id": "no-free-lunch"', f'"id": "{long_id}b"')
    snap = snapshot(files)
    assert [e.name for e in ide.workspace_symbols(snap, "aaaaaaab")] == [f"{long_id}b"]
    assert ide.workspace_symbols(snap, "aaaaaaaab" + "a" * 50) == []


def test_workspace_symbols_stop_when_the_request_is_cancelled() -> None:
    import threading

    from gemstack_lsp.host.cancel import Cancelled, cancellation

    snap = snapshot()
    ide.all_symbols(snap)
    token = threading.Event()
    token.set()
    with cancellation(token), pytest.raises(Cancelled):
        ide.workspace_symbols(snap, "a")
