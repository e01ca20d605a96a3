"""Messages name only what the client has: the Problems list in VS Code and its forks, a
command in Neovim and Emacs, a neutral phrase for any other client (issue 20)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from gemstack_lsp.server.commands import regenerated_message
from gemstack_lsp.server.wording import diagnostics_place
from tests.lsp.test_clean_surfaces import TASKS, _regenerate

if TYPE_CHECKING:
    from tests.lsp.conftest import MakeClient

VSCODE_NAMES = [
    "Visual Studio Code",
    "Visual Studio Code - Insiders",
    "code-server",
    "Code - OSS",
    "VSCodium",
    "Cursor",
]


@pytest.mark.parametrize("name", VSCODE_NAMES)
def test_vscode_and_its_forks_have_a_problems_list(name: str) -> None:
    assert diagnostics_place(name) == "see the Problems list"


@pytest.mark.parametrize(
    ("name", "place"),
    [
        ("Neovim", ":lua vim.diagnostic.setqflist() lists them"),
        ("Eglot", "M-x flymake-show-project-diagnostics lists them"),
        ("helix", "the diagnostics picker lists them"),
        ("", "the editor's diagnostics list them"),
        ("Some Editor", "the editor's diagnostics list them"),
    ],
)
def test_other_clients_get_no_problems_list(name: str, place: str) -> None:
    assert diagnostics_place(name) == place
    assert "Problems" not in diagnostics_place(name)


def test_regenerate_message_uses_the_clients_words() -> None:
    data = b'{"canonical_invariants": [1, 2]}'
    message = regenerated_message("specs/x/context-capsule.json", data, [], where="unused")
    assert message == f"Context capsule written: specs/x/context-capsule.json ({len(data)} bytes, 2 invariants)."


@pytest.mark.parametrize(
    ("kind", "place"),
    [("vscode", "(see the Problems list)"), ("neovim", "(:lua vim.diagnostic.setqflist() lists them)")],
)
async def test_regenerate_names_the_clients_list(
    make_client: MakeClient, gem_repo: Path, kind: str, place: str
) -> None:
    """End to end: the client's clientInfo.name picks the words of Regenerate's message."""
    h = await make_client(kind, gem_repo, fake=False)
    h.open(TASKS)
    h.replace(TASKS, "- [x] **T001:", "- [ ] **T001:")
    assert "FROZEN_ARTIFACT_CHANGED" in {d.code for d in await h.diagnostics(TASKS)}
    result = await _regenerate(h)
    assert result["message"].endswith(f"TASKS_LIFECYCLE_CONTRADICTED {place}."), result["message"]
    assert result["message"] in [m.message for m in h.client.messages]
