"""Every install hint is a command that works today.

The name gemstack-lsp is not published on PyPI (and anyone could register it), so no file may
tell a user to install it by its bare name; and the README's Install commands are run here as
written, against the release wheel and a clone, with pipx and with a virtual environment.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from release_repo import REPO_ROOT, Dist, repository_files, run

from gemstack_lsp import __version__

#: An install of the bare name by any installer: ``pip install gemstack-lsp``, ``pipx install
#: gemstack_lsp``, ``python3 -m pip install -U "gemstack-lsp[test]"``, ``uv tool install
#: gemstack-lsp==0.1.0``... but not a path or a file name that merely contains it.
BARE_INSTALL = re.compile(
    r"\b(?:pipx|pip3?|uv\s+pip|uv\s+tool)\s+install\s+(?:-\S+\s+)*[\"']?gemstack[-_]lsp\b(?![-./\w])",
    re.IGNORECASE,
)


def is_test_file(rel: str) -> bool:
    """Tests may name the bad command (to assert it is gone)."""
    return any(part in ("test", "tests") for part in Path(rel).parts[:-1])


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("Install it with `pip install gemstack-lsp`, or pass cmd", True),
        ('python3 -m pip install -U "gemstack-lsp[test]"', True),
        ("pipx install gemstack_lsp", True),
        ("uv tool install gemstack-lsp==0.1.0", True),
        ("pip3 install --user gemstack-lsp\n", True),
        ("pipx install /path/to/gemstack-lsp", False),
        ("pip install ./gemstack_lsp-0.1.0-py3-none-any.whl", False),
        ('pipx install --force "/ext/bundled/gemstack_lsp-0.1.0-py3-none-any.whl"', False),
        ("a `pip install` of the bare name does not work", False),
        ("pip install git+https://example.invalid/gemstack-lsp@v1", False),
    ],
)
def test_the_pattern_tells_a_bare_name_from_a_path(text: str, bad: bool) -> None:
    assert bool(BARE_INSTALL.search(text)) is bad


def test_no_file_suggests_installing_the_unpublished_name() -> None:
    offenders = []
    for rel in repository_files():
        path = REPO_ROOT / rel
        if is_test_file(rel) or path.is_symlink() or not path.is_file():
            continue
        try:
            text = path.read_text("utf-8")
        except UnicodeDecodeError:
            continue  # images and other binary files
        for match in BARE_INSTALL.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            offenders.append(f"{rel}:{line}: {match.group(0)}")
    assert offenders == [], "the name gemstack-lsp is not published; give a command that works:\n" + "\n".join(
        offenders
    )


def test_the_documented_release_file_names_carry_the_current_version() -> None:
    for rel in ("README.md", "docs/ci.md", "docs/editors.md"):
        versions = set(
            re.findall(r"gemstack_lsp-(\d[\w.]*?)(?:-py3-none-any\.whl|\.tar\.gz)", (REPO_ROOT / rel).read_text())
        )
        assert versions <= {__version__}, (rel, versions)


def install_section_commands() -> list[str]:
    """The README's Install commands, one shell line each, comments dropped."""
    section = (REPO_ROOT / "README.md").read_text("utf-8").split("\n## Install\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"^```sh\n(.*?)^```$", section, flags=re.MULTILINE | re.DOTALL)
    lines = [line.split("  #", 1)[0].strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def test_the_readme_install_commands_work(dist: Dist, source_copy: Path, tmp_path: Path) -> None:
    commands = install_section_commands()
    assert len(commands) == 4 and sum("pipx install" in c for c in commands) == 2
    # pipx and python3 as a user has them: the test venv's pipx module, the test's Python.
    shims = tmp_path / "shims"
    shims.mkdir()
    for name, target in (("pipx", f'"{sys.executable}" -m pipx'), ("python3", f'"{sys.executable}"')):
        (shims / name).write_text(f'#!/bin/sh\nexec {target} "$@"\n', "utf-8")
        (shims / name).chmod(0o755)
    downloads = tmp_path / "downloads"  # where a user keeps the release file
    downloads.mkdir()
    shutil.copy(dist.wheel, downloads)
    for index, command in enumerate(commands):
        home = tmp_path / f"home{index}"
        env = {
            k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PIPX_HOME", "PIPX_BIN_DIR")
        }
        env.update(HOME=str(home), PATH=f"{shims}{os.pathsep}{env.get('PATH', '')}")
        env.update(PIPX_HOME=str(home / ".local/share/pipx"), PIPX_BIN_DIR=str(home / ".local/bin"))
        env.update(PIPX_MAN_DIR=str(home / ".local/share/man"))
        line = command.replace("/path/to/gemstack-lsp", str(source_copy))
        done = run("bash", "-e", "-c", line, cwd=downloads, env=env)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
        (installed,) = [
            p for p in (home / ".local/bin/gemstack-lsp", home / ".venvs/gemstack/bin/gemstack-lsp") if p.exists()
        ]
        done = run(installed, "--version", cwd=tmp_path, env=env)
        assert (done.returncode, done.stdout.strip()) == (0, f"gemstack-lsp {__version__}"), (command, done.stderr)
