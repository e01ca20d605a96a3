"""`check` on several processes reports exactly what one process reports."""

from __future__ import annotations

import datetime as dt
import shutil
import sys
from pathlib import Path

import pytest

from gemstack_lsp.cli import main
from gemstack_lsp.commands import parallel
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.fs import DiskReader
from gemstack_lsp.host import AnalysisHost

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # the bench package (the workspace builder) lives beside tests/
    sys.path.insert(0, str(REPO))

from bench.workspace import write  # noqa: E402


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write(9, tmp_path_factory.mktemp("parallel") / "ws").root
    # A broken block and a bad ledger in two features, so there is more to agree on.
    spec = root / "specs" / "0003-cost-provider-safety-gates" / "spec.md"
    spec.write_text(spec.read_text("utf-8").replace('"id": "zero-dependency-core-r3"', '"id": 3,', 1), "utf-8")
    (root / "specs" / "0005-cost-provider-safety-gates" / "cost-ledger.json").write_text("{ nope", "utf-8")
    shutil.rmtree(root / "specs" / "0007-cost-provider-safety-gates")
    (root / "specs" / "0007-cost-provider-safety-gates").mkdir()
    # Where lines and columns are easy to get wrong: a BOM and CRLF line breaks with a
    # character outside the BMP before a broken block, invalid UTF-8, and a link leaving the
    # repository.
    spec = root / "specs" / "0004-context-capsule" / "spec.md"
    text = spec.read_text("utf-8").replace('"id": "', '"id": \U0001f600"', 1).replace("\n", "\r\n")
    spec.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    plan = root / "specs" / "0006-context-capsule" / "plan.md"
    plan.write_bytes(b"# Plan \xff\xfe\n" + plan.read_bytes())
    outside = root.parent / "outside-tasks.md"
    outside.write_text("- [ ] **T001: elsewhere**\n", "utf-8")
    tasks = root / "specs" / "0008-context-capsule" / "tasks.md"
    tasks.unlink()
    tasks.symlink_to(outside)
    return root


def test_units_computed_by_worker_processes_give_the_serial_findings(workspace: Path) -> None:
    options = AnalysisOptions(now=dt.datetime(2026, 12, 3, tzinfo=dt.UTC))
    serial = AnalysisHost(str(workspace), DiskReader(workspace), options).snapshot().findings()
    host = AnalysisHost(str(workspace), DiskReader(workspace), options)
    snapshot = host.snapshot()
    parallel.analyze(host, snapshot, workers=2, minimum=2)
    assert host.stats.units_computed == len(host.unit_keys(snapshot))  # each unit ran once
    assert list(snapshot.findings()) == list(serial)
    assert {f.code for f in serial} >= {"CONTRACT_PARSE_ERROR", "CONTEXT_CAPSULE_MISSING"}


@pytest.mark.parametrize("output", ["json", "sarif", "text", "github", "gitlab"])
def test_check_output_is_the_same_on_one_process_and_on_several(
    workspace: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], output: str
) -> None:
    outputs = []
    for minimum in (10**9, 2):
        monkeypatch.setattr(parallel, "PARALLEL_MIN_FEATURES", minimum)
        monkeypatch.setattr(parallel, "usable_cores", lambda: 2)
        assert main(["check", str(workspace), "--format", output, "--exit-zero"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] and "CONTRACT_PARSE_ERROR" in outputs[0]


def test_the_workers_place_their_findings_so_printing_reads_no_file(workspace: Path) -> None:
    from gemstack_lsp.core.text import Position
    from gemstack_lsp.report import RepoReport, span_range

    options = AnalysisOptions(now=dt.datetime(2026, 12, 3, tzinfo=dt.UTC))
    host = AnalysisHost(str(workspace), DiskReader(workspace), options)
    snapshot = host.snapshot()
    places = parallel.analyze(host, snapshot, workers=2, minimum=2)
    findings = snapshot.findings()
    # Every feature's findings were placed by a worker (the parent analysed the repository
    # unit and the first feature itself), each as reading the file again places it.
    placed = [f for f in findings if (f.path, f.span) in places]
    assert len(placed) >= len(findings) - 12
    assert any(f.path.endswith("0004-context-capsule/spec.md") for f in placed)
    for f in placed:
        for encoding in ("utf-16", "utf-32"):
            assert RepoReport(workspace, snapshot.repo, (), places).finding_range(f, encoding) == span_range(
                snapshot.repo, f.path, f.span, encoding
            )
    # The report answers from the places alone: a repository whose every file reads as
    # missing would put every finding at 0:0.
    missing = AnalysisHost(str(workspace / "nowhere"), DiskReader(workspace), options).snapshot().repo
    report = RepoReport(workspace, missing, (), places)
    assert any(report.finding_range(f) != (Position(0, 0), Position(0, 0)) for f in placed)
