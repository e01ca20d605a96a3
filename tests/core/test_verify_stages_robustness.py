"""Bad input never makes the 2.0 verify stages raise: any JSON or text in amendments.json, the
installation manifest, package.json, handoff.md, a rigor declaration or a spec delta yields
findings, never GEMSTACK_INTERNAL_ERROR."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.reader import GitCommit, MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze

F = "specs/a"
SPEC = '```gemstack-contracts\n[{"id": "c", "type": "BOOLEAN_INVARIANT", "value": true}]\n```\n'

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=5),
    max_leaves=20,
)
amendment_like = st.fixed_dictionaries(
    {},
    optional={
        k: json_values | st.text(max_size=8)
        for k in ("amendment_id", "contract_id", "version", "reason", "approved_by", "signature", "feature_id")
    },
)


class _Git(MemoryReader):
    def recent_commits(self, limit: int) -> tuple[GitCommit, ...]:
        return (GitCommit("abc1234", "fix: ünïcode — words\u3000here"), GitCommit("", ""))


def _internal_errors(files: dict[str, str], secret: str | None = None) -> list[str]:
    repo = GemstackRepo("/repo", _Git(files))
    found = analyze(repo, AnalysisOptions(amendment_secret=secret))
    return [f.message for f in found if f.code == "GEMSTACK_INTERNAL_ERROR"]


def _base(**extra: str) -> dict[str, str]:
    return {
        f"{F}/spec.md": SPEC,
        f"{F}/plan.md": SPEC.replace("true", "false"),
        ".gemstack/state.json": json.dumps({"active_spec": F, "phase_hashes": {"spec": "0" * 64}}),
        ".git/HEAD": "ref: refs/heads/main\n",
        **extra,
    }


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(json_values, st.lists(amendment_like, max_size=3), amendment_like), st.text(max_size=30))
def test_any_amendments_json(value: Any, secret_text: str) -> None:
    assert _internal_errors(_base(**{f"{F}/amendments.json": json.dumps(value)}), secret_text or None) == []


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values, json_values)
def test_any_manifest_and_package_json(manifest: Any, scripts: Any) -> None:
    files = _base(
        **{
            ".gemstack/manifest.json": json.dumps({"files": manifest} if isinstance(manifest, list) else manifest),
            "package.json": json.dumps({"scripts": scripts}),
            ".gitignore": "!.env\n**/\n/\n",
            ".env": "X=1\n",
        }
    )
    assert _internal_errors(files) == []


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200), json_values)
def test_any_handoff_rigor_and_delta(text: str, delta: Any) -> None:
    spec = (
        "---\n" + text + "\n---\n**Rigor**: " + text[:10] + "\n```gemstack-spec-delta\n" + json.dumps(delta) + "\n```\n"
    )
    files = _base(
        **{
            "handoff.md": text,
            f"{F}/spec.md": spec + SPEC,
            "specs/b/spec.md": "```gemstack-spec-delta\n" + text + "\n```\n",
        }
    )
    assert _internal_errors(files) == []
