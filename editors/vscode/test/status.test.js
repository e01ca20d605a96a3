// Unit test of the capsule status bar item's words (src/status.ts), run with plain node after esbuild:
//   node test/status.test.js <bundled status.js>
"use strict";
const assert = require("assert");
const { capsuleStatusView, CAPSULE_STATE_REQUEST } = require(process.argv[2]);

assert.strictEqual(CAPSULE_STATE_REQUEST, "gemstack/capsuleState");
const base = {
  feature: "specs/009-context-capsule",
  capsule: "specs/009-context-capsule/context-capsule.json",
  featureUri: "file:///r/specs/009-context-capsule",
  capsuleUri: "file:///r/specs/009-context-capsule/context-capsule.json",
  exists: true,
  summary: "spec.md changed since the capsule was generated: regenerate it.",
  findings: [],
};
const view = (state, extra = {}) => capsuleStatusView({ ...base, state, ...extra });

// STALE, MISSING and INVALID: click regenerates; VALID (and legacy): click verifies.
assert.deepStrictEqual(
  ["VALID", "STALE", "MISSING", "INVALID", "LEGACY"].map((s) => [view(s).text, view(s).command]),
  [
    ["$(pass) Capsule VALID", "gemstack.editor.verifyCapsule"],
    ["$(warning) Capsule STALE", "gemstack.editor.regenerateCapsule"],
    ["$(circle-slash) Capsule MISSING", "gemstack.editor.regenerateCapsule"],
    ["$(error) Capsule INVALID", "gemstack.editor.regenerateCapsule"],
    ["$(info) Capsule LEGACY", "gemstack.editor.verifyCapsule"],
  ],
);
assert.strictEqual(view("VALID").alert, undefined);
assert.strictEqual(view("STALE").alert, "statusBarItem.warningBackground");
assert.strictEqual(view("INVALID").alert, "statusBarItem.errorBackground");
assert.ok(view("STALE").tooltip.includes("spec.md changed"), view("STALE").tooltip);
assert.ok(view("STALE").tooltip.endsWith("Click to regenerate it."));
assert.ok(view("MISSING", { exists: false }).tooltip.endsWith("Click to generate it."));
assert.ok(view("VALID").tooltip.endsWith("Click to verify it."));
console.log("status: ok");
