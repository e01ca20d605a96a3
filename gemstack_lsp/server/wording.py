"""Messages that point at a part of the editor's window, worded for the client that asked.

The client names itself in ``initialize`` (``clientInfo.name``): VS Code and its relatives
have a Problems list, Neovim and Emacs do not, and a message must not send the user to a
panel their editor lacks.
"""

from __future__ import annotations

#: Lower-case fragments of the names VS Code and its forks send (``vscode.env.appName``:
#: "Visual Studio Code", "Code - OSS", "VSCodium", "code-server", "Cursor", ...).
_VSCODE_LIKE = ("code", "codium", "cursor", "windsurf", "positron", "theia")


def diagnostics_place(client_name: str) -> str:
    """Where the user finds the findings of a file in this client, as a parenthesis-ready
    phrase ("see the Problems list")."""
    name = client_name.strip().lower()
    if any(fragment in name for fragment in _VSCODE_LIKE):
        return "see the Problems list"
    if name.startswith("neovim") or name == "nvim":
        return ":lua vim.diagnostic.setqflist() lists them"
    if name.startswith("eglot"):
        return "M-x flymake-show-project-diagnostics lists them"
    if name in ("emacs", "lsp-mode"):
        return "M-x lsp-treemacs-errors-list lists them"
    if name.startswith("helix"):
        return "the diagnostics picker lists them"
    return "the editor's diagnostics list them"
