"""The framed reader on its own: every well-formed message is recovered, whatever malformed
bytes surround it (a property over random garbage, broken headers and lying lengths)."""

from __future__ import annotations

import asyncio
import json

from hypothesis import given
from hypothesis import strategies as st

from gemstack_lsp.server.transport import BadFrame, FrameReader


def _frame(n: int) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", "id": n, "method": "m", "params": {"text": "Content-Length: 5 é"}}).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


_GARBAGE = st.one_of(
    st.binary(max_size=40),
    st.text(alphabet='ab:\r\n {}"-', max_size=30).map(str.encode),
    st.integers(min_value=0, max_value=400).map(lambda n: b"Content-Length: %d\r\n\r\n" % n),
    st.sampled_from(
        [b"Content-Length: abc\r\n\r\n", b"content-length:", b"Content-Type: x", b"\r\n\r\n", b"Content-Length: 9"]
    ),
)


async def _read_all(data: bytes, chunk: int) -> list[bytes | BadFrame]:
    stream = asyncio.StreamReader()
    for i in range(0, len(data), chunk):
        stream.feed_data(data[i : i + chunk])
    stream.feed_eof()
    reader = FrameReader(stream)
    out: list[bytes | BadFrame] = []
    while (frame := await reader.next()) is not None:
        out.append(frame)
    return out


@given(st.lists(st.one_of(st.none(), _GARBAGE), max_size=12), st.integers(min_value=1, max_value=97))
def test_every_well_formed_message_is_recovered(pieces: list[bytes | None], chunk: int) -> None:
    data = b""
    expected = []
    for n, piece in enumerate(pieces):
        if piece is None:
            data += _frame(n)
            expected.append(n)
        else:
            data += piece
    # A last message after the garbage: it must come through too.
    data += _frame(999)
    expected.append(999)
    frames = asyncio.run(_read_all(data, chunk))
    ids = []
    for frame in frames:
        if isinstance(frame, bytes):
            try:
                ids.append(json.loads(frame)["id"])
            except (ValueError, KeyError, TypeError):
                continue
    assert [i for i in ids if i in expected] == expected


def test_a_clean_stream_has_no_bad_frames() -> None:
    data = b"".join(_frame(n) for n in range(50)) + b"\r\n" + _frame(50)
    frames = asyncio.run(_read_all(data, 7))
    assert [json.loads(f)["id"] for f in frames if isinstance(f, bytes)] == list(range(51))
    assert not any(isinstance(f, BadFrame) for f in frames)
