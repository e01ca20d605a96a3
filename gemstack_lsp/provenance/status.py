"""Parsing ``git status --porcelain=v2 -z`` into per-path facts, and merging them into records."""

from __future__ import annotations

from gemstack_lsp.core.frozen import record
from gemstack_lsp.provenance.errors import ProvenanceError
from gemstack_lsp.provenance.paths import decode_repo_path

STATUS_ARGS = (
    "status",
    "--porcelain=v2",
    "-z",
    "--untracked-files=all",
    "--find-renames=50%",
    "--ignore-submodules=none",
)

_XY_ALPHABET = frozenset(".MTADRCU?!")
_UNMERGED = "Unmerged paths cannot be canonicalized; resolve the index first"


@record
class Fact:
    """One porcelain fact about one path."""

    path: str
    state: str
    rename_from: str | None = None
    rename_to: str | None = None
    untracked: bool = False
    embedded_directory: bool = False


@record
class MergedFact:
    """Every fact for one path merged into the record's state and rename metadata."""

    path: str
    state: str
    rename_from: str | None
    rename_to: str | None
    untracked: bool
    embedded_directory: bool


def classify_xy(xy: str) -> str:
    """Map an ordinary record's XY columns to a state."""
    if len(xy) != 2 or any(char not in _XY_ALPHABET for char in xy):
        raise ProvenanceError(f"Unsupported Git XY status: {xy}")
    if "U" in xy:
        raise ProvenanceError(_UNMERGED)
    index, worktree = xy[0], xy[1]
    if index != "." and worktree != ".":
        return "mixed"
    if "D" in xy:
        return "deleted"
    return "staged" if index != "." else "unstaged"


def _split_header(token: bytes, count: int) -> tuple[list[str], bytes]:
    parts = token.split(b" ", count)
    if len(parts) != count + 1:
        raise ProvenanceError("Malformed porcelain-v2 status record")
    try:
        header = [part.decode("ascii") for part in parts[:count]]
    except UnicodeDecodeError as error:
        raise ProvenanceError("git status record is not valid UTF-8") from error
    return header, parts[count]


def parse_status(raw: bytes) -> list[Fact]:
    """Parse NUL-terminated porcelain v2 output into facts (renames give two endpoint facts)."""
    tokens = raw.split(b"\0")
    if tokens and tokens[-1] == b"":
        tokens.pop()
    facts: list[Fact] = []
    position = 0
    while position < len(tokens):
        token = tokens[position]
        position += 1
        kind = token[:1]
        if kind == b"1":
            header, raw_path = _split_header(token, 8)
            state = classify_xy(header[1])
            facts.append(Fact(decode_repo_path(raw_path, "git status path"), state))
        elif kind == b"2":
            header, raw_path = _split_header(token, 9)
            xy = header[1]
            classify_xy(xy)
            if position >= len(tokens):
                raise ProvenanceError("Malformed porcelain-v2 rename record")
            source = decode_repo_path(tokens[position], "rename source")
            position += 1
            destination = decode_repo_path(raw_path, "rename destination")
            facts.append(Fact(source, "renamed", rename_to=destination))
            facts.append(Fact(destination, "renamed" if xy[1] == "." else "mixed", rename_from=source))
        elif kind == b"?":
            raw_path = token[2:]
            embedded = raw_path.endswith(b"/")
            if embedded:
                raw_path = raw_path[:-1]
            path = decode_repo_path(raw_path, "untracked path")
            facts.append(Fact(path, "untracked", untracked=True, embedded_directory=embedded))
        elif kind == b"u":
            raise ProvenanceError(_UNMERGED)
        elif kind == b"!":
            continue
        else:
            shown = kind.decode("utf-8", errors="replace")
            raise ProvenanceError(f"Unsupported porcelain-v2 record kind: {shown}")
    return facts


def merge_facts(facts: list[Fact]) -> dict[str, MergedFact]:
    """Merge facts sharing a path: more than one distinct fact, or any ``mixed``, is ``mixed``."""
    grouped: dict[str, list[Fact]] = {}
    for fact in facts:
        grouped.setdefault(fact.path, []).append(fact)
    merged: dict[str, MergedFact] = {}
    for path, group in grouped.items():
        if len(group) == 1:
            only = group[0]
            merged[path] = MergedFact(
                path, only.state, only.rename_from, only.rename_to, only.untracked, only.embedded_directory
            )
            continue
        distinct = list(dict.fromkeys(group))
        rename_from = _single(path, "rename_from", [f.rename_from for f in distinct])
        rename_to = _single(path, "rename_to", [f.rename_to for f in distinct])
        state = distinct[0].state
        if len(distinct) > 1 or any(f.state == "mixed" for f in distinct):
            state = "mixed"
        merged[path] = MergedFact(
            path=path,
            state=state,
            rename_from=rename_from,
            rename_to=rename_to,
            untracked=any(f.untracked for f in distinct),
            embedded_directory=any(f.embedded_directory for f in distinct),
        )
    return merged


def _single(path: str, field: str, values: list[str | None]) -> str | None:
    present = {value for value in values if value is not None}
    if len(present) > 1:
        quoted = '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'
        raise ProvenanceError(f"Conflicting {field} facts for {quoted}")
    return next(iter(present), None)
