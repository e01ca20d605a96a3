"""`gemstack-lsp context [generate|verify|show]`: the context capsule (Upgrade D) from the command line.

- ``generate``: offline, deterministic; writes ``specs/<feature>/context-capsule.json`` with
  ``fs.write_atomic`` (never through a symlink). Exit 1 when generation fails closed.
- ``verify``: strictly read-only and offline. Exit 0 for VALID or legacy, 1 otherwise;
  ``--json`` prints ``{"state", "feature", "findings"}`` in the ``check`` finding format.
- ``show``: the reference's summary plus state and age; ``--json`` prints the capsule itself;
  ``--markdown`` writes the derived, non-authoritative ``context-capsule.md``.

Human output follows the reference CLI's lines (``[INFO]``/``[OK]`` on stdout, ``[FAIL]`` on
stderr), so scripts written against ``gemstack context`` keep working.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gemstack_lsp.core.capsule.verify import VerifyResult
    from gemstack_lsp.core.repo import GemstackRepo

SUBCOMMANDS = ("generate", "show", "verify")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("subcommand", nargs="?", default="show", help="generate | verify | show (default: show)")
    parser.add_argument("--target", default=None, help="repository root (default: the current directory)")
    parser.add_argument("--feature", default=None, help="feature folder, e.g. specs/009-context-capsule")
    parser.add_argument("--json", action="store_true", help="verify: JSON report; show: the capsule itself")
    parser.add_argument("--markdown", action="store_true", help="show: also write the derived context-capsule.md")


def _redact(message: str) -> str:
    from gemstack_lsp.core.redact import redact

    return redact(message)


def _info(message: str) -> None:
    print(f"[INFO] {_redact(message)}", flush=True)


def _ok(message: str) -> None:
    print(f"[OK] {_redact(message)}", flush=True)


def _fail(message: str) -> int:
    print(f"[FAIL] {_redact(message)}", file=sys.stderr, flush=True)
    return 1


def run(args: argparse.Namespace) -> int:
    from gemstack_lsp.core.capsule.sources import resolve_feature
    from gemstack_lsp.core.repo import GemstackRepo
    from gemstack_lsp.fs import DiskReader

    sub = args.subcommand
    if sub not in SUBCOMMANDS:
        return _fail(f"Unknown context subcommand: {sub}. Valid subcommands: generate, show, verify.")
    if args.target is not None and args.target == "":
        return _fail("--target cannot be empty")
    root = Path(args.target if args.target is not None else os.getcwd()).resolve()
    repo = GemstackRepo(str(root), DiskReader(root))
    explicit = args.feature
    if explicit and os.path.isabs(explicit):
        # An absolute feature path is taken relative to the target, as the reference does.
        rel = os.path.relpath(Path(explicit).resolve(), root)
        if rel == ".." or rel.startswith(".." + os.sep):
            return _fail(f"Feature path is outside the target: {explicit}")
        explicit = Path(rel).as_posix()
    feature = resolve_feature(repo, explicit)
    if feature is None:
        return _fail("No active feature found or specified via --feature.")
    outside = _escape(root, feature)
    if outside is not None:
        return _fail(f"Feature folder is outside the repository: {outside}")
    if sub == "generate":
        return _generate(repo, root, feature)
    if sub == "verify":
        return _verify(repo, root, feature, as_json=args.json)
    return _show(repo, root, feature, as_json=args.json, markdown=args.markdown)


def _escape(root: Path, feature: str) -> str | None:
    """Why the feature folder is not the repository's own (a symlink leading out, a path
    climbing out of it), else ``None``: a feature outside is refused, never read or written."""
    from gemstack_lsp import containment
    from gemstack_lsp.core.redact import redact

    real = str(root)
    where = containment.locate_in(os.path.join(real, feature), containment.Root(real, real))
    if where.rel is None:
        return redact(where.escape or feature)
    return None


def _generate(repo: GemstackRepo, root: Path, feature: str) -> int:
    from gemstack_lsp.core.capsule.generate import generate_capsule
    from gemstack_lsp.fs import write_atomic

    _info(f'Generating context capsule for "{feature}" in: {root}')
    result = generate_capsule(repo, feature, dt.datetime.now(dt.UTC))
    if not result.ok or result.data is None or result.capsule is None:
        code = _fail(f"Generation failed: {result.error_message}")
        for f in result.findings[1:]:
            print(f"[FAIL]  - [{f.code}] {f.message}", file=sys.stderr)
        return code
    target = root / result.path
    if not target.parent.is_dir():
        return _fail(f"Generation failed: feature folder not found: {root / feature}")
    try:
        write_atomic(target, result.data)
    except OSError as exc:
        return _fail(f"Generation failed: {exc}")
    n = len(result.capsule.get("canonical_invariants") or [])
    if result.condensed:
        _info(f"Size budget: condensed {', '.join(result.condensed)} content to stay within 32768 bytes.")
    _ok(f"Context capsule generated successfully: {target} ({len(result.data)} bytes, {n} invariants).")
    return 0


def finding_json(repo: GemstackRepo, finding: Any) -> dict[str, Any]:
    """A finding in the `check --format json` shape (0-based UTF-16 range, LSP severity word)."""
    from gemstack_lsp.report import finding_range

    start, end = finding_range(repo, finding)
    item: dict[str, Any] = {
        "code": finding.code,
        "severity": finding.effective_severity.lsp_name,
        "message": finding.message,
        "path": finding.path,
        "range": {
            "start": {"line": start.line, "character": start.character},
            "end": {"line": end.line, "character": end.character},
        },
        "fingerprint": finding.fingerprint,
    }
    if finding.subject is not None:
        item["subject"] = finding.subject
    return item


def verify_report(repo: GemstackRepo, result: VerifyResult) -> dict[str, Any]:
    findings = [finding_json(repo, f) for f in result.findings]
    if result.state == "LEGACY":
        findings.append(
            {
                "code": "CONTEXT_CAPSULE_LEGACY",
                "severity": "information",
                "message": result.notes[0] if result.notes else "legacy",
                "path": result.path,
                "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                "fingerprint": _legacy_fingerprint(result.path),
            }
        )
    report: dict[str, Any] = {"state": result.state, "feature": result.feature, "findings": findings}
    if result.notes and result.state != "LEGACY":
        report["notes"] = list(result.notes)
    return report


def _legacy_fingerprint(path: str) -> str:
    from gemstack_lsp.core.findings import fingerprint

    return fingerprint("CONTEXT_CAPSULE_LEGACY", None, "capsule", path)


def _verify(repo: GemstackRepo, root: Path, feature: str, *, as_json: bool) -> int:
    from gemstack_lsp.core.capsule.verify import verify_capsule

    result = verify_capsule(repo, feature)
    if as_json:
        from gemstack_lsp.core.redact import redact_json

        print(json.dumps(redact_json(verify_report(repo, result)), indent=2, ensure_ascii=False))
        return 0 if result.ok else 1
    _info(f'Auditing context capsule for "{feature}" in: {root}')
    if result.state == "VALID":
        _ok(f"[OK] Context capsule is VALID and FRESH for {feature}.")
        return 0
    if result.state == "LEGACY":
        for note in result.notes:
            _info(note)
        return 0
    _fail(f"[{result.state}] Context capsule validation failed.")
    for f in result.findings:
        print(f"[FAIL]  - [{f.code}] {f.message}", file=sys.stderr)
    return 1


def _show(repo: GemstackRepo, root: Path, feature: str, *, as_json: bool, markdown: bool) -> int:
    from gemstack_lsp.core.capsule.canonical import parse_json
    from gemstack_lsp.core.capsule.secrets import scan_secrets
    from gemstack_lsp.core.capsule.show import render_markdown, summary_lines
    from gemstack_lsp.core.capsule.sources import CAPSULE_FILE, CAPSULE_MD_FILE
    from gemstack_lsp.core.capsule.verify import verify_capsule
    from gemstack_lsp.core.redact import redact_json
    from gemstack_lsp.fs import write_atomic

    path = root / feature / CAPSULE_FILE
    doc = repo.document(f"{feature}/{CAPSULE_FILE}")
    if not doc.exists or doc.text is None:
        return _fail(f"Context capsule not found at: {path}")
    try:
        capsule = parse_json(doc.text)
    except ValueError as exc:
        if as_json:
            # Not JSON: shown as it is, but never a secret it holds.
            sys.stdout.write(_redact(doc.text))
        return _fail(str(exc))
    secrets = list(scan_secrets(capsule))
    if as_json:
        if not secrets:
            sys.stdout.write(_redact(doc.text))
            return 0
        # The secret audit fails: the capsule is shown with every secret-looking string
        # (property names included) replaced, and the command fails.
        print(json.dumps(redact_json(capsule), indent=2, ensure_ascii=False))
        return _fail(f"The context capsule fails the secret audit ({len(secrets)} secret(s) redacted above).")
    if not isinstance(capsule, dict):
        return _fail("Context capsule must be a JSON object")
    state = verify_capsule(repo, feature).state
    for line in summary_lines(capsule, state, dt.datetime.now(dt.UTC)):
        print(_redact(line))
    if markdown and secrets:
        where = ", ".join(hit.where for hit in secrets[:3])
        return _fail(
            f"Refusing to write {CAPSULE_MD_FILE}: the context capsule fails the secret audit (at {where}); "
            "regenerate it from sources without credentials."
        )
    if markdown:
        md_path = root / feature / CAPSULE_MD_FILE
        try:
            write_atomic(md_path, render_markdown(capsule).encode("utf-8"))
        except OSError as exc:
            return _fail(f"Cannot write {md_path}: {exc}")
        _ok(f"Derived narrative written (no authority): {md_path}")
    return 0
