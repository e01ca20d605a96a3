"""The Helix setup of docs/editors.md, checked against Helix's configuration schema.

Helix is not installable on the machines these tests run on (no Debian, PyPI or npm package
carries it), so nothing here runs Helix. The facts below were read from Helix's source at
commit 079a789e8cb08ead67f19e1971a1b7438b37354b (2026-07-23) and are cited where used:

- ``helix-core/src/syntax/config.rs``: ``LanguageServerConfiguration`` (kebab-case keys
  ``command``, ``args``, ``environment``, ``config``, ``timeout``, ``required-root-patterns``);
  ``LanguageConfiguration`` (``deny_unknown_fields``; ``name`` and ``language-servers`` among
  its keys); a ``language-servers`` entry is a server name or a table with ``name`` and
  ``only-features`` / ``except-features``.
- ``languages.toml``: Markdown's default servers are marksman, markdown-oxide and rumdl;
  JSON's is vscode-json-language-server.
- ``book/src/languages.md``: hover, go to definition and the other single-answer features
  come from the first server in ``language-servers`` that offers them; diagnostics, code
  actions, completion and symbols from all of them.
- ``helix-loader/src/lib.rs`` ``merge_toml_values(default, user, 3)``: a user's
  ``[[language]]`` is merged key by key into the default one of the same ``name``, and a
  value below that depth (such as the ``language-servers`` list) replaces the default's.
- ``helix-lsp/src/client.rs`` sends ``config`` as ``initializationOptions``;
  ``helix-term/src/application.rs`` answers ``workspace/configuration`` by looking the
  section up in ``config`` (dot-separated parts).
- ``helix-lsp/src/lib.rs`` ``start_client``: ``required-root-patterns`` are globs matched
  against the names of the entries of the language-server root (files and folders alike).
"""

from __future__ import annotations

import fnmatch
import tomllib
from typing import Any

import pytest

from gemstack_lsp.server.settings import parse_settings
from gemstack_lsp.server.settings_sync import SECTION
from tests.editors.doc_snippets import snippet

LANGUAGE_SERVER_KEYS = {"command", "args", "environment", "config", "timeout", "required-root-patterns"}
LANGUAGE_KEYS = {
    "name", "language-id", "scope", "file-types", "shebangs", "roots", "comment-tokens", "comment-token",
    "block-comment-tokens", "text-width", "soft-wrap", "auto-format", "code-actions-on-save", "formatter",
    "path-completion", "word-completion", "diagnostic-severity", "grammar", "injection-regex",
    "language-servers", "indent", "debugger", "auto-pairs", "rulers", "workspace-lsp-roots",
    "persistent-diagnostic-sources", "rainbow-brackets",
}  # fmt: skip
FEATURE_ENTRY_KEYS = {"name", "only-features", "except-features"}
DEFAULT_SERVERS = {
    "markdown": ["marksman", "markdown-oxide", "rumdl"],
    "json": ["vscode-json-language-server"],
}


@pytest.fixture(scope="module")
def helix() -> dict[str, Any]:
    return tomllib.loads(snippet("### Helix", "toml"))


def _names(entries: list[Any]) -> list[str]:
    names = []
    for entry in entries:
        if isinstance(entry, str):
            names.append(entry)
        else:
            assert isinstance(entry, dict) and set(entry) <= FEATURE_ENTRY_KEYS and "name" in entry, entry
            names.append(entry["name"])
    return names


def test_the_server_is_started_as_gemstack_lsp_serve(helix: dict[str, Any]) -> None:
    servers = helix["language-server"]
    assert set(servers) == {"gemstack"}
    gemstack = servers["gemstack"]
    assert set(gemstack) <= LANGUAGE_SERVER_KEYS, set(gemstack) - LANGUAGE_SERVER_KEYS
    assert gemstack["command"] == "gemstack-lsp"
    assert gemstack["args"] == ["serve"]


def test_config_is_what_the_server_reads(helix: dict[str, Any]) -> None:
    """As initializationOptions and as the answer for the section ``gemstack``, the settings
    parse without a complaint."""
    config = helix["language-server"]["gemstack"]["config"]
    section = config[SECTION]
    settings, errors = parse_settings(section, source="helix config")
    assert errors == []
    assert settings.environment == section["environment"]
    # The server also takes the whole initializationOptions object with the section inside.
    assert set(config) == {SECTION}


def test_required_root_patterns_match_a_gemstack_repository() -> None:
    helix = tomllib.loads(snippet("### Helix", "toml"))
    patterns = helix["language-server"]["gemstack"]["required-root-patterns"]

    def starts(entries: list[str]) -> bool:
        return any(fnmatch.fnmatchcase(e, p) for e in entries for p in patterns)

    assert starts([".git", "README.md", "specs"])
    assert starts([".gemstack", "package.json"])
    assert not starts([".git", "README.md", "src", "docs"])


@pytest.mark.parametrize("language", sorted(DEFAULT_SERVERS))
def test_languages_keep_their_default_servers(helix: dict[str, Any], language: str) -> None:
    """Setting ``language-servers`` replaces Helix's default list, so it names them again."""
    (entry,) = [lang for lang in helix["language"] if lang["name"] == language]
    assert set(entry) <= LANGUAGE_KEYS, set(entry) - LANGUAGE_KEYS
    names = _names(entry["language-servers"])
    assert [n for n in names if n != "gemstack"] == DEFAULT_SERVERS[language]
    # First: Helix asks the first server that offers hover or go to definition.
    assert names[0] == "gemstack" and names.count("gemstack") == 1
    assert set(names) <= set(DEFAULT_SERVERS[language]) | set(helix["language-server"])


def test_only_markdown_and_json_are_configured(helix: dict[str, Any]) -> None:
    assert sorted(lang["name"] for lang in helix["language"]) == sorted(DEFAULT_SERVERS)
