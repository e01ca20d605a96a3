"""The capsule's secret boundary: forbidden property names and credential-looking values.

Both lists are the reference's (``gemstack-cli.md`` 5.7), which match the seed's section 20:
a key that is exactly one of ``FORBIDDEN_KEYS``, or a string value matching one of
``SECRET_PATTERNS``, fails the capsule closed. The value itself is never reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from gemstack_lsp.core import secretpatterns
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jscompat import js_property_order

FORBIDDEN_KEYS = frozenset(
    {"apiKey", "api_key", "token", "accessToken", "access_token", "secret", "clientSecret", "password", "credentials"}
)

#: (name, pattern) in the order the reference tries them; the first hit names the kind. The
#: patterns live in ``core/secretpatterns.py`` with every other audit's (the redactor hides all).
SECRET_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((p.kind, p.pattern) for p in secretpatterns.CAPSULE)

PROPERTY_MESSAGE = 'CONTEXT_CAPSULE_SECRET_DETECTED: Forbidden credential property "{key}" detected.'
TOKEN_MESSAGE = "CONTEXT_CAPSULE_SECRET_DETECTED: Forbidden credential token pattern detected."


@record
class SecretHit:
    """Where a secret was found: the JSON path (keys and indices) and what kind it is.

    ``key`` is set for a forbidden property name; ``kind`` names the value pattern otherwise.
    The matched value is deliberately not kept.
    """

    path: tuple[str | int, ...]
    key: str | None = None
    kind: str | None = None

    @property
    def message(self) -> str:
        """The reference's message (the value is never echoed)."""
        if self.key is not None:
            return PROPERTY_MESSAGE.format(key=self.key)
        return TOKEN_MESSAGE

    @property
    def where(self) -> str:
        out = ""
        for part in self.path:
            out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
        return out or "(root)"


def secret_kind(text: str) -> str | None:
    """The kind of secret ``text`` looks like, or ``None``."""
    hit = secretpatterns.first_kind(secretpatterns.CAPSULE, text)
    return None if hit is None else hit.kind


def scan_secrets(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[SecretHit]:
    """Every secret in a JSON value, depth-first in JavaScript property order, key before value."""
    if isinstance(value, dict):
        for key in js_property_order([str(k) for k in value]):
            here = (*path, key)
            if key in FORBIDDEN_KEYS:
                yield SecretHit(here, key=key)
            elif (kind := secret_kind(key)) is not None:
                # A property name (a provider id, a capability) is checked like a value.
                yield SecretHit(here, kind=kind)
            yield from scan_secrets(value[key], here)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from scan_secrets(item, (*path, i))
    elif isinstance(value, str):
        kind = secret_kind(value)
        if kind is not None:
            yield SecretHit(path, kind=kind)
