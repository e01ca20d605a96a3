// Unit test of the private-environment installer (src/install.ts), run with plain node after esbuild:
//   node test/install.test.js <bundled install.js>
// (tests/editors/test_vscode_server_path.py does both.) A fake runner stands in for Python and
// pip, so nothing is downloaded; one check asks the real python3 for its version.
"use strict";
const assert = require("assert");
const fs = require("fs");
const os = require("os");
const path = require("path");

const m = require(process.argv[2]);

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "gemstack-install-"));

  // The wheel the .vsix carries, found in bundled/.
  const ext = path.join(tmp, "ext");
  assert.strictEqual(m.bundledWheel(ext), undefined);
  fs.mkdirSync(path.join(ext, "bundled"), { recursive: true });
  fs.writeFileSync(path.join(ext, "bundled", "README.txt"), "");
  assert.strictEqual(m.bundledWheel(ext), undefined);
  const wheel = path.join(ext, "bundled", "gemstack_lsp-0.1.0-py3-none-any.whl");
  fs.writeFileSync(wheel, "");
  assert.strictEqual(m.bundledWheel(ext), wheel);

  // Python: the first candidate that runs and is 3.11+; every refusal says why.
  const versions = { "/old/python": "3.9", python3: "3.12", broken: null };
  const fakeVersion = async (cmd) =>
    versions[cmd] ? { code: 0, stdout: versions[cmd] + "\n", stderr: "" } : { code: null, stdout: "", stderr: "", error: `spawn ${cmd} ENOENT` };
  let choice = await m.choosePython(["", "/old/python", "broken", "python3"], fakeVersion);
  assert.strictEqual(choice.python, "python3");
  assert.strictEqual(choice.version, "3.12");
  assert.deepStrictEqual(choice.refused, ["/old/python: Python 3.9 is older than 3.11", "broken: spawn broken ENOENT"]);
  choice = await m.choosePython(["/old/python", "broken"], fakeVersion);
  assert.strictEqual(choice.python, undefined);
  const message = m.noPythonMessage(choice.refused);
  assert.ok(message.includes("Install Python 3.11+"), message);
  assert.ok(message.includes("Gemstack: Install or update the server"), message);
  assert.ok(!message.includes("pip install gemstack-lsp"), message);
  // The real python3 answers its version (it runs the tests' own server too).
  const real = await m.pythonVersion("python3");
  assert.ok(real.version && real.version[0] === 3, JSON.stringify(real));

  // The steps: create the venv, install the wheel with its dependencies; an update reinstalls
  // the wheel itself too (same version, new build).
  const envDir = path.join(tmp, "storage", "server");
  const envPython = path.join(envDir, "bin", "python");
  const first = m.installSteps("python3", envDir, wheel, false);
  assert.deepStrictEqual(
    first.map((s) => [s.command, ...s.args]),
    [
      ["python3", "-m", "venv", envDir],
      [envPython, "-m", "pip", "--disable-pip-version-check", "install", wheel],
    ],
  );
  const update = m.installSteps("python3", envDir, wheel, true);
  assert.deepStrictEqual(
    update.map((s) => [s.command, ...s.args]),
    [
      [envPython, "-m", "pip", "--disable-pip-version-check", "install", wheel],
      [envPython, "-m", "pip", "--disable-pip-version-check", "install", "--force-reinstall", "--no-deps", wheel],
    ],
  );

  // installServer with a fake Python: the venv step makes the venv, pip makes the server.
  const calls = [];
  const fake = async (cmd, args, onLine) => {
    calls.push([cmd, ...args]);
    if (args[1] === "venv") {
      fs.mkdirSync(path.join(envDir, "bin"), { recursive: true });
      fs.writeFileSync(envPython, "");
    } else {
      onLine && onLine("Successfully installed gemstack-lsp-0.1.0");
      fs.writeFileSync(path.join(envDir, "bin", "gemstack-lsp"), "#!/bin/sh\n", { mode: 0o755 });
    }
    return { code: 0, stdout: "", stderr: "" };
  };
  const reports = [];
  const server = await m.installServer({ python: "python3", pythonVersion: "3.12", envDir, wheel, runner: fake, report: (r) => reports.push(r) });
  assert.strictEqual(server, path.join(envDir, "bin", "gemstack-lsp"));
  assert.strictEqual(calls.length, 2);
  assert.ok(reports.includes("creating the environment"), reports);
  assert.ok(reports.includes("Successfully installed gemstack-lsp-0.1.0"), reports);
  assert.deepStrictEqual(m.readMarker(envDir), { wheel: path.basename(wheel), python: "python3", version: "3.12" });
  // The same wheel needs nothing; another build of the extension carries another wheel.
  assert.strictEqual(m.needsUpdate(envDir, wheel), false);
  assert.strictEqual(m.needsUpdate(envDir, path.join(ext, "bundled", "gemstack_lsp-0.2.0-py3-none-any.whl")), true);
  assert.strictEqual(m.needsUpdate(envDir, undefined), false);
  // A second install updates in place (no new venv).
  calls.length = 0;
  await m.installServer({ python: "python3", pythonVersion: "3.12", envDir, wheel, runner: fake });
  assert.deepStrictEqual(calls.map((c) => c.includes("--force-reinstall")), [false, true]);

  // A failing pip without a network says so in one or two sentences; pip's report is kept.
  const offline =
    "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by " +
    "'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f>: Failed to establish a new connection: " +
    "[Errno -3] Temporary failure in name resolution')': /simple/pygls/\n" +
    "ERROR: Could not find a version that satisfies the requirement pygls<2.2,>=2.1 (from gemstack-lsp) (from versions: none)\n" +
    "ERROR: No matching distribution found for pygls<2.2,>=2.1";
  const failing = async (cmd, args) => (args[1] === "venv" ? fake(cmd, args) : { code: 1, stdout: "", stderr: offline });
  const other = path.join(tmp, "storage2", "server");
  await assert.rejects(
    m.installServer({ python: "python3", pythonVersion: "3.12", envDir: other, wheel, runner: failing }),
    (e) =>
      e instanceof m.InstallError &&
      e.kind === "network" &&
      /could not reach the package index/.test(e.message) &&
      /Gemstack: Install or update the server/.test(e.message) &&
      !/Errno|Retry|NewConnectionError/.test(e.message) &&
      e.message.split(". ").length <= 3 &&
      e.output.includes("Temporary failure in name resolution"),
  );
  // An index that has no such package (pip's settings point elsewhere) is told apart.
  const noDist = async (cmd, args) =>
    args[1] === "venv" ? fake(cmd, args) : { code: 1, stdout: "", stderr: "ERROR: No matching distribution found for pygls" };
  await assert.rejects(
    m.installServer({ python: "python3", pythonVersion: "3.12", envDir: path.join(tmp, "s4", "server"), wheel, runner: noDist }),
    (e) => e.kind === "index" && /no suitable version/.test(e.message),
  );
  // A full disk.
  const full = async (cmd, args) =>
    args[1] === "venv" ? fake(cmd, args) : { code: 1, stdout: "", stderr: "ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device" };
  await assert.rejects(
    m.installServer({ python: "python3", pythonVersion: "3.12", envDir: path.join(tmp, "s5", "server"), wheel, runner: full }),
    (e) => e.kind === "disk" && /disk is full/.test(e.message),
  );
  // Only the versions a platform build carries libraries for, when asked.
  choice = await m.choosePython(["python3"], fakeVersion, ["3.11", "3.13"]);
  assert.strictEqual(choice.python, undefined);
  assert.ok(choice.refused[0].includes("no bundled libraries"), choice.refused);
  choice = await m.choosePython(["python3"], fakeVersion, ["3.12"]);
  assert.strictEqual(choice.python, "python3");
  // A Python without venv support (Debian without python3-venv) names the package to install.
  const noVenv = async () => ({ code: 1, stdout: "", stderr: "The virtual environment was not created successfully because ensurepip is not available." });
  await assert.rejects(
    m.installServer({ python: "python3", pythonVersion: "3.11", envDir: path.join(tmp, "s3", "server"), wheel, runner: noVenv }),
    (e) => /python3-venv/.test(e.message),
  );

  fs.rmSync(tmp, { recursive: true, force: true });
  console.log("install: ok");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
