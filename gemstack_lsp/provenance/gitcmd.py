"""Running git: a fixed, clean environment, no optional locks, never a write to the repository."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence

from gemstack_lsp import gitsafe
from gemstack_lsp.gitsafe import GitResult
from gemstack_lsp.provenance.errors import ProvenanceError

# Options prefixed to every invocation, after ``gitsafe``'s hardening (which switches off every
# program the repository could configure). They pin behaviour that configuration could change.
_FIXED_OPTIONS = (
    "-c",
    "diff.renameLimit=0",
    "-c",
    "status.renameLimit=0",
)


def git(cwd: str, args: Sequence[str], *, stdin: bytes | None = None, allow_failure: bool = False) -> GitResult:
    """Run hardened ``git <fixed options> args`` in ``cwd``; a failure raises unless ``allow_failure``."""
    try:
        result = gitsafe.run(cwd, [*_FIXED_OPTIONS, *args], stdin=stdin, submodules=_recurses(args), timeout=None)
    except gitsafe.GitUnavailable as error:
        raise ProvenanceError(f"Cannot run git: {error}") from error
    except (OSError, subprocess.SubprocessError) as error:
        raise ProvenanceError(f"Cannot run git: {getattr(error, 'strerror', None) or error}") from error
    if result.status != 0 and not allow_failure:
        detail = result.stderr.decode("utf-8", errors="replace").strip()
        raise ProvenanceError(f"git {' '.join(args)} failed ({result.status}): {detail}")
    return result


def _recurses(args: Sequence[str]) -> bool:
    """True for a command that looks into submodules (their filters are emptied too)."""
    return bool(args) and args[0] == "status" and "--ignore-submodules=all" not in args


def git_many(cwd: str, commands: Sequence[Sequence[str]]) -> list[GitResult]:
    """Run independent read-only git commands concurrently; any failure raises like :func:`git`."""
    try:
        results = gitsafe.run_many(
            cwd, [[*_FIXED_OPTIONS, *args] for args in commands], submodules=any(_recurses(a) for a in commands)
        )
    except gitsafe.GitUnavailable as error:
        raise ProvenanceError(f"Cannot run git: {error}") from error
    except (OSError, subprocess.SubprocessError) as error:
        raise ProvenanceError(f"Cannot run git: {getattr(error, 'strerror', None) or error}") from error
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
