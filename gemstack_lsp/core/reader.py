"""How the core sees files: a ``Reader`` it is given, never the file system itself.

Paths handed to a reader are repository-relative POSIX paths (``specs/009-x/spec.md``).
The disk implementation lives in ``gemstack_lsp.fs``; the editor overlays its open buffers
with ``OverlayReader``; tests use ``MemoryReader``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

#: Files larger than this are not read for analysis; they get a finding instead.
MAX_ANALYSED_BYTES = 16 * 1024 * 1024


class ReadStatus(enum.Enum):
    OK = "ok"
    MISSING = "missing"
    NOT_A_FILE = "not-a-file"
    SYMLINK_OUTSIDE = "symlink-outside-repository"
    TOO_LARGE = "too-large"
    ERROR = "error"


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class DirEntry:
    name: str
    is_dir: bool
    is_file: bool
    is_symlink: bool = False


class Reader(Protocol):
    """Read-only access to one repository's files."""

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

    def list_dir(self, path: str) -> list[DirEntry] | None:
        path = normalize_relpath(path)
        base = self._base.list_dir(path)
        extra = _list_from_paths(self._buffers.keys(), path)
        if base is None and extra is None:
            return None
        merged = {e.name: e for e in (extra or [])}
        merged.update({e.name: e for e in (base or [])})
        return [merged[k] for k in sorted(merged)]
