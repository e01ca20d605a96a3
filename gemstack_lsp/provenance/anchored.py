"""Held no-follow directory descriptors: the platform gate, opening, identity and fsync helpers."""

from __future__ import annotations

import os
import stat
import sys

from gemstack_lsp.provenance.errors import ProvenanceError

DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def require_anchored_platform() -> None:
    """Refuse unless names can be resolved against held directory descriptors (openat family)."""
    supported = (
        hasattr(os, "O_DIRECTORY")
        and hasattr(os, "O_NOFOLLOW")
        and os.open in os.supports_dir_fd
        and os.stat in os.supports_dir_fd
        and os.mkdir in os.supports_dir_fd
        and os.link in os.supports_dir_fd
        and os.rename in os.supports_dir_fd
        and os.unlink in os.supports_dir_fd
        and os.stat in os.supports_follow_symlinks
    )
    if not supported:
        raise ProvenanceError(
            "Safe generated-plan writes require descriptor-relative openat/linkat/renameat with "
            f"O_DIRECTORY/O_NOFOLLOW; {sys.platform} offers neither, so refusing an unanchored write"
        )


def same_object(left: os.stat_result, right: os.stat_result) -> bool:
    return (left.st_dev, left.st_ino, stat.S_IFMT(left.st_mode)) == (
        right.st_dev,
        right.st_ino,
        stat.S_IFMT(right.st_mode),
    )


def same_content_identity(left: os.stat_result, right: os.stat_result) -> bool:
    """Same object and unchanged size, mtime and ctime."""
    return same_object(left, right) and (left.st_size, left.st_mtime_ns, left.st_ctime_ns) == (
        right.st_size,
        right.st_mtime_ns,
        right.st_ctime_ns,
    )


def lstat_at(dir_fd: int, name: str) -> os.stat_result | None:
    """``fstatat(..., AT_SYMLINK_NOFOLLOW)``; None when the name does not exist."""
    try:
        return os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None


def names_held(dir_fd: int, name: str, held_fd: int) -> bool:
    """True when ``name`` under ``dir_fd`` still names the object ``held_fd`` holds."""
    try:
        current = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except OSError:
        return False
    return same_object(current, os.fstat(held_fd))


def fsync_fd(fd: int) -> None:
    os.fsync(fd)


def read_fd(fd: int, limit: int) -> bytes:
    """Read up to ``limit + 1`` bytes from offset 0 of a held descriptor (pread, no seek state)."""
    chunks: list[bytes] = []
    offset = 0
    while offset <= limit:
        chunk = os.pread(fd, min(1 << 20, limit + 1 - offset), offset)
        if not chunk:
            break
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)
