// Unit test of the server lookup (src/serverPath.ts), run with plain node after esbuild:
//   node test/serverPath.test.js <bundled serverPath.js>
// (tests/editors/test_vscode_server_path.py does both.)
"use strict";
const assert = require("assert");
const fs = require("fs");
const os = require("os");
const path = require("path");

const { resolveServer, findOnPath, toolFolders, pipxInstallCommand, FROM_CLONE_HINT, INSTALL_COMMAND_TITLE } = require(
  process.argv[2],
);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "gemstack-serverpath-"));
function exe(file) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, "#!/bin/sh\n");
  fs.chmodSync(file, 0o755);
  return file;
}

const binDir = path.join(tmp, "bin");
const onPath = exe(path.join(binDir, "gemstack-lsp"));
const workspace = path.join(tmp, "ws");
const venv = exe(path.join(workspace, ".venv", "bin", "gemstack-lsp"));
const custom = exe(path.join(workspace, "tools", "my-lsp"));
fs.writeFileSync(path.join(workspace, "not-executable"), "");
fs.chmodSync(path.join(workspace, "not-executable"), 0o644);

const home = path.join(tmp, "home");
const noTools = { home, env: {} };

// PATH first, then the workspace's .venv.
assert.strictEqual(resolveServer("", [workspace], binDir, noTools).command, onPath);
assert.strictEqual(resolveServer("", [workspace], binDir, noTools).source, "path");
assert.strictEqual(resolveServer("", [workspace], "/nonexistent", noTools).command, venv);
// Nothing anywhere: no command, and every place tried, in order, for the message.
const privateEnv = path.join(tmp, "storage", "server");
const none = resolveServer("", [path.join(tmp, "empty")], "/nonexistent", { ...noTools, privateEnv });
assert.strictEqual(none.command, undefined);
assert.strictEqual(none.badSetting, undefined);
assert.deepStrictEqual(none.tried, [
  path.join(privateEnv, "bin", "gemstack-lsp"),
  "gemstack-lsp on PATH",
  path.join(tmp, "empty", ".venv", "bin", "gemstack-lsp"),
  path.join(home, ".local", "pipx", "venvs", "gemstack-lsp", "bin", "gemstack-lsp"),
  path.join(home, ".local", "bin", "gemstack-lsp"),
  path.join(home, ".local", "share", "uv", "tools", "gemstack-lsp", "bin", "gemstack-lsp"),
]);
// The tool folders, one at a time, after PATH and the .venv: pipx's venv, ~/.local/bin, uv's tool.
const empty = path.join(tmp, "empty");
const uv = exe(path.join(home, ".local", "share", "uv", "tools", "gemstack-lsp", "bin", "gemstack-lsp"));
let r = resolveServer("", [empty], "/nonexistent", noTools);
assert.deepStrictEqual([r.command, r.source], [uv, "uv"]);
const userBin = exe(path.join(home, ".local", "bin", "gemstack-lsp"));
r = resolveServer("", [empty], "/nonexistent", noTools);
assert.deepStrictEqual([r.command, r.source], [userBin, "user-bin"]);
const pipx = exe(path.join(home, ".local", "pipx", "venvs", "gemstack-lsp", "bin", "gemstack-lsp"));
r = resolveServer("", [empty], "/nonexistent", noTools);
assert.deepStrictEqual([r.command, r.source], [pipx, "pipx"]);
// In an untrusted workspace (Restricted Mode) the workspace's .venv is never a candidate.
r = resolveServer("", [workspace], "/nonexistent", { ...noTools, trusted: false });
assert.deepStrictEqual([r.command, r.source], [pipx, "pipx"]);
assert.ok(!r.tried.some((t) => t.includes(".venv")));
// The workspace's .venv comes before them, PATH before that.
assert.strictEqual(resolveServer("", [workspace], "/nonexistent", noTools).command, venv);
assert.strictEqual(resolveServer("", [workspace], binDir, noTools).command, onPath);
// The private environment comes before PATH: it is what the extension installed.
const privateServer = exe(path.join(privateEnv, "bin", "gemstack-lsp"));
r = resolveServer("", [workspace], binDir, { ...noTools, privateEnv });
assert.deepStrictEqual([r.command, r.source], [privateServer, "private"]);
// pipx's and uv's folders move with their environment variables.
const moved = toolFolders(home, { PIPX_HOME: "/p", PIPX_BIN_DIR: "/pb", UV_TOOL_DIR: "/u", UV_TOOL_BIN_DIR: "/ub" });
assert.deepStrictEqual(
  moved.map((t) => [t.source, t.dir]),
  [
    ["pipx", path.join("/p", "venvs", "gemstack-lsp", "bin")],
    ["user-bin", "/pb"],
    ["uv", path.join("/u", "gemstack-lsp", "bin")],
    ["uv", "/ub"],
  ],
);
assert.strictEqual(toolFolders(home, { XDG_DATA_HOME: "/x" })[2].dir, path.join("/x", "uv", "tools", "gemstack-lsp", "bin"));
// The setting wins over everything (the private environment included): absolute, relative to
// the first folder, a bare name on PATH.
assert.strictEqual(resolveServer(custom, [workspace], binDir, { ...noTools, privateEnv }).command, custom);
assert.strictEqual(resolveServer(custom, [workspace], binDir).source, "setting");
assert.strictEqual(resolveServer("tools/my-lsp", [workspace], binDir).command, custom);
assert.strictEqual(resolveServer("gemstack-lsp", [workspace], binDir).command, onPath);
// A setting that points at nothing usable is reported as such, never silently replaced.
const bad = resolveServer("not-executable", [workspace], binDir);
assert.strictEqual(bad.command, undefined);
assert.strictEqual(bad.badSetting, "not-executable");
const missing = resolveServer("./nope/gemstack-lsp", [workspace], binDir);
assert.strictEqual(missing.command, undefined);
assert.strictEqual(missing.badSetting, "./nope/gemstack-lsp");
assert.strictEqual(findOnPath("gemstack-lsp", `/nonexistent${path.delimiter}${binDir}`), onPath);
// Every install hint is a command that works today: never the unpublished `pip install gemstack-lsp`.
assert.strictEqual(INSTALL_COMMAND_TITLE, "Gemstack: Install or update the server");
assert.strictEqual(FROM_CLONE_HINT, "pipx install /path/to/gemstack-lsp");
assert.strictEqual(pipxInstallCommand("/ext/bundled/gemstack_lsp-0.1.0-py3-none-any.whl"), 'pipx install --force "/ext/bundled/gemstack_lsp-0.1.0-py3-none-any.whl"');

fs.rmSync(tmp, { recursive: true, force: true });
console.log("serverPath: ok");
