"""The HEAD and index layers: parsed listings, object kinds, and blob/tree digests via cat-file."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from gemstack_lsp.core.frozen import record
from gemstack_lsp.provenance.canonical import ABSENT_LAYER, Layer
from gemstack_lsp.provenance.errors import ProvenanceError
from gemstack_lsp.provenance.gitcmd import git

_MODE_KINDS = {
    "040000": "directory",
    "100644": "regular",
    "100755": "regular",
    "120000": "symlink",
    "160000": "gitlink",
}


@record
class GitEntry:
    """One listing entry: mode, object ID and (for the index) stage."""

    mode: str
    oid: str
    stage: int = 0


def parse_ls_tree(raw: bytes) -> dict[bytes, GitEntry]:
    """``ls-tree -r -t -z --full-tree``: ``<mode> SP <type> SP <oid> TAB <path> NUL``.

    Keys are the raw path bytes: only names that become evidence are decoded and validated, so
    one odd name elsewhere in HEAD does not block every snapshot."""
    entries: dict[bytes, GitEntry] = {}
    for token in raw.split(b"\0"):
        if not token:
            continue
        header, tab, raw_path = token.partition(b"\t")
        fields = header.split(b" ")
        if not tab or len(fields) != 3:
            raise ProvenanceError("Malformed git ls-tree record")
        entries[raw_path] = GitEntry(fields[0].decode("ascii"), fields[2].decode("ascii"))
    return entries


@record
class IndexListing:
    entries: dict[bytes, GitEntry]
    unmerged: frozenset[bytes]


def parse_ls_files(raw: bytes) -> IndexListing:
    """``ls-files --stage -z``: ``<mode> SP <oid> SP <stage> TAB <path> NUL`` (raw path keys)."""
    entries: dict[bytes, GitEntry] = {}
    unmerged: set[bytes] = set()
    for token in raw.split(b"\0"):
        if not token:
            continue
        header, tab, raw_path = token.partition(b"\t")
        fields = header.split(b" ")
        if not tab or len(fields) != 3:
            raise ProvenanceError("Malformed git ls-files record")
        stage = int(fields[2])
        if raw_path in entries or stage != 0:
            unmerged.add(raw_path)
        entries[raw_path] = GitEntry(fields[0].decode("ascii"), fields[1].decode("ascii"), stage)
    return IndexListing(entries, frozenset(unmerged))


def kind_of(entry: GitEntry) -> str:
    kind = _MODE_KINDS.get(entry.mode)
    if kind is None:
        raise ProvenanceError(f"Unsupported Git object mode: {entry.mode}")
    return kind


def read_objects(root: str, oids: Iterable[str]) -> dict[str, bytes]:
    """Exact object bytes for each object ID, from one ``cat-file --batch`` call."""
    wanted = sorted(set(oids))
    if not wanted:
        return {}
    request = "".join(f"{oid}\n" for oid in wanted).encode("ascii")
    out = git(root, ["cat-file", "--batch", "--buffer"], stdin=request).stdout
    objects: dict[str, bytes] = {}
    position = 0
    for oid in wanted:
        newline = out.find(b"\n", position)
        if newline < 0:
            raise ProvenanceError(f"Cannot read Git object {oid}")
        header = out[position:newline].decode("ascii", errors="replace").split(" ")
        if len(header) != 3 or header[0] != oid:
            raise ProvenanceError(f"Cannot read Git object {oid}")
        size = int(header[2])
        start = newline + 1
        objects[oid] = out[start : start + size]
        position = start + size + 1
    return objects


def digest_layer(kind: str, oid: str, objects: dict[str, bytes]) -> Layer:
    if kind == "gitlink":
        return Layer(kind, "sha256:" + hashlib.sha256(oid.encode("ascii")).hexdigest())
    return Layer(kind, "sha256:" + hashlib.sha256(objects[oid]).hexdigest())


def needed_oid(entry: GitEntry | None) -> str | None:
    if entry is None:
        return None
    return None if kind_of(entry) == "gitlink" else entry.oid


def layer_for(entry: GitEntry | None, objects: dict[str, bytes]) -> Layer:
    if entry is None:
        return ABSENT_LAYER
    return digest_layer(kind_of(entry), entry.oid, objects)
