"""The block schemas: valid draft 2020-12, documented for hover, and in agreement with the parsers."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import test_blocks_closure_gates as gates_cases
import test_blocks_contracts as contract_cases
import test_blocks_test_bindings as binding_cases
import test_blocks_test_matrix as matrix_cases

from gemstack_lsp.core.blocks import blocks_of
from gemstack_lsp.core.blocks.base import schema_issues
from gemstack_lsp.core.blocks.closure_gates import parse_closure_gates
from gemstack_lsp.core.blocks.contracts import parse_contracts
from gemstack_lsp.core.blocks.test_bindings import parse_test_bindings
from gemstack_lsp.core.blocks.test_matrix import parse_test_matrix
from gemstack_lsp.core.schemas import available_schemas, describe, load_schema, schema_file_name

MINE = ["gemstack-contracts", "gemstack-test-matrix", "gemstack-test-bindings", "gemstack-closure-gates"]
SPECS = Path(__file__).parent.parent / "fixtures" / "gemstack-reference" / "repo" / "specs"


def properties(node: Any) -> Iterator[tuple[str, Mapping[str, Any]]]:
    if isinstance(node, Mapping):
        yield from (node.get("properties") or {}).items()
        for value in node.values():
            yield from properties(value)
    elif isinstance(node, list):
        for value in node:
            yield from properties(value)


@pytest.mark.parametrize("name", [*MINE, "gemstack-inherited-contracts", "gemstack-closure"])
def test_schema_is_valid_and_every_property_is_documented(name: str) -> None:
    schema = load_schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["title"] and schema["description"]
    props = list(properties(schema))
    assert props
    for prop, sub in props:
        if "$ref" in sub or set(sub) <= {"uniqueItems", "type", "enum", "const"}:
            continue  # a conditional refinement of a documented property
        assert sub.get("title") and sub.get("description"), (name, prop)


def test_load_schema_names_and_cache() -> None:
    assert schema_file_name("contracts") == "gemstack-contracts.schema.json"
    assert load_schema("contracts") is load_schema("contracts")
    assert set(f"{n}.schema.json" for n in MINE) <= set(available_schemas())


@pytest.mark.parametrize(
    "schema, path, title",
    [
        ("contracts", [0, "type"], "Contract type"),
        ("contracts", [3, "values", 0], "Value"),
        ("gemstack-test-matrix", [0, "gate"], "Gate"),
        ("test-bindings", [1, "file"], "Test file"),
        ("closure-gates", [0, "waivable"], "Waivable"),
    ],
)
def test_describe_for_hover(schema: str, path: list[str | int], title: str) -> None:
    got = describe(schema, path)
    assert got is not None and got[0] == title and got[1]


def test_describe_unknown() -> None:
    assert describe("contracts", [0, "no-such-key"]) is None
    assert describe("no-such-schema", []) is None


def test_fixture_blocks_satisfy_the_schemas() -> None:
    for path in sorted(SPECS.glob("*/*.md")):
        blocks = blocks_of(str(path), path.read_text("utf-8"))
        for result, name in zip(blocks.results[:4], MINE, strict=True):
            assert schema_issues(result.root, load_schema(name)) == [], (path, name)


# Every rule a schema can express is also caught by the schema (the parsers keep the reference's
# messages; duplicate ids across items are beyond JSON Schema).
AGREEMENT = [
    ("contracts", parse_contracts, contract_cases.doc, [r[1] for r in contract_cases.RULES]),
    ("test-matrix", parse_test_matrix, matrix_cases.doc, [r[1] for r in matrix_cases.RULES]),
    ("test-bindings", parse_test_bindings, binding_cases.doc, [r[1] for r in binding_cases.RULES]),
    ("closure-gates", parse_closure_gates, gates_cases.doc, [r[1] for r in gates_cases.RULES]),
]


@pytest.mark.parametrize("schema, parse, doc, bodies", AGREEMENT, ids=[a[0] for a in AGREEMENT])
def test_schema_rejects_what_the_parser_rejects(schema: str, parse: Any, doc: Any, bodies: list[str]) -> None:
    for body in bodies:
        result = parse("x.md", doc(body))
        assert result.findings
        if "duplicate" in result.findings[0].message or "\\n" in body:
            # Duplicates are beyond JSON Schema; Python's re lets "$" match before a final newline,
            # which ECMA-262 patterns (and the parser) do not.
            continue
        assert schema_issues(result.root, load_schema(schema)), body


def test_schemas_read_from_the_directory_are_those_importlib_resources_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    from gemstack_lsp.core import schemas

    assert schemas._DIRECTORY is not None  # a source tree or an installed package: a directory
    names = schemas.available_schemas()
    texts = {name: schemas._read_text(name) for name in names}
    monkeypatch.setattr(schemas, "_DIRECTORY", None)  # as from a zip
    assert schemas.available_schemas() == names
    assert {name: schemas._read_text(name) for name in names} == texts
    assert schemas.schema_file_name("contracts") == "gemstack-contracts.schema.json"
    with pytest.raises(FileNotFoundError):
        schemas._read_text("no-such.schema.json")
