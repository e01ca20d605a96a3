"""A command's output: every byte valid UTF-8, written whole, and quietly dropped when the reader has gone away.

User text can hold lone UTF-16 surrogates (a JSON ``"\\ud800"`` escape is legal JSON and
Python keeps it as is); the UTF-8 codec refuses to encode them. ``prepare_streams`` gives
stdout and stderr an error handler that writes them as U+FFFD, as Node.js does, so no message
can crash a command. JSON output keeps them as ``\\uXXXX`` escapes instead (``json_text``), as
``JSON.stringify`` does, so the value survives a round trip.
"""

from __future__ import annotations

import codecs
import io
import json
import os
import re
import sys
from typing import Any, TextIO

from gemstack_lsp.core.printable import printable
from gemstack_lsp.core.text import well_formed

#: The name of the codec error handler that writes lone surrogates as U+FFFD.
ERRORS = "gemstack-lsp-wellformed"

#: The exit status of a command whose reader went away, as a shell reports a process killed by SIGPIPE.
EXIT_BROKEN_PIPE = 128 + 13

_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _replace_surrogates(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    text = well_formed(exc.object[exc.start : exc.end])
    try:
        text.encode(exc.encoding)
    except UnicodeEncodeError:
        # A stream in a narrower encoding (LANG=C): what it cannot hold is written as an escape.
        text = text.encode(exc.encoding, "backslashreplace").decode(exc.encoding)
    return text, exc.end


codecs.register_error(ERRORS, _replace_surrogates)


def prepare_streams() -> None:
    """Make stdout and stderr write lone surrogates as U+FFFD instead of raising."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors=ERRORS)


def json_text(value: Any, indent: int | None = 2) -> str:
    """``value`` as JSON (non-ASCII raw, lone surrogates as ``\\uXXXX`` escapes)."""
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    # A raw surrogate can only stand inside a JSON string, where its escape means the same.
    if _LONE_SURROGATE.search(text):
        text = _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text


def silence_stdout() -> None:
    """Point stdout at the null device, so that Python does not complain again when it flushes at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, io.UnsupportedOperation):
        # A stdout without a file descriptor (a test's capture): nothing is flushed at exit.
        pass


def write_stdout(text: str) -> None:
    """Write ``text`` to stdout and flush it.

    When the reader went away (``... | head``) that is no error of the command: stdout is
    silenced and the command's exit status stays what its result says.
    """
    _write(sys.stdout, text)


def say(text: str, *, err: bool = False) -> None:
    """One line on stdout (or stderr), flushed; a reader that went away is not an error.

    The line is ``printable``: a line break or terminal escape in a path, id or value the
    repository provided is escaped, so it can neither forge a line nor drive the terminal."""
    _write(sys.stderr if err else sys.stdout, printable(text) + "\n")


def _write(stream: TextIO, text: str) -> None:
    try:
        stream.write(text)
        stream.flush()
    except BrokenPipeError:
        if stream is sys.stdout:
            silence_stdout()
    except UnicodeEncodeError:
        # A stream that was replaced after ``prepare_streams``: write what it can encode.
        encoding = stream.encoding or "utf-8"
        _write(stream, well_formed(text).encode(encoding, "backslashreplace").decode(encoding))
