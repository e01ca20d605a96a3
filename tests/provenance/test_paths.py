"""Contract section "Path contract": validation order, messages and the plan patterns."""

from __future__ import annotations

import pytest

from gemstack_lsp.provenance.errors import ProvenanceError
from gemstack_lsp.provenance.paths import (
    decode_repo_path,
    validate_read_plan_path,
    validate_repo_path,
    validate_write_plan_path,
)

WRITE_RULE = "Generated-plan writes are restricted to docs/plans/YYYY-MM-DD-gitnexus-plan-<3-5-word-slug>.md"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("", "cited path must not be empty"),
        ("a\x00b", "cited path must not contain NUL"),
        ("a\\b", "cited path must use POSIX '/' separators"),
        ("e\u0301", "cited path must already be Unicode NFC"),
        ("/etc/passwd", "cited path must be repo-relative"),
        ("C:/x", "cited path must be repo-relative"),
        ("a/../b", "cited path must be a normalized repo-relative path without dot segments"),
        ("./a", "cited path must be a normalized repo-relative path without dot segments"),
        ("a//b", "cited path must be a normalized repo-relative path without dot segments"),
        ("a/", "cited path must be a normalized repo-relative path without dot segments"),
        ("..", "cited path must be a normalized repo-relative path without dot segments"),
        ("bad\udcff", "cited path is not valid UTF-8"),
        # Order: NUL is reported before the backslash, the backslash before NFC.
        ("\\\x00", "cited path must not contain NUL"),
        ("e\u0301\\", "cited path must use POSIX '/' separators"),
    ],
)
def test_rejections_in_order(value: str, message: str) -> None:
    with pytest.raises(ProvenanceError) as caught:
        validate_repo_path(value, "cited path")
    assert caught.value.message == message


@pytest.mark.parametrize("value", ["a", "-x", "dir/with space/é", "tab\there", "new\nline", "..a/b.."])
def test_legal_paths(value: str) -> None:
    assert validate_repo_path(value, "cited path") == value


def test_invalid_utf8_bytes_from_git() -> None:
    with pytest.raises(ProvenanceError, match=r"^git status path is not valid UTF-8$"):
        decode_repo_path(b"caf\xe9", "git status path")
    assert decode_repo_path("café".encode(), "git status path") == "café"


@pytest.mark.parametrize(
    "value",
    [
        "docs/plans/2024-01-02-gitnexus-plan-one-two-three.md",
        "docs/plans/2024-01-02-gitnexus-plan-a-b-c-d-e.md",
        "docs/plans/0000-02-29-gitnexus-plan-year-zero-leap.md",
        "docs/plans/2000-02-29-gitnexus-plan-leap-four-hundred.md",
    ],
)
def test_write_pattern_accepts(value: str) -> None:
    assert validate_write_plan_path(value) == value


@pytest.mark.parametrize(
    "value",
    [
        "docs/plans/2024-01-02-gitnexus-plan-one-two.md",
        "docs/plans/2024-01-02-gitnexus-plan-a-b-c-d-e-f.md",
        "docs/plans/2024-01-02-gitnexus-plan-One-two-three.md",
        "docs/plans/2024-01-02-gitnexus-plan-one--two-three.md",
        "docs/plans/2024-01-02-gitnexus-plan-one-two-three.md\n",
        "docs/plans/２０２４-01-02-gitnexus-plan-one-two-three.md",
        "docs/plans/x/2024-01-02-gitnexus-plan-one-two-three.md",
        "docs/2024-01-02-gitnexus-plan-one-two-three.md",
        ".git/2024-01-02-gitnexus-plan-one-two-three.md",
    ],
)
def test_write_pattern_rejects(value: str) -> None:
    with pytest.raises(ProvenanceError) as caught:
        validate_write_plan_path(value)
    assert caught.value.message == WRITE_RULE


@pytest.mark.parametrize("date", ["1900-02-29", "2023-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "2024-01-00"])
def test_write_pattern_checks_the_calendar(date: str) -> None:
    with pytest.raises(ProvenanceError) as caught:
        validate_write_plan_path(f"docs/plans/{date}-gitnexus-plan-one-two-three.md")
    assert caught.value.message == f"Generated-plan path has an invalid calendar date: {date}"


def test_read_pattern_is_wider_but_still_under_docs_plans() -> None:
    assert validate_read_plan_path("docs/plans/legacy-gitnexus-plan.md")
    assert validate_read_plan_path("docs/plans/2024-99-99-gitnexus-plan-x.md")
    for bad in ["docs/plans/a/gitnexus-plan.md", "docs/plans/plan.md", "docs/plans/gitnexus-plan.md\n"]:
        with pytest.raises(ProvenanceError) as caught:
            validate_read_plan_path(bad)
        assert caught.value.message == "Existing-plan reads are restricted to docs/plans/*gitnexus-plan*.md"
