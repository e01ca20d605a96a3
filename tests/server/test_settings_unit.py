"""Settings parsing, layering and the project file, without a language server."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.server.settings import (
    FEATURES,
    PROJECT_FILE,
    Settings,
    analysis_options,
    is_project_file,
    parse_settings,
    python_log_level,
    read_project_file,
    resolve_settings,
)


def test_defaults_switch_every_feature_on() -> None:
    s = Settings()
    assert s.environment == "development"
    assert s.debounce_ms == 0
    assert s.max_ledger_age_days == 90
    assert s.log_level == "info"
    assert all(s.enabled(f) for f in FEATURES)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ({"environment": "production"}, {"environment": "production"}),
        ({"maxLedgerAgeDays": 30}, {"max_ledger_age_days": 30}),
        ({"max_ledger_age_days": 30}, {"max_ledger_age_days": 30}),
        ({"max-ledger-age-days": 30}, {"max_ledger_age_days": 30}),
        ({"debounceMs": 150, "logLevel": "debug"}, {"debounce_ms": 150, "log_level": "debug"}),
        ({"codeLens": False, "code_actions": False}, {"code_lens": False, "code_actions": False}),
        ({"features": {"hover": False, "codeLens": False}}, {"hover": False, "code_lens": False}),
        ({"features": {"code-actions": False}}, {"code_actions": False}),
    ],
)
def test_valid_settings_in_every_spelling(raw: dict[str, Any], expected: dict[str, Any]) -> None:
    settings, errors = parse_settings(raw)
    assert errors == []
    for name, value in expected.items():
        assert getattr(settings, name) == value
    untouched = {f for f in vars(Settings()) if f not in expected}
    for name in untouched:
        assert getattr(settings, name) == getattr(Settings(), name)


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        ({"environment": "prod"}, "invalid value 'prod' for 'environment' (expected one of development"),
        ({"debounceMs": -5}, "invalid value -5 for 'debounceMs' (expected a whole number from 0 to 60000)"),
        ({"debounceMs": 10**9}, "invalid value 1000000000 for 'debounceMs'"),
        ({"maxLedgerAgeDays": "90"}, "invalid value '90' for 'maxLedgerAgeDays'"),
        ({"maxLedgerAgeDays": True}, "invalid value True for 'maxLedgerAgeDays'"),
        ({"hover": "no"}, "invalid value 'no' for 'hover' (expected true or false)"),
        ({"logLevel": "verbose"}, "invalid value 'verbose' for 'logLevel'"),
        ({"colour": "blue"}, "unknown setting 'colour' ignored"),
        ({"features": {"spellcheck": False}}, "unknown feature 'spellcheck' in 'features' ignored"),
        ({"features": ["hover"]}, "'features' must be a table"),
    ],
)
def test_invalid_settings_fall_back_with_a_message(raw: dict[str, Any], fragment: str) -> None:
    settings, errors = parse_settings(raw, source="initializationOptions")
    assert settings == Settings()
    assert len(errors) == 1
    assert errors[0].startswith("initializationOptions: ")
    assert fragment in errors[0]


def test_an_invalid_value_keeps_the_lower_layer_value() -> None:
    base = Settings(environment="staging")
    settings, errors = parse_settings({"environment": "nowhere", "hover": False}, base)
    assert settings.environment == "staging"
    assert settings.hover is False
    assert len(errors) == 1
    assert "using 'staging'" in errors[0]


def test_non_mapping_settings_are_ignored() -> None:
    settings, errors = parse_settings(["environment", "ci"], source="workspace/configuration")
    assert settings == Settings()
    assert errors == ["workspace/configuration: settings must be an object, got list; ignored"]


def test_null_values_and_client_only_keys_are_silent() -> None:
    settings, errors = parse_settings(
        {"environment": None, "trace": {"server": "verbose"}, "server": {"path": "x"}, "features": None}
    )
    assert settings == Settings()
    assert errors == []


def test_layers_override_key_by_key_in_order() -> None:
    settings, errors = resolve_settings(
        [
            (PROJECT_FILE, {"environment": "ci", "max-ledger-age-days": 10, "hover": False}),
            ("initializationOptions", {"environment": "staging", "debounceMs": 20}),
            ("workspace/configuration", {"environment": "production", "hover": None}),
        ]
    )
    assert errors == []
    assert settings == Settings(environment="production", max_ledger_age_days=10, hover=False, debounce_ms=20)


def test_layer_errors_name_their_source() -> None:
    settings, errors = resolve_settings(
        [(PROJECT_FILE, {"environment": "moon"}), ("workspace/configuration", {"codeLens": 1})]
    )
    assert settings == Settings()
    assert [e.split(":")[0] for e in errors] == [PROJECT_FILE, "workspace/configuration"]


def test_project_file_lsp_toml() -> None:
    reader = MemoryReader(
        {PROJECT_FILE: 'environment = "staging"\nmax-ledger-age-days = 45\n\n[features]\ncode-lens = false\n'}
    )
    project = read_project_file(reader)
    assert project.path == PROJECT_FILE
    assert project.errors == ()
    settings, errors = resolve_settings([(project.path or "", project.table)])
    assert errors == []
    assert settings == Settings(environment="staging", max_ledger_age_days=45, code_lens=False)


def test_project_file_pyproject_table() -> None:
    reader = MemoryReader(
        {"pyproject.toml": '[project]\nname = "x"\n\n[tool.gemstack-lsp]\nenvironment = "ci"\nhover = false\n'}
    )
    project = read_project_file(reader)
    assert project.path == "pyproject.toml"
    assert dict(project.table or {}) == {"environment": "ci", "hover": False}


def test_lsp_toml_wins_over_pyproject() -> None:
    reader = MemoryReader(
        {
            PROJECT_FILE: 'environment = "test"\n',
            "pyproject.toml": '[tool.gemstack-lsp]\nenvironment = "ci"\n',
        }
    )
    project = read_project_file(reader)
    assert project.path == PROJECT_FILE
    assert dict(project.table or {}) == {"environment": "test"}


def test_broken_lsp_toml_is_reported_and_not_bypassed() -> None:
    reader = MemoryReader(
        {PROJECT_FILE: 'environment = "test\n', "pyproject.toml": '[tool.gemstack-lsp]\nenvironment = "ci"\n'}
    )
    project = read_project_file(reader)
    assert project.path == PROJECT_FILE
    assert project.table is None
    assert len(project.errors) == 1
    assert project.errors[0].startswith(f"{PROJECT_FILE}: Not valid TOML: ")
    assert project.errors[0].endswith("the configuration is not used")
    assert not project.parsed


def test_lsp_toml_with_invalid_utf8() -> None:
    project = read_project_file(MemoryReader({PROJECT_FILE: b'environment = "\xff"\n'}))
    assert project.table is None
    assert project.errors == (f"{PROJECT_FILE}: Not valid UTF-8 (byte 15); the configuration is not used",)


def test_lsp_toml_that_is_a_directory() -> None:
    project = read_project_file(MemoryReader({PROJECT_FILE + "/x": "y"}))
    assert project.table is None
    assert project.errors == (
        f"{PROJECT_FILE}: Cannot be read (not-a-file: is a directory); the configuration is not used",
    )


def test_pyproject_without_our_table_is_no_project_file() -> None:
    project = read_project_file(MemoryReader({"pyproject.toml": "[tool.ruff]\nline-length = 100\n"}))
    assert project == read_project_file(MemoryReader({}))
    assert project.path is None
    assert project.table is None
    assert project.errors == ()


def test_pyproject_table_of_wrong_type() -> None:
    project = read_project_file(MemoryReader({"pyproject.toml": "tool = { gemstack-lsp = 3 }\n"}))
    assert project.table is None
    assert project.errors == ("pyproject.toml: [tool.gemstack-lsp] must be a table; the configuration is not used",)


def test_broken_pyproject_is_reported_only_when_it_configures_us() -> None:
    # A broken pyproject.toml that does not mention us is the Python tooling's business.
    project = read_project_file(MemoryReader({"pyproject.toml": "[tool\n"}))
    assert project.table is None
    assert project.path is None
    assert project.errors == ()
    project = read_project_file(MemoryReader({"pyproject.toml": "[tool.gemstack-lsp]\nenvironment = \n"}))
    assert project.path == "pyproject.toml"
    assert len(project.errors) == 1
    assert project.errors[0].startswith("pyproject.toml: Not valid TOML")


def test_is_project_file() -> None:
    assert is_project_file(".gemstack/lsp.toml")
    assert is_project_file("pyproject.toml")
    assert not is_project_file("specs/x/pyproject.toml")


def test_settings_reach_the_analysis_options() -> None:
    base = AnalysisOptions(disabled=frozenset({"cost"}))
    options = analysis_options(Settings(environment="production", max_ledger_age_days=7), base)
    assert options.environment == "production"
    assert options.max_ledger_age_days == 7
    assert options.disabled == frozenset({"cost"})
    assert analysis_options(Settings()) == AnalysisOptions()


def test_log_levels() -> None:
    assert python_log_level(Settings(log_level="debug")) == logging.DEBUG
    assert python_log_level(Settings(log_level="error")) == logging.ERROR


def test_enabled_rejects_unknown_features() -> None:
    with pytest.raises(ValueError, match="unknown feature"):
        Settings().enabled("spellcheck")


# --- configuration.Configuration: the layers per folder ---------------------------------------

from gemstack_lsp.server.configuration import DEFAULT, Configuration  # noqa: E402


def test_configuration_layers_per_folder() -> None:
    config = Configuration(can_pull=True, init_options={"environment": "staging", "hover": False})
    config.add_folder("file:///a", MemoryReader({PROJECT_FILE: 'environment = "ci"\ndebounce-ms = 7\n'}))
    config.add_folder("file:///b", MemoryReader({}))
    config.client["file:///a"] = {"environment": "production"}
    config.client["file:///b"] = None
    a, errors_a = config.resolve("file:///a")
    b, errors_b = config.resolve("file:///b")
    assert errors_a == errors_b == []
    assert (a.environment, a.debounce_ms, a.hover) == ("production", 7, False)
    assert (b.environment, b.debounce_ms, b.hover) == ("staging", 0, False)
    default, _ = config.resolve(DEFAULT)
    assert default.environment == "staging"
    assert config.folders == ["file:///a", "file:///b"]


def test_pushed_settings_apply_to_every_folder_when_the_client_cannot_be_asked() -> None:
    config = Configuration(can_pull=False, pushed={"environment": "test"})
    config.add_folder("file:///a", MemoryReader({}))
    config.client["file:///a"] = {"environment": "production"}  # ignored: not pulled
    settings, errors = config.resolve("file:///a")
    assert settings.environment == "test"
    assert errors == []


def test_configuration_errors_name_the_layer() -> None:
    config = Configuration(can_pull=True, init_options={"environment": 1})
    config.add_folder("file:///a", MemoryReader({PROJECT_FILE: "environment = \n"}))
    config.client["file:///a"] = {"navigation": "off"}
    settings, errors = config.resolve("file:///a")
    assert settings == Settings()
    assert [e.split(":")[0] for e in errors] == [PROJECT_FILE, "initializationOptions", "workspace/configuration"]


def test_removed_folders_are_forgotten_and_their_settings_fall_back() -> None:
    config = Configuration()
    config.add_folder("file:///a", None)
    config.effective["file:///a"] = Settings(environment="ci")
    config.effective[DEFAULT] = Settings(environment="test")
    assert config.settings_of_folder("file:///a").environment == "ci"
    assert config.settings_of_folder(None).environment == "test"
    config.remove_folder("file:///a")
    assert config.folders == []
    assert config.settings_of_folder("file:///a").environment == "test"


def test_the_documented_project_file_example_is_valid() -> None:
    import tomllib

    from gemstack_lsp.server import settings as module

    doc = module.__doc__ or ""
    block = doc.split("``.gemstack/lsp.toml``::\n\n", 1)[1].split("\n\nor the same keys", 1)[0]
    table = tomllib.loads("\n".join(line[4:] for line in block.splitlines()))
    settings, errors = resolve_settings([(PROJECT_FILE, table)])
    assert errors == []
    assert settings == Settings(environment="ci", max_ledger_age_days=30, code_lens=False)
