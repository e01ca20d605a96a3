"""`gemstack-lsp check` is read-only and offline: zero file mutations, zero sockets.

The reference `gemstack verify` writes a sidecar (``<feature>/.gemstack.json``); ours must not.
The tree is fingerprinted before and after (every path, its kind, size, mode, mtime and content
hash), and ``socket.socket`` is replaced by a function that fails the test if anything calls it.
"""

from __future__ import annotations

import hashlib
import os
import socket
import stat
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.cli import main


def tree_state(root: Path) -> dict[str, tuple[Any, ...]]:
    """Every entry under ``root`` (root included): kind, size, mode, mtime in ns, content hash."""
    out: dict[str, tuple[Any, ...]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in [".", *dirnames, *filenames]:
            p = Path(dirpath) / name if name != "." else Path(dirpath)
            st = p.lstat()
            digest = hashlib.sha256(p.read_bytes()).hexdigest() if stat.S_ISREG(st.st_mode) else None
            out[str(p.relative_to(root))] = (stat.S_IFMT(st.st_mode), st.st_size, st.st_mode, st.st_mtime_ns, digest)
    return out


class SocketOpened(AssertionError):
    pass


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_check_makes_no_mutation_and_opens_no_socket(
    reference_repo: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fmt: str,
) -> None:
    # A few deliberate problems so that every check path runs, including the finding paths.
    feature = reference_repo / "specs" / "008-cost-provider-safety-gates"
    (feature / "tasks.md").write_text("- [ ] **T001: no validation**\n", "utf-8")
    (reference_repo / "specs" / "009-context-capsule" / "plan.md").write_bytes(b"\xef\xbb\xbf# plan\n\xff\n")
    before = tree_state(reference_repo)

    opened: list[tuple[Any, ...]] = []

    def no_socket(*args: Any, **kwargs: Any) -> socket.socket:
        opened.append(args)
        raise SocketOpened("gemstack-lsp check opened a socket")

    monkeypatch.setattr(socket, "socket", no_socket)
    monkeypatch.setattr(socket, "create_connection", no_socket)
    monkeypatch.chdir(reference_repo)
    code = main(["check", "--format", fmt])
    out = capsys.readouterr().out

    assert opened == []
    assert code == 1
    assert "TASK_VALIDATION_MISSING" in out
    assert "ARTIFACT_ENCODING_INVALID" in out
    assert tree_state(reference_repo) == before
