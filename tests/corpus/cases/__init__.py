"""The corpus: every case table, and the cases that show a known bug of a module not owned here."""

from __future__ import annotations

from corpus.cases import contracts, fences, files, json_syntax, matrix, tasks_state
from corpus.harness import Case

ALL: list[Case] = [
    *json_syntax.CASES,
    *fences.CASES,
    *contracts.CASES,
    *matrix.CASES,
    *tasks_state.CASES,
    *files.CASES,
]
