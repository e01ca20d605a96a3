"""``write-plan``: publish exact plan bytes by no-replace ``link`` below held directory descriptors.

The temporary file is written in the Git-admin vault and hard-linked into ``docs/plans``, so no
kill at any point leaves a temporary file in the working tree (docs/provenance.md, difference 13).

Every name is resolved relative to a held ``O_DIRECTORY | O_NOFOLLOW`` descriptor (``openat``,
``linkat``, ``renameat``), so a parent renamed or swapped for a symlink between a check and its use
cannot redirect the write. Once temporary bytes exist, any failure preserves every prior,
displaced and intended plan in the Git-admin vault and names each as ``git-path:...``.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import secrets
import stat
from collections.abc import Callable
from dataclasses import dataclass, field

from gemstack_lsp.core.frozen import record
from gemstack_lsp.provenance.anchored import (
    DIR_FLAGS,
    READ_FLAGS,
    fsync_fd,
    lstat_at,
    names_held,
    read_fd,
    require_anchored_platform,
    same_content_identity,
    same_object,
)
from gemstack_lsp.provenance.errors import ProvenanceError
from gemstack_lsp.provenance.paths import MAX_PLAN_BYTES, validate_write_plan_path
from gemstack_lsp.provenance.repo import resolve_git_dir, resolve_root
from gemstack_lsp.provenance.vault import (
    Artifact,
    fresh_name,
    git_path,
    open_vault,
    verify_from_fresh_root,
    write_copy,
)

DIGEST_PATTERN = re.compile(r"sha256:[0-9a-f]{64}")
_READ_ONLY = {errno.EACCES, errno.EPERM, errno.EROFS}
_NO_HARD_LINKS = {errno.EPERM, errno.EMLINK, errno.EOPNOTSUPP, errno.EXDEV}

#: The temporary file of a write, in the vault: ``.gitnexus-plan-<pid>-<32 hex>.tmp``.
TEMP_PREFIX = ".gitnexus-plan-"
TEMP_SUFFIX = ".tmp"
_TEMP_NAME = re.compile(r"\.gitnexus-plan-([0-9]+)-[0-9a-f]{32}\.tmp")

#: The stages at which :class:`WriteHooks.on_stage` is called, in order.
STAGES = ("parents-opened", "temp-written", "before-prior-move", "before-publish", "after-publish")


@record
class WriteHooks:
    """Test-only callbacks. ``on_stage(name)`` runs at each of :data:`STAGES` (replace-only ones
    only with ``--replace``), letting a test race the writer: swap a parent, create the
    destination, edit the prior plan. Production callers pass nothing."""

    on_stage: Callable[[str], None] | None = None

    def fire(self, stage: str) -> None:
        if self.on_stage is not None:
            self.on_stage(stage)


@record
class WriteReceipt:
    generated_plan_path: str
    bytes_written: int
    prior_plan_backup: str | None = None

    def to_json(self) -> dict[str, object]:
        receipt: dict[str, object] = {
            "generated_plan_path": self.generated_plan_path,
            "bytes_written": self.bytes_written,
        }
        if self.prior_plan_backup is not None:
            receipt["prior_plan_backup_git_path"] = git_path(self.prior_plan_backup)
        return receipt


def _sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _os_code(error: OSError) -> str:
    return errno.errorcode.get(error.errno or 0, "EUNKNOWN")


def check_write_request(replace: object, expected_plan_path: object, expected_plan_digest: object) -> None:
    """The flag rules shared by the CLI and the API (literal booleans, exact strings)."""
    if replace is not True and replace is not False:
        raise ProvenanceError("replace must be a literal boolean")
    for name, value in (("expectedPlanPath", expected_plan_path), ("expectedPlanDigest", expected_plan_digest)):
        if value is not None and not isinstance(value, str):
            raise ProvenanceError(f"{name} must be a string from the read-plan receipt")
    if replace and (expected_plan_path is None or expected_plan_digest is None):
        raise ProvenanceError("--replace requires --expected-plan-path and --expected-plan-digest from read-plan")
    if not replace and (expected_plan_path is not None or expected_plan_digest is not None):
        raise ProvenanceError("--expected-plan-path and --expected-plan-digest require --replace")


@dataclass
class _Session:
    """The descriptors and artifacts of one write; closed in ``finally``."""

    repo: str
    plan: str
    data: bytes
    hooks: WriteHooks
    held: list[int] = field(default_factory=list)
    artifacts: list[Artifact] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    root_fd: int = -1
    chain: list[tuple[int, str, int]] = field(default_factory=list)  # (parent fd, name, fd)
    plans_fd: int = -1
    vault_fd: int = -1
    temp_name: str | None = None
    temp_fd: int = -1
    temp_stat: os.stat_result | None = None
    prior_fd: int = -1
    prior_stat: os.stat_result | None = None
    prior_moved: Artifact | None = None

    def hold(self, fd: int) -> int:
        self.held.append(fd)
        return fd

    def close(self) -> None:
        for fd in reversed(self.held):
            os.close(fd)
        self.held.clear()

    # -- parents ----------------------------------------------------------------------------

    def open_parents(self, root: str) -> None:
        self.root_fd = self.hold(os.open(root, DIR_FLAGS))
        parts = self.plan.split("/")
        parent = self.root_fd
        for depth, name in enumerate(parts[:-1]):
            prefix = "/".join(parts[: depth + 1])
            fd = self.hold(self._open_or_create(parent, name, prefix))
            self.chain.append((parent, name, fd))
            parent = fd
        self.plans_fd = parent

    @staticmethod
    def _open_or_create(parent: int, name: str, prefix: str) -> int:
        created = False
        try:
            os.mkdir(name, 0o755, dir_fd=parent)
            created = True
        except FileExistsError:
            pass
        try:
            fd = os.open(name, DIR_FLAGS, dir_fd=parent)
        except OSError as error:
            if error.errno in (errno.ELOOP, errno.ENOTDIR, errno.ENOENT):
                raise ProvenanceError(f"Generated-plan parent is not a real directory: {prefix}") from None
            raise
        if created:
            fsync_fd(fd)
            fsync_fd(parent)
        return fd

    def verify_chain(self, root: str) -> None:
        """The lexical names still identify the held directories (root, docs, docs/plans)."""
        intact = all(names_held(parent, name, fd) for parent, name, fd in self.chain)
        try:
            intact = intact and same_object(os.stat(root, follow_symlinks=False), os.fstat(self.root_fd))
            lexical = os.stat(os.path.join(root, *self.plan.split("/")[:-1]), follow_symlinks=False)
            intact = intact and same_object(lexical, os.fstat(self.plans_fd))
        except OSError:
            intact = False
        if not intact:
            raise ProvenanceError("Generated-plan parent changed during the write; refusing to publish")

    # -- vault ------------------------------------------------------------------------------

    def open_vault(self, root: str) -> None:
        git_dir = resolve_git_dir(root)
        git_fd = self.hold(os.open(git_dir, DIR_FLAGS))
        self.vault_fd = self.hold(open_vault(git_fd))
        if os.fstat(self.vault_fd).st_dev != os.fstat(self.plans_fd).st_dev:
            raise ProvenanceError(
                "Generated-plan parent and Git-admin backup vault must share a filesystem for atomic publication"
            )

    def move_into_vault(self, source_name: str, role: str, held_fd: int, source_fd: int | None = None) -> Artifact:
        """Atomically move ``source_name`` (in the plan parent, or in ``source_fd``) into the vault,
        then prove that the moved object is the one ``held_fd`` holds. Whatever was moved stays in
        the vault."""
        source_fd = self.plans_fd if source_fd is None else source_fd
        name = fresh_name(self.vault_fd, role)
        os.rename(source_name, name, src_dir_fd=source_fd, dst_dir_fd=self.vault_fd)
        if source_fd != self.vault_fd:
            fsync_fd(source_fd)
        fsync_fd(self.vault_fd)
        moved = lstat_at(self.vault_fd, name)
        data = read_fd(held_fd, MAX_PLAN_BYTES)
        artifact = Artifact(role, name, _sha(data))
        if moved is None or not same_object(moved, os.fstat(held_fd)):
            # Something else was moved; it is preserved under this name but is not our object.
            fd = os.open(name, READ_FLAGS, dir_fd=self.vault_fd)
            try:
                other = Artifact(f"displaced-{role}", name, _sha(read_fd(fd, MAX_PLAN_BYTES)))
            finally:
                os.close(fd)
            self.artifacts.append(other)
            raise ProvenanceError(f"Generated-plan {role} changed before it was preserved")
        self.artifacts.append(artifact)
        return artifact

    # -- the temporary file -----------------------------------------------------------------

    def create_temp(self) -> None:
        """Write the new bytes to a fresh temporary file in the vault (not in the plan parent).

        The vault shares the plan parent's filesystem, so publication is still one hard link;
        a writer killed at any point leaves its temporary file in the Git-admin vault, never in
        ``docs/plans``, and the next write removes it (``remove_stale_temps``)."""
        name = f"{TEMP_PREFIX}{os.getpid()}-{secrets.token_hex(16)}{TEMP_SUFFIX}"
        flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        self.temp_fd = self.hold(os.open(name, flags, 0o600, dir_fd=self.vault_fd))
        self.temp_name = name
        view = memoryview(self.data)
        while view:
            view = view[os.write(self.temp_fd, view) :]
        os.fchmod(self.temp_fd, 0o644)
        os.fsync(self.temp_fd)
        self.temp_stat = os.fstat(self.temp_fd)
        self.verify_temp()

    def verify_temp(self) -> None:
        """The temporary name still binds the held inode, with the intended size and digest."""
        assert self.temp_name is not None and self.temp_stat is not None
        bound = lstat_at(self.vault_fd, self.temp_name)
        now = os.fstat(self.temp_fd)
        if (
            bound is None
            or not same_content_identity(bound, self.temp_stat)
            or not same_content_identity(now, self.temp_stat)
            or now.st_size != len(self.data)
            or _sha(read_fd(self.temp_fd, MAX_PLAN_BYTES)) != _sha(self.data)
        ):
            raise ProvenanceError("Generated-plan temporary path or content changed before publication")

    # -- recovery ---------------------------------------------------------------------------

    def preserve_after_failure(self, published: bool) -> None:
        """Keep every intended and prior plan in the vault; record failures rather than raise."""
        intended = _sha(self.data)
        if self.temp_name is not None and not published:
            try:
                if names_held(self.vault_fd, self.temp_name, self.temp_fd):
                    if self._temp_is_complete():
                        self.move_into_vault(self.temp_name, "unpublished-plan", self.temp_fd, self.vault_fd)
                    else:
                        # Cut short (a full disk): not a copy of the plan, so it is removed.
                        os.unlink(self.temp_name, dir_fd=self.vault_fd)
                        self.failures.append("unpublished-plan: the temporary file was incomplete and was removed")
                    self.temp_name = None
            except (OSError, ProvenanceError) as error:
                self.failures.append(f"unpublished-plan: {error}")
        if published or not any(a.digest == intended for a in self.artifacts):
            self._copy("intended-plan", self.data, 0o644)
        if self.prior_fd >= 0 and self.prior_moved is None and self.prior_stat is not None:
            try:
                prior = read_fd(self.prior_fd, MAX_PLAN_BYTES)
            except OSError as error:
                self.failures.append(f"expected-prior-plan: {error}")
            else:
                if not any(a.digest == _sha(prior) for a in self.artifacts):
                    self._copy("expected-prior-plan", prior, stat.S_IMODE(self.prior_stat.st_mode))

    def _temp_is_complete(self) -> bool:
        """True when the held temporary file holds exactly the intended bytes."""
        if self.temp_fd < 0:
            return False
        try:
            return _sha(read_fd(self.temp_fd, MAX_PLAN_BYTES)) == _sha(self.data)
        except OSError:
            return False

    def _copy(self, role: str, data: bytes, mode: int) -> None:
        try:
            self.artifacts.append(write_copy(self.vault_fd, role, data, mode))
        except OSError as error:
            self.failures.append(f"{role}: {error.strerror or error}")

    def verified_summary(self) -> str:
        """The recovery suffix of an error, listing only artifacts re-proved from a fresh root."""
        proved: list[str] = []
        for artifact in self.artifacts:
            try:
                verify_from_fresh_root(self.repo, artifact)
            except (OSError, ProvenanceError) as error:
                self.failures.append(f"{artifact.role}: {error}")
            else:
                proved.append(artifact.describe())
        summary = ""
        if proved:
            summary += "; preserved Git-admin artifacts: " + ", ".join(proved)
        intended = _sha(self.data)
        if not any(a.digest == intended and a.describe() in proved for a in self.artifacts):
            summary += "; the intended plan was not preserved (no copy of it is left in the Git-admin vault)"
        if self.failures:
            summary += "; preservation failures: " + " | ".join(self.failures)
        return summary


def write_generated_plan(
    repo: str,
    generated_plan_path: str,
    data: bytes,
    *,
    replace: bool = False,
    expected_plan_path: str | None = None,
    expected_plan_digest: str | None = None,
    hooks: WriteHooks | None = None,
) -> WriteReceipt:
    """Publish ``data`` at ``generated_plan_path`` (no replace) or, for Deepen, replace the plan
    whose canonical path and digest came from this session's read-plan receipt."""
    check_write_request(replace, expected_plan_path, expected_plan_digest)
    if not isinstance(data, bytes):
        raise ProvenanceError("generated plan must be bytes")
    if len(data) > MAX_PLAN_BYTES:
        raise ProvenanceError(f"Generated plan exceeds {MAX_PLAN_BYTES} bytes")
    if replace and DIGEST_PATTERN.fullmatch(expected_plan_digest or "") is None:
        raise ProvenanceError(
            "expectedPlanDigest from the read-plan receipt must be sha256:<64 lowercase hexadecimal characters>"
        )
    root = resolve_root(repo)
    validate_write_plan_path(generated_plan_path)
    if replace and expected_plan_path != generated_plan_path:
        raise ProvenanceError("expectedPlanPath from the read-plan receipt must exactly match generatedPlanPath")
    try:
        data.decode("utf-8", errors="strict")
    except UnicodeDecodeError:
        raise ProvenanceError("generated plan is not valid UTF-8") from None
    require_anchored_platform()
    session = _Session(repo, generated_plan_path, data, hooks or WriteHooks())
    try:
        return _write(session, root, replace, expected_plan_digest)
    except OSError as error:
        code = _os_code(error)
        if error.errno in _READ_ONLY:
            raise ProvenanceError(
                f"Cannot safely write generated plan: checkout is read-only or its parent is not writable ({code})"
            ) from error
        raise ProvenanceError(f"{code}: {error.strerror or error}") from error
    finally:
        session.close()


def _write(session: _Session, root: str, replace: bool, expected_digest: str | None) -> WriteReceipt:
    leaf = session.plan.rsplit("/", 1)[1]
    session.open_parents(root)
    session.open_vault(root)
    remove_stale_temps(session.vault_fd)
    existing = lstat_at(session.plans_fd, leaf)
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        raise ProvenanceError("Generated-plan destination must be a regular file, never a symlink")
    if existing is not None and not replace:
        raise ProvenanceError("Generated plan already exists; use --replace only for Deepen mode")
    if existing is None and replace:
        raise ProvenanceError("Deepen mode requires an existing generated plan to replace")
    if replace:
        try:
            session.prior_fd = session.hold(os.open(leaf, READ_FLAGS, dir_fd=session.plans_fd))
        except OSError as error:
            if error.errno in (errno.ELOOP, errno.ENXIO):
                raise ProvenanceError("Generated-plan destination must be a regular file, never a symlink") from None
            raise
        session.prior_stat = os.fstat(session.prior_fd)
        assert existing is not None
        if not stat.S_ISREG(session.prior_stat.st_mode) or not same_object(session.prior_stat, existing):
            raise ProvenanceError("Generated-plan destination changed while its no-follow descriptor opened")
    session.hooks.fire("parents-opened")
    try:
        session.create_temp()
    except OSError as error:
        if session.temp_name is None:
            raise  # no bytes exist yet: nothing to preserve
        return _fail(session, error, published=False)
    published = False
    try:
        session.hooks.fire("temp-written")
        if replace:
            session.hooks.fire("before-prior-move")
            _preserve_prior(session, leaf, expected_digest or "")
        session.verify_chain(root)
        session.verify_temp()
        session.hooks.fire("before-publish")
        _publish(session, leaf)
        published = True
        assert session.temp_name is not None
        try:
            os.unlink(session.temp_name, dir_fd=session.vault_fd)
            session.temp_name = None
        except OSError:
            pass  # The plan is published; a leftover temporary name in the vault is not a failure.
        fsync_fd(session.plans_fd)
        fsync_fd(session.vault_fd)
        session.hooks.fire("after-publish")
        _verify_published(session, root, leaf)
    except (OSError, ProvenanceError) as error:
        return _fail(session, error, published=published)
    backup = session.prior_moved.name if session.prior_moved is not None else None
    return WriteReceipt(session.plan, len(session.data), backup)


def remove_stale_temps(vault_fd: int) -> list[str]:
    """Unlink the temporary files that writers killed mid-write left in the vault; their names.

    A name is stale when the process id it carries no longer runs (a live writer's, or one
    whose id was reused, is left alone). A temporary file is never a recovery artifact: those
    are the ``.bak`` files, which are kept. A published plan that was still linked to its
    temporary name loses only that second name.
    """
    removed: list[str] = []
    try:
        names = os.listdir(vault_fd)
    except OSError:
        return removed
    for name in names:
        match = _TEMP_NAME.fullmatch(name)
        if match is None or _running(int(match.group(1))):
            continue
        st = lstat_at(vault_fd, name)
        if st is None or not stat.S_ISREG(st.st_mode):
            continue
        try:
            os.unlink(name, dir_fd=vault_fd)
        except OSError:
            continue
        removed.append(name)
    if removed:
        fsync_fd(vault_fd)
    return removed


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # another user's process, or an id we cannot ask about: leave it
    return True


def _preserve_prior(session: _Session, leaf: str, expected_digest: str) -> None:
    assert session.prior_stat is not None
    current = os.fstat(session.prior_fd)
    bound = lstat_at(session.plans_fd, leaf)
    if (
        _sha(read_fd(session.prior_fd, MAX_PLAN_BYTES)) != expected_digest
        or not same_content_identity(current, session.prior_stat)
        or bound is None
        or not same_content_identity(bound, session.prior_stat)
    ):
        raise ProvenanceError("Generated plan no longer matches the exact digest from the read-plan receipt")
    session.prior_moved = session.move_into_vault(leaf, "prior-plan", session.prior_fd)
    if session.prior_moved.digest != expected_digest:
        raise ProvenanceError("Generated plan no longer matches the exact digest from the read-plan receipt")


def _publish(session: _Session, leaf: str) -> None:
    assert session.temp_name is not None
    try:
        os.link(
            session.temp_name,
            leaf,
            src_dir_fd=session.vault_fd,
            dst_dir_fd=session.plans_fd,
            follow_symlinks=False,
        )
    except FileExistsError:
        if session.prior_moved is not None:
            raise ProvenanceError(
                "Generated-plan destination reappeared before publication; it was left untouched"
            ) from None
        raise ProvenanceError("Generated plan already exists; use --replace only for Deepen mode") from None
    except OSError as error:
        if error.errno in _NO_HARD_LINKS:
            raise ProvenanceError(
                f"Generated-plan publication requires hard links, which this filesystem refused "
                f"({_os_code(error)}); refusing to fall back to a replacing rename"
            ) from None
        raise


def _verify_published(session: _Session, root: str, leaf: str) -> None:
    assert session.temp_stat is not None
    fd = os.open(leaf, READ_FLAGS, dir_fd=session.plans_fd)
    try:
        bound = os.fstat(fd)
        intended = _sha(session.data)
        ok = same_object(bound, session.temp_stat) and bound.st_size == len(session.data)
        ok = ok and _sha(read_fd(fd, MAX_PLAN_BYTES)) == intended
        ok = ok and _sha(read_fd(session.temp_fd, MAX_PLAN_BYTES)) == intended
        ok = ok and names_held(session.plans_fd, leaf, fd)
    finally:
        os.close(fd)
    session.verify_chain(root)
    if not ok:
        raise ProvenanceError("Published generated plan changed before verification completed")


def _fail(session: _Session, error: BaseException, *, published: bool) -> WriteReceipt:
    if isinstance(error, ProvenanceError):
        message = error.message
    elif isinstance(error, OSError) and error.errno in _READ_ONLY:
        message = (
            "Cannot safely write generated plan: checkout is read-only or its parent is not "
            f"writable ({_os_code(error)})"
        )
    elif isinstance(error, OSError):
        message = f"{_os_code(error)}: {error.strerror or error}"
    else:
        message = str(error)
    session.preserve_after_failure(published)
    raise ProvenanceError(message + session.verified_summary()) from error
