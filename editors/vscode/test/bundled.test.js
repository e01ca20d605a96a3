// Unit test of the bundled server's helpers (src/bundled.ts), run with plain node after esbuild:
//   node test/bundled.test.js <bundled bundled.js>
// (tests/editors/test_vscode_server_path.py does both.)
"use strict";
const assert = require("assert");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { spawnSync } = require("child_process");

const m = require(process.argv[2]);

function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "gemstack-bundled-"));
  const ext = path.join(tmp, "ext");
  // No bundled/ at all, a universal build (no libraries), then a platform build.
  assert.strictEqual(m.readBundle(ext), undefined);
  fs.mkdirSync(path.join(ext, "bundled", "tool"), { recursive: true });
  fs.writeFileSync(path.join(ext, "bundled", "tool", "gemstack_launch.py"), "");
  fs.writeFileSync(path.join(ext, "bundled", "manifest.json"), JSON.stringify({ target: "universal", pythons: [] }));
  assert.strictEqual(m.readBundle(ext), undefined);
  fs.writeFileSync(path.join(ext, "bundled", "manifest.json"), JSON.stringify({ target: "linux-x64", pythons: ["3.11", "3.12"] }));
  assert.strictEqual(m.readBundle(ext), undefined, "no libs/common: not usable");
  fs.mkdirSync(path.join(ext, "bundled", "libs", "common"), { recursive: true });
  const bundle = m.readBundle(ext);
  assert.deepStrictEqual(bundle, {
    target: "linux-x64",
    pythons: ["3.11", "3.12"],
    launcher: path.join(ext, "bundled", "tool", "gemstack_launch.py"),
  });
  assert.deepStrictEqual(m.bundledCommand("/usr/bin/python3", bundle), { command: "/usr/bin/python3", args: ["-I", bundle.launcher] });
  fs.writeFileSync(path.join(ext, "bundled", "manifest.json"), "{not json");
  assert.strictEqual(m.readBundle(ext), undefined);

  // The launcher: one file named gemstack-lsp that passes its arguments through, quoted.
  assert.strictEqual(m.launcherName("linux"), "gemstack-lsp");
  assert.strictEqual(m.launcherName("win32"), "gemstack-lsp.cmd");
  const win = m.launcherText("C:\\Py 3\\python.exe", ["-I", "C:\\ext\\launch.py"], "win32");
  assert.strictEqual(win, '@echo off\r\n"C:\\Py 3\\python.exe" "-I" "C:\\ext\\launch.py" %*\r\n');
  const bin = path.join(tmp, "storage", "bin");
  const script = "console.log(JSON.stringify(process.argv.slice(1)))";
  const file = m.writeLauncher(bin, process.execPath, ["-e", script, "--", "it's"], "linux");
  assert.strictEqual(file, path.join(bin, "gemstack-lsp"));
  assert.deepStrictEqual(fs.readdirSync(bin), ["gemstack-lsp"]);
  assert.ok(fs.statSync(file).mode & 0o100, "executable");
  const run = spawnSync(file, ["context", "generate", "a b"], { encoding: "utf8" });
  assert.strictEqual(run.status, 0, run.stderr);
  assert.deepStrictEqual(JSON.parse(run.stdout), ["it's", "context", "generate", "a b"]);
  // Found on PATH by name, as a terminal would.
  const viaPath = spawnSync("gemstack-lsp", ["x"], { encoding: "utf8", env: { ...process.env, PATH: bin + path.delimiter + process.env.PATH } });
  assert.deepStrictEqual(JSON.parse(viaPath.stdout), ["it's", "x"]);
  // Rewritten only when it changes.
  const before = fs.statSync(file).mtimeMs;
  m.writeLauncher(bin, process.execPath, ["-e", script, "--", "it's"], "linux");
  assert.strictEqual(fs.statSync(file).mtimeMs, before);

  fs.rmSync(tmp, { recursive: true, force: true });
  console.log("bundled: ok");
}

main();
