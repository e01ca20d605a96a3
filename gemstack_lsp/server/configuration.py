"""The one owner of the settings in force: their layers, per workspace folder, and the result.

``Configuration`` keeps, per workspace folder, every layer ``settings.resolve_settings`` needs
(project file < ``initializationOptions`` < the client's settings for that folder), the
effective ``Settings`` they give and which messages it has already shown. The session holds
the one instance (``server.session.configuration``) and answers ``settings_for(uri)`` from
its ``settings_of_folder``; ``settings_sync`` keeps it in step with the client
(``workspace/configuration``, pushed settings, project files).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from gemstack_lsp.core.config import ProjectConfig
from gemstack_lsp.core.reader import Reader
from gemstack_lsp.server.settings import PROJECT_FILE, Settings, read_project_file, resolve_settings

__all__ = ["DEFAULT", "Configuration"]

_INIT = "initializationOptions"
_PULL = "workspace/configuration"
_PUSH = "workspace/didChangeConfiguration"

#: The pseudo-folder of files outside every workspace folder (``Configuration.defaults``).
DEFAULT = ""

#: Settings whose change calls for a new analysis (and new diagnostics).
_ANALYSIS_FIELDS = ("environment", "max_ledger_age_days", "diagnostics", "policy")

_DEFAULTS = Settings()


@dataclass
class Configuration:
    """Every settings layer, per workspace folder, and the effective ``Settings`` they give."""

    #: ``initializationOptions`` as the client sent them (one layer for every folder).
    init_options: Any = None
    #: Per folder URI: the client's settings for that folder (pulled or pushed).
    client: dict[str, Any] = field(default_factory=dict)
    #: Per folder URI: the project file found in that folder.
    project: dict[str, ProjectConfig] = field(default_factory=dict)
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
        """Start tracking a folder, reading its project file through ``reader`` (if any).

        A project file that cannot be used at all (not TOML, too deep, not UTF-8...) leaves the
        previous valid one in force, with the new file's problems reported.
        """
        found = read_project_file(reader) if reader is not None else ProjectConfig(None)
        previous = self.project.get(uri)
        if not found.parsed and previous is not None and previous.parsed and previous.path is not None:
            found = replace(previous, findings=found.findings)
        self.project[uri] = found

    def remove_folder(self, uri: str) -> None:
        for table in (self.client, self.project, self.effective, self.shown):
            table.pop(uri, None)

    def reload_project(self, uri: str, reader: Reader | None) -> None:
        self.add_folder(uri, reader)

    def resolve(self, uri: str) -> tuple[Settings, list[str]]:
        """The effective settings of a folder (or ``DEFAULT``) and every problem in its layers."""
        project = self.project.get(uri, ProjectConfig(None))
        client = self.client.get(uri) if self.can_pull else self.pushed
        settings, errors = resolve_settings(
            [
                (project.path or PROJECT_FILE, project.table),
                (_INIT, self.init_options),
                (_PULL if self.can_pull else _PUSH, client),
            ]
        )
        return replace(settings, policy=project.policy), [*project.errors, *errors]

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
