"""Readers: memory, overlay of editor buffers, and the disk reader's refusals."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gemstack_lsp.core import reader as reader_mod
from gemstack_lsp.core.reader import MemoryReader, OverlayReader, ReadStatus, normalize_relpath
from gemstack_lsp.fs import DiskReader, write_atomic


@pytest.mark.parametrize(
    ("raw", "norm"),
    [
        ("./specs/x/spec.md", "specs/x/spec.md"),
        ("specs\\x\\plan.md", "specs/x/plan.md"),
        ("a//b/", "a/b"),
        ("", ""),
    ],
)
def test_normalize_relpath(raw: str, norm: str) -> None:
    assert normalize_relpath(raw) == norm


def test_memory_reader_reads_lists_and_reports_missing() -> None:
    r = MemoryReader({"specs/a/spec.md": "# A", "specs/b/plan.md": b"x", "top.json": "{}"})
    assert r.read("specs/a/spec.md").data == b"# A"
    assert r.read("specs/zz.md").status is ReadStatus.MISSING
    assert r.read("specs/a").status is ReadStatus.NOT_A_FILE
    names = [(e.name, e.is_dir) for e in r.list_dir("specs") or []]
    assert names == [("a", True), ("b", True)]
    assert r.list_dir("nope") is None


def test_overlay_prefers_buffers_and_adds_unsaved_files() -> None:
    base = MemoryReader({"specs/a/spec.md": "disk"})
    ov = OverlayReader(base, {"specs/a/spec.md": "buffer ≠", "specs/a/plan.md": "new"})
    got = ov.read("specs/a/spec.md")
    assert got.data == "buffer ≠".encode() and got.from_buffer
    assert [e.name for e in ov.list_dir("specs/a") or []] == ["plan.md", "spec.md"]


def test_disk_reader_reads_and_refuses(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "specs" / "a").mkdir(parents=True)
    (root / "specs" / "a" / "spec.md").write_text("# A\n", "utf-8")
    outside = tmp_path / "secret.txt"
    outside.write_text("nope", "utf-8")
    (root / "specs" / "a" / "plan.md").symlink_to(outside)
    (root / "specs" / "a" / "tasks.md").symlink_to(root / "specs" / "a" / "spec.md")
    r = DiskReader(root)
    assert r.read("specs/a/spec.md").data == b"# A\n"
    assert r.read("specs/a/plan.md").status is ReadStatus.SYMLINK_OUTSIDE
    assert r.read("specs/a/tasks.md").data == b"# A\n"  # a link inside the repository is followed
    assert r.read("specs/a").status is ReadStatus.NOT_A_FILE
    assert r.read("specs/missing.md").status is ReadStatus.MISSING
    assert r.read("../secret.txt").status is ReadStatus.SYMLINK_OUTSIDE
    assert [e.name for e in r.list_dir("specs/a") or []] == ["plan.md", "spec.md", "tasks.md"]


def test_disk_reader_refuses_files_over_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("gemstack_lsp.fs.MAX_ANALYSED_BYTES", 10)
    (tmp_path / "big.md").write_bytes(b"x" * 11)
    assert DiskReader(tmp_path).read("big.md").status is ReadStatus.TOO_LARGE
    assert reader_mod.MAX_ANALYSED_BYTES == 16 * 1024 * 1024


def test_disk_reader_does_not_block_on_a_fifo(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.md")
    assert DiskReader(tmp_path).read("pipe.md").status is ReadStatus.NOT_A_FILE


def test_write_atomic_replaces_and_refuses_symlinks(tmp_path: Path) -> None:
    target = tmp_path / "capsule.json"
    write_atomic(target, b"one")
    write_atomic(target, b"two")
    assert target.read_bytes() == b"two"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["capsule.json"]
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "elsewhere.json")
    with pytest.raises(OSError, match="symlink"):
        write_atomic(link, b"x")
    assert not (tmp_path / "elsewhere.json").exists()


@pytest.mark.parametrize("reported", [0, 3, 9, 10, 11, 4096])
def test_a_read_takes_the_whole_file_whatever_size_it_was_said_to_have(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reported: int
) -> None:
    """A read asks for the size ``fstat`` gave and one byte more; a file that grew since (its
    size said smaller) reads on to its end, and one that grew past the limit is refused."""
    import gemstack_lsp.fs as fs_mod

    (tmp_path / "grows.md").write_bytes(b"0123456789")
    real_fstat = os.fstat

    def fstat(fd: int) -> os.stat_result:
        st = real_fstat(fd)
        return os.stat_result((*st[:6], reported, *st[7:]))

    monkeypatch.setattr(fs_mod.os, "fstat", fstat)
    read = DiskReader(tmp_path).read("grows.md")
    assert read.ok and read.data == b"0123456789"
    monkeypatch.setattr(fs_mod, "MAX_ANALYSED_BYTES", 5)
    if reported <= 5:
        assert DiskReader(tmp_path).read("grows.md").status is ReadStatus.TOO_LARGE


@pytest.mark.parametrize("rel", ["missing/\ud800", "\U00010000/\ud800.md", "a/b\x00c", "missing/x/\udc80/y.md"])
def test_a_name_no_file_can_have_below_a_missing_folder_is_missing(tmp_path: Path, rel: str) -> None:
    """A path from a JSON escape (a lone surrogate, a NUL) below a folder that does not exist is
    kept as written by the reader's fast way: reading it or listing it finds nothing, and
    raises nothing (it used to raise UnicodeEncodeError out of os.open and os.scandir)."""
    reader = DiskReader(tmp_path)
    assert reader.read(rel).status is ReadStatus.MISSING
    assert reader.list_dir(rel) is None
