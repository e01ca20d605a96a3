"""Linear time: every scanner and matcher of a repository's text grows linearly with its input.

Each adversarial input (long runs, repeated prefixes of every pattern, deep nesting) is run at
a size and at four times that size; the CPU time (``time.process_time``, the best of three)
must grow by less than 9x (linear is about 4x, quadratic about 16x). No wall-clock limit.

The patterns rewritten for linear time are also compared with the reference's original
regular expressions on random small inputs: same matches, same groups.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable

import pytest

from gemstack_lsp.core import tasks
from gemstack_lsp.core.capsule import extract
from gemstack_lsp.core.jscompat import JS_DOT, JS_WS_CLASS
from gemstack_lsp.core.plaintext import markdown_to_plaintext
from gemstack_lsp.core.redact import redact


def _cpu(fn: Callable[[str], object], text: str) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        fn(text)
        best = min(best, time.process_time() - start)
    return max(best, 2e-4)


def _ledger_audit(text: str) -> object:
    import datetime as dt

    from gemstack_lsp.core.cost.ledger import load_ledger

    result = load_ledger("cost-ledger.json", text, now=dt.datetime(2026, 12, 3, tzinfo=dt.UTC))
    assert any("secret" in f.message.lower() or "SECRET" in f.code for f in result.findings), result.findings
    return result


ADVERSARIAL: dict[str, tuple[Callable[[str], object], Callable[[int], str]]] = {
    "task header and spaces": (tasks.parse_tasks, lambda n: "- [ ] **T1:" + " " * n + "x\n"),
    "task header, x and spaces": (tasks.parse_tasks, lambda n: "- [ ] **T1: x" + " " * n + "\n"),
    "task comment and spaces": (
        tasks.parse_tasks,
        lambda n: "- [ ] **T1: x**\n  <!-- gemstack:tests=" + " " * n + "\n",
    ),
    "repeated task comment openings": (
        tasks.parse_tasks,
        lambda n: "- [ ] **T1: x**\n  -->" + "<!-- gemstack:files=a" * (n // 20) + "\n",
    ),
    "spec heading, number and spaces": (extract.extract_invariants, lambda n: "# 1." + " " * n + "\u2028\nMUST x\n"),
    "spec heading and a run of ' #'": (extract.first_heading, lambda n: "# x" + " #" * (n // 2) + "y\n"),
    "section heading and a run of ' #'": (
        lambda t: extract.sections(t, re.compile("Deferred")),
        lambda n: "## x" + " #" * (n // 2) + "y\n- a\n",
    ),
    "hover heading and a run of ' #'": (markdown_to_plaintext, lambda n: "# x" + " #" * (n // 2) + "y\n"),
    "hover: a line of backticks": (markdown_to_plaintext, lambda n: "`" * n + "\n"),
    "hover: lines of backticks": (markdown_to_plaintext, lambda n: ("`" * 399 + "\n") * (n // 400)),
    "hover: unclosed bold and links": (markdown_to_plaintext, lambda n: ("**a [" * 79 + "\n") * (n // 400)),
    "secret: repeated -----BEGIN": (redact, lambda n: "-----BEGIN" * (n // 10) + "PRIVATE KEY"),
    "secret: repeated ghp_": (redact, lambda n: "ghp_" * (n // 4)),
    "secret: Bearer and spaces": (redact, lambda n: "Bearer" + " " * n + "!"),
    "ledger: a provider id of repeated -----BEGIN": (
        _ledger_audit,
        lambda n: json.dumps(
            {
                "version": 1,
                "currency": "USD",
                "providers": {
                    "-----BEGIN" * (n // 10) + "-----BEGIN PRIVATE KEY-----": {"type": "COMMERCIAL", "capabilities": {}}
                },
            }
        ),
    ),
}


@pytest.mark.parametrize("name", list(ADVERSARIAL))
def test_time_grows_linearly(name: str) -> None:
    fn, make = ADVERSARIAL[name]
    small, large = make(16_000), make(64_000)
    ratio = _cpu(fn, large) / _cpu(fn, small)
    assert ratio < 9, f"{name}: 4x the input cost {ratio:.1f}x the CPU time"


# --- The rewritten patterns match what the reference's expressions match ----------------------

_REFERENCE_HEADER = re.compile(
    rf"^[*-]{JS_WS_CLASS}+\[([ xX])\]{JS_WS_CLASS}+\*\*([A-Za-z0-9_-]+):{JS_WS_CLASS}*({JS_DOT}*?)\*\*"
)
_REFERENCE_COMMENT = re.compile(rf"<!--{JS_WS_CLASS}*gemstack:tests=({JS_DOT}*?){JS_WS_CLASS}*-->")
_REFERENCE_HEADING = re.compile(rf"^#{{1,4}}{JS_WS_CLASS}+(?:(\d+(?:\.\d+)?)\.?{JS_WS_CLASS}*)?({JS_DOT}*?)$")
_REFERENCE_ANY_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$")


def _random_line(rng: random.Random, pieces: list[str]) -> str:
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 9)))


def test_task_headers_match_the_reference_expression() -> None:
    rng = random.Random(11)
    pieces = ["- ", "* ", "[ ]", "[x]", " ", "**", "T1", ":", "a", "\u2028", "\t", "*"]
    for _ in range(4000):
        line = _random_line(rng, pieces)
        reference = _REFERENCE_HEADER.match(line)
        parsed = tasks.parse_tasks(line).tasks
        assert (reference is None) == (not parsed), line
        if reference and parsed:
            assert parsed[0].id == reference.group(2), line
            assert parsed[0].title == extract.js_trim(reference.group(3)), line


def test_task_comments_match_the_reference_expression() -> None:
    rng = random.Random(12)
    pieces = ["<!--", " ", "gemstack:tests=", "a", ",", "-->", "\t", "-", ">"]
    for _ in range(4000):
        line = _random_line(rng, pieces)
        reference = _REFERENCE_COMMENT.search(line)
        parsed = tasks.parse_tasks(f"- [ ] **T1: x**\n  {line}\n")
        comments = [c for t in parsed.tasks for c in t.comments if c.kind == "tests"]
        assert (reference is None) == (not comments), line
        if reference and comments:
            start = len("- [ ] **T1: x**\n  ")
            value = comments[0].value_span
            assert (value.start - start, value.end - start) == reference.span(1), line


def test_spec_headings_match_the_reference_expression() -> None:
    rng = random.Random(13)
    pieces = ["#", "# ", " ", "1", ".", "2", "a", "\u2028", "\t", "\u00a0"]
    for _ in range(4000):
        line = _random_line(rng, pieces)
        reference = _REFERENCE_HEADING.match(line)
        ours = extract._heading_ref(line)
        if reference is None:
            assert ours is None, line
        else:
            expected = (
                f"spec.md#{reference.group(1)}"
                if reference.group(1) is not None
                else "spec.md#" + extract._WS_RUN.sub("-", extract.js_trim(reference.group(2)).lower())
            )
            assert ours == expected, line


def test_atx_headings_match_the_reference_expression() -> None:
    rng = random.Random(14)
    pieces = ["#", "# ", " ", "\t", "a", "#b", " #"]
    for _ in range(4000):
        line = _random_line(rng, pieces)
        reference = _REFERENCE_ANY_HEADING.match(line)
        ours = extract._any_heading(line)
        assert (reference is None) == (ours is None), line
        if reference and ours:
            assert (len(reference.group(1)), reference.group(2)) == ours, line


def test_memory_per_json_document_is_bounded() -> None:
    """An 8 MB array of zeros used to cost 2 GB of span nodes; past ``MAX_VALUES`` the parse
    stops with an error at that value, whatever the size (tracemalloc's peak, not wall time)."""
    import tracemalloc

    from gemstack_lsp.core.jsonspan import MAX_VALUES, TOO_MANY_VALUES, parse_json

    def peak(text: str) -> int:
        tracemalloc.start()
        result = parse_json(text)
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert not result.ok and result.errors[0].message == TOO_MANY_VALUES
        return top

    small = peak("[" + "0," * (MAX_VALUES + 10) + "0]")
    large = peak("[" + "0," * (4 * MAX_VALUES) + "0]")
    assert large < 1.5 * small + 2_000_000, (small, large)
    ok = parse_json("[" + "0," * (MAX_VALUES - 2) + "0]")
    assert ok.ok
