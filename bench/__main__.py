"""Run every benchmark module (bench/bench_*.py) or the ones named on the command line.

Each module exposes ``main() -> None`` and prints its own numbers; results are never asserted.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    here = Path(__file__).parent
    names = argv or sorted(p.stem for p in here.glob("bench_*.py"))
    for name in names:
        module = importlib.import_module(f"bench.{name if name.startswith('bench_') else 'bench_' + name}")
        print(f"== {module.__name__} ==", flush=True)
        module.main()
        print(flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
