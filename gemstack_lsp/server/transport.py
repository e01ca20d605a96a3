"""The server's framed reader: LSP base-protocol messages from a byte stream, robust to bad frames.

A message is a header block (``Name: value`` lines, ended by an empty line) and a body of
``Content-Length`` bytes. Header names are case-insensitive and lines may end in CRLF or a bare
LF. A frame that cannot be read (no or a non-numeric length, a header line that is no header, a
body that is not JSON, a length that lies) is answered with a JSON-RPC parse error (-32700,
``id: null``) and the reader resynchronises on the next ``Content-Length`` header. Where it
cannot (the input ends), the connection is closed with a logged reason. It never goes silent.

A lying length is told from an honest one without timers: a JSON body never holds a raw line
break outside its strings, nor ``Content-Length`` outside them, so a ``Content-Length: <n>``
line ended by a raw line break inside the bytes of a body is the next message's header, and the
length that claimed those bytes was wrong.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Callable
from typing import Any

from gemstack_lsp.core.frozen import record

log = logging.getLogger(__name__)

#: The start of a message header: where the reader resynchronises after a bad frame.
RESYNC = re.compile(rb"content-length[ \t]*:[ \t]*[0-9]+[ \t]*\r?\n", re.IGNORECASE)
#: A header name (an RFC 9110 token).
_TOKEN = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
#: A header block longer than this is not one.
MAX_HEADER_BYTES = 64 * 1024
#: A body longer than this is refused (its length is taken for a lie).
MAX_BODY_BYTES = 1 << 26
_CHUNK = 1 << 16
#: How much of the discarded input is kept to find a header split across two reads.
_KEEP = 64


@record
class BadFrame:
    """A frame that could not be read, and why (the reader resynchronises after it)."""

    reason: str


class FrameReader:
    """Reads framed messages from an ``asyncio.StreamReader`` (``next()``)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._buf = bytearray()
        self._eof = False
        self._resync = False
        #: Why the connection ended when it did not end cleanly between two messages.
        self.close_reason: str | None = None

    async def _fill(self) -> bool:
        if self._eof:
            return False
        chunk = await self._stream.read(_CHUNK)
        if not chunk:
            self._eof = True
            return False
        self._buf += chunk
        return True

    async def _resynchronise(self) -> bool:
        """Discard input up to the next ``Content-Length`` header; False at end of input.

        The buffer starts after the bad header block, or at the bad header line, which is no
        ``Content-Length`` header itself: a match is always progress."""
        while True:
            match = RESYNC.search(self._buf)
            if match is not None:
                del self._buf[: match.start()]
                return True
            if len(self._buf) > _KEEP:
                del self._buf[:-_KEEP]
            if not await self._fill():
                return False

    async def next(self) -> bytes | BadFrame | None:
        """The next message body, a ``BadFrame``, or ``None`` when the input has ended."""
        if self._resync:
            self._resync = False
            if not await self._resynchronise():
                self.close_reason = "the input ended while looking for the next message after a malformed frame"
                return None
        headers, bad = await self._headers()
        if bad is not None or headers is None:
            return bad
        length = int(headers["content-length"])
        scanned = 0
        while True:
            # Only the bytes not yet looked at (and a header's length before them) are searched.
            match = RESYNC.search(self._buf, max(0, scanned - _KEEP), length + _KEEP)
            scanned = len(self._buf)
            if match is not None and match.start() < length:
                # The next message starts inside the claimed body: the length lied.
                del self._buf[: match.start()]
                return BadFrame(f"Content-Length {length} is wrong: a new message starts after {match.start()} bytes")
            if len(self._buf) >= length:
                break
            if not await self._fill():
                self.close_reason = f"the input ended inside a message body ({len(self._buf)} of {length} bytes)"
                return None
        body = bytes(self._buf[:length])
        del self._buf[:length]
        return body

    def _refuse(self, reason: str) -> tuple[None, BadFrame]:
        """A bad header block: resynchronise from just after where it began (the next header
        may start inside it, e.g. behind a body that was cut short)."""
        del self._buf[:1]
        self._resync = True
        return None, BadFrame(reason)

    async def _headers(self) -> tuple[dict[str, str] | None, BadFrame | None]:
        """The header block as lower-case names to values, consumed only once it is valid;
        ``(None, None)`` at end of input."""
        headers: dict[str, str] = {}
        pos = 0
        while True:
            newline = self._buf.find(b"\n", pos)
            if newline < 0:
                if len(self._buf) > MAX_HEADER_BYTES:
                    return self._refuse(f"the header is longer than {MAX_HEADER_BYTES} bytes")
                if not await self._fill():
                    if self._buf.strip():
                        self.close_reason = "the input ended inside a message header"
                    return None, None
                continue
            line = bytes(self._buf[pos:newline]).rstrip(b"\r")
            if not line.strip():
                if not headers:
                    del self._buf[: newline + 1]  # blank lines between messages are tolerated
                    pos = 0
                    continue
                pos = newline + 1
                break
            glued = RESYNC.search(line + b"\n", 1)
            if glued is not None:
                # A header glued to the rest of a broken line: the next message starts there.
                return self._refuse("a header line runs into the next message's header")
            name, sep, value = line.partition(b":")
            if not sep or not _TOKEN.fullmatch(name.strip()):
                return self._refuse(f"not a header line: {_shown(line.decode('latin-1'))}")
            headers[name.strip().decode("ascii").lower()] = value.strip().decode("latin-1")
            pos = newline + 1
        raw = headers.get("content-length")
        if raw is None:
            return self._refuse("the header has no Content-Length")
        if not raw.isdigit() or not raw.isascii():
            return self._refuse(f"Content-Length is not a number: {_shown(raw)}")
        if int(raw) > MAX_BODY_BYTES:
            return self._refuse(f"Content-Length {raw} exceeds the limit of {MAX_BODY_BYTES} bytes")
        del self._buf[:pos]
        return headers, None


def _shown(text: str) -> str:
    """Client bytes quoted in a reason: redacted, then cut."""
    from gemstack_lsp.core.redact import quote

    return quote(text, 40)


async def serve(stop_event: threading.Event, reader: FrameReader, endpoint: Any) -> None:
    """Hand every frame read to ``endpoint`` (``rpc.Endpoint.receive``; a bad frame to its
    ``malformed``) until the input ends or ``stop_event`` is set."""
    while not stop_event.is_set():
        frame = await reader.next()
        if frame is None:
            if reader.close_reason is not None:
                log.warning("closing the connection: %s", reader.close_reason)
            return
        if isinstance(frame, BadFrame):
            endpoint.malformed(frame.reason)
            continue
        endpoint.receive(frame)


#: Whitespace a JSON text writes as an escape: a "Bearer <token>" split by one is not seen
#: by the patterns on the text, only on the decoded value.
_ESCAPED_BEARER = re.compile(r"bearer\\[tnrfbu]", re.IGNORECASE)


#: Members whose string value is a URI the client needs as it is (a document to open, a
#: location to jump to): redaction never rewrites one into a URI that names nothing.
URI_MEMBERS = frozenset({"uri", "targetUri", "rootUri", "scopeUri", "newUri", "oldUri", "baseUri"})


def _is_uri(text: str) -> bool:
    return text.startswith("file:")


def redact_message(value: Any) -> Any:
    """A JSON message with every secret-looking string redacted, except URIs: the value of a
    URI member (``uri``, ``targetUri``...), any ``file:`` URI string, and the ``file:`` URIs a
    ``WorkspaceEdit``'s ``changes`` map is keyed by stay exactly as they are (iteratively, any depth)."""
    from gemstack_lsp.core.redact import redact_json

    return redact_json(value, keep=lambda member, text: member in URI_MEMBERS or _is_uri(text))


def outgoing_text(data: Any, serialize: Callable[[Any], Any]) -> str:
    """The JSON text of a message about to be sent, with every secret-looking string (property
    names included) redacted: the last guard, whichever feature built the message. URIs are
    never rewritten (``redact_message``). The text is made once; only when a secret pattern
    matches it is it decoded, redacted and made again."""
    from gemstack_lsp.core.redact import looks_secret

    text = json.dumps(data, default=serialize)
    if not looks_secret(text) and not _ESCAPED_BEARER.search(text):
        return text
    return json.dumps(redact_message(json.loads(text)))
