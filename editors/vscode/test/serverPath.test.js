// Unit test of the server lookup (src/serverPath.ts), run with plain node after esbuild:
//   node test/serverPath.test.js <bundled serverPath.js>
// (tests/editors/test_vscode_server_path.py does both.)
"use strict";
const assert = require("assert");
const fs = require("fs");
const os = require("os");
const path = require("path");

const { resolveServer, findOnPath, INSTALL_HINT } = require(process.argv[2]);

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

// PATH first, then the workspace's .venv.
assert.strictEqual(resolveServer("", [workspace], binDir).command, onPath);
assert.strictEqual(resolveServer("", [workspace], "/nonexistent").command, venv);
// Nothing anywhere: no command, and the places tried for the message.
const none = resolveServer("", [path.join(tmp, "empty")], "/nonexistent");
assert.strictEqual(none.command, undefined);
assert.strictEqual(none.badSetting, undefined);
assert.deepStrictEqual(none.tried, ["gemstack-lsp on PATH", path.join(tmp, "empty", ".venv", "bin", "gemstack-lsp")]);
// The setting wins: absolute, relative to the first folder, a bare name on PATH.
assert.strictEqual(resolveServer(custom, [workspace], binDir).command, custom);
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
assert.strictEqual(INSTALL_HINT, "pip install gemstack-lsp");

fs.rmSync(tmp, { recursive: true, force: true });
console.log("serverPath: ok");
