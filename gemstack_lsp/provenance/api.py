"""The library API: receipts as data, refusals as :class:`ProvenanceError`.

The language server's "write plan" code action calls these; the CLI is a thin shell over them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from gemstack_lsp.provenance.errors import ProvenanceError
from gemstack_lsp.provenance.readplan import read_existing_plan
from gemstack_lsp.provenance.snapshot import SCHEMA_VERSION, check_schema_version, take_snapshot
from gemstack_lsp.provenance.writeplan import WriteHooks, write_generated_plan

__all__ = ["ProvenanceError", "WriteHooks", "read_plan", "snapshot", "write_plan"]


def _text(value: object, flag: str) -> str:
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str) or value == "":
        raise ProvenanceError(f"{flag} is required")
    return value


def snapshot(
    repo: str | os.PathLike[str],
    plan: str,
    cited: Sequence[str],
    *,
    schema_version: int = SCHEMA_VERSION,
) -> dict[str, Any]:
    """The ``evidence_provenance`` value for ``repo``, excluding exactly ``plan`` from the digest."""
    root = _text(repo, "--repo")
    plan = _text(plan, "--generated-plan")
    if isinstance(cited, str) or not all(isinstance(path, str) for path in cited):
        raise ProvenanceError("cited must be a sequence of path strings")
    if type(schema_version) is not int:
        raise ProvenanceError("--schema-version must be an integer")
    check_schema_version(schema_version)
    return take_snapshot(root, plan, list(cited)).to_json()


def read_plan(repo: str | os.PathLike[str], plan: str) -> dict[str, Any]:
    """The read-plan receipt: canonical path, byte count, digest and base64 bytes."""
    return read_existing_plan(_text(repo, "--repo"), _text(plan, "--generated-plan")).to_json()


def write_plan(
    repo: str | os.PathLike[str],
    plan: str,
    content: bytes,
    *,
    replace: bool = False,
    expected_plan_path: str | None = None,
    expected_plan_digest: str | None = None,
    hooks: WriteHooks | None = None,
) -> dict[str, Any]:
    """Publish ``content`` (exact UTF-8 bytes) at ``plan``; with ``replace``, Deepen's rewrite."""
    return write_generated_plan(
        _text(repo, "--repo"),
        _text(plan, "--generated-plan"),
        content,
        replace=replace,
        expected_plan_path=expected_plan_path,
        expected_plan_digest=expected_plan_digest,
        hooks=hooks,
    ).to_json()
