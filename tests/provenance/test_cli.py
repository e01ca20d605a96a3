"""Contract section "Invocation" and the reference's CLI rules: flags per command, parse order,
error texts, receipts on stdout, and standard input handling for write-plan."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gemstack_lsp.commands.plan import run_raw
from gemstack_lsp.provenance.cli import js_number, main

from .conftest import PLAN

DIGEST = "sha256:" + "a" * 64


def run_main(argv: list[str], capsysbinary: pytest.CaptureFixture[bytes]) -> tuple[int, bytes, bytes]:
    code = main(argv)
    out, err = capsysbinary.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "--repo is required"),
        (["-h"], "Unsupported command: -h"),
        (["help"], "Unsupported command: help"),
        ([""], "Unexpected positional argument: "),
        (["snapshot", "stray"], "Unexpected positional argument: stray"),
        (["write-plan", "--replace", "yes"], "Unexpected positional argument: yes"),
        (["snapshot", "--help"], "--help is not valid for snapshot"),
        (["read-plan", "--cited", "x"], "--cited is not valid for read-plan"),
        (["snapshot", "--replace"], "--replace is not valid for snapshot"),
        (["read-plan", "--schema-version", "2"], "--schema-version is not valid for read-plan"),
        (["write-plan", "--cited", "a"], "--cited is not valid for write-plan"),
        (["snapshot", "--repo=x"], "--repo=x is not valid for snapshot"),
        (["snapshot", "--repo", "a", "--repo", "b"], "Duplicate option: --repo"),
        (["snapshot", "--repo", "a", "--repo"], "Duplicate option: --repo"),
        (["write-plan", "--replace", "--replace"], "Duplicate option: --replace"),
        (["snapshot", "--repo"], "Missing value for --repo"),
        (["snapshot", "--repo", "--generated-plan", "x"], "Missing value for --repo"),
        (["snapshot", "--schema-version", "-1"], "--schema-version must be an integer"),
        (["snapshot", "--schema-version", "2.0"], "--schema-version must be an integer"),
        (["snapshot", "--schema-version", "２"], "--schema-version must be an integer"),
        (["snapshot", "--schema-version", " 2"], "--schema-version must be an integer"),
        (["snapshot", "--repo", "", "--generated-plan", PLAN], "--repo is required"),
        (["snapshot", "--repo", "r"], "--generated-plan is required"),
        (
            ["snapshot", "--repo", "r", "--generated-plan", PLAN, "--schema-version", "1"],
            "Unsupported evidence provenance schema 1; schema 1 is legacy and must be conservatively re-anchored",
        ),
        (
            ["--repo", "r", "--generated-plan", PLAN, "--schema-version", "100000000000000000000000"],
            "Unsupported evidence provenance schema 1e+23; schema 1 is legacy and must be conservatively re-anchored",
        ),
        (
            ["write-plan", "--repo", "r", "--generated-plan", PLAN, "--replace"],
            "--replace requires --expected-plan-path and --expected-plan-digest from read-plan",
        ),
        (
            ["write-plan", "--repo", "r", "--generated-plan", PLAN, "--replace", "--expected-plan-path", PLAN],
            "--replace requires --expected-plan-path and --expected-plan-digest from read-plan",
        ),
        (
            ["write-plan", "--repo", "r", "--generated-plan", PLAN, "--expected-plan-digest", DIGEST],
            "--expected-plan-path and --expected-plan-digest require --replace",
        ),
    ],
)
def test_parse_errors(argv: list[str], message: str, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    code, out, err = run_main(argv, capsysbinary)
    assert (code, out, err) == (1, b"", f"evidence-provenance: {message}\n".encode())


def test_parse_order_positional_before_validity_before_duplicate(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    assert run_main(["read-plan", "--cited", "x", "stray"], capsysbinary)[2].endswith(
        b"--cited is not valid for read-plan\n"
    )
    assert run_main(["read-plan", "stray", "--cited"], capsysbinary)[2].endswith(b"positional argument: stray\n")


def test_single_dash_values_are_values(repo: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    code, out, err = run_main(
        ["snapshot", "--repo", str(repo), "--generated-plan", PLAN, "--cited", "-x"], capsysbinary
    )
    assert (code, err) == (0, b"")
    assert json.loads(out)["cited_path_manifest"][0]["path"] == "-x"


def test_js_number_formatting() -> None:
    assert js_number("02") == "2"
    assert js_number("99999999999999999999") == "100000000000000000000"
    assert js_number("1" + "0" * 21) == "1e+21"
    assert js_number("9" * 400) == "Infinity"


def test_snapshot_receipt_bytes(repo: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    (repo / "é.txt").write_text("x")
    code, out, err = run_main(
        ["--repo", str(repo), "--generated-plan", PLAN, "--cited", "é.txt", "--schema-version", "002"], capsysbinary
    )
    assert (code, err) == (0, b"")
    value = json.loads(out)
    assert out == (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode()
    assert "é.txt".encode() in out and b"\\u" not in out


def test_gemstack_lsp_plan_forwards_verbatim(repo: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    assert run_raw(["read-plan", "--repo", str(repo), "--generated-plan", PLAN]) == 1
    assert capsysbinary.readouterr().err == b"evidence-provenance: Loaded-plan parent does not exist: docs\n"


def _module(args: list[str], stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "gemstack_lsp.provenance", *args], input=stdin, capture_output=True, check=False
    )


def test_write_plan_reads_standard_input(repo: Path) -> None:
    done = _module(["write-plan", "--repo", str(repo), "--generated-plan", PLAN], "plan ✓\n".encode())
    assert (done.returncode, done.stderr) == (0, b"")
    assert json.loads(done.stdout) == {"generated_plan_path": PLAN, "bytes_written": 9}
    assert (repo / PLAN).read_bytes() == "plan ✓\n".encode()


def test_write_plan_waits_on_a_slow_non_blocking_pipe(repo: Path) -> None:
    # Deliberate difference: the reference fails with EAGAIN when its (non-blocking) standard input
    # pipe is momentarily empty. Here the read end is even handed over non-blocking on purpose.
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    process = subprocess.Popen(
        [sys.executable, "-m", "gemstack_lsp.provenance", "write-plan", "--repo", str(repo), "--generated-plan", PLAN],
        stdin=read_end,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    os.close(read_end)
    os.write(write_end, b"first half\n")
    time.sleep(0.5)  # an empty pipe for a while; not a timing assertion
    os.write(write_end, b"second half\n")
    os.close(write_end)
    _out, err = process.communicate()
    assert (process.returncode, err) == (0, b"")
    assert (repo / PLAN).read_bytes() == b"first half\nsecond half\n"


def test_standard_input_over_16_mib_is_refused_before_anything(repo: Path) -> None:
    done = _module(["write-plan", "--repo", str(repo), "--generated-plan", PLAN], b"a" * (16 * 1024 * 1024 + 1))
    assert (done.returncode, done.stdout) == (1, b"")
    assert done.stderr == b"evidence-provenance: Generated plan exceeds 16777216 bytes\n"
    assert not (repo / "docs").exists()
    done = _module(["write-plan", "--repo", str(repo), "--generated-plan", PLAN], b"a" * (16 * 1024 * 1024))
    assert done.returncode == 0
    assert (repo / PLAN).stat().st_size == 16 * 1024 * 1024


def test_invalid_utf8_standard_input(repo: Path) -> None:
    done = _module(["write-plan", "--repo", str(repo), "--generated-plan", PLAN], b"ok \xed\xa0\x80 surrogate")
    assert (done.returncode, done.stdout) == (1, b"")
    assert done.stderr == b"evidence-provenance: generated plan is not valid UTF-8\n"
    assert not (repo / "docs").exists()


def test_os_errors_use_the_reference_wording(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    missing = str(tmp_path / "nope")
    code, out, err = run_main(["read-plan", "--repo", missing, "--generated-plan", PLAN], capsysbinary)
    assert (code, out) == (1, b"")
    assert err == f"evidence-provenance: ENOENT: no such file or directory, realpath '{missing}'\n".encode()
