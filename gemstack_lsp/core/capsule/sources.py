"""The capsule's authoritative sources: which files, with which role, hashed how.

Source selection follows the reference (``gemstack-cli.md`` 5.2): the feature's spec, plan,
tasks, closure evidence and feature ledger, plus ``.gemstack/state.json`` and the root
``cost-ledger.json``; each is included only when it exists, and the list is sorted by path.
Nothing else is ever a source: no ``.env``, no chat logs, no sidecars.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gemstack_lsp.core.capsule.canonical import compact_json, parse_json
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.hashing import BomError, hash_bytes, hash_text, sha256_hex
from gemstack_lsp.core.jscompat import utf16_key
from gemstack_lsp.core.reader import ReadStatus, normalize_relpath
from gemstack_lsp.core.repo import STATE_PATH, GemstackRepo
from gemstack_lsp.core.state import active_spec_folder

CAPSULE_FILE = "context-capsule.json"
CAPSULE_MD_FILE = "context-capsule.md"

#: (role, file name, relative to the feature (True) or to the repository root (False)).
SOURCE_CANDIDATES: tuple[tuple[str, str, bool], ...] = (
    ("SPECIFICATION", "spec.md", True),
    ("PLAN", "plan.md", True),
    ("TASKS", "tasks.md", True),
    ("LIFECYCLE_STATE", STATE_PATH, False),
    ("CLOSURE_EVIDENCE", "closure.json", True),
    ("COST_LEDGER", "cost-ledger.json", False),
    ("FEATURE_COST_LEDGER", "cost-ledger.json", True),
)

ROLES = tuple(r for r, _, _ in SOURCE_CANDIDATES)


@record
class SourceRecord:
    """One provenance entry: ``{path, hash, role}``."""

    path: str
    hash: str
    role: str

    def as_json(self) -> dict[str, str]:
        return {"path": self.path, "hash": self.hash, "role": self.role}


class SourceError(ValueError):
    """A source exists but cannot be hashed (a BOM, a directory, an unreadable file)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path


def feature_path(feature: str) -> str:
    """A feature folder as a POSIX repository-relative path (``specs/x``, no ``./``, no trailing ``/``)."""
    return normalize_relpath(feature)


def candidate_paths(feature: str) -> list[tuple[str, str]]:
    """Every (role, path) that would be a source if it existed."""
    base = feature_path(feature)
    return [(role, f"{base}/{name}" if in_feature else name) for role, name, in_feature in SOURCE_CANDIDATES]


def hash_source(repo: GemstackRepo, path: str) -> str | None:
    """The reference hash of a source, ``None`` when it does not exist; raises ``SourceError``."""
    doc = repo.document(path)
    status = doc.content.status
    if status is ReadStatus.MISSING:
        return None
    if not doc.content.ok or doc.data is None:
        raise SourceError(path, f"Source file {path} cannot be read: {doc.content.detail or status.value}")
    try:
        if doc.text is not None and not doc.has_bom and not doc.content.from_buffer:
            # A file decoded without a BOM holds exactly the text ``hash_bytes`` would decode
            # (``decode_utf8`` replaces invalid sequences as it does): hashing that text, kept
            # per text, spares decoding every unchanged source again on each keystroke.
            return hash_text(doc.text)
        return hash_bytes(doc.data)
    except BomError as exc:
        raise SourceError(path, str(exc)) from exc


def collect_sources(repo: GemstackRepo, feature: str) -> list[SourceRecord]:
    """The sources of a feature's capsule, sorted by path (code units); raises ``SourceError``."""
    records = []
    for role, path in candidate_paths(feature):
        digest = hash_source(repo, path)
        if digest is not None:
            records.append(SourceRecord(path, digest, role))
    return sorted(records, key=lambda r: utf16_key(r.path))


def source_set_hash(entries: Sequence[Mapping[str, Any]]) -> str:
    """SHA-256 of the compact JSON ``[{"path": p, "hash": h}, ...]`` in the order given."""
    payload = [{"path": e.get("path"), "hash": e.get("hash")} for e in entries]
    return sha256_hex(compact_json(payload))


def read_state(repo: GemstackRepo) -> dict[str, Any] | None:
    """``.gemstack/state.json`` as an object, ``None`` when absent, unreadable or not an object."""
    doc = repo.document(STATE_PATH)
    if doc.text is None:
        return None
    try:
        data = parse_json(doc.text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def state_folder(repo: GemstackRepo, key: str) -> str | None:
    """The folder a path-valued state.json field (``active_spec``, ``last_completed_feature``)
    names, resolved as the reference resolves ``active_spec`` (relative to the root; ``./``,
    a trailing slash, backslashes and an absolute path inside the repository all name the same
    folder). ``None`` when the field is absent, ``null``, empty or names no folder inside."""
    state = read_state(repo)
    return active_spec_folder(state.get(key), repo.root) if state else None


def resolve_feature(repo: GemstackRepo, explicit: str | None = None) -> str | None:
    """The feature a command works on: ``--feature``, else state.json's ``active_spec``, else ``specs/current``.

    Unlike the reference there is no hard-coded ``specs/009-context-capsule`` fallback; when
    the repository has exactly one feature folder, that one is used.
    """
    if explicit:
        return feature_path(explicit)
    active = state_folder(repo, "active_spec")
    if active is not None:
        return active
    if repo.exists("specs/current/spec.md"):
        return "specs/current"
    features = [f for f in repo.features() if repo.exists(f.spec)]
    if len(features) == 1:
        return features[0].path
    return None
