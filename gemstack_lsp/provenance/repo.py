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
    """The realpath of the worktree's Git-admin directory (``.git/worktrees/<name>`` when linked).

    The vault lives there, so it must belong to this worktree: a ``.git`` folder inside the
    root, or a ``.git`` file naming a linked-worktree directory whose ``gitdir`` file points
    back at that very ``.git`` file (as ``git worktree`` writes them). A ``.git`` file that
    points at some other repository's Git directory is refused: writing there would write
    into another repository.
    """
    git_dir = realpath_strict(git_text(root, ["rev-parse", "--absolute-git-dir"]))
    dot_git = os.path.join(root, ".git")
    if os.path.isdir(dot_git) and not os.path.islink(dot_git):
        if git_dir != realpath_strict(dot_git):
            raise ProvenanceError(f"The Git directory of {root} is not its own .git folder: {git_dir}")
        return git_dir
    if os.path.isfile(dot_git) and not os.path.islink(dot_git) and _links_back(git_dir, dot_git):
        return git_dir
    raise ProvenanceError(
        f"{dot_git} does not belong to this worktree (it is a link, or names a Git directory that does "
        "not name it back); refusing to write into another repository's Git directory"
    )


def _links_back(git_dir: str, dot_git: str) -> bool:
    """True when ``git_dir/gitdir`` names ``dot_git`` (a linked worktree's back-link)."""
    try:
        with open(os.path.join(git_dir, "gitdir"), encoding="utf-8") as handle:
            named = handle.read(4096).strip()
        return os.path.realpath(named, strict=True) == os.path.realpath(dot_git, strict=True)
    except (OSError, UnicodeDecodeError):
        return False
