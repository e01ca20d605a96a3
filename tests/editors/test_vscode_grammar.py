"""The VS Code extension's injection grammar, run by VS Code's own TextMate engine.

code-server ships vscode-textmate, vscode-oniguruma and the Markdown and JSON grammars of the
VS Code it is; tests/editors/code_server/tokenize.js loads them with the extension's
syntaxes/gemstack-markdown-injection.tmLanguage.json injected into Markdown (as
contributes.grammars' injectTo does) and writes the scopes of every token. The screenshot
and the Inspect Editor Tokens check in the real editor are in test_code_server.py.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.editors.code_server.harness import CACHE

ROOT = Path(__file__).resolve().parents[2]
GRAMMAR = ROOT / "editors" / "vscode" / "syntaxes" / "gemstack-markdown-injection.tmLanguage.json"
TOKENIZE = ROOT / "tests" / "editors" / "code_server" / "tokenize.js"
VSCODE = CACHE / "node_modules" / "code-server" / "lib" / "vscode"
SPEC = ROOT / "examples" / "demo" / "specs" / "009-context-capsule" / "spec.md"

SAMPLE = """# A spec

```gemstack-contracts
[{"id": "c1", "type": "ENUM_SET"}]
```

After the block: *prose*.

~~~~ gemstack-test-matrix
{"tests": [1]}
~~~~

```json
{"plain": "json, highlighted by Markdown's own rule"}
```

```text
{"not": "json"}
```

- a list item

  ```gemstack-bindings
  {"bound": true}
  ```

```markdown
```gemstack-contracts
{"inside": "another block"}
```
"""


def _tokenize(tmp_path: Path, text: str) -> list[dict[str, Any]]:
    if not (VSCODE / "node_modules" / "vscode-textmate").is_dir():
        pytest.fail(f"code-server is not installed in {CACHE}: run `make code-server-deps`")
    node = shutil.which("node")
    assert node, "node is not on PATH"
    source = tmp_path / "sample.md"
    source.write_text(text, "utf-8")
    out = tmp_path / "tokens.json"
    proc = subprocess.run(
        [node, str(TOKENIZE), str(VSCODE), str(GRAMMAR), str(source), str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    lines: list[dict[str, Any]] = json.loads(out.read_text("utf-8"))
    return lines


def _scopes(lines: list[dict[str, Any]], line: str, text: str) -> list[str]:
    """The scopes of the first token `text` on the first line equal to `line`."""
    [entry] = [e for e in lines if e["line"] == line][:1]
    [token] = [t for t in entry["tokens"] if t["text"] == text][:1]
    scopes: list[str] = token["scopes"]
    return scopes


def test_gemstack_blocks_are_json(tmp_path: Path) -> None:
    lines = _tokenize(tmp_path, SAMPLE)
    key = _scopes(lines, '[{"id": "c1", "type": "ENUM_SET"}]', "id")
    assert "meta.embedded.block.json" in key and "support.type.property-name.json" in key, key
    value = _scopes(lines, '[{"id": "c1", "type": "ENUM_SET"}]', "ENUM_SET")
    assert "string.quoted.double.json" in value, value
    info = _scopes(lines, "```gemstack-contracts", "gemstack-contracts")
    assert "fenced_code.block.language.markdown" in info, info
    # Tildes, a longer fence, an info string with a space.
    assert "support.type.property-name.json" in _scopes(lines, '{"tests": [1]}', "tests")
    # Indented in a list item.
    assert "support.type.property-name.json" in _scopes(lines, '  {"bound": true}', "bound")


def test_the_block_ends_at_its_fence_and_leaves_others_alone(tmp_path: Path) -> None:
    lines = _tokenize(tmp_path, SAMPLE)
    prose = _scopes(lines, "After the block: *prose*.", "prose")
    assert not any(s.startswith(("markup.fenced_code", "meta.embedded")) for s in prose), prose
    assert "markup.italic.markdown" in prose
    text_block = [t for e in lines if e["line"] == '{"not": "json"}' for t in e["tokens"]]
    assert text_block and not any(s.endswith(".json") for t in text_block for s in t["scopes"]), text_block
    # A ```gemstack- line inside another fenced block is that block's text, not a new block.
    inside = [t for e in lines if e["line"] == '{"inside": "another block"}' for t in e["tokens"]]
    assert inside and not any("meta.embedded.block.json" in t["scopes"] for t in inside), inside


def test_every_block_of_the_demo_spec_is_json(tmp_path: Path) -> None:
    text = SPEC.read_text("utf-8")
    lines = _tokenize(tmp_path, text)
    opened = [i for i, e in enumerate(lines) if e["line"].startswith("```gemstack-")]
    assert opened, "the demo spec has Gemstack blocks"
    for i in opened:
        body = lines[i + 1]
        assert any("meta.embedded.block.json" in t["scopes"] for t in body["tokens"]), (body["line"], body["tokens"])
