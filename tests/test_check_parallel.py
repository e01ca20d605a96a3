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


def test_check_output_is_the_same_on_one_process_and_on_several(
    workspace: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    outputs = []
    for minimum in (10**9, 2):
        monkeypatch.setattr(parallel, "PARALLEL_MIN_FEATURES", minimum)
        monkeypatch.setattr(parallel, "usable_cores", lambda: 2)
        assert main(["check", str(workspace), "--format", "json", "--exit-zero"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] and '"findings"' in outputs[0]
