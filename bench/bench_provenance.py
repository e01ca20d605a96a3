"""Snapshot of a repository with 3,000 dirty files: ours against the reference helper.

1,000 modified, 1,000 staged renames and 1,000 untracked files, 20 citations (the reference notes'
scenario). Both sides run as a fresh process through their CLI; the median of several runs is
printed, with the ratio. The reference comes from ``make provenance-ref``; without it only our
time is printed.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REFERENCE = Path(__file__).resolve().parents[1] / ".cache" / "provenance-ref" / "evidence-provenance.mjs"
PLAN = "docs/plans/2024-01-02-gitnexus-plan-bench-dirty-repo.md"
RUNS = 5
_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=_ENV)


def build_repository(root: Path, per_kind: int = 1000) -> tuple[Path, list[str]]:
    repo = root / "repo"
    (repo / "mod").mkdir(parents=True)
    (repo / "ren").mkdir()
    _git(repo, "init", "-q", "-b", "main")
    for number in range(per_kind):
        (repo / "mod" / f"m{number}.txt").write_text(f"modified file {number}\n" * 8)
        (repo / "ren" / f"r{number}.txt").write_text(f"renamed file {number} with stable content\n" * 8)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    for number in range(per_kind):
        with open(repo / "mod" / f"m{number}.txt", "a") as handle:
            handle.write("changed\n")
    _git(repo, "mv", "ren", "moved")
    (repo / "new").mkdir()
    for number in range(per_kind):
        (repo / "new" / f"u{number}.txt").write_text(f"untracked {number}\n")
    cited = [f"mod/m{n}.txt" for n in range(7)] + [f"moved/r{n}.txt" for n in range(7)]
    cited += [f"new/u{n}.txt" for n in range(6)]
    return repo, cited


def _median(command: list[str]) -> tuple[float, bytes]:
    times = []
    out = b""
    for _ in range(RUNS):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, check=False, env=_ENV)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"{command[:3]} failed: {done.stderr.decode(errors='replace')}")
        out = done.stdout
    return statistics.median(times), out


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        repo, cited = build_repository(Path(scratch))
        args = ["snapshot", "--repo", str(repo), "--generated-plan", PLAN]
        for path in cited:
            args += ["--cited", path]
        ours, our_out = _median([sys.executable, "-m", "gemstack_lsp.provenance", *args])
        print(f"provenance snapshot, 3,000 dirty files, median of {RUNS}: ours {ours:.3f} s")
        if not REFERENCE.is_file():
            print("reference helper not installed (make provenance-ref); no comparison")
            return
        reference, ref_out = _median(["node", str(REFERENCE), *args])
        print(f"provenance snapshot, 3,000 dirty files, median of {RUNS}: reference {reference:.3f} s")
        print(f"ratio reference/ours: {reference / ours:.2f}x (outputs identical: {ref_out == our_out})")


if __name__ == "__main__":
    main()
