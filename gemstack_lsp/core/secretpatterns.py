"""Every secret pattern of the project, in one place, and a linear-time search over all of them.

Two audits come from the reference and keep its exact patterns (interoperability): the
capsule's (``gemstack-cli.md`` 5.7) and the cost ledger's (Upgrade C). Whatever either calls a
secret, the redactor (``core/redact.py``) redacts, in every output: ``REDACTED`` is their
union, so no finding can quote the value it reports.

All of it runs in time linear in the text:

- every pattern but one is a literal prefix followed by one bounded or possessive-like run
  (a failed attempt stops at the first character outside the run), so Python's matcher never
  backtracks over the same characters twice;
- the capsule's private-key pattern, ``-----BEGIN[ A-Z0-9_-]*PRIVATE KEY-----``, is the one
  whose run can swallow its own prefix (``-----BEGIN-----BEGIN…``) and would be quadratic as
  a regular expression; ``private_keys`` finds exactly what it matches with one pass over the
  ``PRIVATE KEY-----`` endings and the ``-----BEGIN`` starts instead.

A private key is redacted from its ``BEGIN`` line through its ``END`` line (or the end of the
text when there is none), so a key's body never shows either.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jscompat import JS_WS_CLASS


@record
class SecretPattern:
    """One pattern: the kind it names, the compiled expression and the reference's source."""

    kind: str
    pattern: re.Pattern[str]
    source: str
    #: The literal every match starts with: a text without it holds no match (``gate``).
    prefix: str = ""
    #: True when the pattern ignores case (``prefix`` is then looked for in the lowered text).
    folded: bool = False

    def gate(self, text: str, lowered: str) -> bool:
        """False when ``text`` cannot hold a match: its prefix is absent (found by ``in``, the
        fastest search there is; ``lowered`` is ``text.lower()`` for a case-ignoring pattern:
        none of the letters of "bearer" has another character that folds to it, and a
        character that lowers to one of them is at worst a false alarm that runs the pattern)."""
        return self.prefix in (lowered if self.folded else text)


PRIVATE_KEY = "private key"
_BEGIN = "-----BEGIN"
_KEY_END = "PRIVATE KEY-----"
_LABEL = frozenset(" ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")

#: The capsule audit's patterns (the reference's list, in its order; the first hit names the kind).
#: The private-key entry's expression is only documentation: ``private_keys`` does its search.
CAPSULE: tuple[SecretPattern, ...] = (
    SecretPattern("AWS access key", re.compile(r"AKIA[0-9A-Z]{16}"), "/AKIA[0-9A-Z]{16}/", "AKIA"),
    SecretPattern("GitHub token", re.compile(r"gh[pousr]_[A-Za-z0-9_]{36,}"), "/gh[pousr]_[A-Za-z0-9_]{36,}/", "gh"),
    SecretPattern("API secret key", re.compile(r"sk-[A-Za-z0-9_-]{20,}"), "/sk-[A-Za-z0-9_-]{20,}/", "sk-"),
    SecretPattern("Google API key", re.compile(r"AIza[0-9A-Za-z_-]{30,}"), "/AIza[0-9A-Za-z_-]{30,}/", "AIza"),
    SecretPattern(
        "Bearer token",
        re.compile(rf"Bearer{JS_WS_CLASS}+[A-Za-z0-9\-._~+/]+=*", re.IGNORECASE),
        r"/Bearer\s+[A-Za-z0-9\-._~+/]+=*/i",
        "bearer",
        folded=True,
    ),
    SecretPattern(
        PRIVATE_KEY,
        re.compile(r"-----BEGIN[ A-Z0-9_-]*PRIVATE KEY-----"),
        "/-----BEGIN[ A-Z0-9_-]*PRIVATE KEY-----/",
        "-----BEGIN",
    ),
)

#: The cost-ledger audit's patterns (the reference's, with its JavaScript sources as messages print them).
LEDGER: tuple[SecretPattern, ...] = (
    SecretPattern("API secret key", re.compile(r"sk-[a-zA-Z0-9_-]{16,}"), "/sk-[a-zA-Z0-9_-]{16,}/", "sk-"),
    SecretPattern("GitHub token", re.compile(r"ghp_[a-zA-Z0-9]{20,}"), "/ghp_[a-zA-Z0-9]{20,}/", "ghp_"),
    SecretPattern(
        "Bearer token",
        re.compile(rf"Bearer{JS_WS_CLASS}+[a-zA-Z0-9._-]{{16,}}", re.IGNORECASE),
        "/Bearer\\s+[a-zA-Z0-9._-]{16,}/i",
        "bearer",
        folded=True,
    ),
    SecretPattern("Google API key", re.compile(r"AIza[0-9A-Za-z_-]{30,}"), "/AIza[0-9A-Za-z-_]{30,}/", "AIza"),
    SecretPattern(
        PRIVATE_KEY,
        re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
        "/-----BEGIN [A-Z ]*PRIVATE KEY-----/",
        "-----BEGIN ",
    ),
)

#: Every pattern any audit uses: what the redactor hides.
REDACTED: tuple[SecretPattern, ...] = CAPSULE + LEDGER


def private_keys(text: str) -> Iterator[tuple[int, int]]:
    """The spans ``-----BEGIN[ A-Z0-9_-]*PRIVATE KEY-----`` matches in ``text``, left to right,
    exactly as ``re.finditer`` gives them, in linear time.

    At a ``-----BEGIN`` the greedy run takes every label character up to the end ``R`` of the
    label run it lies in (the prefix is made of label characters too), then backs off to the
    last ``PRIVATE KEY-----`` that fits before ``R``. When none fits, no later ``-----BEGIN``
    of the same run can match either, so the search goes on after ``R``: each run is looked at
    a bounded number of times.
    """
    if _KEY_END not in text:
        return
    position = 0
    run_end = -1
    while True:
        begin = text.find(_BEGIN, position)
        if begin < 0:
            return
        if begin >= run_end:
            run_end = begin
            while run_end < len(text) and text[run_end] in _LABEL:
                run_end += 1
        ending = text.rfind(_KEY_END, begin + len(_BEGIN), run_end)
        if ending < 0:
            position = max(begin + 1, run_end)
            continue
        stop = ending + len(_KEY_END)
        yield begin, stop
        position = stop


def search(pattern: SecretPattern, text: str) -> bool:
    """True when ``pattern`` matches somewhere in ``text`` (linear time for every pattern)."""
    if not pattern.gate(text, text.lower() if pattern.folded else ""):
        return False
    if pattern.kind == PRIVATE_KEY and pattern in CAPSULE:
        return next(private_keys(text), None) is not None
    return pattern.pattern.search(text) is not None


def first_kind(patterns: tuple[SecretPattern, ...], text: str) -> SecretPattern | None:
    """The first of ``patterns`` that matches ``text`` (the reference's order names the kind)."""
    for pattern in patterns:
        if search(pattern, text):
            return pattern
    return None


@record
class SecretSpan:
    start: int
    end: int
    kind: str


def _pem_block_end(text: str, after: int) -> int:
    """Where a private key that starts before ``after`` ends: past its ``-----END … PRIVATE
    KEY-----`` line, or the end of the text when it has none."""
    end = text.find("-----END", after)
    if end < 0:
        return len(text)
    close = text.find("-----", end + len("-----END"))
    return len(text) if close < 0 else close + len("-----")


def secret_spans(text: str) -> list[SecretSpan]:
    """Every part of ``text`` some audit would call a secret, merged and in order; a private
    key runs through its ``END`` line. Linear in ``len(text)`` (times the number of patterns).

    A pattern runs only where its literal prefix occurs (``SecretPattern.gate``): a message
    sent to the editor is some kilobytes with no secret, and the two case-ignoring ``Bearer``
    patterns alone cost 90 µs over 8 kB, where looking for the six prefixes costs some 25."""
    found: list[SecretSpan] = []
    lowered = text.lower()
    present: dict[str, bool] = {}  # the audits share their prefixes: each is looked for once
    for pattern in REDACTED:
        gate = present.get(pattern.prefix)
        if gate is None:
            gate = present[pattern.prefix] = pattern.gate(text, lowered)
        if not gate:
            continue
        if pattern.kind == PRIVATE_KEY:
            matches = (
                private_keys(text)
                if pattern in CAPSULE
                else ((m.start(), m.end()) for m in pattern.pattern.finditer(text))
            )
            found.extend(SecretSpan(a, _pem_block_end(text, b), PRIVATE_KEY) for a, b in matches)
        else:
            found.extend(SecretSpan(m.start(), m.end(), pattern.kind) for m in pattern.pattern.finditer(text))
    if not found:
        return []
    found.sort(key=lambda s: (s.start, -s.end))
    merged = [found[0]]
    for span in found[1:]:
        last = merged[-1]
        if span.start < last.end:
            if span.end > last.end:
                merged[-1] = SecretSpan(last.start, span.end, last.kind)
        else:
            merged.append(span)
    return merged
