"""The VS Code extension's server lookup (editors/vscode/src/serverPath.ts), run under node.

Uses the extension's own esbuild (installed by `make vsix`, which `make test` runs first).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "editors" / "vscode"
ESBUILD = EXTENSION / "node_modules" / ".bin" / "esbuild"


def test_server_lookup_order_and_errors(tmp_path: Path) -> None:
    if not ESBUILD.exists():
        pytest.fail(f"{ESBUILD} is missing: run `make vsix` (npm ci in editors/vscode)")
    node = shutil.which("node")
    assert node, "node is not on PATH (Node 20 is needed to build the extension)"
    bundle = tmp_path / "serverPath.js"
    subprocess.run(
        [
            str(ESBUILD),
            str(EXTENSION / "src" / "serverPath.ts"),
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
        [node, str(EXTENSION / "test" / "serverPath.test.js"), str(bundle)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert "serverPath: ok" in proc.stdout
