"""The reference's file hash: SHA-256 of the UTF-8 text with line endings normalised to LF.

Bytes are decoded as UTF-8 (invalid sequences become U+FFFD, as ``errors="replace"``
does), CRLF and then lone CR become LF, and the text is re-encoded. A file that starts with a
BOM cannot be hashed: the reference refuses it (``UTF-8 BOM is forbidden in phase artifacts.``).
"""

from __future__ import annotations

import hashlib

from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.text import utf8

BOM_MESSAGE = "UTF-8 BOM is forbidden in phase artifacts."


class BomError(ValueError):
    """The artifact starts with a byte-order mark, which the reference refuses to hash."""

    def __init__(self) -> None:
        super().__init__(BOM_MESSAGE)


def normalize_text(text: str) -> str:
    """CRLF and lone CR to LF; nothing else."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


@per_text
def hash_text(text: str) -> str:
    """The hash of already-decoded text (raises ``BomError`` on a leading U+FEFF); computed once
    per text while a memo is active (an unchanged file is not hashed again on the next keystroke)."""
    if text.startswith("\ufeff"):
        raise BomError()
    return hashlib.sha256(utf8(normalize_text(text))).hexdigest()


def hash_bytes(data: bytes) -> str:
    """The reference ``hash(file)`` of a file's bytes (raises ``BomError`` on a BOM)."""
    return hash_text(data.decode("utf-8", errors="replace"))


def sha256_hex(data: bytes | str) -> str:
    """Plain lowercase hex SHA-256 (strings are encoded as UTF-8)."""
    if isinstance(data, str):
        data = utf8(data)
    return hashlib.sha256(data).hexdigest()
