"""The block-kind registry (``core.kinds``) is the one place a kind is listed.

Adding a fenced block kind means one ``kinds.BLOCKS`` entry, its parser module in
``core/blocks`` and its schema file: these tests check each entry is complete and that no
other module spells a fence name or a Gemstack JSON file's schema file.
"""

from __future__ import annotations

import ast
import importlib
import json
from pathlib import Path

import pytest

import gemstack_lsp
from gemstack_lsp.core import kinds, markdown
from gemstack_lsp.core.blocks import DocumentBlocks, blocks_of
from gemstack_lsp.core.schemas import available_schemas, load_schema
from gemstack_lsp.core.text import Span
from gemstack_lsp.ide import completion, navigation

PACKAGE = Path(gemstack_lsp.__file__).parent
#: The one module allowed to spell a fence name or a registered schema file: the registry.
ALLOWED = {PACKAGE / "core" / "kinds.py"}


def test_every_entry_has_a_schema_a_parser_and_its_hooks() -> None:
    shipped = set(available_schemas())
    assert len(set(kinds.BLOCK_NAMES)) == len(kinds.BLOCKS)
    for kind in kinds.BLOCKS:
        assert kind.name.startswith("gemstack-")
        assert kind.schema in shipped, kind.schema
        assert isinstance(load_schema(kind.schema), dict)
        assert callable(kind.parse)
        module = importlib.import_module(kind.parser.partition(":")[0])
        assert kind.name == module.KIND
        assert kind.description and kind.item and kind.id_key
        assert completion.BLOCK_DESCRIPTIONS[kind.name] == kind.description
        assert importlib.import_module("gemstack_lsp.ide.outline").ID_KEYS[kind.name] == kind.id_key
        assert completion.schema_for_block(kind.name) == load_schema(kind.schema)


def test_every_artifact_schema_exists_and_loads() -> None:
    shipped = set(available_schemas())
    for path, schema in kinds.ARTIFACT_SCHEMAS.items():
        assert schema in shipped, schema
        assert isinstance(load_schema(schema), dict)
        assert kinds.artifact_schema(f"specs/x/{path}" if "/" not in path else path) == schema
        assert completion.schema_for_file(path) == load_schema(schema)
    assert kinds.artifact_schema("specs/x/notes.json") is None


def test_markdown_scans_exactly_the_registry_kinds() -> None:
    assert markdown.BLOCK_KINDS == kinds.BLOCK_NAMES
    assert markdown.REFERENCE_KINDS == kinds.REFERENCE_NAMES
    text = "".join(f"```{name}\n[]\n```\n\n" for name in kinds.BLOCK_NAMES) + "```gemstack-unknown\n[]\n```\n"
    assert [f.kind for f in markdown.scan_fences(text) if f.kind is not None] == list(kinds.BLOCK_NAMES)
    blocks = blocks_of("specs/x/spec.md", text)
    assert [r.kind for r in blocks.results] == list(kinds.BLOCK_NAMES)
    for kind in kinds.BLOCKS:
        assert blocks.of(kind.name).kind == kind.name
        assert isinstance(getattr(DocumentBlocks, kind.field, None), property), kind.field
        assert getattr(blocks, kind.field) is blocks.of(kind.name)


def test_every_shipped_schema_is_registered() -> None:
    registered = {k.schema for k in kinds.BLOCKS} | set(kinds.ARTIFACT_SCHEMAS.values())
    # The configuration file's schema is for editors (taplo), not for a Gemstack file.
    assert set(available_schemas()) - registered == {"gemstack-lsp-config.schema.json"}


def test_the_manifest_is_matched_by_its_path_only() -> None:
    assert kinds.artifact_schema(".gemstack/manifest.json") == "gemstack-manifest.schema.json"
    assert kinds.artifact_schema("docs/manifest.json") is None


def _literals(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text("utf-8"))
    return [(n.lineno, n.value) for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def test_no_other_module_lists_the_kinds_or_the_schema_files() -> None:
    """A fence name or schema file name as a whole string literal appears only in the registry."""
    names = set(kinds.BLOCK_NAMES)
    schema_files = set(available_schemas())
    offenders: list[str] = []
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 50, PACKAGE  # the scan must see the package
    for path in modules:
        if path in ALLOWED:
            continue
        for line, value in _literals(path):
            if value in names or value in schema_files or value.removeprefix("```") in names:
                offenders.append(f"{path.relative_to(PACKAGE)}:{line}: {value!r}")
    assert offenders == []


def _one_item_per_kind(file_name: str) -> tuple[str, list[tuple[str, str, bool]]]:
    """A document with one block of every kind whose one item fills each of the kind's refs,
    and the occurrences the registry says it holds."""
    text, expected = "", []
    for kind in kinds.BLOCKS:
        item: dict[str, object] = {}
        for ref in kind.refs:
            value = f"{ref.symbol}-of-{kind.field}"
            item[ref.keys[0]] = [value, value + "-2"] if ref.many else value
            expected += [
                (ref.symbol, v, ref.declares_in(file_name)) for v in ([value, value + "-2"] if ref.many else [value])
            ]
        text += f"```{kind.name}\n{json.dumps([item])}\n```\n\n"
    return text, expected


@pytest.mark.parametrize("file_name", ["spec.md", "plan.md"])
def test_navigation_indexes_exactly_what_the_registry_refs_name(file_name: str) -> None:
    text, expected = _one_item_per_kind(file_name)
    assert expected, "the registry names symbols"
    got = [(o.kind, o.value, o.declaration) for o in navigation.file_occurrences(f"specs/x/{file_name}", text)]
    assert got == expected


def test_a_ref_with_several_keys_reads_the_first_non_empty_one() -> None:
    (kind, ref) = next((k, r) for k in kinds.BLOCKS for r in k.refs if len(r.keys) > 1)
    item = {ref.keys[0]: "", ref.keys[1]: "the-fallback"}
    text = f"```{kind.name}\n{json.dumps([item])}\n```\n"
    got = [(o.kind, o.value) for o in navigation.file_occurrences("specs/x/plan.md", text)]
    assert (ref.symbol, "the-fallback") in got


def test_completion_offers_declared_ids_in_every_completing_ref() -> None:
    facts = completion.RepoFacts(
        providers=("prov-a",),
        capabilities=("cap.a",),
        tests={"x": ("TEST-A-01",)},
        actions={"x": ("act-a",)},
    )
    offered = {"provider": "prov-a", "capability": "cap.a", "test": "TEST-A-01", "action": "act-a"}
    for kind in kinds.BLOCKS:
        for ref in kind.refs:
            if not ref.complete:
                continue
            path: tuple[str | int, ...] = (0, ref.keys[0], 0) if ref.many else (0, ref.keys[0])
            for file_name in ("spec.md", "plan.md"):
                ids = [i for i, _ in completion._dynamic_ids(kind.name, path, facts, "x", "[]", Span(0, 2), file_name)]
                blocked = ref.declared_in == file_name
                assert ids == ([] if blocked else [offered[ref.symbol]]), (kind.name, ref, file_name)
