"""Run every benchmark module (bench/bench_*.py) or the ones named on the command line.

``python -m bench`` runs them all (``make bench``); ``python -m bench lsp check`` runs
``bench_lsp`` and ``bench_check``. Options after the names go to the modules that take them;
today that is ``bench_large`` (the language server on workspaces of 1, 500 and 2,000 real
features, memory over 3,000 edits, a profile of one keystroke, ``check`` at scale)::

    python -m bench large --features 500            # one size only
    python -m bench large --parts memory            # only the 3,000-edit memory run
    python -m bench large --parts lsp,profile --features 2000 --budget 30

See ``bench/bench_large.py`` for every option. Each module prints its own numbers; results are
never asserted.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    here = Path(__file__).parent
    first_option = next((i for i, a in enumerate(argv) if a.startswith("-")), len(argv))
    names, options = argv[:first_option], argv[first_option:]
    names = names or sorted(p.stem for p in here.glob("bench_*.py"))
    for name in names:
        module = importlib.import_module(f"bench.{name if name.startswith('bench_') else 'bench_' + name}")
        print(f"== {module.__name__} ==", flush=True)
        if inspect.signature(module.main).parameters:
            module.main(options)
        elif options:
            print(f"({module.__name__} takes no options; ignoring {' '.join(options)})")
            module.main()
        else:
            module.main()
        print(flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
