"""The configuration and suppressions applied to one file of a snapshot, for the editor.

``outcome(snapshot, path, findings)`` is ``core.policy.apply_policy`` with what the snapshot
knows: its options' finding policy (the project file) and, for a feature's plan.md and
tasks.md, the accepted exceptions of the feature's ``.gemstack.json`` sidecar (computed once per
snapshot). Diagnostics publish its ``visible`` findings; hover explains its ``hidden`` ones.
"""

from __future__ import annotations

from collections.abc import Sequence

from gemstack_lsp.core.feature import Feature
from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.policy import PolicyOutcome, Suppression, apply_policy
from gemstack_lsp.core.suppressions import accepted_exceptions, exceptions_on
from gemstack_lsp.host import Snapshot

__all__ = ["outcome", "sidecar_suppressions"]


def sidecar_suppressions(snapshot: Snapshot, path: str) -> tuple[Suppression, ...]:
    """The accepted exceptions that may hide findings on ``path`` (plan.md and tasks.md only)."""

    def of_feature(feature: Feature) -> tuple[Suppression, ...]:
        return snapshot.derived(("accepted-exceptions", feature.name), lambda s: accepted_exceptions(s.repo, feature))

    return exceptions_on(snapshot.repo, path, of_feature)


def outcome(snapshot: Snapshot, path: str, findings: Sequence[Finding]) -> PolicyOutcome:
    """What of ``findings`` (all on ``path``) is shown, and what is hidden and why."""
    return apply_policy(findings, snapshot.options.policy, sidecar_suppressions(snapshot, path))
