"""A source's hash is the reference's hash of its bytes, however the document reached us.

``hash_source`` hashes the decoded text of a file (kept per text, so an unchanged source is not
decoded again on every keystroke) when that text is exactly what ``hash_bytes`` would decode;
these properties hold it to ``hash_bytes`` over bytes with invalid UTF-8, BOMs, CR line ends,
and over editor buffers (lone surrogates included).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gemstack_lsp.core.capsule.sources import SourceError, hash_source
from gemstack_lsp.core.hashing import BomError, hash_bytes
from gemstack_lsp.core.memo import Memo
from gemstack_lsp.core.reader import MemoryReader, OverlayReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.host.files import buffer_document

_PIECES = st.sampled_from(
    [b"a", b"\xc3\xa9", b"\r\n", b"\r", b"\n", b"\xef\xbb\xbf", b"\xff", b"\xed\xa0\x80", b"\xe2\x82"]
)
_BYTES = st.lists(_PIECES, max_size=12).map(b"".join)


def _expected(data: bytes) -> str | None:
    try:
        return hash_bytes(data)
    except BomError:
        return None


def _hashed(repo: GemstackRepo) -> str | None:
    try:
        return hash_source(repo, "spec.md")
    except SourceError:
        return None


@given(_BYTES)
def test_a_files_hash_is_the_hash_of_its_bytes(data: bytes) -> None:
    with Memo().active():
        assert _hashed(GemstackRepo("/r", MemoryReader({"spec.md": data}))) == _expected(data)


@given(st.text(alphabet="aé\r\n\ufeff\ud800\U0001f600", max_size=12))
def test_a_buffers_hash_is_the_hash_of_its_encoded_text(text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    with Memo().active():
        overlay = GemstackRepo("/r", OverlayReader(MemoryReader({}), {"spec.md": text}))
        assert _hashed(overlay) == _expected(data)

        class Buffers(GemstackRepo):
            def document(self, path: str):  # type: ignore[no-untyped-def]
                return buffer_document(path, text)

        assert _hashed(Buffers("/r", MemoryReader({}))) == _expected(data)
