"""The capsule's schema file, the next permitted phase, the project name and the show helpers."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from gemstack_lsp.core.capsule.generate import generate_capsule, next_permitted_phase
from gemstack_lsp.core.capsule.schema import CAPSULE_SCHEMA
from gemstack_lsp.core.capsule.show import age_text, render_markdown, summary_lines
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from tests.conftest import REFERENCE_OUTPUT

SPEC = """# Feature X
## 1. Rules
- The tool MUST work.

```gemstack-contracts
[{"id": "mode", "type": "BOUNDARY", "value": "FORBIDDEN"},
 {"id": "states", "type": "ENUM_SET", "values": ["A", "B"]}]
```
"""
TASKS = """- [x] **T001: one**
  <!-- gemstack:validation_required=false -->
- [ ] **T002: two**
  <!-- gemstack:validation_required=false -->
"""


def repo(files: dict[str, str]) -> GemstackRepo:
    return GemstackRepo("/virtual/x", MemoryReader(files))


def capsule_for(r: GemstackRepo) -> dict[str, Any]:
    result = generate_capsule(r, "specs/x", dt.datetime(2026, 1, 1, tzinfo=dt.UTC))
    assert result.capsule is not None
    return result.capsule


def test_schema_file_matches_and_accepts_both_generators(reference_repo: Path) -> None:
    shipped = Path(__file__).parents[2] / "gemstack_lsp" / "schemas" / "context-capsule-v1.schema.json"
    assert json.loads(shipped.read_text("utf-8")) == CAPSULE_SCHEMA
    # The schema the Python dict held before the JSON file became its single source.
    canonical = json.dumps(CAPSULE_SCHEMA, sort_keys=True).encode()
    assert hashlib.sha256(canonical).hexdigest() == "0b1db475c1e7ee0a5cf8bb9f81a5b71c196ff2d98033d6452b03632324ee5450"
    validator = Draft202012Validator(CAPSULE_SCHEMA)
    for name in ("specs-009-context-capsule.json", "specs-008-cost-provider-safety-gates.json"):
        assert list(validator.iter_errors(json.loads((REFERENCE_OUTPUT / name).read_text("utf-8")))) == []
    r = repo({"specs/x/spec.md": SPEC, "specs/x/tasks.md": TASKS})
    assert list(validator.iter_errors(capsule_for(r))) == []


def test_next_permitted_phase() -> None:
    assert [
        next_permitted_phase(p) for p in ("specification", "plan", "tasks", "implementation", "verify", "ship")
    ] == [
        "PLAN",
        "TASKS",
        "IMPLEMENTATION",
        "VERIFICATION",
        "SHIP",
        "NONE",
    ]
    assert next_permitted_phase("weird") is None


def test_project_name_is_what_the_repository_declares_never_its_folder() -> None:
    # Without a declared name there is none: the folder's name would differ between checkouts.
    r = repo({"specs/x/spec.md": SPEC})
    assert "name" not in capsule_for(r)["project"]
    r = repo({"specs/x/spec.md": SPEC, "package.json": '{"version": "1.0.0"}'})
    assert "name" not in capsule_for(r)["project"]
    r = repo({"specs/x/spec.md": SPEC, "package.json": '{"name": "pkg"}'})
    assert capsule_for(r)["project"]["name"] == "pkg"
    r = repo({"specs/x/spec.md": SPEC, "pyproject.toml": '[project]\nname = "py-tool"\n'})
    assert capsule_for(r)["project"]["name"] == "py-tool"
    r = repo({"specs/x/spec.md": SPEC, "pyproject.toml": '[tool.poetry]\nname = "poetry-tool"\n'})
    assert capsule_for(r)["project"]["name"] == "poetry-tool"
    r = repo({"specs/x/spec.md": SPEC, "Cargo.toml": '[package]\nname = "crate"\n', "pyproject.toml": "[x"})
    assert capsule_for(r)["project"]["name"] == "crate"
    # package.json wins over the others.
    r = repo({"specs/x/spec.md": SPEC, "package.json": '{"name": "pkg"}', "Cargo.toml": '[package]\nname = "c"\n'})
    assert capsule_for(r)["project"]["name"] == "pkg"


def test_show_helpers() -> None:
    r = repo({"specs/x/spec.md": SPEC, "specs/x/tasks.md": TASKS})
    capsule = capsule_for(r)
    lines = summary_lines(capsule, "VALID", dt.datetime(2026, 1, 2, 3, 4, tzinfo=dt.UTC))
    assert lines[-2:] == ["State:          VALID", "Age:            1d 3h ago (2026-01-01T00:00:00.000Z)"]
    assert summary_lines({})[1:3] == ["Schema Version: undefined", "Project:        unknown"]
    assert age_text("nonsense", dt.datetime(2026, 1, 1, tzinfo=dt.UTC)) == "unknown"
    # In Spanish: the same block, its labels and words translated, aligned one space after the longest.
    es = summary_lines(capsule, "VALID", dt.datetime(2026, 1, 2, 3, 4, tzinfo=dt.UTC), "es")
    assert es[0] == "=== Context Capsule de Gemstack ==="
    assert es[-2:] == ["Estado:              VALID", "Antigüedad:          hace 1d 3h (2026-01-01T00:00:00.000Z)"]
    assert summary_lines({}, language="es")[1:3] == [
        "Versión del esquema: sin definir",
        "Proyecto:            desconocido",
    ]
    assert len(es) == len(lines) and all(e != n for e, n in zip(es, lines, strict=True))
    assert age_text("nonsense", dt.datetime(2026, 1, 1, tzinfo=dt.UTC), "es") == "desconocido"
    future = "2027-01-01T00:00:00.000Z"
    assert age_text(future, dt.datetime(2026, 1, 1, tzinfo=dt.UTC)) == f"in the future ({future})"
    assert age_text(future, dt.datetime(2026, 1, 1, tzinfo=dt.UTC), "es") == f"en el futuro ({future})"
    md = render_markdown(capsule)
    assert md.startswith("# Context capsule: specs/x") and "non-authoritative" in md and "T002" in md


def test_fast_schema_validator_agrees_with_jsonschema() -> None:
    from gemstack_lsp.core.capsule.schema import schema_errors

    validator = Draft202012Validator(CAPSULE_SCHEMA)
    good = json.loads((REFERENCE_OUTPUT / "specs-009-context-capsule.json").read_text("utf-8"))
    cases: list[Any] = [
        good,
        {"schema_version": 1},
        {"schema_version": True, "provenance": {"source_set_hash": "x", "sources": []}},
        {"schema_version": 1, "provenance": {"source_set_hash": "a" * 64, "sources": [{"path": "", "hash": 1}]}},
        {**good, "tasks_state": {"total": -1, "completed": 1.5, "in_progress": 3}},
        {**good, "canonical_invariants": [{"id": "INV-001", "rule": "r", "normative": "SHOULD"}]},
        {**good, "acceptance_matrix": {"signature": "nope", "canonical_ids": [1]}},
        [],
    ]
    for case in cases:
        ours = sorted(tuple(map(str, p)) for p, _ in schema_errors(case))
        theirs = sorted(tuple(map(str, e.absolute_path)) for e in validator.iter_errors(case))
        assert ours == theirs, case
