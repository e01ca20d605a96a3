// Unit test of the Gemstack-workspace detection (src/workspace.ts), run with plain node after esbuild:
//   node test/workspace.test.js <bundled workspace.js>
"use strict";
const assert = require("assert");
const fs = require("fs");
const os = require("os");
const path = require("path");
const w = require(process.argv[2]);

// Fences: ``` or ~~~ (three or more), up to three spaces of indent, a gemstack- info string.
for (const yes of ["```gemstack-contracts\n[]\n```", "text\n   ~~~~ gemstack-test-matrix\n", "````gemstack-x"]) {
  assert.ok(w.hasGemstackBlock(yes), yes);
}
for (const no of ["```json\n{}\n```", "    ```gemstack-contracts", "text ```gemstack-contracts", "```\ngemstack-contracts"]) {
  assert.ok(!w.hasGemstackBlock(no), no);
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "gemstack-ws-"));
  const write = (rel, text) => {
    fs.mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
    fs.writeFileSync(path.join(tmp, rel), text);
  };
  // A spec-kit repository: specs/001-x/spec.md without a block; a plain folder; a Gemstack one.
  write("speckit/specs/001-photo-albums/spec.md", "# Photo albums\n\n```text\nno block\n```\n");
  write("speckit/specs/001-photo-albums/plan.md", "# Plan\n");
  write("plain/cost-ledger.json", "{}");
  write("withblock/specs/002-x/tasks.md", "# Tasks\n");
  write("withblock/specs/002-x/spec.md", "# X\n\n```gemstack-contracts\n[]\n```\n");
  fs.mkdirSync(path.join(tmp, "withfolder/.gemstack"), { recursive: true });
  // Task metadata, or a capsule in a feature folder, make a repository Gemstack too (as the
  // server's core/identity.py); a block in another Markdown file of the feature does not.
  write("withmeta/specs/003-x/tasks.md", "- [ ] T001 <!-- gemstack:tests=TEST-A01 -->\n");
  write("withcapsule/specs/004-x/context-capsule.json", "{}");
  write("notes/specs/005-x/notes.md", "```gemstack-contracts\n[]\n```\n");
  assert.strictEqual(await w.isGemstackFolder(path.join(tmp, "withmeta")), true);
  assert.strictEqual(await w.isGemstackFolder(path.join(tmp, "withcapsule")), true);
  assert.strictEqual(await w.isGemstackFolder(path.join(tmp, "notes")), false);
  assert.strictEqual(await w.isGemstackFolder(path.join(tmp, "speckit")), false);
  assert.strictEqual(await w.isGemstackFolder(path.join(tmp, "plain")), false);
  assert.strictEqual(await w.isGemstackFolder(path.join(tmp, "withblock")), true);
  assert.strictEqual(await w.isGemstackFolder(path.join(tmp, "withfolder")), true);
  assert.strictEqual(await w.isGemstackFolder(path.join(tmp, "missing")), false);
  assert.deepStrictEqual(
    (await w.specFiles(path.join(tmp, "withblock"))).map((f) => path.relative(tmp, f)),
    ["withblock/specs/002-x/spec.md", "withblock/specs/002-x/tasks.md"],
  );
  // The scan stops after `limit` files.
  assert.strictEqual(await w.anyHasBlock(await w.specFiles(path.join(tmp, "withblock")), 0), false);
  assert.ok(w.NOT_GEMSTACK.includes("not a Gemstack repository"));
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log("workspace: ok");
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
