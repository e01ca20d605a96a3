"""The protocol layer recovers from a bad frame: the server, spawned as a subprocess and fed raw
bytes, answers the valid request behind every malformed frame, and shutdown too."""

from __future__ import annotations

import json
import queue
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.uris import path_to_uri

#: Raw bytes on a real stdin, the server's stderr: facts about the process.
pytestmark = pytest.mark.subprocess_server

#: A bound on the whole exchange, so a deaf server fails the test instead of hanging it.
WAIT = 120


def frame(message: dict[str, Any]) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def request(msg_id: int, method: str, params: Any = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}


def initialize(root: Path | None = None) -> bytes:
    params: dict[str, Any] = {"processId": None, "rootUri": path_to_uri(root) if root else None, "capabilities": {}}
    return frame(request(1, "initialize", params)) + frame({"jsonrpc": "2.0", "method": "initialized", "params": {}})


class Server:
    """The server in a subprocess, fed raw bytes; what it writes is parsed as it arrives."""

    def __init__(self, cwd: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gemstack_lsp", "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
        )
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        stdout = self.proc.stdout
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                byte = stdout.read(1)
                if not byte:
                    self.messages.put(None)
                    return
                header += byte
            match = re.match(rb"Content-Length: (\d+)\r\n", header)
            assert match is not None, header
            self.messages.put(json.loads(stdout.read(int(match.group(1)))))

    def send(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def wait_for(self, msg_id: int) -> dict[str, Any]:
        """The answer to request ``msg_id`` (a bounded wait: a deaf server fails the test)."""
        while True:
            message = self.messages.get(timeout=WAIT)
            assert message is not None, ("the server closed its output", self.seen)
            self.seen.append(message)
            if message.get("id") == msg_id and "method" not in message:
                return message

    def finish(self) -> str:
        """Shut down and exit, as a client does; the server's stderr."""
        self.send(frame(request(9999, "shutdown")))
        answer = self.wait_for(9999)
        assert answer.get("result") is None and "error" not in answer, answer
        self.send(frame({"jsonrpc": "2.0", "method": "exit"}))
        _, stderr = self.proc.communicate(timeout=WAIT)
        while True:
            message = self.messages.get(timeout=WAIT)
            if message is None:
                break
            self.seen.append(message)
        return stderr.decode("utf-8", "replace")


STATUS = json.dumps(request(77, "gemstack/status")).encode()

#: (name, the malformed bytes, whether a parse error must answer them)
MALFORMED = [
    ("non-numeric length", b'Content-Length: abc\r\n\r\n{"jsonrpc":"2.0","id":5,"method":"x"}', True),
    ("lf-only header", b"Content-Length: %d\n\n%s" % (len(STATUS), STATUS), False),
    ("lower-case header name", b"content-length: %d\r\n\r\n%s" % (len(STATUS), STATUS), False),
    ("length too long", b'Content-Length: 5000\r\n\r\n{"jsonrpc":"2.0","id":5,"method":"x"}', True),
    ("length too short", b'Content-Length: 10\r\n\r\n{"jsonrpc":"2.0","id":5,"method":"x"}', True),
    ("not a header line", b"this is no header\r\n\r\n{}", True),
    ("no content-length", b"Content-Type: application/json\r\n\r\n{}", True),
    ("body not json", b"Content-Length: 9\r\n\r\nnot json!", True),
    ("body not utf-8", b"Content-Length: 4\r\n\r\n\xff\xfe\xfd\xfc", True),
    ("json but no message", b"Content-Length: 2\r\n\r\n[]", False),
    ("absurd length", b"Content-Length: 99999999999999999\r\n\r\n{}", True),
    ("garbage between frames", b"\x00\x01garbage without a newline", False),
]


@pytest.mark.parametrize(("name", "bad", "parse_error"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_bad_frame_is_answered_and_the_next_request_too(
    tmp_path: Path, name: str, bad: bytes, parse_error: bool
) -> None:
    server = Server(tmp_path)
    server.send(initialize())
    server.wait_for(1)
    server.send(bad + frame(request(2, "gemstack/status")))
    assert "result" in server.wait_for(2)
    stderr = server.finish()
    errors = [m for m in server.seen if m.get("id") is None and m.get("error", {}).get("code") == -32700]
    if parse_error:
        assert errors, (name, server.seen, stderr)
    if name in ("lf-only header", "lower-case header name"):
        # Lenient framing: the request inside the frame is served.
        assert any(m.get("id") == 77 for m in server.seen) and not errors


def test_many_bad_frames_in_a_row_then_the_end_of_input(tmp_path: Path) -> None:
    server = Server(tmp_path)
    server.send(initialize())
    server.wait_for(1)
    server.send(b"".join(bad for _, bad, _ in MALFORMED) + frame(request(2, "gemstack/status")))
    server.wait_for(2)
    server.finish()
    # The input ends inside a body: the server says why it closes, and exits.
    server = Server(tmp_path)
    server.send(initialize())
    server.wait_for(1)
    server.send(b"Content-Length: 50\r\n\r\n{")
    assert server.proc.stdin is not None and server.proc.stderr is not None
    server.proc.stdin.close()
    server.proc.wait(timeout=WAIT)
    assert "closing the connection: the input ended inside a message body" in server.proc.stderr.read().decode()


def test_a_routine_refusal_is_logged_once_without_a_traceback(reference_repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    command = {"command": "gemstack.regenerateCapsule", "arguments": [str(outside)]}
    server = Server(tmp_path)
    server.send(initialize(reference_repo))
    server.wait_for(1)
    server.send(frame(request(2, "workspace/executeCommand", command)))
    answer = server.wait_for(2)
    assert answer["error"]["code"] == -32602, answer
    assert "outside the workspace" in answer["error"]["message"]
    stderr = server.finish()
    assert stderr.count("outside the workspace") == 1, stderr
    assert "Traceback" not in stderr
    errors = [m for m in server.seen if m.get("method") == "window/logMessage" and m["params"]["type"] == 1]
    assert errors == []


def test_a_change_to_a_document_never_opened_is_logged_once(tmp_path: Path) -> None:
    server = Server(tmp_path)
    server.send(initialize())
    server.wait_for(1)
    uri = path_to_uri(tmp_path / "never-opened.md")
    change = {
        "jsonrpc": "2.0",
        "method": "textDocument/didChange",
        "params": {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": "x"}]},
    }
    server.send(frame(change) + frame(change) + frame(request(2, "gemstack/status")))
    assert "result" in server.wait_for(2)
    stderr = server.finish()
    assert stderr.count("not open") == 1, stderr
    assert "KeyError" not in stderr and "Traceback" not in stderr
    errors = [m for m in server.seen if m.get("method") == "window/logMessage" and m["params"]["type"] == 1]
    assert errors == []
