"""The authoring features on the 900-line 009 spec of the reference repository: semantic
tokens, folding and selection ranges, document highlights, rename (planning only), formatting
and inlay hints. "cold" is a fresh analysis host per run (every file read, parsed and indexed
again); "after a keystroke" is the first answer of a new revision after an edit of the spec's
buffer (what an editor asks while the user types); "warm" is the same snapshot asked again
(each answer is kept per revision). Then, on a workspace of ``--features`` real features (500
by default, 0 to skip; ``bench/workspace.py``), the tokens of the active spec and rename
planning. Results are printed, never asserted."""

from __future__ import annotations

import argparse
import functools
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from gemstack_lsp.fs import DiskReader
from gemstack_lsp.host import AnalysisHost, Snapshot
from gemstack_lsp.ide.folding import document_folds
from gemstack_lsp.ide.formatting import FormatRefused, format_document
from gemstack_lsp.ide.highlight import document_highlights
from gemstack_lsp.ide.inlay_hints import inlay_hints
from gemstack_lsp.ide.rename import RenameRefused, plan_rename
from gemstack_lsp.ide.selection import selection_chains
from gemstack_lsp.ide.semantic_tokens import semantic_tokens

REPO = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "gemstack-reference" / "repo"
SPEC = "specs/009-context-capsule/spec.md"


def _median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def _fresh() -> Snapshot:
    return AnalysisHost(str(REPO), DiskReader(str(REPO))).snapshot()


def _cold(fn: Callable[[Snapshot], object]) -> object:
    return fn(_fresh())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench authoring")
    parser.add_argument(
        "--features", type=int, default=500, help="also measure on a workspace of this many features (0: skip)"
    )
    args = parser.parse_args(argv or [])
    _spec_features()
    if args.features:
        _workspace(args.features)


def _spec_features() -> None:
    text = (REPO / SPEC).read_text("utf-8")
    lines = text.count("\n")
    cursor = text.index('"id": "') + 8
    features: list[tuple[str, Callable[[Snapshot], object]]] = [
        ("semantic tokens (full)", lambda s: semantic_tokens(s, SPEC)),
        ("folding ranges", lambda s: document_folds(s, SPEC)),
        ("selection ranges (one cursor)", lambda s: selection_chains(s, SPEC, [cursor])),
        ("document highlight", lambda s: document_highlights(s, SPEC, cursor)),
        ("inlay hints", lambda s: inlay_hints(s, SPEC)),
    ]

    def rename(s: Snapshot) -> object:
        try:
            return plan_rename(s, SPEC, cursor, "renamed-contract", allow_frozen=True)
        except RenameRefused as exc:
            return exc

    def formatting(s: Snapshot) -> object:
        try:
            return format_document(s, SPEC)
        except FormatRefused as exc:
            return exc

    features += [("rename (plan every edit)", rename), ("formatting", formatting)]
    print(f"009 spec.md, {lines} lines")
    for label, fn in features:
        cold = _median_ms(functools.partial(_cold, fn), 10)
        snap = _fresh()
        fn(snap)
        warm = _median_ms(functools.partial(fn, snap), 200)
        host = AnalysisHost(str(REPO), DiskReader(str(REPO)))
        fn(host.snapshot())
        edits = iter(range(10_000))

        def keystroke(
            fn: Callable[[Snapshot], object] = fn, host: AnalysisHost = host, edits: Iterator[int] = edits
        ) -> object:
            host.set_buffer(SPEC, text.replace("\n", f"\nedit {next(edits)}\n", 1))
            return fn(host.snapshot())

        typed = _median_ms(keystroke, 30)
        print(
            f"{label}: cold {cold:.1f} ms (fresh host: every file read and parsed), "
            f"after a keystroke {typed:.1f} ms (new revision, other files memoised), warm {warm * 1000:.0f} µs"
        )


def _workspace(n: int) -> None:
    """Tokens after a keystroke, and renaming a contract (feature scope) and a provider
    (repository scope), on a workspace of ``n`` real features (``bench/workspace.py``)."""
    from bench.workspace import build

    ws = build(n)
    root = str(ws.root)
    host = AnalysisHost(root, DiskReader(root))
    snap = host.snapshot()
    spec_text = snap.repo.document(ws.spec).text or ""
    contract = spec_text.index('"id": "') + 8
    ledger = "cost-ledger.json"
    ledger_text = snap.repo.document(ledger).text or ""
    provider = ledger_text.index('"providers": {') + len('"providers": {') + 6
    t = time.perf_counter()
    semantic_tokens(snap, ws.spec)
    first = (time.perf_counter() - t) * 1000
    edits = iter(range(10_000))

    def keystroke() -> object:
        host.set_buffer(ws.spec, spec_text.replace("\n", f"\nedit {next(edits)}\n", 1))
        return semantic_tokens(host.snapshot(), ws.spec)

    typed = _median_ms(keystroke, 10)
    host.remove_buffer(ws.spec)

    def rename_at(path: str, offset: int, new: str) -> float:
        """The first rename of a new revision (an edit elsewhere), with every file memoised."""
        runs = iter(range(10_000))

        def run() -> object:
            host.set_buffer("README.md", f"edit {next(runs)}\n")
            try:
                return plan_rename(host.snapshot(), path, offset, new, allow_frozen=True)
            except RenameRefused as exc:
                return exc

        run()
        return _median_ms(run, 5)

    contract_ms = rename_at(ws.spec, contract, "renamed-contract")
    provider_ms = rename_at(ledger, provider, "renamed-provider")
    print(
        f"{n} features: semantic tokens of the active spec {first:.0f} ms on the first request, {typed:.1f} ms "
        f"after a keystroke; rename planning (the repository index built again): a contract {contract_ms:.1f} ms, "
        f"a provider (every document) {provider_ms:.1f} ms"
    )
