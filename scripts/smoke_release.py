"""Runs a release file on the machine at hand, with the Python that runs this script.

    python scripts/smoke_release.py vsix dist/gemstack-lsp-linux-x64-0.1.0.vsix
    python scripts/smoke_release.py wheelhouse dist/gemstack-lsp-wheelhouse-linux-x64-0.1.0.tar.gz

``vsix``: unpacks the extension and runs its bundled server as the extension does
(``python -I bundled/tool/gemstack_launch.py``): ``--version``, ``check`` on examples/demo (the
stale capsule must be reported) and ``serve`` (an LSP initialize and shutdown over stdio).
``wheelhouse``: installs it into a new virtual environment with ``pip --no-index`` (as Neovim's
:GemstackInstall does offline) and runs the installed ``gemstack-lsp`` the same way.

The release workflow runs it on each platform's runner; the release tests run it here. Nothing
is fetched: a file that needs the network to run fails.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "examples" / "demo"


class SmokeError(RuntimeError):
    """What did not work, in one line."""


def _frame(message: dict[str, object]) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _read_frames(data: bytes) -> list[dict[str, object]]:
    out = []
    while data:
        head, _, rest = data.partition(b"\r\n\r\n")
        length = next(
            int(v) for k, v in (h.split(b":", 1) for h in head.split(b"\r\n")) if k.lower() == b"content-length"
        )
        out.append(json.loads(rest[:length]))
        data = rest[length:]
    return out


def _clean_env() -> dict[str, str]:
    """The environment without anything that would put another gemstack_lsp on sys.path."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}


def exercise(command: list[str], version: str) -> list[str]:
    """Runs the CLI and the server; answers what each run showed (one line each)."""
    env = _clean_env()
    done = subprocess.run([*command, "--version"], capture_output=True, text=True, timeout=120, env=env)
    if done.returncode != 0 or done.stdout.strip() != f"gemstack-lsp {version}":
        raise SmokeError(f"--version: exit {done.returncode}, {done.stdout.strip()!r} {done.stderr.strip()[-500:]}")
    lines = [done.stdout.strip()]
    with tempfile.TemporaryDirectory() as scratch:
        # A copy: check is read-only, but the demo in the checkout must stay as it is regardless.
        demo = Path(scratch) / "demo"
        shutil.copytree(DEMO, demo, symlinks=True)
        checked = subprocess.run(
            [*command, "check", "--format", "json", "--exit-zero", str(demo)],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
        )
        if checked.returncode != 0:
            raise SmokeError(f"check: exit {checked.returncode}: {checked.stderr.strip()[-500:]}")
        codes = {f["code"] for f in json.loads(checked.stdout)["findings"]}
        if "CONTEXT_CAPSULE_STALE" not in codes:
            raise SmokeError(f"check: no CONTEXT_CAPSULE_STALE on the demo (found {sorted(codes)})")
        lines.append(f"check: {len(codes)} finding codes on the demo, CONTEXT_CAPSULE_STALE among them")
        requests = (
            _frame(
                {
                    "id": 1,
                    "method": "initialize",
                    "params": {"processId": None, "rootUri": demo.as_uri(), "capabilities": {}},
                }
            )
            + _frame({"method": "initialized", "params": {}})
            + _frame({"id": 2, "method": "shutdown"})
            + _frame({"method": "exit"})
        )
        served = subprocess.run([*command, "serve"], input=requests, capture_output=True, timeout=120, env=env)
    answers = {m.get("id"): m for m in _read_frames(served.stdout) if "id" in m and "method" not in m}
    result = answers.get(1, {}).get("result")
    if not isinstance(result, dict) or "capabilities" not in result:
        raise SmokeError(f"serve: no initialize answer (exit {served.returncode}): {served.stderr.decode()[-500:]}")
    if served.returncode != 0:
        raise SmokeError(f"serve: exit {served.returncode} after shutdown and exit")
    info = result.get("serverInfo") or {}
    lines.append(f"serve: initialize answered by {info.get('name')} {info.get('version')}, shut down cleanly")
    return lines


def smoke_vsix(vsix: Path, work: Path) -> list[str]:
    with zipfile.ZipFile(vsix) as zf:
        zf.extractall(work)
        version = json.loads(zf.read("extension/package.json"))["version"]
    bundle = json.loads((work / "extension" / "bundled" / "manifest.json").read_text("utf-8"))
    mine = f"{sys.version_info[0]}.{sys.version_info[1]}"
    if mine not in bundle["pythons"]:
        raise SmokeError(f"{vsix.name} carries libraries for {bundle['pythons']}, not for this Python {mine}")
    launcher = work / "extension" / "bundled" / "tool" / "gemstack_launch.py"
    return [
        f"{vsix.name} ({bundle['target']}) with Python {mine}",
        *exercise([sys.executable, "-I", str(launcher)], version),
    ]


def smoke_wheelhouse(archive: Path, work: Path) -> list[str]:
    with tarfile.open(archive) as tar:
        tar.extractall(work, filter="data")
    wheels = sorted(work.rglob("gemstack_lsp-*.whl"))
    if len(wheels) != 1:
        raise SmokeError(f"{archive.name}: expected one gemstack_lsp wheel, found {len(wheels)}")
    version = wheels[0].name.split("-")[1]
    venv = work / "venv"
    env = _clean_env()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300, env=env)
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    pip = [str(bindir / "python"), "-m", "pip", "install", "--disable-pip-version-check", "--no-index"]
    done = subprocess.run(
        [*pip, "--find-links", str(wheels[0].parent), "gemstack-lsp"],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    if done.returncode != 0:
        raise SmokeError(f"pip install --no-index from {archive.name}: {done.stdout[-500:]} {done.stderr[-800:]}")
    server = bindir / "gemstack-lsp"
    return [f"{archive.name} installed offline into {venv}", *exercise([str(server)], version)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=("vsix", "wheelhouse"))
    parser.add_argument("files", type=Path, nargs="+")
    args = parser.parse_args(argv)
    for file in args.files:
        with tempfile.TemporaryDirectory(prefix="gemstack-smoke-") as work:
            try:
                lines = (smoke_vsix if args.kind == "vsix" else smoke_wheelhouse)(file, Path(work))
            except (SmokeError, OSError, subprocess.SubprocessError, KeyError, ValueError) as exc:
                print(f"smoke-release: {file.name}: {exc}", file=sys.stderr)
                return 1
        for line in lines:
            print(f"smoke-release: {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
