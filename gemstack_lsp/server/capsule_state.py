"""``gemstack/capsuleState``: the state of the context capsule of a document's feature.

A small custom request for status bars (the VS Code extension's, a Neovim statusline):

    params: {"textDocument": {"uri": "file:///…/specs/009-x/spec.md"}}  (or {"uri": "…"})
    result: {"feature": "specs/009-x", "state": "STALE", "capsule": "specs/009-x/context-capsule.json",
             "featureUri": "file:///…/specs/009-x", "capsuleUri": "file:///…/context-capsule.json",
             "exists": true, "summary": "spec.md changed since the capsule was generated",
             "findings": ["CONTEXT_CAPSULE_STALE"]}
    or null when the document lies in no feature folder of a Gemstack repository (one that
    ``core.identity`` recognises: a spec-kit repository has no capsule state).

``state`` is what ``gemstack-lsp context verify`` reports: VALID, STALE, INVALID, MISSING or
LEGACY. The answer is computed once per snapshot revision and feature.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from gemstack_lsp.core.capsule.verify import INVALID, LEGACY, MISSING, STALE, VALID, VerifyResult, verify_capsule
from gemstack_lsp.core.repo import Feature
from gemstack_lsp.host import Snapshot
from gemstack_lsp.server.context import RequestView, uri_in
from gemstack_lsp.server.requests import request
from gemstack_lsp.uris import path_to_uri

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer

CAPSULE_STATE_REQUEST = "gemstack/capsuleState"

_STALE_CODES = ("CONTEXT_CAPSULE_STALE", "CONTEXT_CAPSULE_SOURCE_MISMATCH")


def summary(result: VerifyResult) -> str:
    """One sentence on the state, for a tooltip or a statusline."""
    if result.state == VALID:
        return "The context capsule matches its sources."
    if result.state == STALE:
        changed: list[str] = []
        for f in result.findings:
            if f.code in _STALE_CODES and f.subject and f.subject not in changed:
                changed.append(str(f.subject))
        what = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
        return f"{what or 'Its sources'} changed since the capsule was generated: regenerate it."
    if result.state == INVALID:
        first = next(iter(result.findings), None)
        reason = first.message if first is not None else "it cannot be trusted"
        return f"The context capsule is invalid: {reason}"
    if result.state == MISSING:
        return "The feature asks for a context capsule and has none: generate it."
    if result.state == LEGACY:
        return "No context capsule (legacy, context-free feature)."
    return f"Capsule state {result.state}."


def capsule_state(snapshot: Snapshot, rel: str) -> dict[str, Any] | None:
    """The answer for a document at ``rel`` in ``snapshot`` (``None`` outside a feature)."""
    feature = snapshot.repo.feature_of(rel)
    if feature is None or not snapshot.is_gemstack():
        return None  # no capsule state outside Gemstack (a spec-kit repository): no status item

    def compute(snap: Snapshot) -> VerifyResult:
        return verify_capsule(snap.repo, feature)

    result: VerifyResult = snapshot.derived(("gemstack/capsuleState", feature.name), compute)
    return _answer(snapshot.root, feature, result)


def _answer(root: str, feature: Feature, result: VerifyResult) -> dict[str, Any]:
    return {
        "feature": feature.path,
        "state": result.state,
        "capsule": feature.capsule,
        "featureUri": path_to_uri(os.path.join(root, feature.path)),
        "capsuleUri": path_to_uri(os.path.join(root, feature.capsule)),
        "exists": result.state not in (MISSING, LEGACY),
        "summary": summary(result),
        "findings": sorted({f.code for f in result.findings}),
    }


def register(server: GemstackServer) -> None:
    @request(server, CAPSULE_STATE_REQUEST)
    def capsule_state_request(view: RequestView, params: Any) -> dict[str, Any] | None:
        uri = uri_in(params)
        if uri is None:
            return None
        found = view.snapshot_for(uri)
        if found is None:
            return None
        snapshot, rel = found
        return capsule_state(snapshot, rel)
