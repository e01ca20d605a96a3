"""A tree-sitter JSON parser for Neovim 0.12's tests of the plugin's injection query.

Neovim ships parsers for Markdown but not for JSON (users get it from nvim-treesitter). The
tests build tree-sitter-json's generated C parser from its npm package (pinned by digest) into
a runtime folder (``parser/json.so`` and ``queries/json/highlights.scm``), as nvim-treesitter
would install it:

    .venv/bin/python -m tests.editors.ts_json        (run by `make nvim-deps`)
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

PACKAGE = "tree-sitter-json@0.24.8"
TARBALL = "tree-sitter-json-0.24.8.tgz"
SHA256 = "39e96d1e4231d200562ebd69105151cd43f58dda4b18a0e9a62fe2991da35b9c"
CACHE = Path(os.environ.get("GEMSTACK_TS_DIR", Path.home() / ".cache" / "gemstack-lsp-tests" / "nvim-ts-json"))


def runtime() -> Path | None:
    """The runtime folder, when it is built."""
    if (CACHE / "parser" / "json.so").is_file() and (CACHE / "queries" / "json" / "highlights.scm").is_file():
        return CACHE
    return None


def build() -> Path:
    """Fetches the package with `npm pack`, checks its digest, compiles the parser with cc."""
    done = runtime()
    if done is not None:
        return done
    with tempfile.TemporaryDirectory(prefix="gemstack-ts-json-") as tmp:
        work = Path(tmp)
        subprocess.run(["npm", "pack", "--silent", PACKAGE], cwd=work, check=True, capture_output=True, timeout=300)
        archive = work / TARBALL
        digest = hashlib.sha256(archive.read_bytes()).hexdigest()
        if digest != SHA256:
            raise SystemExit(f"{TARBALL}: sha256 {digest}, expected {SHA256}")
        with tarfile.open(archive) as tar:
            tar.extractall(work, filter="data")
        src = work / "package" / "src"
        (CACHE / "parser").mkdir(parents=True, exist_ok=True)
        (CACHE / "queries" / "json").mkdir(parents=True, exist_ok=True)
        out = CACHE / "parser" / "json.so.tmp"
        cc = os.environ.get("CC", "cc")
        subprocess.run(
            [cc, "-O2", "-shared", "-fPIC", "-std=c11", "-I", str(src), str(src / "parser.c"), "-o", str(out)],
            check=True,
            timeout=300,
        )
        shutil.copyfile(work / "package" / "queries" / "highlights.scm", CACHE / "queries" / "json" / "highlights.scm")
        out.replace(CACHE / "parser" / "json.so")
    return CACHE


if __name__ == "__main__":
    print(build())
