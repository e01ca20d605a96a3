"""Screenshots for docs/editors.md: VS Code (code-server) and Neovim (tmux), on a copy of the demo.

    .venv/bin/python -m tests.editors.screenshots [OUT_DIR] [--only=nvim|vscode] [--vscode-shots=a.png,b.png]
    (default: docs/screenshots; --vscode-shots takes only the named VS Code shots)

Needs what the slow code-server test needs, plus tmux; writes PNG files and prints their names.
Look at each one before committing it.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.editors.code_server.harness import chromium, code_server, drive

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "demo"
SERVER = Path(sys.executable).parent / "gemstack-lsp"
NVIM = Path(sys.executable).parent / "nvim"

VSCODE_SHOTS = [
    {"name": "vscode-diagnostics.png", "file": "specs/008-cost-provider-safety-gates/plan.md", "line": 47},
    {
        "name": "vscode-hover.png",
        "file": "specs/009-context-capsule/spec.md",
        "line": 100,
        "column": 14,
        "keys": ["Control+K", "Control+I"],
        "wait": 2500,
    },
    {"name": "vscode-codelens.png", "file": "specs/009-context-capsule/spec.md", "line": 1, "wait": 3000},
    # A gemstack-contracts block, highlighted as JSON by the extension's injection grammar.
    {"name": "vscode-json-blocks.png", "file": "specs/009-context-capsule/spec.md", "line": 97, "wait": 2000},
    {
        "name": "vscode-status-bar.png",
        "file": "specs/009-context-capsule/spec.md",
        "line": 1,
        "hoverStatus": "Capsule STALE",
        "bottom": 240,
        "wait": 2500,
    },
]


def vscode(out: Path, work: Path, names: set[str] | None = None) -> None:
    shots = [s for s in VSCODE_SHOTS if names is None or s["name"] in names]
    repo = work / "vscode-demo"
    shutil.copytree(DEMO, repo, symlinks=True)
    settings = {"editor.stickyScroll.enabled": False, "files.simpleDialog.enable": True}
    with code_server(work / "cs", SERVER, settings) as url:
        result = drive(
            url,
            repo,
            work / "vscode.json",
            {
                "GEMSTACK_EXPECTED": json.dumps({"codes": ["CONTEXT_CAPSULE_STALE"]}),
                "GEMSTACK_SHOTS": json.dumps(shots),
            },
            shots=out,
        )
    print("vscode:", result.get("steps"), result.get("error") or "ok")


# --- Neovim in tmux -------------------------------------------------------------------------

# The documented configuration (docs/editors.md, "Neovim"), plus looks: colours, numbers.
NVIM_INIT = r"""
vim.opt.runtimepath:prepend(os.getenv("GEMSTACK_PLUGIN"))
vim.o.termguicolors = true
vim.o.number = true
vim.o.signcolumn = "yes"
vim.o.swapfile = false
vim.o.winborder = "rounded"
vim.o.laststatus = 2
vim.cmd("filetype plugin on")
vim.o.statusline = "%f %m%=%{v:lua.require'gemstack'.statusline()} %l,%c "
require("gemstack").setup({ cmd = { os.getenv("GEMSTACK_LSP"), "serve" } })
"""

ANSI = re.compile(r"\x1b\[([0-9;]*)m")
BASE16 = [
    "#000000",
    "#cd3131",
    "#0dbc79",
    "#e5e510",
    "#2472c8",
    "#bc3fbc",
    "#11a8cd",
    "#e5e5e5",
    "#666666",
    "#f14c4c",
    "#23d18b",
    "#f5f543",
    "#3b8eea",
    "#d670d6",
    "#29b8db",
    "#ffffff",
]


def _c256(n: int) -> str:
    if n < 16:
        return BASE16[n]
    if n < 232:
        n -= 16
        r, g, b = n // 36, (n // 6) % 6, n % 6
        return "#" + "".join(f"{0 if v == 0 else 55 + 40 * v:02x}" for v in (r, g, b))
    v = 8 + 10 * (n - 232)
    return f"#{v:02x}{v:02x}{v:02x}"


def ansi_to_html(text: str, fg0: str = "#e0e2ea", bg0: str = "#14161b") -> str:
    """tmux capture-pane -e output (SGR colours) as an HTML page."""
    out: list[str] = []
    fg, bg, bold, italic, underline, reverse = None, None, False, False, False, False
    pos = 0

    def span(chunk: str) -> None:
        if not chunk:
            return
        f, b = fg or fg0, bg or bg0
        if reverse:
            f, b = b, f
        style = f"color:{f};background:{b}"
        if bold:
            style += ";font-weight:bold"
        if italic:
            style += ";font-style:italic"
        if underline:
            style += ";text-decoration:underline"
        out.append(f'<span style="{style}">{html.escape(chunk)}</span>')

    for m in ANSI.finditer(text):
        span(text[pos : m.start()])
        pos = m.end()
        codes = [int(c) if c else 0 for c in m.group(1).split(";")]
        i = 0
        while i < len(codes):
            c = codes[i]
            if c == 0:
                fg, bg, bold, italic, underline, reverse = None, None, False, False, False, False
            elif c == 1:
                bold = True
            elif c == 3:
                italic = True
            elif c in (4, 21):
                underline = True
            elif c == 7:
                reverse = True
            elif c == 22:
                bold = False
            elif c == 23:
                italic = False
            elif c == 24:
                underline = False
            elif c == 27:
                reverse = False
            elif c in (38, 48) and i + 1 < len(codes):
                if codes[i + 1] == 2 and i + 4 < len(codes):
                    colour = "#" + "".join(f"{v:02x}" for v in codes[i + 2 : i + 5])
                    i += 4
                elif codes[i + 1] == 5 and i + 2 < len(codes):
                    colour = _c256(codes[i + 2])
                    i += 2
                else:
                    colour = None
                if c == 38:
                    fg = colour
                else:
                    bg = colour
                i += 1
            elif c == 39:
                fg = None
            elif c == 49:
                bg = None
            elif 30 <= c <= 37:
                fg = BASE16[c - 30]
            elif 40 <= c <= 47:
                bg = BASE16[c - 40]
            elif 90 <= c <= 97:
                fg = BASE16[c - 90 + 8]
            elif 100 <= c <= 107:
                bg = BASE16[c - 100 + 8]
            i += 1
    span(text[pos:])
    body = "".join(out)
    return (
        "<!doctype html><meta charset=utf-8><style>"
        f"body{{margin:0;background:{bg0}}}"
        "pre{margin:0;padding:10px;font:15px/1.25 'DejaVu Sans Mono',monospace;white-space:pre}"
        f"</style><pre>{body}</pre>"
    )


def render(html_text: str, png: Path, width: int, height: int, work: Path) -> None:
    page = work / (png.stem + ".html")
    page.write_text(html_text, "utf-8")
    browser = chromium()
    if browser is None:
        raise SystemExit("chromium is not on PATH (apt-get install chromium, or set CHROMIUM)")
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            f"--window-size={width},{height}",
            f"--screenshot={png}",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )


def neovim(out: Path, work: Path) -> None:
    repo = work / "nvim-demo"
    shutil.copytree(DEMO, repo, symlinks=True)
    init = work / "init.lua"
    init.write_text(NVIM_INIT)
    session = f"gemstack-shots-{os.getpid()}"
    cols, rows = 150, 34
    env = {
        **os.environ,
        "GEMSTACK_PLUGIN": str(ROOT / "editors" / "nvim"),
        "GEMSTACK_LSP": str(SERVER),
        "XDG_STATE_HOME": str(work / "state"),
        "XDG_DATA_HOME": str(work / "data"),
        "TERM": "xterm-256color",
    }

    def tmux(*args: str) -> str:
        return subprocess.run(["tmux", *args], env=env, check=True, capture_output=True, text=True).stdout

    def keys(*k: str) -> None:
        tmux("send-keys", "-t", session, *k)

    def shot(name: str) -> None:
        text = tmux("capture-pane", "-t", session, "-e", "-p")
        render(ansi_to_html(text), out / name, 9 * cols + 30, 19 * rows + 26, work)
        print("neovim:", out / name)

    tmux(
        "new-session",
        "-d",
        "-s",
        session,
        "-x",
        str(cols),
        "-y",
        str(rows),
        "-c",
        str(repo),
        "-e",
        f"GEMSTACK_PLUGIN={env['GEMSTACK_PLUGIN']}",
        "-e",
        f"GEMSTACK_LSP={SERVER}",
        "-e",
        f"PYTHONPATH={ROOT}",  # this tree's server, even when the venv is another checkout's
        f"{NVIM} -u {init} specs/008-cost-provider-safety-gates/plan.md",
    )
    try:
        time.sleep(4)
        keys(":47", "Enter", "zz")
        time.sleep(2)
        shot("nvim-diagnostics.png")
        keys(":edit specs/009-context-capsule/spec.md", "Enter")
        time.sleep(3)
        keys("gg")
        time.sleep(1.5)
        shot("nvim-codelens.png")
        # The gemstack-contracts block in Vim's JSON syntax, in a colour scheme that colours
        # keys and values apart (Neovim's default shows keys bold and strings pale green).
        keys(":colorscheme desert", "Enter", ":100", "Enter", "zz")
        time.sleep(1)
        shot("nvim-json-blocks.png")
        keys(":colorscheme default", "Enter")
        keys("13|")
        time.sleep(1)
        keys("K")
        time.sleep(2)
        shot("nvim-hover.png")
        keys("Escape", "gg")
        time.sleep(0.5)
        keys(":GemstackRegenerateCapsule", "Enter")
        time.sleep(4)  # the message of what was written fits on one line: no hit-enter prompt
        shot("nvim-statusline.png")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], env=env, capture_output=True)


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    only = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--only=")), None)
    picked = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--vscode-shots=")), None)
    names = set(picked.split(",")) if picked else None
    out = Path(args[0]) if args else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="gemstack-shots-") as tmp:
        work = Path(tmp)
        if only in (None, "nvim"):
            neovim(out, work)
        if only in (None, "vscode"):
            vscode(out, work, names)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
