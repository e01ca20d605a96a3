"""Which phases of a feature are frozen, and which contracts they freeze, as plain data.

Gemstack freezes a phase when the workflow approves it: ``.gemstack/state.json`` then records
the hash of its artifact (``phase_hashes.spec``, ``.plan``, ``.tasks``) or lists the phase in
``completed_phases`` (both for the active feature), and a feature named in
``completed_features`` (or ``last_completed_feature``) is frozen as a whole. A frozen phase's
document may no longer change without an amendment: ``FROZEN_ARTIFACT_CHANGED`` reports a
change, and the authoring features (rename, formatting) refuse to make one unless the user
confirms it explicitly.

A contract is frozen by the first phase (spec, then plan, then tasks) that declares it in a
``gemstack-contracts`` (or inherited-contracts) block and is frozen. Hover calls every
contract of spec.md a frozen contract, as Gemstack's vocabulary does (``frozen_contracts`` of
the capsule); this module says whether the freeze is in force yet.
"""

from __future__ import annotations

from gemstack_lsp.core.blocks.contracts import CONTRACT_KINDS
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jsonspan import JsonArray
from gemstack_lsp.core.repo import Feature
from gemstack_lsp.core.state import FROZEN_PHASES
from gemstack_lsp.host import Snapshot
from gemstack_lsp.ide.outline import gemstack_blocks, item_id

__all__ = ["FrozenPhase", "contract_freeze", "document_freeze", "frozen_phases", "phase_of"]


@record
class FrozenPhase:
    """A frozen phase of a feature and what says so (``phase_hashes``, ``completed_phases``...)."""

    feature: str
    phase: str
    reason: str


def _names(feature: Feature) -> frozenset[str]:
    return frozenset({feature.name, feature.path, f"{feature.path}/", f"./{feature.path}"})


def _compute(snapshot: Snapshot, feature: Feature) -> tuple[FrozenPhase, ...]:
    state = snapshot.repo.state()
    if state is None:
        return ()
    names = _names(feature)
    completed = [v.value for v in state.completed_features]
    if state.last_completed_feature is not None:
        completed.append(state.last_completed_feature.value)
    if any(v in names for v in completed):
        return tuple(FrozenPhase(feature.name, p, "the feature is completed in state.json") for p in FROZEN_PHASES)
    active = snapshot.repo.active_feature()
    if active is None or active.name != feature.name:
        return ()
    done = {v.value for v in state.completed_phases}
    out: list[FrozenPhase] = []
    for phase in FROZEN_PHASES:
        recorded = state.phase_hash(phase)
        if recorded is not None and recorded.value:
            out.append(FrozenPhase(feature.name, phase, f"state.json records its hash (phase_hashes.{phase})"))
        elif phase in done:
            out.append(FrozenPhase(feature.name, phase, "state.json lists it in completed_phases"))
    return tuple(out)


def frozen_phases(snapshot: Snapshot, feature: Feature) -> tuple[FrozenPhase, ...]:
    """The frozen phases of ``feature`` as of ``snapshot`` (computed once per revision)."""
    return snapshot.derived(("ide.frozen-phases", feature.name), lambda snap: _compute(snap, feature))


def phase_of(path: str) -> str | None:
    """The phase whose artifact the repository-relative ``path`` is (spec.md -> spec), if any."""
    name = path.rsplit("/", 1)[-1]
    phase = name[:-3] if name.endswith(".md") else ""
    return phase if phase in FROZEN_PHASES else None


def document_freeze(snapshot: Snapshot, path: str) -> FrozenPhase | None:
    """The frozen phase whose artifact is the document at ``path``, or ``None``."""
    feature = snapshot.repo.feature_of(path)
    phase = phase_of(path)
    if feature is None or phase is None:
        return None
    return next((p for p in frozen_phases(snapshot, feature) if p.phase == phase), None)


def contract_freeze(snapshot: Snapshot, feature: Feature, contract_id: str) -> FrozenPhase | None:
    """The frozen phase that freezes contract ``contract_id`` of ``feature``, or ``None``."""
    frozen = {p.phase: p for p in frozen_phases(snapshot, feature)}
    if not frozen:
        return None
    for phase in FROZEN_PHASES:
        if phase not in frozen:
            continue
        text = snapshot.repo.document(feature.file(f"{phase}.md")).text
        if text is None:
            continue
        for block in gemstack_blocks(text):
            if block.kind not in CONTRACT_KINDS:
                continue
            root = block.result.value
            items = root.items if isinstance(root, JsonArray) else ()
            if any((ident := item_id(block.kind, item)) is not None and ident.value == contract_id for item in items):
                return frozen[phase]
    return None
