"""Lays out the Python side of a .vsix in editors/vscode/bundled/ for one VS Code target.

    python bundle_python.py --wheel dist/gemstack_lsp-X-py3-none-any.whl --target linux-x64

A platform target (linux-x64, linux-arm64, darwin-x64, darwin-arm64, win32-x64) carries every
runtime dependency, unpacked and ready to import, so that the extension starts the server with
the Python the user has and no network, no pip and no virtual environment:

    bundled/gemstack_lsp-X-py3-none-any.whl   the server's wheel (pipx, or the online fallback)
    bundled/libs/common/                      gemstack_lsp and every pure-Python dependency
    bundled/libs/cp311/ ... cp314/            the compiled dependencies (rpds-py) per Python
    bundled/tool/gemstack_launch.py           puts libs/common and libs/cpXY on sys.path, runs the CLI
    bundled/manifest.json                     the target, the Python versions, the wheels used

The universal target carries the wheel and the launcher only; its extension installs the
dependencies from PyPI into a private environment on first use.

Wheels are fetched with ``pip download --only-binary=:all: --platform ... --python-version ...``
into a cache folder. The list a resolution produced is kept beside them for a day, so a warm
rebuild runs no pip at all (and needs no network).
"""

from __future__ import annotations

import argparse
import email.parser
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXTENSION = HERE.parent
ROOT = EXTENSION.parents[1]
LAUNCHER = HERE / "gemstack_launch.py"

#: The Python versions a platform .vsix carries libraries for (requires-python is >=3.11).
PYTHONS = ("3.11", "3.12", "3.13", "3.14")


@dataclass(frozen=True)
class Target:
    """A VS Code target platform and the wheel platform tags that run on it."""

    name: str
    platforms: tuple[str, ...]


#: VS Code's target names, and pip's platform tags for each (oldest system first; pip picks
#: the newest wheel whose tag is listed). glibc 2.17 and macOS 10.12/11.0 are what rpds-py
#: builds for; universal2 wheels run on both Mac architectures.
TARGETS: dict[str, Target] = {
    t.name: t
    for t in (
        Target("linux-x64", ("manylinux2014_x86_64", "manylinux_2_17_x86_64")),
        Target("linux-arm64", ("manylinux2014_aarch64", "manylinux_2_17_aarch64")),
        Target(
            "darwin-x64",
            ("macosx_10_9_x86_64", "macosx_10_12_x86_64", "macosx_10_9_universal2", "macosx_10_12_universal2"),
        ),
        Target("darwin-arm64", ("macosx_11_0_arm64", "macosx_10_9_universal2", "macosx_10_12_universal2")),
        Target("win32-x64", ("win_amd64",)),
    )
}
UNIVERSAL = "universal"
ALL_TARGETS = (*TARGETS, UNIVERSAL)
#: How long a cached resolution is trusted before pip is asked again.
LOCK_MAX_AGE_S = 24 * 3600


class BundleError(RuntimeError):
    """What went wrong, in one sentence."""


def host_target() -> str:
    """The VS Code target of this machine (what `make vsix` builds)."""
    import platform

    machine = platform.machine().lower()
    arch = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(machine)
    system = {"linux": "linux", "darwin": "darwin", "win32": "win32"}.get(sys.platform)
    name = f"{system}-{arch}"
    return name if name in TARGETS else UNIVERSAL


def requirements_of(wheel: Path) -> list[str]:
    """The wheel's Requires-Dist lines without extras (what the server needs at run time)."""
    with zipfile.ZipFile(wheel) as zf:
        meta = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        message = email.parser.Parser().parsestr(zf.read(meta).decode("utf-8"))
    return [r for r in message.get_all("Requires-Dist") or [] if "extra ==" not in r]


def _abi(python: str) -> str:
    return "cp" + python.replace(".", "")


def _lock_path(cache: Path, target: Target, python: str, requirements: list[str]) -> Path:
    key = hashlib.sha256(json.dumps([target.platforms, python, requirements]).encode()).hexdigest()[:16]
    return cache / "locks" / f"{target.name}-{_abi(python)}-{key}.json"


def fetch(cache: Path, target: Target, python: str, requirements: list[str], log: list[str]) -> list[Path]:
    """The dependency wheels for one target and Python version (from the cache when it can)."""
    lock = _lock_path(cache, target, python, requirements)
    wheels_dir = cache / "wheels"
    if lock.exists() and time.time() - lock.stat().st_mtime < LOCK_MAX_AGE_S:
        names = json.loads(lock.read_text("utf-8"))
        paths = [wheels_dir / n for n in names]
        if all(p.is_file() for p in paths):
            log.append(f"{target.name} {python}: {len(paths)} wheels from the cache")
            return paths
    dest = cache / "resolve" / f"{target.name}-{_abi(python)}"
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    # Wheels already fetched for another resolution are offered first (--find-links), so pip
    # only asks the index which versions exist.
    wheels_dir.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-input"]
    argv += ["--dest", str(dest), "--find-links", str(wheels_dir), "--only-binary=:all:"]
    for tag in target.platforms:
        argv += ["--platform", tag]
    argv += [
        "--python-version",
        python,
        "--implementation",
        "cp",
        "--abi",
        _abi(python),
        "--abi",
        "abi3",
        "--abi",
        "none",
    ]
    argv += requirements
    started = time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        tail = " ".join(proc.stderr.strip().splitlines()[-3:])
        raise BundleError(f"pip download for {target.name} Python {python} failed: {tail}")
    names = sorted(p.name for p in dest.iterdir() if p.name.endswith(".whl"))
    for name in names:
        if not (wheels_dir / name).exists():
            shutil.copy2(dest / name, wheels_dir / name)
    shutil.rmtree(dest, ignore_errors=True)
    lock.parent.mkdir(parents=True, exist_ok=True)
    lock.write_text(json.dumps(names, indent=1) + "\n", "utf-8")
    log.append(f"{target.name} {python}: {len(names)} wheels resolved in {time.monotonic() - started:.1f} s")
    return [wheels_dir / n for n in names]


def is_pure(wheel: Path) -> bool:
    """True for a wheel that runs on any Python 3 and platform (tag py3-none-any or the like)."""
    tags = wheel.name.removesuffix(".whl").split("-")[-3:]
    return tags[1] == "none" and tags[2] == "any"


def unpack(wheel: Path, dest: Path) -> None:
    """Installs a wheel's importable files into ``dest`` (as `pip install --target` would).

    Files in ``<name>.data/purelib`` and ``platlib`` go to ``dest`` itself; scripts, headers and
    data files are left out (the launcher runs the CLI; nothing else is needed at run time).
    """
    root = dest.resolve()
    with zipfile.ZipFile(wheel) as zf:
        for info in zf.infolist():
            name = info.filename
            if info.is_dir():
                continue
            parts = name.split("/")
            if parts[0].endswith(".data"):
                if len(parts) < 3 or parts[1] not in ("purelib", "platlib"):
                    continue
                parts = parts[2:]
            if any(p in ("", ".", "..") for p in parts) or ":" in parts[0] or "\\" in name:
                raise BundleError(f"{wheel.name}: unsafe member name {name!r}")
            out = root.joinpath(*parts)
            out.parent.mkdir(parents=True, exist_ok=True)
            with zf.open(info) as src, out.open("wb") as dst:
                shutil.copyfileobj(src, dst)
            mode = (info.external_attr >> 16) & 0o777
            if mode & 0o111:
                out.chmod(0o755)


def precompile(out: Path, log: list[str]) -> list[str]:
    """Compiles libs/common and libs/cpXY with each bundled Python version found on PATH
    (python3.11, ...), so the server's first start does not compile ~2 MB of modules. The .pyc
    files are checked by hash, never by time (unchecked-hash: the extension's files never
    change, and unpacking a .vsix need not keep file times). Answers the versions compiled."""
    done = []
    for python in PYTHONS:
        interpreter = shutil.which(f"python{python}")
        probe = "import sys; print('%d.%d' % sys.version_info[:2])"
        answer = subprocess.run([interpreter, "-c", probe], capture_output=True, text=True) if interpreter else None
        if answer is None or answer.returncode != 0 or answer.stdout.strip() != python:
            log.append(f"Python {python}: not on PATH, its modules compile on first start instead")
            continue
        folders = [str(out / "libs" / "common"), str(out / "libs" / _abi(python))]
        argv = [str(interpreter), "-I", "-m", "compileall", "-q", "-j", "0", "--invalidation-mode", "unchecked-hash"]
        proc = subprocess.run([*argv, *folders], capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            raise BundleError(f"compiling with Python {python} failed: {proc.stdout[-500:]} {proc.stderr[-500:]}")
        done.append(python)
    return done


def write_wheelhouse(archive: Path, wheels: list[Path]) -> None:
    """A tarball of wheels for `pip install --no-index --find-links` (Neovim's :GemstackInstall)."""
    top = archive.name.removesuffix(".tar.gz")
    archive.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(archive, "w:gz") as tar:
        for w in sorted(set(wheels), key=lambda p: p.name):
            info = tar.gettarinfo(str(w), arcname=f"{top}/{w.name}")
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.mode = 0o644
            with w.open("rb") as f:
                tar.addfile(info, f)


def bundle(
    wheel: Path, target_name: str, out: Path, cache: Path, wheelhouse: Path | None = None, compile_pyc: bool = True
) -> dict[str, object]:
    """Writes ``out`` (bundled/) for ``target_name``; answers its manifest. With ``wheelhouse``,
    also writes the same wheels (and the server's) to that tarball; with ``compile_pyc``, the
    modules' bytecode for each bundled Python version found on PATH."""
    if target_name not in ALL_TARGETS:
        raise BundleError(f"unknown target {target_name!r}: one of {', '.join(ALL_TARGETS)}")
    if not wheel.is_file():
        raise BundleError(f"no wheel at {wheel}")
    shutil.rmtree(out, ignore_errors=True)
    (out / "tool").mkdir(parents=True)
    shutil.copy2(wheel, out / wheel.name)
    shutil.copy2(LAUNCHER, out / "tool" / LAUNCHER.name)
    log: list[str] = []
    manifest: dict[str, object] = {"target": target_name, "wheel": wheel.name, "pythons": [], "wheels": {}}
    if wheelhouse is not None and target_name == UNIVERSAL:
        raise BundleError("a wheelhouse is made for a platform target, not for universal")
    if target_name != UNIVERSAL:
        target = TARGETS[target_name]
        requirements = requirements_of(wheel)
        common = out / "libs" / "common"
        unpack(wheel, common)
        per_python = {python: fetch(cache, target, python, requirements, log) for python in PYTHONS}
        # A pure wheel that every Python version resolved goes to libs/common once; anything
        # else (compiled, or a pure one that differs between versions) to that version's folder.
        shared = set.intersection(*({w.name for w in ws if is_pure(w)} for ws in per_python.values()))
        for name in sorted(shared):
            unpack(cache / "wheels" / name, common)
        for python, wheels in per_python.items():
            own = out / "libs" / _abi(python)
            own.mkdir(parents=True)
            for w in wheels:
                if w.name not in shared:
                    unpack(w, own)
        if wheelhouse is not None:
            write_wheelhouse(wheelhouse, [wheel, *(w for ws in per_python.values() for w in ws)])
        manifest["pythons"] = list(PYTHONS)
        manifest["compiled"] = precompile(out, log) if compile_pyc else []
        manifest["wheels"] = {p: sorted(w.name for w in ws) for p, ws in per_python.items()}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", "utf-8")
    for line in log:
        print(f"bundle-python: {line}")
    return manifest


def _has_build_backend() -> bool:
    """True when this Python has the setuptools and wheel that pyproject.toml asks for."""
    from importlib import metadata

    try:
        major = int(metadata.version("setuptools").split(".")[0])
        metadata.version("wheel")
    except (metadata.PackageNotFoundError, ValueError):
        return False
    return major >= 77


def build_wheel(out_dir: Path) -> Path:
    """Builds gemstack-lsp's wheel from this tree with the running Python (no build isolation
    when setuptools is importable, so a warm build needs no network)."""
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    out_dir.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps"]
    if _has_build_backend():
        argv.append("--no-build-isolation")
    proc = subprocess.run([*argv, "--wheel-dir", str(out_dir), str(ROOT)], capture_output=True, text=True, timeout=600)
    # setuptools leaves build/ and the egg-info in the tree; the egg-info would make the tree look
    # like an installed gemstack-lsp to any pip whose sys.path holds it (PYTHONPATH).
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    shutil.rmtree(ROOT / "gemstack_lsp.egg-info", ignore_errors=True)
    if proc.returncode != 0:
        raise BundleError(f"building the gemstack-lsp wheel failed: {proc.stderr.strip()[-800:]}")
    wheels = sorted(out_dir.glob("gemstack_lsp-*.whl"))
    if len(wheels) != 1:
        raise BundleError(f"expected one gemstack_lsp wheel in {out_dir}, found {[w.name for w in wheels]}")
    return wheels[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", default="host", help=f"host, or one of: {', '.join(ALL_TARGETS)}")
    parser.add_argument("--wheel", type=Path, help="the gemstack_lsp wheel (default: build one from this tree)")
    parser.add_argument("--out", type=Path, default=EXTENSION / "bundled")
    parser.add_argument("--wheelhouse", type=Path, help="also write the wheels to this .tar.gz (for Neovim)")
    parser.add_argument("--no-compile", action="store_true", help="leave the bytecode to the first start")
    parser.add_argument("--print-host", action="store_true", help="print this machine's target and exit")
    parser.add_argument(
        "--cache", type=Path, default=Path(os.environ.get("GEMSTACK_WHEEL_CACHE", ROOT / ".cache" / "vsix"))
    )
    args = parser.parse_args(argv)
    if args.print_host:
        print(host_target())
        return 0
    target = host_target() if args.target == "host" else args.target
    started = time.monotonic()
    try:
        wheel = args.wheel or build_wheel(args.cache / "self")
        manifest = bundle(wheel.resolve(), target, args.out, args.cache, args.wheelhouse, not args.no_compile)
    except BundleError as exc:
        print(f"bundle-python: {exc}", file=sys.stderr)
        return 1
    size = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file())
    listed = manifest["pythons"]
    pythons = ", ".join(str(p) for p in listed) if isinstance(listed, list) and listed else "from PyPI on first use"
    elapsed = time.monotonic() - started
    print(f"bundle-python: {target}: Python {pythons}, {size / 1e6:.1f} MB unpacked, {elapsed:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
