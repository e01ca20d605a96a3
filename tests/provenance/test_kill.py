"""``write-plan`` killed with SIGKILL at every step: no temporary file outside the vault, no plan lost.

A child process runs the writer and kills itself (SIGKILL, no clean-up possible) at a chosen
point: at each writer stage, in the middle of writing the temporary bytes, before each fsync,
link, rename and unlink. After every kill, nothing ending in ``.tmp`` exists in the working
tree, the other plan in ``docs/plans`` is untouched, and a Deepen's prior plan is either still at
the destination or preserved byte for byte in the Git-admin vault. The next write removes the
temporary files killed writers left in the vault.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import PLAN, git, init_repo, write

OTHER_PLAN = "docs/plans/2024-01-01-gitnexus-plan-other-plan-here.md"
PRIOR = b"# prior plan\n" * 1000
#: Large enough that the bytes take several writes (os.write is wrapped to write 64 KiB at most).
NEW = b"# new plan \xc3\xa9\n" * 200_000

#: The child: wraps the os functions the writer uses and SIGKILLs itself at the chosen call.
CHILD = r"""
import os, signal, sys
from gemstack_lsp.provenance import writeplan
from gemstack_lsp.provenance.writeplan import WriteHooks, write_generated_plan

repo, plan, point, replace, digest = sys.argv[1:6]
kind, _, arg = point.partition(":")
count = {"n": 0}

def die():
    os.kill(os.getpid(), signal.SIGKILL)

def wrap(name):
    real = getattr(os, name)
    def wrapper(*args, **kwargs):
        if kind == name:
            count["n"] += 1
            if count["n"] == int(arg):
                die()
        if name == "write":
            fd, data = args
            return real(fd, memoryview(data)[: 64 * 1024])
        return real(*args, **kwargs)
    setattr(os, name, wrapper)
    for capability in (os.supports_dir_fd, os.supports_follow_symlinks, os.supports_fd):
        if real in capability:
            capability.add(wrapper)

for name in ("write", "fsync", "link", "rename", "unlink", "fchmod"):
    wrap(name)

def on_stage(stage):
    if kind == "stage" and stage == arg:
        die()

data = sys.stdin.buffer.read()
write_generated_plan(
    repo, plan, data, replace=replace == "1",
    expected_plan_path=plan if replace == "1" else None,
    expected_plan_digest=digest if replace == "1" else None,
    hooks=WriteHooks(on_stage),
)
"""

POINTS = [
    "stage:parents-opened",
    "write:1",
    "write:2",
    "fchmod:1",
    "fsync:1",
    "stage:temp-written",
    "stage:before-prior-move",
    "rename:1",
    "fsync:2",
    "fsync:3",
    "stage:before-publish",
    "link:1",
    "unlink:1",
    "fsync:4",
    "stage:after-publish",
    "fsync:5",
    "fsync:6",
]


def _digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _vault(repo: Path) -> Path:
    return repo / git(repo, "rev-parse", "--git-path", "gitnexus-plan-backups").decode().strip()


def _temporaries_outside_the_vault(repo: Path) -> list[str]:
    return [
        str(p.relative_to(repo))
        for p in repo.rglob("*")
        if p.name.endswith(".tmp") and ".git" not in p.relative_to(repo).parts
    ]


def _kill_at(repo: Path, point: str, replace: bool) -> int:
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(repo), PLAN, point, "1" if replace else "0", _digest(PRIOR)],
        input=NEW,
        capture_output=True,
        cwd=Path(__file__).resolve().parents[2],
        check=False,
    )
    assert b"Traceback" not in proc.stderr, proc.stderr.decode()
    return proc.returncode


@pytest.mark.parametrize("replace", [False, True], ids=["fresh", "deepen"])
@pytest.mark.parametrize("point", POINTS)
def test_a_killed_writer_leaves_no_temporary_file_outside_the_vault(tmp_path: Path, point: str, replace: bool) -> None:
    repo = init_repo(tmp_path / "repo", {"README.md": "r\n", OTHER_PLAN: "# other\n"})
    if replace:
        write(repo, PLAN, PRIOR)
    code = _kill_at(repo, point, replace)
    killed = code == -signal.SIGKILL
    assert killed or code == 0, code

    assert _temporaries_outside_the_vault(repo) == []
    assert (repo / OTHER_PLAN).read_bytes() == b"# other\n"
    destination = repo / PLAN
    vault_bytes = [p.read_bytes() for p in _vault(repo).iterdir()] if _vault(repo).is_dir() else []
    if destination.exists():
        assert destination.read_bytes() in ({PRIOR, NEW} if replace else {NEW})
    else:
        assert killed
        if replace:
            # Between moving the prior plan aside and publishing the new one: it is in the vault.
            assert PRIOR in vault_bytes
    if replace and destination.exists() and destination.read_bytes() == NEW:
        assert PRIOR in vault_bytes

    # The next write cleans the temporary files the killed writer left in the vault.
    again = subprocess.run(
        [sys.executable, "-m", "gemstack_lsp.provenance", "write-plan", "--repo", str(repo), "--generated-plan",
         "docs/plans/2024-01-03-gitnexus-plan-after-the-kill.md"],
        input=b"# after\n",
        capture_output=True,
        check=False,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr.decode()
    assert not [p.name for p in _vault(repo).iterdir() if p.name.endswith(".tmp")]
    assert (repo / OTHER_PLAN).read_bytes() == b"# other\n"


def test_every_kill_point_is_reached(tmp_path: Path) -> None:
    # The points above are real: without a kill the child makes at least this many calls.
    repo = init_repo(tmp_path / "repo", {"README.md": "r\n"})
    write(repo, PLAN, PRIOR)
    for point in ("write:2", "fsync:6", "link:1", "unlink:1", "rename:1"):
        assert _kill_at(repo, point, True) == -signal.SIGKILL, point
        for p in (repo / "docs" / "plans").iterdir():
            os.unlink(p)
        write(repo, PLAN, PRIOR)
