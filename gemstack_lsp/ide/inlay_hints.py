"""Inlay hints: what the repository knows that the text does not show, as plain data.

Three kinds, each switched on or off in the settings (``InlayHintOptions``):

- ``test-result``: after a test id of spec.md's ``gemstack-test-matrix``, the test's latest
  result from the feature's closure.json: ``missing`` (in ``reconciliation.
  missing_canonical_ids`` or ``orphans_detected``), ``failed`` (named by a blocker; a
  supplemental test named by a warning is ``failed (supplemental)``), else ``passed`` when
  the closure is VERIFIED (or VERIFIED_WITH_EXCEPTIONS) and ``not verified`` when it is not.
  No hint when the feature has no readable closure.json: nothing is known.
- ``frozen``: after a contract id declared in a ``gemstack-contracts`` (or inherited) block,
  ``frozen · <phase>`` when a frozen phase freezes it (``ide.frozen``); no hint for a contract
  that is not frozen yet.
- ``bindings``: after the ``"file"`` of a binding in plan.md's ``gemstack-test-bindings``, how
  many tests the plan binds to that file (``3 tests bound``).

A hint sits at the end of the value it describes (an offset of the document), padded on its
left.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks.contracts import CONTRACT_KINDS
from gemstack_lsp.core.closure import VERIFIED_STATUSES, parse_closure
from gemstack_lsp.core.jsonspan import JsonArray, JsonNode, JsonObject, JsonString, iter_nodes
from gemstack_lsp.core.repo import Feature
from gemstack_lsp.core.text import Span
from gemstack_lsp.host import Snapshot
from gemstack_lsp.ide.frozen import contract_freeze
from gemstack_lsp.ide.outline import gemstack_blocks

__all__ = ["InlayHint", "InlayHintOptions", "inlay_hints", "test_results"]


@dataclass(frozen=True)
class InlayHintOptions:
    """Which kinds of hints to give."""

    test_results: bool = True
    frozen_contracts: bool = True
    bindings: bool = True


@dataclass(frozen=True)
class InlayHint:
    """One hint: where it sits (an offset), its label, its kind and a tooltip."""

    offset: int
    label: str
    kind: str
    tooltip: str | None = None


def _strings(node: JsonNode | None) -> list[str]:
    return [n.value for n in iter_nodes(node) if isinstance(n, JsonString)]


def _mentions(node: JsonNode | None, test_id: str) -> bool:
    return any(test_id in s for s in _strings(node))


def test_results(snapshot: Snapshot, feature: Feature) -> dict[str, str] | None:
    """The result closure.json gives each test id of the feature's matrix (``None``: no
    readable closure.json)."""

    def compute(snap: Snapshot) -> dict[str, str] | None:
        text = snap.repo.document(feature.closure).text
        if text is None:
            return None
        manifest = parse_closure(text)
        if manifest.object is None:
            return None
        spec = snap.repo.document(feature.spec).text or ""
        ids: list[str] = []
        for block in gemstack_blocks(spec):
            root = block.result.value
            if block.kind != kinds.TEST_MATRIX or not isinstance(root, JsonArray):
                continue
            for item in root.items:
                ident = item.get("id") if isinstance(item, JsonObject) else None
                if isinstance(ident, JsonString):
                    ids.append(ident.value)
        missing = manifest.member("reconciliation", "missing_canonical_ids")
        orphans = manifest.member("reconciliation", "orphans_detected")
        blockers = manifest.member("blockers")
        warnings = manifest.member("warnings")
        verified = manifest.status in VERIFIED_STATUSES
        out: dict[str, str] = {}
        for tid in ids:
            if tid in _strings(missing) or (isinstance(orphans, JsonArray) and _mentions(orphans, tid)):
                out[tid] = "missing"
            elif _mentions(blockers, tid):
                out[tid] = "failed"
            elif _mentions(warnings, tid):
                out[tid] = "failed (supplemental)"
            else:
                out[tid] = "passed" if verified else "not verified"
        return out

    return snapshot.derived(("ide.test-results", feature.name), compute)


def _compute(snapshot: Snapshot, path: str, options: InlayHintOptions) -> tuple[InlayHint, ...]:
    text = snapshot.repo.document(path).text
    feature = snapshot.repo.feature_of(path)
    if text is None or feature is None or not path.endswith(".md"):
        return ()
    name = path.rsplit("/", 1)[-1]
    results = test_results(snapshot, feature) if options.test_results and name == "spec.md" else None
    hints: list[InlayHint] = []
    for block in gemstack_blocks(text):
        root = block.result.value
        if not isinstance(root, JsonArray):
            continue
        items = [i for i in root.items if isinstance(i, JsonObject)]
        if block.kind == kinds.TEST_MATRIX and results is not None:
            for item in items:
                ident = item.get("id")
                if isinstance(ident, JsonString) and ident.value in results:
                    result = results[ident.value]
                    hints.append(
                        InlayHint(ident.span.end, result, "test-result", f"Latest result in {feature.closure}")
                    )
        elif block.kind in CONTRACT_KINDS and options.frozen_contracts:
            for item in items:
                ident = item.get("id")
                if not isinstance(ident, JsonString) or not ident.value:
                    continue
                frozen = contract_freeze(snapshot, feature, ident.value)
                if frozen is not None:
                    hints.append(
                        InlayHint(
                            ident.span.end,
                            f"frozen · {frozen.phase}",
                            "frozen",
                            f"Frozen by the {frozen.phase} phase: {frozen.reason}. Change it through an amendment.",
                        )
                    )
        elif block.kind == kinds.TEST_BINDINGS and options.bindings:
            files = [i.get("file") for i in items]
            counts = Counter(f.value for f in files if isinstance(f, JsonString))
            for f in files:
                if isinstance(f, JsonString) and f.value:
                    n = counts[f.value]
                    hints.append(InlayHint(f.span.end, f"{n} test{'s' if n != 1 else ''} bound", "bindings"))
    return tuple(sorted(hints, key=lambda h: h.offset))


def inlay_hints(
    snapshot: Snapshot, path: str, within: Span | None = None, options: InlayHintOptions | None = None
) -> tuple[InlayHint, ...]:
    """The hints of the document at ``path`` (those inside ``within`` when given)."""
    options = options or InlayHintOptions()
    hints = snapshot.derived(("ide.inlay-hints", path, options), lambda snap: _compute(snap, path, options))
    if within is None:
        return hints
    return tuple(h for h in hints if within.start <= h.offset <= within.end)
