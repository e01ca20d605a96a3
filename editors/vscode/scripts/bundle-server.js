// Builds the gemstack-lsp wheel from this repository into bundled/, so the .vsix carries the
// language server and the extension can install it on first use (see src/install.ts).
//
//   node scripts/bundle-server.js        (run by `npm run package`)
//
// The Python that builds it is $GEMSTACK_PYTHON, else python3 (the Makefile passes the venv's).
"use strict";
const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");

const root = path.resolve(__dirname, "..", "..", "..");
const target = path.resolve(__dirname, "..", "bundled");
const python = process.env.GEMSTACK_PYTHON || (process.platform === "win32" ? "python" : "python3");

fs.rmSync(target, { recursive: true, force: true });
// setuptools reuses build/lib between builds, so a module deleted from the sources would
// linger in the wheel: start from a clean build folder (a gitignored build output).
fs.rmSync(path.join(root, "build"), { recursive: true, force: true });
fs.mkdirSync(target, { recursive: true });
const args = ["-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps", "--wheel-dir", target, root];
console.log(`bundle-server: ${python} ${args.join(" ")}`);
const run = spawnSync(python, args, { stdio: "inherit", cwd: root });
if (run.error || run.status !== 0) {
  console.error(`bundle-server: building the gemstack-lsp wheel failed (${run.error ? run.error.message : `exit ${run.status}`})`);
  process.exit(1);
}
const wheels = fs.readdirSync(target).filter((n) => /^gemstack_lsp-.+\.whl$/.test(n));
if (wheels.length !== 1) {
  console.error(`bundle-server: expected one gemstack_lsp wheel in ${target}, found: ${wheels.join(", ") || "none"}`);
  process.exit(1);
}
console.log(`bundle-server: ${path.join("bundled", wheels[0])}`);
