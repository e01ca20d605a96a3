"""The ``gemstack-lsp`` program (``cli.run``): after ``check`` the process ends as soon as its output
is flushed, skipping the interpreter's teardown; its status and output are ``main``'s; every
other command ends the usual way (its exit handlers run)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gemstack_lsp.cli import main

DEMO = Path(__file__).parents[1] / "examples" / "demo"

#: A program that registers an exit handler, then runs ``cli.run`` with the given arguments.
_WITH_EXIT_HANDLER = (
    "import atexit, sys\n"
    "atexit.register(lambda: print('exit handlers ran', file=sys.stderr))\n"
    "sys.argv = ['gemstack-lsp', *sys.argv[1:]]\n"
    "from gemstack_lsp.cli import run\n"
    "run()\n"
)


def _program(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _WITH_EXIT_HANDLER, *args], capture_output=True, text=True, timeout=120, check=False
    )


def test_check_ends_at_once_with_mains_status_and_all_its_output(capsys: pytest.CaptureFixture[str]) -> None:
    done = _program("check", str(DEMO), "--format", "json")
    assert main(["check", str(DEMO), "--format", "json"]) == done.returncode == 1  # the demo's blockers
    in_process = json.loads(capsys.readouterr().out)
    assert json.loads(done.stdout) == in_process and in_process["findings"]
    assert "exit handlers ran" not in done.stderr  # the teardown was skipped


@pytest.mark.parametrize("args", [["--lang", "es", "check"], ["check", "--format", "sarif"]])
def test_check_ends_at_once_whatever_its_options(args: list[str]) -> None:
    done = _program(*args, str(DEMO), "--exit-zero")
    assert done.returncode == 0 and done.stdout.strip()
    assert "exit handlers ran" not in done.stderr


@pytest.mark.parametrize("args", [["--version"], ["context", "--help"], ["gate", "--no-such-option"]])
def test_other_commands_end_the_usual_way(args: list[str]) -> None:
    done = _program(*args)
    assert "exit handlers ran" in done.stderr
    try:
        status = main(args)
    except SystemExit as exc:  # argparse ends --version, --help and a usage error so
        status = exc.code
    assert done.returncode == status
