"""Repo-relative path validation and the generated-plan path patterns."""

from __future__ import annotations

import re
import unicodedata
from typing import NoReturn

from gemstack_lsp.provenance.errors import ProvenanceError

MAX_PLAN_BYTES = 16 * 1024 * 1024

_WRITE_PATTERN = re.compile(
    r"docs/plans/([0-9]{4})-([0-9]{2})-([0-9]{2})-gitnexus-plan-[a-z0-9]+(?:-[a-z0-9]+){2,4}\.md"
)
_READ_PATTERN = re.compile(r"docs/plans/[^/]*gitnexus-plan[^/]*\.md")
_DRIVE = re.compile(r"[A-Za-z]:/")


def is_valid_utf8_text(value: str) -> bool:
    """True when ``value`` has no lone surrogates, i.e. it came from valid UTF-8."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def validate_repo_path(value: str, label: str) -> str:
    """Return ``value`` if it is a nonempty, NFC, normalized POSIX repo-relative path."""
    if not is_valid_utf8_text(value):
        raise_error(f"{label} is not valid UTF-8")
    if value == "":
        raise_error(f"{label} must not be empty")
    if "\0" in value:
        raise_error(f"{label} must not contain NUL")
    if "\\" in value:
        raise_error(f"{label} must use POSIX '/' separators")
    if unicodedata.normalize("NFC", value) != value:
        raise_error(f"{label} must already be Unicode NFC")
    if value.startswith("/") or _DRIVE.match(value):
        raise_error(f"{label} must be repo-relative")
    if any(part in ("", ".", "..") for part in value.split("/")):
        raise_error(f"{label} must be a normalized repo-relative path without dot segments")
    return value


def decode_repo_path(raw: bytes, label: str) -> str:
    """Decode a path Git or the filesystem gave us as strict UTF-8, then validate it."""
    try:
        text = raw.decode("utf-8", errors="strict")
    except UnicodeDecodeError:
        raise_error(f"{label} is not valid UTF-8")
    return validate_repo_path(text, label)


def _is_leap(year: int) -> bool:
    # Proleptic Gregorian: year 0 is a leap year, which datetime cannot represent.
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _days_in_month(year: int, month: int) -> int:
    if month == 2:
        return 29 if _is_leap(year) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def validate_write_plan_path(value: str, label: str = "generated plan path") -> str:
    """The exact ``docs/plans/YYYY-MM-DD-gitnexus-plan-<3-5-word-slug>.md`` rule, date included."""
    validate_repo_path(value, label)
    match = _WRITE_PATTERN.fullmatch(value)
    if match is None:
        raise_error("Generated-plan writes are restricted to docs/plans/YYYY-MM-DD-gitnexus-plan-<3-5-word-slug>.md")
    year, month, day = (int(group) for group in match.groups())
    if not (1 <= month <= 12 and 1 <= day <= _days_in_month(year, month)):
        date = "-".join(match.groups())
        raise_error(f"Generated-plan path has an invalid calendar date: {date}")
    return value


def validate_read_plan_path(value: str) -> str:
    """The read-compatible ``docs/plans/*gitnexus-plan*.md`` rule (no date check)."""
    validate_repo_path(value, "existing plan path")
    if _READ_PATTERN.fullmatch(value) is None:
        raise_error("Existing-plan reads are restricted to docs/plans/*gitnexus-plan*.md")
    return value


def raise_error(message: str) -> NoReturn:
    raise ProvenanceError(message)
