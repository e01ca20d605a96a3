""".github/workflows (ci.yml, release.yml) and the build they run: the workflows parse and have the
shape a release needs (triggers, permissions, trusted publishing, secrets only through `secrets.`,
every platform verified on its own runner, every file attached), the make targets they name exist,
and their build commands run here: `make dist` (for this platform and the universal build, from a
committed copy of this tree), then the verify job's commands on this platform's files.

GitHub Actions cannot run here; docs/release.md says what a maintainer sets up once.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from release_repo import REPO_ROOT, run

from gemstack_lsp import __version__

WORKFLOWS = REPO_ROOT / ".github" / "workflows"
RELEASE_DOC = REPO_ROOT / "docs" / "release.md"
sys.path.insert(0, str(REPO_ROOT / "scripts"))
from check_dist import PLATFORMS, WHEELHOUSE_TAGS, expected_names  # noqa: E402

#: Each VS Code target's runner family and architecture (GitHub's hosted runner labels).
RUNNER_OF = {
    "linux-x64": re.compile(r"^ubuntu-(latest|\d+\.\d+)$"),
    "linux-arm64": re.compile(r"^ubuntu-\d+\.\d+-arm$"),
    "darwin-x64": re.compile(r"^macos-13$"),
    "darwin-arm64": re.compile(r"^macos-(latest|1[4-9])$"),
    "win32-x64": re.compile(r"^windows-(latest|20\d\d)$"),
}


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((WORKFLOWS / name).read_text("utf-8"))
    # YAML 1.1 reads the key `on` as True.
    data["on"] = data.pop(True, data.get("on"))
    return data


def steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = job.get("steps", [])
    return out


def runs(job: dict[str, Any]) -> str:
    return "\n".join(s.get("run", "") for s in steps(job))


def uses(job: dict[str, Any]) -> list[str]:
    return [s["uses"] for s in steps(job) if "uses" in s]


def make_targets() -> set[str]:
    text = (REPO_ROOT / "Makefile").read_text("utf-8")
    return set(re.findall(r"^([A-Za-z][\w-]*):", text, flags=re.MULTILINE))


def test_ci_runs_the_python_tier_on_linux_and_macos_and_every_tier_through_ci_run() -> None:
    ci = load("ci.yml")
    assert "pull_request" in ci["on"] and ci["on"]["push"]["branches"] == ["main"]
    check = ci["jobs"]["check"]
    assert set(check["strategy"]["matrix"]["os"]) == {"ubuntu-latest", "macos-latest"}
    assert "make check" in runs(check)
    test = ci["jobs"]["test"]
    assert "bash .ci/run" in runs(test)
    assert test["timeout-minutes"] <= 90
    assert test["env"]["CI"] == "true"
    # .ci/run is what the project's own CI runs: it still calls make test.
    assert re.search(r"^make test$", (REPO_ROOT / ".ci" / "run").read_text("utf-8"), flags=re.MULTILINE)


def test_release_runs_on_a_version_tag_and_checks_the_tag_is_the_version() -> None:
    release = load("release.yml")
    assert release["on"] == {"push": {"tags": ["v*"]}}
    assert release["permissions"] == {"contents": "read"}
    build = release["jobs"]["build"]
    assert "GITHUB_REF_NAME" in runs(build) and "__version__" in runs(build)
    assert re.search(r"^make dist\b", runs(build), flags=re.MULTILINE)
    upload = [s for s in steps(build) if s.get("uses", "").startswith("actions/upload-artifact@")]
    assert upload and upload[0]["with"]["path"] == "dist/"


def test_every_platform_is_run_on_its_own_runner() -> None:
    verify = load("release.yml")["jobs"]["verify"]
    matrix = verify["strategy"]["matrix"]["include"]
    assert {m["target"] for m in matrix} == set(PLATFORMS)
    for m in matrix:
        assert RUNNER_OF[m["target"]].match(m["os"]), m
        assert m["python"] in ("3.11", "3.12", "3.13", "3.14"), m
    commands = runs(verify)
    assert "scripts/smoke_release.py vsix dist/gemstack-lsp-${{ matrix.target }}-*.vsix" in commands
    assert "scripts/smoke_release.py wheelhouse dist/gemstack-lsp-wheelhouse-${{ matrix.target }}-*.tar.gz" in commands
    # Every wheelhouse has a platform in the matrix; Windows has none (the .vsix is its route).
    assert set(WHEELHOUSE_TAGS) <= {m["target"] for m in matrix}


def test_publishing_uses_trusted_publishing_and_secrets_only() -> None:
    release = load("release.yml")
    jobs = release["jobs"]
    pypi = jobs["pypi"]
    assert pypi["permissions"] == {"id-token": "write"}
    assert pypi["environment"]["name"] == "pypi"
    publish = [s for s in steps(pypi) if s.get("uses", "").startswith("pypa/gh-action-pypi-publish@")]
    assert len(publish) == 1 and "password" not in publish[0].get("with", {})
    assert "cp dist/gemstack_lsp-*.tar.gz dist/gemstack_lsp-*.whl pypi/" in runs(pypi)
    markets = jobs["marketplaces"]
    env = {k: v for s in steps(markets) for k, v in (s.get("env") or {}).items()}
    assert env == {"VSCE_PAT": "${{ secrets.VSCE_PAT }}", "OVSX_PAT": "${{ secrets.OVSX_PAT }}"}
    assert "vsce@" in runs(markets) and "publish --packagePath dist/*.vsix" in runs(markets)
    assert "ovsx@" in runs(markets)
    gh = jobs["github-release"]
    assert gh["permissions"] == {"contents": "write"}
    assert 'gh release create "$GITHUB_REF_NAME" dist/*' in runs(gh) and "sha256sum -c SHA256SUMS" in runs(gh)
    for name in ("pypi", "marketplaces", "github-release"):
        assert jobs[name]["needs"] == "verify", name
    # No token in the files themselves: every secret comes through `secrets.`.
    for workflow in WORKFLOWS.glob("*.yml"):
        text = workflow.read_text("utf-8")
        assert not re.search(r"(pypi-[A-Za-z0-9_-]{20,}|ghp_[A-Za-z0-9]{20,}|[a-z0-9]{52})", text), workflow.name
        for ref in re.findall(r"\$\{\{\s*secrets\.(\w+)\s*\}\}", text):
            assert ref in ("VSCE_PAT", "OVSX_PAT"), (workflow.name, ref)


def test_actions_are_pinned_and_make_targets_exist() -> None:
    targets = make_targets()
    for name in ("ci.yml", "release.yml"):
        for job_name, job in load(name)["jobs"].items():
            for action in uses(job):
                assert re.search(r"@(v\d+|release/v\d+)$", action), (name, job_name, action)
            for target in re.findall(r"^\s*make (\w[\w-]*)", runs(job), flags=re.MULTILINE):
                assert target in targets, (name, job_name, target)


def test_the_release_page_says_what_to_set_up_once() -> None:
    text = RELEASE_DOC.read_text("utf-8")
    for must in (
        "VSCE_PAT",
        "OVSX_PAT",
        "trusted publisher",
        "release.yml",
        "`pypi`",
        "`marketplaces`",
        "make dist",
        "SHA256SUMS",
        "git tag",
    ):
        assert must in text, must
    assert __version__ in text or "<version>" in text


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`make dist` for this platform and the universal build, in a committed copy of this tree
    (the repository's own build environment and node_modules are reused when `make vsix` made
    them; the wheel cache is the repository's)."""
    from release_repo import commit_all, repository_files

    tree = tmp_path_factory.mktemp("make-dist") / "gemstack-lsp"
    for rel in repository_files():
        src, dst = REPO_ROOT / rel, tree / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            os.symlink(os.readlink(src), dst)
        else:
            shutil.copy2(src, dst)
    commit_all(tree, "gemstack-lsp as on disk")
    for shared in (".venv-build", "editors/vscode/node_modules"):
        if (REPO_ROOT / shared).is_dir():
            os.symlink(REPO_ROOT / shared, tree / shared)
    host = run(sys.executable, REPO_ROOT / "editors" / "vscode" / "scripts" / "bundle_python.py", "--print-host")
    targets = f"{host.stdout.strip()} universal"
    env = {**os.environ, "GEMSTACK_WHEEL_CACHE": str(REPO_ROOT / ".cache" / "vsix")}
    env.pop("PYTHONPATH", None)
    done = run("make", "dist", f"VSIX_TARGETS={targets}", "PYTHON=python3", cwd=tree, env=env)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    return tree / "dist"


def test_make_dist_builds_and_checks_the_files_and_their_checksums(built: Path) -> None:
    names = sorted(p.name for p in built.iterdir())
    host = [n for n in names if n.endswith(".vsix") and "universal" not in n]
    assert len(host) == 1, names
    target = host[0].removeprefix("gemstack-lsp-").removesuffix(f"-{__version__}.vsix")
    assert sorted([*expected_names(__version__, (target, "universal")), "SHA256SUMS"]) == names
    sums = dict(line.split("  ", 1)[::-1] for line in (built / "SHA256SUMS").read_text("utf-8").splitlines())
    assert set(sums) == set(names) - {"SHA256SUMS"}
    done = run("sha256sum", "-c", "--quiet", "SHA256SUMS", cwd=built)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_verify_jobs_commands_pass_on_this_platform(built: Path) -> None:
    """The release workflow's verify steps, as written, for this machine's target."""
    verify = load("release.yml")["jobs"]["verify"]
    target = next(p for p in built.glob("gemstack-lsp-*.vsix") if "universal" not in p.name).name
    target = target.removeprefix("gemstack-lsp-").removesuffix(f"-{__version__}.vsix")
    for step in steps(verify):
        command = step.get("run")
        if not command or (step.get("if") and target.startswith("win32")):
            continue
        argv = command.replace("${{ matrix.target }}", target).split()
        assert argv[:2] == ["python", "scripts/smoke_release.py"], command
        files = [str(p) for pattern in argv[3:] for p in sorted(built.parent.glob(pattern))]
        assert files, (command, sorted(p.name for p in built.iterdir()))
        done = run(sys.executable, REPO_ROOT / argv[1], argv[2], *files, cwd=built.parent)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "serve: initialize answered by gemstack-lsp" in done.stdout, done.stdout
