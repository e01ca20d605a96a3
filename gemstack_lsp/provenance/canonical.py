"""The NUL-framed canonical byte streams: the global dirty digest and directory objects v1."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterable, Sequence

from gemstack_lsp.core.frozen import record
from gemstack_lsp.provenance.errors import ProvenanceError

ABSENT = "absent"
CANONICALIZATION = "gitnexus-evidence-provenance-v2 NUL-framed UTF-8 records"
PROVENANCE_PREFIX = ("gitnexus-evidence-provenance", "schema_version", "2")
DIRECTORY_PREFIX = ("gitnexus-evidence-directory", "schema_version", "1")
RECORD_FIELDS = (
    "path",
    "state",
    "head_kind",
    "index_kind",
    "worktree_kind",
    "untracked_kind",
    "rename_from",
    "rename_to",
    "head_digest",
    "index_digest",
    "worktree_digest",
    "untracked_digest",
)
DIRECTORY_FIELDS = ("path", "kind", "digest")


@record
class Layer:
    """One object layer (HEAD, index, worktree or untracked): its kind and digest."""

    kind: str = ABSENT
    digest: str = ABSENT


ABSENT_LAYER = Layer()


@record
class Record:
    """One canonical record: a dirty path or a cited path with its four layers."""

    path: str
    state: str
    head: Layer
    index: Layer
    worktree: Layer
    untracked: Layer
    rename_from: str | None
    rename_to: str | None

    def canonical_values(self) -> tuple[str, ...]:
        return (
            self.path,
            self.state,
            self.head.kind,
            self.index.kind,
            self.worktree.kind,
            self.untracked.kind,
            self.rename_from if self.rename_from is not None else ABSENT,
            self.rename_to if self.rename_to is not None else ABSENT,
            self.head.digest,
            self.index.digest,
            self.worktree.digest,
            self.untracked.digest,
        )

    def manifest_entry(self) -> dict[str, object]:
        """The JSON manifest entry, keys in the reference's order (rename endpoints as null)."""
        return {
            "path": self.path,
            "object_kind": {
                "head": self.head.kind,
                "index": self.index.kind,
                "worktree": self.worktree.kind,
                "untracked": self.untracked.kind,
            },
            "state": self.state,
            "rename_from": self.rename_from,
            "rename_to": self.rename_to,
            "head_digest": self.head.digest,
            "index_digest": self.index.digest,
            "worktree_digest": self.worktree.digest,
            "untracked_digest": self.untracked.digest,
        }


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def frame(prefix: Sequence[str], fields: Sequence[str], rows: Iterable[Sequence[str]]) -> bytes:
    """Serialize prefix fields and rows of field values with the contract's NUL framing."""
    pieces: list[str] = []
    for value in prefix:
        pieces += (value, "\0")
    pieces.append("\0")
    for row in rows:
        pieces.append("record\0")
        for name, value in zip(fields, row, strict=True):
            if "\0" in value:
                raise ProvenanceError("Canonical provenance fields must be NUL-free strings")
            pieces += (name, "\0", value, "\0")
        pieces.append("\0")
    return "".join(pieces).encode("utf-8")


def dirty_stream(records: Iterable[Record]) -> bytes:
    """The global dirty digest's byte stream; records are sorted here by UTF-8 path bytes."""
    ordered = sorted(records, key=lambda record: record.path.encode("utf-8"))
    for left, right in itertools.pairwise(ordered):
        if left.path == right.path:
            raise ProvenanceError(f"Duplicate normalized path in evidence: {left.path}")
    return frame(PROVENANCE_PREFIX, RECORD_FIELDS, (record.canonical_values() for record in ordered))


def global_dirty_digest(records: Iterable[Record]) -> str:
    """Lowercase SHA-256 hex (no prefix) of the dirty stream."""
    return sha256_hex(dirty_stream(records))


@record
class DirectoryEntry:
    """One flattened entry of a directory object, path relative to that directory."""

    path: str
    kind: str
    digest: str


def directory_stream(entries: Iterable[DirectoryEntry]) -> bytes:
    ordered = sorted(entries, key=lambda entry: entry.path.encode("utf-8"))
    return frame(DIRECTORY_PREFIX, DIRECTORY_FIELDS, ((e.path, e.kind, e.digest) for e in ordered))
