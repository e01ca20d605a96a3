"""One set of secret patterns: whatever any audit calls a secret, no output quotes.

The cases come from the pattern list itself (``core/secretpatterns.py``): each pattern of each
audit gets its shortest match (built from the pattern's own repetition bounds), and every
output is checked for it. URIs and paths are structure: a folder that merely looks like a key
keeps working.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.lspclient import Document, LspClient
from gemstack_lsp.core import secretpatterns
from gemstack_lsp.core.redact import looks_secret, redact
from gemstack_lsp.server.transport import redact_message

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "gemstack-reference" / "repo"


def shortest_match(pattern: secretpatterns.SecretPattern) -> str:
    """The shortest text ``pattern`` matches, built from its (JavaScript) source: each character
    class takes its first letter, repeated as often as its bound asks; ``\\s`` is a space."""
    source = pattern.source[1 : pattern.source.rindex("/")]
    out = []
    i = 0
    while i < len(source):
        char = source[i]
        if char == "[":
            close = source.index("]", i + 1)
            members = source[i + 1 : close]
            pick = next((c for c in members if c.isalpha()), members[0])
            i = close + 1
            count = 1
            if i < len(source) and source[i] == "{":
                end = source.index("}", i)
                count = int(source[i + 1 : end].split(",")[0])
                i = end + 1
            elif i < len(source) and source[i] in "*+":
                count = 0 if source[i] == "*" else 1
                i += 1
            out.append(pick * count)
            continue
        if char == "\\":
            out.append(" " if source[i + 1] == "s" else source[i + 1])
            i += 2
            continue
        if char in "*+=":
            i += 1
            continue
        out.append(char)
        i += 1
    text = "".join(out)
    assert pattern.pattern.search(text), (pattern.source, text)
    return text


CASES = [(p.kind, shortest_match(p)) for p in secretpatterns.REDACTED]


def test_every_pattern_of_every_audit_has_a_case() -> None:
    assert len(CASES) == len(secretpatterns.CAPSULE) + len(secretpatterns.LEDGER)


@pytest.mark.parametrize(("kind", "secret"), CASES, ids=[f"{k}:{s[:12]}" for k, s in CASES])
def test_the_redactor_hides_what_any_audit_calls_a_secret(kind: str, secret: str) -> None:
    text = f"provider {secret} is configured"
    assert looks_secret(text)
    assert secret not in redact(text)
    assert "[redacted" in redact(text)


def test_a_github_token_the_ledger_audit_flags_is_never_quoted(tmp_path: Path) -> None:
    """The ledger audit calls ``ghp_`` + 20 characters a secret; the redactor used to need 36."""
    from gemstack_lsp.cli import main

    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0"  # 20 characters: a ledger secret, not a capsule one
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    ledger = root / "cost-ledger.json"
    data = json.loads(ledger.read_text("utf-8"))
    data["providers"][token] = next(iter(data["providers"].values()))
    ledger.write_text(json.dumps(data), "utf-8")
    for fmt in ("text", "json", "sarif"):
        out = tmp_path / f"out.{fmt}"
        sys_stdout = sys.stdout
        with out.open("w") as handle:
            sys.stdout = handle
            try:
                main(["check", str(root), "--format", fmt])
            finally:
                sys.stdout = sys_stdout
        printed = out.read_text("utf-8")
        assert "SECRET" in printed or "secret" in printed, printed[:500]
        assert token not in printed, fmt


def test_a_private_key_body_is_redacted_not_only_its_begin_line() -> None:
    body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7"
    text = f"note: -----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY----- done"
    redacted = redact(text)
    assert body not in redacted
    assert redacted.endswith(" done")
    unterminated = redact(f"-----BEGIN PRIVATE KEY-----\n{body}")
    assert body not in unterminated


def test_redaction_never_rewrites_a_uri() -> None:
    uri = "file:///work/task-management-service-api/specs/009/spec.md"
    message = {
        "uri": uri,
        "diagnostics": [{"message": "key sk-abcdefghijklmnopqrstuvwxyz here", "relatedInformation": []}],
        "changes": {uri: [{"newText": "x"}]},
        "targetUri": uri,
    }
    out = redact_message(message)
    assert out["uri"] == uri and out["targetUri"] == uri and uri in out["changes"]
    assert "sk-abcdefghijklmnopqrstuvwxyz" not in json.dumps(out)


def test_a_folder_that_looks_like_a_key_keeps_working(tmp_path: Path) -> None:
    """Diagnostics and definitions name the real documents of a workspace whose folder name
    holds an ``sk-…``-like run (``task-management-service-api``)."""
    root = tmp_path / "task-management-service-api"
    shutil.copytree(FIXTURE, root)
    client = LspClient(root)
    try:
        assert client.initialize(timeout=60).answered
        spec = root / "specs" / "009-context-capsule" / "spec.md"
        doc = Document(client, spec)
        doc.open()
        assert client.wait_publish(doc.uri, 1, time.perf_counter(), timeout=60) is not None
        assert "task-management-service-api" in doc.uri
    finally:
        client.close()


# --- Linear time ----------------------------------------------------------------------------


def _cpu(fn: object, text: str) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        fn(text)  # type: ignore[operator]
        best = min(best, time.process_time() - start)
    return max(best, 1e-6)


ADVERSARIAL = {
    "repeated -----BEGIN": lambda n: "-----BEGIN" * n + "PRIVATE KEY",
    "repeated -----BEGIN with a late ending": lambda n: "-----BEGIN" * n + " x PRIVATE KEY-----",
    "repeated ghp_": lambda n: "ghp_" * n,
    "Bearer and spaces": lambda n: "Bearer" + " " * (4 * n) + "!",
    "repeated sk-": lambda n: "sk-" * n + "!",
    "repeated AIza": lambda n: "AIza" * n + "!",
}


@pytest.mark.parametrize("name", list(ADVERSARIAL))
def test_secret_search_and_redaction_grow_linearly(name: str) -> None:
    make = ADVERSARIAL[name]
    small, large = make(20_000), make(80_000)
    for fn in (redact, looks_secret):
        ratio = _cpu(fn, large) / _cpu(fn, small)
        # Four times the input: linear is about 4x; quadratic would be about 16x.
        assert ratio < 9, (name, fn.__name__, ratio)


def test_the_private_key_search_matches_the_regular_expression() -> None:
    import random

    expression = re.compile(r"-----BEGIN[ A-Z0-9_-]*PRIVATE KEY-----")
    pieces = ["-----BEGIN", "PRIVATE KEY-----", " ", "A", "-", "x", "\n", "RSA "]
    rng = random.Random(7)
    for _ in range(5000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        expected = [(m.start(), m.end()) for m in expression.finditer(text)]
        assert list(secretpatterns.private_keys(text)) == expected, text


def test_a_token_shaped_folder_is_reported_not_rewritten(tmp_path: Path) -> None:
    """A feature folder named like a GitHub token: one PATH_LOOKS_SECRET finding that does not
    quote it, while locations keep naming the real file."""
    from gemstack_lsp.cli import main

    token = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0"
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    shutil.copytree(root / "specs" / "009-context-capsule", root / "specs" / token)
    out = tmp_path / "out.json"
    sys_stdout = sys.stdout
    with out.open("w") as handle:
        sys.stdout = handle
        try:
            main(["check", str(root), "--format", "json"])
        finally:
            sys.stdout = sys_stdout
    findings = json.loads(out.read_text("utf-8"))["findings"]
    reported = [f for f in findings if f["code"] == "PATH_LOOKS_SECRET"]
    assert len(reported) == 1 and reported[0]["path"] == f"specs/{token}/spec.md"
    assert all(token not in f["message"] for f in findings)
