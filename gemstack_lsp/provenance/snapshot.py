"""The schema-2 snapshot: dirty records, the cited manifest, and the mutation guards around them."""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Sequence

from gemstack_lsp.core.frozen import record
from gemstack_lsp.provenance.canonical import (
    ABSENT,
    CANONICALIZATION,
    Layer,
    Record,
    global_dirty_digest,
)
from gemstack_lsp.provenance.errors import ProvenanceError
from gemstack_lsp.provenance.fsobjects import Materializer
from gemstack_lsp.provenance.gitcmd import git, git_many, git_text
from gemstack_lsp.provenance.gitlayers import (
    GitEntry,
    IndexListing,
    kind_of,
    layer_for,
    needed_oid,
    parse_ls_files,
    parse_ls_tree,
    read_objects,
)
from gemstack_lsp.provenance.paths import validate_repo_path, validate_write_plan_path
from gemstack_lsp.provenance.repo import resolve_root
from gemstack_lsp.provenance.status import STATUS_ARGS, MergedFact, merge_facts, parse_status

SCHEMA_VERSION = 2
_LS_FILES_ARGS = ("ls-files", "--stage", "-z")
_CHANGED = "HEAD, index, or working-tree status changed while evidence was materialized"


@record
class Snapshot:
    """The ``evidence_provenance`` value: head, plan path, dirty digest and cited manifest."""

    head_commit: str
    generated_plan_path: str
    dirty_digest: str
    manifest: tuple[Record, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "schema_version": SCHEMA_VERSION,
            "head_commit": self.head_commit,
            "generated_plan_path": self.generated_plan_path,
            "global_dirty_digest": {
                "algorithm": "sha256",
                "canonicalization": CANONICALIZATION,
                "value": self.dirty_digest,
            },
            "cited_path_manifest": [record.manifest_entry() for record in self.manifest],
        }


def check_schema_version(version: int) -> None:
    if version != SCHEMA_VERSION:
        raise ProvenanceError(
            f"Unsupported evidence provenance schema {version}; "
            "schema 1 is legacy and must be conservatively re-anchored"
        )


# -- Git control-file guards -------------------------------------------------------------------


@record
class _ControlFile:
    label: str
    absolute: str
    observed: tuple[int, int, int, int, int, bytes] | None

    def changed(self) -> bool:
        return _observe_control(self.absolute) != self.observed


def _observe_control(absolute: str) -> tuple[int, int, int, int, int, bytes] | None:
    try:
        st = os.stat(absolute, follow_symlinks=False)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(st.st_mode):
        raise ProvenanceError(f"Git control file must be a regular file or absent: {absolute}")
    fd = os.open(absolute, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        digest = hashlib.sha256()
        while chunk := os.read(fd, 1 << 20):
            digest.update(chunk)
        after = os.fstat(fd)
    finally:
        os.close(fd)
    return (after.st_dev, after.st_ino, after.st_size, after.st_mtime_ns, after.st_ctime_ns, digest.digest())


def _capture_control_files(root: str) -> list[_ControlFile]:
    names = ["index", "HEAD", "logs/HEAD", "packed-refs"]
    symbolic = git(root, ["symbolic-ref", "-q", "HEAD"], allow_failure=True)
    if symbolic.status == 0:
        try:
            ref = symbolic.stdout.decode("utf-8").rstrip("\n")
        except UnicodeDecodeError:
            raise ProvenanceError("Invalid symbolic HEAD ref: not valid UTF-8") from None
        if not ref.startswith("refs/"):
            raise ProvenanceError(f"Invalid symbolic HEAD ref: {ref}")
        try:
            validate_repo_path(ref, "symbolic HEAD ref")
        except ProvenanceError:
            raise ProvenanceError(f"Invalid symbolic HEAD ref: {ref}") from None
        names += [ref, f"logs/{ref}"]
    args: list[str] = ["rev-parse"]
    for name in names:
        args += ["--git-path", name]
    resolved = git_text(root, args).split("\n")
    if len(resolved) != len(names):
        raise ProvenanceError("git rev-parse --git-path returned an unexpected listing")
    files = []
    for name, path in zip(names, resolved, strict=True):
        absolute = os.path.join(root, path)
        files.append(_ControlFile(name, absolute, _observe_control(absolute)))
    return files


def _check_control_files(files: list[_ControlFile]) -> None:
    for control in files:
        if control.changed():
            raise ProvenanceError(f"{control.label} changed while evidence was materialized")


# -- the snapshot --------------------------------------------------------------------------------


def _resolve_head(root: str) -> str:
    oid = git_text(root, ["rev-parse", "--verify", "HEAD"])
    if not (40 <= len(oid) <= 64 and all(char in "0123456789abcdef" for char in oid)):
        raise ProvenanceError("HEAD did not resolve to a full object ID")
    return oid


def _manifest_paths(cited: Sequence[str], facts: dict[str, MergedFact]) -> list[str]:
    paths = dict.fromkeys(cited)
    for path in cited:
        fact = facts.get(path)
        if fact is None:
            continue
        for endpoint in (fact.rename_from, fact.rename_to):
            if endpoint is not None:
                paths.setdefault(endpoint)
    return sorted(paths, key=lambda path: path.encode("utf-8"))


def take_snapshot(
    repo: str,
    generated_plan_path: str,
    cited: Sequence[str],
    on_stage: Callable[[str], None] | None = None,
) -> Snapshot:
    """Compute the snapshot of ``repo`` excluding exactly ``generated_plan_path`` from the digest.

    ``on_stage`` is a test-only hook called with ``"listed"`` (after the Git listings) and
    ``"materialized"`` (after every object was read, before the guard passes)."""
    stage = on_stage or (lambda _name: None)
    root = resolve_root(repo)
    validate_write_plan_path(generated_plan_path)
    for path in cited:
        validate_repo_path(path, "cited path")
    controls = _capture_control_files(root)
    head = _resolve_head(root)
    status_raw, index_raw, tree_raw = (
        result.stdout
        for result in git_many(root, [STATUS_ARGS, _LS_FILES_ARGS, ["ls-tree", "-r", "-t", "-z", "--full-tree", head]])
    )
    facts = merge_facts(parse_status(status_raw))
    head_listing = parse_ls_tree(tree_raw)
    index = parse_ls_files(index_raw)

    manifest_paths = _manifest_paths(cited, facts)
    dirty_paths = [path for path in facts if path != generated_plan_path]
    needed = list(dict.fromkeys([*dirty_paths, *manifest_paths]))

    entries: dict[str, tuple[GitEntry | None, GitEntry | None]] = {}
    for path in needed:
        entries[path] = (head_listing.get(path.encode("utf-8")), _index_entry(index, path))
    oids = [oid for pair in entries.values() for entry in pair if (oid := needed_oid(entry))]
    objects = read_objects(root, oids)

    stage("listed")
    materializer = Materializer(root)
    try:
        records: dict[str, Record] = {}
        for path in needed:
            head_entry, index_entry = entries[path]
            records[path] = _record(path, facts.get(path), head_entry, index_entry, objects, materializer)
        stage("materialized")
        materializer.check_guards()
        _check_control_files(controls)
        status_now, head_now, index_now = (
            result.stdout for result in git_many(root, [STATUS_ARGS, ["rev-parse", "--verify", "HEAD"], _LS_FILES_ARGS])
        )
        if status_now != status_raw or head_now.decode("ascii", "replace").strip() != head or index_now != index_raw:
            raise ProvenanceError(_CHANGED)
        materializer.check_guards()
        _check_control_files(controls)
    finally:
        materializer.close()

    digest = global_dirty_digest(records[path] for path in dirty_paths)
    manifest = tuple(_manifest_entry(records[path]) for path in manifest_paths)
    return Snapshot(head, generated_plan_path, digest, manifest)


def _index_entry(index: IndexListing, path: str) -> GitEntry | None:
    key = path.encode("utf-8")
    if key in index.unmerged:
        raise ProvenanceError(f"Unmerged index stages cannot be canonicalized for {path}")
    entry = index.entries.get(key)
    if entry is not None and kind_of(entry) == "directory":
        raise ProvenanceError(f"Unsupported Git object mode: {entry.mode}")
    return entry


def _record(
    path: str,
    fact: MergedFact | None,
    head_entry: GitEntry | None,
    index_entry: GitEntry | None,
    objects: dict[str, bytes],
    materializer: Materializer,
) -> Record:
    head = layer_for(head_entry, objects)
    index = layer_for(index_entry, objects)
    gitlink = head.kind == "gitlink" or index.kind == "gitlink"
    embedded = fact is not None and fact.embedded_directory
    filesystem = materializer.object_layer(path, gitlink=gitlink, embedded_directory=embedded)
    untracked_side = (fact is not None and fact.untracked) or (head.kind == ABSENT and index.kind == ABSENT)
    absent = Layer()
    return Record(
        path=path,
        state=fact.state if fact is not None else "clean",
        head=head,
        index=index,
        worktree=absent if untracked_side else filesystem,
        untracked=filesystem if untracked_side else absent,
        rename_from=fact.rename_from if fact is not None else None,
        rename_to=fact.rename_to if fact is not None else None,
    )


def _manifest_entry(record: Record) -> Record:
    kinds = (record.head.kind, record.index.kind, record.worktree.kind, record.untracked.kind)
    state = record.state
    if all(kind == ABSENT for kind in kinds):
        state = "absent"
    elif state == "clean" and record.untracked.kind != ABSENT:
        state = "untracked"
    if state == record.state:
        return record
    return Record(
        record.path,
        state,
        record.head,
        record.index,
        record.worktree,
        record.untracked,
        record.rename_from,
        record.rename_to,
    )
