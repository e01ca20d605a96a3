"""``read-plan``: load an existing plan through held no-follow descriptors, with a digest receipt."""

from __future__ import annotations

import base64
import errno
import hashlib
import os
import stat

from gemstack_lsp.core.frozen import record
from gemstack_lsp.provenance.anchored import (
    DIR_FLAGS,
    READ_FLAGS,
    names_held,
    read_fd,
    require_anchored_platform,
    same_content_identity,
)
from gemstack_lsp.provenance.errors import ProvenanceError
from gemstack_lsp.provenance.paths import MAX_PLAN_BYTES, validate_read_plan_path
from gemstack_lsp.provenance.repo import resolve_root


@record
class ReadReceipt:
    """The exact bytes of a loaded plan and their digest."""

    generated_plan_path: str
    plan_bytes: bytes

    @property
    def plan_digest(self) -> str:
        return "sha256:" + hashlib.sha256(self.plan_bytes).hexdigest()

    def to_json(self) -> dict[str, object]:
        return {
            "generated_plan_path": self.generated_plan_path,
            "bytes_read": len(self.plan_bytes),
            "plan_digest": self.plan_digest,
            "plan_bytes_base64": base64.b64encode(self.plan_bytes).decode("ascii"),
        }


def _open_parent(parent_fd: int, name: str, prefix: str) -> int:
    try:
        return os.open(name, DIR_FLAGS, dir_fd=parent_fd)
    except FileNotFoundError:
        raise ProvenanceError(f"Loaded-plan parent does not exist: {prefix}") from None
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR):
            raise ProvenanceError(f"Loaded-plan parent is not a real directory: {prefix}") from None
        raise


def read_existing_plan(repo: str, generated_plan_path: str) -> ReadReceipt:
    """Read ``docs/plans/<leaf>`` below the exact Git root without following any symlink."""
    root = resolve_root(repo)
    validate_read_plan_path(generated_plan_path)
    require_anchored_platform()
    parts = generated_plan_path.split("/")
    held: list[int] = []
    try:
        root_fd = os.open(root, DIR_FLAGS)
        held.append(root_fd)
        chain = [root_fd]
        for depth, name in enumerate(parts[:-1]):
            chain.append(_open_parent(chain[-1], name, "/".join(parts[: depth + 1])))
            held.append(chain[-1])
        leaf = parts[-1]
        try:
            fd = os.open(leaf, READ_FLAGS, dir_fd=chain[-1])
        except FileNotFoundError:
            raise ProvenanceError(f"Loaded plan does not exist: {generated_plan_path}") from None
        except OSError as error:
            if error.errno in (errno.ELOOP, errno.ENOTDIR, errno.ENXIO):
                raise ProvenanceError("Loaded plan must be a regular file, never a symlink") from None
            raise
        held.append(fd)
        before = os.fstat(fd)
        if not stat.S_ISREG(before.st_mode):
            raise ProvenanceError("Loaded plan must be a regular file, never a symlink")
        if not names_held(chain[-1], leaf, fd):
            raise ProvenanceError("Loaded plan changed while its no-follow descriptor opened")
        data = read_fd(fd, MAX_PLAN_BYTES)
        if len(data) > MAX_PLAN_BYTES:
            raise ProvenanceError(f"Loaded plan exceeds {MAX_PLAN_BYTES} bytes")
        try:
            data.decode("utf-8", errors="strict")
        except UnicodeDecodeError:
            raise ProvenanceError("loaded plan is not valid UTF-8") from None
        after = os.fstat(fd)
        stable = same_content_identity(before, after) and after.st_size == len(data)
        stable = stable and all(
            names_held(chain[index], parts[index], chain[index + 1]) for index in range(len(parts) - 1)
        )
        stable = stable and names_held(chain[-1], leaf, fd)
        try:
            lexical = os.stat(os.path.join(root, generated_plan_path), follow_symlinks=False)
            stable = stable and same_content_identity(lexical, after)
            stable = stable and os.stat(root, follow_symlinks=False).st_ino == os.fstat(root_fd).st_ino
        except OSError:
            stable = False
        if not stable:
            raise ProvenanceError("Loaded plan changed before its receipt was produced")
        return ReadReceipt(generated_plan_path, data)
    finally:
        for fd in reversed(held):
            os.close(fd)
