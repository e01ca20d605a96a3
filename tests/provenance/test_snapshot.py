"""Contract sections "Records, renames, and states" and "Object and digest rules", on real repos."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.provenance.api import ProvenanceError, snapshot
from gemstack_lsp.provenance.canonical import global_dirty_digest

from .conftest import PLAN, git, init_repo, write

EMPTY = global_dirty_digest([])


def sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def entry(result: dict[str, Any], path: str) -> dict[str, Any]:
    manifest: list[dict[str, Any]] = result["cited_path_manifest"]
    matches = [item for item in manifest if item["path"] == path]
    assert len(matches) == 1, manifest
    return matches[0]


def kinds(item: dict[str, Any]) -> tuple[str, str, str, str]:
    k = item["object_kind"]
    return (k["head"], k["index"], k["worktree"], k["untracked"])


def test_clean_repository(repo: Path) -> None:
    result = snapshot(repo, PLAN, ["src/a.txt"])
    assert list(result) == [
        "schema_version",
        "head_commit",
        "generated_plan_path",
        "global_dirty_digest",
        "cited_path_manifest",
    ]
    assert result["schema_version"] == 2
    assert result["head_commit"] == git(repo, "rev-parse", "HEAD").decode().strip()
    assert result["global_dirty_digest"]["value"] == EMPTY
    item = entry(result, "src/a.txt")
    assert item["state"] == "clean"
    assert kinds(item) == ("regular", "regular", "regular", "absent")
    assert item["head_digest"] == item["index_digest"] == item["worktree_digest"] == sha(b"alpha\n")
    assert item["untracked_digest"] == "absent"
    assert item["rename_from"] is None and item["rename_to"] is None


def test_unstaged_staged_and_mixed(repo: Path) -> None:
    write(repo, "src/a.txt", "alpha 2\n")
    write(repo, "b.txt", "bravo 2\n")
    git(repo, "add", "b.txt")
    write(repo, "README.md", "r2\n")
    git(repo, "add", "README.md")
    write(repo, "README.md", "r3 longer\n")
    result = snapshot(repo, PLAN, ["src/a.txt", "b.txt", "README.md"])
    a, b, readme = entry(result, "src/a.txt"), entry(result, "b.txt"), entry(result, "README.md")
    assert a["state"] == "unstaged"
    assert (a["index_digest"], a["worktree_digest"]) == (sha(b"alpha\n"), sha(b"alpha 2\n"))
    assert b["state"] == "staged"
    assert (b["head_digest"], b["index_digest"]) == (sha(b"bravo\n"), sha(b"bravo 2\n"))
    assert readme["state"] == "mixed"
    assert (readme["head_digest"], readme["index_digest"], readme["worktree_digest"]) == (
        sha(b"r\n"),
        sha(b"r2\n"),
        sha(b"r3 longer\n"),
    )
    assert result["global_dirty_digest"]["value"] != EMPTY


def test_deleted_file_has_absent_worktree(repo: Path) -> None:
    (repo / "b.txt").unlink()
    item = entry(snapshot(repo, PLAN, ["b.txt"]), "b.txt")
    assert item["state"] == "deleted"
    assert kinds(item) == ("regular", "regular", "absent", "absent")
    assert item["worktree_digest"] == "absent"


def test_untracked_and_absent_citations(repo: Path) -> None:
    write(repo, "new.txt", "")
    result = snapshot(repo, PLAN, ["new.txt", "missing/deeper/file", "missing.txt"])
    new = entry(result, "new.txt")
    assert new["state"] == "untracked"
    assert kinds(new) == ("absent", "absent", "absent", "regular")
    assert new["untracked_digest"] == sha(b"")
    for path in ("missing/deeper/file", "missing.txt"):
        item = entry(result, path)
        assert item["state"] == "absent"
        assert set(kinds(item)) == {"absent"}


def test_path_below_a_regular_file_is_absent(repo: Path) -> None:
    # Deliberate difference: the reference fails the whole snapshot here.
    item = entry(snapshot(repo, PLAN, ["b.txt/child"]), "b.txt/child")
    assert item["state"] == "absent"


def test_ignored_file_cited_is_untracked(repo: Path) -> None:
    write(repo, ".gitignore", "*.log\n")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-qm", "ignore")
    write(repo, "x.log", "log\n")
    result = snapshot(repo, PLAN, ["x.log"])
    assert result["global_dirty_digest"]["value"] == EMPTY
    item = entry(result, "x.log")
    assert item["state"] == "untracked"
    assert item["untracked_digest"] == sha(b"log\n")


def test_rename_endpoints_and_one_level_expansion(repo: Path) -> None:
    git(repo, "mv", "b.txt", "c.txt")
    result = snapshot(repo, PLAN, ["c.txt"])
    assert [item["path"] for item in result["cited_path_manifest"]] == ["b.txt", "c.txt"]
    old, new = entry(result, "b.txt"), entry(result, "c.txt")
    assert (old["state"], old["rename_from"], old["rename_to"]) == ("renamed", None, "c.txt")
    assert (new["state"], new["rename_from"], new["rename_to"]) == ("renamed", "b.txt", None)
    assert kinds(old) == ("regular", "absent", "absent", "absent")
    assert kinds(new) == ("absent", "regular", "regular", "absent")


def test_worktree_dirty_rename_destination_is_mixed(repo: Path) -> None:
    git(repo, "mv", "b.txt", "c.txt")
    write(repo, "c.txt", "bravo\nmore\n")
    new = entry(snapshot(repo, PLAN, ["c.txt"]), "c.txt")
    assert new["state"] == "mixed"
    assert new["rename_from"] == "b.txt"


def test_staged_deletion_plus_recreated_file_is_mixed(repo: Path) -> None:
    git(repo, "rm", "-q", "--cached", "b.txt")
    item = entry(snapshot(repo, PLAN, ["b.txt"]), "b.txt")
    assert item["state"] == "mixed"
    assert kinds(item) == ("regular", "absent", "absent", "regular")
    assert item["untracked_digest"] == sha(b"bravo\n")


def test_mode_only_change_is_a_record_with_equal_digests(repo: Path) -> None:
    os.chmod(repo / "b.txt", 0o755)
    result = snapshot(repo, PLAN, ["b.txt"])
    item = entry(result, "b.txt")
    assert item["state"] == "unstaged"
    assert item["head_digest"] == item["index_digest"] == item["worktree_digest"]
    assert result["global_dirty_digest"]["value"] != EMPTY


def test_symlinks_hash_their_target_bytes(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r", {"target.txt": "t\n"})
    os.symlink("target.txt", repo / "link")
    git(repo, "add", "link")
    git(repo, "commit", "-qm", "link")
    os.unlink(repo / "link")
    os.symlink("elsewhere", repo / "link")
    item = entry(snapshot(repo, PLAN, ["link"]), "link")
    assert item["state"] == "unstaged"
    assert kinds(item) == ("symlink", "symlink", "symlink", "absent")
    assert item["head_digest"] == sha(b"target.txt")
    assert item["worktree_digest"] == sha(b"elsewhere")


def test_symlinked_parent_is_refused(repo: Path) -> None:
    os.symlink("src", repo / "srclink")
    with pytest.raises(ProvenanceError) as caught:
        snapshot(repo, PLAN, ["srclink/a.txt"])
    assert caught.value.message == "Refusing to traverse symlink parent for srclink/a.txt"


def test_generated_plan_is_excluded_by_exact_path_only(repo: Path) -> None:
    baseline = snapshot(repo, PLAN, [])["global_dirty_digest"]["value"]
    write(repo, PLAN, "# plan\n")
    assert snapshot(repo, PLAN, [])["global_dirty_digest"]["value"] == baseline == EMPTY
    # Cited, the plan still appears in the manifest.
    assert entry(snapshot(repo, PLAN, [PLAN]), PLAN)["state"] == "untracked"
    # Another plan in docs/plans is evidence like any other file.
    write(repo, "docs/plans/2024-01-03-gitnexus-plan-other-plan-here.md", "other\n")
    assert snapshot(repo, PLAN, [])["global_dirty_digest"]["value"] != EMPTY


def test_plan_as_rename_endpoint_excludes_only_that_endpoint(repo: Path) -> None:
    write(repo, PLAN, "# plan\n")
    git(repo, "add", PLAN)
    git(repo, "commit", "-qm", "plan")
    moved = "docs/plans/2024-01-03-gitnexus-plan-moved-plan-here.md"
    git(repo, "mv", PLAN, moved)
    with_plan_excluded = snapshot(repo, PLAN, [])["global_dirty_digest"]["value"]
    with_moved_excluded = snapshot(repo, moved, [])["global_dirty_digest"]["value"]
    with_nothing_excluded = snapshot(repo, "docs/plans/2024-01-04-gitnexus-plan-not-here-at.md", [])
    values = {with_plan_excluded, with_moved_excluded, with_nothing_excluded["global_dirty_digest"]["value"]}
    assert len(values) == 3
    assert EMPTY not in values


def _tree_bytes(repo: Path, spec: str) -> bytes:
    oid = git(repo, "rev-parse", spec).decode().strip()
    return git(repo, "cat-file", "tree", oid)


def test_cited_directory_tracked_and_untracked(repo: Path) -> None:
    write(repo, "src/a.txt", "changed\n")
    item = entry(snapshot(repo, PLAN, ["src"]), "src")
    # A cited directory is never dirty itself.
    assert item["state"] == "clean"
    assert kinds(item) == ("directory", "absent", "directory", "absent")
    assert item["head_digest"] == sha(_tree_bytes(repo, "HEAD:src"))
    expected_stream = (
        b"gitnexus-evidence-directory\x00schema_version\x001\x00\x00"
        + b"record\x00path\x00a.txt\x00kind\x00regular\x00digest\x00"
        + sha(b"changed\n").encode()
        + b"\x00\x00"
    )
    assert item["worktree_digest"] == sha(expected_stream)


def test_nested_directory_entries_are_flattened(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r")
    write(repo, "d/sub/f", "f")
    (repo / "d" / "empty").mkdir()
    item = entry(snapshot(repo, PLAN, ["d"]), "d")
    prefix = b"gitnexus-evidence-directory\x00schema_version\x001\x00\x00"

    def rec(path: str, kind: str, digest: str) -> bytes:
        return b"record\x00path\x00%s\x00kind\x00%s\x00digest\x00%s\x00\x00" % (
            path.encode(),
            kind.encode(),
            digest.encode(),
        )

    empty = sha(prefix)
    sub = sha(prefix + rec("f", "regular", sha(b"f")))
    top = sha(
        prefix + rec("empty", "directory", empty) + rec("sub", "directory", sub) + rec("sub/f", "regular", sha(b"f"))
    )
    assert item["untracked_digest"] == top
    assert item["state"] == "untracked"


def test_directory_entry_bound_is_exactly_ten_thousand(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r")
    big = repo / "big"
    big.mkdir()
    for number in range(9_999):
        (big / f"f{number}").touch()
    (big / "sub").mkdir()
    item = entry(snapshot(repo, PLAN, ["big"]), "big")
    assert item["object_kind"]["untracked"] == "directory"
    (big / "sub" / "one-more").touch()
    with pytest.raises(ProvenanceError) as caught:
        snapshot(repo, PLAN, ["big"])
    assert caught.value.message == "Directory inventory exceeds 10000 entries"


def test_directory_depth_bound_is_exactly_256(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r")
    deepest = repo / "deep"
    for _ in range(256):
        deepest = deepest / "d"
    deepest.mkdir(parents=True)
    (deepest / "leaf").write_text("x")
    assert entry(snapshot(repo, PLAN, ["deep"]), "deep")["object_kind"]["untracked"] == "directory"
    (deepest / "d").mkdir()
    with pytest.raises(ProvenanceError) as caught:
        snapshot(repo, PLAN, ["deep"])
    assert caught.value.message == "Directory inventory exceeds depth 256"


def test_unsupported_objects_are_refused(repo: Path) -> None:
    os.mkfifo(repo / "fifo")
    with pytest.raises(ProvenanceError) as caught:
        snapshot(repo, PLAN, ["fifo"])
    assert caught.value.message == f"Unsupported filesystem object at {os.path.realpath(repo)}/fifo"


def test_bad_names_in_git_output_fail_closed(repo: Path) -> None:
    write(repo, "e\u0301.txt", "x")
    with pytest.raises(ProvenanceError) as caught:
        snapshot(repo, PLAN, [])
    assert caught.value.message == "untracked path must already be Unicode NFC"
    (repo / "e\u0301.txt").unlink()
    (repo / os.fsdecode(b"bad\xff")).write_bytes(b"x")
    with pytest.raises(ProvenanceError) as caught:
        snapshot(repo, PLAN, [])
    assert caught.value.message == "untracked path is not valid UTF-8"


def test_bad_name_elsewhere_in_head_does_not_fail_unrelated_snapshots(tmp_path: Path) -> None:
    # Deliberate difference: only names that are evidence are validated.
    repo = init_repo(tmp_path / "r", {"ok.txt": "ok\n", "e\u0301.txt": "nfd\n"})
    assert entry(snapshot(repo, PLAN, ["ok.txt"]), "ok.txt")["state"] == "clean"


def test_unborn_head_and_unmerged_index(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    git(empty, "init", "-q")
    with pytest.raises(ProvenanceError, match=r"^git rev-parse --verify HEAD failed \(128\): fatal"):
        snapshot(empty, PLAN, [])
    repo = init_repo(tmp_path / "r", {"f": "base\n"})
    git(repo, "checkout", "-q", "-b", "other")
    write(repo, "f", "other\n")
    git(repo, "commit", "-qam", "other")
    git(repo, "checkout", "-q", "main")
    write(repo, "f", "main\n")
    git(repo, "commit", "-qam", "main")
    with pytest.raises(Exception):  # noqa: B017 - the merge conflict is the set-up
        git(repo, "merge", "-q", "other")
    with pytest.raises(ProvenanceError) as caught:
        snapshot(repo, PLAN, [])
    assert caught.value.message == "Unmerged paths cannot be canonicalized; resolve the index first"


@pytest.mark.parametrize("branch", ["feat+x", "user@x", "café"])
def test_any_valid_branch_name_works(tmp_path: Path, branch: str) -> None:
    # Deliberate difference: the reference refuses these branch names.
    repo = init_repo(tmp_path / "r")
    git(repo, "checkout", "-q", "-b", branch)
    assert snapshot(repo, PLAN, [])["global_dirty_digest"]["value"] == EMPTY


def test_detached_head_and_linked_worktree(repo: Path, tmp_path: Path) -> None:
    git(repo, "checkout", "-q", "--detach")
    assert snapshot(repo, PLAN, [])["global_dirty_digest"]["value"] == EMPTY
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", str(linked), "-b", "side")
    write(linked, "b.txt", "side\n")
    assert entry(snapshot(linked, PLAN, ["b.txt"]), "b.txt")["state"] == "unstaged"


def _git_dir_fingerprint(repo: Path) -> dict[str, tuple[int, int, bytes]]:
    out = {}
    for path in sorted((repo / ".git").rglob("*")):
        if path.is_file() and not path.is_symlink():
            st = path.stat()
            out[str(path)] = (st.st_ino, st.st_mtime_ns, path.read_bytes())
    return out


def test_snapshot_never_writes_to_the_repository(repo: Path) -> None:
    # Make the index stat-stale so that an ordinary `git status` would refresh and rewrite it.
    os.utime(repo / "b.txt", ns=(1, 1))
    write(repo, "src/a.txt", "dirty\n")
    before = _git_dir_fingerprint(repo)
    snapshot(repo, PLAN, ["b.txt", "src/a.txt", "src"])
    assert _git_dir_fingerprint(repo) == before


def test_repository_must_be_the_exact_top_level(repo: Path, tmp_path: Path) -> None:
    with pytest.raises(ProvenanceError) as caught:
        snapshot(repo / "src", PLAN, [])
    assert caught.value.message == f"--repo must be the Git worktree root ({os.path.realpath(repo)})"
    alias = tmp_path / "alias"
    os.symlink(repo, alias)
    assert snapshot(alias, PLAN, [])["global_dirty_digest"]["value"] == EMPTY


def test_embedded_repository_excludes_only_its_git_entry(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r")
    init_repo(repo / "child", {"inner.txt": "inner\n"})
    plain = init_repo(tmp_path / "plain")
    shutil.copytree(repo / "child", plain / "child", ignore=shutil.ignore_patterns(".git"))
    embedded = entry(snapshot(repo, PLAN, ["child"]), "child")
    copy = entry(snapshot(plain, PLAN, ["child"]), "child")
    assert embedded["state"] == "untracked"
    assert embedded["untracked_digest"] == copy["untracked_digest"]


def test_dirty_set_spread_over_many_directories(tmp_path: Path) -> None:
    # More directories than the descriptor cache holds: parents are evicted and re-proved.
    repo = init_repo(tmp_path / "r", {f"d{n:03}/f": "base\n" for n in range(600)})
    for n in range(600):
        write(repo, f"d{n:03}/f", f"changed {n}\n")
    cited = ["d000/f", "d599/f", "d300/missing", "d599/also/missing"]
    result = snapshot(repo, PLAN, cited)
    assert entry(result, "d599/f")["worktree_digest"] == sha(b"changed 599\n")
    assert entry(result, "d300/missing")["state"] == "absent"
    assert len(os.listdir("/proc/self/fd")) < 64  # every descriptor was closed again


def test_absence_anchoring_is_capped(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r")
    for n in range(4097):
        (repo / f"e{n}").mkdir()
    with pytest.raises(ProvenanceError) as caught:
        snapshot(repo, PLAN, [f"e{n}/missing" for n in range(4097)])
    assert caught.value.message == "Absence anchoring exceeds 4096 pinned directories"
    assert entry(snapshot(repo, PLAN, [f"e{n}/missing" for n in range(4096)]), "e0/missing")["state"] == "absent"
