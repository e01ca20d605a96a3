"""A raw LSP client for benchmarks: JSON-RPC framing over a server subprocess's pipes.

No LSP library is involved, so the server is measured exactly as an editor sees it: every
message is a ``Content-Length`` framed JSON body, written by us and read by a reader thread
that timestamps what arrives. The client announces Neovim-0.11-like capabilities (push
diagnostics only, ``positionEncodings`` ``["utf-8", "utf-16"]``, work-done progress, dynamic
file watchers) and answers the server's own requests the way an editor would.

Every wait has a timeout and reports it (``Reply.answered`` is false, ``wait_publish``
returns ``None``); nothing here blocks forever.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def encode(message: Mapping[str, Any]) -> bytes:
    """One JSON-RPC message framed for the wire (``jsonrpc`` added when missing)."""
    body = json.dumps({"jsonrpc": "2.0", **message}, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class FramingError(Exception):
    """The stream holds something that is not a framed JSON-RPC message."""


class FrameReader:
    """Reads framed JSON-RPC messages from a binary stream; ``None`` at end of input."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream

    def read(self) -> dict[str, Any] | None:
        body = self.read_body()
        return None if body is None else decode(body)

    def read_body(self) -> bytes | None:
        """The next message's body, undecoded (``None`` at end of input)."""
        length: int | None = None
        while True:
            line = self._stream.readline()
            if not line:
                return None
            if line in (b"\r\n", b"\n"):
                if length is None:
                    raise FramingError("a header block without Content-Length")
                break
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                try:
                    length = int(value.strip())
                except ValueError as exc:
                    raise FramingError(f"bad Content-Length: {value!r}") from exc
        body = self._stream.read(length)
        if len(body) < length:
            return None
        return body


def decode(body: bytes) -> dict[str, Any]:
    """A message body as JSON; a body that is not a JSON object is a framing error."""
    message = json.loads(body.decode("utf-8"))
    if not isinstance(message, dict):
        raise FramingError("a message that is not a JSON object")
    return message


@dataclass(frozen=True)
class Reply:
    """What came back for one request: a result, an error, or nothing within the timeout."""

    answered: bool
    seconds: float
    result: Any = None
    error: Mapping[str, Any] | None = None

    def describe(self) -> str:
        if not self.answered:
            return f"no answer in {self.seconds:.1f} s"
        if self.error is not None:
            return f"error {self.error.get('code')} in {self.seconds * 1000:.1f} ms"
        return f"result in {self.seconds * 1000:.1f} ms"


def neovim_capabilities() -> dict[str, Any]:
    """Client capabilities shaped like Neovim 0.11's defaults (push diagnostics only)."""
    symbol_kinds = {"valueSet": list(range(1, 27))}
    return {
        "general": {"positionEncodings": ["utf-8", "utf-16"]},
        "window": {
            "workDoneProgress": True,
            "showMessage": {"messageActionItem": {"additionalPropertiesSupport": True}},
            "showDocument": {"support": True},
        },
        "workspace": {
            "applyEdit": True,
            "configuration": True,
            "workspaceFolders": True,
            "didChangeConfiguration": {"dynamicRegistration": False},
            "didChangeWatchedFiles": {"dynamicRegistration": True, "relativePatternSupport": True},
            "workspaceEdit": {"resourceOperations": ["rename", "create", "delete"]},
            "symbol": {"dynamicRegistration": False, "symbolKind": symbol_kinds},
            "semanticTokens": {"refreshSupport": True},
            "inlayHint": {"refreshSupport": True},
        },
        "textDocument": {
            "synchronization": {"dynamicRegistration": False, "willSave": True, "didSave": True},
            "publishDiagnostics": {
                "relatedInformation": True,
                "tagSupport": {"valueSet": [1, 2]},
                "dataSupport": True,
                "versionSupport": True,
            },
            "hover": {"dynamicRegistration": True, "contentFormat": ["markdown", "plaintext"]},
            "completion": {
                "dynamicRegistration": False,
                "completionItem": {
                    "snippetSupport": False,
                    "commitCharactersSupport": False,
                    "preselectSupport": False,
                    "deprecatedSupport": False,
                    "documentationFormat": ["markdown", "plaintext"],
                },
                "completionItemKind": {"valueSet": list(range(1, 26))},
                "contextSupport": True,
            },
            "definition": {"linkSupport": True},
            "references": {"dynamicRegistration": False},
            "documentSymbol": {"hierarchicalDocumentSymbolSupport": True, "symbolKind": symbol_kinds},
            "codeAction": {
                "dynamicRegistration": True,
                "isPreferredSupport": True,
                "dataSupport": True,
                "resolveSupport": {"properties": ["edit"]},
                "codeActionLiteralSupport": {
                    "codeActionKind": {"valueSet": ["", "quickfix", "refactor", "source", "source.organizeImports"]}
                },
            },
            "codeLens": {"dynamicRegistration": False, "resolveSupport": {"properties": ["command"]}},
            "documentLink": {"dynamicRegistration": False},
            "rename": {"dynamicRegistration": True, "prepareSupport": True},
            "semanticTokens": {
                "dynamicRegistration": False,
                "requests": {"range": False, "full": {"delta": True}},
                "tokenTypes": [],
                "tokenModifiers": [],
                "formats": ["relative"],
            },
        },
    }


def server_command() -> list[str]:
    """The venv's ``gemstack-lsp serve`` console script, or ``python -m gemstack_lsp serve``."""
    script = Path(sys.executable).with_name("gemstack-lsp")
    if script.exists():
        return [str(script), "serve"]
    return [sys.executable, "-m", "gemstack_lsp", "serve"]


def path_uri(path: Path) -> str:
    return path.resolve().as_uri()


class LspClient:
    """A language-server subprocess, the messages it sends, and blocking waits with timeouts."""

    def __init__(self, root: Path, command: list[str] | None = None) -> None:
        self.root = root
        self.spawned = time.perf_counter()
        self.proc = subprocess.Popen(
            command or server_command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=root,
        )
        self.encoding = "utf-16"
        self._write_lock = threading.Lock()
        self._cond = threading.Condition()
        self._replies: dict[int | str, tuple[float, dict[str, Any]]] = {}
        #: (uri, version) -> when the first publishDiagnostics of that version arrived.
        self._published: dict[tuple[str, int | None], float] = {}
        self.publish_count = 0
        self.progress_ends = 0
        self.closed = False
        self._next_id = 0
        threading.Thread(target=self._read, name="bench-lsp-reader", daemon=True).start()

    # --- the wire ------------------------------------------------------------------------

    def _read(self) -> None:
        stdout = self.proc.stdout
        assert stdout is not None
        reader = FrameReader(stdout)
        while True:
            # The time a message arrived is taken before decoding it: a large answer's JSON
            # parsing is the client's cost, not the server's latency.
            try:
                body = reader.read_body()
                now = time.perf_counter()
                message = None if body is None else decode(body)
            except (FramingError, ValueError, OSError):
                message = None
            if message is None:
                with self._cond:
                    self.closed = True
                    self._cond.notify_all()
                return
            method = message.get("method")
            if method is not None and "id" in message:
                self._answer_server_request(message)
                continue
            with self._cond:
                if method == "textDocument/publishDiagnostics":
                    params = message.get("params") or {}
                    self._published.setdefault((str(params.get("uri")), params.get("version")), now)
                    self.publish_count += 1
                elif method == "$/progress":
                    value = (message.get("params") or {}).get("value") or {}
                    if value.get("kind") == "end":
                        self.progress_ends += 1
                elif method is None and "id" in message:
                    self._replies[message["id"]] = (now, message)
                else:
                    continue
                self._cond.notify_all()

    def _answer_server_request(self, message: dict[str, Any]) -> None:
        method = message["method"]
        params = message.get("params") or {}
        if method == "workspace/configuration":
            self._send({"id": message["id"], "result": [None for _ in params.get("items", [])]})
        elif method in (
            "client/registerCapability",
            "client/unregisterCapability",
            "window/workDoneProgress/create",
            "window/showMessageRequest",
            "workspace/diagnostic/refresh",
            "workspace/codeLens/refresh",
            "workspace/semanticTokens/refresh",
            "workspace/inlayHint/refresh",
        ):
            self._send({"id": message["id"], "result": None})
        elif method == "workspace/applyEdit":
            self._send({"id": message["id"], "result": {"applied": False, "failureReason": "benchmark client"}})
        else:
            self._send({"id": message["id"], "error": {"code": -32601, "message": f"unhandled {method}"}})

    def _send(self, message: Mapping[str, Any]) -> None:
        data = encode(message)
        stdin = self.proc.stdin
        assert stdin is not None
        with self._write_lock:
            try:
                stdin.write(data)
                stdin.flush()
            except (BrokenPipeError, ValueError):
                pass

    def send_raw(self, message: Mapping[str, Any]) -> None:
        """Send a message exactly as given (for malformed requests)."""
        self._send(message)

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    def send_request(self, method: str, params: Any = None, *, omit_params: bool = False) -> int:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method}
        if not omit_params:
            message["params"] = params
        self._send(message)
        return self._next_id

    def cancel(self, msg_id: int) -> None:
        """Tell the server the answer to ``msg_id`` is no longer wanted (``$/cancelRequest``)."""
        self.notify("$/cancelRequest", {"id": msg_id})

    def wait_reply(self, msg_id: int, sent: float, timeout: float) -> Reply:
        deadline = sent + timeout
        with self._cond:
            while msg_id not in self._replies:
                left = deadline - time.perf_counter()
                if left <= 0 or self.closed:
                    return Reply(False, time.perf_counter() - sent)
                self._cond.wait(left)
            at, message = self._replies.pop(msg_id)
        return Reply(True, at - sent, message.get("result"), message.get("error"))

    def request(self, method: str, params: Any = None, *, timeout: float, omit_params: bool = False) -> Reply:
        sent = time.perf_counter()
        msg_id = self.send_request(method, params, omit_params=omit_params)
        return self.wait_reply(msg_id, sent, timeout)

    def wait_publish(self, uri: str, version: int | None, since: float, timeout: float) -> float | None:
        """Seconds from ``since`` to the first publish of ``uri`` at ``version`` (``None``: timeout)."""
        deadline = since + timeout
        key = (uri, version)
        with self._cond:
            while key not in self._published:
                left = deadline - time.perf_counter()
                if left <= 0 or self.closed:
                    return None
                self._cond.wait(left)
            return self._published[key] - since

    # --- lifecycle -------------------------------------------------------------------------

    def initialize(self, timeout: float) -> Reply:
        root_uri = path_uri(self.root)
        reply = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "clientInfo": {"name": "Neovim", "version": "0.11.4"},
                "rootUri": root_uri,
                "rootPath": str(self.root),
                "workspaceFolders": [{"uri": root_uri, "name": self.root.name}],
                "capabilities": neovim_capabilities(),
                "trace": "off",
            },
            timeout=timeout,
        )
        if reply.answered and isinstance(reply.result, dict):
            self.encoding = reply.result.get("capabilities", {}).get("positionEncoding") or "utf-16"
        self.notify("initialized", {})
        return reply

    def close(self) -> None:
        try:
            if not self.closed:
                self.request("shutdown", None, timeout=5)
                self.notify("exit", None)
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()
            self.proc.wait(timeout=5)

    # --- the server process ------------------------------------------------------------

    def rss_mib(self) -> float:
        """The server's resident set now."""
        return self._status_mib("VmRSS:")

    def peak_rss_mib(self) -> float:
        """The largest resident set the server has had so far (``VmHWM``)."""
        return self._status_mib("VmHWM:")

    def _status_mib(self, field: str) -> float:
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith(field):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return float("nan")

    def main_thread_cpu_seconds(self) -> float:
        """User plus system CPU time of the server's main thread (its event loop: the LSP layer)."""
        return self._stat_cpu(f"/proc/{self.proc.pid}/task/{self.proc.pid}/stat")

    def cpu_seconds(self) -> float:
        """User plus system CPU time of the server process so far."""
        return self._stat_cpu(f"/proc/{self.proc.pid}/stat")

    @staticmethod
    def _stat_cpu(path: str) -> float:
        try:
            stat = Path(path).read_text()
        except OSError:
            return float("nan")
        fields = stat[stat.rindex(")") + 2 :].split()
        # Fields 14 and 15 of stat(5) (utime, stime), counted after the "(comm)" field.
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


class Document:
    """An open buffer as the client holds it: its text, version and the edits it sends."""

    def __init__(self, client: LspClient, path: Path, text: str | None = None) -> None:
        self.client = client
        self.uri = path_uri(path)
        self.text = path.read_text("utf-8") if text is None else text
        self.version = 1

    def open(self) -> float:
        sent = time.perf_counter()
        self.client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": self.uri, "languageId": "markdown", "version": 1, "text": self.text}},
        )
        return sent

    def position(self, offset: int) -> dict[str, int]:
        """The LSP position of a character offset, in the negotiated encoding."""
        line = self.text.count("\n", 0, offset)
        start = self.text.rfind("\n", 0, offset) + 1
        prefix = self.text[start:offset]
        if self.client.encoding == "utf-8":
            character = len(prefix.encode("utf-8"))
        elif self.client.encoding == "utf-32":
            character = len(prefix)
        else:
            character = len(prefix.encode("utf-16-le")) // 2
        return {"line": line, "character": character}

    def edit(self, offset: int, delete: int, insert: str) -> float:
        """Replace ``delete`` characters at ``offset`` by ``insert``; returns when it was sent."""
        start = self.position(offset)
        end = self.position(offset + delete)
        self.text = self.text[:offset] + insert + self.text[offset + delete :]
        self.version += 1
        sent = time.perf_counter()
        self.client.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": self.uri, "version": self.version},
                "contentChanges": [{"range": {"start": start, "end": end}, "text": insert}],
            },
        )
        return sent


class Typist:
    """Realistic keystrokes in a spec: a phrase typed then erased, mostly in prose, every
    fourth phrase inside a gemstack block's JSON string (the text stays bounded forever)."""

    PHRASES = ("also in offline mode", "see the plan", "MUST hold", "(draft)")

    def __init__(self, text: str, prose_anchor: str, block_anchor: str) -> None:
        prose = text.index(prose_anchor)
        self.prose_at = text.index("\n", prose)  # the end of that prose line
        self.block_at = text.index(block_anchor) + len(block_anchor)  # inside a JSON string
        self._plan = self._keystrokes()

    def _keystrokes(self) -> list[tuple[str, int, str]]:
        plan: list[tuple[str, int, str]] = []
        for n, phrase in enumerate(self.PHRASES * 2):
            where = "block" if n % 4 == 3 else "prose"
            typed = " " + phrase
            for i, ch in enumerate(typed):
                plan.append((where, i, ch))
            for i in range(len(typed), 0, -1):
                plan.append((where, i - 1, ""))
        return plan

    def keystroke(self, doc: Document, n: int) -> float:
        """Send keystroke number ``n`` (typing or a backspace) to ``doc``; returns when sent."""
        where, i, ch = self._plan[n % len(self._plan)]
        base = self.block_at if where == "block" else self.prose_at
        if ch:
            return doc.edit(base + i, 0, ch)
        return doc.edit(base + i, 1, "")
