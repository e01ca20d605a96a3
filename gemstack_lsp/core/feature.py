"""A feature of a Gemstack repository: one ``specs/<name>/`` folder and the files it holds.

A leaf module: the repository model (``repo``), the state file (``state``) and every check
name features through it without importing each other.
"""

from __future__ import annotations

from gemstack_lsp.core.frozen import record

SPECS_DIR = "specs"
FEATURE_DOCS = ("spec.md", "plan.md", "tasks.md")
CAPSULE_NAME = "context-capsule.json"
LEDGER_NAME = "cost-ledger.json"
CLOSURE_NAME = "closure.json"


@record
class Feature:
    """One ``specs/<name>/`` folder."""

    name: str

    @property
    def path(self) -> str:
        return f"{SPECS_DIR}/{self.name}"

    def file(self, name: str) -> str:
        return f"{self.path}/{name}"

    @property
    def spec(self) -> str:
        return self.file("spec.md")

    @property
    def plan(self) -> str:
        return self.file("plan.md")

    @property
    def tasks(self) -> str:
        return self.file("tasks.md")

    @property
    def capsule(self) -> str:
        return self.file(CAPSULE_NAME)

    @property
    def ledger(self) -> str:
        return self.file(LEDGER_NAME)

    @property
    def closure(self) -> str:
        return self.file(CLOSURE_NAME)
