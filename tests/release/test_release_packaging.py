"""The release files: `python -m build` makes an sdist and a wheel that pass `twine check --strict`,
hold what they must (and nothing they must not), and install into a fresh environment where the
command runs.

The build is isolated (PEP 517: its own environment with ``build-system.requires`` from the
package index), as a release build is: it proves the declared build requirements suffice, and the
test venv's own setuptools is too old for PEP 639 licence metadata anyway. The fresh environment
installs the wheel with its dependencies from the package index, not from the test venv, so a
dependency missing from ``[project] dependencies`` fails here.
"""

from __future__ import annotations

import email.parser
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from release_repo import REPO_ROOT, Dist, repository_files, run

from gemstack_lsp import __version__

if str(REPO_ROOT) not in sys.path:  # bench/ (the raw LSP client) lives at the repository root
    sys.path.insert(0, str(REPO_ROOT))
from bench.lspclient import FrameReader, encode

#: Paths (or their first folders) that no release file may carry: local environments, caches,
#: build outputs, the editor clients' Node.js side and bundled wheel.
UNWANTED = re.compile(
    r"(^|/)(\.venv|venv|node_modules|__pycache__|\.git|\.cache|\.mypy_cache|\.ruff_cache|\.pytest_cache"
    r"|\.hypothesis|build|dist|bundled)(/|$)|\.pyc$|\.vsix$|^editors/|^docs/screenshots/|^bench/results/"
)


def sdist_names(sdist: Path) -> set[str]:
    """The sdist's file names, without the leading ``gemstack_lsp-<version>/``."""
    prefix = f"gemstack_lsp-{__version__}/"
    with tarfile.open(sdist) as tar:
        members = [m for m in tar.getmembers() if m.isfile() or m.issym()]
    assert all(m.name.startswith(prefix) for m in members)
    return {m.name[len(prefix) :] for m in members}


def wheel_names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as zf:
        return set(zf.namelist())


def in_sdist(rel: str) -> bool:
    """Whether MANIFEST.in's choice puts a repository file in the sdist (the tests restate it)."""
    if rel.startswith("gemstack_lsp/"):
        return True
    if rel in ("LICENSE", "README.md", "Makefile", "MANIFEST.in", "pyproject.toml"):
        return True
    if rel.startswith(("tests/editors/", "tests/release/", "docs/screenshots/", "bench/results/")):
        return False
    return rel.startswith(("tests/", "examples/", "docs/", "bench/"))


def test_both_pass_twine_check_strict(dist: Dist) -> None:
    done = run(sys.executable, "-m", "twine", "check", "--strict", dist.sdist, dist.wheel)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2, done.stdout


def test_the_wheel_holds_the_package_its_data_and_nothing_else(dist: Dist) -> None:
    names = wheel_names(dist.wheel)
    dist_info = f"gemstack_lsp-{__version__}.dist-info/"
    package = {n for n in names if not n.startswith(dist_info)}
    expected = {rel for rel in repository_files() if rel.startswith("gemstack_lsp/") and not UNWANTED.search(rel)}
    # Everything the package reads at run time: every schema, the finding reference, py.typed.
    assert {"gemstack_lsp/docs/findings.md", "gemstack_lsp/py.typed"} <= package
    assert {n for n in package if n.startswith("gemstack_lsp/schemas/")} == {
        f"gemstack_lsp/schemas/{p.name}" for p in (REPO_ROOT / "gemstack_lsp" / "schemas").glob("*.json")
    }
    assert package == expected
    assert dist_info + "licenses/LICENSE" in names
    assert not [n for n in names if UNWANTED.search(n)]


def test_the_wheel_metadata_is_complete(dist: Dist) -> None:
    with zipfile.ZipFile(dist.wheel) as zf:
        raw = zf.read(f"gemstack_lsp-{__version__}.dist-info/METADATA").decode("utf-8")
        entry_points = zf.read(f"gemstack_lsp-{__version__}.dist-info/entry_points.txt").decode("utf-8")
    meta = email.parser.Parser().parsestr(raw)
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert meta["Name"] == "gemstack-lsp" and meta["Version"] == __version__
    assert meta["License-Expression"] == "MIT" and meta["License-File"] == "LICENSE"
    assert meta["Requires-Python"] == ">=3.11"
    assert meta["Description-Content-Type"] == "text/markdown"
    assert meta.get_payload().startswith("# gemstack-lsp")
    assert meta["Keywords"] and len(meta.get_all("Classifier") or []) >= 5
    runtime = [r for r in meta.get_all("Requires-Dist") or [] if "extra ==" not in r]
    assert {Requirement(r) for r in runtime} == {Requirement(d) for d in project["dependencies"]}
    assert "gemstack-lsp = gemstack_lsp.cli:run" in entry_points


def test_the_sdist_holds_the_sources_tests_and_docs_and_nothing_unwanted(dist: Dist) -> None:
    names = sdist_names(dist.sdist)
    generated = {n for n in names if n in ("PKG-INFO", "setup.cfg") or n.startswith("gemstack_lsp.egg-info/")}
    expected = {rel for rel in repository_files() if in_sdist(rel)}
    assert names - generated == expected
    assert {"LICENSE", "README.md", "pyproject.toml", "docs/capsule.md", "examples/demo/README.md"} <= names
    assert not [n for n in names if UNWANTED.search(n)]


def _collect(root: Path, *extra: str) -> list[str]:
    done = run(sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *extra, cwd=root)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return sorted(line for line in done.stdout.splitlines() if "::" in line)


def test_the_sdist_runs_the_test_suite_it_carries(dist: Dist, tmp_path: Path) -> None:
    with tarfile.open(dist.sdist) as tar:
        tar.extractall(tmp_path, filter="data")
    unpacked = tmp_path / f"gemstack_lsp-{__version__}"
    # Every test the repository has, but those of the editors and of the release files.
    in_repo = _collect(REPO_ROOT, "--ignore=tests/editors", "--ignore=tests/release")
    assert _collect(unpacked) == in_repo and len(in_repo) > 1000
    # And they pass there, against the sdist's own package (a sample: the demo and the CLI).
    done = run(
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "tests/acceptance/test_cost_demo.py",
        "tests/test_cli_context.py",
        cwd=unpacked,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert re.search(r"\d+ passed", done.stdout) and "failed" not in done.stdout


@pytest.fixture(scope="module")
def installed(dist: Dist, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel and its dependencies (from the package index); its bin folder."""
    venv = tmp_path_factory.mktemp("venv") / "env"
    assert run(sys.executable, "-m", "venv", venv).returncode == 0
    done = run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", dist.wheel)
    assert done.returncode == 0, done.stdout + done.stderr
    return venv / "bin"


def clean_env() -> dict[str, str]:
    """The environment without anything that would let the test venv's packages leak in."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}


def test_the_installed_wheel_reports_its_version(installed: Path, tmp_path: Path) -> None:
    done = run(installed / "gemstack-lsp", "--version", cwd=tmp_path, env=clean_env())
    assert (done.returncode, done.stdout.strip()) == (0, f"gemstack-lsp {__version__}")
    probe = "import gemstack_lsp, importlib.metadata as m; print(gemstack_lsp.__file__, m.version('gemstack-lsp'))"
    done = run(installed / "python", "-c", probe, cwd=tmp_path, env=clean_env())
    where, version = done.stdout.split()
    assert Path(where).is_relative_to(installed.parent) and version == __version__


def test_the_installed_wheel_checks_the_demo(installed: Path, tmp_path: Path) -> None:
    demo = tmp_path / "demo"
    shutil.copytree(REPO_ROOT / "examples" / "demo", demo)
    done = run(installed / "gemstack-lsp", "check", "demo", cwd=tmp_path, env=clean_env())
    assert done.returncode == 1, done.stdout + done.stderr
    # Findings that need the packaged schemas (block validation) and the finding reference.
    for code in ("CONTEXT_CAPSULE_STALE", "CONTRACT_UNKNOWN_TYPE", "TASK_VALIDATION_MISSING"):
        assert code in done.stdout
    done = run(
        installed / "gemstack-lsp", "check", "--format", "sarif", "--exit-zero", "demo", cwd=tmp_path, env=clean_env()
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["runs"][0]["tool"]["driver"]["version"] == __version__


def _messages(stdout: bytes) -> Iterator[dict[str, object]]:
    reader = FrameReader(io.BytesIO(stdout))
    while (message := reader.read()) is not None:
        yield message


def test_the_installed_wheel_serves_lsp(installed: Path, tmp_path: Path) -> None:
    messages = [
        {"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}},
        {"method": "initialized", "params": {}},
        {"id": 2, "method": "shutdown"},
        {"method": "exit"},
    ]
    done = subprocess.run(
        [str(installed / "gemstack-lsp"), "serve"],
        input=b"".join(encode(m) for m in messages),
        capture_output=True,
        cwd=tmp_path,
        env=clean_env(),
        timeout=60,
        check=False,
    )
    replies = {m.get("id"): m for m in _messages(done.stdout) if "id" in m and "method" not in m}
    assert replies[1]["result"]["serverInfo"] == {"name": "gemstack-lsp", "version": __version__}  # type: ignore[index]
    assert "result" in replies[2]
    assert done.returncode == 0, done.stderr


def test_the_version_is_written_once_and_the_extension_agrees() -> None:
    pyproject = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text("utf-8"))
    assert "version" not in pyproject["project"] and "version" in pyproject["project"]["dynamic"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "gemstack_lsp.__version__"}
    package_json = json.loads((REPO_ROOT / "editors" / "vscode" / "package.json").read_text("utf-8"))
    assert package_json["version"] == __version__, "bump editors/vscode/package.json with gemstack_lsp/__init__.py"
    done = run("make", "--no-print-directory", "version-check", cwd=REPO_ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
