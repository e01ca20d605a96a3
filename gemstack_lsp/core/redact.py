"""The one redaction function: no message the tool prints quotes a value that looks like a secret.

Every message that quotes user text (finding messages, hovers, completion labels, symbols,
lens titles, ``context show``, logs) passes it through ``redact``. A secret is whatever any
audit's pattern matches (``core/secretpatterns.py``: the capsule's and the ledger's, the
reference's lists); the match is replaced by ``[redacted <kind>]`` (``[redacted github-token]``),
so the message still says what was there. A private key is redacted through its ``END`` line.
Everything here is linear in the text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gemstack_lsp.core.secretpatterns import secret_spans


def _placeholder(kind: str) -> str:
    # No placeholder matches a pattern itself ("bearer-token" has no space after "bearer").
    return f"[redacted {kind.lower().replace(' ', '-')}]"


def redact(text: str) -> str:
    """``text`` with every secret-looking part replaced by ``[redacted <kind>]``."""
    if not text:
        return text
    spans = secret_spans(text)
    if not spans:
        return text
    parts: list[str] = []
    at = 0
    for span in spans:
        parts += [text[at : span.start], _placeholder(span.kind)]
        at = span.end
    parts.append(text[at:])
    return "".join(parts)


def redact_json(value: Any, keep: Callable[[str | None, str], bool] | None = None) -> Any:
    """A JSON value with every string, property names included, redacted (iteratively, so
    any nesting depth is fine). ``keep(member, text)`` may spare a string: ``member`` is the
    property it is the value of (``None`` in an array or for a property name itself)."""

    def clean(member: str | None, text: str) -> str:
        return text if keep is not None and keep(member, text) else redact(text)

    if not isinstance(value, dict | list):
        return clean(None, value) if isinstance(value, str) else value
    root: Any = {} if isinstance(value, dict) else []
    stack: list[tuple[Any, Any]] = [(value, root)]
    while stack:
        source, target = stack.pop()
        items = source.items() if isinstance(source, dict) else enumerate(source)
        for key, item in items:
            member = key if isinstance(key, str) else None
            if isinstance(item, dict | list):
                copy: Any = {} if isinstance(item, dict) else []
                stack.append((item, copy))
            else:
                copy = clean(member, item) if isinstance(item, str) else item
            if isinstance(target, dict):
                target[clean(None, str(key))] = copy
            else:
                target.append(copy)
    return root


def excerpt(text: str, length: int) -> str:
    """The first ``length`` characters of ``text`` for a message; a secret-looking text is
    redacted first (a cut secret may no longer look like one, yet still give part of it away)."""
    redacted = redact(text)
    return redacted if redacted != text else text[:length]


def looks_secret(text: str) -> bool:
    """True when ``text`` holds something one of the secret patterns matches."""
    return bool(text) and bool(secret_spans(text))


def quote(value: object, limit: int = 80) -> str:
    """A user value quoted for a message: ``repr``-like, redacted, and cut to ``limit``
    characters (a cut never splits a placeholder)."""
    text = redact(str(value))
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"'{text}'"
