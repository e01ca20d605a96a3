// Tokenizes a Markdown file with VS Code's own TextMate engine (vscode-textmate and
// vscode-oniguruma, as code-server ships them), its Markdown and JSON grammars, and the
// extension's injection grammar: what VS Code's editor colours, line by line.
//
//   node tokenize.js <code-server's lib/vscode> <injection grammar> <file.md> <out.json>
//
// Writes [{ line, tokens: [{ text, scopes }] }] for every line of the file.
"use strict";
const fs = require("fs");
const path = require("path");

const [vscodeDir, injectionPath, file, out] = process.argv.slice(2);
const textmate = require(path.join(vscodeDir, "node_modules", "vscode-textmate"));
const oniguruma = require(path.join(vscodeDir, "node_modules", "vscode-oniguruma"));

const injection = JSON.parse(fs.readFileSync(injectionPath, "utf8"));
const grammars = {
  "text.html.markdown": path.join(vscodeDir, "extensions", "markdown-basics", "syntaxes", "markdown.tmLanguage.json"),
  "source.json": path.join(vscodeDir, "extensions", "json", "syntaxes", "JSON.tmLanguage.json"),
  [injection.scopeName]: injectionPath,
};

async function main() {
  const wasm = fs.readFileSync(path.join(vscodeDir, "node_modules", "vscode-oniguruma", "release", "onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) => {
      const where = grammars[scopeName];
      if (!where) return null; // an embedded language this test does not load
      return textmate.parseRawGrammar(fs.readFileSync(where, "utf8"), where);
    },
    // As the extension's contributes.grammars[].injectTo says.
    getInjections: (scopeName) => (scopeName === "text.html.markdown" ? [injection.scopeName] : undefined),
  });
  const grammar = await registry.loadGrammar("text.html.markdown");
  let state = textmate.INITIAL;
  const result = [];
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const r = grammar.tokenizeLine(line, state);
    result.push({
      line,
      tokens: r.tokens.map((t) => ({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes })),
    });
    state = r.ruleStack;
  }
  fs.writeFileSync(out, JSON.stringify(result));
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
