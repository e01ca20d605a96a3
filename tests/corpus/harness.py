"""The corpus harness: build a small repository from a table of files, run it, compare findings.

A case is a table of repository-relative paths to contents (text, bytes, a ``Symlink`` or a
``Directory``) and the findings the documents check must report, each as
``(code, path, line, character)``: the 0-based start line and UTF-16 column the JSON output
of ``gemstack-lsp check`` gives. Every case runs twice, through the CLI entry point in-process
and through ``gemstack_lsp.core.rules.analyze`` directly, and must report exactly the expected
documents findings (no more, none missing) and never ``GEMSTACK_INTERNAL_ERROR``.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gemstack_lsp.core.findings import CATALOGUE, Finding
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.fs import DiskReader
from gemstack_lsp.report import finding_range


@dataclass(frozen=True)
class Symlink:
    """A symbolic link; ``target`` is written as given (relative to the link, or absolute)."""

    target: str
    #: When set, ``target`` is taken relative to the pytest tmp_path (outside the repository).
    outside: bool = False


@dataclass(frozen=True)
class Directory:
    """An empty directory at this path."""


Content = str | bytes | Symlink | Directory
Expected = tuple[str, str, int, int]


@dataclass(frozen=True)
class Case:
    """One corpus case: a repository and the documents findings it must produce."""

    name: str
    files: Mapping[str, Content]
    expected: tuple[Expected, ...] = ()
    #: Files written outside the repository (relative to tmp_path), for symlinks to point at.
    outside: Mapping[str, Content] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.name


#: The check families other than the documents check (left out of the comparison).
OTHER_FAMILIES = frozenset({"capsule", "closure", "cost"})
#: Codes of the cost family that the documents check reports (block parsing).
BLOCK_CODES_OF_COST = frozenset({"BILLABLE_ACTIONS_INVALID", "CAPABILITIES_INVALID"})


def is_documents_code(code: str) -> bool:
    """True for the codes the documents check (``core/documents.py`` and the block parsers) reports."""
    info = CATALOGUE.get(code)
    if info is None:
        return True  # an unknown code is always unexpected
    return info.family not in OTHER_FAMILIES or code in BLOCK_CODES_OF_COST


def build(root: Path, files: Mapping[str, Content], outside_base: Path | None = None) -> None:
    """Write ``files`` under ``root`` (parents created; symlinks and directories as asked)."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Directory):
            path.mkdir(parents=True, exist_ok=True)
        elif isinstance(content, Symlink):
            target = content.target
            if content.outside:
                assert outside_base is not None
                target = str(outside_base / target)
            os.symlink(target, path)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            # newline="" keeps "\r\n" and lone "\r" exactly as the table writes them.
            with open(path, "w", encoding="utf-8", newline="") as fh:
                fh.write(content)


def make_case(tmp_path: Path, case: Case) -> Path:
    outside = tmp_path / "outside"
    build(outside, case.outside)
    root = tmp_path / "repo"
    build(root, case.files, outside)
    # Every corpus repository has a specs/ folder, so the CLI recognises it as a repository.
    (root / "specs").mkdir(exist_ok=True)
    return root


def documents_only() -> AnalysisOptions:
    return AnalysisOptions(disabled=OTHER_FAMILIES)


def analyze_positions(root: Path, *, only_documents: bool = True) -> tuple[list[Expected], list[Finding]]:
    """(code, path, line, character) of every finding of ``analyze`` on the repository at ``root``."""
    repo = GemstackRepo(str(root.resolve()), DiskReader(root))
    findings = analyze(repo, documents_only() if only_documents else None)
    out: list[Expected] = []
    for f in findings:
        start, end = finding_range(repo, f)
        assert (start.line, start.character) <= (end.line, end.character), f
        out.append((f.code, f.path, start.line, start.character))
    return out, findings


def cli_json(root: Path, capsys: Any) -> tuple[int, dict[str, Any]]:
    """Run ``gemstack-lsp check ROOT --format json`` in-process; its exit code and parsed output."""
    from gemstack_lsp.cli import main

    capsys.readouterr()
    code = main(["check", str(root), "--format", "json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


def cli_positions(payload: Mapping[str, Any]) -> list[Expected]:
    """The documents findings of the JSON output as (code, path, line, character)."""
    out: list[Expected] = []
    for f in payload["findings"]:
        start = f["range"]["start"]
        end = f["range"]["end"]
        assert (start["line"], start["character"]) <= (end["line"], end["character"]), f
        if is_documents_code(f["code"]):
            out.append((f["code"], f["path"], start["line"], start["character"]))
    return out


def diff(actual: list[Expected], expected: tuple[Expected, ...] | list[Expected]) -> str:
    """A readable difference between two multisets of findings ("" when they are equal)."""
    a, e = Counter(actual), Counter(expected)
    missing = sorted((e - a).elements())
    extra = sorted((a - e).elements())
    if not missing and not extra:
        return ""
    lines = []
    lines += [f"  missing:    {m}" for m in missing]
    lines += [f"  unexpected: {x}" for x in extra]
    return "\n" + "\n".join(lines)


def check_case(tmp_path: Path, case: Case, capsys: Any) -> None:
    """Run one case through the CLI and through ``analyze``; both must match its table exactly."""
    root = make_case(tmp_path, case)

    direct, _ = analyze_positions(root)
    assert not diff(direct, case.expected), f"analyze() on {case.name}:{diff(direct, case.expected)}"

    _, all_findings = analyze_positions(root, only_documents=False)
    internal = [f.message for f in all_findings if f.code == "GEMSTACK_INTERNAL_ERROR"]
    assert not internal, internal

    exit_code, payload = cli_json(root, capsys)
    via_cli = cli_positions(payload)
    assert not diff(via_cli, case.expected), f"check --format json on {case.name}:{diff(via_cli, case.expected)}"
    errors = [f for f in payload["findings"] if f["severity"] == "error"]
    assert exit_code == (1 if errors else 0)
    summary = payload["summary"]
    assert summary["total"] == len(payload["findings"])
    for word in ("error", "warning", "information", "hint"):
        assert summary[word] == sum(1 for f in payload["findings"] if f["severity"] == word), word
    assert summary["files"] == len({f["path"] for f in payload["findings"]})
    for f in payload["findings"]:
        assert set(f) >= {"code", "severity", "message", "path", "range", "fingerprint"}
        assert len(f["fingerprint"]) == 64
