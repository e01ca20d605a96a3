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
import shutil
import subprocess
from pathlib import Path

from gemstack_lsp.core.reader import GitCommit

#: How long the query may take before the answer counts as unknown.
GIT_LOG_TIMEOUT_SECONDS = 20.0

#: Options that switch off every program a repository's configuration could make Git run.
HARDENED_OPTIONS = (
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "diff.external=",
    "-c",
    "core.pager=cat",
    "-c",
    "log.showSignature=false",
    "--no-optional-locks",
    "--no-pager",
)


def recent_commits(root: str | os.PathLike[str], limit: int) -> tuple[GitCommit, ...] | None:
    """The newest ``limit`` commits of the Git repository at ``root`` (``git log --oneline``'s
    abbreviated hash and subject); ``()`` when ``root`` holds no ``.git``; ``None`` when Git
    cannot be asked or fails (no Git, no commit yet, a repository Git refuses)."""
    base = Path(root)
    if not os.path.lexists(base / ".git"):
        return ()
    git = shutil.which("git")
    if git is None:
        return None
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_OPTIONAL_LOCKS": "0",
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_CEILING_DIRECTORIES": str(base.resolve().parent),
        "LC_ALL": "C",
    }
    args = [git, *HARDENED_OPTIONS, "log", f"-n{int(limit)}", "--no-show-signature", "--no-color", "--format=%h %s"]
    try:
        done = subprocess.run(
            args,
            cwd=base,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=GIT_LOG_TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
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
