"""The VS Code extension's logic that needs no VS Code, run under node.

- ``src/serverPath.ts``: the lookup order (setting, private environment, PATH, .venv, pipx, uv);
- ``src/install.ts``: the installer of the bundled wheel into the private environment;
- ``src/status.ts``: the capsule status bar item's words;
- ``src/workspace.ts``: which workspaces are Gemstack repositories (a spec-kit one is not).

Each module is bundled with the extension's own esbuild (installed by `make vsix`, which
`make test` runs first) and its test in editors/vscode/test runs with plain node.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "editors" / "vscode"
ESBUILD = EXTENSION / "node_modules" / ".bin" / "esbuild"


MODULES = ("serverPath", "install", "status", "workspace", "bundled", "failure")


@pytest.mark.parametrize(("module", "test"), [(m, m) for m in MODULES])
def test_extension_module(tmp_path: Path, module: str, test: str) -> None:
    if not ESBUILD.exists():
        pytest.fail(f"{ESBUILD} is missing: run `make vsix` (npm ci in editors/vscode)")
    node = shutil.which("node")
    assert node, "node is not on PATH (Node 20 is needed to build the extension)"
    bundle = tmp_path / f"{module}.js"
    subprocess.run(
        [
            str(ESBUILD),
            str(EXTENSION / "src" / f"{module}.ts"),
            "--bundle",
            "--platform=node",
            "--format=cjs",
            f"--outfile={bundle}",
            "--log-level=warning",
        ],
        check=True,
        timeout=120,
    )
    proc = subprocess.run(
        [node, str(EXTENSION / "test" / f"{test}.test.js"), str(bundle)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert f"{test}: ok" in proc.stdout


def test_the_extension_typechecks() -> None:
    """tsc --noEmit over src/ (the .vsix is built with esbuild alone, which strips types unchecked)."""
    tsc = EXTENSION / "node_modules" / ".bin" / "tsc"
    if not tsc.exists():
        pytest.fail(f"{tsc} is missing: run `make vsix` (npm ci in editors/vscode)")
    proc = subprocess.run([str(tsc), "--noEmit", "-p", str(EXTENSION)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
