"""Keeping the settings in force in step with the client and the repositories' project files.

The LSP side of ``configuration.Configuration`` (the one owner of the settings state):

- ``initialize(server, params)`` at ``initialize``: remember the options and the folders, and
  put the settings their layers give in force at once;
- ``await initialized(server)`` at ``initialized``: register for configuration changes when
  the client lets us, pull ``workspace/configuration`` for every folder, apply;
- the ``workspace/didChangeConfiguration`` handler that ``register`` installs: pull again
  (or take the pushed settings from clients that cannot be asked), apply without restart;
- ``await folders_changed(server, added, removed)`` and ``await project_file_changed(server,
  uri)`` for the lifecycle handlers to call when folders come and go or a project file changes.

"Apply" makes each folder's new ``Settings`` the effective ones (the repositories they cover are
analysed again when an analysis-relevant value changed), shows every new problem once with
``window/showMessage``, sets the log level, and asks the client to refresh code lenses.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from gemstack_lsp import containment
from gemstack_lsp.core.printable import printable
from gemstack_lsp.core.reader import Reader
from gemstack_lsp.fs import DiskReader
from gemstack_lsp.server.configuration import DEFAULT, Configuration
from gemstack_lsp.server.settings import PROJECT_FILE, PYPROJECT_FILE, python_log_level
from gemstack_lsp.uris import path_to_uri, uri_to_path

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer

__all__ = [
    "PROJECT_FILE_GLOBS",
    "SECTION",
    "SETTINGS_REQUEST",
    "apply",
    "did_change_configuration",
    "folders_changed",
    "initialize",
    "initialized",
    "project_file_changed",
    "refresh",
    "register",
]

log = logging.getLogger(__name__)

#: Custom request answering the settings in force for a URI (diagnosis and tests).
SETTINGS_REQUEST = "gemstack/settings"

#: The ``workspace/configuration`` section, and the key of pushed settings.
SECTION = "gemstack"

#: Watched so that a project file edited outside the editor applies at once.
PROJECT_FILE_GLOBS = ("**/.gemstack/lsp.toml", "**/pyproject.toml")


# ---------------------------------------------------------------------------------------------
# Where folders are and what their project files say


def _folder_path(server: GemstackServer, folder: str) -> str | None:
    return server.session.folders.get(folder) or uri_to_path(folder)


def _project_root(server: GemstackServer, folder: str) -> str:
    """Where a folder's project file lives: the Gemstack repository holding the folder (the
    folder itself when it is one), else the one repository directly inside it, else the folder."""
    try:
        above = server.session.root_of(os.path.join(folder, "."))
        if above is not None:
            return str(above)
        inside = [
            os.path.join(folder, name)
            for name in sorted(os.listdir(folder))
            if containment.is_repository_folder(os.path.join(folder, name))
            # A symlink leading out of the folder is never a repository of it.
            and containment.real_within(os.path.join(folder, name), folder)
        ]
        if len(inside) == 1:
            return inside[0]
    except OSError:
        pass
    return folder


def _reader_for(server: GemstackServer, folder_uri: str) -> Reader | None:
    path = _folder_path(server, folder_uri)
    if path is None:
        return None
    return DiskReader(_project_root(server, path))


def _show(server: GemstackServer, message: str, kind: types.MessageType) -> None:
    try:
        server.window_show_message(types.ShowMessageParams(type=kind, message=printable(message, keep_lines=True)))
    except Exception:  # the connection may be gone during shutdown
        log.exception("window/showMessage failed")


# ---------------------------------------------------------------------------------------------
# The LSP glue


def initialize(server: GemstackServer, params: types.InitializeParams) -> None:
    """Remember ``initializationOptions`` and the initial folders, and put the settings their
    layers give in force at once (call from ``initialize``, after the session saw the folders).

    Problems are logged here and shown to the user by the first ``apply`` (at ``initialized``).
    """
    config = server.session.configuration
    raw = params.initialization_options
    if isinstance(raw, Mapping) and isinstance(raw.get(SECTION), Mapping):
        raw = raw[SECTION]
    config.init_options = raw
    config.can_pull = server.session.client.configuration
    folders = [f.uri for f in params.workspace_folders or []]
    if not folders:
        root = params.root_uri or (path_to_uri(params.root_path) if params.root_path else None)
        if root:
            folders = [root]
    for uri in folders:
        config.add_folder(uri, _reader_for(server, uri))
    for uri in [*config.folders, DEFAULT]:
        settings, errors = config.resolve(uri)
        config.set_effective(uri, settings)
        for message in errors:
            log.warning("%s", message)


async def initialized(server: GemstackServer) -> None:
    """Register for configuration changes, pull every folder's settings and apply them (once)."""
    config = server.session.configuration
    if config.started:
        return
    config.started = True
    client = server.session.client
    registrations = []
    if client.dynamic_configuration:
        registrations.append(
            types.Registration(
                id="gemstack-did-change-configuration",
                method=types.WORKSPACE_DID_CHANGE_CONFIGURATION,
                register_options=types.DidChangeConfigurationRegistrationOptions(section=SECTION),
            )
        )
    if client.dynamic_watchers:
        registrations.append(
            types.Registration(
                id="gemstack-project-settings",
                method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(
                    watchers=[types.FileSystemWatcher(glob_pattern=g) for g in PROJECT_FILE_GLOBS]
                ),
            )
        )
    for registration in registrations:
        # Not awaited: a client slow to answer must not hold up the settings.
        try:
            future = server.client_register_capability(types.RegistrationParams([registration]))
            future.add_done_callback(_log_refusal)
        except Exception as exc:
            log.info("registering %s failed: %s", registration.method, exc)
    await refresh(server)


def _log_refusal(future: Future[Any]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.info("the client refused a registration: %s", future.exception())


async def _pull(server: GemstackServer, config: Configuration, folders: Sequence[str]) -> None:
    if not folders:
        return
    items = [types.ConfigurationItem(scope_uri=uri or None, section=SECTION) for uri in folders]
    try:
        answers = await server.workspace_configuration_async(types.ConfigurationParams(items=items))
    except Exception as exc:
        log.warning("workspace/configuration failed: %s", exc)
        return
    for uri, answer in zip(folders, answers or [], strict=False):
        config.client[uri] = answer


async def refresh(server: GemstackServer, folders: Sequence[str] | None = None, pull: bool = True) -> None:
    """Recompute and apply the settings of ``folders`` (all when ``None``), pulling first if asked."""
    config = server.session.configuration
    for uri in list(server.session.folders):
        if uri not in config.project:
            config.add_folder(uri, _reader_for(server, uri))
    targets = list(folders) if folders is not None else [*config.folders, DEFAULT]
    for uri in targets:
        if uri != DEFAULT:
            # Clients without file watchers: a settings change also re-reads the project file.
            config.reload_project(uri, _reader_for(server, uri))
    if pull and config.can_pull:
        await _pull(server, config, targets)
    apply(server, targets)


def apply(server: GemstackServer, folders: Sequence[str]) -> None:
    """Resolve ``folders``' settings, put them in force and report new problems.

    When a value the analysis or the diagnostics depend on changed, the repositories the
    folder covers are analysed again (and their diagnostics re-published); when anything
    changed, code lenses are refreshed on clients that support it.
    """
    config = server.session.configuration
    changed = False
    for uri in folders:
        settings, errors = config.resolve(uri)
        before = config.settings_of_folder(uri or None)
        if config.set_effective(uri, settings):
            server.settings_changed(uri or None)
        changed = changed or before != settings
        shown = tuple(errors)
        if shown and shown != config.shown.get(uri, ()):
            label = _folder_label(uri) if uri else "files outside the workspace folders"
            _show(
                server,
                f"Gemstack settings for {label}: "
                + "; ".join(shown)
                + ". The defaults (or the next lower settings source) stand in.",
                types.MessageType.Warning,
            )
            for line in shown:
                log.warning("%s: %s", label, line)
        config.shown[uri] = shown
    if config.effective:
        level = min(python_log_level(s) for s in config.effective.values())
        logging.getLogger("gemstack_lsp").setLevel(level)
    if changed and server.session.client.code_lens_refresh:
        try:
            server.workspace_code_lens_refresh(None)
        except Exception:
            log.exception("workspace/codeLens/refresh failed")


def _folder_label(uri: str) -> str:
    path = uri_to_path(uri)
    return (path or uri).rstrip("/").rsplit("/", 1)[-1] or uri


async def did_change_configuration(server: GemstackServer, params: types.DidChangeConfigurationParams) -> None:
    """Settings changed on the client: pull them again (or take the pushed ones) and apply."""
    config = server.session.configuration
    if config.can_pull:
        await refresh(server)
        return
    raw = params.settings
    if isinstance(raw, Mapping) and SECTION in raw:
        raw = raw[SECTION]
    config.pushed = raw
    await refresh(server, pull=False)


async def folders_changed(server: GemstackServer, added: Sequence[str], removed: Sequence[str]) -> None:
    """Workspace folders came or went: forget the removed, read and pull the added."""
    config = server.session.configuration
    for uri in removed:
        config.remove_folder(uri)
    for uri in added:
        config.add_folder(uri, _reader_for(server, uri))
    if added:
        await refresh(server, list(added))


async def project_file_changed(server: GemstackServer, uri: str) -> bool:
    """A file changed on disk: when it is a folder's project file, re-read it and apply.

    Returns whether ``uri`` was some folder's project file.
    """
    changed = uri_to_path(uri)
    if changed is None or os.path.basename(changed) not in (
        os.path.basename(PROJECT_FILE),
        os.path.basename(PYPROJECT_FILE),
    ):
        return False
    changed = os.path.join(os.path.realpath(os.path.dirname(changed)), os.path.basename(changed))
    config = server.session.configuration
    hit: list[str] = []
    for folder in config.folders:
        path = _folder_path(server, folder)
        if path is None:
            continue
        root = os.path.realpath(_project_root(server, path))
        if changed in (os.path.join(root, PROJECT_FILE), os.path.join(root, PYPROJECT_FILE)):
            config.reload_project(folder, _reader_for(server, folder))
            hit.append(folder)
    if hit:
        apply(server, hit)
    return bool(hit)


def register(server: GemstackServer) -> None:
    """Install ``workspace/didChangeConfiguration`` and the ``gemstack/settings`` request.

    The server's lifecycle handlers call ``initialize``, ``initialized``, ``folders_changed``
    and ``project_file_changed``.
    """

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def _did_change_configuration(params: types.DidChangeConfigurationParams) -> None:
        await did_change_configuration(server, params)

    @server.feature(SETTINGS_REQUEST)
    def _settings(params: Any) -> dict[str, Any]:
        """The settings in force for a document or folder URI (``{"uri": ...}``; none: outside folders)."""
        uri = getattr(params, "uri", None) if not isinstance(params, Mapping) else params.get("uri")
        session = server.session
        settings = session.settings_for(uri) if uri else session.configuration.defaults
        out = {f.name: getattr(settings, f.name) for f in dataclasses.fields(settings) if f.name != "policy"}
        policy = settings.policy
        out["policy"] = {
            "source": policy.source,
            "severity": dict(policy.severity),
            "ignore": sorted(policy.ignore),
            "overrides": [
                {"paths": list(r.paths), "severity": dict(r.severity), "ignore": sorted(r.ignore), "reason": r.reason}
                for r in policy.overrides
            ],
        }
        return out
