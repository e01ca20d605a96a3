"""Bad input beyond the case tables: size, special files, containment, and random repositories.

Also the known bugs that need more than a table to show (one test function per bug, the bug in
its docstring); they fail until the module named there is fixed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from corpus.cases.common import FEATURE, PLAN, SPEC, STATE, doc
from corpus.harness import Case, analyze_positions, check_case, cli_json, cli_positions, make_case
from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.fs import DiskReader

_BROKEN = doc("```gemstack-contracts", "[", '  {"a": 1},', "]", "```")


def test_ten_megabyte_spec_is_analysed(tmp_path: Path, capsys: Any) -> None:
    """A 10 MB spec.md (under the 16 MiB limit) is analysed normally: its finding is on the
    right line and column, found through the CLI and through analyze.

    The prose lines are 4 KiB long here; ``test_ten_megabytes_of_short_lines`` has 100-byte ones.
    """
    line = ("Prose with café, ─ box, ≠ and 😀 " * 128)[:4095] + "\n"
    count = 10 * 1024 * 1024 // len(line.encode("utf-8"))
    spec = line * count + _BROKEN
    assert 10 * 1024 * 1024 - 8192 < len(spec.encode("utf-8")) < 16 * 1024 * 1024
    case = Case("ten-megabytes", {SPEC: spec}, (("CONTRACT_PARSE_ERROR", SPEC, count + 2, 10),))
    check_case(tmp_path, case, capsys)


@pytest.mark.parametrize("eol", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_ten_megabytes_of_short_lines(tmp_path: Path, capsys: Any, eol: str) -> None:
    """A 10 MB spec.md of about 100-byte lines (some 100,000 of them): analysed normally, the
    finding on the right line."""
    line = "Prose of a spec: café, ─ box drawing, a ≠ b and 😀, then some more ordinary words." + eol
    count = 10 * 1024 * 1024 // len(line.encode("utf-8"))
    spec = line * count + _BROKEN.replace("\n", eol)
    assert len(spec.encode("utf-8")) > 10 * 1024 * 1024 - 200
    case = Case("short-lines", {SPEC: spec}, (("CONTRACT_PARSE_ERROR", SPEC, count + 2, 10),))
    check_case(tmp_path, case, capsys)


def test_fifo_spec_is_not_read(tmp_path: Path, capsys: Any) -> None:
    """A named pipe where spec.md should be: reported, never opened for a blocking read."""
    root = make_case(tmp_path, Case("fifo", {PLAN: "# Plan\n"}))
    os.mkfifo(root / SPEC)
    assert analyze_positions(root)[0] == [("ARTIFACT_UNREADABLE", SPEC, 0, 0)]
    code, payload = cli_json(root, capsys)
    assert cli_positions(payload) == [("ARTIFACT_UNREADABLE", SPEC, 0, 0)]
    assert code == 1


@pytest.mark.parametrize("inside", [True, False])
def test_absolute_active_spec(tmp_path: Path, capsys: Any, inside: bool) -> None:
    """An absolute active_spec is taken relative to the repository root; outside it, it is invalid."""
    root = make_case(tmp_path, Case("abs", {SPEC: "# Demo\n"}))
    target = (root / FEATURE) if inside else (tmp_path / "elsewhere" / FEATURE)
    state = '{"active_spec": "' + str(target.resolve()) + '"}'
    (root / ".gemstack").mkdir()
    (root / STATE).write_text(state, encoding="utf-8")
    expected = [] if inside else [("STATE_INVALID", STATE, 0, 16)]
    assert analyze_positions(root)[0] == expected
    _, payload = cli_json(root, capsys)
    assert cli_positions(payload) == expected


def test_documents_check_contains_a_failing_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A check that raises on one file costs only that file's findings (fixed in core/documents.py:
    before, one exception anywhere lost every documents finding of the repository)."""
    from gemstack_lsp.core import documents

    root = make_case(
        tmp_path,
        Case(
            "contained",
            {
                SPEC: _BROKEN,
                "specs/002-other/spec.md": "# Other\n",
                "specs/002-other/tasks.md": "- [ ] **T001: x**\n",
                STATE: '{"active_spec": "specs/404"}',
            },
        ),
    )
    from gemstack_lsp.core.tasks import parse_tasks as real

    def exploding(text: str) -> Any:
        if "T001" in text:
            raise RuntimeError("boom")
        return real(text)

    monkeypatch.setattr(documents, "parse_tasks", exploding)  # the name documents.py calls
    found, findings = analyze_positions(root)
    assert sorted(found) == sorted(
        [
            ("CONTRACT_PARSE_ERROR", SPEC, 2, 10),
            ("GEMSTACK_INTERNAL_ERROR", "specs/002-other/spec.md", 0, 0),
            ("STATE_ACTIVE_SPEC_MISSING", STATE, 0, 16),
        ]
    )
    assert any("RuntimeError: boom" in f.message for f in findings)

    def state_explodes(repo: GemstackRepo) -> list[Finding]:
        raise ValueError("state")

    monkeypatch.setattr(documents, "state_findings", state_explodes)
    found, _ = analyze_positions(root)
    assert ("CONTRACT_PARSE_ERROR", SPEC, 2, 10) in found
    assert ("GEMSTACK_INTERNAL_ERROR", STATE, 0, 0) in found


def test_active_spec_naming_a_file_on_disk_and_in_memory(tmp_path: Path) -> None:
    """active_spec naming a file: STATE_ACTIVE_SPEC_MISSING from disk as from memory (fixed in
    core/state.py: on disk, reading ``spec.md/spec.md`` failed with ENOTDIR, which counted as
    existing, so the finding was missing)."""
    from gemstack_lsp.core.options import AnalysisOptions
    from gemstack_lsp.core.reader import MemoryReader

    files = {STATE: '{"active_spec": "specs/001-demo/spec.md"}', SPEC: "# Demo\n"}
    root = make_case(tmp_path, Case("file", files))
    only = AnalysisOptions(disabled=frozenset({"capsule", "cost"}))
    on_disk = analyze(GemstackRepo(str(root), DiskReader(root)), only)
    in_memory = analyze(GemstackRepo(str(root), MemoryReader(files)), only)
    assert [(f.code, f.span) for f in on_disk] == [(f.code, f.span) for f in in_memory]
    assert {f.code for f in on_disk} == {"STATE_INVALID", "STATE_ACTIVE_SPEC_MISSING"}


class _ScanCounter(str):
    """A str that counts the characters its ``find`` calls scan, per calling module."""

    scanned: dict[str, int]

    def find(self, sub: str, start: Any = None, end: Any = None) -> int:
        found = super().find(sub, start, end)
        s = 0 if start is None else start
        e = len(self) if end is None else end
        caller = sys._getframe(1).f_code.co_filename.rsplit("/", 1)[-1]
        self.scanned[caller] = self.scanned.get(caller, 0) + ((found + len(sub) - s) if found >= 0 else (e - s))
        return found


def _counting(text: str) -> _ScanCounter:
    counted = _ScanCounter(text)
    counted.scanned = {}
    return counted


#: Many short lines: a realistic 10 MB spec.md has about 100,000 of them.
_SHORT_LINES = "Prose of a spec, one short line.\n" * 10_000


def test_line_index_is_linear() -> None:
    """core/text.py ``SourceText`` indexes lines in work linear in the text (measured as
    characters scanned, not time). Found by this corpus: the index searched ``"\\r"`` from every
    line start to the end of an LF-only text, so a 10 MB spec.md of 100-byte lines took about
    170 s to check; fixed in 3311f60."""
    from gemstack_lsp.core.text import SourceText

    text = _counting(_SHORT_LINES + "tail")
    source = SourceText(text)
    assert source.line_count == 10_001
    scanned, size = text.scanned.get("text.py", 0), len(text)
    assert scanned <= 4 * size, f"{scanned} characters scanned to index {size}"


def test_markdown_lines_linear_after_a_carriage_return() -> None:
    """core/markdown.py ``_lines``: once the text holds any ``\\r`` it leaves its fast path and
    searches ``text.find("\\r", i)`` for every line; after the last ``\\r`` each search runs to
    the end of the text, so a document with one stray CR near the top and many LF lines after
    it is split in quadratic time (every ``scan_fences`` / ``reference_blocks`` call). Expected:
    work linear in the text (measured as characters scanned)."""
    from gemstack_lsp.core.markdown import scan_fences

    text = _counting("# Title\r\n" + _SHORT_LINES + "```gemstack-contracts\n[]\n```\n")
    fences = scan_fences(text)
    assert [f.kind for f in fences] == ["gemstack-contracts"]
    scanned, size = text.scanned.get("markdown.py", 0), len(text)
    assert scanned <= 4 * size, f"{scanned} characters scanned to split {size}"


def test_markdown_lines_linear_without_carriage_returns() -> None:
    """LF-only text is split with at most a few scans of each character."""
    from gemstack_lsp.core.markdown import scan_fences

    text = _counting(_SHORT_LINES + "```gemstack-contracts\n[]\n```\n")
    assert len(scan_fences(text)) == 1
    scanned, size = text.scanned.get("markdown.py", 0), len(text)
    assert scanned <= 4 * size, f"{scanned} characters scanned to split {size}"


def test_related_range_of_a_frozen_contract(tmp_path: Path, capsys: Any) -> None:
    """FROZEN_CONTRACT_VIOLATION points at plan.md's value, and its related location at the id
    in spec.md, in UTF-16 columns on the right line of a CRLF spec with emoji."""
    spec = doc(
        "# 😀 Demo",
        "```gemstack-contracts",
        "[",
        '  {"d": "é😀", "id": "b", "type": "BOOLEAN_INVARIANT", "value": true}',
        "]",
        "```",
        eol="\r\n",
    )
    plan = doc("```gemstack-contracts", '[{"id": "b", "type": "BOOLEAN_INVARIANT", "value": false}]', "```")
    root = make_case(tmp_path, Case("related", {SPEC: spec, PLAN: plan}))
    _, payload = cli_json(root, capsys)
    (found,) = [f for f in payload["findings"] if f["code"] == "FROZEN_CONTRACT_VIOLATION"]
    assert found["path"] == PLAN
    assert found["range"] == {"start": {"line": 1, "character": 51}, "end": {"line": 1, "character": 56}}
    assert found["subject"] == "b"
    (related,) = found["related"]
    assert related["path"] == SPEC
    # `  {"d": "é😀", ` is 2 + 6 + 5 + 2 = 15 units (the emoji counts two), then `"id": ` (6).
    assert related["range"] == {"start": {"line": 3, "character": 21}, "end": {"line": 3, "character": 24}}


@pytest.mark.parametrize(
    ("files", "exit_code"),
    [
        ({SPEC: doc("# Demo", "```gemstack-contracts", "[]", "```")}, 0),
        # A warning only (the reference would not see the tilde block): still exit 0.
        ({SPEC: doc("# Demo", "~~~gemstack-contracts", "[]", "~~~")}, 0),
        ({SPEC: _BROKEN}, 1),
    ],
    ids=["valid", "warning-only", "blocker"],
)
def test_exit_code(tmp_path: Path, capsys: Any, files: dict[str, str], exit_code: int) -> None:
    """check exits 1 exactly when a blocker (an "error") is reported."""
    root = make_case(tmp_path, Case("exit", files))
    code, payload = cli_json(root, capsys)
    assert code == exit_code
    assert (payload["summary"]["error"] > 0) == (exit_code == 1)


def test_bug_disk_reader_path_beneath_a_file(tmp_path: Path) -> None:
    """gemstack_lsp/fs.py ``DiskReader.read``: a path beneath a regular file
    (``specs/001-demo/spec.md/spec.md``) fails with ENOTDIR, which is reported as
    ``ReadStatus.ERROR``, so ``GemstackRepo.exists`` says it exists; MemoryReader says MISSING.
    (core/state.py no longer depends on it for STATE_ACTIVE_SPEC_MISSING.) Expected: MISSING, as
    for any other absent path."""
    from gemstack_lsp.core.reader import MemoryReader, ReadStatus

    root = make_case(tmp_path, Case("enotdir", {SPEC: "# Demo\n"}))
    below = f"{SPEC}/spec.md"
    assert MemoryReader({SPEC: "# Demo\n"}).read(below).status is ReadStatus.MISSING
    assert DiskReader(root).read(below).status is ReadStatus.MISSING
    assert not GemstackRepo(str(root), DiskReader(root)).exists(below)
