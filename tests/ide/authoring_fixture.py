"""Fixture-driven tests of the IDE layer: a multi-file repository in one text, a cursor, and
the expected answer checked in beside it.

A fixture (``tests/ide/authoring/<feature>/<case>.fixture``) is a repository written as one
text: each file starts with a line ``//- <repository-relative path>``; ``$0`` marks the
cursor (in at most one file; it is removed from the text). Lines starting with ``//@ `` before
the first file are options (``//@ new-name: TEST-X-B01``). The expected answer, rendered as
readable text, is ``<case>.expect`` beside it. With ``UPDATE_EXPECT=1`` in the environment a
test rewrites the ``.expect`` file instead of comparing (review the diff before committing).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.text import SourceText, Span
from gemstack_lsp.host import AnalysisHost, Snapshot

ROOT = Path(__file__).parent / "authoring"
CURSOR = "$0"


@dataclass(frozen=True)
class Fixture:
    """A parsed fixture: the files, the cursor (file and offset) and the options."""

    name: str
    files: dict[str, str]
    cursor_path: str | None
    cursor: int | None
    options: dict[str, str]

    def snapshot(self) -> Snapshot:
        return AnalysisHost("/repo", MemoryReader(dict(self.files))).snapshot()


def parse_fixture(name: str, text: str) -> Fixture:
    files: dict[str, list[str]] = {}
    options: dict[str, str] = {}
    current: str | None = None
    for line in text.splitlines(keepends=True):
        if line.startswith("//- "):
            current = line[4:].strip()
            files[current] = []
        elif current is None:
            if line.startswith("//@ ") and ":" in line:
                key, value = line[4:].split(":", 1)
                options[key.strip()] = value.strip()
        else:
            files[current].append(line)
    texts = {path: "".join(lines) for path, lines in files.items()}
    cursor_path = next((p for p, t in texts.items() if CURSOR in t), None)
    cursor = None
    if cursor_path is not None:
        cursor = texts[cursor_path].index(CURSOR)
        texts[cursor_path] = texts[cursor_path].replace(CURSOR, "", 1)
    return Fixture(name, texts, cursor_path, cursor, options)


def fixtures(feature: str) -> Iterator[Path]:
    yield from sorted((ROOT / feature).glob("*.fixture"))


def where(snapshot: Snapshot, path: str, span: Span) -> str:
    """``path line:col-line:col `text``` (1-based lines, columns in characters)."""
    text = snapshot.repo.document(path).text or ""
    source = SourceText(text)
    a, b = source.position(span.start, "utf-32"), source.position(span.end, "utf-32")
    covered = text[span.start : span.end]
    shown = covered if len(covered) <= 60 and "\n" not in covered else covered.split("\n", 1)[0][:57] + "..."
    return f"{path} {a.line + 1}:{a.character + 1}-{b.line + 1}:{b.character + 1} `{shown}`"


def check_expect(fixture_path: Path, actual: str) -> None:
    """Compare ``actual`` with the checked-in ``.expect`` file (or rewrite it, UPDATE_EXPECT=1)."""
    expect_path = fixture_path.with_suffix(".expect")
    if os.environ.get("UPDATE_EXPECT") == "1":
        expect_path.write_text(actual, "utf-8")
        return
    assert expect_path.exists(), f"{expect_path.name} is missing: run with UPDATE_EXPECT=1 and review it"
    expected = expect_path.read_text("utf-8")
    assert actual == expected, f"{fixture_path.name}: the answer differs from {expect_path.name}"
