"""The analysis gives, to the span, what it gave before the parsers were made faster (issue 22).

``tests/golden/analysis.json`` holds, for the fixture repositories and a bench workspace of
distinct-text features: every finding in full (code, message, span, fixes, data), and per
Markdown file a digest of what the parsers make of it (every fence with its segments, the
reference's blocks, every block's items and JSON tree with their spans). A faster scanner or
JSON parser must leave all of it unchanged. After a change that is meant to alter findings,
regenerate the file with ``python tests/test_golden_analysis.py --update`` and review its diff.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import hashlib
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # the bench package (the workspace builder) lives beside tests/
    sys.path.insert(0, str(REPO))

from bench.workspace import write  # noqa: E402
from gemstack_lsp.core.blocks import blocks_of  # noqa: E402
from gemstack_lsp.core.blocks.base import BlockResult  # noqa: E402
from gemstack_lsp.core.jsonspan import JsonArray, JsonBool, JsonNull, JsonNumber, JsonObject, JsonString  # noqa: E402
from gemstack_lsp.core.markdown import reference_blocks, reference_only_blocks, scan_fences  # noqa: E402
from gemstack_lsp.core.memo import Memo  # noqa: E402
from gemstack_lsp.core.options import AnalysisOptions  # noqa: E402
from gemstack_lsp.core.text import Span  # noqa: E402
from gemstack_lsp.fs import DiskReader  # noqa: E402
from gemstack_lsp.host import AnalysisHost  # noqa: E402

GOLDEN = REPO / "tests" / "golden" / "analysis.json"
FIXTURES = REPO / "tests" / "fixtures"
REPOSITORIES = ("gemstack-reference/repo", "upstream-010", "upstream-013", "upstream-realrepo/current-0x")
#: Features of the bench workspace (distinct texts, as the benchmarks read them).
BENCH_FEATURES = 12
NOW = dt.datetime(2026, 12, 3, tzinfo=dt.UTC)


#: The places an item read as plain values makes on demand (contracts, matrix entries, bindings).
_PLACES = ("span", "id_span", "type_span", "test_id_span", "file_span", "node")


def plain(value: Any) -> Any:
    """A JSON-able picture of an analysis value: spans as pairs, JSON nodes by what they hold."""
    if isinstance(value, Span):
        return [value.start, value.end]
    if isinstance(value, JsonObject):
        pending = value.pending_key
        return {
            "object": [[plain(m.key), plain(m.value), plain(m.span)] for m in value.members],
            "span": plain(value.span),
            "complete": value.complete,
            "pending": plain(pending) if pending is not None else None,
        }
    if isinstance(value, JsonArray):
        return {"array": [plain(i) for i in value.items], "span": plain(value.span), "complete": value.complete}
    if isinstance(value, JsonNumber):
        return {"number": repr(value.value), "raw": value.raw, "span": plain(value.span)}
    if isinstance(value, JsonString | JsonBool):
        return {type(value).__name__: value.value, "span": plain(value.span)}
    if isinstance(value, JsonNull):
        return {"null": None, "span": plain(value.span)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = [f.name for f in dataclasses.fields(value) if f.name != "segment_starts"]
        if "source" in names and "index" in names:
            # An item that makes its place on demand (read from a block as plain values) is
            # pictured by its place, as an item that kept it: its node and spans.
            names = [n for n in names if n not in ("source", "index")]
            names += [n for n in _PLACES if hasattr(value, n)]
        # A result that parses its tree on first use (``MovedResult``, a plain read) is a
        # ``BlockResult`` in every field.
        kind = "BlockResult" if isinstance(value, BlockResult) else type(value).__name__
        return {"@": kind} | {n: plain(getattr(value, n)) for n in names}
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, tuple | list | frozenset | set):
        items = [plain(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, frozenset | set) else items
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return repr(value)
    return repr(value)


def digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(plain(value), sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def markdown_files(root: Path) -> Iterator[tuple[str, str]]:
    for path in sorted(root.rglob("*.md")):
        yield path.relative_to(root).as_posix(), path.read_bytes().decode("utf-8", "replace")


def parsed(rel: str, text: str) -> dict[str, str]:
    """Digests of what the parsers make of one Markdown document, cold and through a memo."""
    fences = scan_fences(text)
    out = {
        "fences": digest(fences),
        "reference": digest(
            [reference_blocks(text, k) for k in sorted({f.kind for f in fences if f.kind is not None})]
        ),
        "reference_only": digest(reference_only_blocks(text)),
        "blocks": digest(blocks_of(rel, text)),
    }
    with Memo().active():
        memoised = {"fences": digest(scan_fences(text)), "blocks": digest(blocks_of(rel, text))}
    assert memoised == {k: out[k] for k in memoised}, rel
    return out


def bench_workspace(folder: Path) -> Path:
    """The bench workspace, with a broken block and a broken ledger, so there is more to compare."""
    root = write(BENCH_FEATURES, folder).root
    spec = root / "specs" / "0003-cost-provider-safety-gates" / "spec.md"
    spec.write_text(spec.read_text("utf-8").replace('"id": "zero-dependency-core-r3"', '"id": 3,', 1), "utf-8")
    (root / "specs" / "0005-cost-provider-safety-gates" / "cost-ledger.json").write_text("{ nope", "utf-8")
    return root


def observe(root: Path) -> dict[str, Any]:
    host = AnalysisHost(str(root), DiskReader(root), AnalysisOptions(now=NOW))
    findings = [plain(f) for f in host.snapshot().findings()]
    return {"findings": findings, "documents": {rel: parsed(rel, text) for rel, text in markdown_files(root)}}


def variants(text: str) -> dict[str, str]:
    """The same document in shapes that take the scanner's other paths: its lines in a list
    item, in a block quote, behind tabs, with CRLF and with lone CR line breaks, every block's
    JSON cut short."""
    lines = text.split("\n")
    return {
        "list item": "- " + "\n".join("  " + line if line else line for line in lines),
        "block quote": "\n".join("> " + line for line in lines),
        "tabs": "\n".join("\t" + line if line.startswith("  ") else line for line in lines),
        "crlf": text.replace("\n", "\r\n"),
        "cr": text.replace("\n", "\r"),
        "cut": re.sub(r"\n\s*[}\]]\n```", "\n```", text),
    }


def reshaped() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for path in sorted(FIXTURES.rglob("*.md")):
        rel = path.relative_to(FIXTURES).as_posix()
        text = path.read_bytes().decode("utf-8", "replace")
        out[rel] = parsed(rel, text)
        for shape, variant in variants(text).items():
            out[f"{rel} ({shape})"] = parsed(rel, variant)
    return out


def observations(bench_root: Path) -> dict[str, Any]:
    out = {name: observe(FIXTURES / name) for name in REPOSITORIES}
    out[f"bench-{BENCH_FEATURES}"] = observe(bench_root)
    out["reshaped"] = {"findings": [], "documents": reshaped()}
    return out


@pytest.fixture(scope="module")
def observed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return observations(bench_workspace(tmp_path_factory.mktemp("golden") / "ws"))


@pytest.mark.parametrize("name", [*REPOSITORIES, f"bench-{BENCH_FEATURES}", "reshaped"])
def test_findings_and_parses_are_the_golden_ones(name: str, observed: dict[str, Any]) -> None:
    golden = json.loads(GOLDEN.read_text("utf-8"))[name]
    got = observed[name]
    assert got["findings"] == golden["findings"]
    assert got["documents"] == golden["documents"]


if __name__ == "__main__":
    import tempfile

    if sys.argv[1:] != ["--update"]:
        raise SystemExit("usage: python tests/test_golden_analysis.py --update")
    with tempfile.TemporaryDirectory() as tmp:
        data = observations(bench_workspace(Path(tmp) / "ws"))
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n", "utf-8")
    print(f"wrote {GOLDEN}")
