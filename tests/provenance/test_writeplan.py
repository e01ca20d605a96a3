"""Contract sections "Safe generated-plan write contract" and "Safe existing-plan read contract":
the happy paths, and attacks on the writer. After every attack nothing outside the repository was
written and no plan (prior, displaced or intended) was lost."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from gemstack_lsp.provenance.api import ProvenanceError, WriteHooks, read_plan, write_plan

from .conftest import PLAN, git, write

LEAF = PLAN.rsplit("/", 1)[1]


def digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _outside_repo(tmp_path: Path, repo: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(tmp_path)): p.read_bytes() if p.is_file() and not p.is_symlink() else b"<dir-or-link>"
        for p in sorted(tmp_path.rglob("*"))
        if repo not in p.parents and p != repo
    }


@pytest.fixture
def outside(tmp_path: Path, repo: Path) -> Iterator[Path]:
    """A directory beside the repository; at teardown, nothing outside the repository changed."""
    target = tmp_path / "outside"
    target.mkdir()
    (target / "sentinel").write_bytes(b"keep\n")
    before = _outside_repo(tmp_path, repo)
    yield target
    assert _outside_repo(tmp_path, repo) == before


def snapshot_tree(path: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(path)): p.read_bytes() if p.is_file() and not p.is_symlink() else b"<dir-or-link>"
        for p in sorted(path.rglob("*"))
    }


def vault(repo: Path) -> dict[str, bytes]:
    root = repo / ".git" / "gitnexus-plan-backups"
    return {p.name: p.read_bytes() for p in root.iterdir()} if root.is_dir() else {}


def recovered(repo: Path, message: str) -> dict[str, bytes]:
    """Every ``role=git-path:...`` in an error, resolved with ``git rev-parse --git-path``."""
    found = {}
    for role, name in re.findall(r"([a-z-]+)=git-path:(gitnexus-plan-backups/[^,;\s]+)", message):
        resolved = git(repo, "rev-parse", "--git-path", name).decode().strip()
        found[role] = (repo / resolved).read_bytes()
    return found


def all_plan_bytes(repo: Path) -> set[bytes]:
    plans = repo / "docs" / "plans"
    here = {p.read_bytes() for p in plans.rglob("*") if p.is_file() and not p.is_symlink()} if plans.exists() else set()
    return here | set(vault(repo).values())


# -- happy paths --------------------------------------------------------------------------------


def test_fresh_write_then_read_then_replace(repo: Path) -> None:
    receipt = write_plan(repo, PLAN, "# plan é\n".encode())
    assert receipt == {"generated_plan_path": PLAN, "bytes_written": 10}
    assert (repo / PLAN).read_bytes() == "# plan é\n".encode()
    assert oct((repo / PLAN).stat().st_mode & 0o777) == "0o644"
    assert not [p for p in (repo / "docs" / "plans").iterdir() if p.name.endswith(".tmp")]

    loaded = read_plan(repo, PLAN)
    assert list(loaded) == ["generated_plan_path", "bytes_read", "plan_digest", "plan_bytes_base64"]
    assert loaded["plan_digest"] == digest("# plan é\n".encode())
    assert loaded["plan_bytes_base64"] == "IyBwbGFuIMOpCg=="

    replaced = write_plan(
        repo,
        PLAN,
        b"# deeper\n",
        replace=True,
        expected_plan_path=PLAN,
        expected_plan_digest=str(loaded["plan_digest"]),
    )
    backup = str(replaced["prior_plan_backup_git_path"])
    assert backup.startswith("gitnexus-plan-backups/.gitnexus-plan-prior-plan-")
    assert (repo / PLAN).read_bytes() == b"# deeper\n"
    resolved = git(repo, "rev-parse", "--git-path", backup).decode().strip()
    assert (repo / resolved).read_bytes() == "# plan é\n".encode()
    assert oct((repo / ".git" / "gitnexus-plan-backups").stat().st_mode & 0o777) == "0o700"


def test_empty_plan_is_written(repo: Path) -> None:
    assert write_plan(repo, PLAN, b"")["bytes_written"] == 0
    assert read_plan(repo, PLAN)["plan_bytes_base64"] == ""


def test_linked_worktree_uses_its_own_git_admin_vault(repo: Path, tmp_path: Path) -> None:
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", str(linked), "-b", "side")
    write_plan(linked, PLAN, b"one\n")
    loaded = read_plan(linked, PLAN)
    receipt = write_plan(
        linked, PLAN, b"two\n", replace=True, expected_plan_path=PLAN, expected_plan_digest=str(loaded["plan_digest"])
    )
    resolved = git(linked, "rev-parse", "--git-path", str(receipt["prior_plan_backup_git_path"])).decode().strip()
    assert "worktrees" in resolved
    assert (linked / resolved).read_bytes() == b"one\n"


# -- refusals before any bytes exist -------------------------------------------------------------


def test_existing_destination_without_replace(repo: Path, outside: Path) -> None:
    write_plan(repo, PLAN, b"first\n")
    with pytest.raises(ProvenanceError) as caught:
        write_plan(repo, PLAN, b"second\n")
    assert caught.value.message == "Generated plan already exists; use --replace only for Deepen mode"
    assert (repo / PLAN).read_bytes() == b"first\n"


def test_replace_requires_an_existing_plan(repo: Path) -> None:
    with pytest.raises(ProvenanceError) as caught:
        write_plan(repo, PLAN, b"x", replace=True, expected_plan_path=PLAN, expected_plan_digest=digest(b""))
    assert caught.value.message == "Deepen mode requires an existing generated plan to replace"


def test_invalid_utf8_touches_nothing(repo: Path, outside: Path) -> None:
    with pytest.raises(ProvenanceError) as caught:
        write_plan(repo, PLAN, b"\xc3\x28 overlong \xc0\xaf")
    assert caught.value.message == "generated plan is not valid UTF-8"
    assert not (repo / "docs").exists()
    assert not (repo / ".git" / "gitnexus-plan-backups").exists()


def test_api_requires_literal_booleans_and_bytes(repo: Path) -> None:
    with pytest.raises(ProvenanceError, match="literal boolean"):
        write_plan(repo, PLAN, b"x", replace=1)  # type: ignore[arg-type]
    with pytest.raises(ProvenanceError, match="must be bytes"):
        write_plan(repo, PLAN, "text")  # type: ignore[arg-type]
    with pytest.raises(ProvenanceError, match="sha256:<64 lowercase"):
        write_plan(repo, PLAN, b"x", replace=True, expected_plan_path=PLAN, expected_plan_digest="SHA256:" + "a" * 64)
    assert not (repo / "docs").exists()


def test_replace_for_another_path_is_refused(repo: Path, outside: Path) -> None:
    other = "docs/plans/2024-01-02-gitnexus-plan-some-other-plan.md"
    write_plan(repo, PLAN, b"same\n")
    write_plan(repo, other, b"same\n")
    loaded = read_plan(repo, other)
    with pytest.raises(ProvenanceError) as caught:
        write_plan(
            repo,
            PLAN,
            b"new\n",
            replace=True,
            expected_plan_path=other,
            expected_plan_digest=str(loaded["plan_digest"]),
        )
    assert caught.value.message == "expectedPlanPath from the read-plan receipt must exactly match generatedPlanPath"
    assert (repo / PLAN).read_bytes() == (repo / other).read_bytes() == b"same\n"
    assert not (repo / ".git" / "gitnexus-plan-backups").exists() or not vault(repo)


# -- attacks -------------------------------------------------------------------------------------


@pytest.mark.parametrize("link", ["docs", "docs/plans"])
def test_symlinked_parent(repo: Path, outside: Path, link: str) -> None:
    before = snapshot_tree(outside)
    (repo / link).parent.mkdir(parents=True, exist_ok=True)
    os.symlink(outside, repo / link)
    with pytest.raises(ProvenanceError) as caught:
        write_plan(repo, PLAN, b"plan\n")
    assert caught.value.message == f"Generated-plan parent is not a real directory: {link}"
    assert snapshot_tree(outside) == before


def test_symlinked_destination(repo: Path, outside: Path) -> None:
    (repo / "docs" / "plans").mkdir(parents=True)
    os.symlink(outside / "sentinel", repo / PLAN)
    before = snapshot_tree(outside)
    for replace in (False, True):
        with pytest.raises(ProvenanceError) as caught:
            if replace:
                write_plan(
                    repo, PLAN, b"x", replace=True, expected_plan_path=PLAN, expected_plan_digest=digest(b"keep\n")
                )
            else:
                write_plan(repo, PLAN, b"x")
        assert caught.value.message == "Generated-plan destination must be a regular file, never a symlink"
    assert snapshot_tree(outside) == before
    assert os.readlink(repo / PLAN) == str(outside / "sentinel")


def test_destination_appears_between_check_and_publish(repo: Path, outside: Path) -> None:
    before = snapshot_tree(outside)

    def racer(stage: str) -> None:
        if stage == "before-publish":
            (repo / PLAN).write_bytes(b"racer\n")

    with pytest.raises(ProvenanceError) as caught:
        write_plan(repo, PLAN, b"intended\n", hooks=WriteHooks(racer))
    message = caught.value.message
    assert message.startswith("Generated plan already exists; use --replace only for Deepen mode; preserved")
    assert (repo / PLAN).read_bytes() == b"racer\n"
    assert recovered(repo, message) == {"unpublished-plan": b"intended\n"}
    assert snapshot_tree(outside) == before
    assert sorted(p.name for p in (repo / "docs" / "plans").iterdir()) == [LEAF]


@pytest.mark.parametrize("replacement", ["symlink", "directory"])
def test_parent_swapped_mid_write(repo: Path, outside: Path, replacement: str) -> None:
    before = snapshot_tree(outside)
    plans = repo / "docs" / "plans"

    def swap(stage: str) -> None:
        if stage == "temp-written":
            os.rename(plans, repo / "docs" / "plans-moved")
            if replacement == "symlink":
                os.symlink(outside, plans)
            else:
                plans.mkdir()

    with pytest.raises(ProvenanceError) as caught:
        write_plan(repo, PLAN, b"intended\n", hooks=WriteHooks(swap))
    message = caught.value.message
    assert message.startswith("Generated-plan parent changed during the write; refusing to publish")
    assert recovered(repo, message) == {"unpublished-plan": b"intended\n"}
    assert snapshot_tree(outside) == before
    assert not (repo / "docs" / "plans-moved" / LEAF).exists()
    assert not (outside / LEAF).exists()


def test_parent_swapped_after_publication_reports_recovery(repo: Path, outside: Path) -> None:
    def swap(stage: str) -> None:
        if stage == "after-publish":
            os.rename(repo / "docs" / "plans", repo / "docs" / "plans-moved")

    with pytest.raises(ProvenanceError) as caught:
        write_plan(repo, PLAN, b"intended\n", hooks=WriteHooks(swap))
    assert recovered(repo, caught.value.message)["intended-plan"] == b"intended\n"
    assert (repo / "docs" / "plans-moved" / LEAF).read_bytes() == b"intended\n"


def _existing(repo: Path, content: bytes = b"prior\n") -> str:
    write_plan(repo, PLAN, content)
    return str(read_plan(repo, PLAN)["plan_digest"])


def test_replace_with_wrong_digest(repo: Path, outside: Path) -> None:
    _existing(repo)
    with pytest.raises(ProvenanceError) as caught:
        write_plan(repo, PLAN, b"new\n", replace=True, expected_plan_path=PLAN, expected_plan_digest=digest(b"other"))
    message = caught.value.message
    assert message.startswith("Generated plan no longer matches the exact digest from the read-plan receipt")
    assert (repo / PLAN).read_bytes() == b"prior\n"
    assert recovered(repo, message) == {"unpublished-plan": b"new\n", "expected-prior-plan": b"prior\n"}
    assert {b"prior\n", b"new\n"} <= all_plan_bytes(repo)
    assert sorted(p.name for p in (repo / "docs" / "plans").iterdir()) == [LEAF]


def test_prior_edited_between_read_and_write(repo: Path, outside: Path) -> None:
    expected = _existing(repo)

    def edit(stage: str) -> None:
        if stage == "before-prior-move":
            with open(repo / PLAN, "ab") as handle:  # same inode, new bytes
                handle.write(b"edit\n")

    with pytest.raises(ProvenanceError) as caught:
        write_plan(
            repo,
            PLAN,
            b"new\n",
            replace=True,
            expected_plan_path=PLAN,
            expected_plan_digest=expected,
            hooks=WriteHooks(edit),
        )
    assert (repo / PLAN).read_bytes() == b"prior\nedit\n"
    assert recovered(repo, caught.value.message)["unpublished-plan"] == b"new\n"
    assert {b"prior\nedit\n", b"new\n"} <= all_plan_bytes(repo)


def test_prior_replaced_by_another_file_before_the_move(repo: Path, outside: Path) -> None:
    expected = _existing(repo)

    def swap(stage: str) -> None:
        if stage == "before-prior-move":
            os.rename(repo / PLAN, repo / "aside.md")
            (repo / PLAN).write_bytes(b"prior\n")  # same bytes, different inode

    with pytest.raises(ProvenanceError):
        write_plan(
            repo,
            PLAN,
            b"new\n",
            replace=True,
            expected_plan_path=PLAN,
            expected_plan_digest=expected,
            hooks=WriteHooks(swap),
        )
    assert (repo / PLAN).read_bytes() == b"prior\n"
    assert (repo / "aside.md").read_bytes() == b"prior\n"
    assert b"new\n" in all_plan_bytes(repo)


def test_destination_reappears_after_the_prior_moved(repo: Path, outside: Path) -> None:
    expected = _existing(repo)

    def racer(stage: str) -> None:
        if stage == "before-publish":
            (repo / PLAN).write_bytes(b"racer\n")

    with pytest.raises(ProvenanceError) as caught:
        write_plan(
            repo,
            PLAN,
            b"new\n",
            replace=True,
            expected_plan_path=PLAN,
            expected_plan_digest=expected,
            hooks=WriteHooks(racer),
        )
    message = caught.value.message
    assert message.startswith("Generated-plan destination reappeared before publication; it was left untouched")
    assert (repo / PLAN).read_bytes() == b"racer\n"
    assert recovered(repo, message) == {"prior-plan": b"prior\n", "unpublished-plan": b"new\n"}
    assert {b"prior\n", b"new\n", b"racer\n"} <= all_plan_bytes(repo)


# -- read-plan -----------------------------------------------------------------------------------


def test_read_plan_refusals(repo: Path, outside: Path) -> None:
    def refused(path: str = PLAN) -> str:
        with pytest.raises(ProvenanceError) as caught:
            read_plan(repo, path)
        return caught.value.message

    assert refused() == "Loaded-plan parent does not exist: docs"
    (repo / "docs").mkdir()
    assert refused() == "Loaded-plan parent does not exist: docs/plans"
    os.symlink(outside, repo / "docs" / "plans")
    assert refused() == "Loaded-plan parent is not a real directory: docs/plans"
    os.unlink(repo / "docs" / "plans")
    (repo / "docs" / "plans").mkdir()
    assert refused() == f"Loaded plan does not exist: {PLAN}"
    os.symlink(outside / "sentinel", repo / PLAN)
    assert refused() == "Loaded plan must be a regular file, never a symlink"
    os.unlink(repo / PLAN)
    os.mkfifo(repo / PLAN)
    assert refused() == "Loaded plan must be a regular file, never a symlink"
    os.unlink(repo / PLAN)
    (repo / PLAN).write_bytes(b"\xff")
    assert refused() == "loaded plan is not valid UTF-8"
    (repo / PLAN).write_bytes(b"a" * (16 * 1024 * 1024 + 1))
    assert refused() == "Loaded plan exceeds 16777216 bytes"
    (repo / PLAN).write_bytes(b"a" * (16 * 1024 * 1024))
    assert read_plan(repo, PLAN)["bytes_read"] == 16 * 1024 * 1024
    assert refused("docs/plans/notes.md") == "Existing-plan reads are restricted to docs/plans/*gitnexus-plan*.md"


def test_read_plan_accepts_legacy_names(repo: Path) -> None:
    write(repo, "docs/plans/old-gitnexus-plan.md", "legacy\n")
    assert read_plan(repo, "docs/plans/old-gitnexus-plan.md")["bytes_read"] == 7
