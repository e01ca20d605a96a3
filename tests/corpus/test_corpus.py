"""The adversarial corpus through `gemstack-lsp check --format json` and through ``analyze``.

Each case (``tests/corpus/cases/``) is a small repository written to tmp_path and the exact
documents findings it must produce, as (code, path, 0-based line, UTF-16 column). Cases that
show a bug of a module this corpus does not own are in ``test_known_bugs.py``-style functions
below (cases in ``cases/known_bugs.py``), one test function per bug, and fail until the bug is
fixed in the module its docstring names.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from corpus.cases import ALL, known_bugs
from corpus.harness import Case, check_case


@pytest.mark.parametrize("case", ALL, ids=str)
def test_case(case: Case, tmp_path: Path, capsys: Any) -> None:
    check_case(tmp_path, case, capsys)


def test_reference_fixture_has_no_documents_findings(capsys: Any) -> None:
    """The reference repository is valid: no documents finding at all, through both paths."""
    from corpus.harness import analyze_positions, cli_json, cli_positions

    root = Path(__file__).resolve().parent.parent / "fixtures" / "gemstack-reference" / "repo"
    assert analyze_positions(root)[0] == []
    _, payload = cli_json(root, capsys)
    assert cli_positions(payload) == []


def test_corpus_names_are_unique() -> None:
    names = [c.name for c in ALL]
    assert len(names) == len(set(names))


# ----------------------------------------------------------------------------------------------
# Known bugs of modules this corpus does not own. Each expectation is the correct behaviour.


@pytest.mark.parametrize("case", known_bugs.LONG_INTEGER, ids=str)
def test_bug_jsonspan_long_integer(case: Case, tmp_path: Path, capsys: Any) -> None:
    """core/jsonspan.py ``_Parser.scalar``: ``int(raw)`` raises ValueError for an integer literal of
    more than 4300 digits (Python's int-from-string limit), which JSON.parse reads as a number.
    In a block the parser becomes GEMSTACK_INTERNAL_ERROR instead of its findings; in
    state.json it made the whole documents check fail (now contained to state.json by
    core/documents.py, but still an internal error). Expected: a number (e.g. ``float(raw)``,
    infinite, when the digits are too many), and the block's ordinary findings."""
    check_case(tmp_path, case, capsys)


@pytest.mark.parametrize("case", known_bugs.HUGE_NUMBER_IN_MESSAGE, ids=str)
def test_bug_blocks_js_number_overflow(case: Case, tmp_path: Path, capsys: Any) -> None:
    """core/blocks/base.py ``js_number``: ``float(value)`` raises OverflowError for an integer above
    the float range (a 401-digit literal), so any rule whose message renders the number (contract
    type, BOUNDARY value, gate type, matrix id shown by ``js_string``) turns the whole block into
    GEMSTACK_INTERNAL_ERROR. JavaScript renders such a number as "Infinity"; expected: the
    block's ordinary findings."""
    check_case(tmp_path, case, capsys)


@pytest.mark.parametrize("case", known_bugs.DEEP_NESTING_SCHEMA_BLOCKS, ids=str)
def test_bug_jsonspan_to_python_recursion(case: Case, tmp_path: Path, capsys: Any) -> None:
    """core/jsonspan.py ``JsonArray.to_python`` / ``JsonObject.to_python`` are recursive: the schema
    validation of gemstack-capabilities and gemstack-billable-actions (blocks/base.py
    ``schema_issues`` calls ``root.to_python()``) raises RecursionError on arrays nested about
    600 deep, which JSON.parse reads fine; the block becomes GEMSTACK_INTERNAL_ERROR. Expected:
    the schema finding on the first item (it is not an object)."""
    check_case(tmp_path, case, capsys)


@pytest.mark.parametrize("case", known_bugs.DEEP_NESTING_CAPSULE, ids=str)
def test_bug_capsule_parse_json_recursion(case: Case, tmp_path: Path, capsys: Any) -> None:
    """core/capsule/canonical.py ``parse_json`` (``json.loads``, reached from capsule/verify.py
    ``opted_in`` -> extract.py ``read_contracts``) lets RecursionError escape on a contracts block
    nested about 1000 deep, so the whole capsule check fails with GEMSTACK_INTERNAL_ERROR (the
    documents findings are right). Expected: no internal error (treat it as unparsable)."""
    check_case(tmp_path, case, capsys)


@pytest.mark.parametrize("case", known_bugs.FEATURE_FOLDER_SYMLINK_OUTSIDE, ids=str)
def test_bug_fs_refuses_before_existence(case: Case, tmp_path: Path, capsys: Any) -> None:
    """gemstack_lsp/fs.py ``DiskReader._resolve`` refuses any path whose real location is outside
    the repository before looking whether the file exists, so behind a feature folder that is a
    symlink leading outside, plan.md and tasks.md that do not exist are reported
    ARTIFACT_UNREADABLE ("it is a symbolic link that leads outside the repository (resolves to
    .../plan.md)"), unlike absent files everywhere else (no finding). Expected: a finding for each
    file that exists behind the link (an existence check, e.g. ``os.path.lexists`` on the real
    path, reads nothing), none for the absent ones. The same happens for a ``.gemstack`` folder
    linked outside without a state.json."""
    check_case(tmp_path, case, capsys)


@pytest.mark.parametrize("case", known_bugs.INFO_STRING_UNICODE_WHITESPACE, ids=str)
def test_bug_markdown_info_string_unicode_whitespace(case: Case, tmp_path: Path, capsys: Any) -> None:
    """core/markdown.py ``_kind_of`` takes the info string's first word by splitting on space and
    tab only. CommonMark's words are separated by Unicode whitespace (Zs, tab, line feed, form
    feed, carriage return), and the reference right-trims the opener with JavaScript's
    whitespace. So for ```` ```gemstack-contracts<U+00A0> ```` (or U+3000, or a form feed) the
    reference reads and enforces the block while gemstack-lsp neither recognises nor parses it:
    its broken JSON goes unreported, and FENCE_UNSEEN_BY_REFERENCE claims Markdown reads the info
    string as something else. Expected: the block is a gemstack-contracts block (its JSON error
    reported); FENCE_UNSEEN_BY_REFERENCE only where the reference would not read the opener
    (a second word after the no-break space), not where it would (``_issue`` should compare the
    JS-trimmed info with the kind)."""
    check_case(tmp_path, case, capsys)
