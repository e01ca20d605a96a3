"""Contract section "Canonical bytes": the NUL framing, written out by hand."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gemstack_lsp.provenance.canonical import (
    ABSENT_LAYER,
    RECORD_FIELDS,
    DirectoryEntry,
    Layer,
    Record,
    directory_stream,
    dirty_stream,
    global_dirty_digest,
)
from gemstack_lsp.provenance.errors import ProvenanceError

EMPTY_DIRTY_DIGEST = "0a9c85780067d9afcd0764f307b60891e3cee927ee11eaeb5ec7826d10fd82cd"
PREFIX = b"gitnexus-evidence-provenance\x00schema_version\x002\x00\x00"


def _record(path: str, state: str = "unstaged", **layers: Layer) -> Record:
    return Record(
        path=path,
        state=state,
        head=layers.get("head", ABSENT_LAYER),
        index=layers.get("index", ABSENT_LAYER),
        worktree=layers.get("worktree", ABSENT_LAYER),
        untracked=layers.get("untracked", ABSENT_LAYER),
        rename_from=None,
        rename_to=None,
    )


def test_empty_dirty_set_is_the_prefix_alone() -> None:
    assert dirty_stream([]) == PREFIX
    assert global_dirty_digest([]) == EMPTY_DIRTY_DIGEST
    assert hashlib.sha256(PREFIX).hexdigest() == EMPTY_DIRTY_DIGEST


def test_one_record_bytes_by_hand() -> None:
    record = _record("a", "untracked", untracked=Layer("regular", "sha256:" + "0" * 64))
    expected = (
        PREFIX
        + b"record\x00"
        + b"path\x00a\x00"
        + b"state\x00untracked\x00"
        + b"head_kind\x00absent\x00"
        + b"index_kind\x00absent\x00"
        + b"worktree_kind\x00absent\x00"
        + b"untracked_kind\x00regular\x00"
        + b"rename_from\x00absent\x00"
        + b"rename_to\x00absent\x00"
        + b"head_digest\x00absent\x00"
        + b"index_digest\x00absent\x00"
        + b"worktree_digest\x00absent\x00"
        + b"untracked_digest\x00sha256:"
        + b"0" * 64
        + b"\x00"
        + b"\x00"
    )
    assert dirty_stream([record]) == expected
    assert global_dirty_digest([record]) == hashlib.sha256(expected).hexdigest()


def test_rename_metadata_is_absent_literal_never_empty() -> None:
    record = Record("new", "renamed", ABSENT_LAYER, ABSENT_LAYER, ABSENT_LAYER, ABSENT_LAYER, "old", None)
    stream = dirty_stream([record])
    assert b"rename_from\x00old\x00rename_to\x00absent\x00" in stream
    assert b"\x00\x00\x00" not in stream[len(PREFIX) :]


def test_records_sort_by_unsigned_utf8_bytes_not_locale() -> None:
    # "B" (0x42) < "README.md" (0x52) < "a.txt" (0x61) < "é" (0xc3 0xa9) < "😀" (0xf0 ...)
    names = ["😀", "é", "a.txt", "README.md", "B"]
    stream = dirty_stream([_record(name) for name in names])
    positions = [stream.index(b"path\x00" + name.encode() + b"\x00") for name in reversed(names)]
    assert positions == sorted(positions)
    # A code point above the BMP sorts after U+FFFD by bytes, though UTF-16 order would differ.
    assert dirty_stream([_record("\ufffd"), _record("😀")]) == dirty_stream([_record("😀"), _record("\ufffd")])


def test_duplicate_paths_are_rejected() -> None:
    with pytest.raises(ProvenanceError, match="Duplicate normalized path"):
        dirty_stream([_record("a"), _record("a", "staged")])


def test_directory_stream_by_hand() -> None:
    digest = "sha256:" + hashlib.sha256(b"").hexdigest()
    entries = [DirectoryEntry("z", "regular", digest), DirectoryEntry("sub", "directory", "sha256:" + "1" * 64)]
    expected = (
        b"gitnexus-evidence-directory\x00schema_version\x001\x00\x00"
        + b"record\x00path\x00sub\x00kind\x00directory\x00digest\x00sha256:"
        + b"1" * 64
        + b"\x00\x00"
        + b"record\x00path\x00z\x00kind\x00regular\x00digest\x00"
        + digest.encode()
        + b"\x00\x00"
    )
    assert directory_stream(entries) == expected


def test_nul_in_a_value_is_refused() -> None:
    with pytest.raises(ProvenanceError, match="NUL-free"):
        dirty_stream([_record("a\x00b")])


_text = st.text(alphabet=st.characters(codec="utf-8", blacklist_characters="\x00"), max_size=12)
_layers = st.builds(Layer, st.sampled_from(["absent", "regular", "symlink"]), _text)
_records = st.builds(
    Record,
    path=_text.filter(bool),
    state=st.sampled_from(["staged", "mixed", "renamed"]),
    head=_layers,
    index=_layers,
    worktree=_layers,
    untracked=_layers,
    rename_from=st.none() | _text,
    rename_to=st.none() | _text,
)


def _parse(stream: bytes) -> list[tuple[str, ...]]:
    """Read the framing back: the fixed field count plus the extra NULs make this unambiguous."""
    assert stream.startswith(PREFIX)
    tokens = stream[len(PREFIX) :].split(b"\x00")
    rows = []
    position = 0
    while position < len(tokens) - 1:
        assert tokens[position] == b"record"
        pairs = tokens[position + 1 : position + 1 + 24]
        assert [name.decode() for name in pairs[0::2]] == list(RECORD_FIELDS)
        rows.append(tuple(value.decode() for value in pairs[1::2]))
        assert tokens[position + 25] == b""
        position += 26
    return rows


@given(st.lists(_records, max_size=6, unique_by=lambda record: record.path))
def test_framing_round_trips(records: list[Record]) -> None:
    expected = [r.canonical_values() for r in sorted(records, key=lambda r: r.path.encode("utf-8"))]
    assert _parse(dirty_stream(records)) == expected
