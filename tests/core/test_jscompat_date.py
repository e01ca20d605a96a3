"""``Date.parse`` as V8 reads it (core/jscompat.py), checked against a table Node produced and,
when Node is on the machine, against Node itself (issue 18: ledger dates JavaScript accepts)."""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gemstack_lsp.core.jscompat import js_date_parse, js_date_parse_ms

#: (string, Date.parse result in ms, None for NaN), produced by Node 20 with TZ=UTC:
#: ``node -e 'console.log(Date.parse(process.argv[1]))' '<string>'``.
NODE_TABLE: list[tuple[str, int | None]] = [
    ("2026-9-1", 1788220800000),
    ("2026-02-30", 1772409600000),
    ("Tue, 01 Sep 2026 00:00:00 GMT", 1788220800000),
    ("2026-09-01 10:00:00", 1788256800000),
    ("2026-08-31", 1788134400000),
    ("2026-08", 1785542400000),
    ("2026", 1767225600000),
    ("2026-08-31T10:00:00Z", 1788170400000),
    ("2026-08-31T10:00:00+02:00", 1788163200000),
    ("2026-08-31T10:00:00+0200", 1788163200000),
    ("2026/08/31", 1788134400000),
    ("Aug 31 2026", 1788134400000),
    ("2026-13-01", None),
    ("2026-00-10", None),
    ("soon", None),
    ("true", None),
    ("null", None),
    ("", None),
    ("9/1", 999302400000),
    ("Sep 1", 999302400000),
    ("September 1, 2026", 1788220800000),
    ("1 September 2026", 1788220800000),
    ("2026-09-01T24:00", 1788307200000),
    ("2026-09-01T24:00:01", None),
    ("+002026-09-01", 1788220800000),
    ("-000000-01-01", 978307200000),
    ("-000001-01-01", -62198755200000),
    ("31 Aug 2026 10:00 PM", 1788213600000),
    ("12:00 AM Sep 1 2026", 1788220800000),
    ("2026-09-01 10:00 GMT+0200", 1788249600000),
    ("2026-09-01 10:00 GMT+02:00", 1788249600000),
    ("2026-09-01 10:00 GMT-5", 1788274800000),
    ("Sep 1 2026 10:00:00 EST", 1788274800000),
    ("Sep 1 2026 10:00:00 PDT", 1788282000000),
    ("2026-09-01T10:00:00.123456Z", 1788256800123),
    ("2026-09-01T10:00:00.1Z", 1788256800100),
    ("(comment) Sep 1 2026", 1788220800000),
    ("Sep 1 2026 (PDT)", 1788220800000),
    ("Tue Sep 01 2026 00:00:00 GMT+0000 (Coordinated Universal Time)", 1788220800000),
    ("2026.09.01", 1788220800000),
    ("01.09.2026", 1767916800000),
    ("2026-9-1T10:00", None),
    ("99-1-1", 915148800000),
    ("49/1/1", 2493072000000),
    ("1/1/50", -631152000000),
    (" 2026-09-01 ", 1788220800000),
    ("2026-09-01Z", 1788220800000),
    ("2026-09-01T10Z", None),
    ("2026-09-01T10:00+0530", 1788237000000),
    ("12/31/2026 23:59:59.999", 1798761599999),
    ("Sep 2026", 1788220800000),
    ("2026 Sep", 1788220800000),
    ("2026-Sep-01", 1788220800000),
    ("01-Sep-2026", 1788220800000),
    ("0", 946684800000),
    ("123", -58285699200000),
    ("2026-02-29", 1772323200000),
    ("2024-02-29", 1709164800000),
    ("2026-09-01T10:00:00-24:00", None),
    ("2026-9-1 10:00:00 +05", 1788238800000),
    ("Thursday, September 3, 2026 7:00 PM", 1788462000000),
    ("2026-09-01 10:00 am", 1788256800000),
    ("2026-09-01 13:00 pm", None),
    ("10:00 2026-09-01", 1788256800000),
    ("Sep 1 2026 10:00:00 Z", 1788256800000),
    ("275760-09-13", 8640000000000000),
    ("+275760-09-13T00:00:00.000Z", 8640000000000000),
    ("+275760-09-13T00:00:00.001Z", None),
    ("99999999999-01-01", None),
    ("2026-09-01T10:00:00.1234567891Z", 1788256800123),
    ("Sept 1 2026", 1788220800000),
    ("1 Sepember 2026", 1788220800000),
    ("2026-09-01 Tue", None),
    ("Tue 2026-09-01", 1788220800000),
    ("2026-09-01T10:00:00 extra", None),
    ("Sep 1, 2026 at 10:00", None),
    ("2026-W36", None),
    ("20260901", None),
    ("2026-09-01T1000", None),
    ("2026-09-01T10:00:60", None),
    ("\u30002026-09-01", 1788220800000),
    ("2026-09-01\ufeff", 1788220800000),
    ("2026-09-01 (note", 1788220800000),
    ("Sep 1 2026 10:00 +5:30", 1788237000000),
]

#: Reads a JSON array of strings on stdin, writes the array of Date.parse results (NaN as null).
_NODE_SCRIPT = (
    "const c=[];process.stdin.on('data',d=>c.push(d));process.stdin.on('end',()=>{"
    "const a=JSON.parse(Buffer.concat(c).toString('utf8'));"
    "process.stdout.write(JSON.stringify(a.map(s=>{const v=Date.parse(s);return Number.isNaN(v)?null:v;})));});"
)


def _node_parse(strings: list[str]) -> list[int | None] | None:
    """Date.parse of each string in real Node (TZ=UTC), or None when Node is not installed."""
    node = shutil.which("node")
    if node is None:
        return None
    env = {"TZ": "UTC", "PATH": os.environ.get("PATH", "")}
    run = subprocess.run(
        [node, "-e", _NODE_SCRIPT], input=json.dumps(strings), capture_output=True, text=True, env=env, check=True
    )
    result: list[int | None] = json.loads(run.stdout)
    return result


@pytest.mark.parametrize(("text", "expected"), NODE_TABLE)
def test_date_parse_matches_the_table_node_wrote(text: str, expected: int | None) -> None:
    assert js_date_parse_ms(text) == expected


def test_the_forms_of_issue_18_are_dates() -> None:
    utc = dt.UTC
    assert js_date_parse("2026-9-1") == dt.datetime(2026, 9, 1, tzinfo=utc)
    assert js_date_parse("2026-02-30") == dt.datetime(2026, 3, 2, tzinfo=utc)  # rolls over
    assert js_date_parse("Tue, 01 Sep 2026 00:00:00 GMT") == dt.datetime(2026, 9, 1, tzinfo=utc)
    assert js_date_parse("2026-09-01 10:00:00") == dt.datetime(2026, 9, 1, 10, tzinfo=utc)  # local, read as UTC


def test_table_is_what_node_says_now() -> None:
    """The checked-in table, regenerated by the Node on this machine (skipped without Node)."""
    strings = [text for text, _ in NODE_TABLE]
    live = _node_parse(strings)
    if live is None:
        pytest.skip("node is not installed")
    assert list(zip(strings, live, strict=True)) == NODE_TABLE


_PIECES = [*"0123456789-:/.+ TZ,()", "Sep", "GMT", "PM", "am", "Tue", "UTC", "EST", "2026", "09", "01", "pdt", "+0530"]
_PIECES += ["-05:00", "24:00", "(x(y)z)", "\u00e9", "\u3000", "September", "T10:00", "Z"]


def test_random_date_strings_agree_with_node() -> None:
    """Thousands of strings built from date pieces: every result as Node's (skipped without Node)."""
    rng = random.Random(18)
    strings = ["".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 14))) for _ in range(5000)]
    live = _node_parse(strings)
    if live is None:
        pytest.skip("node is not installed")
    mismatches = [(s, n) for s, n in zip(strings, live, strict=True) if js_date_parse_ms(s) != n]
    assert mismatches == []


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_any_text_gives_a_time_value_or_nan(text: str) -> None:
    value = js_date_parse_ms(text)
    assert value is None or abs(value) <= 8_640_000_000_000_000


@settings(max_examples=300, deadline=None)
@given(st.dates(min_value=dt.date(1, 1, 1), max_value=dt.date(9999, 12, 31)))
def test_iso_dates_are_utc_midnight(day: dt.date) -> None:
    expected = dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)
    assert js_date_parse(day.isoformat()) == expected
    # The unpadded form goes through the older parser and names the same day (years > 99).
    if day.year > 99:
        assert js_date_parse(f"{day.year}-{day.month}-{day.day}") == expected


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1970, max_value=2100), st.integers(min_value=1, max_value=12), st.integers(1, 31))
def test_a_day_past_the_month_rolls_over(year: int, month: int, day: int) -> None:
    first = dt.datetime(year, month, 1, tzinfo=dt.UTC)
    assert js_date_parse(f"{year}-{month:02d}-{day:02d}") == first + dt.timedelta(days=day - 1)


@settings(max_examples=200, deadline=None)
@given(st.datetimes(min_value=dt.datetime(1970, 1, 1), max_value=dt.datetime(2200, 1, 1)))
def test_the_rfc_1123_form_reads_back(moment: dt.datetime) -> None:
    moment = moment.replace(microsecond=0, tzinfo=dt.UTC)
    text = moment.strftime("%a, %d %b %Y %H:%M:%S GMT")
    assert js_date_parse(text) == moment


def test_a_long_string_is_read_in_one_pass() -> None:
    """No backtracking: 200,000 characters of spaces, digits or parentheses parse at once."""
    for text in (" " * 200_000, "2026-09-01" + " " * 200_000 + "x", "(" * 100_000 + ")" * 100_000, "1" * 200_000):
        js_date_parse_ms(text)
