"""Random edit sequences: after every edit the host's incremental findings equal a fresh analysis.

Each sequence types into the demo repository's buffers the way an author (or a careless merge)
would: characters and whole lines inserted and deleted anywhere, fences opened, closed and
broken, block bodies and boundaries moved, the context capsule, tasks.md, state.json (its phase
hashes and active spec) and a repository-level JSON file edited, files reverted and buffers
closed. Whatever the host reuses (parses of unchanged blocks, the parts of a unit that did not
read the edited file, summaries of unchanged documents) must leave its findings exactly those
of ``analyze`` over the same texts from scratch. The sequences are seeded: a failure replays.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gemstack_lsp.core.reader import OverlayReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.fs import DiskReader
from gemstack_lsp.host import AnalysisHost

FEATURE = "specs/009-context-capsule"
FILES = (
    f"{FEATURE}/spec.md",
    f"{FEATURE}/spec.md",
    f"{FEATURE}/spec.md",
    f"{FEATURE}/plan.md",
    f"{FEATURE}/tasks.md",
    f"{FEATURE}/context-capsule.json",
    ".gemstack/state.json",
    "package.json",
)
#: Fragments that move what the parsers see: fences, block boundaries, JSON, task metadata.
SNIPPETS = (
    "x",
    "é",
    "\n",
    "```",
    "\n```\n",
    "\n```gemstack-test-matrix\n[]\n```\n",
    '\n```gemstack-contracts\n[{"id": "C-X"}]\n```\n',
    "\n    ```gemstack-contracts\n",
    "~~~\n",
    '"id": "TEST-CONTEXT-Z99", ',
    "{",
    "}",
    "]",
    ",",
    "- [x] T999 done\n",
    "<!-- gemstack:actions=send-email -->\n",
    "# Heading\n",
    '"0000000000000000000000000000000000000000000000000000000000000000"',
    "sk-" + "q" * 30,
)


@pytest.fixture
def root(demo_copy: Path) -> Path:
    return demo_copy


def _fresh(root: Path, buffers: dict[str, str]) -> list[object]:
    return list(analyze(GemstackRepo(str(root), OverlayReader(DiskReader(root), buffers))))


def _original(root: Path, rel: str) -> str:
    path = root / rel
    return path.read_text("utf-8") if path.exists() else ""


def _edit(rng: random.Random, text: str) -> str:
    """One random edit of ``text``: an insertion, a deletion or a replacement, often at a line
    start (where fences live) or inside a fence line."""
    lines = [i for i, ch in enumerate(text) if ch == "\n"]
    fences = [i for i in range(len(text)) if text.startswith("```", i) and (i == 0 or text[i - 1] == "\n")]
    roll = rng.random()
    if fences and roll < 0.3:
        at = rng.choice(fences) + rng.randint(0, 3)
    elif lines and roll < 0.5:
        at = rng.choice(lines) + 1
    else:
        at = rng.randint(0, len(text))
    at = min(at, len(text))
    op = rng.random()
    if op < 0.5:
        return text[:at] + rng.choice(SNIPPETS) + text[at:]
    if op < 0.8:
        return text[:at] + text[at + rng.randint(1, 40) :]
    return text[:at] + rng.choice(SNIPPETS) + text[at + rng.randint(1, 12) :]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_edit_sequences_keep_incremental_findings_equal_to_a_fresh_analysis(root: Path, seed: int) -> None:
    rng = random.Random(seed)
    host = AnalysisHost(str(root), DiskReader(root))
    assert list(host.snapshot().findings()) == _fresh(root, {})
    for step in range(24):
        rel = rng.choice(FILES)
        buffers = host.buffers
        roll = rng.random()
        if rel in buffers and roll < 0.1:
            host.remove_buffer(rel)  # closed: the disk is the truth again
        elif rel in buffers and roll < 0.2:
            host.set_buffer(rel, _original(root, rel))  # reverted: frozen hashes match again
        else:
            host.set_buffer(rel, _edit(rng, buffers.get(rel, _original(root, rel))))
        snapshot = host.snapshot()
        got = list(snapshot.findings())
        assert got == _fresh(root, host.buffers), f"seed {seed}, step {step}: {rel}"
        # The groups kept from the last call (regrouped where a unit dropped them) are the ones
        # a full regrouping gives, in path order.
        groups = dict(snapshot.findings_by_path())
        assert list(groups) == sorted(groups)
        assert groups == {p: g for p in host.paths_with_findings() if (g := host.group(p))}


def test_random_keystrokes_in_a_block_keep_findings_equal(root: Path) -> None:
    """Typing and erasing inside the spec's contracts block, one character at a time (what the
    keystroke benchmark does): every block after it only moves."""
    rng = random.Random(7)
    spec = f"{FEATURE}/spec.md"
    text = _original(root, spec)
    at = text.index('"description": "Upgrade D implementation must introduce zero') + 20
    host = AnalysisHost(str(root), DiskReader(root))
    host.snapshot().findings()
    for _ in range(12):
        if rng.random() < 0.6:
            text = text[:at] + rng.choice('ab"{},') + text[at:]
            at += 1
        else:
            at -= 1
            text = text[:at] + text[at + 1 :]
        host.set_buffer(spec, text)
        assert list(host.snapshot().findings()) == _fresh(root, {spec: text})
