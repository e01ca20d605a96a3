"""The file system, for the CLI and the server: a read-only disk reader and one atomic writer.

The core never imports this module: it receives a ``Reader``. Writing a generated artifact
(the context capsule) goes through ``write_atomic`` and nowhere else.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import subprocess
from pathlib import Path

from gemstack_lsp import gitsafe
from gemstack_lsp.core.reader import (
    MAX_ANALYSED_BYTES,
    NON_GIT,
    DirEntry,
    FileContent,
    GitCommit,
    ReadStatus,
    RepositoryState,
    normalize_relpath,
    repository_state_from_files,
)


def _git(root: Path, *args: str) -> str | None:
    """The output of a read-only Git command run in ``root``; ``None`` when it fails.

    Runs through ``gitsafe``: no program the repository configures (fsmonitor, filters,
    hooks, pagers, helpers) and no ``git`` found inside the repository ever runs, and
    ``--no-optional-locks`` keeps ``git status`` from refreshing the index.
    """
    try:
        done = gitsafe.run(root, args, root=root, submodules=args[0] == "status")
    except (gitsafe.GitUnavailable, OSError, subprocess.SubprocessError):
        return None
    if done.status != 0:
        return None
    return done.stdout.decode("utf-8", "replace")


def git_repository_state(root: str | os.PathLike[str]) -> RepositoryState:
    """The closure context's repository state of ``root``, as the reference computes it.

    No ``.git`` entry at the root: ``non-git``. Otherwise ``git rev-parse HEAD`` and
    ``git status --porcelain`` (clean when it prints nothing); when either fails, both are
    unknown (``{git, null, null}``), as in the reference.
    """
    base = Path(root)
    if not os.path.lexists(base / ".git"):
        return NON_GIT
    head = _git(base, "rev-parse", "HEAD")
    status = _git(base, "status", "--porcelain") if head is not None else None
    if head is None or status is None:
        return RepositoryState("git")
    return RepositoryState("git", head.strip(), not status.strip())


class DiskReader:
    """Reads a repository's files from disk, never writing and never leaving the root.

    A symlink is followed only when its target lies inside the repository; one that points
    outside, a directory where a file is expected, and a file over ``MAX_ANALYSED_BYTES`` are
    reported through ``FileContent.status`` rather than raised.
    """

    #: A path that ``lstat`` finds absent inside a real folder below the root (no link on the
    #: way) reads as ``MISSING``: ``FileStore`` may answer such a read without making it.
    MISSING_WHEN_ABSENT = True

    def __init__(self, root: str | os.PathLike[str], *, run_git: bool = True) -> None:
        self.root = Path(root).resolve()
        self._root_text = str(self.root)
        #: False in an untrusted workspace (VS Code's Restricted Mode): no git process at all;
        #: the Git state is what the repository's files tell, its cleanliness unknown.
        self.run_git = run_git

    def repository_state(self) -> RepositoryState:
        """The Git state of the root (read-only: see ``git_repository_state``)."""
        if not self.run_git:
            return repository_state_from_files(self)
        return git_repository_state(self.root)

    def recent_commits(self, limit: int) -> tuple[GitCommit, ...] | None:
        """The root's newest commits (read-only, hardened: see ``gemstack_lsp.gitlog``); ``None``
        (unknown) in an untrusted workspace, where no git runs."""
        if not self.run_git:
            return None
        from gemstack_lsp.gitlog import recent_commits

        return recent_commits(self.root, limit)

    def _plain_real(self, rel: str) -> str | None:
        """The real path of ``rel`` when no folder or file on its way below the root is a
        symlink: the root (resolved when the reader was made) joined with ``rel`` as written,
        which is what resolving it gives. ``None`` when a component is a link, ``..`` or a name
        no file can have: the full resolution decides then.

        One ``lstat`` per component below the root instead of one per component of the whole
        path plus ``pathlib``'s work: the reads of an analysis nearly all take this way.
        """
        if os.sep != "/" or not rel:
            return None
        path = self._root_text
        for part in rel.split("/"):
            if part == "..":
                return None
            path = path + "/" + part
            try:
                st = os.lstat(path)
            except ValueError:
                return None
            except OSError:
                # Missing, or beneath a file: resolving keeps the rest of the path as written.
                return self._root_text + "/" + rel
            if stat.S_ISLNK(st.st_mode):
                return None
        return path

    def _resolve(self, relpath: str) -> tuple[str | Path, FileContent | None]:
        rel = normalize_relpath(relpath)
        plain = self._plain_real(rel)
        if plain is not None:
            return plain, None
        path = self.root / rel if rel else self.root
        try:
            real = path.resolve(strict=False)
        except ValueError:
            # A name no file can have (a lone surrogate or a NUL, from a JSON escape): missing.
            return path, FileContent(rel, ReadStatus.MISSING)
        except (OSError, RuntimeError) as exc:  # symlink loops
            return path, FileContent(rel, ReadStatus.ERROR, detail=str(exc))
        if real != self.root and self.root not in real.parents:
            # A file that is not there is missing, wherever its folder points; only an
            # existing target outside the repository is refused (and never read).
            if not os.path.lexists(real):
                return path, FileContent(rel, ReadStatus.MISSING)
            return path, FileContent(rel, ReadStatus.SYMLINK_OUTSIDE, detail=f"resolves to {real}")
        return real, None

    def read(self, path: str) -> FileContent:
        rel = normalize_relpath(path)
        real, refusal = self._resolve(rel)
        if refusal is not None:
            return refusal
        return self._read_at(real, rel)

    def read_plain(self, path: str) -> FileContent:
        """``read`` of a path its caller has just found (``lstat``) to be a regular file below
        real folders, none a link (``FileStore``'s identity of a file): opened at once, its
        folders not looked at again. The file itself is still never followed (``O_NOFOLLOW``)."""
        rel = normalize_relpath(path)
        if os.sep != "/" or not rel or ".." in rel.split("/"):
            return self.read(rel)
        return self._read_at(self._root_text + "/" + rel, rel)

    def _read_at(self, real: str | Path, rel: str) -> FileContent:
        try:
            fd = os.open(real, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        except (FileNotFoundError, NotADirectoryError):  # a path beneath a file is missing too
            return FileContent(rel, ReadStatus.MISSING)
        except IsADirectoryError:
            return FileContent(rel, ReadStatus.NOT_A_FILE, detail="is a directory")
        except OSError as exc:
            return FileContent(rel, ReadStatus.ERROR, detail=exc.strerror or str(exc))
        except ValueError:
            # A name no file can have (a lone surrogate or a NUL, from a JSON escape) below a
            # folder that is missing: the path was kept as written, and no file has it.
            return FileContent(rel, ReadStatus.MISSING)
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
                return FileContent(rel, ReadStatus.NOT_A_FILE, detail=f"is {kind}")
            if st.st_size > MAX_ANALYSED_BYTES:
                return FileContent(rel, ReadStatus.TOO_LARGE, detail=f"{st.st_size} bytes")
            chunks: list[bytes] = []
            total = 0
            # The size the file has now and one byte more: a read that falls short of what it
            # asked for reached the end of a regular file (one read, not one and an empty one,
            # and no megabyte buffer made for a few kilobytes); a file still growing reads on.
            want = st.st_size + 1
            while True:
                chunk = os.read(fd, want)
                if not chunk:
                    break
                total += len(chunk)
                if total > MAX_ANALYSED_BYTES:
                    return FileContent(rel, ReadStatus.TOO_LARGE, detail=f"more than {MAX_ANALYSED_BYTES} bytes")
                chunks.append(chunk)
                if len(chunk) < want:
                    break
                want = 1 << 20
            return FileContent(rel, ReadStatus.OK, chunks[0] if len(chunks) == 1 else b"".join(chunks))
        except OSError as exc:
            return FileContent(rel, ReadStatus.ERROR, detail=exc.strerror or str(exc))
        finally:
            os.close(fd)

    def list_dir(self, path: str) -> list[DirEntry] | None:
        real, refusal = self._resolve(path)
        if refusal is not None:
            return None
        try:
            with os.scandir(real) as it:
                entries = []
                for e in it:
                    try:
                        entries.append(DirEntry(e.name, e.is_dir(), e.is_file(), e.is_symlink()))
                    except OSError:
                        continue
        except (OSError, ValueError):  # not a folder, gone, refused; a name no folder can have
            return None
        return sorted(entries, key=lambda e: e.name)


#: A folder opened without following a link at its last component.
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
#: The temporary file: created here or not at all, never through a link.
_TMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


class UnsafeWriteError(OSError):
    """A write refused because its path leaves the root or goes through a symlink."""


def write_atomic(path: str | os.PathLike[str], data: bytes, *, root: str | os.PathLike[str] | None = None) -> None:
    """Replace ``path`` with ``data`` atomically, anchored on held directory descriptors.

    Every folder from ``root`` (default: the target's own folder) down to the target's is
    opened relative to the one above it with ``O_DIRECTORY | O_NOFOLLOW``; the temporary file is
    created with ``O_EXCL | O_NOFOLLOW`` relative to the held folder, written, fsynced and renamed
    over the target relative to that same descriptor, and the folder is fsynced. No step resolves
    a path string again, so swapping a folder for a symlink between two steps cannot redirect
    the write: it lands in the folder that was checked, or not at all.

    Refused (``UnsafeWriteError``) when the path leaves ``root``, when any folder on the way or
    the target itself is a symlink, or when the target is not a regular file. The file keeps an
    existing target's permission bits; a new file gets 0666 minus the umask (0644 under 022).
    """
    target = Path(os.path.abspath(path))
    base = Path(os.path.abspath(root)) if root is not None else target.parent
    try:
        parts = target.relative_to(base).parts
    except ValueError:
        raise UnsafeWriteError(f"refusing to write outside {base}: {path}") from None
    if not parts or ".." in parts:
        raise UnsafeWriteError(f"refusing to write outside {base}: {path}")
    dir_fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
    try:
        walked = base
        for name in parts[:-1]:
            walked = walked / name
            child = _open_folder(dir_fd, name, walked)
            os.close(dir_fd)
            dir_fd = child
        _replace_at(dir_fd, parts[-1], target, data)
    finally:
        os.close(dir_fd)


def _open_folder(dir_fd: int, name: str, shown: Path) -> int:
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        if _is_symlink_at(dir_fd, name):
            raise UnsafeWriteError(f"refusing to write through a symlink: {shown}") from None
        raise OSError(exc.errno, f"cannot open folder {shown}: {exc.strerror}") from None


def _is_symlink_at(dir_fd: int, name: str) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _replace_at(dir_fd: int, name: str, shown: Path, data: bytes) -> None:
    try:
        existing: os.stat_result | None = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        existing = None
    if existing is not None and stat.S_ISLNK(existing.st_mode):
        raise UnsafeWriteError(f"refusing to write through a symlink: {shown}")
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        raise UnsafeWriteError(f"refusing to replace what is not a regular file: {shown}")
    tmp = f".{name}.{secrets.token_hex(8)}.tmp"
    # 0666 is narrowed by the umask as any new file's mode is; an existing mode is restored below.
    fd = os.open(tmp, _TMP_FLAGS, 0o666, dir_fd=dir_fd)
    try:
        try:
            if existing is not None:
                os.fchmod(fd, stat.S_IMODE(existing.st_mode))
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.rename(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=dir_fd)
        raise
    os.fsync(dir_fd)


def find_repo_root(path: str | os.PathLike[str]) -> Path | None:
    """The Gemstack repository holding ``path``: the nearest folder, ``path`` itself or an
    ancestor, that contains a ``.gemstack/`` or ``specs/`` folder (``None`` when there is none),
    under the containment rule (``gemstack_lsp.containment``): found where the path is written,
    never through a symlink that leads out of an enclosing repository.

    A file is looked up from its folder. The answer is absolute, with symlinks resolved.
    """
    from gemstack_lsp import containment

    start = os.path.abspath(path)
    if not os.path.isdir(start):
        start = os.path.dirname(start)
    root = containment.owning_root(start)
    return Path(root.real) if root is not None else None
