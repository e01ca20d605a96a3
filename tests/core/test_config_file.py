"""The repository configuration file (core/config.py): keys, policy, and limits on hostile input.

Every hostile file is a ``CONFIG_INVALID`` finding on the file with a span, never an exception
(issue 23 item 6: arrays nested 500 deep, a 5,000-digit integer).
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from gemstack_lsp.core.config import (
    MAX_BYTES,
    MAX_DEPTH,
    PROJECT_FILE,
    PYPROJECT_FILE,
    parse_project_config,
    read_project_config,
)
from gemstack_lsp.core.findings import Severity
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze

SCHEMA = Path(__file__).resolve().parents[2] / "gemstack_lsp" / "schemas" / "gemstack-lsp-config.schema.json"


def parse(text: str | bytes) -> object:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return parse_project_config(PROJECT_FILE, data)


def test_keys_reach_the_analysis_options_and_the_policy() -> None:
    text = (
        'environment = "ci"\nmax-ledger-age-days = 10000\nignore = ["LEGACY_NO_PROVIDERS_DECLARED", "closure"]\n'
        '[severity]\nSTALE_PROVIDER_COST_ASSUMPTION = "information"\ncapsule = "hint"\n'
        '[[overrides]]\npaths = ["specs/010-*/**"]\nreason = "legacy"\nignore = ["FENCE_UNSEEN_BY_REFERENCE"]\n'
        'severity = { CONTEXT_CAPSULE_STALE = "off" }\n'
    )
    config = parse_project_config(PROJECT_FILE, text.encode())
    assert config.parsed and config.findings == ()
    options = config.analysis_options()
    assert (options.environment, options.max_ledger_age_days) == ("ci", 10000)
    policy = options.policy
    assert policy.ignore == {"LEGACY_NO_PROVIDERS_DECLARED", "closure"}
    assert dict(policy.severity) == {"STALE_PROVIDER_COST_ASSUMPTION": "information", "capsule": "hint"}
    (rule,) = policy.overrides
    assert rule.paths == ("specs/010-*/**",) and rule.reason == "legacy"
    assert rule.ignore == {"FENCE_UNSEEN_BY_REFERENCE"}
    assert dict(rule.severity) == {"CONTEXT_CAPSULE_STALE": "off"}


def test_snake_and_camel_case_keys_are_the_same_keys() -> None:
    for key in ("max_ledger_age_days", "maxLedgerAgeDays", "max-ledger-age-days"):
        config = parse_project_config(PROJECT_FILE, f"{key} = 7\n".encode())
        assert config.max_ledger_age_days == 7 and config.findings == ()


@pytest.mark.parametrize(
    ("text", "needle", "message"),
    [
        ('environment = "moon"\n', "environment", "is not one of"),
        ("bogus = 1\n", "bogus", "unknown key 'bogus'"),
        ('[severity]\nNOT_A_CODE = "off"\n', "NOT_A_CODE", "neither a finding code nor a family"),
        ('[severity]\ncapsule = "loud"\n', "capsule", "is not one of error, warning"),
        ('ignore = ["GEMSTACK_INTERNAL_ERROR"]\n', "GEMSTACK_INTERNAL_ERROR", "cannot be silenced"),
        ("[[overrides]]\nignore = []\n", "overrides", "needs 'paths'"),
        ("max-ledger-age-days = -1\n", "max-ledger-age-days", "whole number"),
    ],
)
def test_a_bad_key_is_a_warning_on_its_span(text: str, needle: str, message: str) -> None:
    config = parse_project_config(PROJECT_FILE, text.encode())
    assert config.parsed
    (finding,) = config.findings
    assert finding.code == "CONFIG_INVALID" and finding.path == PROJECT_FILE
    assert finding.effective_severity is Severity.WARNING
    assert message in finding.message
    assert finding.span is not None
    written = text[finding.span.start : finding.span.end]
    assert written and (written in needle or needle in written or written == "[")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"x = " + b"[" * 500 + b"]" * 500 + b"\n", f"nest more than {MAX_DEPTH} deep"),
        (b"x = " + b"{ a = " * 500 + b"1" + b" }" * 500 + b"\n", f"nest more than {MAX_DEPTH} deep"),
        (b"x = 1" + b"0" * 5000 + b"\n", "longer than 64 digits"),
        (b"x = 0x" + b"f" * 10 + b"\n" + b"y = -" + b"9" * 4400 + b"\n", "longer than 64 digits"),
        (b'environment = "\xff"\n', "Not valid UTF-8 (byte 15)"),
        (b'environment = "ci\n', "Not valid TOML"),
        (b"a = 1\na = 2\n", "Not valid TOML"),
        (b"x = " + b"1" * 10 + b"\n" + b"#" * (MAX_BYTES + 1), "Larger than"),
    ],
)
def test_hostile_files_are_errors_with_a_span_never_a_crash(data: bytes, message: str) -> None:
    config = parse_project_config(PROJECT_FILE, data)
    assert not config.parsed
    (finding,) = config.findings
    assert finding.code == "CONFIG_INVALID"
    assert finding.effective_severity is Severity.BLOCKER
    assert message in finding.message
    if "Larger" not in message:
        assert finding.span is not None


def test_a_deep_array_inside_a_string_or_comment_is_text() -> None:
    text = 'note = "' + "[" * 500 + '"\n# ' + "{" * 500 + "\nlit = '''" + "[" * 100 + "'''\n"
    config = parse_project_config(PROJECT_FILE, text.encode())
    # Parsed: only the unknown keys are reported, as warnings.
    assert config.parsed
    assert [f.effective_severity for f in config.findings] == [Severity.WARNING, Severity.WARNING]


def test_the_syntax_error_points_at_its_line() -> None:
    text = 'environment = "ci"\n\nmax-ledger-age-days = = 3\n'
    (finding,) = parse_project_config(PROJECT_FILE, text.encode()).findings
    assert finding.span is not None
    assert text.count("\n", 0, finding.span.start) == 2


def test_lsp_toml_wins_and_a_pyproject_without_our_table_is_nothing() -> None:
    both = MemoryReader(
        {PROJECT_FILE: 'environment = "test"\n', PYPROJECT_FILE: '[tool.gemstack-lsp]\nenvironment = "ci"\n'}
    )
    assert read_project_config(both).environment == "test"
    only = MemoryReader(
        {PYPROJECT_FILE: '[tool.gemstack-lsp]\nenvironment = "ci"\n[tool.gemstack-lsp.severity]\ncost = "off"\n'}
    )
    config = read_project_config(only)
    assert config.path == PYPROJECT_FILE and config.environment == "ci"
    assert dict(config.policy.severity) == {"cost": "off"}
    assert read_project_config(MemoryReader({PYPROJECT_FILE: "[tool.ruff]\n"})).path is None


def test_analysis_reports_the_file_findings_through_the_reader() -> None:
    files = {"specs/a/spec.md": "# A\n", PROJECT_FILE: "x = " + "[" * 500 + "]" * 500}
    findings = [f for f in analyze(GemstackRepo("/repo", MemoryReader(files))) if f.code == "CONFIG_INVALID"]
    assert [(f.path, f.effective_severity) for f in findings] == [(PROJECT_FILE, Severity.BLOCKER)]


def test_the_schema_accepts_the_documented_example_and_refuses_typos() -> None:
    import tomllib

    schema = json.loads(SCHEMA.read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    example = (Path(__file__).resolve().parents[2] / "docs" / "configuration.md").read_text("utf-8")
    block = example.split("```toml\n", 1)[1].split("```", 1)[0]
    assert list(validator.iter_errors(tomllib.loads(block))) == []
    assert parse_project_config(PROJECT_FILE, block.encode()).findings == ()
    assert list(validator.iter_errors({"severity": {"capsule": "loud"}}))
    assert list(validator.iter_errors({"enviroment": "ci"}))


def test_a_file_of_many_bad_keys_reports_the_first_ones_and_a_count() -> None:
    text = "".join(f"bogus{i} = {i}\n" for i in range(20_000))
    config = parse_project_config(PROJECT_FILE, text.encode())
    assert config.parsed
    assert len(config.findings) == 51
    assert config.findings[-1].message.startswith("19950 more key(s)")
    assert config.findings[0].span is not None and text[config.findings[0].span.start :].startswith("bogus0")
