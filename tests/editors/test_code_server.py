"""The .vsix in real VS Code (code-server) in headless Chromium: the Problems panel.

Slow (a one-time npm install of ~300 MB that `make test` does through `make code-server-deps`,
then ~40 s a run; marked `slow`, so `pytest -m "not slow"` leaves them out of a quick loop).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections import Counter
from pathlib import Path

import pytest

from tests.editors.code_server.harness import VSIX, SetupError, code_server, drive, offline_netns

pytestmark = [pytest.mark.slow, pytest.mark.editor]

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "demo"
FEATURE = "specs/009-context-capsule"
PROBES = [
    {
        "name": "hover",
        "file": f"{FEATURE}/spec.md",
        "line": 100,
        "column": 14,
        "keys": ["Control+K", "Control+I"],
        "selector": ".monaco-hover-content",
        "expect": "BOOLEAN_INVARIANT",
    },
    {
        "name": "codelens",
        "file": f"{FEATURE}/spec.md",
        "line": 1,
        "selector": ".codelens-decoration",
        "expect": "Capsule:",
    },
]


def test_problems_panel_shows_the_findings_of_check(tmp_path: Path) -> None:
    if not VSIX.exists():
        pytest.fail(f"{VSIX} is missing: build it with `make vsix`")
    server = shutil.which("gemstack-lsp", path=str(Path(sys.executable).parent))
    assert server, "gemstack-lsp is not installed in the venv"
    repo = tmp_path / "demo"
    shutil.copytree(DEMO, repo, symlinks=True)
    proc = subprocess.run(
        [server, "check", "--format", "json", "--exit-zero", str(repo)], capture_output=True, text=True, timeout=120
    )
    findings = json.loads(proc.stdout)["findings"]
    severities = Counter(f["severity"] for f in findings)
    codes = sorted({f["code"] for f in findings})
    assert "CONTEXT_CAPSULE_STALE" in codes, "examples/demo should ship a stale context capsule"
    capsule = repo / FEATURE / "context-capsule.json"
    capsule_before = capsule.read_bytes()
    try:
        with code_server(tmp_path / "cs", Path(server)) as url:
            result = drive(
                url,
                repo,
                tmp_path / "result.json",
                {
                    "GEMSTACK_EXPECTED": json.dumps({"codes": codes}),
                    "GEMSTACK_MAXIMIZE": "1",
                    "GEMSTACK_PROBES": json.dumps(PROBES),
                    "GEMSTACK_AFTER": json.dumps(
                        {
                            "file": f"{FEATURE}/spec.md",
                            "command": "Gemstack: Regenerate Context Capsule",
                            "gone": "CONTEXT_CAPSULE_STALE",
                        }
                    ),
                },
            )
    except SetupError as exc:
        pytest.fail(str(exc))
    print(f"\ncode-server: {result.get('steps')}, regenerate {result.get('after')}, total {result.get('total_ms')} ms")
    assert result.get("ok"), result.get("error")
    assert not result.get("open_failures"), f"files the driver could not open: {result['open_failures']}"
    status = result["problems"]["status"] or ""
    counts = {k.lower(): int(v) for k, v in re.findall(r"(Errors|Warnings|Infos): (\d+)", status)}
    assert counts.get("errors", 0) == severities["error"], status
    assert counts.get("warnings", 0) == severities["warning"], status
    text = "\n".join(r["text"] for r in result["problems"]["rows"])
    shown = {c for c in codes if c in text}
    assert shown == set(codes), f"missing from the Problems panel: {sorted(set(codes) - shown)}"
    assert "gemstack" in text
    assert "zero-dependency-core" in result["probes"]["hover"], result["probes"]
    assert "BOOLEAN_INVARIANT" in result["probes"]["hover"], result["probes"]
    assert "Capsule: STALE" in result["probes"]["codelens"], result["probes"]
    # The palette command regenerated the capsule through the server; the stale finding left.
    assert (result.get("after") or {}).get("gone"), result.get("notifications")
    assert capsule.read_bytes() != capsule_before


def _path_without_server() -> str:
    """PATH without any folder holding a gemstack-lsp (the venv's included)."""
    path = os.pathsep.join(
        d for d in os.environ.get("PATH", "").split(os.pathsep) if d and not (Path(d) / "gemstack-lsp").exists()
    )
    assert str(Path(sys.executable).parent) not in path.split(os.pathsep)
    return path


@pytest.mark.parametrize("network", ["online", "offline"])
def test_without_a_server_the_platform_vsix_runs_its_bundled_one(tmp_path: Path, network: str) -> None:
    """No gemstack.server.path, nothing on PATH, no .venv, no pipx or uv install: the platform
    .vsix runs the server from the libraries it carries with the user's python3, with no pip and
    no virtual environment, so it works with the network cut (code-server and Chromium in a
    network namespace with loopback only). The stale capsule shows in the Problems panel and the
    status bar, clicking the item regenerates it, and the `gemstack-lsp` launcher the extension
    wrote runs the CLI as the docs show. Prints the time from install to the first diagnostic."""
    if not VSIX.exists():
        pytest.fail(f"{VSIX} is missing: build it with `make vsix`")
    with zipfile.ZipFile(VSIX) as vsix:
        manifest = json.loads(vsix.read("extension/bundled/manifest.json"))
    assert manifest["pythons"], f"{VSIX.name} is the universal build; `make vsix` builds this platform's"
    home = Path.home()
    for tool in (
        home / ".local" / "bin" / "gemstack-lsp",
        home / ".local" / "pipx" / "venvs" / "gemstack-lsp",
        home / ".local" / "share" / "uv" / "tools" / "gemstack-lsp",
    ):
        assert not tool.exists(), f"{tool} exists: this test needs a machine without another install"
    prefix: list[str] = []
    if network == "offline":
        try:
            prefix = offline_netns()
        except SetupError as exc:
            pytest.fail(str(exc))
        probe = "import socket; socket.create_connection(('151.101.0.223', 443), timeout=3)"
        cut = subprocess.run([*prefix, sys.executable, "-c", probe], capture_output=True, timeout=60)
        assert cut.returncode != 0, "the network namespace reaches the internet"
    repo = tmp_path / "demo"
    shutil.copytree(DEMO, repo, symlinks=True)
    capsule = repo / FEATURE / "context-capsule.json"
    capsule_before = capsule.read_bytes()
    workdir = tmp_path / "cs"
    storage = workdir / "data" / "User" / "globalStorage" / "gemstack.gemstack-lsp"
    terminal_out = tmp_path / "terminal-verify.json"
    timings: dict[str, float] = {}
    try:
        with code_server(workdir, None, env={"PATH": _path_without_server()}, prefix=prefix, timings=timings) as url:
            result = drive(
                url,
                repo,
                tmp_path / "result.json",
                {
                    "GEMSTACK_TIMEOUT_MS": "120000",
                    "GEMSTACK_EXPECTED": json.dumps({"codes": ["CONTEXT_CAPSULE_STALE"]}),
                    "GEMSTACK_PROBES": json.dumps(
                        [
                            {
                                "name": "status",
                                "file": f"{FEATURE}/spec.md",
                                "line": 1,
                                "selector": ".statusbar-item",
                                "expect": "Capsule STALE",
                            }
                        ]
                    ),
                    "GEMSTACK_STATUS_CLICK": json.dumps(
                        {"file": f"{FEATURE}/spec.md", "text": "Capsule STALE", "expect": "Capsule VALID"}
                    ),
                    # The docs' terminal example in the terminal the extension opens.
                    "GEMSTACK_TERMINAL": json.dumps(
                        {
                            "command": "Gemstack: Open a Terminal with gemstack-lsp",
                            "type": f"cd {repo} && gemstack-lsp context verify {FEATURE} --json > {terminal_out}",
                            "expectFile": str(terminal_out),
                        }
                    ),
                },
                prefix=prefix,
                timings=timings,
            )
    except SetupError as exc:
        pytest.fail(str(exc))
    first = timings["drive"] + result["steps"]["problems"] / 1000
    # The extension's own part, as it logged it (activation to server running, to first diagnostics).
    logs = "\n".join(p.read_text("utf-8") for p in (workdir / "data" / "logs").rglob("*-Gemstack.log"))
    own = re.findall(r"(the server is running|first diagnostics) \(?(\d+) ms after activation", logs)
    at = re.search(r"first diagnostics .* \(at (\d+) ms since the epoch\)", logs)
    in_vscode = f"{int(at.group(1)) / 1000 - timings['wall']:.1f} s" if at else "?"
    print(
        f"\ncode-server {network}: install {timings['installed']:.1f} s, code-server up {timings['ready']:.1f} s; "
        f"first stale diagnostic in VS Code {in_vscode}, in the Problems panel as the browser saw it {first:.1f} s "
        f"after the install began; steps {result.get('steps')}; "
        f"extension: {', '.join(f'{what} {ms} ms' for what, ms in own)} after activation"
    )
    assert result.get("ok"), result.get("error")
    assert not result.get("open_failures"), f"files the driver could not open: {result['open_failures']}"
    text = "\n".join(r["text"] + " " + r["label"] for r in result["problems"]["rows"])
    assert "CONTEXT_CAPSULE_STALE" in text
    assert "Capsule STALE" in result["probes"]["status"], result["probes"]
    # Nothing was installed: no private environment, no pip.
    assert not (storage / "server").exists(), "the platform build created a virtual environment"
    seen = "\n".join(result.get("seen_notifications") or [])
    assert "installing the language server" not in seen, seen
    # A click on the STALE item regenerated the capsule; the item then says VALID.
    assert (result.get("status_click") or {}).get("reached"), result.get("status_click")
    assert capsule.read_bytes() != capsule_before
    after = "\n".join(result.get("notifications_after_click") or [])
    assert "Context capsule written: specs/009-context-capsule/context-capsule.json" in after, after
    # In the terminal that "Gemstack: Open a Terminal with gemstack-lsp" opened, the docs' example
    # ran (after the regenerate, so the capsule verifies VALID).
    assert (result.get("terminal") or {}).get("written"), result.get("terminal")
    assert '"VALID"' in terminal_out.read_text("utf-8"), terminal_out.read_text("utf-8")[:2000]
    # The launcher the extension put on its terminals' PATH runs the docs' terminal examples.
    launcher = storage / "bin" / "gemstack-lsp"
    assert launcher.is_file(), sorted(p.name for p in storage.rglob("*"))[:20]
    path = os.pathsep.join([str(launcher.parent), _path_without_server()])
    env = {**os.environ, "PATH": path}
    env.pop("PYTHONPATH", None)
    version = subprocess.run([*prefix, "gemstack-lsp", "--version"], env=env, capture_output=True, text=True, timeout=9)
    assert version.returncode == 0 and version.stdout.strip().startswith("gemstack-lsp "), version.stderr
    verify = subprocess.run(
        [*prefix, "gemstack-lsp", "context", "verify", FEATURE, "--json"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert '"VALID"' in verify.stdout, verify.stdout + verify.stderr


def test_a_bad_setting_never_blocks_the_commands_and_opens_its_setting(tmp_path: Path) -> None:
    """gemstack.server.path names nothing: the error toast stays open while a Gemstack command
    still answers (activation does not wait on it), and its "Open Settings" shows the setting."""
    if not VSIX.exists():
        pytest.fail(f"{VSIX} is missing: build it with `make vsix`")
    repo = tmp_path / "demo"
    shutil.copytree(DEMO, repo, symlinks=True)
    try:
        with code_server(tmp_path / "cs", tmp_path / "nowhere" / "gemstack-lsp") as url:
            result = drive(
                url,
                repo,
                tmp_path / "result.json",
                {
                    "GEMSTACK_TOAST": json.dumps(
                        {
                            "text": "which is not an executable",
                            "command": "Gemstack: Check Workspace",
                            "answer": "the language server is not running",
                            "button": "Open Settings",
                            # The result count, and the titles of the settings shown.
                            "selector": ".settings-editor .settings-count-widget, .settings-editor .setting-item-title",
                            "expect": "Server: Path",
                        }
                    ),
                },
            )
    except SetupError as exc:
        pytest.fail(str(exc))
    assert result.get("ok"), result.get("error")
    assert not result.get("open_failures"), f"files the driver could not open: {result['open_failures']}"
    toast = result["toast"]
    assert "gemstack.server.path" in toast["shown"]
    assert toast["answered"], toast.get("notifications")
    assert "Server: Path" in toast["after"], toast["after"][:500]
    assert "1 Setting Found" in toast["after"] and "No Settings Found" not in toast["after"], toast["after"]


def _universal_copy(vsix: Path, dest: Path) -> Path:
    """The platform .vsix without its libraries: what the universal build carries (the wheel and
    the launcher, an empty list of Pythons), so its extension installs from PyPI on first use."""
    with zipfile.ZipFile(vsix) as src, zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            if info.filename.startswith("extension/bundled/libs/"):
                continue
            data = src.read(info.filename)
            if info.filename == "extension/bundled/manifest.json":
                manifest = json.loads(data)
                data = json.dumps({**manifest, "target": "universal", "pythons": [], "wheels": {}}).encode()
            out.writestr(info, data)
    return dest


def test_without_a_network_the_universal_vsix_says_so_and_offers_the_fixes(tmp_path: Path) -> None:
    """The universal build installs its dependencies from PyPI. With the network cut, its error
    says in one or two sentences that the package index could not be reached and what to do, with
    the documented buttons (Copy Install Command copies the pipx command); pip's own report is in
    the output channel, not in the notification."""
    if not VSIX.exists():
        pytest.fail(f"{VSIX} is missing: build it with `make vsix`")
    try:
        prefix = offline_netns()
    except SetupError as exc:
        pytest.fail(str(exc))
    universal = _universal_copy(VSIX, tmp_path / "gemstack-lsp-universal.vsix")
    repo = tmp_path / "demo"
    shutil.copytree(DEMO, repo, symlinks=True)
    workdir = tmp_path / "cs"
    try:
        with code_server(workdir, None, env={"PATH": _path_without_server()}, prefix=prefix, vsix=universal) as url:
            result = drive(
                url,
                repo,
                tmp_path / "result.json",
                {
                    "GEMSTACK_TIMEOUT_MS": "180000",
                    "GEMSTACK_TOAST": json.dumps(
                        {
                            "text": "could not reach the package index",
                            "button": "Copy Install Command",
                            "selector": ".notification-toast",
                            "expect": "Gemstack: copied",
                        }
                    ),
                },
                prefix=prefix,
            )
    except SetupError as exc:
        pytest.fail(str(exc))
    toast = result.get("toast") or {}
    shown = toast.get("shown", "")
    sentence = re.search(r"Gemstack: installing.*?needs no network", shown)
    print(f"\nuniversal .vsix offline: {sentence.group(0) if sentence else shown[:400]!r}")
    assert "installing gemstack-lsp and its dependencies failed" in shown, shown
    for button in ("Install or Update the Server", "Copy Install Command", "Open Settings"):
        assert button in shown, shown
    assert not re.search(r"Errno|Traceback|NewConnectionError|Retry\(", shown), shown
    assert "Gemstack: copied" in toast.get("after", "") and "pipx install" in toast.get("after", ""), toast
    logs = "\n".join(p.read_text("utf-8") for p in (workdir / "data" / "logs").rglob("*-Gemstack.log"))
    assert re.search(r"Failed to establish a new connection|name resolution|Network is unreachable", logs), logs[-3000:]


def test_the_universal_vsix_installs_its_dependencies_online(tmp_path: Path) -> None:
    """The universal build with the network: the first activation creates the private
    environment and installs the wheel with its dependencies from PyPI, then the stale capsule
    shows; the terminal launcher points at the environment's gemstack-lsp."""
    if not VSIX.exists():
        pytest.fail(f"{VSIX} is missing: build it with `make vsix`")
    universal = _universal_copy(VSIX, tmp_path / "gemstack-lsp-universal.vsix")
    repo = tmp_path / "demo"
    shutil.copytree(DEMO, repo, symlinks=True)
    workdir = tmp_path / "cs"
    storage = workdir / "data" / "User" / "globalStorage" / "gemstack.gemstack-lsp"
    timings: dict[str, float] = {}
    try:
        with code_server(workdir, None, env={"PATH": _path_without_server()}, vsix=universal, timings=timings) as url:
            result = drive(
                url,
                repo,
                tmp_path / "result.json",
                {
                    # pip fetches the server's dependencies: give the install time.
                    "GEMSTACK_TIMEOUT_MS": "240000",
                    "GEMSTACK_EXPECTED": json.dumps({"codes": ["CONTEXT_CAPSULE_STALE"]}),
                },
                timings=timings,
            )
    except SetupError as exc:
        pytest.fail(str(exc))
    first = timings["drive"] + result["steps"]["problems"] / 1000
    print(f"\nuniversal .vsix online: first stale diagnostic {first:.1f} s after the install began")
    assert result.get("ok"), result.get("error")
    assert not result.get("open_failures"), f"files the driver could not open: {result['open_failures']}"
    seen = "\n".join(result.get("seen_notifications") or [])
    assert "installing the language server" in seen, seen
    text = "\n".join(r["text"] + " " + r["label"] for r in result["problems"]["rows"])
    assert "CONTEXT_CAPSULE_STALE" in text
    private = storage / "server"
    assert (private / "bin" / "gemstack-lsp").exists(), f"no server in the private environment {private}"
    marker = json.loads((private / "gemstack-install.json").read_text())
    assert marker["wheel"].startswith("gemstack_lsp-") and marker["wheel"].endswith(".whl")
    launcher = (storage / "bin" / "gemstack-lsp").read_text("utf-8")
    assert str(private / "bin" / "gemstack-lsp") in launcher, launcher
