"""The one redaction function: no message the tool prints quotes a value that looks like a secret.

Every message that quotes user text (finding messages, hovers, completion labels, symbols,
lens titles, ``context show``, logs) passes it through ``redact``. A secret is whatever one of
the capsule's secret patterns (``core/capsule/secrets.py``, the reference's list) matches; the
match is replaced by ``[redacted <kind>]`` (``[redacted github-token]``), so the message still says what was there.
"""

from __future__ import annotations

from typing import Any

from gemstack_lsp.core.capsule.secrets import SECRET_PATTERNS, secret_kind


def _placeholder(kind: str) -> str:
    # No placeholder matches a pattern itself ("bearer-token" has no space after "bearer").
    return f"[redacted {kind.lower().replace(' ', '-')}]"


_SUBSTITUTIONS = tuple((pattern, _placeholder(kind)) for kind, pattern in SECRET_PATTERNS)


def redact(text: str) -> str:
    """``text`` with every secret-looking part replaced by ``[redacted <kind>]``."""
    if not text:
        return text
    for pattern, placeholder in _SUBSTITUTIONS:
        text = pattern.sub(placeholder, text)
    return text


def redact_json(value: Any) -> Any:
    """A JSON value with every string, property names included, redacted (iteratively, so
    any nesting depth is fine)."""
    if not isinstance(value, dict | list):
        return redact(value) if isinstance(value, str) else value
    root: Any = {} if isinstance(value, dict) else []
    stack: list[tuple[Any, Any]] = [(value, root)]
    while stack:
        source, target = stack.pop()
        items = source.items() if isinstance(source, dict) else enumerate(source)
        for key, item in items:
            if isinstance(item, dict | list):
                copy: Any = {} if isinstance(item, dict) else []
                stack.append((item, copy))
            else:
                copy = redact(item) if isinstance(item, str) else item
            if isinstance(target, dict):
                target[redact(str(key))] = copy
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
    return secret_kind(text) is not None


def quote(value: object, limit: int = 80) -> str:
    """A user value quoted for a message: ``repr``-like, redacted, and cut to ``limit``
    characters (a cut never splits a placeholder)."""
    text = redact(str(value))
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"'{text}'"
