"""Contract section "Records, renames, and states": porcelain v2 parsing and fact merging."""

from __future__ import annotations

import pytest

from gemstack_lsp.provenance.errors import ProvenanceError
from gemstack_lsp.provenance.status import classify_xy, merge_facts, parse_status

H = "100644 100644 100644 " + "a" * 40 + " " + "b" * 40


@pytest.mark.parametrize(
    ("xy", "state"),
    [
        (".M", "unstaged"),
        ("M.", "staged"),
        ("A.", "staged"),
        ("MM", "mixed"),
        ("AD", "mixed"),
        (".D", "deleted"),
        ("D.", "deleted"),
        (".T", "unstaged"),
        ("R.", "staged"),
    ],
)
def test_classify_xy(xy: str, state: str) -> None:
    assert classify_xy(xy) == state


@pytest.mark.parametrize("xy", ["UU", ".U", "AU"])
def test_unmerged_xy_is_refused(xy: str) -> None:
    with pytest.raises(ProvenanceError, match=r"^Unmerged paths cannot be canonicalized; resolve the index first$"):
        classify_xy(xy)


def test_unknown_xy_is_refused() -> None:
    with pytest.raises(ProvenanceError) as caught:
        classify_xy(".X")
    assert caught.value.message == "Unsupported Git XY status: .X"


def test_rename_gives_two_endpoint_facts() -> None:
    raw = f"2 R. N... {H} R100 new name\x00old name\x00".encode()
    facts = merge_facts(parse_status(raw))
    assert facts["old name"].state == "renamed"
    assert (facts["old name"].rename_from, facts["old name"].rename_to) == (None, "new name")
    assert facts["new name"].state == "renamed"
    assert (facts["new name"].rename_from, facts["new name"].rename_to) == ("old name", None)


def test_worktree_dirty_rename_destination_is_mixed() -> None:
    facts = merge_facts(parse_status(f"2 RM N... {H} R90 b\x00a\x00".encode()))
    assert facts["b"].state == "mixed"
    assert facts["b"].rename_from == "a"
    assert facts["a"].state == "renamed"


def test_deleted_plus_untracked_merges_to_mixed() -> None:
    raw = f"1 D. N... {H} f\x00? f\x00".encode()
    fact = merge_facts(parse_status(raw))["f"]
    assert fact.state == "mixed"
    assert fact.untracked


def test_embedded_directory_marker_drops_the_slash() -> None:
    fact = merge_facts(parse_status(b"? child/\x00"))["child"]
    assert fact.embedded_directory and fact.state == "untracked"


def test_path_with_spaces_and_newline_survives_header_split() -> None:
    facts = merge_facts(parse_status(f"1 .M N... {H} a b\nc\x00".encode()))
    assert list(facts) == ["a b\nc"]


def test_ignored_records_are_skipped_and_others_refused() -> None:
    assert parse_status(b"! ignored\x00") == []
    with pytest.raises(ProvenanceError, match=r"^Unmerged paths"):
        parse_status(b"u UU N... 100644 100644 100644 100644 x y z p\x00")
    with pytest.raises(ProvenanceError) as caught:
        parse_status(b"# branch.oid x\x00")
    assert caught.value.message == "Unsupported porcelain-v2 record kind: #"


def test_conflicting_rename_facts() -> None:
    raw = f"2 R. N... {H} R100 x\x00a\x002 R. N... {H} R100 x\x00b\x00".encode()
    with pytest.raises(ProvenanceError) as caught:
        merge_facts(parse_status(raw))
    assert caught.value.message == 'Conflicting rename_from facts for "x"'


def test_invalid_utf8_and_non_nfc_status_paths() -> None:
    with pytest.raises(ProvenanceError, match=r"^git status path is not valid UTF-8$"):
        parse_status(f"1 .M N... {H} ".encode() + b"\xff\x00")
    with pytest.raises(ProvenanceError, match=r"^untracked path must already be Unicode NFC$"):
        parse_status("? e\u0301\x00".encode())
