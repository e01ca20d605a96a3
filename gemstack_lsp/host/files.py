"""The inputs of an analysis host: file contents from the disk and from editor buffers.

A ``FileStore`` answers one question, "what does the file at this path hold now?", and
remembers when each answer last changed (the host's revision), so derived data can tell
whether it is still current without reading anything again.

What it keeps is bounded by the repository, never by the number of edits: the current
document of each open buffer (and the one before it, which a snapshot still in flight may
hold), and a bounded number of recently read disk documents. A document it no longer keeps is
read again when asked; nothing else (findings, indexes) needs the text to stay current.

A disk document is served from memory only while ``lstat`` says it is the same regular file
(inode, size, mtime, ctime) and every folder on its path is still a real folder; a missing
file is known missing while its folder is the same settled, real folder (creating an entry
changes the folder's modification time): a symlink
planted in its place, or a folder swapped for a link, is seen on the next read, and the
``DiskReader`` underneath makes every refusal (a link leaving the repository, a directory, a
file too large) again.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping

from gemstack_lsp.core.reader import (
    DirEntry,
    FileContent,
    GitCommit,
    Reader,
    ReadStatus,
    RepositoryState,
    normalize_relpath,
    recent_commits_of,
    repository_state_of,
)
from gemstack_lsp.core.repo import Document, Feature, decode_document
from gemstack_lsp.core.text import SourceText

#: How many disk documents (decoded text and line index) are kept between analyses.
RECENT_DOCUMENTS = 48

#: A file modified this recently may change again within the file system's timestamp
#: granularity without its metadata changing (git's "racily clean" problem): not kept yet.
_RACY_NS = 2_000_000_000

#: The dependency key of a directory listing (a path can never start with NUL).
LISTING = "\0ls:"
#: The dependency key of the repository's version-control state (closure evidence reads it).
REPOSITORY_STATE = "\0git"
#: Git is asked again after this many seconds (commits are not file events a client reports).
REPOSITORY_STATE_TTL = 10.0

StatKey = tuple[int, int, int, int]


def listing_key(directory: str) -> str:
    return LISTING + normalize_relpath(directory)


def buffer_document(rel: str, text: str) -> Document:
    """The document of an editor buffer: the text as the editor holds it."""
    data = text.encode("utf-8", "surrogatepass")
    return Document(rel, FileContent(rel, ReadStatus.OK, data, from_buffer=True), text, SourceText(text))


class FileStore:
    """File contents by repository-relative path: buffers first, then the disk."""

    def __init__(self, disk: Reader, root: str | None = None, *, recent: int = RECENT_DOCUMENTS) -> None:
        self._disk = disk
        self._root = os.path.realpath(root) if root is not None else None
        self._recent_max = recent
        self._buffers: dict[str, Document] = {}
        self._previous: dict[str, Document] = {}
        self._recent: OrderedDict[str, tuple[StatKey | None, Document]] = OrderedDict()
        self._listings: dict[str, tuple[StatKey, list[DirEntry]]] = {}
        #: Path -> what ``lstat`` said when it was last read (``None``: absent or not plain),
        #: for ``sweep``: a small tuple per path ever read.
        self._seen: dict[str, StatKey | None] = {}
        self._repository: tuple[float, RepositoryState] | None = None
        self._commits: tuple[tuple[RepositoryState, int], tuple[GitCommit, ...] | None] | None = None
        #: Path (or listing key) -> the revision at which it last changed (0: never seen change).
        self._changed_at: dict[str, int] = {}
        self._lock = threading.Lock()
        self.disk_reads = 0
        #: The feature list of the last snapshot that built it: (the specs/ listing it was built
        #: from, that listing's names, the features); see ``SnapshotRepo.features``.
        self.features_kept: tuple[list[DirEntry], frozenset[str], list[Feature]] | None = None

    # --- changes -----------------------------------------------------------------------

    def set_buffer(self, rel: str, text: str, revision: int) -> list[str]:
        """Hold ``text`` for ``rel``; returns what changed (nothing when the buffer already held
        exactly that text)."""
        rel = normalize_relpath(rel)
        with self._lock:
            current = self._buffers.get(rel)
            if current is not None and current.text == text:
                return []
            if current is not None:
                self._previous[rel] = current
            self._buffers[rel] = buffer_document(rel, text)
            self._changed_at[rel] = revision
            changed = [rel]
            if current is None:
                changed += self._listings_changed_by(rel, revision)
            return changed

    def remove_buffer(self, rel: str, revision: int) -> list[str]:
        rel = normalize_relpath(rel)
        with self._lock:
            current = self._buffers.pop(rel, None)
            self._previous.pop(rel, None)
            if current is None:
                return []
            self._changed_at[rel] = revision
            return [rel, *self._listings_changed_by(rel, revision)]

    def invalidate(self, rel: str | None, revision: int) -> list[str]:
        """The disk changed at ``rel`` (a file or a folder; ``None``: anywhere). Returns the
        paths and listing keys whose content may differ now."""
        with self._lock:
            if rel is None:
                self._recent.clear()
                self._listings.clear()
                self._seen.clear()
                self._repository = None
                self._commits = None
                changed = list(self._changed_at)
                for key in changed:
                    self._changed_at[key] = revision
                return changed
            rel = normalize_relpath(rel)
            prefix = rel + "/"
            changed = [k for k in self._changed_at if k == rel or k.startswith(prefix)]
            changed += [k for k in self._changed_at if k.startswith(LISTING) and _listing_touched(k, rel)]
            for key in list(self._recent):
                if key == rel or key.startswith(prefix):
                    del self._recent[key]
            for key in [k for k in self._seen if k == rel or k.startswith(prefix)]:
                del self._seen[key]
            parent = rel.rsplit("/", 1)[0] if "/" in rel else ""
            for key in list(self._listings):
                if key in (rel, parent) or key.startswith(prefix):
                    del self._listings[key]
            self._changed_at[rel] = revision
            for key in changed:
                self._changed_at[key] = revision
            return sorted(set(changed) | {rel})

    def _listings_changed_by(self, rel: str, revision: int) -> list[str]:
        """A buffer appeared or went: the listings of the folders above it change where the
        disk does not hold the entry the buffer stands for (a new file not yet saved)."""
        parts = rel.split("/")
        changed = []
        for i in range(len(parts)):
            entry = "/".join(parts[: i + 1])
            if self._root is not None and _lexists(os.path.join(self._root, entry)):
                continue
            key = listing_key("/".join(parts[:i]))
            self._changed_at[key] = revision
            changed.append(key)
        return changed

    # --- reading -----------------------------------------------------------------------

    def changed_at(self, key: str) -> int:
        return self._changed_at.get(key, 0)

    def buffers(self) -> Mapping[str, Document]:
        """The current buffer documents (a copy: a snapshot keeps its own)."""
        with self._lock:
            return dict(self._buffers)

    def buffer_texts(self) -> dict[str, str]:
        with self._lock:
            return {rel: doc.text for rel, doc in self._buffers.items() if doc.text is not None}

    def disk_document(self, rel: str) -> Document:
        """The file at ``rel`` as the disk holds it now."""
        rel = normalize_relpath(rel)
        key = self._stat_key(rel)
        with self._lock:
            hit = self._recent.get(rel)
            if hit is not None and key is not None and hit[0] == key:
                self._recent.move_to_end(rel)
                return hit[1]
        self.disk_reads += 1
        absent = key is not None and key[0] == -1
        read_plain = getattr(self._disk, "read_plain", None)
        if absent and getattr(self._disk, "MISSING_WHEN_ABSENT", False):
            # ``lstat`` found no entry in a real, settled folder with no link on its way: the
            # reader would answer MISSING after looking again (a feature's optional files).
            doc = decode_document(FileContent(rel, ReadStatus.MISSING))
        elif key is not None and not absent and read_plain is not None:
            # A regular file below real folders, as ``lstat`` just found: the reader need not
            # look at the folders again.
            doc = decode_document(read_plain(rel))
        else:
            doc = decode_document(self._disk.read(rel))
        with self._lock:
            self._changed_at.setdefault(rel, 0)
            # Absent a moment ago: what ``lstat`` would say of it again (a file made since then
            # differs, and ``sweep`` reports it).
            self._seen[rel] = (None if absent else key) if key is not None else self._raw_key(rel)
            if hit is not None and hit[1].content == doc.content:
                # Read again because the metadata could not vouch for it (written in the last
                # moments, or behind a link), but it holds what it held: the same document, so
                # what was derived from it is reused.
                doc = hit[1]
            if doc.content.ok or doc.content.status is ReadStatus.MISSING:
                # Kept without a key when the metadata cannot vouch for it: never answered
                # without a read, only compared with the next one.
                self._recent[rel] = (key, doc)
                self._recent.move_to_end(rel)
                while len(self._recent) > self._recent_max:
                    self._recent.popitem(last=False)
            else:
                self._recent.pop(rel, None)
        return doc

    def list_dir(self, rel: str) -> list[DirEntry] | None:
        """The entries of a folder, kept while the folder is the same real, settled folder
        with the same modification time (adding, removing or renaming an entry changes it)."""
        rel = normalize_relpath(rel)
        key = self._dir_key(rel)
        with self._lock:
            self._changed_at.setdefault(listing_key(rel), 0)
            hit = self._listings.get(rel)
            if hit is not None and key is not None and hit[0] == key:
                return hit[1]
        entries = self._disk.list_dir(rel)
        with self._lock:
            if key is not None and entries is not None:
                self._listings[rel] = (key, entries)
            else:
                self._listings.pop(rel, None)
        return entries

    def _dir_key(self, rel: str) -> StatKey | None:
        if self._root is None:
            return None
        full = self._root + "/" + rel if rel else self._root
        try:
            st = os.lstat(full)
        except (OSError, ValueError):  # a name the file system cannot hold (a lone surrogate, NUL)
            return None
        # ``lstat`` found a folder (not a link to one): the folders above it are left to check.
        if not stat.S_ISDIR(st.st_mode) or not _settled(st) or (rel and not self._plain_dirs(rel)):
            return None
        return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)

    def live_texts(self) -> dict[str, set[str]]:
        """Every text the store still holds, with the paths holding it (what the host's memo
        may keep derived data of)."""
        with self._lock:
            docs: Iterable[Document] = [
                *self._buffers.values(),
                *self._previous.values(),
                *(doc for _, doc in self._recent.values()),
            ]
            live: dict[str, set[str]] = {}
            for d in docs:
                if d.text is not None:
                    live.setdefault(d.text, set()).add(d.path)
            return live

    @property
    def kept(self) -> int:
        """How many documents the store holds (buffers, their previous versions, recent reads)."""
        return len(self._buffers) + len(self._previous) + len(self._recent)

    def repository_state(self) -> RepositoryState:
        """The repository's Git state, asked again after ``REPOSITORY_STATE_TTL`` seconds."""
        now = time.monotonic()
        cached = self._repository
        if cached is None or now - cached[0] > REPOSITORY_STATE_TTL:
            cached = self._repository = (now, repository_state_of(self._disk))
            with self._lock:
                self._changed_at.setdefault(REPOSITORY_STATE, 0)
        return cached[1]

    def recent_commits(self, limit: int) -> tuple[GitCommit, ...] | None:
        """The newest commits (memory cross-audit), asked again when Git's state moved (the
        repository state's commit, itself asked again after ``REPOSITORY_STATE_TTL``)."""
        head = self.repository_state()
        cached = self._commits
        if cached is None or cached[0] != (head, limit):
            cached = self._commits = ((head, limit), recent_commits_of(self._disk, limit))
        return cached[1]

    def sweep(self) -> list[str]:
        """The paths read before whose ``lstat`` differs now: for clients that cannot watch
        files, a change made by another tool is found by looking (one ``lstat`` per path).
        The Git state, once asked for, is asked again and reported when it moved."""
        with self._lock:
            seen = list(self._seen.items())
        changed = [rel for rel, key in seen if self._raw_key(rel) != key]
        cached = self._repository
        if cached is not None and time.monotonic() - cached[0] > REPOSITORY_STATE_TTL:
            fresh = repository_state_of(self._disk)
            self._repository = (time.monotonic(), fresh)
            if fresh != cached[1]:
                changed.append(REPOSITORY_STATE)
        return changed

    def _raw_key(self, rel: str) -> StatKey | None:
        if self._root is None:
            return None
        try:
            st = os.lstat(self._root + "/" + rel)
        except (OSError, ValueError):  # a name the file system cannot hold (a lone surrogate, NUL)
            return None
        return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)

    def _stat_key(self, rel: str) -> StatKey | None:
        """The identity of a plain, settled regular file with no link on its path; ``None`` when
        the file must be read again whatever is kept (or kept not at all)."""
        if self._root is None or not rel:
            return None
        full = self._root + "/" + rel
        try:
            st = os.lstat(full)
        except FileNotFoundError:
            return self._absent_key(rel)
        except (OSError, ValueError):  # a name the file system cannot hold (a lone surrogate, NUL)
            return None
        if not stat.S_ISREG(st.st_mode) or not _settled(st) or not self._plain_dirs(rel):
            return None
        return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)

    def _absent_key(self, rel: str) -> StatKey | None:
        """The identity of a file's absence: its folder, a real settled folder, unchanged (adding
        an entry changes the folder's modification time). ``None`` when the folder itself is
        missing or not plain (the absence is then looked at again on every read)."""
        parent = rel.rsplit("/", 1)[0] if "/" in rel else ""
        key = self._dir_key(parent)
        if key is None:
            return None
        return (-1, key[0], key[2], key[3])

    def _plain_dirs(self, rel: str) -> bool:
        """True when every folder between the root and ``rel`` is a real folder, not a link
        (a folder swapped for a link keeps the files' inodes, so their metadata cannot tell)."""
        assert self._root is not None
        path = self._root
        for part in rel.split("/")[:-1]:
            path = path + "/" + part
            try:
                if not stat.S_ISDIR(os.lstat(path).st_mode):
                    return False
            except (OSError, ValueError):  # a name the file system cannot hold (a lone surrogate, NUL)
                return False
        return True


def _listing_touched(key: str, rel: str) -> bool:
    """True when a change at ``rel`` may change the listing ``key`` (its folder or a parent)."""
    directory = key[len(LISTING) :]
    parent = rel.rsplit("/", 1)[0] if "/" in rel else ""
    return directory in (parent, rel) or directory.startswith(rel + "/")


def _lexists(path: str) -> bool:
    try:
        return os.path.lexists(path)
    except ValueError:  # a name the file system cannot hold
        return False


def _settled(st: os.stat_result) -> bool:
    return time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) > _RACY_NS
