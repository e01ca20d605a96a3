"""The Git-admin backup vault: ``<git-dir>/gitnexus-plan-backups``, its artifacts and their proofs."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import secrets

from gemstack_lsp.core.frozen import record
from gemstack_lsp.provenance.anchored import DIR_FLAGS, READ_FLAGS, fsync_fd, lstat_at, read_fd
from gemstack_lsp.provenance.errors import ProvenanceError
from gemstack_lsp.provenance.paths import MAX_PLAN_BYTES
from gemstack_lsp.provenance.repo import resolve_git_dir, resolve_root

VAULT_NAME = "gitnexus-plan-backups"


def artifact_name(role: str) -> str:
    """A fresh random vault name for an artifact of ``role`` (e.g. ``prior-plan``)."""
    return f".gitnexus-plan-{role}-{os.getpid()}-{secrets.token_hex(16)}.bak"


def git_path(name: str) -> str:
    """The value for ``git rev-parse --git-path``; never a working-tree path."""
    return f"{VAULT_NAME}/{name}"


@record
class Artifact:
    role: str
    name: str
    digest: str

    def describe(self) -> str:
        return f"{self.role}=git-path:{git_path(self.name)}"


def open_vault(git_dir_fd: int) -> int:
    """Open (creating with mode 0700, fsynced into the Git dir) the vault below a held Git dir."""
    created = False
    try:
        os.mkdir(VAULT_NAME, 0o700, dir_fd=git_dir_fd)
        created = True
    except FileExistsError:
        pass
    try:
        fd = os.open(VAULT_NAME, DIR_FLAGS, dir_fd=git_dir_fd)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR):
            raise ProvenanceError("Git-admin backup vault is not a real directory") from None
        raise
    os.fchmod(fd, 0o700)
    if created:
        fsync_fd(fd)
        fsync_fd(git_dir_fd)
    return fd


def fresh_name(vault_fd: int, role: str) -> str:
    """A random name that does not exist in the vault right now."""
    while True:
        name = artifact_name(role)
        if lstat_at(vault_fd, name) is None:
            return name


def write_copy(vault_fd: int, role: str, data: bytes, mode: int = 0o644) -> Artifact:
    """Write ``data`` as a new exclusive vault file, fsync it and the vault."""
    name = fresh_name(vault_fd, role)
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=vault_fd)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fchmod(fd, mode & 0o777)
        os.fsync(fd)
    except BaseException:
        # A copy that could not be completed (a full disk) is not a copy: never leave an empty
        # or truncated file that a reader could take for the plan.
        with contextlib.suppress(OSError):
            os.unlink(name, dir_fd=vault_fd)
        raise
    finally:
        os.close(fd)
    fsync_fd(vault_fd)
    return Artifact(role, name, "sha256:" + hashlib.sha256(data).hexdigest())


def verify_from_fresh_root(repo: str, artifact: Artifact) -> None:
    """Reopen an artifact through a freshly resolved Git root and prove its digest."""
    git_dir = resolve_git_dir(resolve_root(repo))
    git_fd = os.open(git_dir, DIR_FLAGS)
    try:
        vault_fd = os.open(VAULT_NAME, DIR_FLAGS, dir_fd=git_fd)
        try:
            fd = os.open(artifact.name, READ_FLAGS, dir_fd=vault_fd)
            try:
                data = read_fd(fd, MAX_PLAN_BYTES)
            finally:
                os.close(fd)
        finally:
            os.close(vault_fd)
    finally:
        os.close(git_fd)
    if "sha256:" + hashlib.sha256(data).hexdigest() != artifact.digest:
        raise ProvenanceError(f"Git-admin artifact changed before fresh-root verification: {git_path(artifact.name)}")
