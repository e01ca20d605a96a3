"""A small Gemstack repository as texts, and helpers to point at a place in one of them.

Tests of the IDE layer build an ``AnalysisHost`` over these files (a ``MemoryReader``) and
compare what the ide functions return, as plain data, with what they expect.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.text import Span
from gemstack_lsp.host import AnalysisHost, Snapshot

F = "specs/001-images"
SPEC, PLAN, TASKS, LEDGER = f"{F}/spec.md", f"{F}/plan.md", f"{F}/tasks.md", f"{F}/cost-ledger.json"
G = "specs/002-other"
SPEC2 = f"{G}/spec.md"

SPEC_TEXT = """# Images

The search must honour `no-free-lunch` and TEST-IMG-A01 proves it.

```gemstack-contracts
[
  {"id": "no-free-lunch", "type": "BOOLEAN_INVARIANT", "value": true, "description": "Nothing billable is free."}
]
```

## Tests

```gemstack-test-matrix
[
  {"id": "TEST-IMG-A01", "category": "COST", "layer": "UNIT", "description": "Denied in CI.",
   "pass_criteria": "DENY", "gate": "REQUIRED"},
  {"id": "TEST-IMG-A02", "category": "COST", "layer": "UNIT", "description": "Allowed locally.",
   "pass_criteria": "ALLOW", "gate": "REQUIRED"}
]
```

## Billable actions

```gemstack-billable-actions
[
  {"id": "search-images", "description": "Search images.", "category": "DEFINITELY_BILLABLE",
   "capability_id": "vision.search", "providers": ["vision-cloud", "vision-mock"]}
]
```
"""

PLAN_TEXT = """# Plan: Images

## Inherited contracts

```gemstack-contracts
[
  {"id": "no-free-lunch", "type": "BOOLEAN_INVARIANT", "value": true, "description": "Nothing billable is free."}
]
```

| Contract ID | Test |
| :--- | :--- |
| `no-free-lunch` | `TEST-IMG-A02` |

Task T002 wires `search-images` to `vision.search`; nothing declares `not-an-id`.

```gemstack-test-bindings
[
  {"test_id": "TEST-IMG-A01", "runner": "node:test", "file": "tests/images.test.js"}
]
```
"""

TASKS_TEXT = """# Tasks

- [ ] **T001: Ledger**
  <!-- gemstack:tests=TEST-IMG-A01 -->
  <!-- gemstack:depends= -->
- [ ] **T002: Search after T001**
  <!-- gemstack:tests=TEST-IMG-A02 -->
  <!-- gemstack:depends=T001 -->
"""

LEDGER_DATA = {
    "version": 1,
    "updated_at": "2026-09-11T17:00:00.000Z",
    "currency": "USD",
    "providers": {
        "vision-cloud": {
            "type": "COMMERCIAL",
            "pricing_model": "PER_CALL",
            "capabilities": {
                "vision.search": {
                    "cost_state": "BILLABLE",
                    "estimated_unit_cost": 0.002,
                    "assumption_source": "vendor-pricing",
                    "freshness_date": "2026-08-31",
                    "requires_human_approval": False,
                }
            },
        },
        "vision-mock": {
            "type": "MOCK",
            "pricing_model": "NONE",
            "capabilities": {
                "vision.search": {
                    "cost_state": "FREE",
                    "estimated_unit_cost": 0.0,
                    "assumption_source": "local",
                    "freshness_date": "2026-09-11",
                    "requires_human_approval": False,
                }
            },
        },
    },
}

SPEC2_TEXT = """# Other

```gemstack-test-matrix
[
  {"id": "TEST-IMG-A01", "category": "OTHER", "layer": "UNIT", "description": "Same id, other feature.",
   "pass_criteria": "ok", "gate": "REQUIRED"}
]
```
"""

FILES: dict[str, str] = {
    SPEC: SPEC_TEXT,
    PLAN: PLAN_TEXT,
    TASKS: TASKS_TEXT,
    LEDGER: json.dumps(LEDGER_DATA, indent=2),
    SPEC2: SPEC2_TEXT,
    "tests/images.test.js": "// a test\n",
}


def host(files: Mapping[str, str] | None = None) -> AnalysisHost:
    return AnalysisHost("/repo", MemoryReader(dict(FILES if files is None else files)))


def snapshot(files: Mapping[str, str] | None = None) -> Snapshot:
    return host(files).snapshot()


def offset(snap: Snapshot, path: str, needle: str, delta: int = 1, nth: int = 0) -> int:
    """The offset ``delta`` characters into the ``nth`` occurrence of ``needle`` in ``path``."""
    text = snap.repo.document(path).text
    assert text is not None
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    return at + delta


def spanned(snap: Snapshot, path: str, span: Span) -> tuple[str, str]:
    """(path, the text ``span`` covers in it): what a test expects a location to be."""
    text = snap.repo.document(path).text
    assert text is not None
    return path, text[span.start : span.end]
