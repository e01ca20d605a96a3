"""A command's output on stdout, written whole, and quietly dropped when the reader has gone away."""

from __future__ import annotations

import os
import sys


def write_stdout(text: str) -> None:
    """Write ``text`` to stdout and flush it.

    When the reader went away (``... | head``) that is no error of the command: stdout is pointed
    at the null device so that Python does not complain again when it flushes at exit, and the
    command's exit status stays what its result says.
    """
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
