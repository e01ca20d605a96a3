"""Large benchmark workspaces made of real features, not synthetic stubs.

``build(n, base)`` writes a repository with ``n`` features: odd-numbered ones are copies of the
fixture's ``specs/008-cost-provider-safety-gates`` folder, even-numbered ones of
``specs/009-context-capsule`` (everything those folders hold: spec, plan, tasks, ledgers),
renamed ``specs/0001-cost-provider-safety-gates``, ``specs/0002-context-capsule``, ...

Every copy but the active one has a text of its own, as the features of a real repository do
(``vary``): its contract ids carry the feature's number, every block's descriptions name it, and
each Markdown file ends with a paragraph of its own. So no parse, memo or cache can be shared
between copies, while each copy keeps the fixture's structure and findings (the ids are renamed
consistently inside the feature; test ids, which the fixture's test files name, and the Upgrade
D contract ids, which the rules know by name, are kept). The active copy (the one the benchmarks
type into) is byte-identical to the fixture. Beside them sit the fixture's root files
(``.gemstack/``, ``src/``, ``tests/``, ``docs/``, the root ledger, ``package.json``, ...);
``.gemstack/state.json`` names a 009 copy in the middle as the active spec. ``n == 1`` is the
fixture repository itself (its two features, unchanged).

Workspaces are reused between runs: each lives in a folder named after ``n`` and a digest of the
fixture and of this builder, complete only when the ``.complete`` marker beside it exists
(outside the repository)."""

from __future__ import annotations

import hashlib
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from gemstack_lsp.core.capsule.verify import UPGRADE_D_CONTRACTS

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "tests" / "fixtures" / "gemstack-reference" / "repo"
CACHE = REPO / ".cache" / "bench" / "workspaces"
ODD = "specs/008-cost-provider-safety-gates"
EVEN = "specs/009-context-capsule"
#: Bump when the layout changes, so cached workspaces are rebuilt.
LAYOUT_VERSION = 2


@dataclass(frozen=True)
class Workspace:
    """A built workspace: its root, its feature count and the 009 copy the benchmarks edit."""

    root: Path
    features: int
    #: The active spec's folder (a 009 copy), relative to ``root``.
    active: str

    @property
    def spec(self) -> str:
        return f"{self.active}/spec.md"


def feature_name(i: int) -> str:
    """The folder of feature ``i`` (1-based): a copy of 008 when odd, of 009 when even."""
    source = ODD if i % 2 else EVEN
    return f"specs/{i:04d}-{source.split('/', 1)[1].split('-', 1)[1]}"


def source_of(i: int) -> str:
    return ODD if i % 2 else EVEN


def active_index(n: int) -> int:
    """The 009 copy in the middle of ``n`` features (the one the benchmarks edit)."""
    middle = max(2, n // 2)
    return middle if middle % 2 == 0 else middle + 1


def fixture_digest(fixture: Path = FIXTURE) -> str:
    digest = hashlib.sha256(f"layout {LAYOUT_VERSION}\n".encode())
    for path in sorted(p for p in fixture.rglob("*") if p.is_file()):
        digest.update(path.relative_to(fixture).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _folder_files(folder: Path) -> list[tuple[str, bytes]]:
    return [(p.relative_to(folder).as_posix(), p.read_bytes()) for p in sorted(folder.rglob("*")) if p.is_file()]


_CONTRACT_ID = re.compile(r'"id":\s*"([a-z0-9]+(?:-[a-z0-9]+)+)"')
_DESCRIPTION = re.compile(r'("description":\s*")')


def vary(files: list[tuple[str, bytes]], i: int) -> list[tuple[str, bytes]]:
    """The files of feature ``i`` with a text of their own (see the module's docstring)."""
    texts = {rel: data.decode("utf-8") for rel, data in files if rel.endswith(".md")}
    found = {m.group(1) for text in texts.values() for m in _CONTRACT_ID.finditer(text)}
    # The rules know the Upgrade D contract ids by name (a spec declaring one opts into a capsule).
    ids = sorted(found - UPGRADE_D_CONTRACTS, key=len, reverse=True)
    renamed = re.compile("|".join(rf"(?<![\w-]){re.escape(x)}(?![\w-])" for x in ids)) if ids else None
    out = []
    for rel, data in files:
        text = texts.get(rel)
        if text is None:
            out.append((rel, data))
            continue
        if renamed is not None:
            text = renamed.sub(lambda m: f"{m.group(0)}-r{i}", text)
        text = _DESCRIPTION.sub(rf"\g<1>(feature {i}) ", text)
        ending = "" if text.endswith("\n") else "\n"
        text += f"{ending}\nFeature {i} keeps its own notes here: {i * 7919 % 10007} items, revision {i % 97}.\n"
        out.append((rel, text.encode("utf-8")))
    return out


def write(n: int, root: Path, fixture: Path = FIXTURE) -> Workspace:
    """Write the workspace of ``n`` features into the empty or missing folder ``root``."""
    if n < 1:
        raise ValueError("a workspace needs at least one feature")
    if n == 1:
        shutil.copytree(fixture, root, dirs_exist_ok=True)
        return Workspace(root, 1, EVEN)
    root.mkdir(parents=True, exist_ok=True)
    for entry in sorted(fixture.iterdir()):
        if entry.name == "specs":
            continue
        if entry.is_dir():
            shutil.copytree(entry, root / entry.name, dirs_exist_ok=True)
        else:
            shutil.copyfile(entry, root / entry.name)
    sources = {ODD: _folder_files(fixture / ODD), EVEN: _folder_files(fixture / EVEN)}
    active_i = active_index(n)
    for i in range(1, n + 1):
        folder = root / feature_name(i)
        files = sources[source_of(i)]
        for rel, data in files if i == active_i else vary(files, i):
            target = folder / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    active = feature_name(active_i)
    state = root / ".gemstack" / "state.json"
    text = state.read_text("utf-8")
    text = text.replace(f'"{EVEN}"', f'"{active}"').replace(f'"{ODD}"', f'"{feature_name(active_i - 1)}"')
    state.write_text(text, "utf-8")
    return Workspace(root, n, active)


def build(n: int, cache: Path = CACHE, *, rebuild: bool = False, fixture: Path = FIXTURE) -> Workspace:
    """The workspace of ``n`` features, built once under ``cache`` and reused afterwards."""
    root = cache / f"features-{n}-{fixture_digest(fixture)}"
    active = EVEN if n == 1 else feature_name(active_index(n))
    marker = root.with_name(root.name + ".complete")
    if marker.exists() and not rebuild:
        return Workspace(root, n, active)
    marker.unlink(missing_ok=True)
    if root.exists():
        shutil.rmtree(root)
    workspace = write(n, root, fixture)
    marker.write_text("complete\n", "utf-8")
    return workspace
