"""``python -m gemstack_lsp.provenance <command> [flags]``."""

from __future__ import annotations

import sys

from gemstack_lsp.provenance.cli import main

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
