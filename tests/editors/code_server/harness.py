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
import sys
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


def chromium() -> str | None:
    """Chromium on PATH ($CHROMIUM first): Debian's `chromium`, or `chromium-browser`."""
    named = os.environ.get("CHROMIUM")
    if named:
        return named
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def ensure_system_packages() -> None:
    missing = [name for name, found in (("chromium", chromium()), ("rg", shutil.which("rg"))) if not found]
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
    rg = shutil.which("rg")
    if rg is None:
        raise SetupError("ripgrep (rg) is not on PATH: apt-get install ripgrep")
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(rg, arcname="rg")


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


NETNS = "gemstack-offline"


def offline_netns() -> list[str]:
    """The command prefix that runs a program in a network namespace with loopback only
    (``ip netns exec gemstack-offline``), created when missing. Needs root and iproute2."""
    ip = shutil.which("ip") or shutil.which("ip", path="/usr/sbin:/sbin")
    if ip is None or os.geteuid() != 0:
        raise SetupError("cutting the network needs root and iproute2 (`ip netns`)")
    names = subprocess.run([ip, "netns", "list"], capture_output=True, text=True, check=True).stdout.split()
    if NETNS not in names:
        subprocess.run([ip, "netns", "add", NETNS], check=True, timeout=30)
    subprocess.run([ip, "netns", "exec", NETNS, ip, "link", "set", "lo", "up"], check=True, timeout=30)
    return [ip, "netns", "exec", NETNS]


@contextlib.contextmanager
def code_server(
    workdir: Path,
    server: Path | None,
    extra_settings: dict[str, Any] | None = None,
    env: dict[str, str] | None = None,
    prefix: list[str] | None = None,
    timings: dict[str, float] | None = None,
    vsix: Path = VSIX,
) -> Iterator[str]:
    """A running code-server with the .vsix installed; yields its base URL.

    ``server`` goes into gemstack.server.path (``None``: left unset); ``env`` overrides the
    environment code-server (and so the extension host) runs in; ``prefix`` runs the install and
    code-server under another command (``offline_netns()``: without a network); ``timings`` gets
    ``start`` and ``wall`` (monotonic and epoch time before the install), ``installed`` and
    ``ready`` (seconds after it); ``vsix`` is the package installed (default: `make vsix`'s).
    """
    binary = ensure_code_server()
    prefix = prefix or []
    ext, data, cfg = workdir / "extensions", workdir / "data", workdir / "config"
    (data / "User").mkdir(parents=True, exist_ok=True)
    settings = {**SETTINGS, **({"gemstack.server.path": str(server)} if server else {}), **(extra_settings or {})}
    (data / "User" / "settings.json").write_text(json.dumps(settings, indent=2))
    env = {**os.environ, **(env or {}), "XDG_CONFIG_HOME": str(cfg), "XDG_DATA_HOME": str(workdir / "xdg-data")}
    common = ["--extensions-dir", str(ext), "--user-data-dir", str(data)]
    started = time.monotonic()
    if timings is not None:
        timings["start"] = started
        timings["wall"] = time.time()
    subprocess.run(
        [*prefix, str(binary), *common, "--install-extension", str(vsix)],
        env=env,
        check=True,
        timeout=300,
        capture_output=True,
    )
    if timings is not None:
        timings["installed"] = time.monotonic() - started
    port = free_port()
    log = (workdir / "code-server.log").open("w")
    proc = subprocess.Popen(
        [
            *prefix,
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
        while not _healthy(url, prefix):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SetupError(f"code-server did not start; see {workdir / 'code-server.log'}") from None
            time.sleep(0.2)
        if timings is not None:
            timings["ready"] = time.monotonic() - started
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


def _healthy(url: str, prefix: list[str]) -> bool:
    """code-server answers /healthz (asked from inside the namespace when there is one)."""
    if not prefix:
        try:
            urllib.request.urlopen(url + "/healthz", timeout=2).read()
            return True
        except OSError:
            return False
    probe = f"import urllib.request; urllib.request.urlopen({url + '/healthz'!r}, timeout=2).read()"
    return subprocess.run([*prefix, sys.executable, "-c", probe], capture_output=True, timeout=30).returncode == 0


def drive(
    url: str,
    folder: Path,
    result: Path,
    env_extra: dict[str, str],
    shots: Path | None = None,
    prefix: list[str] | None = None,
    timings: dict[str, float] | None = None,
) -> dict[str, Any]:
    """Runs drive.js (under ``prefix`` when given); ``timings["drive"]`` gets when it started
    (seconds after ``timings["start"]``)."""
    node = shutil.which("node")
    if node is None:
        raise SetupError("node is not on PATH (Node 20 drives code-server)")
    browser = chromium()
    if browser is None:
        raise SetupError("chromium is not on PATH (apt-get install chromium, or set CHROMIUM)")
    env = {**os.environ, "NODE_PATH": str(CACHE / "node_modules"), "CHROMIUM": browser, **env_extra}
    args = [*(prefix or []), node, str(DRIVER), f"{url}/?folder={folder}", str(result)]
    if timings is not None and "start" in timings:
        timings["drive"] = time.monotonic() - timings["start"]
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
