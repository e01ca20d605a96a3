"""The block-kind registry (``core.kinds``) is the one place a kind is listed.

Adding a fenced block kind means one ``kinds.BLOCKS`` entry, its parser module in
``core/blocks`` and its schema file: these tests check each entry is complete and that no
other module spells a fence name or a Gemstack JSON file's schema file.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import gemstack_lsp
from gemstack_lsp.core import kinds, markdown
from gemstack_lsp.core.blocks import DocumentBlocks, blocks_of
from gemstack_lsp.core.schemas import available_schemas, load_schema
from gemstack_lsp.ide import completion

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
