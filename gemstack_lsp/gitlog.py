"""The repository's newest commits, asked of Git with everything a repository configures switched off.

The memory cross-audit (Gemstack 2.0 verify stage 2) compares the newest commits with
handoff.md, as the reference does with ``git log -n5 --oneline``. Asking must stay read-only
and must not run anything a repository's configuration names: no hooks, no fsmonitor, no
external diff, no pager, no signature verification (``gpg.program``), no system config, no
optional locks, no prompt. Discovery stops at the root (``GIT_CEILING_DIRECTORIES``), so a
Gemstack repository nested in another Git work tree never reports the outer one's commits.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from gemstack_lsp import gitsafe
from gemstack_lsp.core.reader import GitCommit


def recent_commits(root: str | os.PathLike[str], limit: int) -> tuple[GitCommit, ...] | None:
    """The newest ``limit`` commits of the Git repository at ``root`` (``git log --oneline``'s
    abbreviated hash and subject); ``()`` when ``root`` holds no ``.git``; ``None`` when Git
    cannot be asked or fails (no Git, no commit yet, a repository Git refuses).

    Runs through ``gemstack_lsp.gitsafe`` (no program a repository configures, no ``git``
    found inside the repository), with signature checks, colour and the pager off."""
    base = Path(root)
    if not os.path.lexists(base / ".git"):
        return ()
    args = ["log", f"-n{int(limit)}", "--no-show-signature", "--no-color", "--format=%h %s"]
    try:
        done = gitsafe.run(base, args, root=base, extra_env={"GIT_CEILING_DIRECTORIES": str(base.resolve().parent)})
    except (gitsafe.GitUnavailable, OSError, subprocess.SubprocessError):
        return None
    if done.status != 0:
        return None
    return parse_oneline(done.stdout.decode("utf-8", "replace"))


def parse_oneline(output: str) -> tuple[GitCommit, ...]:
    """``<hash> <subject>`` lines as the reference splits them (first space-separated word, the rest)."""
    commits = []
    for line in output.strip().split("\n"):
        if not line.strip():
            continue
        parts = line.strip().split(" ")
        commits.append(GitCommit(parts[0], " ".join(parts[1:])))
    return tuple(commits)
