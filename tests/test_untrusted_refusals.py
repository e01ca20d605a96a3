"""Refusals, not tracebacks: hostile URIs and full or read-only disks get a clear answer."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.lspclient import Document, LspClient

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "gemstack-reference" / "repo"
SPEC = "specs/009-context-capsule/spec.md"


def _server(root: Path, log: Path) -> LspClient:
    return LspClient(root, ["sh", "-c", f'exec "{sys.executable}" -m gemstack_lsp serve 2>"{log}"'])


def test_hostile_uris_are_refused_without_a_traceback(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    log = tmp_path / "server.log"
    client = _server(root, log)
    try:
        assert client.initialize(timeout=60).answered
        base = root.as_uri()
        for uri in (f"{base}/specs/a%00b.md", f"{base}/specs/%ff%fe.md", f"{base}/specs/%ED%A0%80.md"):
            client.notify(
                "textDocument/didOpen",
                {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": "# x\n"}},
            )
            hover = client.request(
                "textDocument/hover",
                {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}},
                timeout=30,
            )
            assert hover.answered, uri
            command = client.request(
                "workspace/executeCommand", {"command": "gemstack.regenerateCapsule", "arguments": [uri]}, timeout=30
            )
            assert command.answered, uri
            if command.error is not None:
                assert "traceback" not in str(command.error.get("data") or "").lower(), command.error
    finally:
        client.close()
    assert "Traceback" not in log.read_text("utf-8", "replace")


@pytest.mark.parametrize("disk", ["full", "read-only"])
def test_regenerate_on_a_full_or_read_only_disk_is_a_clear_refusal(small_disk: Path, disk: str) -> None:
    root = small_disk / "repo"
    shutil.copytree(FIXTURE, root)
    if disk == "full":
        with (small_disk / "filler").open("wb", buffering=0) as handle, contextlib.suppress(OSError):
            while True:
                handle.write(b"\0" * 4096)
    else:
        subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    log = small_disk.parent / "server.log"
    client = _server(root, log)
    try:
        assert client.initialize(timeout=60).answered
        doc = Document(client, root / SPEC)
        doc.open()
        reply = client.request(
            "workspace/executeCommand", {"command": "gemstack.regenerateCapsule", "arguments": [doc.uri]}, timeout=60
        )
    finally:
        client.close()
    assert reply.answered and reply.error is not None
    message = reply.error["message"]
    assert ("disk is full" if disk == "full" else "read-only") in message, message
    assert "nothing was written" in message
    assert "traceback" not in str(reply.error.get("data") or "").lower()
    assert not list((root / "specs" / "009-context-capsule").glob("*.tmp")) and not list(
        (root / "specs" / "009-context-capsule").glob(".*.tmp")
    )
    assert "Traceback" not in log.read_text("utf-8", "replace")
