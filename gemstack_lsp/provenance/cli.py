"""``evidence-provenance`` command line: the reference's flags, receipts and error texts."""

from __future__ import annotations

import json
import os
import select
import sys
from dataclasses import dataclass, field
from typing import BinaryIO

from gemstack_lsp.provenance.errors import ProvenanceError
from gemstack_lsp.provenance.paths import MAX_PLAN_BYTES
from gemstack_lsp.provenance.readplan import read_existing_plan
from gemstack_lsp.provenance.snapshot import check_schema_version, take_snapshot
from gemstack_lsp.provenance.writeplan import check_write_request, write_generated_plan

COMMANDS = ("snapshot", "read-plan", "write-plan")
_FLAGS: dict[str, frozenset[str]] = {
    "snapshot": frozenset({"--repo", "--generated-plan", "--cited", "--schema-version"}),
    "read-plan": frozenset({"--repo", "--generated-plan"}),
    "write-plan": frozenset(
        {"--repo", "--generated-plan", "--replace", "--expected-plan-path", "--expected-plan-digest"}
    ),
}
_BOOLEAN_FLAGS = frozenset({"--replace"})
_REPEATABLE_FLAGS = frozenset({"--cited"})


@dataclass
class Invocation:
    """A parsed command line."""

    command: str
    values: dict[str, str] = field(default_factory=dict)
    cited: list[str] = field(default_factory=list)
    replace: bool = False
    schema_version: int = 2


def js_number(digits: str) -> str:
    """An ASCII digit string as JavaScript prints ``Number(digits)`` (``1e+23``, ``Infinity``)."""
    try:
        value = float(int(digits))
    except OverflowError:
        return "Infinity"
    if value < 1e21:
        return str(int(value))
    return repr(value)


def parse_args(argv: list[str]) -> Invocation:
    """Parse ``argv`` (without the program name) by the reference's rules, in its order."""
    if argv and argv[0] != "" and not argv[0].startswith("--"):
        command, tokens = argv[0], argv[1:]
    else:
        command, tokens = "snapshot", argv
    if command not in COMMANDS:
        raise ProvenanceError(f"Unsupported command: {command}")
    invocation = Invocation(command)
    allowed = _FLAGS[command]
    seen: set[str] = set()
    schema_text: str | None = None
    position = 0
    while position < len(tokens):
        token = tokens[position]
        position += 1
        if not token.startswith("--"):
            raise ProvenanceError(f"Unexpected positional argument: {token}")
        if token not in allowed:
            raise ProvenanceError(f"{token} is not valid for {command}")
        if token in seen and token not in _REPEATABLE_FLAGS:
            raise ProvenanceError(f"Duplicate option: {token}")
        seen.add(token)
        if token in _BOOLEAN_FLAGS:
            invocation.replace = True
            continue
        if position >= len(tokens) or tokens[position].startswith("--"):
            raise ProvenanceError(f"Missing value for {token}")
        value = tokens[position]
        position += 1
        if token == "--cited":
            invocation.cited.append(value)
        elif token == "--schema-version":
            if not (value.isascii() and value.isdigit()):
                raise ProvenanceError("--schema-version must be an integer")
            schema_text = value
        else:
            invocation.values[token] = value
    if not invocation.values.get("--repo"):
        raise ProvenanceError("--repo is required")
    if not invocation.values.get("--generated-plan"):
        raise ProvenanceError("--generated-plan is required")
    if command == "snapshot" and schema_text is not None:
        if int(schema_text) != 2:
            raise ProvenanceError(
                f"Unsupported evidence provenance schema {js_number(schema_text)}; "
                "schema 1 is legacy and must be conservatively re-anchored"
            )
        invocation.schema_version = 2
    if command == "write-plan":
        check_write_request(
            invocation.replace,
            invocation.values.get("--expected-plan-path"),
            invocation.values.get("--expected-plan-digest"),
        )
    return invocation


def read_stdin_limited(stream: BinaryIO, limit: int = MAX_PLAN_BYTES) -> bytes:
    """Read all of standard input, blocking normally even on an inherited non-blocking pipe."""
    fd = stream.fileno()
    chunks: list[bytes] = []
    total = 0
    while True:
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            select.select([fd], [], [])
            continue
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if total > limit:
            raise ProvenanceError(f"Generated plan exceeds {limit} bytes")
        chunks.append(chunk)


def run(invocation: Invocation, stdin: BinaryIO) -> dict[str, object]:
    repo = invocation.values["--repo"]
    plan = invocation.values["--generated-plan"]
    if invocation.command == "snapshot":
        check_schema_version(invocation.schema_version)
        return take_snapshot(repo, plan, invocation.cited).to_json()
    if invocation.command == "read-plan":
        return read_existing_plan(repo, plan).to_json()
    content = read_stdin_limited(stdin)
    return write_generated_plan(
        repo,
        plan,
        content,
        replace=invocation.replace,
        expected_plan_path=invocation.values.get("--expected-plan-path"),
        expected_plan_digest=invocation.values.get("--expected-plan-digest"),
    ).to_json()


def main(argv: list[str]) -> int:
    """Run one command; print its receipt (exit 0) or ``evidence-provenance: <message>`` (exit 1)."""
    try:
        receipt = run(parse_args(argv), sys.stdin.buffer)
    except ProvenanceError as error:
        # The reference's English unless `gemstack-lsp` was asked for another language.
        from gemstack_lsp.core.i18n import current_language, localize_plan_error

        _write_err(f"evidence-provenance: {localize_plan_error(error.message, current_language())}\n")
        return 1
    except Exception as error:  # every failure is exit 1 with one stderr line
        _write_err(f"evidence-provenance: {error}\n")
        return 1
    sys.stdout.buffer.write((json.dumps(receipt, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    sys.stdout.buffer.flush()
    return 0


def _write_err(text: str) -> None:
    sys.stderr.buffer.write(text.encode("utf-8", errors="surrogateescape"))
    sys.stderr.buffer.flush()
