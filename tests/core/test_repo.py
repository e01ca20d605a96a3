"""The repository model: features, state, the active feature, and finding a repository's root."""

from __future__ import annotations

from pathlib import Path

import pytest

from gemstack_lsp.core.reader import DirEntry, FileContent, MemoryReader
from gemstack_lsp.core.repo import Feature, GemstackRepo
from gemstack_lsp.fs import DiskReader, find_repo_root

REFERENCE_REPO = Path(__file__).parents[1] / "fixtures" / "gemstack-reference" / "repo"


class CountingReader:
    """A reader that counts how often each path is read."""

    def __init__(self, files: dict[str, str | bytes]) -> None:
        self.base = MemoryReader(files)
        self.reads: dict[str, int] = {}

    def read(self, path: str) -> FileContent:
        self.reads[path] = self.reads.get(path, 0) + 1
        return self.base.read(path)

    def list_dir(self, path: str) -> list[DirEntry] | None:
        return self.base.list_dir(path)


def test_fixture_repository_model() -> None:
    repo = GemstackRepo(str(REFERENCE_REPO), DiskReader(REFERENCE_REPO))
    assert [f.name for f in repo.features()] == ["008-cost-provider-safety-gates", "009-context-capsule"]
    assert repo.active_feature() == Feature("009-context-capsule")
    state = repo.state()
    assert state is not None and state.reference_parsable


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({".gemstack/state.json": '{"active_spec": "specs/a"}', "specs/a/spec.md": ""}, "a"),
        ({".gemstack/state.json": '{"active_spec": "specs\\\\a\\\\"}', "specs/a/spec.md": ""}, "a"),
        # The active spec is the state's word even when its folder is missing (that is a finding).
        ({".gemstack/state.json": '{"active_spec": "specs/gone"}'}, "gone"),
        # A path through the parent that comes back inside the root is the feature it names.
        ({".gemstack/state.json": '{"active_spec": "../repo/specs/a"}', "specs/a/spec.md": ""}, "a"),
        ({".gemstack/state.json": '{"active_spec": "../other/specs/a"}', "specs/a/spec.md": ""}, None),
        # Not a feature folder: no active feature.
        ({".gemstack/state.json": '{"active_spec": "docs/a"}', "docs/a/spec.md": ""}, None),
        # No state, or no active spec in it: no active feature. The reference's verify checks
        # none; only its `context` command falls back to a Gemstack 0.x specs/current ...
        ({"specs/current/spec.md": ""}, None),
        ({".gemstack/state.json": '{"active_spec": null}', "specs/current/spec.md": ""}, None),
        # ... and never the reference's hard-coded 009 folder.
        ({"specs/009-context-capsule/spec.md": ""}, None),
        # A state the reference cannot parse is ignored, as the reference ignores it.
        ({".gemstack/state.json": '{"active_spec": "specs/a",', "specs/a/spec.md": ""}, None),
        ({".gemstack/state.json": b'\xef\xbb\xbf{"active_spec": "specs/a"}', "specs/a/spec.md": ""}, None),
    ],
)
def test_active_feature_resolution(files: dict[str, str | bytes], expected: str | None) -> None:
    repo = GemstackRepo("/repo", MemoryReader(files))
    feature = repo.active_feature()
    assert (feature.name if feature else None) == expected


def test_state_and_active_feature_are_memoised_per_snapshot() -> None:
    reader = CountingReader({".gemstack/state.json": '{"active_spec": "specs/a"}', "specs/a/spec.md": ""})
    repo = GemstackRepo("/repo", reader)
    first = repo.state()
    assert repo.state() is first
    assert repo.active_feature() is repo.active_feature()
    assert reader.reads[".gemstack/state.json"] == 1


def test_missing_state_is_none() -> None:
    repo = GemstackRepo("/repo", MemoryReader({"specs/a/spec.md": ""}))
    assert repo.state() is None
    assert repo.active_feature() is None


def test_find_repo_root(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "specs" / "001-a").mkdir(parents=True)
    (repo / "specs" / "001-a" / "spec.md").write_text("# a\n")
    other = tmp_path / "other"
    (other / ".gemstack").mkdir(parents=True)
    (other / "deep" / "er").mkdir(parents=True)
    plain = tmp_path / "plain"
    plain.mkdir()
    assert find_repo_root(repo) == repo.resolve()
    assert find_repo_root(repo / "specs" / "001-a") == repo.resolve()
    assert find_repo_root(repo / "specs" / "001-a" / "spec.md") == repo.resolve()
    assert find_repo_root(other / "deep" / "er") == other.resolve()
    # tmp_path itself holds neither folder, nor (normally) do its ancestors.
    if find_repo_root(tmp_path) is None:
        assert find_repo_root(plain) is None
    else:  # pragma: no cover - a machine whose temp folder sits inside a Gemstack repository
        assert find_repo_root(plain) == find_repo_root(tmp_path)
