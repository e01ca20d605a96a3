"""The release tests' view of this repository: its files as a clone has them, and Git helpers.

The release tests build the sdist and wheel and run the pre-commit hook from a copy rather than
from the working tree itself, so they never write build outputs into it, and so they test the
files as they are now (pre-commit installs a hook repository from a commit, not a work tree).
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from gemstack_lsp import __version__

REPO_ROOT = Path(__file__).resolve().parents[2]

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Release Test",
    "GIT_AUTHOR_EMAIL": "release@example.invalid",
    "GIT_COMMITTER_NAME": "Release Test",
    "GIT_COMMITTER_EMAIL": "release@example.invalid",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(cwd: Path, *args: str) -> str:
    """Run git in ``cwd`` with a fixed identity and no user configuration; failures raise."""
    done = subprocess.run(
        ["git", *args], cwd=cwd, env={**os.environ, **GIT_ENV}, capture_output=True, text=True, check=True
    )
    return done.stdout


def repository_files() -> list[str]:
    """The repository's files as a clone would have them plus new ones: tracked and untracked, never ignored."""
    listing = git(REPO_ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    return sorted(p for p in set(listing.split("\0")) if p and os.path.lexists(REPO_ROOT / p))


def commit_all(repo: Path, message: str = "snapshot") -> str:
    """Make ``repo`` a Git repository (if it is not one) with everything committed; the commit id."""
    if not (repo / ".git").exists():
        git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


SDIST_NAME = f"gemstack_lsp-{__version__}.tar.gz"
WHEEL_NAME = f"gemstack_lsp-{__version__}-py3-none-any.whl"


@dataclass(frozen=True)
class Dist:
    """The two release files `make dist` makes."""

    sdist: Path
    wheel: Path


def run(
    *argv: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run a command, capturing its output as text; the caller checks the status."""
    return subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, check=False)
