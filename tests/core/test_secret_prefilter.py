"""The literal gate of each secret pattern never hides a secret that pattern finds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gemstack_lsp.core import secretpatterns
from gemstack_lsp.core.secretpatterns import REDACTED, SecretPattern


@pytest.mark.parametrize("pattern", REDACTED, ids=lambda p: f"{p.kind}:{p.source}")
def test_every_match_of_every_pattern_passes_its_gate(pattern: SecretPattern) -> None:
    assert pattern.prefix, "every pattern has the literal its matches start with"

    @settings(max_examples=60, deadline=None)
    @given(st.from_regex(pattern.pattern, fullmatch=True), st.text(max_size=20), st.text(max_size=20))
    def check(secret: str, before: str, after: str) -> None:
        text = before + secret + after
        assert pattern.gate(text, text.lower())
        assert secretpatterns.search(pattern, text)
        assert secretpatterns.secret_spans(text)

    check()


_PIECES = st.sampled_from(
    [
        "AKIA",
        "ABCDEFGHIJKLMNOP",
        "ghp_",
        "gho_",
        "a" * 40,
        "sk-",
        "x" * 24,
        "AIza",
        "bEaReR ",
        "BEARER\t",
        "Bearer ",
        "token.value-123456789",
        "-----BEGIN ",
        "RSA PRIVATE KEY-----",
        "-----BEGIN",
        "-----END PRIVATE KEY-----",
        "İ",
        "ſ",
        "K",
        " ",
        "\n",
        '"',
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES | st.text(max_size=6), max_size=14))
def test_the_gated_search_finds_what_every_pattern_run_everywhere_finds(pieces: list[str]) -> None:
    text = "".join(pieces)
    gated = secretpatterns.secret_spans(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SecretPattern, "gate", lambda self, text, lowered: True)
        everywhere = secretpatterns.secret_spans(text)
        first = [secretpatterns.search(p, text) for p in REDACTED]
    assert gated == everywhere
    assert [secretpatterns.search(p, text) for p in REDACTED] == first


def test_a_text_without_any_prefix_has_no_secret() -> None:
    assert secretpatterns.secret_spans("Pricing assumption is 96 days old (exceeds 90 days limit)") == []
