"""Messages that point at a part of the editor's window, worded for the client that asked.

The client names itself in ``initialize`` (``clientInfo.name``): VS Code and its relatives
have a Problems list, Neovim and Emacs do not, and a message must not send the user to a
panel their editor lacks; likewise a client refused a rename is not told of a confirmation it
does not have, and only Neovim is told the plugin's :GemstackRenameFrozen.
"""

from __future__ import annotations

#: Lower-case fragments of the names VS Code and its forks send (``vscode.env.appName``:
#: "Visual Studio Code", "Code - OSS", "VSCodium", "code-server", "Cursor", ...).
_VSCODE_LIKE = ("code", "codium", "cursor", "windsurf", "positron", "theia")


def _vscode_like(name: str) -> bool:
    return any(fragment in name for fragment in _VSCODE_LIKE)


def _neovim(name: str) -> bool:
    return name.startswith("neovim") or name == "nvim"


def diagnostics_place(client_name: str) -> str:
    """Where the user finds the findings of a file in this client, as a parenthesis-ready
    phrase ("see the Problems list")."""
    name = client_name.strip().lower()
    if _vscode_like(name):
        return "see the Problems list"
    if _neovim(name):
        return ":lua vim.diagnostic.setqflist() lists them"
    if name.startswith("eglot"):
        return "M-x flymake-show-project-diagnostics lists them"
    if name in ("emacs", "lsp-mode"):
        return "M-x lsp-treemacs-errors-list lists them"
    if name.startswith("helix"):
        return "the diagnostics picker lists them"
    return "the editor's diagnostics list them"


#: The server command that renames through a frozen phase on purpose (``server/rename.py``).
RENAME_FROZEN_COMMAND = "gemstack.renameFrozenContract"


def rename_anyway(client_name: str) -> str:
    """How the user renames a frozen id anyway in this client, after a refused rename: the end
    of the sentence "To rename anyway, ..." (the "rename_anyway" phrases of ``i18n_es_ui``).

    Only a client that announced no change annotations is refused (VS Code announces them, and
    confirms the annotated edit in its Refactor Preview instead), so no client is sent to a
    confirmation it did not offer, whatever its name: Neovim is told the plugin's
    :GemstackRenameFrozen; any other client (a VS Code fork without change annotations too)
    the server command by its id."""
    if _neovim(client_name.strip().lower()):
        return (
            "run :GemstackRenameFrozen with the cursor on the id (a command of the gemstack Neovim plugin; it asks "
            "for the new name)."
        )
    return (
        f"have your editor run the server command {RENAME_FROZEN_COMMAND} with the document's URI, the id's "
        "position and the new name."
    )
