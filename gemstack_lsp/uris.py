"""The one place where ``file:`` URIs and file-system paths are converted, both ways.

The rules are ``pygls.uris``'s (``to_fs_path`` / ``from_fs_path``, themselves vscode-uri's): a
Windows drive letter (``file:///C:/x``, ``file:///c%3A/x``) becomes ``c:/x`` (``c:\\x`` on
Windows), never ``/C:/x``; an authority is a UNC share (``file://server/share/x`` is
``//server/share/x``); on Windows the separators are backslashes. A test holds this module to
``pygls.uris`` on ordinary URIs (``tests/server/test_uris.py``). It is written with the standard
library only because ``gemstack-lsp check`` (SARIF output) uses it and must not load pygls, and
because it differs from ``pygls.uris`` where pygls loses information:

- an escape of a byte that is not UTF-8 (``%FF``) becomes the file system's own name for it (a
  surrogate escape, as ``os.fsdecode`` gives it), and back: pygls replaces it with U+FFFD;
- ``file://localhost/x`` is ``/x`` (RFC 8089), not a share named ``localhost``;
- a URI no file can have (a NUL byte) has no path.
"""

from __future__ import annotations

import os
import re
from pathlib import PurePath
from urllib.parse import quote, unquote, urlsplit

__all__ = ["path_to_uri", "quote_path", "uri_to_path"]

IS_WIN = os.name == "nt"

#: ``pygls.uris.RE_DRIVE_LETTER_PATH``: the path part of a URI naming a Windows drive.
_DRIVE = re.compile(r"^/[a-zA-Z]:")
#: What stays unescaped in a path (RFC 3986 ``pchar`` and ``/``).
_SAFE = "/:@!$&'()*+,;=-._~"


def uri_to_path(uri: str, *, windows: bool = IS_WIN) -> str | None:
    """The file-system path of a ``file:`` URI (``None`` for any other scheme, and for one no
    file can have). ``windows`` picks the platform's rules (tests pass it)."""
    try:
        parts = urlsplit(uri)
    except ValueError:
        return None
    if parts.scheme.lower() != "file":
        return None
    path = unquote(parts.path, errors="surrogateescape")
    netloc = unquote(parts.netloc, errors="surrogateescape")
    if "\x00" in path or "\x00" in netloc:
        return None
    if netloc and netloc.lower() != "localhost":
        value = f"//{netloc}{path}"
    elif _DRIVE.match(path):
        value = path[1].lower() + path[2:]
    else:
        value = path
    return value.replace("/", "\\") if windows else value


def path_to_uri(path: str | PurePath, *, windows: bool = IS_WIN) -> str:
    """The ``file:`` URI of an absolute path (a name that is not UTF-8 keeps its bytes: ``%FF``).
    ``windows`` picks the platform's rules (tests pass it)."""
    text = os.fspath(path)
    if windows:
        text = text.replace("\\", "/")
    netloc = ""
    if text.startswith("//"):
        end = text.find("/", 2)
        netloc, text = (text[2:], "/") if end == -1 else (text[2:end], text[end:])
    if not text.startswith("/"):
        text = "/" + text
    if _DRIVE.match(text):
        text = text[0] + text[1].lower() + text[2:]
    return f"file://{_quote(netloc, _SAFE)}{_quote(text, _SAFE)}"


def quote_path(text: str) -> str:
    """A relative path as a relative URI reference (SARIF's ``uri`` beside a ``uriBaseId``):
    everything but unreserved characters and ``/`` escaped (a ``:`` in it would read as a
    scheme), byte for byte as ``path_to_uri`` does."""
    return _quote(text, "/")


def _quote(text: str, safe: str) -> str:
    return quote(text.encode("utf-8", "surrogateescape"), safe=safe)
