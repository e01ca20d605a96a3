"""The host's file store serves unchanged files again and never hides a change or a refusal."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gemstack_lsp.core.reader import FileContent, ReadStatus
from gemstack_lsp.fs import DiskReader
from gemstack_lsp.host import files as files_module
from gemstack_lsp.host.files import FileStore


@pytest.fixture
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Treat every file as old enough to cache (files written by a test are always recent)."""
    monkeypatch.setattr(files_module, "_RACY_NS", -(10**18))


class _Cached:
    """The store's disk side as a reader (what it serves for a path)."""

    def __init__(self, root: str) -> None:
        self.store = FileStore(DiskReader(root), root)

    def read(self, rel: str) -> FileContent:
        return self.store.disk_document(rel).content

    def forget(self, rel: str) -> None:
        self.store.invalidate(rel, 1)


def _same(cached: _Cached, disk: DiskReader, rel: str) -> None:
    a, b = cached.read(rel), disk.read(rel)
    assert (a.status, a.data) == (b.status, b.data), rel


def test_cached_reads_follow_every_change(tmp_path: Path, settled: None) -> None:
    root = tmp_path / "repo"
    (root / "specs" / "a").mkdir(parents=True)
    spec = root / "specs" / "a" / "spec.md"
    spec.write_text("one\n", "utf-8")
    cached, disk = _Cached(str(root)), DiskReader(root)
    first = cached.read("specs/a/spec.md")
    assert first.ok and cached.read("specs/a/spec.md") is first  # served from the cache
    spec.write_text("two two\n", "utf-8")
    _same(cached, disk, "specs/a/spec.md")
    # Replaced by a symlink leaving the repository: refused, whatever was cached.
    outside = tmp_path / "outside.md"
    outside.write_text("secret\n", "utf-8")
    spec.unlink()
    spec.symlink_to(outside)
    assert cached.read("specs/a/spec.md").status is ReadStatus.SYMLINK_OUTSIDE
    _same(cached, disk, "specs/a/spec.md")
    spec.unlink()
    _same(cached, disk, "specs/a/spec.md")
    # A missing file, cached as missing, then created.
    assert cached.read("specs/a/closure.json").status is ReadStatus.MISSING
    reads = cached.store.disk_reads
    assert cached.read("specs/a/closure.json").status is ReadStatus.MISSING
    assert cached.store.disk_reads == reads  # known missing while its folder is unchanged
    assert cached.store.sweep() == []  # and a sweep does not take the absence for a change
    (root / "specs" / "a" / "closure.json").write_text("{}", "utf-8")
    _same(cached, disk, "specs/a/closure.json")
    # A folder replaced by a symlink leaving the repository: the cache answers as the disk
    # reader does, for missing and existing files alike.
    os.rename(root / "specs" / "a", tmp_path / "moved")
    (root / "specs" / "a").symlink_to(tmp_path / "moved")
    _same(cached, disk, "specs/a/capsule.json")
    _same(cached, disk, "specs/a/closure.json")
    assert cached.read("specs/a/closure.json").status is ReadStatus.SYMLINK_OUTSIDE


def test_recently_written_files_are_not_cached(tmp_path: Path) -> None:
    (tmp_path / "specs").mkdir()
    path = tmp_path / "specs" / "x.md"
    path.write_text("aaaa", "utf-8")
    cached = _Cached(str(tmp_path))
    assert cached.read("specs/x.md").data == b"aaaa"
    path.write_text("bbbb", "utf-8")  # same size, possibly the same timestamp tick
    assert cached.read("specs/x.md").data == b"bbbb"


def test_a_file_read_again_unchanged_is_the_same_document(tmp_path: Path) -> None:
    # Written moments ago, so its metadata cannot vouch for it: every read looks at the disk,
    # but an unchanged content is the document already held (what was derived from it stays).
    (tmp_path / "specs").mkdir()
    path = tmp_path / "specs" / "x.md"
    path.write_text("aaaa", "utf-8")
    store = FileStore(DiskReader(str(tmp_path)), str(tmp_path))
    first = store.disk_document("specs/x.md")
    reads = store.disk_reads
    assert store.disk_document("specs/x.md") is first
    assert store.disk_reads == reads + 1  # read again, not answered from memory
    path.write_text("bbbb", "utf-8")
    changed = store.disk_document("specs/x.md")
    assert changed is not first and changed.text == "bbbb"
    assert store.disk_document("specs/x.md") is changed
    # A refusal is never served from what was held before it.
    path.unlink()
    path.symlink_to(tmp_path / "elsewhere")
    assert store.disk_document("specs/x.md").content.status is not ReadStatus.OK


def test_forget_drops_a_cached_file(tmp_path: Path, settled: None) -> None:
    (tmp_path / "specs").mkdir()
    path = tmp_path / "specs" / "x.md"
    path.write_text("aaaa", "utf-8")
    st = path.stat()
    cached = _Cached(str(tmp_path))
    assert cached.read("specs/x.md").data == b"aaaa"
    path.write_text("bbbb", "utf-8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    cached.forget("specs/x.md")
    assert cached.read("specs/x.md").data == b"bbbb"


def _counting_lstat(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = os.lstat

    def lstat(path: str | os.PathLike[str], *args: object, **kwargs: object) -> os.stat_result:
        seen.append(os.fspath(path))
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "lstat", lstat)
    return seen


def test_a_fresh_read_looks_at_each_folder_once(tmp_path: Path, settled: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store's ``lstat`` of the file and its folders vouches for the read: the reader opens
    the file at once (``DiskReader.read_plain``) instead of looking at every folder again, and
    an absent file is answered from the same looks. What is read is what the reader reads."""
    root = tmp_path / "repo"
    (root / "specs" / "a").mkdir(parents=True)
    (root / "specs" / "a" / "spec.md").write_text("one\n", "utf-8")
    store = FileStore(DiskReader(root), str(root))
    seen = _counting_lstat(monkeypatch)
    doc = store.disk_document("specs/a/spec.md")
    assert doc.content.ok and doc.text == "one\n"
    assert sorted(seen) == sorted(str(root / p) for p in ("specs/a/spec.md", "specs", "specs/a"))
    seen.clear()
    absent = store.disk_document("specs/a/closure.json")
    assert absent.content.status is ReadStatus.MISSING
    assert sorted(seen) == sorted(str(root / p) for p in ("specs/a/closure.json", "specs/a", "specs"))
    assert store.sweep() == []  # and what the looks saw is what a sweep compares with


def test_read_plain_never_follows_the_file(tmp_path: Path) -> None:
    """A file swapped for a link between the store's look and the read is not followed."""
    root = tmp_path / "repo"
    (root / "specs").mkdir(parents=True)
    outside = tmp_path / "outside.md"
    outside.write_text("secret\n", "utf-8")
    (root / "specs" / "spec.md").symlink_to(outside)
    read = DiskReader(root).read_plain("specs/spec.md")
    assert not read.ok and read.data is None
    assert DiskReader(root).read_plain("specs/../specs/spec.md").status is ReadStatus.SYMLINK_OUTSIDE
