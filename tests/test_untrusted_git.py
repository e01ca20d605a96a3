"""A repository nobody vetted never gets to run a program: not through git, not through PATH.

Every program a repository can name is planted (the fsmonitor hook, clean/smudge/process
filters for every file, hooks, an external diff and textconv, a pager, askpass, a credential
helper, ssh, a signature program, a configuration file pulled in by ``include.path``, a ``git``
in the repository with ``.`` first on ``PATH``), every tracked file is made stat-dirty so that
``git status`` would consult the filters, and every command that touches git runs: ``check``,
``context``, ``gate``, ``plan`` (read-plan, snapshot, write-plan) and a server session. Each
planted program appends its name to a log outside the repository: the log must stay empty.
Where ``strace`` is installed, the process trace is read too: every program started must be
the Python under test or the system's git.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.lspclient import Document, LspClient

PROJECT = Path(__file__).resolve().parents[1]
FIXTURE = PROJECT / "tests" / "fixtures" / "gemstack-reference" / "repo"
STRACE = shutil.which("strace")
HOOKS = (
    "pre-commit",
    "post-checkout",
    "post-index-change",
    "reference-transaction",
    "pre-auto-gc",
    "fsmonitor-watchman",
)


def _script(path: Path, name: str, log: Path, *, passthrough: bool = False) -> str:
    body = f'#!/bin/sh\necho "{name}" >> "{log}"\n' + ("exec cat\n" if passthrough else "exit 0\n")
    path.write_text(body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(path)


def _git(cwd: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def plant(root: Path, log: Path) -> None:
    """Make ``root`` a hostile Git repository whose every configurable program logs to ``log``."""
    # A closure manifest makes the closure freshness check ask git for HEAD and the tree's state.
    (root / "specs" / "009-context-capsule" / "closure.json").write_text(
        json.dumps(
            {
                "schema": "gemstack-closure",
                "version": 1,
                "status": "VERIFIED",
                "closure_context": {"closure_context_hash": "0" * 64},
            }
        )
    )
    _git(root, "init", "-q", ".")
    # The programs live where the repository keeps what it does not track (under .git), so
    # the tree stays clean; only the planted git sits in the work tree (and is excluded).
    tools = root / ".git" / "tools"
    tools.mkdir()
    (root / ".gitattributes").write_text("* filter=evil diff=evil\n*.md filter=evilproc\n")
    _git(root, "add", "-A")
    _git(root, "-c", "user.email=a@b.c", "-c", "user.name=a", "commit", "-qm", "initial")
    config = {
        "core.fsmonitor": _script(tools / "fsmonitor", "fsmonitor", log),
        "core.pager": _script(tools / "pager", "pager", log),
        "pager.status": "true",
        "core.askPass": _script(tools / "askpass", "askpass", log),
        "core.sshCommand": _script(tools / "ssh", "ssh", log),
        "core.editor": _script(tools / "editor", "editor", log),
        "credential.helper": "!" + _script(tools / "credential", "credential", log),
        "diff.external": _script(tools / "extdiff", "external-diff", log),
        "diff.evil.textconv": _script(tools / "textconv", "textconv", log),
        "filter.evil.clean": _script(tools / "clean", "filter-clean", log, passthrough=True),
        "filter.evil.smudge": _script(tools / "smudge", "filter-smudge", log, passthrough=True),
        "filter.evilproc.process": _script(tools / "process", "filter-process", log),
        "filter.evilproc.required": "true",
        "gpg.program": _script(tools / "gpg", "gpg", log),
        "log.showSignature": "true",
        "core.hooksPath": str(root / ".git" / "myhooks"),
        "include.path": str(root / ".git" / "extra.gitconfig"),
    }
    for key, value in config.items():
        _git(root, "config", key, value)
    # A filter only the included file defines, and hooks where core.hooksPath points.
    (root / ".git" / "extra.gitconfig").write_text(
        f'[filter "included"]\n\tclean = {_script(tools / "included", "included-filter", log, passthrough=True)}\n'
    )
    (root / ".git" / "info" / "attributes").write_text("*.json filter=included\n")
    (root / ".git" / "myhooks").mkdir()
    for hook in HOOKS:
        _script(root / ".git" / "myhooks" / hook, f"hook-{hook}", log)
        _script(root / ".git" / "hooks" / hook, f"git-hook-{hook}", log)
    # A git of the repository's own, found first when "." leads PATH.
    _script(root / "git", "planted-git", log)
    with (root / ".git" / "info" / "exclude").open("a") as exclude:
        exclude.write("/git\n")
    # Every tracked file is stat-dirty: git status would run the clean filters on each.
    time.sleep(1.1)
    for path in root.rglob("*"):
        if path.is_file() and ".git" not in path.parts:
            os.utime(path)


@pytest.fixture
def hostile(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    if shutil.which("git") is None:
        pytest.fail("git is needed for this test (install git)")
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    log = tmp_path / "ran.log"
    plant(root, log)
    yield root, log


def _environment(root: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env["PATH"] = os.pathsep.join([".", ".git/tools", env.get("PATH", os.defpath)])
    env["PYTHONPATH"] = os.pathsep.join([str(PROJECT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["GIT_PAGER"] = "pager"  # even a pager named by the caller's environment is not run
    return env


def _traced(argv: list[str], trace: Path) -> list[str]:
    if STRACE is None:
        return argv
    return [STRACE, "-f", "-qq", "-e", "trace=execve", "-o", str(trace), *argv]


def _started_programs(trace: Path) -> list[str]:
    """The programs the trace shows started (successful execve calls)."""
    if STRACE is None or not trace.exists():
        return []
    programs = []
    for line in trace.read_text("utf-8", "replace").splitlines():
        if "execve(" in line and "= 0" in line.rsplit(")", 1)[-1]:
            programs.append(line.split('execve("', 1)[1].split('"', 1)[0])
    return programs


def _assert_only_expected(programs: list[str], root: Path) -> None:
    git = os.path.realpath(shutil.which("git") or "git")
    allowed = {os.path.realpath(sys.executable), git}
    for program in programs:
        real = os.path.realpath(program)
        assert not real.startswith(str(root.resolve())), f"a program of the repository ran: {program}"
        assert real in allowed or real.endswith(("/python3", "/python")) or os.path.basename(real).startswith("git"), (
            f"unexpected program started: {program}"
        )


def _cli(root: Path, trace: Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    argv = _traced([sys.executable, "-m", "gemstack_lsp", *args], trace)
    return subprocess.run(argv, cwd=root, env=_environment(root), input=stdin, capture_output=True, timeout=300)


COMMANDS: list[tuple[str, ...]] = [
    ("check", "."),
    ("check", ".", "--format", "json"),
    ("context", "verify", "--target", "."),
    ("context", "generate", "--target", "."),
    ("context", "show", "--target", "."),
    ("gate", "evaluate", "--action", "generate-summary", "--env", "development", "--target", "."),
    ("plan", "read-plan", "--repo", ".", "--generated-plan", "docs/plans/2026-12-03-gitnexus-plan-one-two-three.md"),
    (
        "plan",
        "snapshot",
        "--repo",
        ".",
        "--generated-plan",
        "docs/plans/2026-12-03-gitnexus-plan-one-two-three.md",
        "--cited",
        "package.json",
    ),
]


@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(c[:2]) for c in COMMANDS])
def test_no_planted_program_runs_from_the_cli(hostile: tuple[Path, Path], argv: tuple[str, ...]) -> None:
    root, log = hostile
    trace = root.parent / "trace.txt"
    done = _cli(root, trace, *argv)
    assert b"Traceback" not in done.stderr, done.stderr.decode("utf-8", "replace")
    assert not log.exists(), f"{' '.join(argv)} ran {log.read_text()!r}"
    _assert_only_expected(_started_programs(trace), root)


def test_no_planted_program_runs_from_write_plan(hostile: tuple[Path, Path]) -> None:
    root, log = hostile
    trace = root.parent / "trace.txt"
    done = _cli(
        root,
        trace,
        "plan",
        "write-plan",
        "--repo",
        ".",
        "--generated-plan",
        "docs/plans/2026-12-03-gitnexus-plan-one-two-three.md",
        stdin=b"# Plan\n",
    )
    assert b"Traceback" not in done.stderr, done.stderr.decode("utf-8", "replace")
    assert not log.exists(), f"write-plan ran {log.read_text()!r}"
    _assert_only_expected(_started_programs(trace), root)


def test_the_git_state_is_still_read_without_the_planted_programs(hostile: tuple[Path, Path]) -> None:
    """Hardening keeps the facts: HEAD is found and the stat-dirty tree is clean to git."""
    from gemstack_lsp.fs import git_repository_state

    root, log = hostile
    state = git_repository_state(root)
    assert state.type == "git" and state.commit and len(state.commit) == 40
    assert state.working_tree_clean is True
    assert not log.exists(), log.read_text()


def test_no_planted_program_runs_in_a_server_session(
    hostile: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, log = hostile
    trace = root.parent / "trace.txt"
    for key, value in _environment(root).items():
        monkeypatch.setenv(key, value)
    client = LspClient(root, _traced([sys.executable, "-m", "gemstack_lsp", "serve"], trace))
    try:
        assert client.initialize(timeout=60).answered
        spec = root / "specs" / "009-context-capsule" / "spec.md"
        doc = Document(client, spec)
        doc.open()
        assert client.wait_publish(doc.uri, 1, time.perf_counter(), timeout=60) is not None
        reply = client.request(
            "workspace/executeCommand",
            {"command": "gemstack.regenerateCapsule", "arguments": [doc.uri]},
            timeout=60,
        )
        assert reply.answered, reply.describe()
    finally:
        client.close()
    assert not log.exists(), f"the server ran {log.read_text()!r}"
    _assert_only_expected(_started_programs(trace), root)


def test_a_dot_git_file_naming_another_repository_is_not_written(tmp_path: Path) -> None:
    """write-plan keeps its vault in this worktree's Git directory, never in another repository's."""
    victim = tmp_path / "victim"
    victim.mkdir()
    _git(victim, "init", "-q", ".")
    (victim / "a.txt").write_text("a\n")
    _git(victim, "add", "-A")
    _git(victim, "-c", "user.email=a@b.c", "-c", "user.name=a", "commit", "-qm", "victim")
    before = sorted(p.relative_to(victim) for p in (victim / ".git").rglob("*"))
    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.txt").write_text("a\n")
    (root / ".git").write_text(f"gitdir: {victim / '.git'}\n")
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env["PYTHONPATH"] = str(PROJECT)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "gemstack_lsp",
            "plan",
            "write-plan",
            "--repo",
            str(root),
            "--generated-plan",
            "docs/plans/2026-12-03-gitnexus-plan-one-two-three.md",
        ],
        input=b"# Plan\n",
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert done.returncode != 0
    assert b"Traceback" not in done.stderr
    assert sorted(p.relative_to(victim) for p in (victim / ".git").rglob("*")) == before
    assert not (root / "docs" / "plans" / "p.md").exists()
    json.dumps(done.stderr.decode("utf-8", "replace"))


def test_restricted_mode_runs_no_git_and_writes_nothing(
    hostile: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An untrusted workspace (``initializationOptions.trusted`` false, VS Code's Restricted
    Mode): diagnostics from the files' contents, no git process at all, no writing command."""
    from bench.lspclient import neovim_capabilities, path_uri

    root, log = hostile
    trace = root.parent / "trace.txt"
    for key, value in _environment(root).items():
        monkeypatch.setenv(key, value)
    client = LspClient(root, _traced([sys.executable, "-m", "gemstack_lsp", "serve"], trace))
    try:
        reply = client.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": path_uri(root),
                "workspaceFolders": [{"uri": path_uri(root), "name": root.name}],
                "capabilities": neovim_capabilities(),
                "initializationOptions": {"trusted": False},
            },
            timeout=60,
        )
        assert reply.answered and reply.error is None
        client.notify("initialized", {})
        spec = root / "specs" / "009-context-capsule" / "spec.md"
        doc = Document(client, spec)
        doc.open()
        assert client.wait_publish(doc.uri, 1, time.perf_counter(), timeout=60) is not None
        refused = client.request(
            "workspace/executeCommand",
            {"command": "gemstack.regenerateCapsule", "arguments": [doc.uri]},
            timeout=60,
        )
        assert refused.answered and refused.error is not None
        assert "Restricted Mode" in refused.error["message"]
    finally:
        client.close()
    assert not (root / "specs" / "009-context-capsule" / "context-capsule.json").exists()
    assert not log.exists(), log.read_text()
    if STRACE is not None:
        programs = _started_programs(trace)
        assert not [p for p in programs if os.path.basename(p).startswith("git")], programs
