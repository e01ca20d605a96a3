"""Running git: a fixed, clean environment, no optional locks, never a write to the repository."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass

from gemstack_lsp.provenance.errors import ProvenanceError

# Options prefixed to every invocation. They pin behaviour that user or system config could
# otherwise change, and forbid anything that would write (index refresh, fsmonitor daemons).
_FIXED_OPTIONS = (
    "--no-optional-locks",
    "-c",
    "core.quotepath=off",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.untrackedCache=false",
    "-c",
    "diff.renameLimit=0",
    "-c",
    "status.renameLimit=0",
)

# Variables that would point git somewhere else than the repository we were given.
_DROPPED_PREFIXES = ("GIT_",)


def clean_environment() -> dict[str, str]:
    """The environment git runs in: the caller's minus every GIT_* variable, plus fixed values."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(_DROPPED_PREFIXES)}
    env.update(
        {
            "LANG": "C",
            "LC_ALL": "C",
            "GIT_OPTIONAL_LOCKS": "0",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_NO_REPLACE_OBJECTS": "1",
            "GIT_NO_LAZY_FETCH": "1",
        }
    )
    return env


_ENV: dict[str, str] | None = None


def _env() -> dict[str, str]:
    global _ENV
    if _ENV is None:
        _ENV = clean_environment()
    return _ENV


@dataclass(frozen=True)
class GitResult:
    status: int
    stdout: bytes
    stderr: bytes


def git(cwd: str, args: Sequence[str], *, stdin: bytes | None = None, allow_failure: bool = False) -> GitResult:
    """Run ``git -C cwd <fixed options> args``; a failure raises unless ``allow_failure``."""
    command = ["git", "-C", cwd, *_FIXED_OPTIONS, *args]
    try:
        completed = subprocess.run(
            command,
            input=stdin,
            stdin=None if stdin is not None else subprocess.DEVNULL,
            capture_output=True,
            env=_env(),
            check=False,
        )
    except OSError as error:
        raise ProvenanceError(f"Cannot run git: {error.strerror or error}") from error
    result = GitResult(completed.returncode, completed.stdout, completed.stderr)
    if result.status != 0 and not allow_failure:
        detail = result.stderr.decode("utf-8", errors="replace").strip()
        raise ProvenanceError(f"git {' '.join(args)} failed ({result.status}): {detail}")
    return result


def git_many(cwd: str, commands: Sequence[Sequence[str]]) -> list[GitResult]:
    """Run independent read-only git commands concurrently; any failure raises like :func:`git`."""
    processes = []
    try:
        for args in commands:
            processes.append(
                subprocess.Popen(
                    ["git", "-C", cwd, *_FIXED_OPTIONS, *args],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    env=_env(),
                )
            )
    except OSError as error:
        for process in processes:
            process.kill()
            process.communicate()
        raise ProvenanceError(f"Cannot run git: {error.strerror or error}") from error
    results = []
    for process in processes:
        out, err = process.communicate()
        results.append(GitResult(process.returncode, out, err))
    for args, result in zip(commands, results, strict=True):
        if result.status != 0:
            detail = result.stderr.decode("utf-8", errors="replace").strip()
            raise ProvenanceError(f"git {' '.join(args)} failed ({result.status}): {detail}")
    return results


def git_text(cwd: str, args: Sequence[str]) -> str:
    """A git command's stdout as strict UTF-8 with the trailing newline removed."""
    out = git(cwd, args).stdout
    try:
        return out.decode("utf-8").rstrip("\n")
    except UnicodeDecodeError as error:
        raise ProvenanceError(f"git {' '.join(args)} printed output that is not valid UTF-8") from error
