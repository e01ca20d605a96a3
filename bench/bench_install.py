"""What a user waits for after installing an editor client (issue 21), measured without the editor.

- **vsix**: the platform .vsix's bundled server (editors/vscode/gemstack-lsp.vsix, from
  `make vsix`), unpacked and started as the extension starts it (``python -I
  bundled/tool/gemstack_launch.py serve``): seconds to the initialize answer and to the first
  diagnostics of the demo's spec.md, opened; with the bytecode the .vsix carries, and without it
  (as on a Python it carries no bytecode for).
- **wheelhouse**: Neovim's :GemstackInstall offline, from this platform's wheelhouse
  (editors/vscode/scripts/bundle_python.py --wheelhouse): a venv without pip, then the host's
  ``pip --python ... --no-index --find-links`` (what the plugin does when the host pip can), against
  a venv with its own pip (ensurepip) installing the same way.

Every number is printed (median of ``RUNS``), never asserted. Runs offline once the wheel cache
(.cache/vsix) holds this platform's wheels.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

from bench.lspclient import LspClient, path_uri

ROOT = Path(__file__).resolve().parents[1]
VSIX = ROOT / "editors" / "vscode" / "gemstack-lsp.vsix"
BUNDLE = ROOT / "editors" / "vscode" / "scripts" / "bundle_python.py"
DEMO = ROOT / "examples" / "demo"
SPEC = "specs/009-context-capsule/spec.md"
RUNS = 3
TIMEOUT_S = 120.0


def _median(samples: list[float]) -> str:
    return f"{statistics.median(samples):.2f} s (runs: {', '.join(f'{s:.2f}' for s in samples)})"


def first_start(extension: Path, demo: Path) -> tuple[float, float]:
    """Seconds from spawning the bundled server to its initialize answer and to the first
    diagnostics of the opened spec."""
    launcher = extension / "bundled" / "tool" / "gemstack_launch.py"
    client = LspClient(demo, [sys.executable, "-I", str(launcher), "serve"])
    try:
        reply = client.initialize(TIMEOUT_S)
        initialized = time.perf_counter() - client.spawned
        if not reply.answered:
            raise RuntimeError(f"initialize: {reply.describe()}")
        spec = demo / SPEC
        uri = path_uri(spec)
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": spec.read_text("utf-8")}},
        )
        published = client.wait_publish(uri, 1, client.spawned, TIMEOUT_S)
        if published is None:
            raise RuntimeError("no diagnostics for the opened spec")
        return initialized, published
    finally:
        client.close()


def bench_vsix() -> None:
    if not VSIX.is_file():
        print(f"vsix: {VSIX.relative_to(ROOT)} is missing; build it with `make vsix`")
        return
    with tempfile.TemporaryDirectory(prefix="gemstack-bench-vsix-") as tmp:
        work = Path(tmp)
        with zipfile.ZipFile(VSIX) as zf:
            zf.extractall(work)
        extension = work / "extension"
        pristine = work / "pristine"
        shutil.copytree(extension, pristine)
        demo = work / "demo"
        shutil.copytree(DEMO, demo, symlinks=True)
        for label, keep_bytecode in (("with the bundled bytecode", True), ("without bytecode", False)):
            inits, diags = [], []
            for _ in range(RUNS):
                shutil.rmtree(extension)
                shutil.copytree(pristine, extension)
                if not keep_bytecode:
                    for cache in list(extension.rglob("__pycache__")):
                        shutil.rmtree(cache)
                init, diag = first_start(extension, demo)
                inits.append(init)
                diags.append(diag)
            print(f"vsix first start {label}: initialize {_median(inits)}; first diagnostics {_median(diags)}")


def _timed(step: Callable[[], None]) -> float:
    started = time.perf_counter()
    step()
    return time.perf_counter() - started


def bench_wheelhouse() -> None:
    with tempfile.TemporaryDirectory(prefix="gemstack-bench-wheelhouse-") as tmp:
        work = Path(tmp)
        archive = work / "wheelhouse.tar.gz"
        argv = [sys.executable, str(BUNDLE), "--target", "host", "--no-compile", "--out", str(work / "bundled")]
        made = subprocess.run(
            [*argv, "--wheelhouse", str(archive)],
            capture_output=True,
            text=True,
        )
        if made.returncode != 0:
            print(f"wheelhouse: could not make one: {made.stderr.strip()[-300:]}")
            return
        wheels = work / "wheels"
        shutil.unpack_archive(archive, wheels)
        found = next(wheels.rglob("gemstack_lsp-*.whl")).parent
        pip_args = ["install", "--quiet", "--disable-pip-version-check", "--no-index", "--find-links", str(found)]
        for label, without_pip in (("venv --without-pip + host pip --python", True), ("venv with ensurepip", False)):
            samples = []
            for i in range(RUNS):
                env = work / f"env-{without_pip}-{i}"
                python = env / "bin" / "python"

                def install(env: Path = env, python: Path = python, without_pip: bool = without_pip) -> None:
                    venv = [sys.executable, "-m", "venv", *(["--without-pip"] if without_pip else []), str(env)]
                    subprocess.run(venv, check=True)
                    pip = (
                        [sys.executable, "-m", "pip", "--python", str(python)]
                        if without_pip
                        else [str(python), "-m", "pip"]
                    )
                    subprocess.run([*pip, *pip_args, "gemstack-lsp"], check=True)

                samples.append(_timed(install))
            print(f"wheelhouse install offline, {label}: {_median(samples)}")


def main() -> None:
    bench_vsix()
    bench_wheelhouse()


if __name__ == "__main__":
    main()
