"""The documents check: each feature's spec.md, plan.md and tasks.md, and state.json, across files.

Per file: it is readable (ARTIFACT_UNREADABLE), plain UTF-8 without a BOM
(ARTIFACT_ENCODING_INVALID), and its Gemstack blocks parse (the findings of ``blocks_of``).
Across files: plan.md and tasks.md do not contradict the frozen contracts of spec.md
(FROZEN_CONTRACT_VIOLATION, with a ``Related`` pointing at the declaration), test bindings name
tests of the spec's matrix, tasks declare their validation, and state.json is sound and its
recorded phase hashes still match the active feature's artifacts (FROZEN_ARTIFACT_CHANGED).
Capsule and cost findings are other checks' (``core/capsule/verify.py``, ``core/cost/checks.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks import DocumentBlocks, blocks_of
from gemstack_lsp.core.blocks.contracts import FrozenContract, Violation, compare_phase, effective_contracts
from gemstack_lsp.core.findings import Finding, Fix, Related, Severity, TextEdit, contained
from gemstack_lsp.core.hashing import hash_text
from gemstack_lsp.core.jsonspan import NOT_PLAIN, JsonArray, JsonObject, JsonString, parse_json
from gemstack_lsp.core.markdown import reference_blocks
from gemstack_lsp.core.reader import ReadStatus
from gemstack_lsp.core.redact import excerpt
from gemstack_lsp.core.repo import FEATURE_DOCS, SPECS_DIR, Document, Feature, GemstackRepo
from gemstack_lsp.core.state import STATE_PATH, state_findings
from gemstack_lsp.core.tasks import format_findings, parse_tasks
from gemstack_lsp.core.text import Span

if TYPE_CHECKING:
    from gemstack_lsp.core.options import AnalysisOptions

_UNREADABLE_REASONS = {
    ReadStatus.NOT_A_FILE: "it is not a regular file",
    ReadStatus.SYMLINK_OUTSIDE: "it is a symbolic link that leads outside the repository",
    ReadStatus.TOO_LARGE: "it is too large to analyse",
    ReadStatus.ERROR: "it could not be read",
}


def artifact_findings(doc: Document) -> list[Finding]:
    """ARTIFACT_UNREADABLE and ARTIFACT_ENCODING_INVALID for one artifact (nothing when it is absent)."""
    status = doc.content.status
    if status is ReadStatus.MISSING:
        return []
    name = doc.path.rsplit("/", 1)[-1]
    if not doc.readable:
        reason = _UNREADABLE_REASONS.get(status, "it could not be read")
        detail = f" ({doc.content.detail})" if doc.content.detail else ""
        return [Finding("ARTIFACT_UNREADABLE", f"{name} cannot be analysed: {reason}{detail}.", doc.path)]
    out: list[Finding] = []
    if doc.has_bom:
        out.append(
            Finding(
                "ARTIFACT_ENCODING_INVALID",
                f"{name} starts with a UTF-8 byte-order mark; Gemstack artifacts must be UTF-8 without a BOM "
                "(the reference refuses to hash it).",
                doc.path,
                Span(0, 0),
            )
        )
    if doc.invalid_utf8_at is not None and doc.data is not None and doc.text is not None:
        bad = doc.invalid_utf8_at
        skip = 3 if doc.has_bom else 0
        offset = len(doc.data[skip:bad].decode("utf-8"))
        end = min(offset + 1, len(doc.text))
        out.append(
            Finding(
                "ARTIFACT_ENCODING_INVALID",
                f"{name} is not valid UTF-8: byte 0x{doc.data[bad]:02X} at byte offset {bad} starts an invalid "
                "sequence (it reads as U+FFFD and changes the file's hash).",
                doc.path,
                Span(offset, end),
            )
        )
    return out


#: JSON files Gemstack reads that have no finding code of their own, and how bad a syntax error
#: in each is: the reference's verify fails on an unreadable ``.gemstack/manifest.json`` (stage 1)
#: and only warns on ``package.json``. (``amendments.json`` has a code of its own,
#: ``AMENDMENT_FILE_INVALID``: see ``core/amendments.py``.)
REPOSITORY_JSON_FILES: tuple[tuple[str, Severity | None], ...] = (
    ("package.json", Severity.WARNING),
    (".gemstack/manifest.json", None),
)
FEATURE_JSON_FILES: tuple[tuple[str, Severity | None], ...] = ()


def json_file_findings(repo: GemstackRepo, path: str, severity: Severity | None = None) -> list[Finding]:
    """JSON_SYNTAX_ERROR at the offending token of a JSON file Gemstack reads, and its repeated keys.

    A byte-order mark is a syntax error too (``JSON.parse`` refuses it). Nothing when the file
    does not exist or cannot be read (the latter is another finding).
    """
    doc = repo.document(path)
    if doc.text is None:
        return []
    name = path.rsplit("/", 1)[-1]
    if doc.has_bom:
        message = f"{name} is not valid JSON: it starts with a UTF-8 byte-order mark, which JSON.parse refuses."
        return [Finding("JSON_SYNTAX_ERROR", message, path, Span(0, 0), severity=severity)]
    result = parse_json(doc.text)
    out = [
        Finding("JSON_SYNTAX_ERROR", f"{name} is not valid JSON: {err.message}", path, err.span, severity=severity)
        for err in result.errors
    ]
    for dup in result.duplicate_keys:
        message = f'Duplicate key "{dup.key.value}" in {name}: JSON.parse keeps only its last value.'
        out.append(Finding("JSON_DUPLICATE_KEY", message, path, dup.key.span))
    return out


def check_repo(repo: GemstackRepo, options: AnalysisOptions) -> Iterable[Finding]:
    """Every documents finding of the repository.

    Each feature and state.json are checked on their own: one that makes a check raise gets a
    GEMSTACK_INTERNAL_ERROR finding and does not hide the findings of the others.
    """
    from gemstack_lsp.core.identity import is_gemstack_repository

    findings: list[Finding] = []
    gemstack = is_gemstack_repository(repo)
    for feature in repo.features():
        findings.extend(contained("documents", feature.spec, functools.partial(feature_findings, repo, feature)))
        if gemstack:
            findings.extend(
                contained("documents", feature.tasks, functools.partial(tasks_format_findings, repo, feature))
            )
    findings.extend(contained("documents", STATE_PATH, functools.partial(repository_findings, repo)))
    return findings


def repository_findings(repo: GemstackRepo) -> list[Finding]:
    """The findings of what belongs to no feature: the specs/ folder itself, state.json
    (readable, sound, its frozen hashes still matching) and the repository's other JSON files."""
    findings: list[Finding] = []
    # Parts (``GemstackRepo.part``): only the last group reads a feature's documents.
    findings.extend(
        repo.part(
            ("documents.repository", SPECS_DIR),
            functools.partial(_contained_tuple, SPECS_DIR, functools.partial(specs_folder_findings, repo)),
        )
    )
    for path, severity in REPOSITORY_JSON_FILES:
        check = functools.partial(json_file_findings, repo, path, severity)
        findings.extend(repo.part(("documents.repository", path), functools.partial(_contained_tuple, path, check)))
    findings.extend(
        contained(
            "documents",
            STATE_PATH,
            lambda: [
                *artifact_findings(repo.document(STATE_PATH)),
                *state_findings(repo),
                *frozen_artifact_findings(repo),
            ],
        )
    )
    return findings


def _contained_tuple(path: str, check: Callable[[], list[Finding]]) -> tuple[Finding, ...]:
    return tuple(contained("documents", path, check))


def specs_folder_findings(repo: GemstackRepo) -> list[Finding]:
    """ARTIFACT_UNREADABLE when ``specs/`` itself is a symlink out of the repository (or unreadable).

    Its features are then never listed, so without this finding a check would pass having
    looked at nothing.
    """
    content = repo.reader.read(SPECS_DIR)
    if content.status not in (ReadStatus.SYMLINK_OUTSIDE, ReadStatus.ERROR):
        return []
    reason = _UNREADABLE_REASONS[content.status]
    detail = f" ({content.detail})" if content.detail else ""
    return [
        Finding(
            "ARTIFACT_UNREADABLE",
            f"{SPECS_DIR}/ cannot be analysed: {reason}{detail}; none of its features were checked.",
            SPECS_DIR,
        )
    ]


def feature_findings(repo: GemstackRepo, feature: Feature) -> list[Finding]:
    """The findings of one feature's spec.md, plan.md and tasks.md, alone and together."""
    findings: list[Finding] = []
    blocks: dict[str, DocumentBlocks] = {}
    texts: dict[str, str] = {}
    for name in FEATURE_DOCS:
        doc = repo.document(feature.file(name))
        findings.extend(artifact_findings(doc))
        if doc.text is None:
            continue
        texts[name] = doc.text
        blocks[name] = blocks_of(doc.path, doc.text)
        findings.extend(blocks[name].findings)
        if name == "tasks.md":
            findings.extend(parse_tasks(doc.text).findings(doc.path, doc.text))
    findings.extend(contract_findings(feature, blocks, texts))
    findings.extend(binding_findings(blocks))
    for name, severity in FEATURE_JSON_FILES:
        findings.extend(json_file_findings(repo, feature.file(name), severity))
    return findings


def tasks_format_findings(repo: GemstackRepo, feature: Feature) -> list[Finding]:
    """What the reference would read differently in the feature's tasks.md
    (``tasks.format_findings``). It matters only where Gemstack runs, a spec-kit repository's
    own task lists being none of our business: the caller reports these only in a Gemstack
    repository (``rules.combine``, from every unit's part of the answer)."""
    doc = repo.document(feature.tasks)
    return format_findings(doc.path, doc.text) if doc.text is not None else []


def contract_findings(feature: Feature, blocks: dict[str, DocumentBlocks], texts: dict[str, str]) -> list[Finding]:
    """FROZEN_CONTRACT_VIOLATION: plan.md against spec.md, tasks.md against spec.md plus plan.md's additions.

    Each downstream document's ``gemstack-contracts`` and ``gemstack-inherited-contracts`` blocks
    are compared on their own, the same way (the reference reads only the first). The
    fingerprint is the reference's: subject = contract id, phase = plan or tasks, location =
    the repository-relative path of the contradicting document.
    """
    spec = blocks.get("spec.md")
    if spec is None or not spec.contracts.items:
        return []
    spec_items = spec.contracts.items
    plan = blocks.get("plan.md")
    plan_items = plan.contract_items if plan is not None else ()
    out: list[Finding] = []
    origin: dict[int, str] = {id(c): "spec.md" for c in spec_items}
    origin.update({id(c): "plan.md" for c in plan_items if id(c) not in origin})
    comparisons: list[tuple[str, str, list[Violation]]] = []
    if plan is not None:
        for result in (plan.contracts, plan.inherited_contracts):
            comparisons.append(("plan.md", result.kind, compare_phase(spec_items, result.items, "plan")))
    tasks = blocks.get("tasks.md")
    if tasks is not None:
        upstream = effective_contracts(spec_items, plan_items)
        for result in (tasks.contracts, tasks.inherited_contracts):
            comparisons.append(("tasks.md", result.kind, compare_phase(upstream, result.items, "tasks")))
    for name, kind, violations in comparisons:
        path = feature.file(name)
        for v in violations:
            up_name = origin.get(id(v.upstream), "spec.md")
            up_path = feature.file(up_name)
            out.append(
                Finding(
                    "FROZEN_CONTRACT_VIOLATION",
                    v.message,
                    path,
                    v.span,
                    subject=v.contract_id,
                    phase=v.phase,
                    fixes=_restore_fixes(v, path, texts.get(up_name)),
                    related=(Related(up_path, v.upstream.id_span, f'"{v.contract_id}" is frozen here, in {up_name}'),),
                    data={"violationType": v.violation_type, "delta": dict(v.delta), "block": kind},
                )
            )
    return out


def _restore_fixes(v: Violation, path: str, upstream_text: str | None) -> tuple[Fix, ...]:
    """Replace the contradicting part of the redeclaration with the frozen declaration's text."""
    if upstream_text is None:
        return ()
    up: FrozenContract = v.upstream
    down: FrozenContract = v.downstream
    if v.violation_type in ("ENUM_SET_MISMATCH", "IDENTITY_TUPLE_MISMATCH") and up.node.get("values") is not None:
        target, source = down.values_span, up.values_span
    elif v.violation_type in ("BOOLEAN_CONTRADICTION", "BOUNDARY_CONTRADICTION", "ROADMAP_LIMIT_MISMATCH") and (
        up.node.get("value") is not None and down.node.get("value") is not None
    ):
        target, source = down.value_span, up.value_span
    else:
        target, source = down.span, up.span
    edit = TextEdit(path, target, upstream_text[source.start : source.end])
    return (Fix(f'Restore the frozen declaration of "{v.contract_id}"', (edit,), preferred=True),)


def _matrix_ids(spec: DocumentBlocks) -> set[str] | None:
    """The test ids the spec's matrix declares (every entry with a string id, valid or not);
    ``None`` when there is no matrix to check against (absent, not an array, or an array cut
    short by a syntax error: the entries after the error are unknown, not missing)."""
    if not spec.test_matrix.present:
        return None
    plain = spec.test_matrix.plain_value  # the values the block was read as: no tree is made
    if plain is not NOT_PLAIN:
        if not isinstance(plain, list):
            return None
        return {item["id"] for item in plain if isinstance(item, dict) and isinstance(item.get("id"), str)} or None
    root = spec.test_matrix.value_tree  # values only: a moved matrix is not parsed again
    if not isinstance(root, JsonArray) or not root.complete:
        return None
    ids = set()
    for item in root.items:
        if isinstance(item, JsonObject):
            node = item.get("id")
            if isinstance(node, JsonString):
                ids.add(node.value)
    return ids or None


def binding_findings(blocks: dict[str, DocumentBlocks]) -> list[Finding]:
    """BINDINGS_PARSE_ERROR for a binding whose test id the spec's matrix does not declare.

    The reference has this rule (``Binding references unknown canonical ID``) but its CLI never
    passes the matrix, so it never fires there; here it does whenever spec.md has a matrix.
    """
    spec = blocks.get("spec.md")
    ids = _matrix_ids(spec) if spec is not None else None
    if spec is None or ids is None:
        return []
    matrix_fence = spec.test_matrix.fence
    matrix_at = Related(
        spec.path, matrix_fence.open_span if matrix_fence else None, "the test matrix it is checked against"
    )
    out: list[Finding] = []
    for name in FEATURE_DOCS:
        doc = blocks.get(name)
        if doc is None:
            continue
        for b in doc.test_bindings.items:
            if b.test_id not in ids:
                out.append(
                    Finding(
                        "BINDINGS_PARSE_ERROR",
                        f'Binding references unknown canonical ID: "{b.test_id}"',
                        doc.path,
                        b.test_id_span,
                        subject=b.test_id,
                        related=(matrix_at,),
                    )
                )
    return out


def _has_reference_contracts(text: str) -> bool:
    return bool(reference_blocks(text, kinds.CONTRACTS))


def refreeze_hint(phase: str, name: str) -> str:
    """What clears FROZEN_ARTIFACT_CHANGED (regenerating the context capsule does not)."""
    return (
        f"Regenerating the context capsule does not re-freeze the {phase} phase: undo the change to {name}, "
        f"or approve the {phase} phase again in the Gemstack workflow so that it records the new hash "
        f"in .gemstack/state.json (phase_hashes.{phase})."
    )


def frozen_artifact_findings(repo: GemstackRepo) -> list[Finding]:
    """FROZEN_ARTIFACT_CHANGED for each of the active feature's artifacts whose hash differs
    from the one state.json recorded.

    As in the reference (verify stage 4) the check runs only for a structured feature (its
    spec.md has a contracts block) and only for artifacts that exist and have a recorded hash.
    Each change is reported twice: on the recorded hash in state.json and on line 1 of the
    artifact.
    """
    state = repo.state()
    feature = repo.active_feature()
    if state is None or feature is None or not state.phase_hashes:
        return []
    spec = repo.document(feature.spec)
    if spec.text is None or spec.has_bom or not _has_reference_contracts(spec.text):
        return []
    out: list[Finding] = []
    for recorded in state.phase_hashes:
        path = feature.file(f"{recorded.phase}.md")
        doc = repo.document(path)
        if doc.text is None or doc.has_bom:
            continue
        actual = hash_text(doc.text)
        if actual == recorded.value:
            continue
        name = f"{recorded.phase}.md"
        detail = f"recorded {excerpt(recorded.value, 12)}..., now {actual[:12]}..."
        first_line = doc.source.span_of_line(0) if doc.source is not None else None
        out.append(
            Finding(
                "FROZEN_ARTIFACT_CHANGED",
                f"The frozen artifact {name} of {feature.name} changed after state.json recorded its hash ({detail}). "
                + refreeze_hint(recorded.phase, name),
                STATE_PATH,
                recorded.span,
                subject=recorded.phase,
                phase=recorded.phase,
                related=(Related(path, first_line, f"{name} as it is now"),),
                data={"expected": recorded.value, "actual": actual, "artifact": path},
            )
        )
        out.append(
            Finding(
                "FROZEN_ARTIFACT_CHANGED",
                f"{name} changed after its phase was frozen: state.json records another hash ({detail}). "
                + refreeze_hint(recorded.phase, name),
                path,
                first_line,
                subject=recorded.phase,
                phase=recorded.phase,
                related=(Related(STATE_PATH, recorded.span, "the hash state.json recorded"),),
                data={"expected": recorded.value, "actual": actual},
            )
        )
    return out
