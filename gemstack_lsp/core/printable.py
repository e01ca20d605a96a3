"""Repository text made safe to print: no control character, no line break, no terminal escape.

A repository chooses its file and folder names, ids and values. Printed raw, a newline in a
folder name starts a line of its own (``…\\ncost-ledger.json:1:1: error FORGED_FINDING``, a
finding no check made, read by CI logs and problem matchers alike), and an ESC or OSC sequence
drives the terminal (sets its title, clears the screen). ``printable`` escapes every such
character the way Python's string literals write it, so what was there stays visible:

- C0 controls (``\\x00``–``\\x1f``, ``\\n`` and ``\\t`` included unless kept), DEL and the C1
  controls (``\\x80``–``\\x9f``, CSI among them) become ``\\n``, ``\\t``, ``\\x1b``, ``\\x9b``;
- the Unicode line and paragraph separators and the bidirectional overrides and isolates
  (which reorder what a reader sees) become ``\\u2028``, ``\\u202e``…;
- a lone surrogate (a byte of a non-UTF-8 name decoded with ``surrogateescape``) becomes the
  byte it stands for, ``\\xff``.

Linear in the text; text with nothing to escape is returned as it is.
"""

from __future__ import annotations

import re

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_UNSAFE_KEEPING_LINES = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the undecodable byte itself
        return f"\\x{code - 0xDC00:02x}"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def printable(text: str, *, keep_lines: bool = False) -> str:
    """``text`` with every control, separator, bidi-override and lone-surrogate character
    escaped; ``keep_lines`` keeps ``\\n`` and ``\\t`` (multi-line text such as a hover)."""
    pattern = _UNSAFE_KEEPING_LINES if keep_lines else _UNSAFE
    if pattern.search(text) is None:
        return text
    return pattern.sub(_escape, text)
