"""``fs.write_atomic``: anchored on held directory descriptors, never through a link, mode kept or umask honoured."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.fs import write_atomic

#: The os functions a writer may call between its checks and its rename; the race test swaps
#: the folder before each one in turn.
_SYSCALLS = ("open", "stat", "lstat", "fstat", "write", "fsync", "rename", "replace", "close", "fchmod", "mkdir")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "specs" / "f").mkdir(parents=True)
    (root / "specs" / "f" / "spec.md").write_text("# F\n", "utf-8")
    (tmp_path / "outside").mkdir()
    return root


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_writes_replaces_and_leaves_no_temporary_file(repo: Path) -> None:
    target = repo / "specs" / "f" / "context-capsule.json"
    write_atomic(target, b"one", root=repo)
    write_atomic(target, b"two", root=repo)
    assert target.read_bytes() == b"two"
    assert _listing(target.parent) == ["context-capsule.json", "spec.md"]


def test_refuses_a_symlinked_target(repo: Path) -> None:
    outside = repo.parent / "outside" / "capsule.json"
    link = repo / "specs" / "f" / "context-capsule.json"
    link.symlink_to(outside)
    with pytest.raises(OSError, match="refusing to write through a symlink"):
        write_atomic(link, b"x", root=repo)
    assert not outside.exists() and link.is_symlink()


@pytest.mark.parametrize("component", ["specs", "specs/f"])
def test_refuses_a_symlink_anywhere_on_the_path(repo: Path, component: str) -> None:
    real = repo / component
    real.rename(repo.parent / "moved")
    # Even a link that leads back inside the repository is refused: only real folders are walked.
    real.symlink_to(repo.parent / "outside" if component == "specs" else repo / "specs")
    with pytest.raises(OSError, match="refusing to write through a symlink"):
        write_atomic(repo / "specs" / "f" / "context-capsule.json", b"x", root=repo)
    assert _listing(repo.parent / "outside") == []


def test_refuses_a_path_outside_the_root(repo: Path) -> None:
    with pytest.raises(OSError, match="refusing to write outside"):
        write_atomic(repo / ".." / "outside" / "x.json", b"x", root=repo)
    with pytest.raises(OSError, match="refusing to write outside"):
        write_atomic(repo.parent / "outside" / "x.json", b"x", root=repo)
    assert _listing(repo.parent / "outside") == []


class _Swapper:
    """Wraps the os functions; before call number ``at`` it swaps specs/f for an outside symlink."""

    def __init__(self, repo: Path, at: int) -> None:
        self.repo = repo
        self.at = at
        self.calls = 0
        self.swapped = False
        self.real = {name: getattr(os, name) for name in _SYSCALLS}

    def install(self, m: pytest.MonkeyPatch) -> None:
        for name, fn in self.real.items():
            m.setattr(os, name, self._wrap(fn))

    def _wrap(self, real: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if not self.swapped:
                if self.calls == self.at:
                    self.swapped = True
                    feature = self.repo / "specs" / "f"
                    self.real["rename"](feature, self.repo / "specs" / "f.moved")
                    os.symlink(self.repo.parent / "outside", feature)
                self.calls += 1
            return real(*args, **kwargs)

        return wrapper


def test_a_folder_swapped_for_an_outside_symlink_mid_write_never_writes_outside(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = repo.parent / "outside"
    feature, moved = repo / "specs" / "f", repo / "specs" / "f.moved"
    at = 0
    while True:
        if feature.is_symlink():
            feature.unlink()
            moved.rename(feature)
        swapper = _Swapper(repo, at)
        with monkeypatch.context() as m:
            swapper.install(m)
            try:
                write_atomic(feature / "context-capsule.json", b"data", root=repo)
                written = True
            except OSError:  # refused: the swap was seen
                written = False
        assert _listing(outside) == [], f"wrote outside when the folder was swapped before call {at}"
        if written:
            # It landed in the folder that was checked (moved aside by the swap, still inside).
            real = [d for d in (feature, moved) if d.is_dir() and not d.is_symlink()]
            assert [(d / "context-capsule.json").read_bytes() for d in real] == [b"data"]
        if not swapper.swapped:
            break  # the write finished before call number `at`: every gap has been tried
        at += 1
    assert at > 3


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize(("umask", "expected"), [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)])
def test_a_new_file_honours_the_umask(repo: Path, umask: int, expected: int) -> None:
    target = repo / "specs" / "f" / "context-capsule.json"
    old = os.umask(umask)
    try:
        write_atomic(target, b"x", root=repo)
    finally:
        os.umask(old)
    assert _mode(target) == expected


@pytest.mark.parametrize("existing", [0o644, 0o664, 0o600])
def test_rewriting_keeps_the_existing_mode(repo: Path, existing: int) -> None:
    target = repo / "specs" / "f" / "context-capsule.json"
    target.write_bytes(b"old")
    target.chmod(existing)
    old = os.umask(0o077)
    try:
        write_atomic(target, b"new", root=repo)
    finally:
        os.umask(old)
    assert target.read_bytes() == b"new"
    assert _mode(target) == existing


def test_context_generate_creates_0644_and_keeps_it(reference_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gemstack_lsp.cli import main

    capsule = reference_repo / "specs" / "009-context-capsule" / "context-capsule.json"
    old = os.umask(0o022)
    try:
        assert main(["context", "generate", "--target", str(reference_repo)]) == 0
        assert _mode(capsule) == 0o644
        capsule.chmod(0o664)
        (reference_repo / "specs" / "009-context-capsule" / "plan.md").write_text("# Plan\n", "utf-8")
        assert main(["context", "generate", "--target", str(reference_repo)]) == 0
        assert _mode(capsule) == 0o664
    finally:
        os.umask(old)
    capsys.readouterr()
