"""Filesystem evidence: anchored no-follow walks, object digests, directory objects v1, guards."""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field

from gemstack_lsp.core.frozen import record
from gemstack_lsp.provenance.canonical import ABSENT_LAYER, DirectoryEntry, Layer, directory_stream
from gemstack_lsp.provenance.errors import ProvenanceError
from gemstack_lsp.provenance.gitcmd import git
from gemstack_lsp.provenance.paths import validate_repo_path

MAX_DIRECTORY_ENTRIES = 10_000
MAX_DIRECTORY_DEPTH = 256
MAX_DIRECTORY_BYTES = 256 * 1024 * 1024
MAX_ANCHORED_DIRECTORIES = 4096
_CACHED_DIRECTORIES = 256
_CHUNK = 1024 * 1024

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


@record
class Identity:
    """What must not change about a filesystem object while it is evidence."""

    dev: int
    ino: int
    mode: int
    size: int
    mtime_ns: int
    ctime_ns: int

    @classmethod
    def of(cls, st: os.stat_result) -> Identity:
        return cls(st.st_dev, st.st_ino, st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns)

    def same_object(self, other: Identity) -> bool:
        return (self.dev, self.ino, stat.S_IFMT(self.mode)) == (
            other.dev,
            other.ino,
            stat.S_IFMT(other.mode),
        )


@record
class Guard:
    """A recheckable observation: ``check`` raises if the world no longer matches it."""

    check: Callable[[], None]


def prove_own_top_level(absolute: str) -> bool:
    """True when ``git rev-parse --show-toplevel`` inside ``absolute`` names ``absolute`` itself."""
    result = git(absolute, ["rev-parse", "--show-toplevel"], allow_failure=True)
    if result.status != 0:
        return False
    try:
        top = os.path.realpath(result.stdout.decode("utf-8").rstrip("\n"), strict=True)
        return top == os.path.realpath(absolute, strict=True)
    except (UnicodeDecodeError, OSError):
        return False


def prove_gitlink(absolute: str) -> str:
    """The nested HEAD object ID of a checked-out, clean, own-root gitlink worktree."""
    if not prove_own_top_level(absolute):
        raise ProvenanceError(f"Gitlink worktree is not its own repository: {absolute}")
    head = git(absolute, ["rev-parse", "--verify", "HEAD"], allow_failure=True)
    if head.status != 0:
        raise ProvenanceError(f"Cannot resolve checked-out gitlink HEAD at {absolute}")
    oid = head.stdout.decode("ascii", errors="replace").strip()
    if not _is_oid(oid):
        raise ProvenanceError(f"Invalid gitlink object ID at {absolute}")
    status = git(
        absolute,
        [
            "status",
            "--porcelain=v2",
            "-z",
            "--untracked-files=all",
            "--ignored=matching",
            "--ignore-submodules=none",
        ],
    ).stdout
    if status:
        raise ProvenanceError(
            f"Checked-out gitlink is dirty at {absolute}; commit or clean staged, unstaged, "
            "untracked, and ignored changes before snapshotting"
        )
    return oid


def _is_oid(text: str) -> bool:
    return 40 <= len(text) <= 64 and all(char in "0123456789abcdef" for char in text)


@dataclass
class _Traversal:
    entries: int = 0
    content_bytes: int = 0


@dataclass
class _Anchor:
    """A held directory descriptor or the proof that a prefix does not exist as a directory."""

    fd: int | None
    missing_at: str | None = None


@dataclass
class Materializer:
    """Reads worktree objects below a held repository-root descriptor and records guards.

    Parent directories are opened component by component with ``O_DIRECTORY | O_NOFOLLOW``
    relative to their held parent. Descriptors of ordinary parents are cached and evicted in
    bulk (so a dirty set spread over many directories never exhausts descriptors); each
    directory's identity is recorded the first time and any reopening must find the same object.
    Only the nearest existing parent of an absent path stays pinned until :meth:`close`."""

    root: str
    guards: list[Guard] = field(default_factory=list)
    _anchors: dict[str, _Anchor] = field(default_factory=dict)
    _identities: dict[str, Identity] = field(default_factory=dict)
    _cached: list[int] = field(default_factory=list)
    _pinned: dict[int, None] = field(default_factory=dict)
    _root_fd: int = -1

    def __post_init__(self) -> None:
        self._root_fd = os.open(self.root, _DIR_FLAGS)
        self._anchors[""] = _Anchor(self._root_fd)
        self._record_directory("", Identity.of(os.fstat(self._root_fd)))

    def close(self) -> None:
        for fd in dict.fromkeys([*self._cached, *self._pinned]):
            os.close(fd)
        self._cached.clear()
        self._pinned.clear()
        if self._root_fd >= 0:
            os.close(self._root_fd)
            self._root_fd = -1

    def absolute(self, path: str) -> str:
        return os.path.join(self.root, path) if path else self.root

    def _changed(self, absolute: str) -> ProvenanceError:
        return ProvenanceError(f"{absolute} changed before evidence materialization completed")

    # -- anchored parents ---------------------------------------------------------------------

    def _evict(self) -> None:
        """Close cached (unpinned) parent descriptors; they are reopened and re-proved on demand."""
        if len(self._cached) < _CACHED_DIRECTORIES:
            return
        for fd in self._cached:
            if fd not in self._pinned:
                os.close(fd)
        self._cached.clear()
        self._anchors = {
            prefix: anchor
            for prefix, anchor in self._anchors.items()
            if anchor.fd is None or anchor.fd == self._root_fd or anchor.fd in self._pinned
        }

    def _anchor(self, prefix: str, full_path: str) -> _Anchor:
        cached = self._anchors.get(prefix)
        if cached is not None:
            return cached
        parent_prefix, _, name = prefix.rpartition("/")
        parent = self._anchor(parent_prefix, full_path)
        if parent.fd is None:
            anchor = _Anchor(None, parent.missing_at)
        else:
            anchor = self._open_child_directory(parent.fd, name, prefix, full_path)
        self._anchors[prefix] = anchor
        return anchor

    def _open_child_directory(self, parent_fd: int, name: str, prefix: str, full_path: str) -> _Anchor:
        absolute = self.absolute(prefix)
        try:
            fd = os.open(name, _DIR_FLAGS, dir_fd=parent_fd)
        except OSError as error:
            if error.errno == errno.ENOENT:
                self._guard_absence(parent_fd, name, absolute, None)
                return _Anchor(None, prefix)
            if error.errno in (errno.ENOTDIR, errno.ELOOP):
                st = os.stat(name, dir_fd=parent_fd, follow_symlinks=False)
                if stat.S_ISLNK(st.st_mode):
                    raise ProvenanceError(f"Refusing to traverse symlink parent for {full_path}") from error
                # A non-directory component: nothing below it can exist while it stays itself.
                self._guard_absence(parent_fd, name, absolute, Identity.of(st))
                return _Anchor(None, prefix)
            raise ProvenanceError(f"Cannot open {absolute}: {error.strerror}") from error
        self._cached.append(fd)
        held = Identity.of(os.fstat(fd))
        recorded = self._identities.get(prefix)
        if recorded is None:
            self._record_directory(prefix, held)
        elif not recorded.same_object(held):
            raise self._changed(absolute)
        return _Anchor(fd)

    def _record_directory(self, prefix: str, held: Identity) -> None:
        """Record a parent directory's identity once; the guard rechecks it lexically."""
        self._identities[prefix] = held
        absolute = self.absolute(prefix)

        def check_directory_identity() -> None:
            try:
                now = Identity.of(os.stat(absolute, follow_symlinks=False))
            except OSError as error:
                raise self._changed(absolute) from error
            if not now.same_object(held):
                raise self._changed(absolute)

        self.guards.append(Guard(check_directory_identity))

    def _guard_absence(self, parent_fd: int, name: str, absolute: str, blocker: Identity | None) -> None:
        """Pin the nearest existing parent and recheck the missing (or non-directory) component."""
        if parent_fd not in self._pinned and parent_fd != self._root_fd:
            if len(self._pinned) >= MAX_ANCHORED_DIRECTORIES:
                raise ProvenanceError(f"Absence anchoring exceeds {MAX_ANCHORED_DIRECTORIES} pinned directories")
            self._pinned[parent_fd] = None

        def check_absence() -> None:
            try:
                now = Identity.of(os.stat(name, dir_fd=parent_fd, follow_symlinks=False))
            except FileNotFoundError:
                if blocker is None:
                    return
                raise self._changed(absolute) from None
            if blocker is None or not now.same_object(blocker) or stat.S_ISDIR(now.mode):
                raise self._changed(absolute)

        self.guards.append(Guard(check_absence))

    # -- objects ------------------------------------------------------------------------------

    def object_layer(self, path: str, *, gitlink: bool = False, embedded_directory: bool = False) -> Layer:
        """The filesystem object at ``path`` as a layer, or the absent layer (anchored)."""
        self._evict()
        parent_prefix, _, name = path.rpartition("/")
        anchor = self._anchor(parent_prefix, path)
        if anchor.fd is None:
            return ABSENT_LAYER
        parent_fd = anchor.fd
        absolute = self.absolute(path)
        try:
            st = os.stat(name, dir_fd=parent_fd, follow_symlinks=False)
        except FileNotFoundError:
            self._guard_absence(parent_fd, name, absolute, None)
            return ABSENT_LAYER
        if embedded_directory and not stat.S_ISDIR(st.st_mode):
            raise ProvenanceError(f"Git reported an embedded directory but found {_kind_word(st)}: {path}")
        if gitlink:
            return self._gitlink(parent_fd, name, absolute, st)
        if stat.S_ISREG(st.st_mode):
            digest = self._regular(parent_fd, name, absolute, st, None)
            return Layer("regular", digest)
        if stat.S_ISLNK(st.st_mode):
            return Layer("symlink", self._symlink(parent_fd, name, absolute))
        if stat.S_ISDIR(st.st_mode):
            fd = self._open_walk_directory(parent_fd, name, absolute)
            try:
                if not Identity.of(os.fstat(fd)).same_object(Identity.of(st)):
                    raise self._changed(absolute)
                digest, _ = self._walk(fd, absolute, 0, _Traversal())
            finally:
                os.close(fd)
            return Layer("directory", digest)
        raise ProvenanceError(f"Unsupported filesystem object at {absolute}")

    def _gitlink(self, parent_fd: int, name: str, absolute: str, st: os.stat_result) -> Layer:
        if not stat.S_ISDIR(st.st_mode):
            raise ProvenanceError(f"Gitlink worktree is not its own repository: {absolute}")
        held = Identity.of(st)
        oid = prove_gitlink(absolute)

        def check_gitlink() -> None:
            try:
                now = Identity.of(os.stat(absolute, follow_symlinks=False))
            except OSError as error:
                raise ProvenanceError(f"{absolute} changed before evidence materialization completed") from error
            if not now.same_object(held) or prove_gitlink(absolute) != oid:
                raise ProvenanceError(f"{absolute} changed before evidence materialization completed")

        self.guards.append(Guard(check_gitlink))
        return Layer("gitlink", "sha256:" + hashlib.sha256(oid.encode("ascii")).hexdigest())

    def _regular(
        self, parent_fd: int, name: str, absolute: str, before: os.stat_result, traversal: _Traversal | None
    ) -> str:
        """Hash a regular file through a no-follow descriptor opened relative to its held parent;
        the guard rechecks its identity lexically (every parent's identity is guarded too)."""
        expected = Identity.of(before)
        try:
            fd = os.open(name, _FILE_FLAGS, dir_fd=parent_fd)
        except OSError as error:
            raise ProvenanceError(f"{absolute} changed before evidence materialization completed") from error
        try:
            opened = Identity.of(os.fstat(fd))
            if opened != expected:
                raise ProvenanceError(f"{absolute} changed before evidence materialization completed")
            digest = hashlib.sha256()
            while True:
                chunk = os.read(fd, _CHUNK)
                if not chunk:
                    break
                if traversal is not None:
                    traversal.content_bytes += len(chunk)
                    if traversal.content_bytes > MAX_DIRECTORY_BYTES:
                        raise ProvenanceError(f"Directory inventory exceeds {MAX_DIRECTORY_BYTES} content bytes")
                digest.update(chunk)
            if Identity.of(os.fstat(fd)) != expected:
                raise ProvenanceError(f"{absolute} changed before evidence materialization completed")
        finally:
            os.close(fd)
        self.guards.append(Guard(lambda: self._check_identity(None, name, absolute, expected)))
        return "sha256:" + digest.hexdigest()

    def _symlink(self, parent_fd: int, name: str, absolute: str) -> str:
        raw = os.fsencode(name)
        before = Identity.of(os.stat(raw, dir_fd=parent_fd, follow_symlinks=False))
        target = os.readlink(raw, dir_fd=parent_fd)
        after = Identity.of(os.stat(raw, dir_fd=parent_fd, follow_symlinks=False))
        if before != after:
            raise ProvenanceError(f"{absolute} changed before evidence materialization completed")

        def check_symlink() -> None:
            self._check_identity(None, name, absolute, after)
            if os.fsencode(os.readlink(absolute)) != target:
                raise ProvenanceError(f"{absolute} changed before evidence materialization completed")

        self.guards.append(Guard(check_symlink))
        return "sha256:" + hashlib.sha256(target).hexdigest()

    @staticmethod
    def _check_identity(parent_fd: int | None, name: str, absolute: str, expected: Identity) -> None:
        """Compare through the held parent, or lexically when the parent is not held (walks)."""
        try:
            if parent_fd is None:
                now = Identity.of(os.stat(absolute, follow_symlinks=False))
            else:
                now = Identity.of(os.stat(name, dir_fd=parent_fd, follow_symlinks=False))
        except OSError as error:
            raise ProvenanceError(f"{absolute} changed before evidence materialization completed") from error
        if now != expected:
            raise ProvenanceError(f"{absolute} changed before evidence materialization completed")

    # -- directory objects v1 -----------------------------------------------------------------

    def _open_walk_directory(self, parent_fd: int, name: str, absolute: str) -> int:
        try:
            return os.open(name, _DIR_FLAGS, dir_fd=parent_fd)
        except OSError as error:
            raise ProvenanceError(f"{absolute} changed before evidence materialization completed") from error

    def _walk(self, fd: int, absolute: str, depth: int, traversal: _Traversal) -> tuple[str, list[DirectoryEntry]]:
        """Digest one directory bottom-up; returns its digest and its flattened entries."""
        if depth > MAX_DIRECTORY_DEPTH:
            raise ProvenanceError(f"Directory inventory exceeds depth {MAX_DIRECTORY_DEPTH}")
        before = Identity.of(os.fstat(fd))
        names: list[tuple[bytes, str]] = []
        for entry_name in os.listdir(fd):
            raw = os.fsencode(entry_name)
            try:
                names.append((raw, raw.decode("utf-8")))
            except UnicodeDecodeError:
                raise ProvenanceError("directory entry name is not valid UTF-8") from None
        names.sort()
        own_repository = any(text == ".git" for _, text in names) and prove_own_top_level(absolute)
        entries: list[DirectoryEntry] = []
        for raw, text in names:
            if own_repository and text == ".git":
                continue
            validate_repo_path(text, "directory entry name")
            child_absolute = os.path.join(absolute, text)
            st = os.stat(raw, dir_fd=fd, follow_symlinks=False)
            traversal.entries += 1
            if traversal.entries > MAX_DIRECTORY_ENTRIES:
                raise ProvenanceError(f"Directory inventory exceeds {MAX_DIRECTORY_ENTRIES} entries")
            if stat.S_ISREG(st.st_mode):
                entries.append(DirectoryEntry(text, "regular", self._regular(fd, text, child_absolute, st, traversal)))
            elif stat.S_ISLNK(st.st_mode):
                entries.append(DirectoryEntry(text, "symlink", self._symlink(fd, text, child_absolute)))
            elif stat.S_ISDIR(st.st_mode):
                child_fd = self._open_walk_directory(fd, text, child_absolute)
                try:
                    if Identity.of(os.fstat(child_fd)) != Identity.of(st):
                        raise ProvenanceError(f"{child_absolute} changed before evidence materialization completed")
                    digest, nested = self._walk(child_fd, child_absolute, depth + 1, traversal)
                finally:
                    os.close(child_fd)
                entries.append(DirectoryEntry(text, "directory", digest))
                entries.extend(DirectoryEntry(f"{text}/{e.path}", e.kind, e.digest) for e in nested)
            else:
                raise ProvenanceError(f"Unsupported filesystem object at {child_absolute}")
        after = Identity.of(os.fstat(fd))
        if before != after:
            raise ProvenanceError(f"{absolute} changed before evidence materialization completed")

        def check_directory() -> None:
            try:
                now = Identity.of(os.stat(absolute, follow_symlinks=False))
            except OSError as error:
                raise ProvenanceError(f"{absolute} changed before evidence materialization completed") from error
            if now != after:
                raise ProvenanceError(f"{absolute} changed before evidence materialization completed")

        self.guards.append(Guard(check_directory))
        entries.sort(key=lambda entry: entry.path.encode("utf-8"))
        digest = "sha256:" + hashlib.sha256(directory_stream(entries)).hexdigest()
        return digest, entries

    def check_guards(self) -> None:
        for guard in self.guards:
            guard.check()


def _kind_word(st: os.stat_result) -> str:
    if stat.S_ISREG(st.st_mode):
        return "regular"
    if stat.S_ISLNK(st.st_mode):
        return "symlink"
    return "unsupported"
