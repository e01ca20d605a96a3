"""The file system, for the CLI and the server: a read-only disk reader and one atomic writer.

The core never imports this module: it receives a ``Reader``. Writing a generated artifact
(the context capsule) goes through ``write_atomic`` and nowhere else.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from gemstack_lsp.core.reader import MAX_ANALYSED_BYTES, DirEntry, FileContent, ReadStatus, normalize_relpath


class DiskReader:
    """Reads a repository's files from disk, never writing and never leaving the root.

    A symlink is followed only when its target lies inside the repository; one that points
    outside, a directory where a file is expected, and a file over ``MAX_ANALYSED_BYTES`` are
    reported through ``FileContent.status`` rather than raised.
    """

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root).resolve()

    def _resolve(self, relpath: str) -> tuple[Path, FileContent | None]:
        rel = normalize_relpath(relpath)
        path = self.root / rel if rel else self.root
        try:
            real = path.resolve(strict=False)
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
        try:
            fd = os.open(real, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        except (FileNotFoundError, NotADirectoryError):  # a path beneath a file is missing too
            return FileContent(rel, ReadStatus.MISSING)
        except IsADirectoryError:
            return FileContent(rel, ReadStatus.NOT_A_FILE, detail="is a directory")
        except OSError as exc:
            return FileContent(rel, ReadStatus.ERROR, detail=exc.strerror or str(exc))
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
                return FileContent(rel, ReadStatus.NOT_A_FILE, detail=f"is {kind}")
            if st.st_size > MAX_ANALYSED_BYTES:
                return FileContent(rel, ReadStatus.TOO_LARGE, detail=f"{st.st_size} bytes")
            chunks: list[bytes] = []
            total = 0
            while True:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                total += len(chunk)
                if total > MAX_ANALYSED_BYTES:
                    return FileContent(rel, ReadStatus.TOO_LARGE, detail=f"more than {MAX_ANALYSED_BYTES} bytes")
                chunks.append(chunk)
            return FileContent(rel, ReadStatus.OK, b"".join(chunks))
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
        except (NotADirectoryError, FileNotFoundError, PermissionError, OSError):
            return None
        return sorted(entries, key=lambda e: e.name)


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically: temp file in the same folder, fsync, rename.

    Refuses to write through a symlink (the final component or its parent folder), so a
    planted link can never redirect a generated artifact outside the repository.
    """
    target = Path(path)
    parent = target.parent
    if parent.is_symlink():
        raise OSError(f"refusing to write through symlinked folder: {parent}")
    if target.is_symlink():
        raise OSError(f"refusing to write through symlink: {target}")
    dir_fd = os.open(parent, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_NOFOLLOW", 0))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.rename(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


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
