"""Hover and completion read one schema walker (``core.schemas.schemas_at``), so what a key's
hover says and what completion documents for the same key are the same text.

Fixtures (``tests/ide/authoring/schema_walker/<case>.fixture``: a cursor ``$0`` right after the
opening quote of a key, or in a value slot) render the hover and the completions at the cursor
(``UPDATE_EXPECT=1`` rewrites the ``.expect``), for the cases the former walkers (hover's path
walk, completion's own) handled differently:

- a ``$ref`` with its own title and description (spec-delta ``added``, ``modified``,
  ``removed.contracts``): hover showed the target's (``Changes``, ``Removals``), completion the
  property's own;
- ``anyOf`` alternatives (test bindings: ``test_id`` or ``id``): completion spread every
  alternative, so both keys were required even in an item that already had one of them;
- ``if``/``then`` decided by the item (closure gates, contract values), and
  ``additionalProperties`` (a ledger's providers).

And a property: at every key of one generated document per block kind and Gemstack JSON file
(every member its schema names), and of every Gemstack block and JSON file of the reference
repository and the demo, the completion offered there (the member being typed) documents the
hover's title and description.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from authoring_fixture import Fixture, check_expect, fixtures, parse_fixture, where

from gemstack_lsp import ide
from gemstack_lsp.core import kinds
from gemstack_lsp.core.jsonspan import JsonArray, JsonNode, JsonObject, parse_json
from gemstack_lsp.core.markdown import scan_fences
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.schemas import load_schema, ref_target
from gemstack_lsp.core.text import Span
from gemstack_lsp.host import AnalysisHost, Snapshot
from gemstack_lsp.ide.completion import Candidate, completions, repo_facts

CASES = list(fixtures("schema_walker"))


def _hover_text(section: str) -> tuple[str, str]:
    """(title, description) of a key's hover section (``**`key`** · title``, the description,
    the schema's name)."""
    head, _, rest = section.partition("\n\n")
    title = head.partition(" · ")[2]
    description = rest.rpartition("\n\n")[0]
    return title, description


def _documentation(title: str, description: str) -> str | None:
    if title and description:
        return f"**{title}**\n\n{description}"
    return description or title or None


def _key_hover(snap: Snapshot, path: str, offset: int, language: str) -> str | None:
    info = ide.hover(snap, path, offset, ide.HoverOptions(language=language))  # type: ignore[arg-type]
    sections = [s for s in (info.sections if info else ()) if s.startswith("**`")]
    return sections[0] if sections else None


def _candidates(snap: Snapshot, path: str, offset: int, language: str) -> list[Candidate]:
    text = snap.repo.document(path).text or ""
    return completions(path, text, offset, repo_facts(snap), language)  # type: ignore[arg-type]


def render(fx: Fixture) -> str:
    snap = fx.snapshot()
    assert fx.cursor_path is not None and fx.cursor is not None, f"{fx.name}: no cursor"
    path, offset = fx.cursor_path, fx.cursor
    language = fx.options.get("language", "en")
    lines = [f"cursor: {where(snap, path, Span(offset, offset))}", "hover:"]
    section = _key_hover(snap, path, offset, language)
    lines += [f"  {line}" if line else "" for line in (section or "(none)").split("\n")]
    found = _candidates(snap, path, offset, language)
    lines.append(f"completion: {len(found)}")
    for c in found:
        lines.append(f"  {c.kind} {c.label} · {c.detail}")
        if c.documentation:
            lines += [f"    {line}" if line else "" for line in c.documentation.split("\n")]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("fixture_path", CASES, ids=[p.stem for p in CASES])
def test_schema_walker_fixture(fixture_path: Path) -> None:
    fx = parse_fixture(fixture_path.stem, fixture_path.read_text("utf-8"))
    check_expect(fixture_path, render(fx))
    # Whatever the expectation says, the hover and the key's completion agree.
    snap = fx.snapshot()
    assert fx.cursor_path is not None and fx.cursor is not None
    language = fx.options.get("language", "en")
    section = _key_hover(snap, fx.cursor_path, fx.cursor, language)
    if section is not None:
        key = section.split("`")[1]
        (item,) = [c for c in _candidates(snap, fx.cursor_path, fx.cursor, language) if c.label == key]
        assert item.documentation == _documentation(*_hover_text(section))


# ---------------------------------------------------------------------------------------------
# Every key of every schema, and of the example and reference repositories

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _example(node: Any, root: Mapping[str, Any], depth: int = 0) -> Any:
    """A value with every member a schema names (its ``$ref``, combined and conditional
    subschemas all read), read straight from the schema file: a document to hover and complete."""
    todo, parts, seen = [node], [], 0
    while todo and seen < 64:
        seen += 1
        s = todo.pop(0)
        if not isinstance(s, Mapping):
            continue
        parts.append(s)
        if isinstance(s.get("$ref"), str):
            todo.append(ref_target(root, s["$ref"]))
        for key in ("allOf", "anyOf", "oneOf"):
            todo.extend(s.get(key) or ())
        todo.extend(s.get(key) for key in ("then", "else"))
    for s in parts:
        if "const" in s:
            return s["const"]
        if s.get("enum"):
            return s["enum"][0]
    props: dict[str, Any] = {}
    items: Any = None
    for s in parts:
        for name, sub in (s.get("properties") or {}).items():
            props.setdefault(name, sub)
        if isinstance(s.get("additionalProperties"), Mapping):
            props.setdefault("some-key", s["additionalProperties"])
        if isinstance(s.get("items"), Mapping) and items is None:
            items = s["items"]
    types = {t for s in parts for t in ([s["type"]] if isinstance(s.get("type"), str) else s.get("type") or ())}
    if props and depth < 8:
        return {name: _example(sub, root, depth + 1) for name, sub in props.items()}
    if items is not None and depth < 8:
        return [_example(items, root, depth + 1)]
    if "object" in types:
        return {}
    if "array" in types:
        return []
    if types & {"number", "integer"}:
        return 1
    if "boolean" in types:
        return True
    return "x"


def _schema_documents() -> dict[str, tuple[str, str]]:
    """Schema name -> (path, text): one document per block kind and Gemstack JSON file, holding
    every member its schema names."""
    out: dict[str, tuple[str, str]] = {}
    for kind in kinds.BLOCKS:
        value = _example(load_schema(kind.schema), load_schema(kind.schema))
        text = f"# X\n\n```{kind.name}\n{json.dumps(value, indent=2)}\n```\n"
        out[kind.schema] = ("specs/001-x/spec.md", text)
    for name, schema in sorted(kinds.ARTIFACT_SCHEMAS.items()):
        path = name if "/" in name else f"specs/001-x/{name}"
        out[schema] = (path, json.dumps(_example(load_schema(schema), load_schema(schema)), indent=2) + "\n")
    return out


def _repository_documents() -> list[tuple[str, str]]:
    """(repository-relative path, text) of every document of the reference repository and the
    demo holding a Gemstack block or being a Gemstack JSON file (each text once)."""
    out: dict[str, tuple[str, str]] = {}
    for root in (FIXTURES / "gemstack-reference" / "repo", EXAMPLES / "demo"):
        for p in sorted(root.rglob("*")):
            rel = p.relative_to(root).as_posix()
            if p.suffix == ".md" or (p.suffix == ".json" and kinds.artifact_schema(rel) is not None):
                text = p.read_text("utf-8")
                if any(True for _ in _key_offsets(rel, text)):
                    out.setdefault(text, (rel, text))
    return list(out.values())


def _keys(node: JsonNode | None) -> Iterator[int]:
    """The offset just inside the opening quote of every key of a tree."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, JsonObject):
            for m in n.members:
                yield m.key.span.start + 1
                stack.append(m.value)
        elif isinstance(n, JsonArray):
            stack.extend(n.items)


def _key_offsets(rel: str, text: str) -> Iterator[int]:
    if rel.endswith(".json"):
        yield from _keys(parse_json(text).value)
        return
    for fence in scan_fences(text):
        if fence.kind in kinds.BLOCK_NAMES and not fence.in_container and not fence.indent:
            body = fence.body_span
            yield from _keys(parse_json(text[body.start : body.end], body.start).value)


def _agreements(rel: str, text: str, language: str = "en") -> tuple[int, int]:
    """Checks, at every key of the document, that the completion offered there (the member
    being typed) documents what the key's hover says; (keys compared, hovers with text)."""
    snap = AnalysisHost("/repo", MemoryReader({rel: text})).snapshot()
    compared = described = 0
    for offset in _key_offsets(rel, text):
        section = _key_hover(snap, rel, offset + 1, language)  # on the key's first character
        key = re.match(r'"([^"\\]*)"', text[offset - 1 :])
        items = [c for c in _candidates(snap, rel, offset, language) if key and c.label == key.group(1)]
        if not items:
            continue  # a key no schema names (a provider id, a capability id): nothing offered
        expected = _documentation(*_hover_text(section)) if section is not None else None
        assert items[0].documentation == expected, (rel, text[offset - 1 : offset + 40])
        compared += 1
        described += section is not None
    return compared, described


SCHEMA_DOCUMENTS = _schema_documents()
REPOSITORY_DOCUMENTS = _repository_documents()


@pytest.mark.parametrize("schema", sorted(SCHEMA_DOCUMENTS))
@pytest.mark.parametrize("language", ["en", "es"])
def test_every_schema_keys_hover_is_its_completion_documentation(schema: str, language: str) -> None:
    compared, described = _agreements(*SCHEMA_DOCUMENTS[schema], language)
    assert compared
    if schema != "context-capsule-v1.schema.json":  # no texts for its members
        assert described


@pytest.mark.parametrize(("rel", "text"), REPOSITORY_DOCUMENTS, ids=[r for r, _ in REPOSITORY_DOCUMENTS])
def test_every_repository_keys_hover_is_its_completion_documentation(rel: str, text: str) -> None:
    assert _agreements(rel, text, "en")[0]
