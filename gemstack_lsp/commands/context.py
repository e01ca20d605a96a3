"""`gemstack-lsp context [generate|verify|show]`: the context capsule (Upgrade D) from the command line.

- ``generate``: offline, deterministic; writes ``specs/<feature>/context-capsule.json`` with
  ``fs.write_atomic`` (anchored on the repository root, never through a symlink). Exit 1 when generation fails closed.
- ``verify``: strictly read-only and offline. Exit 0 for VALID or legacy, 1 otherwise;
  ``--json`` prints ``{"state", "feature", "findings"}`` in the ``check`` finding format.
- ``show``: the reference's summary plus state and age; ``--json`` prints the capsule itself;
  ``--markdown`` writes the derived, non-authoritative ``context-capsule.md``.

The feature is ``--feature`` or the positional argument (``context verify specs/<feature>``,
as Gemstack 1.4+ takes it), else state.json's ``active_spec``; one that does not exist is an
error. With ``--json`` every outcome is exactly one JSON document on stdout, errors included
(``{"command", "feature", "error"}``).

Human output follows the reference CLI's lines (``[INFO]``/``[OK]`` on stdout, ``[FAIL]`` on
stderr), so scripts written against ``gemstack context`` keep working.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from gemstack_lsp.commands.output import json_text, say, write_stdout
from gemstack_lsp.commands.parser import Parser, error_text

if TYPE_CHECKING:
    from gemstack_lsp.core.capsule.verify import VerifyResult
    from gemstack_lsp.core.findings import Finding
    from gemstack_lsp.core.i18n import Language
    from gemstack_lsp.core.repo import GemstackRepo

SUBCOMMANDS = ("generate", "show", "verify")


class UsageError(Exception):
    """A command line this command cannot run (reported as one JSON document under ``--json``)."""


class _Parser(Parser):
    """An argument parser (in the run's language) that raises ``UsageError`` instead of
    exiting, so that ``--json`` can report a bad command line as a JSON document too."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(error_text(message, self.language))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("subcommand", nargs="?", default="show", help="generate | verify | show (default: show)")
    parser.add_argument(
        "feature_arg", nargs="?", default=None, metavar="FEATURE", help="feature folder (same as --feature)"
    )
    parser.add_argument("--target", default=None, help="repository root (default: the current directory)")
    parser.add_argument("--feature", default=None, help="feature folder, e.g. specs/009-context-capsule")
    parser.add_argument("--json", action="store_true", help="print exactly one JSON document, errors included")
    parser.add_argument("--markdown", action="store_true", help="show: also write the derived context-capsule.md")


def run_argv(argv: Sequence[str]) -> int:
    """Parse ``argv`` and run; a bad command line is an error document under ``--json``."""
    parser = _Parser(prog="gemstack-lsp context", description="generate, verify or show the context capsule")
    add_arguments(parser)
    try:
        args = parser.parse_args(list(argv))
    except UsageError as exc:
        if "--json" in argv:
            return _json_error(None, str(exc), None)
        parser.print_usage(sys.stderr)
        print(f"gemstack-lsp context: error: {exc}", file=sys.stderr)
        return 2
    return run(args)


def _redact(message: str) -> str:
    from gemstack_lsp.core.redact import redact

    return redact(message)


def _lang() -> Language:
    from gemstack_lsp.core import i18n

    return i18n.current_language()


def _text(key: str, **values: object) -> str:
    """A line of this command in the run's language (``--lang``, ``LANG``)."""
    from gemstack_lsp.core import i18n

    return i18n.ui(key, _lang(), **values)


def _problem(problem: str) -> str:
    """Why the feature cannot be worked on (``resolve_command_feature``), in the run's language."""
    from gemstack_lsp.core import i18n

    return i18n.localize(i18n.CLI_MESSAGE, problem, _lang())


def _message(finding: Finding) -> str:
    """A finding's message in the run's language."""
    from gemstack_lsp.core import i18n

    return i18n.localize(finding.code, finding.message, _lang())


def _info(message: str) -> None:
    say(f"[INFO] {_redact(message)}")


def _ok(message: str) -> None:
    say(f"[OK] {_redact(message)}")


def _warn(message: str) -> None:
    say(f"[WARN] {_redact(message)}", err=True)


def _fail(message: str) -> int:
    say(f"[FAIL] {_redact(message)}", err=True)
    return 1


def _print_json(document: Any) -> None:
    from gemstack_lsp.core.redact import redact_json

    write_stdout(json_text(redact_json(document)) + "\n")


def _json_error(command: str | None, message: str, feature: str | None, **extra: Any) -> int:
    _print_json({"command": command, "feature": feature, "error": message, **extra})
    return 1


def run(args: argparse.Namespace) -> int:
    from gemstack_lsp.core.reader import normalize_relpath
    from gemstack_lsp.core.repo import GemstackRepo
    from gemstack_lsp.fs import DiskReader

    sub = args.subcommand
    as_json = bool(args.json)

    def fail(message: str, feature: str | None = None) -> int:
        return _json_error(sub, message, feature) if as_json else _fail(message)

    if sub not in SUBCOMMANDS:
        return fail(_text("context.unknown_subcommand", sub=sub))
    if args.target is not None and args.target == "":
        return fail(_text("context.target_empty"))
    explicit = args.feature
    if args.feature_arg is not None:
        if explicit is not None and normalize_relpath(explicit) != normalize_relpath(args.feature_arg):
            return fail(_text("context.two_features", positional=args.feature_arg, option=explicit))
        explicit = args.feature_arg
    root = Path(args.target if args.target is not None else os.getcwd()).resolve()
    if not root.is_dir():
        return fail(_text("context.not_a_folder", root=root))
    repo = GemstackRepo(str(root), DiskReader(root))
    feature, problem = resolve_command_feature(repo, root, explicit)
    if feature is None:
        return fail(_problem(problem) if problem else _text("context.no_feature"))
    outside = _escape(root, feature)
    if outside is not None:
        return fail(_text("context.feature_outside", where=outside), feature)
    if problem is not None:
        return fail(_problem(problem), feature)
    if sub == "generate":
        return _generate(repo, root, feature, as_json=as_json)
    if sub == "verify":
        return _verify(repo, root, feature, as_json=as_json)
    return _show(repo, root, feature, as_json=as_json, markdown=args.markdown)


def resolve_command_feature(repo: GemstackRepo, root: Path, explicit: str | None) -> tuple[str | None, str | None]:
    """The feature folder a command works on and, when it cannot work on it, why.

    ``explicit`` (``--feature`` or the positional argument) is resolved like state.json's
    ``active_spec``: from the target root, ``./``, a trailing slash and backslashes change
    nothing, an absolute path must lie inside the target. Without it, ``active_spec``, then
    ``specs/current``, then the only feature folder. A feature whose folder does not exist is
    an error, not an empty success.
    """
    from gemstack_lsp.core.capsule.sources import CAPSULE_FILE, read_state, resolve_feature
    from gemstack_lsp.core.state import resolve_active_spec

    if explicit:
        raw = str(Path(explicit).resolve()) if os.path.isabs(explicit) else explicit
        resolved = resolve_active_spec(raw, str(root))
        if resolved.path is None:
            if resolved.escapes and os.path.isabs(explicit):
                return None, f"Feature path is outside the target: {explicit}"
            return None, f"Feature path {explicit} {resolved.reason}."
        feature, origin = resolved.path, f"Feature {resolved.path}"
    else:
        state = read_state(repo)
        active = state.get("active_spec") if state else None
        if isinstance(active, str) and active:
            resolved = resolve_active_spec(active, str(root))
            if resolved.path is None:
                return None, f'The active_spec "{active}" of .gemstack/state.json {resolved.reason}.'
            feature, origin = resolved.path, f"Feature {resolved.path} (active_spec of .gemstack/state.json)"
        else:
            found = resolve_feature(repo, None)
            if found is None:
                return None, None
            feature, origin = found, f"Feature {found}"
    entries = repo.reader.list_dir(feature)
    if entries is None:
        return feature, f"{origin} does not exist: there is no folder {root / feature}."
    if not repo.exists(f"{feature}/spec.md") and not repo.exists(f"{feature}/{CAPSULE_FILE}"):
        return feature, f"{origin} is not a feature: {root / feature} holds neither spec.md nor {CAPSULE_FILE}."
    return feature, None


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


def _generate(repo: GemstackRepo, root: Path, feature: str, *, as_json: bool) -> int:
    from gemstack_lsp.core.capsule.generate import generate_capsule
    from gemstack_lsp.fs import write_atomic

    if not as_json:
        _info(_text("context.generating", feature=feature, root=root))
    result = generate_capsule(repo, feature, dt.datetime.now(dt.UTC))
    if not result.ok or result.data is None or result.capsule is None:
        if as_json:
            findings = [finding_json(repo, f) for f in result.findings]
            return _json_error("generate", result.error_message, feature, findings=findings)
        first = _message(result.findings[0]) if result.findings else result.error_message
        code = _fail(_text("context.generation_failed", message=first))
        for f in result.findings[1:]:
            say(f"[FAIL]  - [{f.code}] {_redact(_message(f))}", err=True)
        return code
    target = root / result.path
    try:
        write_atomic(target, result.data, root=root)
    except OSError as exc:
        # The OS's own words (``str(exc)``) are quoted as it gives them; ours are translated.
        failed = _text("context.generation_failed", message=exc)
        if as_json:
            return _json_error("generate", failed, feature)
        return _fail(failed)
    n = len(result.capsule.get("canonical_invariants") or [])
    swarm_note = _swarm_note(repo, feature, result.data)
    if as_json:
        document: dict[str, Any] = {
            "command": "generate",
            "feature": feature,
            "path": result.path,
            "bytes": len(result.data),
            "invariants": n,
            "condensed": list(result.condensed),
            "warnings": [finding_json(repo, f) for f in result.warnings],
        }
        if swarm_note is not None:
            document["swarm_context_stale"] = swarm_note
        _print_json(document)
        return 0
    for w in result.warnings:
        _warn(f"[{w.code}] {_message(w)}")
    if result.condensed:
        _info(_text("context.condensed", parts=", ".join(result.condensed)))
    _ok(_text("context.generated", target=target, size=len(result.data), n=n))
    if swarm_note is not None:
        _warn(f"[SWARM_CONTEXT_STALE] {swarm_note}")
    return 0


def _swarm_note(repo: GemstackRepo, feature: str, capsule: bytes) -> str | None:
    """What the feature's swarm.json makes of the capsule just written (``None``: nothing to say)."""
    from gemstack_lsp.core import swarm

    target = repo.feature_of(feature)
    if target is None:
        return None
    active = repo.active_feature()
    return swarm.stale_after_regenerate(repo, target, capsule, active is not None and active.name == target.name)


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
    from gemstack_lsp.core import i18n

    language = _lang()
    findings = [finding_json(repo, i18n.localize_finding(f, language)) for f in result.findings]
    if result.state == "LEGACY":
        findings.append(
            {
                "code": "CONTEXT_CAPSULE_LEGACY",
                "severity": "information",
                "message": i18n.localize(i18n.NOTE, result.notes[0], language) if result.notes else "legacy",
                "path": result.path,
                "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                "fingerprint": _legacy_fingerprint(result.path),
            }
        )
    report: dict[str, Any] = {"state": result.state, "feature": result.feature, "findings": findings}
    if result.notes and result.state != "LEGACY":
        report["notes"] = [i18n.localize(i18n.NOTE, note, language) for note in result.notes]
    return report


def _legacy_fingerprint(path: str) -> str:
    from gemstack_lsp.core.findings import fingerprint

    return fingerprint("CONTEXT_CAPSULE_LEGACY", None, "capsule", path)


def _verify(repo: GemstackRepo, root: Path, feature: str, *, as_json: bool) -> int:
    from gemstack_lsp.core.capsule.verify import verify_capsule

    result = verify_capsule(repo, feature)
    if as_json:
        from gemstack_lsp.core.redact import redact_json

        write_stdout(json_text(redact_json(verify_report(repo, result))) + "\n")
        return 0 if result.ok else 1
    from gemstack_lsp.core import i18n

    _info(_text("context.auditing", feature=feature, root=root))
    if result.state == "VALID":
        _ok(_text("context.valid", feature=feature))
        return 0
    if result.state == "LEGACY":
        for note in result.notes:
            _info(i18n.localize(i18n.NOTE, note, _lang()))
        return 0
    _fail(_text("context.failed", state=result.state))
    for f in result.findings:
        say(f"[FAIL]  - [{f.code}] {_redact(_message(f))}", err=True)
    return 1


def _show(repo: GemstackRepo, root: Path, feature: str, *, as_json: bool, markdown: bool) -> int:
    from gemstack_lsp.core.capsule.canonical import parse_json
    from gemstack_lsp.core.capsule.secrets import scan_secrets
    from gemstack_lsp.core.capsule.show import render_markdown, summary_lines
    from gemstack_lsp.core.capsule.sources import CAPSULE_FILE, CAPSULE_MD_FILE
    from gemstack_lsp.core.capsule.verify import verify_capsule
    from gemstack_lsp.core.redact import redact_json
    from gemstack_lsp.core.text import utf8
    from gemstack_lsp.fs import write_atomic

    def fail(message: str) -> int:
        return _json_error("show", message, feature) if as_json else _fail(message)

    path = root / feature / CAPSULE_FILE
    doc = repo.document(f"{feature}/{CAPSULE_FILE}")
    if not doc.exists or doc.text is None:
        return fail(_text("context.capsule_not_found", path=path))
    try:
        capsule = parse_json(doc.text)
    except ValueError as exc:
        return fail(str(exc))
    secrets = list(scan_secrets(capsule))
    if as_json:
        if not secrets:
            # The capsule's own bytes: already the one JSON document this prints.
            write_stdout(_redact(doc.text if doc.text.endswith("\n") else doc.text + "\n"))
            return 0
        # The secret audit fails: the capsule is shown with every secret-looking string
        # (property names included) replaced, and the command fails.
        write_stdout(json_text(redact_json(capsule)) + "\n")
        say(f"[FAIL] {_text('context.secret_audit', n=len(secrets))}", err=True)
        return 1
    if not isinstance(capsule, dict):
        return fail(_text("context.not_an_object"))
    state = verify_capsule(repo, feature).state
    for line in summary_lines(capsule, state, dt.datetime.now(dt.UTC), _lang()):
        say(_redact(line))
    if markdown and secrets:
        where = ", ".join(hit.where for hit in secrets[:3])
        return _fail(_text("context.refuse_markdown", file=CAPSULE_MD_FILE, where=where))
    if markdown:
        md_path = root / feature / CAPSULE_MD_FILE
        try:
            write_atomic(md_path, utf8(render_markdown(capsule)), root=root)
        except OSError as exc:
            return fail(_text("context.cannot_write", path=md_path, why=exc))
    if markdown:
        _ok(_text("context.markdown_written", path=root / feature / CAPSULE_MD_FILE))
    return 0
