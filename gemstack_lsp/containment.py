"""Which files belong to a repository: one containment rule for the CLI and the server alike.

A repository's files are the ones whose real path (every symlink resolved) lies inside the
repository root's real path. A symlink that leads out of it is a finding of the repository
(``DiskReader`` reports it as ``ReadStatus.SYMLINK_OUTSIDE``), never a repository of its own,
never read and never written.

Repository roots are discovered by walking up the path as it was given (lexically), so a
symlinked folder is seen where it is linked from, not where it leads: ``specs/evil`` linking
to an outside folder that looks like a repository stays a folder of the enclosing repository,
and its files lie outside that repository. A candidate root is accepted only when its real
path lies inside every repository folder and every anchor (a workspace folder, a path named on
the command line) above it, up to the nearest anchor: the folder the user opened is trusted as
given, whatever lies beyond it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from gemstack_lsp.core.frozen import record

#: A folder holding one of these sub-folders is a Gemstack repository.
REPOSITORY_MARKERS = ("specs", ".gemstack")


def is_repository_folder(folder: str) -> bool:
    """True when ``folder`` holds a ``specs/`` or ``.gemstack/`` folder."""
    return any(os.path.isdir(os.path.join(folder, marker)) for marker in REPOSITORY_MARKERS)


def _real(path: str) -> str:
    """The real path; a name no file system can hold (a lone surrogate, NUL) names nothing
    on disk, so it is its own real path (and reads as missing)."""
    try:
        return os.path.realpath(path)
    except ValueError:
        return os.path.abspath(path)


def is_within(path: str, root: str) -> bool:
    """True when the absolute ``path`` is ``root`` or lies beneath it (both taken as written)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def real_within(path: str, root: str) -> bool:
    """True when the real path of ``path`` lies inside the real path of ``root``."""
    return is_within(_real(path), _real(root))


def _lexical(path: str) -> str:
    return os.path.normpath(os.path.abspath(path))


def _chain(directory: str) -> list[str]:
    """``directory`` and its ancestors, nearest first, as written."""
    out = [directory]
    while True:
        parent = os.path.dirname(out[-1])
        if parent == out[-1]:
            return out
        out.append(parent)


@record
class Root:
    """A repository root: the folder as it was reached and its real path."""

    lexical: str
    real: str


def owning_root(directory: str, anchors: Iterable[str] = ()) -> Root | None:
    """The repository that the folder ``directory`` is, or lies in, under the containment rule.

    The nearest folder at or above ``directory`` that is a repository folder and whose real
    path lies inside every repository folder and anchor above it (up to and including the
    nearest anchor); ``None`` when there is none.
    """
    chain = _chain(_lexical(directory))
    marks = {_lexical(a) for a in anchors}
    reals: dict[str, str] = {}

    def real(folder: str) -> str:
        if folder not in reals:
            reals[folder] = _real(folder)
        return reals[folder]

    repository = [is_repository_folder(folder) for folder in chain]
    for i, folder in enumerate(chain):
        if not repository[i]:
            continue
        bounds: list[str] = []
        for j in range(i, len(chain)):
            if j > i and repository[j]:
                bounds.append(chain[j])
            if chain[j] in marks:
                bounds.append(chain[j])
                break
        if all(is_within(real(folder), real(bound)) for bound in bounds):
            return Root(folder, real(folder))
    return None


@record
class Location:
    """Where an absolute path stands under the containment rule.

    ``root`` is the repository that holds the path as written (``None`` outside every
    repository). ``rel`` is its repository-relative path when its real path lies inside
    that root; when it does not, ``rel`` is ``None``, ``written_rel`` says where it was
    linked from and ``escape`` why it is not one of the repository's files.
    """

    path: str
    root: Root | None
    rel: str | None
    written_rel: str | None
    escape: str | None = None

    @property
    def contained(self) -> bool:
        return self.root is not None and self.rel is not None


def locate(path: str, anchors: Iterable[str] = ()) -> Location:
    """The repository holding the absolute ``path`` (a file or folder, existing or not) and its
    repository-relative path, or why it is not one of that repository's files.

    The repository is ``owning_root`` of the path's folder (of the path itself when it is a
    folder).
    """
    lexical = _lexical(path)
    start = lexical if os.path.isdir(lexical) else os.path.dirname(lexical)
    return locate_in(lexical, owning_root(start, anchors))


def locate_in(path: str, root: Root | None) -> Location:
    """``locate`` with the owning root already known (``None``: outside every repository).

    The returned ``path`` is the real path of the folder joined with the name as written, so
    a file symlinked to another file of the same repository keeps its own name; it is one of
    the repository's files only when its own real path lies inside the root too.
    """
    lexical = _lexical(path)
    located = lexical if lexical == os.sep else os.path.join(_real(os.path.dirname(lexical)), os.path.basename(lexical))
    if root is None:
        return Location(located, None, None, None)
    written_rel = None
    if is_within(lexical, root.lexical):
        written_rel = os.path.relpath(lexical, root.lexical).replace(os.sep, "/")
    target = _real(located)
    if is_within(located, root.real) and is_within(target, root.real):
        rel = os.path.relpath(located, root.real).replace(os.sep, "/")
        return Location(located, root, "" if rel == "." else rel, written_rel)
    where = written_rel or lexical
    return Location(
        located, root, None, written_rel, f"{where} resolves to {target}, outside the repository {root.real}"
    )
