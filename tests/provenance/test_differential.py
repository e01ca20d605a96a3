"""Differential tests: our CLI against the pinned reference helper on the same repositories.

The reference is fetched by ``make provenance-ref`` (a prerequisite of ``make test``). Outputs must
be byte-identical, except where docs/provenance.md lists a deliberate difference."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .conftest import PLAN, REFERENCE_SCRIPT, git, init_repo, write

Runner = Callable[..., subprocess.CompletedProcess[bytes]]


def ours(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "gemstack_lsp.provenance", *args], input=stdin, capture_output=True, check=False
    )


def assert_same(reference: Runner, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    expected = reference(*args, stdin=stdin)
    actual = ours(*args, stdin=stdin)
    assert (actual.returncode, actual.stderr.decode(), actual.stdout.decode()) == (
        expected.returncode,
        expected.stderr.decode(),
        expected.stdout.decode(),
    )
    return actual


def _states(repo: Path) -> list[str]:
    write(repo, "src/a.txt", "alpha 2\n")  # unstaged
    write(repo, "b.txt", "bravo 2\n")
    git(repo, "add", "b.txt")  # staged
    write(repo, "README.md", "r2\n")
    git(repo, "add", "README.md")
    write(repo, "README.md", "r3 longer\n")  # mixed
    write(repo, "gone.txt", "g\n")
    git(repo, "add", "gone.txt")
    git(repo, "commit", "-qm", "gone")
    os.unlink(repo / "gone.txt")  # deleted
    write(repo, "docs/old name.txt", "stable content for rename detection\n" * 4)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "rename source")
    git(repo, "mv", "docs/old name.txt", "docs/new name.txt")  # renamed
    write(repo, "untracked/deep/x.txt", "u\n")  # untracked
    write(repo, ".gitignore", "*.log\n")
    write(repo, "ignored.log", "i\n")
    os.symlink("src/a.txt", repo / "link")
    write(repo, "日本語/ファイル.txt", "cjk\n")
    write(repo, "tab\there.txt", "t\n")
    write(repo, "new\nline.txt", "n\n")
    (repo / "empty-dir").mkdir()
    return [
        "src/a.txt",
        "b.txt",
        "README.md",
        "gone.txt",
        "docs/new name.txt",
        "untracked",
        "ignored.log",
        "link",
        "日本語/ファイル.txt",
        "tab\there.txt",
        "new\nline.txt",
        "empty-dir",
        "src",
        "missing/file",
        "-x",
        PLAN,
    ]


def _cited(paths: list[str]) -> list[str]:
    return [arg for path in paths for arg in ("--cited", path)]


def test_clean_repository(repo: Path, reference: Runner) -> None:
    assert_same(reference, "snapshot", "--repo", str(repo), "--generated-plan", PLAN, "--cited", "src/a.txt")


def test_every_record_state(repo: Path, reference: Runner) -> None:
    cited = _states(repo)
    write(repo, PLAN, "# plan\n")
    assert_same(reference, "snapshot", "--repo", str(repo), "--generated-plan", PLAN, *_cited(cited))
    assert_same(reference, "--repo", str(repo), "--generated-plan", PLAN)


def test_intent_to_add_worktree_rename_mode_and_type_changes(repo: Path, reference: Runner) -> None:
    write(repo, "itа.txt".replace("а", "a"), "intent\n")
    git(repo, "add", "-N", "ita.txt")
    write(repo, "moved.txt", (repo / "b.txt").read_text())
    os.unlink(repo / "b.txt")
    git(repo, "add", "-N", "moved.txt")
    os.chmod(repo / "README.md", 0o755)
    os.unlink(repo / "src" / "a.txt")
    os.symlink("../README.md", repo / "src" / "a.txt")
    cited = ["ita.txt", "moved.txt", "README.md", "src/a.txt"]
    assert_same(reference, "snapshot", "--repo", str(repo), "--generated-plan", PLAN, *_cited(cited))


def test_plan_as_rename_endpoint(repo: Path, reference: Runner) -> None:
    write(repo, PLAN, "# the plan body, long enough to be detected as a rename\n" * 3)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "plan")
    moved = "docs/plans/2024-01-03-gitnexus-plan-moved-plan-here.md"
    git(repo, "mv", PLAN, moved)
    for plan in (PLAN, moved):
        assert_same(reference, "snapshot", "--repo", str(repo), "--generated-plan", plan, "--cited", moved)


def test_submodule_and_embedded_repository(tmp_path: Path, reference: Runner) -> None:
    upstream = init_repo(tmp_path / "upstream", {"lib.txt": "lib\n"})
    repo = init_repo(tmp_path / "repo")
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(upstream), "sub")
    git(repo, "commit", "-qm", "sub")
    init_repo(repo / "embedded", {"inner/x.txt": "x\n"})
    args = ["snapshot", "--repo", str(repo), "--generated-plan", PLAN, "--cited", "sub", "--cited", "embedded"]
    assert_same(reference, *args)
    write(repo / "sub", "lib.txt", "lib 2\n")
    git(repo / "sub", "commit", "-qam", "inner")
    assert_same(reference, *args)
    write(repo / "sub", "dirt.txt", "d\n")
    assert_same(reference, *args)


def test_directory_depth_limit(tmp_path: Path, reference: Runner) -> None:
    repo = init_repo(tmp_path / "r")
    deepest = repo / "deep"
    for _ in range(256):
        deepest = deepest / "d"
    deepest.mkdir(parents=True)
    args = ["snapshot", "--repo", str(repo), "--generated-plan", PLAN, "--cited", "deep"]
    assert_same(reference, *args)
    (deepest / "d").mkdir()
    assert_same(reference, *args)


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["-h"],
        [""],
        ["snapshot", "--help"],
        ["snapshot", "--repo", "a", "--repo", "b"],
        ["write-plan", "--replace", "extra"],
        ["snapshot", "--cited"],
        ["snapshot", "--schema-version", "２"],
        ["snapshot", "--repo", "R", "--generated-plan", PLAN, "--schema-version", "00001"],
        ["snapshot", "--repo", "R", "--generated-plan", PLAN, "--schema-version", "123456789012345678901234567"],
        ["write-plan", "--repo", "R", "--generated-plan", PLAN, "--expected-plan-path", PLAN],
        ["read-plan", "--repo", "/definitely/not/here", "--generated-plan", PLAN],
    ],
)
def test_parse_errors(argv: list[str], reference: Runner) -> None:
    assert_same(reference, *argv)


@pytest.mark.parametrize(
    ("plan", "cited"),
    [
        ("docs/plans/0000-02-29-gitnexus-plan-year-zero-leap.md", "ok"),
        ("docs/plans/1900-02-29-gitnexus-plan-not-a-leap.md", "ok"),
        (PLAN + "\n", "ok"),
        (PLAN, "a\\b"),
        (PLAN, "e\u0301"),
        (PLAN, "/abs"),
        (PLAN, "a/./b"),
        (PLAN, "C:/x"),
    ],
)
def test_path_rules(repo: Path, reference: Runner, plan: str, cited: str) -> None:
    assert_same(reference, "snapshot", "--repo", str(repo), "--generated-plan", plan, "--cited", cited)


_RANDOM = re.compile(rb"\.gitnexus-plan-([a-z-]+)-\d+-[0-9a-f]{32}\.bak")


def test_write_read_replace_flow(tmp_path: Path, reference: Runner) -> None:
    ref_repo = init_repo(tmp_path / "ref")
    our_repo = init_repo(tmp_path / "ours")

    def both(*args: str, stdin: bytes = b"") -> bytes:
        expected = reference(*args, "--repo", str(ref_repo), stdin=stdin)
        actual = ours(*args, "--repo", str(our_repo), stdin=stdin)
        pair = [
            (p.returncode, _RANDOM.sub(rb"<\1>", p.stdout), _RANDOM.sub(rb"<\1>", p.stderr)) for p in (expected, actual)
        ]
        assert pair[0] == pair[1]
        return actual.stdout

    both("write-plan", "--generated-plan", PLAN, stdin="plan é\n".encode())
    both("write-plan", "--generated-plan", PLAN, stdin=b"again\n")
    receipt = both("read-plan", "--generated-plan", PLAN)
    digest = re.search(rb'"plan_digest": "([^"]+)"', receipt)
    assert digest is not None
    replace = ["write-plan", "--generated-plan", PLAN, "--replace", "--expected-plan-path", PLAN]
    both(*replace, "--expected-plan-digest", "sha256:" + "0" * 64, stdin=b"wrong\n")
    both(*replace, "--expected-plan-digest", digest.group(1).decode(), stdin=b"deeper\n")
    both("write-plan", "--generated-plan", PLAN, stdin=b"\xff")
    both("read-plan", "--generated-plan", "docs/plans/missing-gitnexus-plan.md")
    assert (ref_repo / PLAN).read_bytes() == (our_repo / PLAN).read_bytes() == b"deeper\n"


def test_layer_placement_edge_cases(tmp_path: Path, reference: Runner) -> None:
    repo = init_repo(tmp_path / "r", {"d/e/f": "1\n", "d/g": "2\n", "h": "3\n", "s/t": "4\n"})
    (repo / "d" / "e" / "f").unlink()
    (repo / "d" / "e").rmdir()  # a deleted file whose parent is gone too
    write(repo, "AD.txt", "added then deleted\n")
    git(repo, "add", "AD.txt")
    (repo / "AD.txt").unlink()
    os.symlink("d", repo / "dl")  # symlink to a directory
    write(repo, "u/v", "5\n")  # a file inside an untracked directory
    (repo / "h").unlink()
    write(repo, "h/x", "file replaced by a directory\n")
    cited = ["d/e/f", "AD.txt", "dl", "u/v", "u", "d", "h", "h/x", ".git/HEAD"]
    assert_same(reference, "snapshot", "--repo", str(repo), "--generated-plan", PLAN, *_cited(cited))


def _setup_symlinked_docs(repo: Path) -> None:
    os.symlink(repo.parent, repo / "docs")


def _setup_symlinked_plans(repo: Path) -> None:
    (repo / "docs").mkdir()
    os.symlink(repo.parent, repo / "docs" / "plans")


def _setup_symlinked_destination(repo: Path) -> None:
    (repo / "docs" / "plans").mkdir(parents=True)
    os.symlink(repo / "README.md", repo / PLAN)


def _setup_directory_destination(repo: Path) -> None:
    (repo / PLAN).mkdir(parents=True)


def _setup_file_docs(repo: Path) -> None:
    (repo / "docs").write_text("not a directory")


def _setup_fifo_plan(repo: Path) -> None:
    (repo / "docs" / "plans").mkdir(parents=True)
    os.mkfifo(repo / PLAN)


def _setup_plan(content: bytes) -> Callable[[Path], None]:
    def setup(repo: Path) -> None:
        write(repo, PLAN, content)

    return setup


_DIGEST_X = "sha256:" + hashlib.sha256(b"x\n").hexdigest()
_REPLACE = ["--replace", "--expected-plan-path", PLAN, "--expected-plan-digest"]


@pytest.mark.parametrize(
    ("setup", "argv"),
    [
        (_setup_symlinked_docs, ["write-plan", "--generated-plan", PLAN]),
        (_setup_symlinked_plans, ["write-plan", "--generated-plan", PLAN]),
        (_setup_symlinked_destination, ["write-plan", "--generated-plan", PLAN]),
        (_setup_directory_destination, ["write-plan", "--generated-plan", PLAN]),
        (_setup_file_docs, ["write-plan", "--generated-plan", PLAN]),
        (_setup_file_docs, ["read-plan", "--generated-plan", PLAN]),
        (_setup_symlinked_plans, ["read-plan", "--generated-plan", PLAN]),
        (_setup_fifo_plan, ["read-plan", "--generated-plan", PLAN]),
        (_setup_directory_destination, ["read-plan", "--generated-plan", PLAN]),
        (_setup_plan(b"\xef\xbb\xbfBOM kept\n"), ["read-plan", "--generated-plan", PLAN]),
        (_setup_plan(b"\xed\xa0\x80"), ["read-plan", "--generated-plan", PLAN]),
        (_setup_plan(b"x\n"), ["write-plan", "--generated-plan", PLAN, *_REPLACE, _DIGEST_X]),
        (_setup_plan(b"x\n"), ["write-plan", "--generated-plan", PLAN, *_REPLACE, "sha256:" + "A" * 64]),
        (lambda repo: None, ["write-plan", "--generated-plan", PLAN, *_REPLACE, _DIGEST_X]),
    ],
)
def test_reader_and_writer_refusals(
    tmp_path: Path, reference: Runner, setup: Callable[[Path], None], argv: list[str]
) -> None:
    ref_repo, our_repo = init_repo(tmp_path / "ref"), init_repo(tmp_path / "ours")
    setup(ref_repo)
    setup(our_repo)
    expected = reference(*argv, "--repo", str(ref_repo), stdin=b"new plan\n")
    actual = ours(*argv, "--repo", str(our_repo), stdin=b"new plan\n")
    strip = [(str(ref_repo).encode(), b"<repo>"), (str(our_repo).encode(), b"<repo>")]

    def normalized(done: subprocess.CompletedProcess[bytes]) -> tuple[int, bytes, bytes]:
        out, err = done.stdout, done.stderr
        for old, new in strip:
            out, err = out.replace(old, new), err.replace(old, new)
        return done.returncode, _RANDOM.sub(rb"<\1>", out), _RANDOM.sub(rb"<\1>", err)

    assert normalized(actual) == normalized(expected)
    assert sorted(os.listdir(ref_repo.parent)) == ["ours", "ref"]


_TOKENS = [
    "snapshot",
    "read-plan",
    "write-plan",
    "--repo",
    "--generated-plan",
    "--cited",
    "--schema-version",
    "--replace",
    "--expected-plan-path",
    "--expected-plan-digest",
    "--help",
    "x",
    "-y",
    "02",
    "1",
    "",
    PLAN,
]


@settings(max_examples=40, deadline=None, derandomize=True)
@given(argv=st.lists(st.sampled_from(_TOKENS), max_size=8))
def test_parse_rules_match_the_reference(argv: list[str]) -> None:
    script = REFERENCE_SCRIPT
    assert script.is_file(), "run `make provenance-ref` first (make test does it)"
    with tempfile.TemporaryDirectory() as scratch:
        expected = subprocess.run(["node", str(script), *argv], input=b"", capture_output=True, cwd=scratch)
        actual = subprocess.run(
            [sys.executable, "-m", "gemstack_lsp.provenance", *argv], input=b"", capture_output=True, cwd=scratch
        )
    assert (actual.returncode, actual.stdout, actual.stderr) == (expected.returncode, expected.stdout, expected.stderr)
