"""The session: folders, per-folder settings and repository roots."""

from __future__ import annotations

from pathlib import Path

from gemstack_lsp.server.session import Session, is_gemstack_path


def test_settings_per_folder_and_roots(tmp_path: Path) -> None:
    from gemstack_lsp.server.settings import Settings
    from gemstack_lsp.uris import path_to_uri

    a, b = tmp_path / "a", tmp_path / "b"
    (a / "specs" / "f").mkdir(parents=True)
    (b / ".gemstack").mkdir(parents=True)
    s = Session()
    s.add_folder(path_to_uri(a))
    s.add_folder(path_to_uri(b))
    assert s.folder_roots() == sorted([str(a.resolve()), str(b.resolve())])
    # A new environment calls for a new analysis; the same settings again do not.
    assert s.configuration.set_effective(path_to_uri(a), Settings(environment="ci")) is True
    assert s.configuration.set_effective(path_to_uri(a), Settings(environment="ci")) is False
    assert s.settings_for(path_to_uri(a / "specs" / "f" / "spec.md")).environment == "ci"
    assert s.settings_for(path_to_uri(b / "x.md")).environment == "development"
    _path, root, rel = s.locate(path_to_uri(a / "specs" / "f" / "spec.md"))
    assert (root, rel) == (str(a.resolve()), "specs/f/spec.md")
    assert s.locate(path_to_uri(tmp_path / "elsewhere.md"))[1] is None
    assert is_gemstack_path("specs/f/plan.md") and is_gemstack_path("cost-ledger.json")
    assert not is_gemstack_path("src/index.js") and not is_gemstack_path("docs/plans/x.md")
