"""Completion end to end (block names, schema keys and enums, repository ids, tasks metadata,
snippets) and the completion engine on incomplete JSON without a server."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as lsp

from gemstack_lsp.core.jsonspan import parse_json
from gemstack_lsp.ide.completion import Candidate, RepoFacts
from gemstack_lsp.ide.completion import completions as complete

F8 = "specs/008-cost-provider-safety-gates"
SPEC8, TASKS8 = f"{F8}/spec.md", f"{F8}/tasks.md"
CURSOR = "‸"

#: The ``make_client`` fixture of conftest.py.
MakeClient = Callable[..., Awaitable[Any]]


async def _complete(h: Any, rel: str, text_with_cursor: str) -> tuple[list[lsp.CompletionItem], str]:
    """Open ``rel`` with the text (cursor marked ``‸``), ask for completions there."""
    offset = text_with_cursor.index(CURSOR)
    text = text_with_cursor.replace(CURSOR, "", 1)
    uri = h.uri(rel)
    if uri in h.texts:
        h.close(rel)
    h.open(rel, text)
    before = text[:offset]
    line = before.count("\n")
    from gemstack_lsp.core.text import SourceText

    pos = SourceText(text).position(offset, h.encoding)
    assert pos.line == line
    result = await h.request(
        lsp.TEXT_DOCUMENT_COMPLETION,
        lsp.CompletionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            position=lsp.Position(line=pos.line, character=pos.character),
        ),
    )
    h.last_completion = result
    items = list(result.items) if isinstance(result, lsp.CompletionList) else list(result or [])
    return items, text


def _apply(h: Any, rel: str, item: lsp.CompletionItem) -> str:
    """The document text once the item's edit is applied."""
    edit = item.text_edit
    assert isinstance(edit, lsp.TextEdit)
    text: str = h.texts[h.uri(rel)]
    start, end = h.offset(rel, edit.range.start), h.offset(rel, edit.range.end)
    return text[:start] + edit.new_text + text[end:]


def _item(items: list[lsp.CompletionItem], label: str) -> lsp.CompletionItem:
    return next(i for i in items if i.label == label)


SPEC_HEAD = "# Demo ñ 🚀\n\n"


async def test_block_names_after_a_fence(make_client: MakeClient, client_kind: str, gem_repo: Path) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    items, _ = await _complete(h, SPEC8, SPEC_HEAD + "```gem‸\n")
    assert [i.label for i in items] == [
        "gemstack-contracts",
        "gemstack-test-matrix",
        "gemstack-test-bindings",
        "gemstack-closure-gates",
        "gemstack-billable-actions",
        "gemstack-capabilities",
        "gemstack-inherited-contracts",
        "gemstack-spec-delta",
    ]
    item = _item(items, "gemstack-billable-actions")
    assert item.kind == lsp.CompletionItemKind.Module
    assert _apply(h, SPEC8, item) == SPEC_HEAD + "```gemstack-billable-actions\n"
    # Not inside another block's body.
    items, _ = await _complete(h, SPEC8, SPEC_HEAD + "```text\n```gem‸\n```\n")
    assert items == []


async def test_keys_with_descriptions_in_an_incomplete_block(
    make_client: MakeClient, client_kind: str, gem_repo: Path
) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    items, _ = await _complete(h, SPEC8, SPEC_HEAD + '```gemstack-billable-actions\n[\n  {"id": "x", "‸\n')
    labels = [i.label for i in items]
    assert labels == ["description", "category", "capability_id", "providers", "side_effect"]
    item = _item(items, "capability_id")
    assert item.kind == lsp.CompletionItemKind.Property
    assert item.detail == "required"
    assert isinstance(item.documentation, lsp.MarkupContent)
    assert item.documentation.value.startswith("**Capability id**")
    assert _item(items, "side_effect").detail == "optional"
    # Typed text narrows them (Neovim 0.11+ leaves the filtering of items with an edit to us).
    items, _ = await _complete(h, SPEC8, SPEC_HEAD + '```gemstack-billable-actions\n[\n  {"id": "x", "cap‸\n')
    assert [i.label for i in items] == ["capability_id"]
    applied = _apply(h, SPEC8, items[0])
    assert applied.endswith('{"id": "x", "capability_id": \n')


async def test_enum_values(make_client: MakeClient, client_kind: str, gem_repo: Path) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    items, _ = await _complete(h, SPEC8, SPEC_HEAD + '```gemstack-contracts\n[\n  {"id": "x", "type": "‸"}\n]\n```\n')
    assert h.last_completion.is_incomplete is False  # nothing typed yet: the whole list
    assert [i.label for i in items] == [
        "ENUM_SET",
        "IDENTITY_TUPLE",
        "PROVENANCE_RULE",
        "BOOLEAN_INVARIANT",
        "BOUNDARY",
        "ROADMAP_LIMIT",
    ]
    text = SPEC_HEAD + '```gemstack-contracts\n[\n  {"id": "x", "type": "BOO‸"}\n]\n```\n'
    items, _ = await _complete(h, SPEC8, text)
    assert [i.label for i in items] == ["BOOLEAN_INVARIANT"]
    # Narrowed by "BOO": the client asks again as typing goes on (a backspace brings the rest back).
    assert h.last_completion.is_incomplete is True
    applied = _apply(h, SPEC8, _item(items, "BOOLEAN_INVARIANT"))
    body = applied.split("```gemstack-contracts\n", 1)[1].split("```", 1)[0]
    assert json.loads(body) == [{"id": "x", "type": "BOOLEAN_INVARIANT"}]
    # Layers and gates of the test matrix, billing categories of actions.
    items, _ = await _complete(h, SPEC8, SPEC_HEAD + '```gemstack-test-matrix\n[\n  {"layer": ‸\n')
    assert [i.label for i in items] == ["UNIT", "INTEGRATION", "E2E", "CLI"]
    items, _ = await _complete(h, SPEC8, SPEC_HEAD + '```gemstack-billable-actions\n[{"category": "‸"}]\n```\n')
    assert "DEFINITELY_BILLABLE" in [i.label for i in items]


async def test_cost_states_in_a_ledger(make_client: MakeClient, client_kind: str, gem_repo: Path) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    text = '{"providers": {"x": {"capabilities": {"a.b": {"cost_state": "‸'
    items, _ = await _complete(h, f"{F8}/cost-ledger.json", text)
    assert [i.label for i in items] == ["FREE", "BILLABLE", "POTENTIALLY_BILLABLE", "UNKNOWN"]


async def test_registry_ids(make_client: MakeClient, client_kind: str, gem_repo: Path) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    head = SPEC_HEAD + '```gemstack-billable-actions\n[\n  {"id": "x", '
    items, _ = await _complete(h, SPEC8, head + '"providers": ["‸\n')
    assert [i.label for i in items] == ["gemini-cloud", "mock-local"]
    assert _apply(h, SPEC8, items[1]).endswith('"providers": ["mock-local"\n')
    items, _ = await _complete(h, SPEC8, head + '"capability_id": ‸\n')
    assert [i.label for i in items] == ["inference.generate_text"]


async def test_tasks_metadata_ids(make_client: MakeClient, client_kind: str, gem_repo: Path) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    original = (gem_repo / TASKS8).read_text("utf-8")
    marked = original.replace("gemstack:tests=TEST-COST-C01,", "gemstack:tests=TEST-COST-C01,‸", 1)
    items, _ = await _complete(h, TASKS8, marked)
    labels = [i.label for i in items]
    assert "TEST-COST-C02" in labels
    assert "TEST-COST-C01" not in labels  # already listed
    assert len(labels) == 19
    marked = original.replace("gemstack:depends=T002", "gemstack:depends=T00‸", 1)
    items, _ = await _complete(h, TASKS8, marked)
    labels = [i.label for i in items]
    assert labels == ["T001", "T002", "T004", "T005", "T006", "T007"]  # not the task itself (T003)
    assert _apply(h, TASKS8, _item(items, "T002")).count("gemstack:depends=T002") == 1


async def test_snippets(make_client: MakeClient, client_kind: str, gem_repo: Path) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    items, _ = await _complete(h, SPEC8, SPEC_HEAD + "```gemstack-billable-actions\n[\n  ‸\n]\n```\n")
    [item] = items
    assert item.label == "New billable action"
    assert item.kind == lsp.CompletionItemKind.Snippet
    caps = h.client.capabilities.text_document.completion.completion_item
    if caps and caps.snippet_support:
        assert item.insert_text_format == lsp.InsertTextFormat.Snippet
        assert isinstance(item.text_edit, lsp.TextEdit)
        assert "${1:action-id}" in item.text_edit.new_text
    else:
        assert item.insert_text_format == lsp.InsertTextFormat.PlainText
    for label, block in (("New contract", "gemstack-contracts"), ("New test-matrix entry", "gemstack-test-matrix")):
        items, _ = await _complete(h, SPEC8, SPEC_HEAD + f"```{block}\n[\n  ‸\n]\n```\n")
        assert [i.label for i in items] == [label]


async def test_completion_off_outside_blocks(make_client: MakeClient, client_kind: str, gem_repo: Path) -> None:
    h = await make_client(client_kind, gem_repo, fake=False)
    items, _ = await _complete(h, SPEC8, SPEC_HEAD + "Some prose ‸\n")
    assert items == []


# ---------------------------------------------------------------------------------------------
# The engine alone

FACTS = RepoFacts(
    providers=("gemini-cloud", "mock-local"),
    capabilities=("inference.generate_text",),
    tests={"001-x": ("TEST-A-A01", "TEST-A-A02")},
    actions={"001-x": ("summarise",)},
)
P = "specs/001-x/spec.md"


def _run(text: str, path: str = P) -> list[tuple[str, str]]:
    offset = text.index(CURSOR)
    clean = text.replace(CURSOR, "", 1)
    return [(c.label, clean[c.span.start : c.span.end]) for c in complete(path, clean, offset, FACTS)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('```gemstack-test-bindings\n[{"test_id": "TEST-A-‸', [("TEST-A-A01", "TEST-A-"), ("TEST-A-A02", "TEST-A-")]),
        (
            '```gemstack-test-matrix\n[\n {"id":"TEST-A-A01","category":"GATE"},\n {"category": "‸\n```\n',
            [("GATE", "")],
        ),
        (
            '```gemstack-capabilities\n[{"provider_id": "p", "type": "‸"}]\n```\n',
            [("COMMERCIAL", ""), ("LOCAL", ""), ("MOCK", "")],
        ),
        ('```gemstack-capabilities\n[{"provider_id": "p", "capabilities": ["‸', [("inference.generate_text", "")]),
        ('```gemstack-closure-gates\n[{"id": "g", "requirement": ‸', [("REQUIRED", ""), ("SUPPLEMENTAL", "")]),
        ("- [ ] **T001: a**\n  <!-- gemstack:actions=‸ -->\n", [("summarise", "")]),
        (
            "- [ ] **T001: a**\n  <!-- gemstack:te‸ -->\n",
            [
                ("validation_required", "te"),
                ("tests", "te"),
                ("files", "te"),
                ("depends", "te"),
                ("actions", "te"),
            ],
        ),
    ],
)
def test_engine_on_incomplete_text(text: str, expected: list[tuple[str, str]]) -> None:
    path = "specs/001-x/tasks.md" if "gemstack:" in text and "```" not in text else P
    assert _run(text, path) == expected


def test_key_completion_keeps_the_json_valid() -> None:
    text = '```gemstack-closure-gates\n[{"id": "g", "‸"}]\n```\n'
    offset = text.index(CURSOR)
    clean = text.replace(CURSOR, "", 1)
    cands = complete(P, clean, offset, FACTS)
    assert [c.label for c in cands] == ["type", "script", "requirement", "waivable"]
    c = cands[1]
    # The closing quote was there already (an editor paired it): the item fills the string.
    applied = clean[: c.span.start] + c.insert + clean[c.span.end :]
    assert applied.split("\n")[1] == '[{"id": "g", "script"}]'
    # Typed without a closing quote, the item closes the key and adds the colon.
    text = '```gemstack-closure-gates\n[{"id": "g", "scr‸'
    offset = text.index(CURSOR)
    clean = text.replace(CURSOR, "", 1)
    c = next(c for c in complete(P, clean, offset, FACTS) if c.label == "script")
    applied = clean[: c.span.start] + c.insert + '"test"}]\n```\n'
    body = applied.split("\n", 1)[1].rsplit("```", 1)[0]
    assert parse_json(body).ok
    assert json.loads(body) == [{"id": "g", "script": "test"}]


def test_snippet_plain_text_has_no_placeholders() -> None:
    cands = complete(P, "```gemstack-contracts\n[\n  \n]\n```\n", len("```gemstack-contracts\n[\n  "), FACTS)
    [c] = cands
    assert c.snippet and c.plain is not None
    assert "$" not in c.plain
    assert json.loads(c.plain)["type"] == "ENUM_SET"


def test_crlf_documents() -> None:
    text = '# T\r\n\r\n```gemstack-test-matrix\r\n[\r\n  {"id": "TEST-A-A01", "gate": "‸"}\r\n]\r\n```\r\n'
    assert _run(text) == [("REQUIRED", ""), ("SUPPLEMENTAL", "")]


def test_blocks_inside_list_items_offer_nothing() -> None:
    text = '- item\n\n  ```gemstack-test-matrix\n  [{"gate": "‸"}]\n  ```\n'
    assert _run(text) == []


def test_plan_binding_offers_the_actions_the_spec_declares() -> None:
    text = '```gemstack-billable-actions\n[{"id": "‸'
    assert _run(text, "specs/001-x/plan.md") == [("summarise", "")]
    # In spec.md an action id is being declared: nothing to offer.
    assert _run(text, "specs/001-x/spec.md") == []


def test_environment_values() -> None:
    text = '```gemstack-billable-actions\n[{"id": "a", "environment": "‸'
    assert [label for label, _ in _run(text)] == ["development", "test", "ci", "staging", "production"]


@pytest.mark.parametrize(
    ("contract_type", "expected"),
    [("BOUNDARY", ["FORBIDDEN", "REQUIRED"]), ("BOOLEAN_INVARIANT", ["true", "false"]), ("ROADMAP_LIMIT", [])],
)
def test_contract_value_follows_its_type(contract_type: str, expected: list[str]) -> None:
    text = f'```gemstack-contracts\n[{{"id": "y"}}, {{"id": "x", "type": "{contract_type}", "value": ‸'
    assert [label for label, _ in _run(text)] == expected


def test_required_keys_follow_the_contract_type() -> None:
    text = '```gemstack-contracts\n[{"id": "x", "type": "PROVENANCE_RULE", "‸'
    offset = text.index(CURSOR)
    details = {c.label: c.detail for c in complete(P, text.replace(CURSOR, ""), offset, FACTS)}
    assert details == {"description": "optional", "values": "required", "value": "optional", "entity": "required"}


# --- Robustness: any prefix of a real document, with any fragment typed anywhere ---------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from gemstack_lsp.ide.navigation import occurrence_at  # noqa: E402
from gemstack_lsp.ide.outline import outline  # noqa: E402

_REPO = Path(__file__).parent.parent / "fixtures" / "gemstack-reference" / "repo"
_DOCS = sorted(
    (str(p.relative_to(_REPO)), p.read_text("utf-8"))
    for p in [*_REPO.glob("specs/*/*.md"), *_REPO.glob("specs/*/*.json"), _REPO / "cost-ledger.json"]
)
_FRAGMENTS = ['"', "{", "[", ",", ":", "```gem", "\r\n", "ñ", "🚀", "<!-- gemstack:tests=", '"id": ', "}", "]", "\\"]


@settings(max_examples=300, deadline=None)
@given(
    doc=st.sampled_from(_DOCS),
    cut=st.floats(0, 1),
    at=st.floats(0, 1),
    fragment=st.sampled_from(_FRAGMENTS),
    cursor=st.floats(0, 1),
)
def test_features_never_fail_on_text_being_typed(
    doc: tuple[str, str], cut: float, at: float, fragment: str, cursor: float
) -> None:
    rel, full = doc
    text = full[: int(len(full) * cut)]
    i = int(len(text) * at)
    text = text[:i] + fragment + text[i:]
    offset = int(len(text) * cursor)
    for c in complete(rel, text, offset, FACTS):
        assert 0 <= c.span.start <= c.span.end <= len(text)
    for item in outline(rel, text):
        for sub in item.walk():
            assert 0 <= sub.selection.start <= sub.selection.end <= len(text)
    occ = occurrence_at(rel, text, offset)
    assert occ is None or occ.span.start <= offset <= occ.span.end


def test_clients_filter_by_what_the_edit_replaces() -> None:
    """After a typed quote the edit starts after it and clients filter by the label; a bare word
    is replaced whole and filtered by the value without quotes."""
    for text, label, expected_filter in (
        ('```gemstack-closure-gates\n[{"id": "g", "scr‸', "script", None),
        ('```gemstack-closure-gates\n[{"id": "g", scr‸', "script", "script"),
        ('```gemstack-closure-gates\n[{"id": "g", "requirement": "RE‸', "REQUIRED", None),
        ('```gemstack-closure-gates\n[{"id": "g", "requirement": RE‸', "REQUIRED", "REQUIRED"),
    ):
        offset = text.index(CURSOR)
        clean = text.replace(CURSOR, "", 1)
        found = {c.label: c for c in complete(P, clean, offset, FACTS)}
        c = found[label]
        replaced = clean[c.span.start : c.span.end]
        assert c.filter == expected_filter
        assert (c.filter or c.label).startswith(replaced)


def _as_neovim_inserts(text: str, c: Candidate, offset: int) -> str:
    """What Neovim's omnifunc (0.7 and 0.12) makes of an item: the item's text put at the edit's
    start, replacing up to the cursor only; whatever follows the cursor stays."""
    return text[: c.span.start] + c.insert + text[offset:]


def _as_range_applied(text: str, c: Candidate) -> str:
    """What a client that applies the edit's whole range (VS Code) makes of it."""
    return text[: c.span.start] + c.insert + text[c.span.end :]


@pytest.mark.parametrize(
    ("typed", "after", "label", "line"),
    [
        ('"', "", "ENUM_SET", '  {"id": "x", "type": "ENUM_SET"'),
        ('"', '"}', "ENUM_SET", '  {"id": "x", "type": "ENUM_SET"}'),
        ('"BOO', "", "BOOLEAN_INVARIANT", '  {"id": "x", "type": "BOOLEAN_INVARIANT"'),
        ('"BOO', '"}', "BOOLEAN_INVARIANT", '  {"id": "x", "type": "BOOLEAN_INVARIANT"}'),
    ],
)
def test_an_enum_value_after_a_typed_quote_gets_one_quote(typed: str, after: str, label: str, line: str) -> None:
    """Neovim 0.7 used to insert `""ENUM_SET"`: the item repeated the typed quote."""
    head = '```gemstack-contracts\n[\n  {"id": "x", "type": '
    text = head + typed + after + "\n]\n```\n"
    offset = len(head) + len(typed)
    c = next(c for c in complete(P, text, offset, FACTS) if c.label == label)
    assert text[c.span.start - 1] == '"'  # the typed quote stays outside the edit
    assert not c.insert.startswith('"')
    assert c.filter is None and c.label.startswith(text[c.span.start : offset])
    for applied in (_as_neovim_inserts(text, c, offset), _as_range_applied(text, c)):
        assert applied.split("\n")[2] == line


def test_typed_text_narrows_the_items_prefix_first() -> None:
    text = '```gemstack-contracts\n[{"id": "x", "type": "in‸'
    # IDENTITY_TUPLE starts with it; BOOLEAN_INVARIANT holds i…n in order.
    assert [label for label, _ in _run(text)] == ["IDENTITY_TUPLE", "BOOLEAN_INVARIANT"]


def test_values_after_a_typed_quote_are_strings_only() -> None:
    text = '```gemstack-contracts\n[{"id": "y"}, {"id": "x", "type": "BOOLEAN_INVARIANT", "value": "‸'
    assert _run(text) == []
    text = text.replace('"‸', "‸")
    assert [label for label, _ in _run(text)] == ["true", "false"]
