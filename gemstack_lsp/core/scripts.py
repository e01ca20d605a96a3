"""package.json scripts that swallow failures (Gemstack verify stage 6, verify.js @ 1bcc799).

The reference reads every string script of ``package.json``:
- one that contains ``2>nul`` or ``2> nul`` hides errors (and is not portable between
  PowerShell and Bash): an error, whatever the script's name;
- otherwise, one whose name contains ``test`` and whose command contains ``|| true`` ignores
  test failures: a warning.

Matching is plain substring search (linear in the script's length), as the reference's
``includes``; the finding sits on the matched text inside the JSON string when the string
writes it literally (else on the whole string).
"""

from __future__ import annotations

from collections.abc import Mapping

from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.jsonspan import JsonObject, JsonString, parse_json
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.text import Span

PACKAGE_PATH = "package.json"
STDERR_TO_NUL = ("2>nul", "2> nul")
IGNORE_FAILURE = "|| true"

#: The reference's wording of each message (Spanish), keyed by code, with the same placeholders.
SPANISH: Mapping[str, str] = {
    "SCRIPT_STDERR_SUPPRESSED": (
        'Falso positivo silencioso detectado en script "{name}": contiene "2>nul", incompatible con '
        "PowerShell/Bash y enmascara fallos."
    ),
    "TEST_SCRIPT_FAILURE_IGNORED": 'Script de prueba "{name}" contiene "|| true", lo que ignora fallos de testing.',
}


def _needle_span(node: JsonString, source: str, needle: str) -> Span:
    """Where ``needle`` is written inside the string literal (the literal when escapes hide it)."""
    literal = source[node.span.start : node.span.end]
    at = literal.find(needle)
    if at < 0:
        return node.span
    return Span(node.span.start + at, node.span.start + at + len(needle))


def script_findings(repo: GemstackRepo) -> list[Finding]:
    """SCRIPT_STDERR_SUPPRESSED and TEST_SCRIPT_FAILURE_IGNORED for package.json's scripts."""
    doc = repo.document(PACKAGE_PATH)
    if doc.text is None or doc.has_bom:
        return []
    parsed = parse_json(doc.text)
    root = parsed.value
    if parsed.errors or not isinstance(root, JsonObject):
        return []  # The syntax error is JSON_SYNTAX_ERROR's.
    scripts = root.get("scripts")
    if not isinstance(scripts, JsonObject):
        return []
    out: list[Finding] = []
    names = scripts.keys()  # Distinct keys; ``member`` gives the value JSON.parse keeps.
    for name in names:
        member = scripts.member(name)
        command = member.value if member is not None else None
        if not isinstance(command, JsonString):
            continue
        found = next((n for n in STDERR_TO_NUL if n in command.value), None)
        if found is not None:
            out.append(
                Finding(
                    "SCRIPT_STDERR_SUPPRESSED",
                    f'Silent false positive in script "{name}": it contains "{found}", which is not portable between '
                    "PowerShell and Bash and masks failures. Use a cross-platform runner instead, such as "
                    '"node --test <paths>" or "tsx --test <paths>".',
                    PACKAGE_PATH,
                    _needle_span(command, doc.text, found),
                    subject=name,
                )
            )
        elif IGNORE_FAILURE in command.value and "test" in name:
            out.append(
                Finding(
                    "TEST_SCRIPT_FAILURE_IGNORED",
                    f'Test script "{name}" contains "{IGNORE_FAILURE}", which ignores test failures.',
                    PACKAGE_PATH,
                    _needle_span(command, doc.text, IGNORE_FAILURE),
                    subject=name,
                )
            )
    return out
