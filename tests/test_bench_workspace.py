"""The benchmark harness itself: real-feature workspaces, JSON-RPC framing, client-side edits.

No timing here: the numbers belong to ``make bench``. These tests make sure the benchmark
measures what it says (the features are copies of the fixture's, each with a text of its own,
with the findings of byte copies; the wire format is LSP's; the edits it sends describe the text
it believes the server holds)."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # the bench package lives at the repository root, beside tests/
    sys.path.insert(0, str(REPO))

from bench.lspclient import Document, FrameReader, FramingError, Typist, encode  # noqa: E402
from bench.workspace import EVEN, FIXTURE, ODD, build, feature_name, write  # noqa: E402


def files_under(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def findings_by_feature(root: Path) -> list[tuple[str, str, int]]:
    """(feature number or root file, code, offset) of every finding of ``check`` on ``root``."""
    from gemstack_lsp.fs import DiskReader
    from gemstack_lsp.host import AnalysisHost

    out = []
    for f in AnalysisHost(str(root), DiskReader(root)).snapshot().findings():
        where = f.path.split("-", 1)[0] + "/" + f.path.rsplit("/", 1)[-1] if f.path.startswith("specs/") else f.path
        out.append((where, f.code, f.span.start))
    return sorted(out)


def test_features_are_copies_of_008_and_009_each_with_a_text_of_its_own(tmp_path: Path) -> None:
    ws = write(7, tmp_path / "ws")
    specs = sorted(p.name for p in (ws.root / "specs").iterdir())
    assert specs == [feature_name(i).removeprefix("specs/") for i in range(1, 8)]
    assert specs[0] == "0001-cost-provider-safety-gates"
    assert specs[1] == "0002-context-capsule"
    odd, even = files_under(FIXTURE / ODD), files_under(FIXTURE / EVEN)
    assert "cost-ledger.json" in odd and "spec.md" in even
    seen: dict[bytes, str] = {}
    for i in range(1, 8):
        files = files_under(ws.root / feature_name(i))
        source = odd if i % 2 else even
        assert files.keys() == source.keys()
        if feature_name(i) == ws.active:
            assert files == source  # the copy the benchmarks type into is the fixture's own text
            continue
        for rel, data in files.items():
            if rel.endswith(".md"):
                assert data != source[rel] and data not in seen, (i, rel, seen.get(data))
                seen[data] = f"{i}/{rel}"
                assert f"Feature {i} keeps its own notes".encode() in data
            else:
                assert data == source[rel]
    spec3 = (ws.root / feature_name(3) / "spec.md").read_text("utf-8")
    assert '"id": "zero-dependency-core-r3"' in spec3 and '"description": "(feature 3) ' in spec3


def test_distinct_copies_keep_the_findings_of_byte_copies(tmp_path: Path) -> None:
    ws = write(6, tmp_path / "ws")
    copies = tmp_path / "copies"
    shutil.copytree(ws.root, copies)
    for i in range(1, 7):
        folder = copies / feature_name(i)
        shutil.rmtree(folder)
        shutil.copytree(FIXTURE / (ODD if i % 2 else EVEN), folder)
    assert findings_by_feature(ws.root) == findings_by_feature(copies)


def test_root_files_are_the_fixtures_and_state_names_a_009_copy(tmp_path: Path) -> None:
    ws = write(6, tmp_path / "ws")
    fixture_root = {k: v for k, v in files_under(FIXTURE).items() if not k.startswith("specs/")}
    built_root = {k: v for k, v in files_under(ws.root).items() if not k.startswith("specs/")}
    assert built_root.keys() == fixture_root.keys()
    for rel, data in fixture_root.items():
        if rel != ".gemstack/state.json":
            assert built_root[rel] == data, rel
    state = json.loads(built_root[".gemstack/state.json"])
    assert state["active_spec"] == ws.active == feature_name(4)
    assert (ws.root / ws.spec).read_bytes() == (FIXTURE / EVEN / "spec.md").read_bytes()
    assert state["last_completed_feature"] == feature_name(3)
    original = json.loads((FIXTURE / ".gemstack" / "state.json").read_text("utf-8"))
    assert {k: v for k, v in state.items() if k not in ("active_spec", "last_completed_feature")} == {
        k: v for k, v in original.items() if k not in ("active_spec", "last_completed_feature")
    }


def test_size_one_is_the_fixture_itself(tmp_path: Path) -> None:
    ws = write(1, tmp_path / "ws")
    assert files_under(ws.root) == files_under(FIXTURE)
    assert ws.spec == f"{EVEN}/spec.md"


def test_built_workspaces_are_reused_until_rebuilt(tmp_path: Path) -> None:
    first = build(3, cache=tmp_path)
    sentinel = first.root / "left-by-an-earlier-run"
    sentinel.write_text("x", "utf-8")
    again = build(3, cache=tmp_path)
    assert again == first and sentinel.exists()
    rebuilt = build(3, cache=tmp_path, rebuild=True)
    assert rebuilt.root == first.root and not sentinel.exists()
    assert files_under(rebuilt.root / feature_name(2)) == files_under(FIXTURE / EVEN)  # the active copy


def test_framing_round_trips_several_messages_in_one_stream() -> None:
    messages: list[dict[str, Any]] = [
        {"id": 1, "method": "initialize", "params": {"capabilities": {}}},
        {"method": "textDocument/didChange", "params": {"text": "ünïcödé 😀 — and \r\n inside"}},
        {"id": 1, "result": None},
        {"id": "x", "error": {"code": -32602, "message": "bad"}},
    ]
    data = b"".join(encode(m) for m in messages)
    reader = FrameReader(io.BytesIO(data))
    assert [reader.read() for _ in messages] == [{"jsonrpc": "2.0", **m} for m in messages]
    assert reader.read() is None


def test_framing_length_counts_bytes_and_other_headers_are_ignored() -> None:
    body = json.dumps({"jsonrpc": "2.0", "method": "x", "params": "é😀"}, ensure_ascii=False).encode()
    data = b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: %d\r\n\r\n" % len(body)
    assert FrameReader(io.BytesIO(data + body)).read() == {"jsonrpc": "2.0", "method": "x", "params": "é😀"}
    framed = encode({"method": "é"})
    header, _, payload = framed.partition(b"\r\n\r\n")
    assert header == b"Content-Length: %d" % len(payload)


def test_framing_refuses_a_header_without_length_and_stops_at_a_truncated_body() -> None:
    with pytest.raises(FramingError):
        FrameReader(io.BytesIO(b"Content-Type: x\r\n\r\n{}")).read()
    assert FrameReader(io.BytesIO(encode({"method": "x"})[:-2])).read() is None


class RecordingClient:
    """Stands in for the LSP client: records the notifications a Document sends."""

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding
        self.sent: list[tuple[str, Any]] = []

    def notify(self, method: str, params: Any) -> None:
        self.sent.append((method, params))


def apply_change(text: str, change: dict[str, Any], encoding: str) -> str:
    """Apply one ranged content change as a server would, positions in ``encoding``."""

    def offset(pos: dict[str, int]) -> int:
        lines = text.split("\n")
        start = sum(len(line) + 1 for line in lines[: pos["line"]])
        line = lines[pos["line"]]
        unit = "utf-8" if encoding == "utf-8" else "utf-16-le"
        width = 1 if encoding == "utf-8" else 2
        chars = len(line.encode(unit)[: pos["character"] * width].decode(unit))
        return start + chars

    rng = change["range"]
    return text[: offset(rng["start"])] + change["text"] + text[offset(rng["end"]) :]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
def test_keystrokes_describe_the_text_the_client_holds_and_come_back_to_it(encoding: str) -> None:
    path = FIXTURE / EVEN / "spec.md"
    client = RecordingClient(encoding)
    doc = Document(client, path)  # type: ignore[arg-type]
    original = doc.text
    typist = Typist(original, "Gemstack requires a canonical, deterministic", '"description": "Upgrade D')
    server_text = original
    cycle = len(typist._plan)
    versions = []
    for n in range(cycle):
        typist.keystroke(doc, n)
        method, params = client.sent[-1]
        assert method == "textDocument/didChange"
        versions.append(params["textDocument"]["version"])
        server_text = apply_change(server_text, params["contentChanges"][0], encoding)
        assert server_text == doc.text
    assert versions == list(range(2, cycle + 2))
    assert doc.text == original  # every phrase typed is erased again: the text stays bounded
    inside_block = [p for p in typist._plan if p[0] == "block"]
    assert inside_block and len(inside_block) < cycle
