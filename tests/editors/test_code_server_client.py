"""The .vsix in real VS Code (code-server) in headless Chromium: highlighting of Gemstack
blocks, and a spec-kit repository left alone (issue 20).

Slow like test_code_server.py (marked `slow`); set up by `make code-server-deps`.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.editors.code_server.harness import VSIX, SetupError, code_server, drive

pytestmark = [pytest.mark.slow, pytest.mark.editor]

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "demo"
FEATURE = "specs/009-context-capsule"
SPECKIT_SPEC = "# Feature Specification: Photo albums\n\nA user sorts photos into albums.\n"
# A root-level ledger that breaks the cost-ledger schema (schema_version must be 1), and a
# control file that breaks a local schema it names itself: its warning shows that VS Code's
# JSON validation ran in this workspace (offline: no schema from the network).
BAD_LEDGER = '{"schema_version": "one", "providers": 7}\n'
CONTROL = '{"$schema": "./control.schema.json", "count": "many"}\n'
CONTROL_SCHEMA = '{"type": "object", "properties": {"count": {"type": "integer"}}}\n'


def _server() -> Path:
    found = shutil.which("gemstack-lsp", path=str(Path(sys.executable).parent))
    assert found, "gemstack-lsp is not installed in the venv"
    return Path(found)


def _run(tmp_path: Path, repo: Path, server: Path | None, env: dict[str, str], extra: dict[str, Any]) -> dict[str, Any]:
    if not VSIX.exists():
        pytest.fail(f"{VSIX} is missing: build it with `make vsix`")
    try:
        with code_server(tmp_path / "cs", server, env=env) as url:
            result = drive(url, repo, tmp_path / "result.json", {k: json.dumps(v) for k, v in extra.items()})
    except SetupError as exc:
        pytest.fail(str(exc))
    assert result.get("ok"), result.get("error")
    assert not result.get("open_failures"), f"files the driver could not open: {result['open_failures']}"
    return result


def test_gemstack_blocks_are_json_in_the_editor(tmp_path: Path) -> None:
    """Developer: Inspect Editor Tokens and Scopes on a key of a ```gemstack-contracts block
    shows JSON scopes embedded in the fenced block (the injection grammar at work)."""
    repo = tmp_path / "demo"
    shutil.copytree(DEMO, repo, symlinks=True)
    probes = [
        {
            "name": "tokens",
            "file": f"{FEATURE}/spec.md",
            "line": 100,
            "column": 2,  # Home goes to the first non-blank (the quote), then one right: on "id"
            "settle": 1500,
            "command": "Developer: Inspect Editor Tokens and Scopes",
            "selector": ".token-inspect-widget",
            "expect": "support.type.property-name.json",
        }
    ]
    result = _run(tmp_path, repo, _server(), {}, {"GEMSTACK_EXPECTED": {"codes": []}, "GEMSTACK_PROBES": probes})
    tokens = result["probes"]["tokens"]
    assert "support.type.property-name.json" in tokens, tokens
    assert "meta.embedded.block.json" in tokens, tokens
    assert "json" in tokens  # the embedded language


def test_a_speckit_repository_gets_no_server_no_install_and_no_schema(tmp_path: Path) -> None:
    """specs/001-*/spec.md with no Gemstack block, no .gemstack/, no server anywhere: the
    extension activates (specs/ exists) but installs nothing, shows no status item, offers no
    capsule command in the palette, and "Show Language Server Output" only shows the output;
    the root cost-ledger.json gets no Gemstack schema warnings (a file's own local schema still
    reports, so JSON validation did run)."""
    repo = tmp_path / "speckit"
    (repo / "specs" / "001-photo-albums").mkdir(parents=True)
    (repo / "specs" / "001-photo-albums" / "spec.md").write_text(SPECKIT_SPEC, "utf-8")
    (repo / "cost-ledger.json").write_text(BAD_LEDGER, "utf-8")
    (repo / "control.json").write_text(CONTROL, "utf-8")
    (repo / "control.schema.json").write_text(CONTROL_SCHEMA, "utf-8")
    path = os.pathsep.join(
        d for d in os.environ.get("PATH", "").split(os.pathsep) if d and not (Path(d) / "gemstack-lsp").exists()
    )
    probes = [
        {"name": "ledger", "file": "cost-ledger.json", "line": 1, "selector": ".statusbar-item"},
        {"name": "control", "file": "control.json", "line": 1, "selector": ".statusbar-item"},
        {"name": "spec", "file": "specs/001-photo-albums/spec.md", "line": 1, "selector": ".statusbar-item"},
    ]
    result = _run(
        tmp_path,
        repo,
        None,
        {"PATH": path},
        {
            "GEMSTACK_EXPECTED": {"codes": []},
            "GEMSTACK_PROBES": probes,
            "GEMSTACK_PALETTE": {
                "query": "Gemstack",
                "run": "Gemstack: Show Language Server Output",
                "before": 6000,  # JSON validation of the files just opened
                "problemsExpect": "control.json",
                "wait": 8000,  # anything the command (or activation) would start shows by then
            },
        },
    )
    private = tmp_path / "cs" / "data" / "User" / "globalStorage" / "gemstack.gemstack-lsp" / "server"
    assert not private.exists(), "the extension installed a server in a spec-kit repository"
    seen = "\n".join(result.get("seen_notifications", []) + result.get("palette_notifications", []))
    assert "installing the language server" not in seen, seen
    assert "was not found" not in seen, seen
    assert result["palette_ran"].startswith("Gemstack: Show Language Server Output"), result["palette_ran"]
    assert result["palette_ran"].startswith("Gemstack: Show Language Server Output"), result["palette_ran"]
    palette = result["palette"]
    assert any(p.startswith("Gemstack: Show Language Server Output") for p in palette), palette
    assert any(p.startswith("Gemstack: Install or update the server") for p in palette), palette
    hidden_commands = (
        "Regenerate Context Capsule",
        "Verify Context Capsule",
        "Check Workspace",
        "Restart Language Server",
    )
    for hidden in hidden_commands:
        assert not any(hidden in p for p in palette), (hidden, palette)
    assert "Capsule" not in result["palette_status_bar"], result["palette_status_bar"]
    problems = "\n".join(r["text"] + " " + r["label"] for r in result["palette_problems"]["rows"])
    assert "control.json" in problems and "Incorrect type" in problems, problems
    assert "cost-ledger.json" not in problems, problems
