"""Resolving ``--repo`` to the exact Git worktree root and its Git-admin directory."""

from __future__ import annotations

import errno
import os

from gemstack_lsp.provenance.errors import ProvenanceError
from gemstack_lsp.provenance.gitcmd import git_text


def node_style_os_error(error: OSError, syscall: str, path: str) -> str:
    """An OS error worded as the reference (Node) words it: ``ENOENT: no such file ..., realpath 'x'``."""
    code = errno.errorcode.get(error.errno or 0, "EUNKNOWN")
    text = (error.strerror or str(error)).lower()
    return f"{code}: {text}, {syscall} '{path}'"


def realpath_strict(path: str) -> str:
    try:
        return os.path.realpath(path, strict=True)
    except OSError as error:
        raise ProvenanceError(node_style_os_error(error, "realpath", path)) from error


def resolve_root(repo: str) -> str:
    """The realpath of ``repo``, which must equal the realpath of its Git top level."""
    real = realpath_strict(repo)
    top = git_text(real, ["rev-parse", "--show-toplevel"])
    top_real = realpath_strict(top)
    if top_real != real:
        raise ProvenanceError(f"--repo must be the Git worktree root ({top})")
    return real


def resolve_git_dir(root: str) -> str:
    """The realpath of the worktree's Git-admin directory (``.git/worktrees/<name>`` when linked)."""
    return realpath_strict(git_text(root, ["rev-parse", "--absolute-git-dir"]))
