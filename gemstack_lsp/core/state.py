"""``.gemstack/state.json``: the lifecycle state, parsed with a span for every value.

The reference reads state.json with a plain ``JSON.parse`` and silently falls back to its
defaults when that fails; we parse it with ``jsonspan`` so that a malformed file, a value of
the wrong type or an ``active_spec`` naming no feature becomes a finding at the exact token.
``reference_parsable`` says whether the reference would have read the file at all (a BOM or a
syntax error make it fall back), which decides what the repository's active feature is.
Encoding findings (BOM, invalid UTF-8) are the documents check's, as for every artifact.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Protocol

from gemstack_lsp.core.feature import Feature
from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.jsonspan import JsonArray, JsonNode, JsonNull, JsonObject, JsonString, parse_json, type_name
from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.reader import Reader, normalize_relpath
from gemstack_lsp.core.text import Span


class Repository(Protocol):
    """What the repository-level parts of this module read of a ``GemstackRepo`` (which
    imports this module, so it is named by what it offers)."""

    @property
    def root(self) -> str: ...

    @property
    def reader(self) -> Reader: ...

    def exists(self, path: str) -> bool: ...

    def state(self) -> GemstackState | None: ...


STATE_PATH = ".gemstack/state.json"
#: The phases whose artifacts state.json may freeze with a hash, and their file names.
FROZEN_PHASES = ("spec", "plan", "tasks")

_STRING_FIELDS = ("current_phase", "status", "stop_reason", "version", "last_update")
_NULLABLE_STRING_FIELDS = ("active_spec", "last_completed_feature")
_STRING_LIST_FIELDS = ("completed_phases", "completed_features")
_ABSOLUTE = re.compile(r"^(?:[A-Za-z]:[\\/]|[\\/])")


@dataclass(frozen=True)
class StateValue:
    """A string value of state.json and where it is written."""

    value: str
    span: Span


@dataclass(frozen=True)
class PhaseHash:
    """One ``phase_hashes`` entry: the phase, the recorded hash and their spans."""

    phase: str
    value: str
    key_span: Span
    span: Span


@dataclass(frozen=True)
class GemstackState:
    """What state.json says, as far as it could be read.

    Fields the file lacks (or holds with the wrong type) are ``None`` / empty; the problems
    are in ``findings`` (STATE_INVALID at the offending token).
    """

    root: JsonObject | None
    reference_parsable: bool
    active_spec: StateValue | None = None
    current_phase: StateValue | None = None
    status: StateValue | None = None
    last_completed_feature: StateValue | None = None
    completed_phases: tuple[StateValue, ...] = ()
    completed_features: tuple[StateValue, ...] = ()
    phase_hashes: tuple[PhaseHash, ...] = ()
    phase_hashes_span: Span | None = None
    findings: tuple[Finding, ...] = ()

    def phase_hash(self, phase: str) -> PhaseHash | None:
        for p in self.phase_hashes:
            if p.phase == phase:
                return p
        return None


def _invalid(message: str, span: Span | None, subject: str | None = None) -> Finding:
    return Finding("STATE_INVALID", message, STATE_PATH, span, subject=subject, phase="state")


def _string(node: JsonNode | None) -> StateValue | None:
    return StateValue(node.value, node.span) if isinstance(node, JsonString) else None


@per_text
def parse_state(text: str, has_bom: bool = False) -> GemstackState:
    """Parse the decoded text of state.json (``has_bom``: the file started with a BOM)."""
    result = parse_json(text)
    findings: list[Finding] = []
    for err in result.errors:
        findings.append(_invalid(f"state.json is not valid JSON: {err.message}", err.span))
    for dup in result.duplicate_keys:
        findings.append(
            Finding(
                "JSON_DUPLICATE_KEY",
                f'state.json repeats the key "{dup.key.value}"; JSON.parse keeps only the last value.',
                STATE_PATH,
                dup.key.span,
                subject=dup.key.value,
                phase="state",
            )
        )
    root = result.value
    parsable = result.ok and not has_bom
    if not isinstance(root, JsonObject):
        if root is not None and not result.errors:
            findings.append(_invalid(f"state.json must hold a JSON object, not {_kind(root)}.", root.span))
        return GemstackState(None, parsable, findings=tuple(findings))

    values: dict[str, StateValue | None] = {}
    for name in (*_STRING_FIELDS, *_NULLABLE_STRING_FIELDS):
        node = root.get(name)
        if node is None:
            continue
        if isinstance(node, JsonString):
            values[name] = _string(node)
        elif not (isinstance(node, JsonNull) and name in _NULLABLE_STRING_FIELDS):
            allowed = "a string or null" if name in _NULLABLE_STRING_FIELDS else "a string"
            findings.append(_invalid(f'"{name}" must be {allowed}, not {_kind(node)}.', node.span, name))

    lists: dict[str, tuple[StateValue, ...]] = {}
    for name in _STRING_LIST_FIELDS:
        node = root.get(name)
        if node is None:
            continue
        if not isinstance(node, JsonArray):
            findings.append(_invalid(f'"{name}" must be an array of strings, not {_kind(node)}.', node.span, name))
            continue
        items = []
        for item in node.items:
            if isinstance(item, JsonString):
                items.append(StateValue(item.value, item.span))
            else:
                findings.append(_invalid(f'"{name}" must hold only strings, not {_kind(item)}.', item.span, name))
        lists[name] = tuple(items)

    hashes: list[PhaseHash] = []
    hashes_node = root.get("phase_hashes")
    if hashes_node is not None and not isinstance(hashes_node, JsonObject | JsonNull):
        findings.append(
            _invalid(f'"phase_hashes" must be an object, not {_kind(hashes_node)}.', hashes_node.span, "phase_hashes")
        )
    elif isinstance(hashes_node, JsonObject):
        for phase in FROZEN_PHASES:
            member = hashes_node.member(phase)
            if member is None or isinstance(member.value, JsonNull):
                continue
            if not isinstance(member.value, JsonString):
                findings.append(
                    _invalid(
                        f'"phase_hashes.{phase}" must be a hash string, not {_kind(member.value)}.',
                        member.value.span,
                        phase,
                    )
                )
                continue
            hashes.append(PhaseHash(phase, member.value.value, member.key.span, member.value.span))

    return GemstackState(
        root=root,
        reference_parsable=parsable,
        active_spec=values.get("active_spec"),
        current_phase=values.get("current_phase"),
        status=values.get("status"),
        last_completed_feature=values.get("last_completed_feature"),
        completed_phases=lists.get("completed_phases", ()),
        completed_features=lists.get("completed_features", ()),
        phase_hashes=tuple(hashes),
        phase_hashes_span=hashes_node.span if isinstance(hashes_node, JsonObject) else None,
        findings=tuple(findings),
    )


def _kind(node: JsonNode) -> str:
    if isinstance(node, JsonNull):
        return "null"
    if isinstance(node, JsonArray):
        return "an array"
    if isinstance(node, JsonObject):
        return "an object"
    return f"a {type_name(node)}"


@dataclass(frozen=True)
class ActiveSpec:
    """``active_spec`` resolved against the repository.

    ``path`` is the repository-relative folder the reference would use; ``feature_name`` is
    set when that folder is ``specs/<name>``; ``problem`` says why it names no feature.
    """

    raw: str
    path: str | None
    feature_name: str | None
    problem: str | None = None


def resolve_active_spec(raw: str, root: str) -> ActiveSpec:
    """Normalise ``active_spec`` as the reference does (an absolute path is taken relative to the
    repository root; backslashes become slashes) and map it to a ``specs/<name>`` feature."""
    value = raw.replace("\\", "/")
    if _ABSOLUTE.match(raw):
        base = root.replace("\\", "/").rstrip("/") + "/"
        if not (value + "/").startswith(base) and not (value + "/").lower().startswith(base.lower()):
            return ActiveSpec(raw, None, None, f'"{raw}" lies outside the repository')
        value = value[len(base) :]
    rel = normalize_relpath(value)
    rel = posixpath.normpath(rel) if rel else ""
    if rel in ("", ".") or rel == ".." or rel.startswith("../"):
        return ActiveSpec(raw, None, None, f'"{raw}" does not name a folder inside the repository')
    parts = rel.split("/")
    if len(parts) == 2 and parts[0] == "specs":
        return ActiveSpec(raw, rel, parts[1])
    return ActiveSpec(raw, rel, None, f'"{raw}" is not a feature folder under specs/')


def state_findings(repo: Repository) -> list[Finding]:
    """The findings of state.json: syntax and shape, and an active spec that does not exist."""
    state = repo.state()
    if state is None:
        return []
    findings = list(state.findings)
    spec = state.active_spec
    if spec is None or not spec.value:
        return findings
    resolved = resolve_active_spec(spec.value, repo.root)
    if resolved.problem is not None:
        findings.append(_invalid(f"active_spec {resolved.problem}.", spec.span, "active_spec"))
    if resolved.path is not None and not _has_spec(repo, resolved.path):
        findings.append(
            Finding(
                "STATE_ACTIVE_SPEC_MISSING",
                f'active_spec "{spec.value}" has no spec.md ({resolved.path}/spec.md does not exist).',
                STATE_PATH,
                spec.span,
                subject="active_spec",
                phase="state",
            )
        )
    return findings


def _has_spec(repo: Repository, folder: str) -> bool:
    """True when ``folder`` is a folder holding a spec.md (readable or not: that is another finding).

    The folder is asked for first: a path beneath a regular file (``specs/x/spec.md/spec.md``)
    is no spec.md, whatever the reader answers when asked to read it.
    """
    return repo.reader.list_dir(folder) is not None and repo.exists(f"{folder}/spec.md")


def active_feature_of(repo: Repository) -> Feature | None:
    """The feature the repository is working on, resolved as the reference does (section 1):
    state.json's ``active_spec`` when the reference can read the file, else ``specs/current``
    when that folder exists. (The reference's hard-coded ``specs/009-context-capsule`` fallback
    is deliberately not copied.)"""
    state = repo.state()
    if state is not None and state.reference_parsable and state.active_spec is not None and state.active_spec.value:
        resolved = resolve_active_spec(state.active_spec.value, repo.root)
        return Feature(resolved.feature_name) if resolved.feature_name else None
    if repo.reader.list_dir("specs/current") is not None:
        return Feature("current")
    return None
