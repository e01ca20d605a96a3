"""`gemstack-lsp plan <read-plan|snapshot|write-plan> ...`: the provenance CLI, verbatim."""

from __future__ import annotations

import argparse
from collections.abc import Sequence


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("args", nargs=argparse.REMAINDER, help="read-plan | snapshot | write-plan and their flags")


def run(args: argparse.Namespace) -> int:
    return run_raw(args.args)


def run_raw(argv: Sequence[str]) -> int:
    from gemstack_lsp.provenance.cli import main

    return main(list(argv))
