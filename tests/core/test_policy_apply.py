"""apply_policy: configuration and suppressions applied where findings leave the analysis."""

from __future__ import annotations

import pytest

from gemstack_lsp.core.findings import Finding, Severity
from gemstack_lsp.core.policy import FindingPolicy, PathRule, apply_policy, glob_matches
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.core.suppressions import parse_directives
from gemstack_lsp.core.text import Span

STALE = "STALE_PROVIDER_COST_ASSUMPTION"  # family cost, a warning
FENCE = "FENCE_UNSEEN_BY_REFERENCE"  # family documents, a warning


def finding(code: str, path: str = "cost-ledger.json", at: int = 0) -> Finding:
    return Finding(code, f"{code} here", path, Span(at, at + 1))


def codes(findings: tuple[Finding, ...]) -> list[tuple[str, str]]:
    return [(f.code, f.effective_severity.lsp_name) for f in findings]


def test_no_policy_changes_nothing() -> None:
    found = [finding(STALE), finding("GEMSTACK_INTERNAL_ERROR")]
    out = apply_policy(found, FindingPolicy())
    assert list(out.visible) == found and out.hidden == ()


def test_a_code_entry_wins_over_its_family_and_ignore_hides() -> None:
    policy = FindingPolicy(severity=(("cost", "hint"), (STALE, "error")), ignore=frozenset({"documents"}))
    out = apply_policy([finding(STALE), finding("UNKNOWN_PROVIDER_IDENTITY"), finding(FENCE)], policy)
    assert codes(out.visible) == [(STALE, "error"), ("UNKNOWN_PROVIDER_IDENTITY", "hint")]
    (hidden,) = out.hidden
    assert hidden.finding.code == FENCE and hidden.source == "config"
    assert "switched off in .gemstack/lsp.toml" in hidden.reason


def test_overrides_apply_to_their_paths_and_a_later_entry_wins() -> None:
    policy = FindingPolicy(
        ignore=frozenset({STALE}),
        overrides=(
            PathRule(("specs/**",), severity=((STALE, "warning"),)),
            PathRule(("specs/010-*/cost-ledger.json",), ignore=frozenset({STALE}), reason="a local model is free"),
        ),
    )
    found = [
        finding(STALE),
        finding(STALE, "specs/008-x/cost-ledger.json"),
        finding(STALE, "specs/010-y/cost-ledger.json"),
    ]
    out = apply_policy(found, policy)
    assert [f.path for f in out.visible] == ["specs/008-x/cost-ledger.json"]
    reasons = {h.finding.path: h.reason for h in out.hidden}
    assert reasons["cost-ledger.json"] == "switched off in .gemstack/lsp.toml"
    assert reasons["specs/010-y/cost-ledger.json"].endswith("([[overrides]] entry 2): a local model is free")


def test_select_keeps_only_what_it_names() -> None:
    policy = FindingPolicy(select=frozenset({"cost"}))
    out = apply_policy([finding(STALE), finding(FENCE)], policy)
    assert codes(out.visible) == [(STALE, "warning")]
    assert [h.source for h in out.hidden] == ["select"]


def test_unsilenceable_codes_stay_as_they_are() -> None:
    policy = FindingPolicy(severity=(("documents", "off"),), ignore=frozenset({"capsule"}), select=frozenset({"cost"}))
    found = [
        finding("GEMSTACK_INTERNAL_ERROR"),
        finding("CONTEXT_CAPSULE_SECRET_DETECTED"),
        finding("ARTIFACT_UNREADABLE"),
    ]
    assert list(apply_policy(found, policy).visible) == found


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("specs/**", "specs/a/spec.md", True),
        ("specs/*/spec.md", "specs/a/spec.md", True),
        ("specs/*.md", "specs/a/spec.md", False),
        ("**/cost-ledger.json", "cost-ledger.json", True),
        ("**/cost-ledger.json", "specs/a/cost-ledger.json", True),
        ("specs/010-*", "specs/010-notes/plan.md", True),
        ("specs/01?-*/plan.md", "specs/010-notes/plan.md", True),
        ("./cost-ledger.json", "cost-ledger.json", True),
        ("specs/a", "specs/ab/spec.md", False),
    ],
)
def test_globs(pattern: str, path: str, expected: bool) -> None:
    assert glob_matches(pattern, path) is expected


SPEC = """# A

<!-- gemstack-lsp-ignore FENCE_UNSEEN_BY_REFERENCE the block is read by our tool only -->
  ```gemstack-contracts
  []
  ```

Text.
<!-- gemstack-lsp-ignore-file TASK_VALIDATION_MISSING,CONTEXT_CAPSULE_STALE whole file: legacy -->
"""


def test_a_comment_silences_the_next_block_and_reports_what_it_left_unused() -> None:
    path = "specs/a/spec.md"
    directives = parse_directives(path, SPEC)
    assert [d.code for d in directives] == ["SUPPRESSION_UNUSED", "SUPPRESSION_UNUSED"]
    fence_at = SPEC.index("  ```gemstack-contracts")
    body_at = SPEC.index("[]")
    text_at = SPEC.index("Text.")
    found = [finding(FENCE, path, fence_at), finding(FENCE, path, body_at), finding(FENCE, path, text_at)]
    found.append(Finding("CONTEXT_CAPSULE_STALE", "stale", path, None))
    out = apply_policy([*found, *directives], FindingPolicy())
    visible = [(f.code, f.span.start if f.span else None) for f in out.visible]
    # The finding after the block is not covered; the file form silenced the stale capsule but
    # not TASK_VALIDATION_MISSING, which it names too.
    assert (FENCE, text_at) in visible
    assert (FENCE, fence_at) not in visible and (FENCE, body_at) not in visible
    unused = [f for f in out.visible if f.code == "SUPPRESSION_UNUSED"]
    assert len(unused) == 1 and "no TASK_VALIDATION_MISSING finding in this file" in unused[0].message
    assert {h.finding.code for h in out.hidden} == {FENCE, "CONTEXT_CAPSULE_STALE"}
    assert all("the block is read by our tool only" in h.reason or "legacy" in h.reason for h in out.hidden)


@pytest.mark.parametrize(
    ("comment", "message"),
    [
        ("<!-- gemstack-lsp-ignore CONTEXT_CAPSULE_STALE -->", "has no reason"),
        ("<!-- gemstack-lsp-ignore NOT_A_CODE because -->", "unknown finding code(s): NOT_A_CODE"),
        ("<!-- gemstack-lsp-ignore GEMSTACK_INTERNAL_ERROR because -->", "cannot be silenced"),
        ("<!-- gemstack-lsp-ignore SUPPRESSION_UNUSED because -->", "cannot be silenced"),
        ("<!-- gemstack-lsp-ignore -->", "names no finding code"),
    ],
)
def test_invalid_comments(comment: str, message: str) -> None:
    (f,) = parse_directives("specs/a/spec.md", f"# A\n{comment}\nText.\n")
    assert f.code == "SUPPRESSION_INVALID" and message in f.message
    assert f.span is not None and f.span.start == 4


def test_a_comment_inside_a_fenced_block_or_another_word_is_not_a_directive() -> None:
    text = "```text\n<!-- gemstack-lsp-ignore X y -->\n```\n<!-- gemstack-lsp-ignored whatever -->\n"
    assert parse_directives("specs/a/spec.md", text) == []


def test_a_trailing_comment_silences_its_own_line() -> None:
    text = "- [ ] **T1: x** <!-- gemstack-lsp-ignore TASK_VALIDATION_MISSING validated by hand -->\n- [ ] **T2: y**\n"
    repo = GemstackRepo("/repo", MemoryReader({"specs/a/spec.md": "# A\n", "specs/a/tasks.md": text}))
    out = apply_policy(analyze(repo), FindingPolicy())
    tasks = [f for f in out.visible if f.path == "specs/a/tasks.md"]
    assert [f.code for f in tasks] == ["TASK_VALIDATION_MISSING"] and "T2" in tasks[0].message
    assert [h.finding.code for h in out.hidden] == ["TASK_VALIDATION_MISSING"]


def test_an_unused_suppression_can_be_switched_off_in_the_configuration() -> None:
    (d,) = parse_directives("specs/a/spec.md", "<!-- gemstack-lsp-ignore CONTEXT_CAPSULE_STALE old -->\nText.\n")
    assert [f.code for f in apply_policy([d], FindingPolicy()).visible] == ["SUPPRESSION_UNUSED"]
    assert apply_policy([d], FindingPolicy(ignore=frozenset({"SUPPRESSION_UNUSED"}))).visible == ()


def test_a_configured_off_code_leaves_its_comment_unused() -> None:
    (d,) = parse_directives("specs/a/spec.md", "<!-- gemstack-lsp-ignore FENCE_UNSEEN_BY_REFERENCE why -->\nText.\n")
    f = finding(FENCE, "specs/a/spec.md", len("<!-- gemstack-lsp-ignore FENCE_UNSEEN_BY_REFERENCE why -->\n"))
    out = apply_policy([f, d], FindingPolicy(ignore=frozenset({FENCE})))
    assert [x.code for x in out.visible] == ["SUPPRESSION_UNUSED"]
    assert out.visible[0].effective_severity is Severity.WARNING


def test_directives_are_found_in_linear_time_on_unclosed_comments() -> None:
    # Many unclosed comment openings: one pass, no rescanning from each opening.
    text = "<!-- gemstack-lsp-ignore " * 20_000
    assert parse_directives("specs/a/spec.md", text) == []


def test_stacked_comments_share_the_line_they_precede() -> None:
    text = (
        "# Tasks\n\n<!-- gemstack-lsp-ignore TASK_VALIDATION_MISSING checked by hand -->\n"
        "<!-- gemstack-lsp-ignore FENCE_UNSEEN_BY_REFERENCE another reason -->\n\n- [ ] **T1: x**\n"
    )
    repo = GemstackRepo("/repo", MemoryReader({"specs/a/spec.md": "# A\n", "specs/a/tasks.md": text}))
    out = apply_policy(analyze(repo), FindingPolicy())
    assert [h.finding.code for h in out.hidden] == ["TASK_VALIDATION_MISSING"]
    unused = [f for f in out.visible if f.code == "SUPPRESSION_UNUSED"]
    assert len(unused) == 1 and "FENCE_UNSEEN_BY_REFERENCE" in unused[0].message


def test_directives_past_the_limit_are_one_invalid_finding() -> None:
    from gemstack_lsp.core.suppressions import MAX_DIRECTIVES

    text = "<!-- gemstack-lsp-ignore FENCE_UNSEEN_BY_REFERENCE why -->\nText.\n" * (MAX_DIRECTIVES + 50)
    found = parse_directives("specs/a/spec.md", text)
    assert len(found) == MAX_DIRECTIVES + 1
    assert found[-1].code == "SUPPRESSION_INVALID" and "More than" in found[-1].message


def test_many_findings_and_comments_in_one_file() -> None:
    # Each finding looks only at the comments whose line or block may hold it (no pairwise scan).
    lines = []
    for i in range(400):
        lines.append(f"<!-- gemstack-lsp-ignore TASK_VALIDATION_MISSING reviewed {i} -->")
        lines.append(f"- [ ] **T{i}: task {i}**")
    repo = GemstackRepo("/repo", MemoryReader({"specs/a/spec.md": "# A\n", "specs/a/tasks.md": "\n".join(lines)}))
    out = apply_policy(analyze(repo), FindingPolicy())
    hidden = [h for h in out.hidden if h.finding.code == "TASK_VALIDATION_MISSING"]
    assert len(hidden) == 400
    assert all(f"reviewed {int(h.finding.message.split()[1][1:])}" in h.reason for h in hidden)
    assert not any(f.code in ("TASK_VALIDATION_MISSING", "SUPPRESSION_UNUSED") for f in out.visible)
