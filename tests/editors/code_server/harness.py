"""code-server (VS Code in the browser) with the packaged extension, driven by playwright-core.

Set-up follows docs on these machines (reference/editor-testing.md): npm `code-server@4.100.3`
(the last for Node 20) with its install scripts allowed, native build dependencies and a ripgrep
download cache seeded from Debian's `rg`, then Debian's `chromium` driven headless.
Everything is installed once into a cache folder outside the repository.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import tarfile
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
VSIX = ROOT / "editors" / "vscode" / "gemstack-lsp.vsix"
DRIVER = Path(__file__).with_name("drive.js")
CODE_SERVER_VERSION = "4.100.3"
PLAYWRIGHT_VERSION = "1.57.0"
CACHE = Path(os.environ.get("GEMSTACK_CODE_SERVER_DIR", Path.home() / ".cache" / "gemstack-lsp-tests" / "code-server"))
APT_PACKAGES = [
    "libkrb5-dev",
    "libx11-dev",
    "libxkbfile-dev",
    "libsecret-1-dev",
    "build-essential",
    "pkg-config",
    "chromium",
    "ripgrep",
]


class SetupError(RuntimeError):
    """What is missing, and how to get it."""


def code_server_bin() -> Path:
    return CACHE / "node_modules" / ".bin" / "code-server"


def ensure_system_packages() -> None:
    missing = [p for p in ("/usr/bin/chromium", "/usr/bin/rg") if not Path(p).exists()]
    if not missing:
        return
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        raise SetupError(f"missing {', '.join(missing)}: apt-get install {' '.join(APT_PACKAGES)}")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, timeout=600)
    subprocess.run(["apt-get", "install", "-y", "-qq", *APT_PACKAGES], check=True, env=env, timeout=1200)


def _seed_ripgrep_cache() -> None:
    """@vscode/ripgrep downloads rg from GitHub on install: hand it Debian's instead."""
    cache = Path(tempfile.gettempdir()) / "vscode-ripgrep-cache-1.15.11"
    archive = cache / "ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
    if archive.exists():
        return
    cache.mkdir(parents=True, exist_ok=True)
    with tarfile.open(archive, "w:gz") as tar:
        tar.add("/usr/bin/rg", arcname="rg")


def ensure_code_server() -> Path:
    if code_server_bin().exists() and (CACHE / "node_modules" / "playwright-core").is_dir():
        return code_server_bin()
    ensure_system_packages()
    _seed_ripgrep_cache()
    CACHE.mkdir(parents=True, exist_ok=True)
    manifest = {
        "name": "gemstack-code-server-test",
        "private": True,
        "dependencies": {"code-server": CODE_SERVER_VERSION, "playwright-core": PLAYWRIGHT_VERSION},
        # npm 11 runs no dependency install scripts unless allowed; code-server needs its own.
        "allowScripts": {"code-server": True, "argon2": True},
    }
    (CACHE / "package.json").write_text(json.dumps(manifest, indent=2) + "\n")
    env = {**os.environ, "npm_config_unsafe_perm": "true", "npm_config_yes": "true"}
    subprocess.run(["npm", "install", "--no-audit", "--no-fund"], cwd=CACHE, env=env, check=True, timeout=1800)
    if not code_server_bin().exists():
        raise SetupError(f"npm install did not produce {code_server_bin()}")
    return code_server_bin()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


SETTINGS = {
    "security.workspace.trust.enabled": False,
    "workbench.startupEditor": "none",
    "telemetry.telemetryLevel": "off",
    "extensions.autoCheckUpdates": False,
    "extensions.autoUpdate": False,
    "update.mode": "none",
    "workbench.tips.enabled": False,
    "chat.disableAIFeatures": True,
    "editor.minimap.enabled": False,
    "workbench.colorTheme": "Default Light Modern",
}


@contextlib.contextmanager
def code_server(
    workdir: Path,
    server: Path | None,
    extra_settings: dict[str, Any] | None = None,
    env: dict[str, str] | None = None,
) -> Iterator[str]:
    """A running code-server with the .vsix installed; yields its base URL.

    ``server`` goes into gemstack.server.path (``None``: left unset); ``env`` overrides the
    environment code-server (and so the extension host) runs in.
    """
    binary = ensure_code_server()
    ext, data, cfg = workdir / "extensions", workdir / "data", workdir / "config"
    (data / "User").mkdir(parents=True, exist_ok=True)
    settings = {**SETTINGS, **({"gemstack.server.path": str(server)} if server else {}), **(extra_settings or {})}
    (data / "User" / "settings.json").write_text(json.dumps(settings, indent=2))
    env = {**os.environ, **(env or {}), "XDG_CONFIG_HOME": str(cfg), "XDG_DATA_HOME": str(workdir / "xdg-data")}
    common = ["--extensions-dir", str(ext), "--user-data-dir", str(data)]
    subprocess.run(
        [str(binary), *common, "--install-extension", str(VSIX)],
        env=env,
        check=True,
        timeout=300,
        capture_output=True,
    )
    port = free_port()
    log = (workdir / "code-server.log").open("w")
    proc = subprocess.Popen(
        [
            str(binary),
            *common,
            "--auth",
            "none",
            "--bind-addr",
            f"127.0.0.1:{port}",
            "--disable-telemetry",
            "--disable-update-check",
            "--disable-workspace-trust",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(url + "/healthz", timeout=2).read()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SetupError(f"code-server did not start; see {workdir / 'code-server.log'}") from None
                time.sleep(0.3)
        yield url
    finally:
        # Stop the code-server we started, and its children (same session).
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, 15)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, 9)
            proc.wait(timeout=20)
        log.close()


def drive(url: str, folder: Path, result: Path, env_extra: dict[str, str], shots: Path | None = None) -> dict[str, Any]:
    env = {**os.environ, "NODE_PATH": str(CACHE / "node_modules"), **env_extra}
    args = ["node", str(DRIVER), f"{url}/?folder={folder}", str(result)]
    if shots is not None:
        args.append(str(shots))
    proc = subprocess.run(args, env=env, capture_output=True, text=True, timeout=600)
    if not result.exists():
        raise SetupError(f"drive.js wrote nothing (exit {proc.returncode}): {proc.stderr[-3000:]}")
    data: dict[str, Any] = json.loads(result.read_text())
    data["exit"] = proc.returncode
    return data


if __name__ == "__main__":
    # `make code-server-deps`: install code-server, playwright-core and Debian's Chromium once.
    try:
        print(f"code-server: {ensure_code_server()}")
    except SetupError as exc:
        raise SystemExit(f"code-server set-up failed: {exc}") from exc
