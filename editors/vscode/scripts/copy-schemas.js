// Copies the JSON Schemas of the Python package into the extension before it is built.
// A .vsix can only carry files under this folder, and jsonValidation needs local URLs,
// so the schemas are copied here at build time (the copy is gitignored).
"use strict";
const fs = require("fs");
const path = require("path");

const source = path.resolve(__dirname, "..", "..", "..", "gemstack_lsp", "schemas");
const target = path.resolve(__dirname, "..", "schemas");
const manifest = require(path.resolve(__dirname, "..", "package.json"));

fs.rmSync(target, { recursive: true, force: true });
fs.mkdirSync(target, { recursive: true });

let copied = 0;
if (fs.existsSync(source)) {
  for (const name of fs.readdirSync(source).sort()) {
    if (!name.endsWith(".json")) continue;
    // Follow symlinks: the copy must be a real file inside the extension.
    fs.writeFileSync(path.join(target, name), fs.readFileSync(path.join(source, name)));
    copied += 1;
  }
}
console.log(`copy-schemas: ${copied} schema(s) from ${source}`);

const missing = (manifest.contributes.jsonValidation || [])
  .map((entry) => entry.url)
  .filter((url) => !fs.existsSync(path.resolve(__dirname, "..", url)));
if (missing.length > 0) {
  // Warn rather than fail: the package still builds, and the manifest test reports it.
  console.warn(`copy-schemas: warning: jsonValidation points at missing schema(s): ${missing.join(", ")}`);
}
