"""One containment rule for the CLI (and the server, tests/lsp/test_containment.py): a path whose
real path leaves its repository is that repository's finding, never a repository of its own."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from gemstack_lsp import containment
from gemstack_lsp.cli import main

FEATURE = "specs/009-context-capsule"


def _outside_repository(tmp_path: Path, source: Path) -> Path:
    """A repository outside the workspace with one feature, ``specs/evil``."""
    outside = tmp_path / "outside" / "repo"
    feature = outside / "specs" / "evil"
    feature.mkdir(parents=True)
    (outside / ".gemstack").mkdir()
    for name in ("spec.md", "plan.md", "tasks.md"):
        shutil.copy(source / FEATURE / name, feature / name)
    return outside


@pytest.fixture
def evil(reference_repo: Path, tmp_path: Path) -> tuple[Path, Path]:
    """(workspace, outside repository) with ``specs/evil`` linking to the outside feature."""
    outside = _outside_repository(tmp_path, reference_repo)
    (reference_repo / "specs" / "evil").symlink_to(outside / "specs" / "evil", target_is_directory=True)
    return reference_repo, outside


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("target", ["specs/evil/spec.md", "specs/evil"])
def test_check_on_a_path_through_a_symlink_out_reports_it_and_never_checks_the_outside(
    evil: tuple[Path, Path], capsys: pytest.CaptureFixture[str], target: str
) -> None:
    root, outside = evil
    code, out, _ = _run(capsys, "check", str(root / target))
    assert code == 1, out
    assert str(outside) in out  # named as where the link leads, never analysed
    assert "ARTIFACT_UNREADABLE" in out and "specs/evil/spec.md" in out
    assert "leads outside the repository" in out
    assert "1 repository checked" in out


def test_a_feature_folder_that_looks_like_a_repository_is_not_one(
    reference_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = _outside_repository(tmp_path, reference_repo)
    (reference_repo / "specs" / "evil").symlink_to(outside, target_is_directory=True)
    # The linked folder holds specs/ and .gemstack/: still a folder of the workspace, not a root.
    assert containment.owning_root(str(reference_repo / "specs/evil")) == containment.Root(
        str(reference_repo), str(reference_repo)
    )
    code, out, err = _run(capsys, "check", str(reference_repo / "specs/evil/specs/evil/spec.md"))
    # Deeper than analysis looks, so no finding covers it: refused, never a silent pass.
    assert code == 2
    assert "is not checked" in err and "outside the repository" in err
    code, out, err = _run(capsys, "check", str(reference_repo / "specs/evil"))
    assert code == 2 and "is not checked" in err
    assert str(outside) not in out


@pytest.mark.parametrize("sub", ["verify", "generate", "show"])
def test_context_refuses_a_feature_outside_the_repository(
    evil: tuple[Path, Path], capsys: pytest.CaptureFixture[str], sub: str
) -> None:
    root, outside = evil
    code, out, err = _run(capsys, "context", sub, "--target", str(root), "--feature", "specs/evil")
    assert code != 0
    assert "outside the repository" in err
    assert "LEGACY" not in out
    assert not (outside / "specs/evil/context-capsule.json").exists()


def test_context_refuses_an_active_spec_that_climbs_out(
    reference_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(capsys, "context", "verify", "--target", str(reference_repo), "--feature", "specs/../..")
    assert code != 0
    assert "outside" in err


def test_owning_root_trusts_an_anchor_as_given(tmp_path: Path) -> None:
    real = tmp_path / "data" / "proj"
    (real / "specs").mkdir(parents=True)
    home = tmp_path / "home"
    (home / "specs").mkdir(parents=True)  # an enclosing folder that looks like a repository
    (home / "proj").symlink_to(real, target_is_directory=True)
    linked = str(home / "proj")
    # Without an anchor, a repository reached through a link out of an enclosing one is refused.
    assert containment.owning_root(linked) == containment.Root(str(home), str(home))
    # A workspace folder the user opened is trusted as given.
    assert containment.owning_root(linked, [linked]) == containment.Root(linked, str(real))
    where = containment.locate(os.path.join(linked, "specs/a/spec.md"), [linked])
    assert where.contained and where.rel == "specs/a/spec.md"


def test_locate_tells_a_symlinked_file_leading_out(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "specs" / "a").mkdir(parents=True)
    (tmp_path / "secret.md").write_text("x", "utf-8")
    (root / "specs/a/spec.md").symlink_to(tmp_path / "secret.md")
    (root / "specs/a/alias.md").symlink_to(root / "specs/a/plan.md")
    out = containment.locate(str(root / "specs/a/spec.md"))
    assert out.root is not None and out.root.real == str(root)
    assert out.rel is None and out.written_rel == "specs/a/spec.md"
    assert out.escape is not None and "outside the repository" in out.escape
    inside = containment.locate(str(root / "specs/a/alias.md"))
    assert inside.contained and inside.rel == "specs/a/alias.md"
    assert containment.locate(str(tmp_path / "nowhere.md")).root is None


def test_gate_never_evaluates_against_an_outside_repository(
    evil: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    root, outside = evil
    (outside / "cost-ledger.json").write_text('{"version": 1, "providers": {}}', "utf-8")
    argv = ["gate", "evaluate", "--target", str(root / "specs/evil"), "--action", "x", "--env", "development"]
    main(argv)
    out = capsys.readouterr().out
    assert str(outside) not in out
    from gemstack_lsp.fs import find_repo_root

    assert find_repo_root(root / "specs/evil/spec.md") == root
