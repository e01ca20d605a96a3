"""Markdown hovers as plain text for clients that do not render Markdown."""

from __future__ import annotations

from gemstack_lsp.core.plaintext import RULE_TEXT, markdown_to_plaintext


def test_emphasis_code_links_and_escapes_lose_their_markers() -> None:
    md = "**CONTEXT_CAPSULE_STALE** · error · *waivable*\n\nSee `spec.md` and [Documentation](https://x.test/d#a) a\\|b"
    assert markdown_to_plaintext(md) == (
        "CONTEXT_CAPSULE_STALE · error · waivable\n\nSee spec.md and Documentation (https://x.test/d#a) a|b"
    )


def test_code_keeps_its_inner_markers_and_identifiers_keep_underscores() -> None:
    assert markdown_to_plaintext("`**not bold**` FROZEN_ARTIFACT_CHANGED snake_case_name") == (
        "**not bold** FROZEN_ARTIFACT_CHANGED snake_case_name"
    )


def test_tables_become_aligned_columns() -> None:
    md = "\n".join(
        [
            "**Billable action `a1`**",
            "",
            "| environment | decision | reason |",
            "|---|---|---|",
            "| development | ALLOW | `OK`: fine |",
            "| production ◀ | DENY | `NO_TOKEN`: a \\| b |",
        ]
    )
    text = markdown_to_plaintext(md)
    assert "|" not in text.replace("a | b", "")
    assert "**" not in text and "`" not in text
    assert text.splitlines() == [
        "Billable action a1",
        "",
        "environment   decision  reason",
        "development   ALLOW     OK: fine",
        "production ◀  DENY      NO_TOKEN: a | b",
    ]


def test_headings_rules_lists_and_fences() -> None:
    md = '## Title ##\n\n- item `x`\n\n---\n\n```json\n{"a": 1}\n```\nafter'
    assert markdown_to_plaintext(md).splitlines() == [
        "Title",
        "",
        "- item x",
        "",
        RULE_TEXT,
        "",
        '    {"a": 1}',
        "after",
    ]
