"""Checks the release files `make dist` wrote, then lists them in SHA256SUMS.

    python scripts/check_dist.py dist

Each file is opened and its contents checked against what it must hold (and must not), and its
size against a ceiling; `twine check --strict` has already run on the sdist and the wheel. On
success, writes ``dist/SHA256SUMS`` (``sha256sum -c`` reads it) and prints one line per file.
Exit status 1, with every problem listed, when a file is missing, unexpected or wrong.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import re
import sys
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gemstack_lsp import __version__  # noqa: E402

#: VS Code's platform targets with the file ending and name of the compiled module each carries.
PLATFORMS = {
    "linux-x64": re.compile(r"\.cpython-3\d+-x86_64-linux-gnu\.so$"),
    "linux-arm64": re.compile(r"\.cpython-3\d+-aarch64-linux-gnu\.so$"),
    "darwin-x64": re.compile(r"\.cpython-3\d+-darwin\.so$"),
    "darwin-arm64": re.compile(r"\.cpython-3\d+-darwin\.so$"),
    "win32-x64": re.compile(r"\.cp3\d+-win_amd64\.pyd$"),
}
#: The wheel tag of each wheelhouse's compiled wheels.
WHEELHOUSE_TAGS = {
    "linux-x64": "x86_64",
    "linux-arm64": "aarch64",
    "darwin-x64": "x86_64",
    "darwin-arm64": "arm64",
}
PYTHON_TAGS = ("cp311", "cp312", "cp313", "cp314")
#: The server's run-time dependencies, by the name of their importable package.
RUNTIME = ("pygls", "lsprotocol", "jsonschema", "referencing", "rpds", "attrs", "cattrs")
MB = 1_000_000
#: Ceilings: a file that outgrows one carries something it should not.
LIMITS = {"sdist": 3 * MB, "wheel": 1 * MB, "vsix": 12 * MB, "universal": 1 * MB, "wheelhouse": 12 * MB}
#: Nothing from a build, a cache or an environment in any release file.
UNWANTED = re.compile(r"(^|/)(__pycache__|node_modules|\.venv[^/]*|\.cache|\.git|build|dist)/|\.pyc$|(^|/)\.DS_Store$")
#: Nor, in a .vsix, the extension's sources, scripts, tests or source maps.
VSIX_UNWANTED = re.compile(r"^(src|scripts|test)/|\.map$|\.ts$")


ALL_TARGETS = (*PLATFORMS, "universal")


def expected_names(version: str, targets: tuple[str, ...] = ALL_TARGETS) -> dict[str, str]:
    """The release files' names, each with its kind (for the VS Code targets built)."""
    names = {f"gemstack_lsp-{version}.tar.gz": "sdist", f"gemstack_lsp-{version}-py3-none-any.whl": "wheel"}
    for target in targets:
        names[f"gemstack-lsp-{target}-{version}.vsix"] = "universal" if target == "universal" else "vsix"
        if target in WHEELHOUSE_TAGS:
            names[f"gemstack-lsp-wheelhouse-{target}-{version}.tar.gz"] = "wheelhouse"
    return names


def check_wheel(path: Path, version: str) -> list[str]:
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
    problems = []
    for must in ("gemstack_lsp/__init__.py", "gemstack_lsp/cli.py", "gemstack_lsp/py.typed"):
        if must not in names:
            problems.append(f"{path.name}: no {must}")
    if not any(n.startswith("gemstack_lsp/schemas/") and n.endswith(".json") for n in names):
        problems.append(f"{path.name}: no JSON Schemas")
    if f"gemstack_lsp-{version}.dist-info/METADATA" not in names:
        problems.append(f"{path.name}: no METADATA for {version}")
    unwanted = [n for n in names if UNWANTED.search(n) or n.startswith(("tests/", "editors/"))]
    problems += [f"{path.name}: carries {n}" for n in unwanted]
    return problems


def check_sdist(path: Path, version: str) -> list[str]:
    prefix = f"gemstack_lsp-{version}/"
    with tarfile.open(path) as tar:
        names = [m.name for m in tar.getmembers() if m.isfile()]
    problems = [f"{path.name}: {n} is outside {prefix}" for n in names if not n.startswith(prefix)]
    inner = {n[len(prefix) :] for n in names if n.startswith(prefix)}
    for must in ("pyproject.toml", "LICENSE", "README.md", "gemstack_lsp/__init__.py", "PKG-INFO"):
        if must not in inner:
            problems.append(f"{path.name}: no {must}")
    problems += [f"{path.name}: carries {n}" for n in sorted(inner) if UNWANTED.search(n) or n.startswith("editors/")]
    return problems


def _target_of(manifest_xml: str) -> str | None:
    found = re.search(r'TargetPlatform="([^"]+)"', manifest_xml)
    return found.group(1) if found else None


def check_vsix(path: Path, version: str, target: str) -> list[str]:
    problems: list[str] = []
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        package = json.loads(zf.read("extension/package.json"))
        manifest_xml = zf.read("extension.vsixmanifest").decode("utf-8")
        bundle = json.loads(zf.read("extension/bundled/manifest.json"))
        wheel_name = f"extension/bundled/gemstack_lsp-{version}-py3-none-any.whl"
        wheel = zf.read(wheel_name) if wheel_name in names else None
    if package.get("version") != version:
        problems.append(f"{path.name}: package.json says version {package.get('version')}")
    stated = _target_of(manifest_xml)
    if stated != (None if target == "universal" else target):
        problems.append(f"{path.name}: its manifest targets {stated or 'every platform'}, not {target}")
    if bundle.get("target") != target:
        problems.append(f"{path.name}: bundled/manifest.json says {bundle.get('target')}")
    if "extension/out/extension.js" not in names:
        problems.append(f"{path.name}: no out/extension.js")
    if wheel is None:
        problems.append(f"{path.name}: no {wheel_name}")
    else:
        problems += check_wheel_bytes(wheel, path.name, version)
    if "extension/bundled/tool/gemstack_launch.py" not in names:
        problems.append(f"{path.name}: no launcher")
    # Bytecode is carried on purpose in bundled/libs (compiled per Python version); nowhere else.
    inside = [n.removeprefix("extension/") for n in names]
    stray = [n for n in inside if (UNWANTED.search(n) or VSIX_UNWANTED.search(n)) and not _bytecode_of_libs(n)]
    problems += [f"{path.name}: carries {n}" for n in stray]
    libs = [n for n in names if n.startswith("extension/bundled/libs/")]
    if target == "universal":
        if libs or bundle.get("pythons"):
            problems.append(f"{path.name}: the universal build carries libraries")
        return problems
    if bundle.get("pythons") != ["3.11", "3.12", "3.13", "3.14"]:
        problems.append(f"{path.name}: libraries for {bundle.get('pythons')}")
    common = "extension/bundled/libs/common/"
    for package_name in [p for p in RUNTIME if p != "rpds"] + ["gemstack_lsp"]:
        if f"{common}{package_name}/__init__.py" not in names:
            problems.append(f"{path.name}: no {package_name} in libs/common")
    pattern = PLATFORMS[target]
    for tag in PYTHON_TAGS:
        compiled = [n for n in libs if n.startswith(f"extension/bundled/libs/{tag}/rpds/")]
        if not any(pattern.search(n) and (tag[2:] in n) for n in compiled):
            problems.append(f"{path.name}: no rpds-py compiled for {tag} on {target}")
    return problems


def _bytecode_of_libs(name: str) -> bool:
    return name.startswith("bundled/libs/") and "/__pycache__/" in name and name.endswith(".pyc")


def check_wheel_bytes(data: bytes, where: str, version: str) -> list[str]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = zf.namelist()
    if f"gemstack_lsp-{version}.dist-info/METADATA" not in names:
        return [f"{where}: the bundled wheel is not version {version}"]
    return []


def check_wheelhouse(path: Path, version: str, target: str) -> list[str]:
    with tarfile.open(path) as tar:
        names = [Path(m.name).name for m in tar.getmembers() if m.isfile()]
    problems = []
    if f"gemstack_lsp-{version}-py3-none-any.whl" not in names:
        problems.append(f"{path.name}: no gemstack_lsp wheel")
    for dist in ("pygls-", "lsprotocol-", "jsonschema-", "referencing-", "attrs-", "cattrs-"):
        if not any(n.startswith(dist) for n in names):
            problems.append(f"{path.name}: no {dist.rstrip('-')} wheel")
    arch = WHEELHOUSE_TAGS[target]
    for tag in PYTHON_TAGS:
        if not any(n.startswith("rpds_py-") and f"-{tag}-" in n and (arch in n or "universal2" in n) for n in names):
            problems.append(f"{path.name}: no rpds-py wheel for {tag} on {target}")
    problems += [f"{path.name}: {n} is not a wheel" for n in names if not n.endswith(".whl")]
    return problems


def check(
    dist: Path, version: str = __version__, targets: tuple[str, ...] = ALL_TARGETS
) -> tuple[list[str], list[tuple[str, int]]]:
    """Every problem with the files in ``dist``, and (name, size) of each expected file."""
    expected = expected_names(version, targets)
    present = {p.name for p in dist.iterdir() if p.is_file() and p.name != "SHA256SUMS"}
    problems = [f"missing: {n}" for n in sorted(set(expected) - present)]
    problems += [f"unexpected: {n}" for n in sorted(present - set(expected))]
    sizes = []
    checks: dict[str, Callable[[Path, str], list[str]]] = {"sdist": check_sdist, "wheel": check_wheel}
    for name, kind in sorted(expected.items()):
        path = dist / name
        if not path.is_file():
            continue
        size = path.stat().st_size
        sizes.append((name, size))
        if size > LIMITS[kind]:
            problems.append(f"{name}: {size / MB:.1f} MB, over the {LIMITS[kind] / MB:.0f} MB ceiling for a {kind}")
        if kind in checks:
            problems += checks[kind](path, version)
        elif kind in ("vsix", "universal"):
            target = name.removeprefix("gemstack-lsp-").removesuffix(f"-{version}.vsix")
            problems += check_vsix(path, version, target)
        else:
            target = name.removeprefix("gemstack-lsp-wheelhouse-").removesuffix(f"-{version}.tar.gz")
            problems += check_wheelhouse(path, version, target)
    return problems, sizes


def write_sums(dist: Path) -> Path:
    lines = []
    for path in sorted(p for p in dist.iterdir() if p.is_file() and p.name != "SHA256SUMS"):
        lines.append(f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {path.name}\n")
    sums = dist / "SHA256SUMS"
    sums.write_text("".join(lines), "utf-8")
    return sums


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dist", type=Path, nargs="?", default=ROOT / "dist")
    parser.add_argument("--targets", default=" ".join(ALL_TARGETS), help="the VS Code targets built (default: all)")
    args = parser.parse_args(argv)
    targets = tuple(args.targets.split())
    unknown = sorted(set(targets) - set(ALL_TARGETS))
    if unknown:
        parser.error(f"unknown targets {unknown}: one of {', '.join(ALL_TARGETS)}")
    problems, sizes = check(args.dist, targets=targets)
    for name, size in sizes:
        print(f"{size / MB:7.2f} MB  {name}")
    if problems:
        for problem in problems:
            print(f"check-dist: {problem}", file=sys.stderr)
        return 1
    print(f"check-dist: {len(sizes)} files checked; {write_sums(args.dist)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
