"""``.gemstack/state.json``: the lifecycle state, parsed with a span for every value.

The reference reads state.json with a plain ``JSON.parse`` and silently falls back to its
defaults when that fails; we parse it with ``jsonspan`` so that a malformed file becomes a
finding at the exact token. Upstream never type-checks the file: Gemstack itself writes
``null`` into any field (``"stop_reason": null``, ``"last_update": null``) and adds fields
of its own (``guard_mode``, ``consistency``), so nulls and unknown fields are accepted
silently; a value of the wrong type in a field this tool reads is ignored with a hint.
``reference_parsable`` says whether the reference would have read the file at all (a BOM or
a syntax error make it fall back), which decides what the repository's active feature is.
Encoding findings (BOM, invalid UTF-8) are the documents check's, as for every artifact.
"""

from __future__ import annotations

import posixpath
import re
from typing import Protocol

from gemstack_lsp.core.feature import Feature
from gemstack_lsp.core.findings import Finding, Severity
from gemstack_lsp.core.frozen import record
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

#: The fields this tool reads; every one may be ``null`` or absent (Gemstack writes both).
_STRING_FIELDS = ("active_spec", "current_phase", "status", "last_completed_feature")
_STRING_LIST_FIELDS = ("completed_phases", "completed_features")
_ABSOLUTE = re.compile(r"^(?:[A-Za-z]:[\\/]|[\\/])")


@record
class StateValue:
    """A string value of state.json and where it is written."""

    value: str
    span: Span


@record
class PhaseHash:
    """One ``phase_hashes`` entry: the phase, the recorded hash and their spans."""

    phase: str
    value: str
    key_span: Span
    span: Span


@record
class GemstackState:
    """What state.json says, as far as it could be read.

    Fields the file lacks, holds as ``null`` or with the wrong type are ``None`` / empty; the
    problems are in ``findings`` (STATE_INVALID at the offending token: an error for a syntax
    error, a hint for a value of the wrong type).
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
    """A state.json the reference cannot read at all (a syntax error): an error, as in its verify."""
    return Finding("STATE_INVALID", message, STATE_PATH, span, subject=subject, phase="state")


def _ignored(message: str, span: Span | None, subject: str | None = None) -> Finding:
    """A value of the wrong type: the reference does not type-check state.json, so only a hint."""
    return Finding("STATE_INVALID", message, STATE_PATH, span, severity=Severity.HINT, subject=subject, phase="state")


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
            findings.append(
                _ignored(f"state.json should hold a JSON object, not {_kind(root)}; it is ignored.", root.span)
            )
        return GemstackState(None, parsable, findings=tuple(findings))

    values: dict[str, StateValue | None] = {}
    for name in _STRING_FIELDS:
        node = root.get(name)
        if node is None or isinstance(node, JsonNull):
            continue
        if isinstance(node, JsonString):
            values[name] = _string(node)
        else:
            findings.append(
                _ignored(f'"{name}" should be a string or null, not {_kind(node)}; it is ignored.', node.span, name)
            )

    lists: dict[str, tuple[StateValue, ...]] = {}
    for name in _STRING_LIST_FIELDS:
        node = root.get(name)
        if node is None or isinstance(node, JsonNull):
            continue
        if not isinstance(node, JsonArray):
            findings.append(
                _ignored(f'"{name}" should be an array of strings, not {_kind(node)}; it is ignored.', node.span, name)
            )
            continue
        items = []
        for item in node.items:
            if isinstance(item, JsonString):
                items.append(StateValue(item.value, item.span))
            elif not isinstance(item, JsonNull):
                findings.append(
                    _ignored(f'"{name}" should hold only strings, not {_kind(item)}; it is ignored.', item.span, name)
                )
        lists[name] = tuple(items)

    hashes: list[PhaseHash] = []
    hashes_node = root.get("phase_hashes")
    if hashes_node is not None and not isinstance(hashes_node, JsonObject | JsonNull):
        findings.append(
            _ignored(
                f'"phase_hashes" should be an object, not {_kind(hashes_node)}; it is ignored.',
                hashes_node.span,
                "phase_hashes",
            )
        )
    elif isinstance(hashes_node, JsonObject):
        for phase in FROZEN_PHASES:
            member = hashes_node.member(phase)
            if member is None or isinstance(member.value, JsonNull):
                continue
            if not isinstance(member.value, JsonString):
                findings.append(
                    _ignored(
                        f'"phase_hashes.{phase}" should be a hash string or null, '
                        f"not {_kind(member.value)}; it is ignored.",
                        member.value.span,
                        phase,
                    )
                )
                continue
            if member.value.value:
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


@record
class ActiveSpec:
    """``active_spec`` resolved against the repository.

    ``path`` is the repository-relative folder the reference would use; ``feature_name`` is
    set when that folder is ``specs/<name>``; ``problem`` says why it names no feature, and
    ``escapes`` that the path leaves the repository (the reference refuses it outright).
    """

    raw: str
    path: str | None
    feature_name: str | None
    #: Why it names no feature, without the value (``"lies outside the repository"``).
    reason: str | None = None
    escapes: bool = False

    @property
    def problem(self) -> str | None:
        """The value and why it names no feature (``'"/x" lies outside the repository'``)."""
        return f'"{self.raw}" {self.reason}' if self.reason is not None else None


_DRIVE_ROOT = re.compile(r"^[A-Za-z]:[\\/]")


def resolve_active_spec(raw: str, root: str) -> ActiveSpec:
    """Resolve ``active_spec`` as the reference does and map it to a ``specs/<name>`` feature.

    Backslashes become slashes; a relative path is taken from the repository root, ``./`` and
    a trailing slash change nothing, ``..`` segments are resolved (and may not leave the root);
    an absolute path must lie inside the root and is made relative to it (compared without
    regard to case only for a Windows drive path, as Node's win32 ``path.relative`` does).
    """
    value = raw.replace("\\", "/")
    if _ABSOLUTE.match(raw):
        base = root.replace("\\", "/").rstrip("/") + "/"
        inside = (value + "/").startswith(base)
        if not inside and _DRIVE_ROOT.match(root):
            inside = (value + "/").lower().startswith(base.lower())
        if not inside:
            return ActiveSpec(raw, None, None, "lies outside the repository", escapes=True)
        value = value[len(base) :]
    rel = normalize_relpath(value)
    rel = posixpath.normpath(rel) if rel else ""
    if rel == ".." or rel.startswith("../"):
        back = _back_inside(rel, root)
        if back is None:
            return ActiveSpec(raw, None, None, "leads outside the repository", escapes=True)
        rel = back
    if rel in ("", "."):
        return ActiveSpec(raw, None, None, "names the repository root, not a feature folder")
    parts = rel.split("/")
    if len(parts) == 2 and parts[0] == "specs":
        return ActiveSpec(raw, rel, parts[1])
    return ActiveSpec(raw, rel, None, "is not a feature folder under specs/")


def _back_inside(rel: str, root: str) -> str | None:
    """``rel`` (normalised, starting with ``..``) resolved against ``root`` as Node's
    ``path.resolve`` does, lexically: ``../repo/specs/a`` from ``/w/repo`` is ``specs/a``.

    ``None`` when the result leaves the root. Only the root's own path is used, never the
    disk, so a symbolic link cannot make a path count as inside.
    """
    base = root.replace("\\", "/")
    if _DRIVE_ROOT.match(base):
        base = base[2:]  # ".." segments never change the drive, so it plays no part here
    if not base.startswith("/"):
        return None
    inside = posixpath.normpath(base)
    resolved = posixpath.normpath(posixpath.join(inside, rel))
    if resolved == inside:
        return ""
    if inside == "/":
        return resolved.lstrip("/")
    if not resolved.startswith(inside + "/"):
        return None
    return resolved[len(inside) + 1 :]


def relative_inside(path: str, root: str) -> str | None:
    """A relative path with ``..`` segments (``../repo/specs/a/spec.md``) resolved against the
    repository root as Node's ``path.join``/``path.resolve`` do, lexically: the repository-relative
    path when it lands inside the root, else ``None``. Absolute paths are not taken here."""
    value = path.replace("\\", "/")
    if not value or _ABSOLUTE.match(path):
        return None
    rel = posixpath.normpath(value)
    if rel == ".." or rel.startswith("../"):
        back = _back_inside(rel, root)
        return back or None
    return None if rel == "." else rel


def active_spec_folder(raw: object, root: str) -> str | None:
    """The repository-relative folder an ``active_spec`` value names (``None`` when it names none).

    Only a non-empty string names a folder: ``null``, ``""`` and other falsy values mean "no
    active spec" to the reference.
    """
    if not isinstance(raw, str) or not raw:
        return None
    return resolve_active_spec(raw, root).path


def state_findings(repo: Repository) -> list[Finding]:
    """The findings of state.json: syntax, unusable values, and an active spec that does not exist."""
    state = repo.state()
    if state is None:
        return []
    findings = list(state.findings)
    spec = state.active_spec
    if spec is None or not spec.value:
        return findings
    resolved = resolve_active_spec(spec.value, repo.root)
    if resolved.escapes:
        # The reference's verify refuses such a path (PATH_TRAVERSAL_DETECTED): a real error.
        findings.append(_invalid(f"active_spec {resolved.problem}.", spec.span, "active_spec"))
    elif resolved.problem is not None:
        findings.append(_ignored(f"active_spec {resolved.problem}, so no feature is active.", spec.span, "active_spec"))
    if resolved.path is not None and not _has_spec(repo, resolved.path):
        findings.append(
            Finding(
                "STATE_ACTIVE_SPEC_MISSING",
                f'State drift: active_spec points to "{spec.value}", but "{resolved.path}/spec.md" does not exist.',
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
    """The feature the repository is working on, as the reference's ``verify`` sees it:
    state.json's ``active_spec`` when the reference can read the file, else none.

    Verify-like checks (frozen artifacts, closure evidence, the capsule's severity) run on this
    feature only. The reference falls back to ``specs/current`` (a Gemstack 0.x folder) only
    when ``context`` chooses a feature to work on (``capsule.sources.resolve_feature``); with
    ``active_spec: null`` its verify checks no feature, so neither do we.
    """
    state = repo.state()
    if state is not None and state.reference_parsable and state.active_spec is not None and state.active_spec.value:
        resolved = resolve_active_spec(state.active_spec.value, repo.root)
        return Feature(resolved.feature_name) if resolved.feature_name else None
    return None
