"""The one-search prefilter of ``secret_spans`` never hides a secret some pattern finds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gemstack_lsp.core import secretpatterns
from gemstack_lsp.core.secretpatterns import REDACTED, SecretPattern


@pytest.mark.parametrize("pattern", REDACTED, ids=lambda p: f"{p.kind}:{p.source}")
def test_every_match_of_every_pattern_passes_the_prefilter(pattern: SecretPattern) -> None:
    @settings(max_examples=60, deadline=None)
    @given(st.from_regex(pattern.pattern, fullmatch=True), st.text(max_size=20), st.text(max_size=20))
    def check(secret: str, before: str, after: str) -> None:
        text = before + secret + after
        assert secretpatterns._ANY_PREFIX.search(text) is not None
        if len(text) <= secretpatterns._PREFILTERED:
            assert secretpatterns.secret_spans(text)

    check()


def test_a_text_without_any_prefix_has_no_secret() -> None:
    assert secretpatterns.secret_spans("Pricing assumption is 96 days old (exceeds 90 days limit)") == []
