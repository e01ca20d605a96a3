"""A client that restarts its document versions (a lower version on didChange) never keeps
stale diagnostics: the lower version starts the document's history afresh."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

if TYPE_CHECKING:
    from tests.lsp.conftest import MakeClient

SPEC = "specs/009-context-capsule/spec.md"


def _fake(diagnostics: list[lsp.Diagnostic]) -> list[lsp.Diagnostic]:
    return [d for d in diagnostics if d.code == "JSON_DUPLICATE_KEY"]


async def test_a_lower_version_on_did_change_leaves_no_stale_diagnostics(
    make_client: MakeClient, gem_repo: Path, client_kind: str
) -> None:
    h = await make_client(client_kind, gem_repo)
    uri = h.open(SPEC)
    for _ in range(3):
        h.replace(SPEC, "# ", "# FAKE-FINDING ")
        h.replace(SPEC, "FAKE-FINDING ", "")
    h.replace(SPEC, "# ", "# FAKE-FINDING ")
    assert len(_fake(await h.diagnostics(SPEC))) == 1
    assert h.versions[uri] == 8
    # The client starts counting again (as after reopening the buffer) and removes the marker.
    h.versions[uri] = 0
    h.replace(SPEC, "FAKE-FINDING ", "")
    assert h.versions[uri] == 1
    assert _fake(await h.diagnostics(SPEC)) == []
    if not h.pull:
        last = next(p for p in reversed(h.pushes) if p.uri == uri)
        assert last.version == 1
    # Versions that rise again from there are published as usual.
    h.replace(SPEC, "# ", "# FAKE-FINDING ")
    assert len(_fake(await h.diagnostics(SPEC))) == 1
