"""Gitlink proofs (a real local submodule) and the mutation guards that reject mixed-era evidence."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from gemstack_lsp.provenance.api import ProvenanceError, snapshot
from gemstack_lsp.provenance.fsobjects import Materializer

from .conftest import PLAN, git, init_repo, write
from .test_snapshot import EMPTY, entry, kinds


def _with_submodule(tmp_path: Path) -> tuple[Path, str]:
    upstream = init_repo(tmp_path / "upstream", {"lib.txt": "lib\n", ".gitignore": "*.tmp\n"})
    repo = init_repo(tmp_path / "repo")
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(upstream), "sub")
    git(repo, "commit", "-qm", "add submodule")
    return repo, git(upstream, "rev-parse", "HEAD").decode().strip()


def test_clean_gitlink(tmp_path: Path) -> None:
    repo, oid = _with_submodule(tmp_path)
    result = snapshot(repo, PLAN, ["sub"])
    assert result["global_dirty_digest"]["value"] == EMPTY
    item = entry(result, "sub")
    assert item["state"] == "clean"
    assert kinds(item) == ("gitlink", "gitlink", "gitlink", "absent")
    digest = "sha256:" + hashlib.sha256(oid.encode()).hexdigest()
    assert item["head_digest"] == item["index_digest"] == item["worktree_digest"] == digest


def test_gitlink_with_a_new_clean_commit_is_unstaged(tmp_path: Path) -> None:
    repo, oid = _with_submodule(tmp_path)
    write(repo / "sub", "lib.txt", "lib 2\n")
    git(repo / "sub", "commit", "-qam", "inner")
    new_oid = git(repo / "sub", "rev-parse", "HEAD").decode().strip()
    item = entry(snapshot(repo, PLAN, ["sub"]), "sub")
    assert item["state"] == "unstaged"
    assert item["head_digest"] == "sha256:" + hashlib.sha256(oid.encode()).hexdigest()
    assert item["worktree_digest"] == "sha256:" + hashlib.sha256(new_oid.encode()).hexdigest()


@pytest.mark.parametrize("dirt", ["untracked", "unstaged", "staged", "ignored"])
def test_dirty_gitlink_fails_closed(tmp_path: Path, dirt: str) -> None:
    repo, _ = _with_submodule(tmp_path)
    sub = repo / "sub"
    if dirt == "untracked":
        write(sub, "new.txt", "n\n")
    elif dirt in ("unstaged", "staged"):
        write(sub, "lib.txt", "changed\n")
        if dirt == "staged":
            git(sub, "add", "lib.txt")
    else:
        write(sub, "x.tmp", "ignored\n")
    with pytest.raises(ProvenanceError) as caught:
        snapshot(repo, PLAN, ["sub"])
    real = os.path.realpath(sub)
    assert caught.value.message == (
        f"Checked-out gitlink is dirty at {real}; commit or clean staged, unstaged, untracked, and "
        "ignored changes before snapshotting"
    )


def test_uninitialized_gitlink_falls_through_and_fails(tmp_path: Path) -> None:
    repo, _ = _with_submodule(tmp_path)
    git(repo, "submodule", "deinit", "-q", "-f", "sub")
    with pytest.raises(ProvenanceError) as caught:
        snapshot(repo, PLAN, ["sub"])
    assert caught.value.message == f"Gitlink worktree is not its own repository: {os.path.realpath(repo / 'sub')}"


# -- guards: each observation is rechecked after materialization -------------------------------


def _retarget(link: Path, target: str) -> None:
    os.unlink(link)
    os.symlink(target, link)


def _materialized(repo: Path, path: str) -> Materializer:
    materializer = Materializer(os.path.realpath(repo))
    materializer.object_layer(path)
    materializer.check_guards()
    return materializer


@pytest.mark.parametrize(
    ("path", "mutate"),
    [
        ("b.txt", lambda repo: (repo / "b.txt").write_text("changed\n")),
        ("b.txt", lambda repo: os.replace(repo / "README.md", repo / "b.txt")),
        ("src", lambda repo: (repo / "src" / "new").write_text("n")),
        ("src", lambda repo: (repo / "src" / "a.txt").write_text("n")),
        ("missing/leaf", lambda repo: (repo / "missing").mkdir()),
        ("missing.txt", lambda repo: (repo / "missing.txt").write_text("late")),
        ("b.txt/child", lambda repo: (repo / "b.txt").unlink()),
        ("link", lambda repo: _retarget(repo / "link", "other")),
    ],
)
def test_guard_detects_mutation_after_materialization(repo: Path, path: str, mutate: object) -> None:
    os.symlink("b.txt", repo / "link")
    materializer = _materialized(repo, path)
    try:
        mutate(repo)  # type: ignore[operator]
        with pytest.raises(ProvenanceError, match="changed before evidence materialization completed"):
            materializer.check_guards()
    finally:
        materializer.close()


def test_parent_swap_is_detected(repo: Path) -> None:
    materializer = _materialized(repo, "src/a.txt")
    try:
        os.rename(repo / "src", repo / "src-old")
        (repo / "src").mkdir()
        (repo / "src" / "a.txt").write_text("alpha\n")
        with pytest.raises(ProvenanceError, match="changed before evidence materialization completed"):
            materializer.check_guards()
    finally:
        materializer.close()


@pytest.mark.parametrize(
    "mutate",
    [
        lambda repo: git(repo, "add", "b.txt"),
        lambda repo: git(repo, "commit", "-q", "--allow-empty", "-m", "next"),
        lambda repo: git(repo, "update-ref", "refs/heads/main", "HEAD~0"),
        lambda repo: git(repo, "checkout", "-q", "--detach"),
        lambda repo: git(repo, "pack-refs", "--all"),
    ],
    ids=["index", "commit", "ref", "detach", "pack-refs"],
)
def test_control_file_guards(repo: Path, mutate: object) -> None:
    from gemstack_lsp.provenance.snapshot import _capture_control_files, _check_control_files

    write(repo, "b.txt", "staged later, a different size\n")
    controls = _capture_control_files(os.path.realpath(repo))
    _check_control_files(controls)
    mutate(repo)  # type: ignore[operator]
    with pytest.raises(ProvenanceError) as caught:
        _check_control_files(controls)
    assert caught.value.message.endswith("changed while evidence was materialized")


def test_directory_content_bound_is_256_mib(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r")
    (repo / "big").mkdir()
    with open(repo / "big" / "sparse", "wb") as handle:
        handle.truncate(256 * 1024 * 1024)
    assert entry(snapshot(repo, PLAN, ["big"]), "big")["object_kind"]["untracked"] == "directory"
    with open(repo / "big" / "one-more", "wb") as handle:
        handle.write(b"x")
    with pytest.raises(ProvenanceError) as caught:
        snapshot(repo, PLAN, ["big"])
    assert caught.value.message == "Directory inventory exceeds 268435456 content bytes"


# -- end to end: a mutation during the snapshot rejects it ---------------------------------------


@pytest.mark.parametrize(
    ("stage", "mutate", "message"),
    [
        ("materialized", lambda repo: write(repo, "b.txt", "edited\n"), "b.txt changed before evidence"),
        ("materialized", lambda repo: write(repo, "README.md", "now dirty\n"), "HEAD, index, or working-tree status"),
        ("materialized", lambda repo: write(repo, "late/ignored.log", "x"), "late changed before evidence"),
        ("materialized", lambda repo: git(repo, "add", "b.txt"), "index changed while evidence"),
        ("listed", lambda repo: git(repo, "commit", "-qam", "moved on"), "changed while evidence was materialized"),
    ],
    ids=["cited-file", "status", "absent-parent-created", "index", "head"],
)
def test_mutation_during_snapshot_is_rejected(repo: Path, stage: str, mutate: object, message: str) -> None:
    from gemstack_lsp.provenance.snapshot import take_snapshot

    write(repo, "b.txt", "dirty, and a different size\n")

    def hook(name: str) -> None:
        if name == stage:
            mutate(repo)  # type: ignore[operator]

    with pytest.raises(ProvenanceError) as caught:
        take_snapshot(str(repo), PLAN, ["b.txt", "late/ignored.log"], on_stage=hook)
    assert message in caught.value.message
