"""The plan writer on a full disk: the complete plan bytes in the vault, or nothing, and the
message says which (a small tmpfs, so the disk really fills)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
PLAN = "docs/plans/2026-12-03-gitnexus-plan-fills-the-disk.md"
VAULT = ".git/gitnexus-plan-backups"


def _repo(root: Path) -> None:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    root.mkdir()
    (root / "docs" / "plans").mkdir(parents=True)
    (root / "README.md").write_text("x\n")
    for args in (
        ["init", "-q", "."],
        ["add", "-A"],
        ["-c", "user.email=a@b.c", "-c", "user.name=a", "commit", "-qm", "i"],
    ):
        subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)


def _fill(mount: Path, leave: int) -> None:
    """Fill the tmpfs until about ``leave`` bytes are free."""
    filler = mount / "filler"
    with filler.open("wb", buffering=0) as handle, contextlib.suppress(OSError):
        while True:
            handle.write(b"\0" * 4096)
            handle.flush()
    free = os.statvfs(mount).f_bavail * os.statvfs(mount).f_frsize
    size = filler.stat().st_size
    os.truncate(filler, max(0, size - (leave - free)))


def _write_plan(root: Path, data: bytes) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    return subprocess.run(
        [sys.executable, "-m", "gemstack_lsp", "plan", "write-plan", "--repo", str(root), "--generated-plan", PLAN],
        input=data,
        capture_output=True,
        env=env,
        timeout=120,
    )


def _vault_files(root: Path) -> dict[str, bytes]:
    vault = root / VAULT
    if not vault.is_dir():
        return {}
    return {p.name: p.read_bytes() for p in vault.iterdir() if p.is_file()}


@pytest.mark.parametrize("leave", [16 * 1024, 64 * 1024])
def test_a_full_disk_leaves_the_whole_plan_or_nothing_and_says_which(small_disk: Path, leave: int) -> None:
    root = small_disk / "repo"
    _repo(root)
    data = os.urandom(48 * 1024).hex().encode()  # 96 KiB: more than is left
    _fill(small_disk, leave)
    done = _write_plan(root, data)
    message = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 1, message
    assert "Traceback" not in message
    copies = _vault_files(root)
    for name, content in copies.items():
        # No truncated or empty copy of the plan is left in the vault.
        assert content == data, f"{name}: {len(content)} of {len(data)} bytes"
    assert not (root / PLAN).exists()
    if copies:
        assert "preserved Git-admin artifacts" in message, message
    else:
        assert "not preserved" in message, message
        assert "preserved Git-admin artifacts" not in message, message
