"""The session's disk cache serves unchanged files again and never hides a change or a refusal."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gemstack_lsp.core.reader import ReadStatus
from gemstack_lsp.fs import DiskReader
from gemstack_lsp.server import session as session_module
from gemstack_lsp.server.session import CachedDiskReader, Session, is_gemstack_path


@pytest.fixture
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Treat every file as old enough to cache (files written by a test are always recent)."""
    monkeypatch.setattr(session_module, "_RACY_NS", -(10**18))


def _same(cached: CachedDiskReader, disk: DiskReader, rel: str) -> None:
    a, b = cached.read(rel), disk.read(rel)
    assert (a.status, a.data) == (b.status, b.data), rel


def test_cached_reads_follow_every_change(tmp_path: Path, settled: None) -> None:
    root = tmp_path / "repo"
    (root / "specs" / "a").mkdir(parents=True)
    spec = root / "specs" / "a" / "spec.md"
    spec.write_text("one\n", "utf-8")
    cached, disk = CachedDiskReader(str(root)), DiskReader(root)
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
    assert cached.read("specs/a/closure.json").status is ReadStatus.MISSING
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
    cached = CachedDiskReader(str(tmp_path))
    assert cached.read("specs/x.md").data == b"aaaa"
    path.write_text("bbbb", "utf-8")  # same size, possibly the same timestamp tick
    assert cached.read("specs/x.md").data == b"bbbb"


def test_forget_drops_a_cached_file(tmp_path: Path, settled: None) -> None:
    (tmp_path / "specs").mkdir()
    path = tmp_path / "specs" / "x.md"
    path.write_text("aaaa", "utf-8")
    st = path.stat()
    cached = CachedDiskReader(str(tmp_path))
    assert cached.read("specs/x.md").data == b"aaaa"
    path.write_text("bbbb", "utf-8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    cached.forget("specs/x.md")
    assert cached.read("specs/x.md").data == b"bbbb"


def test_settings_per_folder_and_roots(tmp_path: Path) -> None:
    from gemstack_lsp.server.convert import path_to_uri
    from gemstack_lsp.server.settings import Settings

    a, b = tmp_path / "a", tmp_path / "b"
    (a / "specs" / "f").mkdir(parents=True)
    (b / ".gemstack").mkdir(parents=True)
    s = Session()
    s.add_folder(path_to_uri(a))
    s.add_folder(path_to_uri(b))
    assert s.folder_roots() == sorted([str(a.resolve()), str(b.resolve())])
    # A new environment calls for a new analysis; the same settings again do not.
    assert s.configuration.set_effective(path_to_uri(a), Settings(environment="ci")) is True
    assert s.configuration.set_effective(path_to_uri(a), Settings(environment="ci")) is False
    assert s.settings_for(path_to_uri(a / "specs" / "f" / "spec.md")).environment == "ci"
    assert s.settings_for(path_to_uri(b / "x.md")).environment == "development"
    _path, root, rel = s.locate(path_to_uri(a / "specs" / "f" / "spec.md"))
    assert (root, rel) == (str(a.resolve()), "specs/f/spec.md")
    assert s.locate(path_to_uri(tmp_path / "elsewhere.md"))[1] is None
    assert is_gemstack_path("specs/f/plan.md") and is_gemstack_path("cost-ledger.json")
    assert not is_gemstack_path("src/index.js") and not is_gemstack_path("docs/plans/x.md")
