"""Running git on a repository nobody has vetted: facts only, never a program the repository names.

A repository controls its own ``.git/config`` (and the files it includes), its
``.gitattributes`` and, when ``.`` or a relative folder is on ``PATH``, which ``git`` a bare
name finds. Any of these can make an innocent ``git status`` start a program: the fsmonitor
hook, a clean/process filter for every stat-dirty file, hooks, an external diff or textconv,
a pager, a credential helper or askpass, a signature program for ``log``. Editors open
folders people have not vetted, so every git call of this project goes through ``run``:

- the ``git`` binary is looked up on ``PATH`` among absolute folders outside the repository
  (a ``git`` planted in the repository never runs);
- system and global configuration are ignored (``GIT_CONFIG_NOSYSTEM``, ``GIT_CONFIG_GLOBAL``)
  and every ``GIT_*`` variable of the caller is dropped;
- command-line configuration, which wins over every file, switches off each program git could
  take from the repository's configuration (``HARDENING``), and every filter driver the
  repository defines is emptied by name (``filter.<name>.clean=`` and friends: an empty
  command is no filter), after asking ``git config`` for their names (reading configuration
  runs nothing);
- nothing is read from standard input, nothing is prompted for, no optional lock is taken.

Where a fact cannot be had this way (git is missing, or refuses), the caller reports it as
unknown instead of trying harder.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

from gemstack_lsp.core.frozen import record

#: Configuration given on the command line for every call. It beats the repository's files.
HARDENING: tuple[tuple[str, str], ...] = (
    ("core.fsmonitor", "false"),
    ("core.hooksPath", os.devnull),
    ("core.pager", "cat"),
    ("core.askPass", ""),
    ("core.sshCommand", ""),
    ("core.gitProxy", ""),
    ("core.editor", "false"),
    ("core.quotepath", "off"),
    ("core.untrackedCache", "false"),
    ("credential.helper", ""),
    ("diff.external", ""),
    ("log.showSignature", "false"),
    ("protocol.allow", "never"),
    ("submodule.recurse", "false"),
    ("sequence.editor", "false"),
    ("uploadpack.packObjectsHook", ""),
)

#: The filter settings that name a program; each is emptied for every driver the repository defines.
FILTER_PROGRAMS = ("clean", "smudge", "process")

#: How long one git call may take before its answer counts as unknown.
TIMEOUT_SECONDS = 20.0


class GitUnavailable(Exception):
    """git could not be run safely (not installed, or only found inside the repository)."""


@record
class GitResult:
    status: int
    stdout: bytes
    stderr: bytes


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def git_executable(root: str | os.PathLike[str] | None = None, path: str | None = None) -> str:
    """The absolute path of the ``git`` that may run for ``root``.

    Only absolute ``PATH`` entries are searched (a relative one, ``.`` or the empty entry, means
    "wherever the process happens to be"), and an entry that lies inside the repository is
    skipped, so a ``git`` the repository ships is never the one that runs.
    """
    search = os.environ.get("PATH", os.defpath) if path is None else path
    real_root = Path(os.path.realpath(root)) if root is not None else None
    for entry in search.split(os.pathsep):
        if not entry or not os.path.isabs(entry):
            continue
        folder = Path(os.path.realpath(entry))
        if real_root is not None and _inside(folder, real_root):
            continue
        candidate = folder / "git"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    raise GitUnavailable("git was not found on PATH outside the repository")


def clean_environment(base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment git runs in: the caller's minus every ``GIT_*`` variable, plus fixed values."""
    source = os.environ if base is None else base
    env = {key: value for key, value in source.items() if not key.startswith("GIT_")}
    path = env.get("PATH", os.defpath)
    env["PATH"] = os.pathsep.join(p for p in path.split(os.pathsep) if p and os.path.isabs(p))
    env.update(
        {
            "LANG": "C",
            "LC_ALL": "C",
            "GIT_OPTIONAL_LOCKS": "0",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_ASKPASS": "",
            "SSH_ASKPASS": "",
            "GIT_PAGER": "cat",
            "PAGER": "cat",
            "GIT_EXTERNAL_DIFF": "",
            "GIT_NO_REPLACE_OBJECTS": "1",
            "GIT_NO_LAZY_FETCH": "1",
            "GIT_PROTOCOL_FROM_USER": "0",
        }
    )
    return env


def _config_args(pairs: Sequence[tuple[str, str]]) -> list[str]:
    args: list[str] = []
    for key, value in pairs:
        args += ["-c", f"{key}={value}"]
    return args


def _spawn(
    git: str,
    cwd: str,
    args: Sequence[str],
    env: dict[str, str],
    stdin: bytes | None,
    timeout: float | None = TIMEOUT_SECONDS,
) -> GitResult:
    done = subprocess.run(
        [git, "--no-optional-locks", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    return GitResult(done.returncode, done.stdout, done.stderr)


def filter_drivers(git: str, cwd: str, env: dict[str, str]) -> list[str]:
    """The names of the filter drivers the repository's configuration defines (runs no program)."""
    result = _spawn(
        git,
        cwd,
        [*_config_args(HARDENING), "config", "--null", "--name-only", "--get-regexp", r"^filter\..*\."],
        env,
        None,
    )
    names: set[str] = set()
    for key in result.stdout.decode("utf-8", "surrogateescape").split("\0"):
        if key.count(".") >= 2:
            names.add(key[len("filter.") : key.rindex(".")])
    return sorted(names)


def submodule_folders(git: str, cwd: str, env: dict[str, str]) -> list[str]:
    """The checked-out submodules of the repository in ``cwd`` (gitlinks with a ``.git``), whose
    configuration a recursive ``git status`` also reads; nested ones are found recursively."""
    found: list[str] = []
    pending = [cwd]
    while pending and len(found) < 1000:
        folder = pending.pop()
        listing = _spawn(git, folder, [*_config_args(HARDENING), "ls-files", "--stage", "-z"], env, None)
        for entry in listing.stdout.split(b"\0"):
            if not entry.startswith(b"160000 "):
                continue
            relative = entry.split(b"\t", 1)[-1].decode("utf-8", "surrogateescape")
            nested = os.path.join(folder, relative)
            if os.path.lexists(os.path.join(nested, ".git")):
                found.append(nested)
                pending.append(nested)
    return found


def hardened_options(git: str, cwd: str, env: dict[str, str], *, submodules: bool = False) -> list[str]:
    """The ``-c`` options of a call in ``cwd``: ``HARDENING`` plus every filter driver emptied
    (those of the checked-out submodules too when ``submodules``: git passes command-line
    configuration down to the git it runs in each submodule)."""
    pairs = list(HARDENING)
    names = set(filter_drivers(git, cwd, env))
    if submodules:
        for nested in submodule_folders(git, cwd, env):
            names.update(filter_drivers(git, nested, env))
    for name in sorted(names):
        pairs += [(f"filter.{name}.{program}", "") for program in FILTER_PROGRAMS]
        pairs.append((f"filter.{name}.required", "false"))
    return _config_args(pairs)


def run(
    cwd: str | os.PathLike[str],
    args: Sequence[str],
    *,
    root: str | os.PathLike[str] | None = None,
    stdin: bytes | None = None,
    submodules: bool = False,
    timeout: float | None = TIMEOUT_SECONDS,
    extra_env: dict[str, str] | None = None,
) -> GitResult:
    """Run ``git <hardened options> args`` in ``cwd``; ``root`` is the repository whose folders
    may not supply the binary (``cwd`` when omitted). Raises ``GitUnavailable`` or ``OSError``
    / ``subprocess.SubprocessError`` when git cannot be run."""
    folder = os.fspath(cwd)
    git = git_executable(root if root is not None else folder)
    env = {**clean_environment(), **(extra_env or {})}
    options = hardened_options(git, folder, env, submodules=submodules)
    return _spawn(git, folder, [*options, *args], env, stdin, timeout)


def run_many(
    cwd: str | os.PathLike[str], commands: Sequence[Sequence[str]], *, submodules: bool = False
) -> list[GitResult]:
    """Run independent read-only git commands concurrently, each hardened like ``run``."""
    folder = os.fspath(cwd)
    git = git_executable(folder)
    env = clean_environment()
    options = hardened_options(git, folder, env, submodules=submodules)
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for args in commands:
            processes.append(
                subprocess.Popen(
                    [git, "--no-optional-locks", *options, *args],
                    cwd=folder,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    env=env,
                )
            )
    except OSError:
        for process in processes:
            process.kill()
            process.communicate()
        raise
    results = []
    for process in processes:
        out, err = process.communicate()
        results.append(GitResult(process.returncode, out, err))
    return results
