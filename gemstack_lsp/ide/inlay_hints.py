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
from collections.abc import Iterator

from gemstack_lsp.core import kinds
from gemstack_lsp.core.closure import VERIFIED_STATUSES, parse_closure
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jsonspan import JsonArray, JsonNode, JsonString, iter_nodes
from gemstack_lsp.core.repo import Feature
from gemstack_lsp.core.text import Span
from gemstack_lsp.host import Snapshot
from gemstack_lsp.ide.frozen import contract_freeze
from gemstack_lsp.ide.outline import gemstack_blocks, item_refs

__all__ = ["InlayHint", "InlayHintOptions", "inlay_hints", "test_results"]


@record
class InlayHintOptions:
    """Which kinds of hints to give."""

    test_results: bool = True
    frozen_contracts: bool = True
    bindings: bool = True


@record
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
        # The tests the spec declares (the matrix's ids, per the block registry).
        ids = [s.value for ref, s in _mentions_of(spec) if ref.symbol == "test" and ref.declares]
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


def _mentions_of(text: str) -> Iterator[tuple[kinds.Ref, JsonString]]:
    """Every symbol a Markdown document's Gemstack blocks name, block by block."""
    for block in gemstack_blocks(text):
        root = block.result.value
        if isinstance(root, JsonArray):
            for item in root.items:
                yield from item_refs(block.kind, item)


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
        mentions = [m for item in root.items for m in item_refs(block.kind, item)]
        # A path a block's items name (a binding's test file): how many of the items bind it.
        paths = Counter(s.value for ref, s in mentions if ref.symbol == "path")
        for ref, s in mentions:
            declared = ref.declares_in(name)
            if ref.symbol == "test" and declared and results is not None and s.value in results:
                latest = f"Latest result in {feature.closure}"
                hints.append(InlayHint(s.span.end, results[s.value], "test-result", latest))
            elif ref.symbol == "contract" and declared and options.frozen_contracts:
                frozen = contract_freeze(snapshot, feature, s.value)
                if frozen is not None:
                    hints.append(
                        InlayHint(
                            s.span.end,
                            f"frozen · {frozen.phase}",
                            "frozen",
                            f"Frozen by the {frozen.phase} phase: {frozen.reason}. Change it through an amendment.",
                        )
                    )
            elif ref.symbol == "path" and options.bindings:
                n = paths[s.value]
                hints.append(InlayHint(s.span.end, f"{n} test{'s' if n != 1 else ''} bound", "bindings"))
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
