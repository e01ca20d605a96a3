"""Messages name only what the client has: the Problems list in VS Code and its forks, a
command in Neovim and Emacs, a neutral phrase for any other client (issue 20); likewise the
refusal to rename a frozen id says how to rename it anyway in the client's own terms."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from lsprotocol import types as lsp

from gemstack_lsp.core.i18n import REFUSAL, localize
from gemstack_lsp.ide.frozen import FrozenPhase
from gemstack_lsp.ide.rename import RenameRefused
from gemstack_lsp.server.commands import regenerated_message
from gemstack_lsp.server.rename import RENAME_FROZEN, refusal_message
from gemstack_lsp.server.wording import diagnostics_place, rename_anyway
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


# --- How to rename a frozen id anyway -------------------------------------------------------

#: What Neovim is told, and what no client may be told: a confirmation (only a client without
#: change annotations is refused, so it has none), VS Code's Refactor Preview.
_NEOVIM_WAY, _NOT_TOLD = ":GemstackRenameFrozen", ("confirm", "Refactor Preview", "where your editor asks")


@pytest.mark.parametrize("name", ["Neovim", "nvim"])
def test_neovim_is_told_the_plugins_command(name: str) -> None:
    way = rename_anyway(name)
    assert way == (
        "run :GemstackRenameFrozen with the cursor on the id (a command of the gemstack Neovim plugin; it asks for "
        "the new name)."
    )
    assert not any(word in way for word in _NOT_TOLD)


@pytest.mark.parametrize("name", [*VSCODE_NAMES, "Eglot", "emacs", "helix", "Some Editor", ""])
def test_other_clients_are_told_the_server_command(name: str) -> None:
    """A VS Code fork is refused only when it announced no change annotations: it gets no
    Refactor Preview for that edit, so it is told the command as any other client is."""
    way = rename_anyway(name)
    assert RENAME_FROZEN == "gemstack.renameFrozenContract" and f"server command {RENAME_FROZEN} " in way
    assert _NEOVIM_WAY not in way and not any(word in way for word in _NOT_TOLD)


_FROZEN = FrozenPhase(feature="008-x", phase="spec", reason="state.json records its hash (phase_hashes.spec)")
_WHY = (
    "Contract 'c-1' is frozen by the spec phase of 008-x (state.json records its hash (phase_hashes.spec)). "
    "Editing a frozen artifact breaks its recorded hash (FROZEN_ARTIFACT_CHANGED). The Gemstack way is an "
    "amendment: propose the change as an amendment of the spec phase and approve it, which records the new hash."
)


@pytest.mark.parametrize(
    ("name", "named"),
    [
        (
            "Neovim",
            "ejecuta :GemstackRenameFrozen con el cursor sobre el id (un comando del plugin gemstack de Neovim; pide ",
        ),
        ("Eglot", f"haz que tu editor ejecute el comando del servidor {RENAME_FROZEN} con la URI"),
    ],
)
def test_the_refusal_ends_with_the_clients_way_in_either_language(name: str, named: str) -> None:
    message = refusal_message(RenameRefused(_WHY, _FROZEN), name)
    assert message == f"{_WHY} To rename anyway, {rename_anyway(name)}"
    spanish = localize(REFUSAL, message, "es")
    assert spanish.startswith("El contrato 'c-1' está congelado por la fase spec de 008-x (state.json registra")
    assert "Para renombrar de todos modos, " in spanish and named in spanish, spanish
    assert "To rename anyway" not in spanish and "with the" not in spanish, spanish


def test_other_refusals_are_left_as_they_are() -> None:
    assert (
        refusal_message(RenameRefused("A path cannot be renamed here."), "Neovim") == "A path cannot be renamed here."
    )


@pytest.mark.parametrize(
    ("kind", "name", "way"),
    [
        ("neovim", None, _NEOVIM_WAY),
        ("neovim", "Eglot", f"server command {RENAME_FROZEN}"),
        # VS Code's name without change annotations (a fork that lacks them): refused, and told
        # the command, not a Refactor Preview it would not show.
        ("neovim", "Code - OSS", f"server command {RENAME_FROZEN}"),
    ],
)
async def test_a_refused_frozen_rename_names_what_the_client_has(
    make_client: MakeClient, gem_repo: Path, kind: str, name: str | None, way: str
) -> None:
    """End to end: a client without change annotations is refused, in its own words."""
    from tests.lsp.test_authoring import SPEC8

    h = await make_client(kind, gem_repo, fake=False, client_name=name)
    uri = h.open(SPEC8)
    params = lsp.RenameParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri),
        position=h.position(SPEC8, '"unknown-cost-never-free"', 3),
        new_name="unknown-never-free",
    )
    with pytest.raises(Exception, match="amendment") as refused:
        await h.request(lsp.TEXT_DOCUMENT_RENAME, params)
    message = str(refused.value)
    assert f"To rename anyway, {rename_anyway(name or 'Neovim')}" in message, message
    assert way in message and not any(word in message for word in _NOT_TOLD), message


async def test_a_refused_frozen_rename_in_spanish(make_client: MakeClient, gem_repo: Path) -> None:
    """The same refusal through a Spanish session: all of it Spanish, the command still named."""
    from tests.lsp.test_authoring import SPEC8

    h = await make_client("neovim", gem_repo, fake=False, locale="es-ES")
    uri = h.open(SPEC8)
    params = lsp.RenameParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri),
        position=h.position(SPEC8, '"unknown-cost-never-free"', 3),
        new_name="unknown-never-free",
    )
    with pytest.raises(Exception, match="enmienda") as refused:
        await h.request(lsp.TEXT_DOCUMENT_RENAME, params)
    message = str(refused.value)
    assert "Para renombrar de todos modos, ejecuta :GemstackRenameFrozen con el cursor sobre el id" in message, message
    assert "To rename anyway" not in message, message
