"""The one owner of the settings in force: their layers, per workspace folder, and their flow.

``Configuration`` keeps, per workspace folder, every layer ``settings.resolve_settings`` needs
(project file < ``initializationOptions`` < the client's settings for that folder), the
effective ``Settings`` they give (``Session.settings_for`` reads them from here) and which
messages it has already shown. The session holds the one instance
(``server.session.configuration``). The functions below it are the LSP glue:

- ``initialize(server, params)`` at ``initialize``: remember the options and the folders;
- ``await initialized(server)`` at ``initialized``: register for configuration changes when
  the client lets us, pull ``workspace/configuration`` for every folder, apply;
- the ``workspace/didChangeConfiguration`` handler that ``register`` installs: pull again
  (or take the pushed settings from clients that cannot be asked), apply without restart;
- ``await folders_changed(server, added, removed)`` and ``await project_file_changed(server,
  uri)`` for the server core to call when folders come and go or a project file changes.

"Apply" makes each folder's new ``Settings`` the effective ones (the repositories they cover are
analysed again when an analysis-relevant value changed), shows every new problem once with
``window/showMessage``, sets the log level, and asks the client to refresh code lenses.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

from lsprotocol import types

from gemstack_lsp.core.reader import Reader
from gemstack_lsp.fs import DiskReader
from gemstack_lsp.server.convert import path_to_uri
from gemstack_lsp.server.settings import (
    PROJECT_FILE,
    PYPROJECT_FILE,
    ProjectFile,
    Settings,
    python_log_level,
    read_project_file,
    resolve_settings,
)

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer

__all__ = [
    "SECTION",
    "SETTINGS_REQUEST",
    "Configuration",
    "folder_of",
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

_INIT = "initializationOptions"
_PULL = "workspace/configuration"
_PUSH = "workspace/didChangeConfiguration"

#: Watched so that a project file edited outside the editor applies at once.
PROJECT_FILE_GLOBS = ("**/.gemstack/lsp.toml", "**/pyproject.toml")

#: The pseudo-folder of files outside every workspace folder (``Configuration.defaults``).
DEFAULT = ""

#: Settings whose change calls for a new analysis (and new diagnostics).
_ANALYSIS_FIELDS = ("environment", "max_ledger_age_days", "diagnostics")

_DEFAULTS = Settings()


def _uri_path(uri: str) -> str | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return unquote(parsed.path)


def _norm(uri: str) -> str:
    """A folder URI without a trailing slash and with percent-escapes decoded (as pygls keys them)."""
    return unquote(uri).rstrip("/")


def folder_of(uri: str, folders: Iterable[str]) -> str | None:
    """The innermost of ``folders`` (URIs) that contains ``uri``, or ``None``."""
    target = _norm(uri)
    best: str | None = None
    for folder in folders:
        f = _norm(folder)
        if (target == f or target.startswith(f + "/")) and (best is None or len(f) > len(_norm(best))):
            best = folder
    return best


@dataclass
class Configuration:
    """Every settings layer, per workspace folder, and the effective ``Settings`` they give."""

    #: ``initializationOptions`` as the client sent them (one layer for every folder).
    init_options: Any = None
    #: Per folder URI: the client's settings for that folder (pulled or pushed).
    client: dict[str, Any] = field(default_factory=dict)
    #: Per folder URI: the project file found in that folder.
    project: dict[str, ProjectFile] = field(default_factory=dict)
    #: Per folder URI: the effective settings last applied.
    effective: dict[str, Settings] = field(default_factory=dict)
    #: Per folder URI: the problems last shown to the user (shown again only when they change).
    shown: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Whether the client answers ``workspace/configuration`` (else it pushes settings).
    can_pull: bool = False
    #: The settings pushed without a folder (applied to every folder).
    pushed: Any = None
    #: Whether ``initialized`` ran (it registers capabilities, which must happen once).
    started: bool = False

    @property
    def folders(self) -> list[str]:
        """The workspace folders tracked (not the ``DEFAULT`` pseudo-folder)."""
        return sorted(u for u in self.project if u != DEFAULT)

    def add_folder(self, uri: str, reader: Reader | None) -> None:
        """Start tracking a folder, reading its project file through ``reader`` (if any)."""
        self.project[uri] = read_project_file(reader) if reader is not None else ProjectFile(None, None)

    def remove_folder(self, uri: str) -> None:
        for table in (self.client, self.project, self.effective, self.shown):
            table.pop(uri, None)

    def reload_project(self, uri: str, reader: Reader | None) -> None:
        self.add_folder(uri, reader)

    def resolve(self, uri: str) -> tuple[Settings, list[str]]:
        """The effective settings of a folder (or ``DEFAULT``) and every problem in its layers."""
        project = self.project.get(uri, ProjectFile(None, None))
        client = self.client.get(uri) if self.can_pull else self.pushed
        settings, errors = resolve_settings(
            [
                (project.path or PROJECT_FILE, project.table),
                (_INIT, self.init_options),
                (_PULL if self.can_pull else _PUSH, client),
            ]
        )
        return settings, [*project.errors, *errors]

    def settings_for(self, uri: str) -> Settings:
        """The settings last applied for the folder holding ``uri`` (``DEFAULT``'s outside any folder)."""
        folder = folder_of(uri, [u for u in self.effective if u != DEFAULT])
        return self.settings_of_folder(folder)

    def settings_of_folder(self, folder: str | None) -> Settings:
        """The settings last applied for a workspace folder URI (``None``: outside every folder)."""
        if folder is not None:
            found = self.effective.get(folder)
            if found is not None:
                return found
        return self.effective.get(DEFAULT, _DEFAULTS)

    @property
    def defaults(self) -> Settings:
        """The settings of files outside every workspace folder."""
        return self.settings_of_folder(None)

    def set_effective(self, folder: str, settings: Settings) -> bool:
        """Make ``settings`` the ones in force for ``folder`` (``DEFAULT``: outside every folder);
        True when a value the analysis or its diagnostics depend on changed."""
        before = self.settings_of_folder(folder or None)
        self.effective[folder] = settings
        return any(getattr(before, f) != getattr(settings, f) for f in _ANALYSIS_FIELDS)


# ---------------------------------------------------------------------------------------------
# Where folders are and what their project files say


def _folder_path(server: GemstackServer, folder: str) -> str | None:
    return server.session.folders.get(folder) or _uri_path(folder)


def _project_root(server: GemstackServer, folder: str) -> str:
    """Where a folder's project file lives: the Gemstack repository holding the folder (the
    folder itself when it is one), else the one repository directly inside it, else the folder."""
    try:
        above = server.session.root_of(os.path.join(folder, "."))
        if above is not None:
            return above
        inside = [
            os.path.join(folder, name)
            for name in sorted(os.listdir(folder))
            if os.path.isdir(os.path.join(folder, name, "specs"))
            or os.path.isdir(os.path.join(folder, name, ".gemstack"))
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
        server.window_show_message(types.ShowMessageParams(type=kind, message=message))
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
    path = _uri_path(uri)
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
    changed = _uri_path(uri)
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
        return dataclasses.asdict(settings)
