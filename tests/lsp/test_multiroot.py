"""Several Gemstack repositories open at once: each its own analysis, settings and navigation.

``start_workspace`` (also used by ``test_settings``) starts the server with several workspace
folders, the client's ``workspace/configuration`` answers set *before* initialisation, and
optional ``initializationOptions``; it reuses the harness of ``conftest.py``.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types as lsp
from pytest_lsp import LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from gemstack_lsp.uris import path_to_uri

HERE = Path(__file__).parent
REFERENCE_REPO = HERE.parent / "fixtures" / "gemstack-reference" / "repo"


def _conftest() -> Any:
    spec = importlib.util.spec_from_file_location("gemstack_lsp_tests_conftest", HERE / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_CONF = _conftest()
Harness = _CONF.Harness
CLIENTS: dict[str, str] = _CONF.CLIENTS
WAIT: float = _CONF.WAIT

T = TypeVar("T")


def copy_repo(dest: Path) -> Path:
    """A writable copy of the reference repository at ``dest`` (resolved)."""
    shutil.copytree(REFERENCE_REPO, dest)
    for p in dest.rglob("*"):
        p.chmod(p.stat().st_mode | 0o200)
    return Path(os.path.realpath(dest))


@asynccontextmanager
async def start_workspace(
    kind: str,
    folders: list[Path],
    *,
    options: Any = None,
    configuration: dict[str, Any] | None = None,
    fake: bool = False,
    pull_configuration: bool = True,
    subprocess: bool | None = None,
) -> AsyncIterator[Any]:
    """A started server with ``folders`` as workspace folders.

    ``configuration`` maps a folder (or ``""`` for the global scope) to the ``gemstack``
    section the client answers for it. ``harness.config_requests`` records every
    ``workspace/configuration`` request the server made. ``fake`` turns on the launcher's
    FAKE-FINDING check; ``pull_configuration=False`` removes the client's
    ``workspace.configuration`` capability (a push-only client). The server runs in this
    process unless ``subprocess`` (or ``GEMSTACK_TEST_SERVER=subprocess``) says otherwise.
    """
    client = LanguageClient(converter_factory=_CONF.client_converter)
    own = {
        lsp.WORKSPACE_APPLY_EDIT,
        lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
        lsp.CLIENT_REGISTER_CAPABILITY,
        lsp.WORKSPACE_DIAGNOSTIC_REFRESH,
        lsp.WORKSPACE_CONFIGURATION,
        lsp.WORKSPACE_CODE_LENS_REFRESH,
    }
    register_lsp_features(client, {m: f for m, f in DEFAULT_CLIENT_FEATURES.items() if m not in own})
    harness = Harness(client, folders[0], kind)
    _CONF._install_handlers(harness)
    harness.config_requests = []
    harness.refreshes = 0
    for scope, section in (configuration or {}).items():
        client.set_configuration(section, section="gemstack", scope_uri=path_to_uri(scope) if scope else None)

    @client.feature(lsp.WORKSPACE_CONFIGURATION)  # type: ignore[untyped-decorator]
    def configuration_request(params: lsp.ConfigurationParams) -> list[Any]:
        harness.config_requests.append(params)
        return [client.get_configuration(section=i.section, scope_uri=i.scope_uri) for i in params.items]

    @client.feature(lsp.WORKSPACE_CODE_LENS_REFRESH)  # type: ignore[untyped-decorator]
    def lens_refresh(params: None) -> None:
        harness.refreshes += 1

    if subprocess is None:
        subprocess = os.environ.get("GEMSTACK_TEST_SERVER") == "subprocess"
    server = await _CONF.connect(client, folders[0], fake=fake, subprocess=subprocess)
    try:
        caps = client_capabilities(CLIENTS[kind])
        if not pull_configuration and caps.workspace is not None:
            caps.workspace.configuration = False
        result = await asyncio.wait_for(
            client.initialize_session(
                lsp.InitializeParams(
                    capabilities=caps,
                    root_uri=path_to_uri(folders[0]),
                    workspace_folders=[lsp.WorkspaceFolder(uri=path_to_uri(f), name=f.name) for f in folders],
                    initialization_options=options,
                )
            ),
            WAIT,
        )
        harness.capabilities = result.capabilities
        enc = result.capabilities.position_encoding
        harness.encoding = "utf-8" if enc == lsp.PositionEncodingKind.Utf8 else "utf-16"
        harness.pull = bool(caps.text_document and caps.text_document.diagnostic is not None)
        yield harness
    finally:
        await _CONF.disconnect(client, server)


async def settings_of(h: Any, path: Path | str | None) -> dict[str, Any]:
    """The settings the server applies to a file or folder (``None``: outside every folder)."""
    uri = path_to_uri(path) if path is not None else None
    result: Any = await h.request("gemstack/settings", {"uri": uri})
    return _as_dict(result)


async def eventually(probe: Callable[[], Awaitable[T]], done: Callable[[T], bool], attempts: int = 200) -> T:
    """Ask ``probe`` until ``done`` holds (settings apply asynchronously); the last answer otherwise."""
    value = await probe()
    for _ in range(attempts):
        if done(value):
            return value
        await asyncio.sleep(0.02)
        value = await probe()
    return value


def _as_dict(value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    if hasattr(value, "_asdict"):
        return dict(value._asdict())
    return {k: getattr(value, k) for k in dir(value) if not k.startswith("_") and not callable(getattr(value, k))}


# ---------------------------------------------------------------------------------------------


async def test_each_folder_gets_its_own_settings(client_kind: str, tmp_path: Path) -> None:
    a = copy_repo(tmp_path / "alpha")
    b = copy_repo(tmp_path / "beta")
    (b / ".gemstack" / "lsp.toml").write_text('environment = "ci"\nmax-ledger-age-days = 10\n', "utf-8")
    config = {str(a): {"environment": "production", "codeLens": False}, "": {}}
    async with start_workspace(client_kind, [a, b], configuration=config) as h:
        sa = await eventually(lambda: settings_of(h, a / "specs"), lambda s: s["environment"] == "production")
        sb = await settings_of(h, b / "specs" / "x.md")
        assert sa["environment"] == "production"
        assert sa["code_lens"] is False
        assert sa["max_ledger_age_days"] == 90
        assert sb["environment"] == "ci"
        assert sb["code_lens"] is True
        assert sb["max_ledger_age_days"] == 10
        # One pull per folder (and one for files outside every folder).
        scopes = {i.scope_uri for p in h.config_requests for i in p.items}
        assert {path_to_uri(a), path_to_uri(b)} <= scopes
        assert all(i.section == "gemstack" for p in h.config_requests for i in p.items)


async def test_each_folder_gets_its_own_analysis_and_navigation(client_kind: str, tmp_path: Path) -> None:
    a = copy_repo(tmp_path / "alpha")
    b = copy_repo(tmp_path / "beta")
    # Beta renames a test id: navigation in each repository must only see its own files.
    spec_b = b / "specs/008-cost-provider-safety-gates/spec.md"
    spec_b.write_text(spec_b.read_text("utf-8").replace("TEST-COST-E02", "TEST-COST-E92"), "utf-8")
    tasks = "specs/008-cost-provider-safety-gates/tasks.md"
    async with start_workspace(client_kind, [a, b]) as h:
        uri_a = h.open(tasks)
        h.root = b
        uri_b = h.open(tasks)
        assert uri_a != uri_b
        h.root = a
        pos = h.position(tasks, "TEST-COST-E02", 2)
        found = await h.request(
            lsp.TEXT_DOCUMENT_DEFINITION,
            lsp.DefinitionParams(text_document=lsp.TextDocumentIdentifier(uri=uri_a), position=pos),
        )
        assert [loc.uri for loc in found] == [path_to_uri(a / "specs/008-cost-provider-safety-gates/spec.md")]
        h.root = b
        found_b = await h.request(
            lsp.TEXT_DOCUMENT_DEFINITION,
            lsp.DefinitionParams(text_document=lsp.TextDocumentIdentifier(uri=uri_b), position=pos),
        )
        assert found_b is None
        # Workspace symbols come from both repositories, each under its own folder name.
        symbols = await h.request(lsp.WORKSPACE_SYMBOL, lsp.WorkspaceSymbolParams(query="TEST-COST-E92"))
        assert {s.location.uri for s in symbols} == {path_to_uri(spec_b)}
        symbols = await h.request(lsp.WORKSPACE_SYMBOL, lsp.WorkspaceSymbolParams(query="008-cost"))
        containers = {s.container_name.split("/")[0] for s in symbols if s.kind == lsp.SymbolKind.Module}
        assert containers == {"alpha", "beta"}
        status = await h.settle()
        assert status is not None


async def test_a_folder_added_later_is_configured(client_kind: str, tmp_path: Path) -> None:
    a = copy_repo(tmp_path / "alpha")
    b = copy_repo(tmp_path / "beta")
    (b / "pyproject.toml").write_text('[tool.gemstack-lsp]\nenvironment = "staging"\n', "utf-8")
    async with start_workspace(client_kind, [a]) as h:
        assert (await settings_of(h, b / "specs"))["environment"] == "development"
        h.client.workspace_did_change_workspace_folders(
            lsp.DidChangeWorkspaceFoldersParams(
                event=lsp.WorkspaceFoldersChangeEvent(
                    added=[lsp.WorkspaceFolder(uri=path_to_uri(b), name="beta")], removed=[]
                )
            )
        )
        sb = await eventually(lambda: settings_of(h, b / "specs"), lambda s: s["environment"] == "staging")
        assert sb["environment"] == "staging"
        assert (await settings_of(h, a / "specs"))["environment"] == "development"


async def test_project_file_of_the_repository_holding_or_inside_a_folder(client_kind: str, tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    outer.mkdir()
    repo = copy_repo(outer / "repo")
    (repo / ".gemstack" / "lsp.toml").write_text('environment = "staging"\n', "utf-8")
    other = copy_repo(tmp_path / "other")
    (other / ".gemstack" / "lsp.toml").write_text('environment = "ci"\n', "utf-8")
    # One folder contains the repository, the other lies inside a repository.
    folders = [outer.resolve(), (other / "specs").resolve()]
    async with start_workspace(client_kind, folders) as h:
        s_outer = await eventually(lambda: settings_of(h, repo / "specs"), lambda s: s["environment"] == "staging")
        s_inner = await eventually(lambda: settings_of(h, other / "specs" / "x.md"), lambda s: s["environment"] == "ci")
        assert (s_outer["environment"], s_inner["environment"]) == ("staging", "ci")
        # A change to the repository's project file is applied to the folder that holds it.
        (repo / ".gemstack" / "lsp.toml").write_text('environment = "production"\n', "utf-8")
        h.client.workspace_did_change_watched_files(
            lsp.DidChangeWatchedFilesParams(
                changes=[
                    lsp.FileEvent(uri=path_to_uri(repo / ".gemstack" / "lsp.toml"), type=lsp.FileChangeType.Changed)
                ]
            )
        )
        s = await eventually(lambda: settings_of(h, repo / "specs"), lambda s: s["environment"] == "production")
        assert s["environment"] == "production"
        assert (await settings_of(h, other / "specs" / "x.md"))["environment"] == "ci"
