"""How the core sees files: a ``Reader`` it is given, never the file system itself.

Paths handed to a reader are repository-relative POSIX paths (``specs/009-x/spec.md``).
The disk implementation lives in ``gemstack_lsp.fs``; the editor overlays its open buffers
with ``OverlayReader``; tests use ``MemoryReader``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import Protocol

from gemstack_lsp.core.frozen import record

#: Files larger than this are not read for analysis; they get a finding instead.
MAX_ANALYSED_BYTES = 16 * 1024 * 1024


class ReadStatus(enum.Enum):
    OK = "ok"
    MISSING = "missing"
    NOT_A_FILE = "not-a-file"
    SYMLINK_OUTSIDE = "symlink-outside-repository"
    TOO_LARGE = "too-large"
    ERROR = "error"


@record
class FileContent:
    """The outcome of reading one file: its bytes, or why there are none."""

    path: str
    status: ReadStatus
    data: bytes | None = None
    detail: str = ""
    #: True when the bytes come from an editor buffer rather than the disk.
    from_buffer: bool = False

    @property
    def ok(self) -> bool:
        return self.status is ReadStatus.OK and self.data is not None


@record
class DirEntry:
    name: str
    is_dir: bool
    is_file: bool
    is_symlink: bool = False


@record
class RepositoryState:
    """The version-control state of a repository root, as the reference's closure context records it.

    ``type`` is ``"git"`` when the root holds a ``.git`` entry, else ``"non-git"`` (with
    ``commit`` and ``working_tree_clean`` both ``None``). In a Git repository ``commit`` is
    ``git rev-parse HEAD`` and ``working_tree_clean`` whether ``git status --porcelain`` prints
    nothing; either is ``None`` when Git could not tell. ``known`` is False when the reader
    could not ask Git at all (the values are then a best guess, see ``repository_state_of``).
    """

    type: str
    commit: str | None = None
    working_tree_clean: bool | None = None
    known: bool = True

    def to_json(self) -> dict[str, str | bool | None]:
        return {"type": self.type, "commit": self.commit, "working_tree_clean": self.working_tree_clean}


NON_GIT = RepositoryState("non-git")


@record
class GitCommit:
    """One line of ``git log --oneline``: the abbreviated hash and the subject."""

    hash: str
    message: str


def recent_commits_of(reader: object, limit: int) -> tuple[GitCommit, ...] | None:
    """The newest ``limit`` commits of the repository at the reader's root, newest first, when
    the reader can tell (``recent_commits(limit)``, offered by the disk reader); ``None`` when it
    cannot (no such method, or Git could not be asked)."""
    ask = getattr(reader, "recent_commits", None)
    if not callable(ask):
        return None
    commits = ask(limit)
    if commits is None:
        return None
    return tuple(c for c in commits if isinstance(c, GitCommit))


class Reader(Protocol):
    """Read-only access to one repository's files.

    A reader may also offer ``repository_state() -> RepositoryState`` (the disk reader asks
    Git); ``repository_state_of`` falls back to reading ``.git`` through ``read`` otherwise.
    """

    def read(self, path: str) -> FileContent:
        """The bytes of the file at a repository-relative path."""
        ...

    def list_dir(self, path: str) -> list[DirEntry] | None:
        """The entries of a directory, sorted by name; ``None`` when it is not a directory."""
        ...


def normalize_relpath(path: str) -> str:
    """A repository-relative POSIX path without ``.`` segments or a leading ``./``."""
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
    return "/".join(parts)


class MemoryReader:
    """A reader over a mapping of relative path to bytes or text (tests, synthetic repos)."""

    def __init__(self, files: Mapping[str, bytes | str]) -> None:
        self._files: dict[str, bytes] = {
            normalize_relpath(k): v.encode("utf-8") if isinstance(v, str) else v for k, v in files.items()
        }

    def read(self, path: str) -> FileContent:
        path = normalize_relpath(path)
        data = self._files.get(path)
        if data is None:
            if any(k.startswith(path + "/") for k in self._files):
                return FileContent(path, ReadStatus.NOT_A_FILE, detail="is a directory")
            return FileContent(path, ReadStatus.MISSING)
        if len(data) > MAX_ANALYSED_BYTES:
            return FileContent(path, ReadStatus.TOO_LARGE, detail=f"{len(data)} bytes")
        return FileContent(path, ReadStatus.OK, data)

    def list_dir(self, path: str) -> list[DirEntry] | None:
        return _list_from_paths(self._files.keys(), normalize_relpath(path))


def _list_from_paths(paths: Iterable[str], directory: str) -> list[DirEntry] | None:
    prefix = directory + "/" if directory else ""
    entries: dict[str, DirEntry] = {}
    found = directory == ""
    for p in paths:
        if not p.startswith(prefix):
            continue
        found = True
        rest = p[len(prefix) :]
        name, sep, _ = rest.partition("/")
        if not name:
            continue
        if sep:
            entries[name] = DirEntry(name, is_dir=True, is_file=False)
        else:
            entries.setdefault(name, DirEntry(name, is_dir=False, is_file=True))
    if not found:
        return None
    return [entries[k] for k in sorted(entries)]


def _git_commit_from_files(reader: Reader) -> str | None:
    """HEAD's commit read from ``.git`` files through the reader (no Git process), if it can be."""
    head = reader.read(".git/HEAD")
    if not head.ok or head.data is None:
        return None
    text = head.data.decode("utf-8", "replace").strip()
    if not text.startswith("ref:"):
        return text or None
    ref = text[4:].strip()
    loose = reader.read(f".git/{ref}")
    if loose.ok and loose.data is not None:
        return loose.data.decode("utf-8", "replace").strip() or None
    packed = reader.read(".git/packed-refs")
    if packed.ok and packed.data is not None:
        for line in packed.data.decode("utf-8", "replace").splitlines():
            sha, _, name = line.partition(" ")
            if name.strip() == ref:
                return sha.strip() or None
    return None


def repository_state_of(reader: Reader) -> RepositoryState:
    """The repository state the reader reports, else what its files tell.

    Without a ``repository_state`` method: no ``.git`` at the root is ``non-git``; otherwise
    the commit is read from ``.git/HEAD`` and its ref, and whether the tree is clean stays
    unknown (``known`` False).
    """
    ask = getattr(reader, "repository_state", None)
    if callable(ask):
        state = ask()
        if isinstance(state, RepositoryState):
            return state
    return repository_state_from_files(reader)


def repository_state_from_files(reader: Reader) -> RepositoryState:
    """What the repository's files alone tell (no Git process): no ``.git`` at the root is
    ``non-git``; otherwise HEAD's commit from ``.git/HEAD`` and its ref, and whether the tree
    is clean stays unknown (``known`` False)."""
    if reader.read(".git").status is ReadStatus.MISSING:
        return NON_GIT
    return RepositoryState("git", _git_commit_from_files(reader), None, known=False)


class OverlayReader:
    """A reader that answers from open editor buffers first, then from a base reader."""

    def __init__(self, base: Reader, buffers: Mapping[str, str]) -> None:
        self._base = base
        self._buffers = {normalize_relpath(k): v for k, v in buffers.items()}

    @property
    def buffers(self) -> Mapping[str, str]:
        return self._buffers

    def read(self, path: str) -> FileContent:
        path = normalize_relpath(path)
        text = self._buffers.get(path)
        if text is not None:
            return FileContent(path, ReadStatus.OK, text.encode("utf-8", "surrogatepass"), from_buffer=True)
        return self._base.read(path)

    def repository_state(self) -> RepositoryState:
        """The base's state; a buffer that differs from the file it stands for makes the tree dirty
        (as it would be once saved)."""
        state = repository_state_of(self._base)
        if state.type != "git" or state.working_tree_clean is not True:
            return state
        for path, text in self._buffers.items():
            on_disk = self._base.read(path)
            if not on_disk.ok or on_disk.data != text.encode("utf-8", "surrogatepass"):
                return RepositoryState(state.type, state.commit, False, state.known)
        return state

    def recent_commits(self, limit: int) -> tuple[GitCommit, ...] | None:
        """The base's commits (editor buffers are not commits)."""
        return recent_commits_of(self._base, limit)

    def list_dir(self, path: str) -> list[DirEntry] | None:
        path = normalize_relpath(path)
        base = self._base.list_dir(path)
        extra = _list_from_paths(self._buffers.keys(), path)
        if base is None and extra is None:
            return None
        merged = {e.name: e for e in (extra or [])}
        merged.update({e.name: e for e in (base or [])})
        return [merged[k] for k in sorted(merged)]
