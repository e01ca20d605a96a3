"""Output cannot be forged: repository-provided names and values never break a line, drive the
terminal or make an output invalid."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gemstack_lsp.core.plaintext import markdown_to_plaintext
from gemstack_lsp.core.printable import printable

PROJECT = Path(__file__).resolve().parents[1]
FIXTURE = PROJECT / "tests" / "fixtures" / "gemstack-reference" / "repo"
FORGED = "\ncost-ledger.json:1:1: error FORGED_FINDING all is lost"
ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x9b31m\u202e"


def _check(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    return subprocess.run(
        [sys.executable, "-m", "gemstack_lsp", "check", str(root), *args],
        capture_output=True,
        env=env,
        cwd=root,
        timeout=120,
    )


@pytest.fixture
def hostile_names(tmp_path: Path) -> Path:
    """The fixture with a feature folder named to forge a finding line and drive the terminal."""
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    name = "010-x" + FORGED + ESCAPES
    feature = root / "specs" / name
    feature.mkdir()
    (feature / "spec.md").write_text("# X\n\n```gemstack-contracts\n[{]\n```\n", "utf-8")
    return root


def test_a_folder_name_cannot_forge_a_finding_line_or_drive_the_terminal(hostile_names: Path) -> None:
    done = _check(hostile_names)
    out = done.stdout.decode("utf-8")
    lines = out.splitlines()
    assert not any(line.startswith("cost-ledger.json:1:1: error FORGED_FINDING") for line in lines), out
    assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out and "\u202e" not in out
    forged = [line for line in lines if "FORGED_FINDING" in line]
    assert forged and all("\\ncost-ledger.json" in line for line in forged), forged
    assert "\\x1b]0;pwned\\x07" in out


def test_github_and_json_and_sarif_stay_valid_with_hostile_names(hostile_names: Path) -> None:
    for fmt in ("json", "sarif"):
        done = _check(hostile_names, "--format", fmt)
        assert done.returncode in (0, 1), done.stderr
        json.loads(done.stdout)


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS file systems refuse names that are not UTF-8")
def test_a_name_that_is_not_utf8_keeps_sarif_alive(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    feature = os.path.join(os.fsencode(root / "specs"), b"011-caf\xe9")
    os.mkdir(feature)
    with open(os.path.join(feature, b"spec.md"), "wb") as handle:
        handle.write(b"# X\n\n```gemstack-contracts\n[{]\n```\n")
    done = _check(root, "--format", "sarif")
    assert done.returncode in (0, 1), done.stderr
    log = json.loads(done.stdout)
    uris = [
        loc["physicalLocation"]["artifactLocation"]["uri"]
        for result in log["runs"][0]["results"]
        for loc in result["locations"]
    ]
    assert any("011-caf%E9/spec.md" in uri for uri in uris), uris
    text = _check(root).stdout.decode("utf-8")
    assert "011-caf\\xe9/spec.md" in text


def test_printable_escapes_what_could_forge_or_drive_and_nothing_else() -> None:
    assert printable("plain ü 日本 text") == "plain ü 日本 text"
    assert printable("a\nb\tc\rd") == "a\\nb\\tc\\rd"
    assert printable("a\nb\tc", keep_lines=True) == "a\nb\tc"
    assert printable("\x1b[2J\x07\x9b\u202e\u2028") == "\\x1b[2J\\x07\\x9b\\u202e\\u2028"
    assert printable("caf\udce9") == "caf\\xe9"


def test_hover_plain_text_and_logs_escape_terminal_sequences() -> None:
    from gemstack_lsp.commands.serve import RedactingFormatter

    assert "\x1b" not in markdown_to_plaintext(f"**id** `{ESCAPES}`")
    record = logging.LogRecord(
        "gemstack", logging.INFO, __file__, 1, "reading %s", ("specs/a" + FORGED + ESCAPES,), None
    )
    line = RedactingFormatter("%(levelname)s %(name)s: %(message)s").format(record)
    assert "\n" not in line and "\x1b" not in line
    assert line.startswith("INFO gemstack: reading specs/a\\ncost-ledger.json")
