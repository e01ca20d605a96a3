// Unit test of the install-failure messages (src/failure.ts), run with plain node after esbuild:
//   node test/failure.test.js <bundled failure.js>
"use strict";
const assert = require("assert");

const m = require(process.argv[2]);
const RETRY = "Gemstack: Install or update the server";
const OFFLINE = "install the platform build";

// Real output of pip 24 with the network cut (trimmed), of a full disk, of a read-only folder.
const cases = [
  ["network", "WARNING: Retrying (Retry(total=4)) after connection broken by 'NewConnectionError(...: Failed to establish a new connection: [Errno 101] Network is unreachable')': /simple/pygls/\nERROR: No matching distribution found for pygls"],
  ["network", "ERROR: Could not install packages due to an OSError: HTTPSConnectionPool(host='x', port=443): Max retries exceeded with url: /simple/ (Caused by ProxyError('Cannot connect to proxy.'))"],
  ["network", "Could not fetch URL https://x/simple/pygls/: There was a problem confirming the ssl certificate: SSLError(CERTIFICATE_VERIFY_FAILED)"],
  ["disk", "ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device"],
  ["permission", "ERROR: Could not install packages due to an OSError: [Errno 13] Permission denied: '/x/lib'"],
  ["venv", "The virtual environment was not created successfully because ensurepip is not available."],
  ["index", "ERROR: No matching distribution found for pygls<2.2,>=2.1"],
  ["other", "Traceback (most recent call last):\n  something odd"],
];
for (const [kind, output] of cases) {
  const e = m.explainFailure("installing gemstack-lsp", output, RETRY, OFFLINE);
  assert.strictEqual(e.kind, kind, output);
  assert.ok(e.message.startsWith("Gemstack: installing gemstack-lsp failed"), e.message);
  assert.ok(e.message.includes(RETRY), e.message);
  // One or two sentences, and none of pip's raw words.
  assert.ok(e.message.split(/\.\s/).length <= 2, e.message);
  assert.ok(!/Errno|Traceback|HTTPSConnectionPool/.test(e.message), e.message);
  if (kind === "network" || kind === "index") assert.ok(e.message.includes(OFFLINE), e.message);
}
console.log("failure: ok");
