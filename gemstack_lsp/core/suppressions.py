"""Suppressions written in the repository: Markdown comments and the sidecars' accepted exceptions.

Markdown (``spec.md``, ``plan.md``, ``tasks.md`` of a feature), in an HTML comment outside any
fenced block::

    <!-- gemstack-lsp-ignore CODE[,CODE...] reason... -->
    <!-- gemstack-lsp-ignore-file CODE[,CODE...] reason... -->

A comment alone on its line silences those codes on the next non-blank line (suppression
comments stacked above it share it), or, when that line opens a fenced block, on the whole
block (through its closing fence). A comment after other
text on a line silences that line. The ``-file`` form silences the codes anywhere in the file.
The reason is required. A comment without a reason, without a code, naming a code the
catalogue does not know, or naming a code that cannot be silenced (``policy.UNSILENCEABLE``,
the suppression codes) is ``SUPPRESSION_INVALID``; a valid one is reported as
``SUPPRESSION_UNUSED`` carrying the parsed ``Suppression``, and ``policy.apply_policy`` drops
that finding when the comment silenced something.

Upstream Gemstack's per-feature sidecar ``specs/<feature>/.gemstack.json`` is read as upstream's
``readSidecar`` reads it (missing or unparseable: no exceptions). Each entry of its
``accepted_exceptions`` that has a ``fingerprint`` hides the finding with that reference
fingerprint while the entry's ``contextHash`` equals upstream's ``computeContextHash`` of
``{upstreamAcceptedPhaseHash: state.phase_hashes.spec, currentComparedPhaseHash:
state.phase_hashes.plan, normalizedContractRepresentation: JSON of the effective contracts}``
(upstream ``lib/findings.js`` ``evaluateAcceptedExceptions`` and ``commands/verify.js`` stage 4);
its ``reason`` (default "Approved exception") is what the hover shows.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

from gemstack_lsp.core.blocks.contracts import SET_LIKE_TYPES, parse_contracts
from gemstack_lsp.core.feature import Feature
from gemstack_lsp.core.findings import CATALOGUE, Finding
from gemstack_lsp.core.jscompat import js_trim, json_stringify, utf16_key
from gemstack_lsp.core.markdown import scan_fences
from gemstack_lsp.core.policy import DIRECTIVE_KEY, SUPPRESSION_CODES, UNSILENCEABLE, Suppression
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.text import Span, utf8

__all__ = [
    "IGNORE",
    "IGNORE_FILE",
    "MARKDOWN_FILES",
    "SIDECAR",
    "accepted_exceptions",
    "context_hash",
    "directive_text",
    "exceptions_on",
    "feature_suppression_findings",
    "parse_directives",
]

IGNORE = "gemstack-lsp-ignore"
IGNORE_FILE = "gemstack-lsp-ignore-file"
SIDECAR = ".gemstack.json"
#: The documents of a feature whose comments are read.
MARKDOWN_FILES = ("spec.md", "plan.md", "tasks.md")
#: The documents whose findings an accepted exception can name (upstream's stage 4 locations).
EXCEPTION_FILES = ("plan.md", "tasks.md")
#: The reason upstream gives an accepted exception that has none.
DEFAULT_REASON = "Approved exception"

#: Suppression comments read per file (a file with more is one SUPPRESSION_INVALID past the limit).
MAX_DIRECTIVES = 500
#: Lines looked through for the line a comment precedes (blank lines and stacked comments).
MAX_LOOKAHEAD = 1000

_CODES = re.compile(r"\s*([A-Za-z0-9_]+(?:\s*,\s*[A-Za-z0-9_]+)*)")
_SEPARATORS = " \t-:\u2013\u2014"


def directive_text(codes: str, reason: str, whole_file: bool = False) -> str:
    """The comment that silences ``codes`` (comma-separated) with ``reason``."""
    return f"<!-- {IGNORE_FILE if whole_file else IGNORE} {codes} {reason} -->"


def _invalid(path: str, span: Span, message: str) -> Finding:
    return Finding("SUPPRESSION_INVALID", message, path, span)


def _fenced_ranges(text: str) -> list[tuple[int, int, int]]:
    """(start, end, open line) of every fenced block, fences included."""
    out = []
    for fence in scan_fences(text):
        end = fence.close_span.end if fence.close_span is not None else len(text)
        out.append((fence.open_span.start, end, fence.open_line))
    return out


def _comments(text: str) -> list[tuple[int, int, str]]:
    """(start, end, inner text) of each HTML comment, found in one linear pass."""
    out: list[tuple[int, int, str]] = []
    at = 0
    while True:
        start = text.find("<!--", at)
        if start < 0:
            return out
        end = text.find("-->", start + 4)
        if end < 0:
            return out
        out.append((start, end + 3, text[start + 4 : end]))
        at = end + 3


def _line_bounds(text: str, offset: int) -> tuple[int, int]:
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return start, len(text) if end < 0 else end


def _scope(text: str, start: int, end: int, fences: list[tuple[int, int, int]]) -> tuple[int, int]:
    """The offsets a comment at ``[start, end)`` silences (see the module docstring)."""
    line_start, line_end = _line_bounds(text, start)
    if text[line_start:start].strip():
        return line_start, line_end
    pos = _line_bounds(text, end)[1]
    for _ in range(MAX_LOOKAHEAD):
        if pos >= len(text):
            break
        nxt_start = pos + 1
        nxt_end = _line_bounds(text, nxt_start)[1] if nxt_start <= len(text) else len(text)
        line = text[nxt_start:nxt_end].strip()
        if line and not _directive_line(line):
            for f_start, f_end, _ in fences:
                if f_start == nxt_start:
                    return nxt_start, f_end
            return nxt_start, nxt_end
        pos = nxt_end
    return end, end


def _directive_line(line: str) -> bool:
    """A line holding only a suppression comment (stacked comments share the line they precede)."""
    return line.startswith("<!--") and line.endswith("-->") and line[4:].lstrip().startswith(IGNORE)


def parse_directives(path: str, text: str) -> list[Finding]:
    """The suppression findings of one Markdown document (see the module docstring)."""
    if IGNORE not in text:
        return []
    fences = _fenced_ranges(text)
    fence_starts = [f_start for f_start, _, _ in fences]
    out: list[Finding] = []
    seen = 0
    for start, end, inner in _comments(text):
        body = inner.strip()
        if not body.startswith(IGNORE):
            continue
        at = bisect.bisect_right(fence_starts, start) - 1
        if at >= 0 and start < fences[at][1]:
            continue
        seen += 1
        if seen > MAX_DIRECTIVES:
            out.append(
                _invalid(
                    path,
                    Span(start, end),
                    f"More than {MAX_DIRECTIVES} suppression comments in one file: this one and the rest are "
                    "ignored. Use the -file form, or [[overrides]] in the configuration.",
                )
            )
            break
        whole_file = body.startswith(IGNORE_FILE)
        rest = body[len(IGNORE_FILE if whole_file else IGNORE) :]
        span = Span(start, end)
        if rest and not rest[0].isspace():
            continue  # another word that merely starts like ours (gemstack-lsp-ignored...)
        m = _CODES.match(rest)
        if m is None:
            out.append(_invalid(path, span, "This suppression names no finding code: write the codes, then a reason."))
            continue
        codes = [c.strip() for c in m.group(1).split(",")]
        reason = rest[m.end() :].strip(_SEPARATORS).strip()
        unknown = [c for c in codes if c not in CATALOGUE]
        fixed = [c for c in codes if c in UNSILENCEABLE or c in SUPPRESSION_CODES]
        if unknown:
            out.append(_invalid(path, span, f"This suppression names unknown finding code(s): {', '.join(unknown)}."))
            continue
        if fixed:
            out.append(
                _invalid(path, span, f"{', '.join(fixed)} cannot be silenced by a comment (see docs/configuration.md).")
            )
            continue
        if not reason:
            out.append(
                _invalid(
                    path, span, "This suppression has no reason: say why the finding is accepted, after the codes."
                )
            )
            continue
        if whole_file:
            scope = Suppression("file", path, reason, path, span, frozenset(codes))
        else:
            s, e = _scope(text, start, end, fences)
            scope = Suppression("next-line", path, reason, path, span, frozenset(codes), s, e)
        out.append(
            Finding(
                "SUPPRESSION_UNUSED",
                f"This suppression silences nothing: no {', '.join(codes)} finding where it applies.",
                path,
                span,
                data={DIRECTIVE_KEY: scope},
            )
        )
    return out


def feature_suppression_findings(repo: GemstackRepo, feature: Feature) -> list[Finding]:
    """The comment directives of a feature's documents (and the sidecar read, so that a change
    to it brings the feature's findings up to date)."""
    out: list[Finding] = []
    for name in MARKDOWN_FILES:
        doc = repo.document(feature.file(name))
        if doc.text is not None:
            out.extend(parse_directives(doc.path, doc.text))
    accepted_exceptions(repo, feature)
    return out


def read_sidecar(repo: GemstackRepo, feature: Feature) -> dict[str, Any]:
    """The sidecar as upstream's ``readSidecar`` gives it (missing or unparseable: defaults)."""
    defaults: dict[str, Any] = {"phase_hashes": {}, "historical_findings": [], "accepted_exceptions": []}
    doc = repo.document(feature.file(SIDECAR))
    # Node reads the file as UTF-8 with invalid bytes replaced (as ``doc.text`` holds it); a BOM,
    # NaN or Infinity make JSON.parse throw.
    if doc.text is None or doc.has_bom:
        return defaults
    try:
        parsed = json.loads(doc.text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        return defaults
    return parsed if isinstance(parsed, dict) else defaults


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _normalized(contract: dict[str, Any]) -> dict[str, Any]:
    """Upstream's ``normalizeContract``: set-like ``values`` trimmed and sorted (UTF-16 order)."""
    norm = dict(contract)
    if norm.get("type") in SET_LIKE_TYPES and isinstance(norm.get("values"), list):
        trimmed = [js_trim(v) if isinstance(v, str) else v for v in norm["values"]]
        norm["values"] = sorted(trimmed, key=lambda v: utf16_key(v if isinstance(v, str) else json.dumps(v)))
    return norm


def context_hash(repo: GemstackRepo, feature: Feature) -> str | None:
    """Upstream's current ``contextHash`` for the feature, or ``None`` when upstream's stage 4
    would not evaluate exceptions (no readable, valid ``gemstack-contracts`` block in spec.md)."""
    spec = repo.document(feature.spec)
    if spec.text is None:
        return None
    spec_block = parse_contracts(feature.spec, spec.text)
    if not spec_block.present or spec_block.findings:
        return None
    effective: list[dict[str, Any]] = [c.to_json() for c in spec_block.items]
    plan = repo.document(feature.plan)
    if plan.text is not None:
        plan_block = parse_contracts(feature.plan, plan.text)
        if plan_block.present:
            if plan_block.findings:
                return None
            merged: dict[str, dict[str, Any]] = {}
            for c in [*effective, *(p.to_json() for p in plan_block.items)]:
                merged.setdefault(str(c.get("id")), _normalized(c))
            effective = list(merged.values())
    state = repo.state()

    def phase(name: str) -> str:
        found = state.phase_hash(name) if state is not None else None
        return found.value if found is not None and found.value else ""

    payload = {
        "upstreamAcceptedPhaseHash": phase("spec"),
        "currentComparedPhaseHash": phase("plan"),
        "normalizedContractRepresentation": json_stringify(effective),
    }
    return hashlib.sha256(utf8(json_stringify(payload))).hexdigest()


def exceptions_on(
    repo: GemstackRepo,
    path: str,
    of_feature: Callable[[Feature], tuple[Suppression, ...]] | None = None,
) -> tuple[Suppression, ...]:
    """The accepted exceptions that may hide findings on ``path`` (a feature's plan.md or
    tasks.md, where upstream's frozen-contract findings are); ``of_feature`` caches the
    per-feature list (``accepted_exceptions`` by default)."""
    feature = repo.feature_of(path)
    if feature is None or path.rsplit("/", 1)[-1] not in EXCEPTION_FILES:
        return ()
    every = of_feature(feature) if of_feature is not None else accepted_exceptions(repo, feature)
    return tuple(s for s in every if s.path == path)


def accepted_exceptions(repo: GemstackRepo, feature: Feature) -> tuple[Suppression, ...]:
    """The sidecar's accepted exceptions, each naming the finding it hides by fingerprint."""
    entries = read_sidecar(repo, feature).get("accepted_exceptions")
    if not isinstance(entries, list) or not entries:
        return ()
    by_fingerprint: dict[str, dict[str, Any]] = {}
    for entry in entries:
        if isinstance(entry, dict) and isinstance(entry.get("fingerprint"), str) and entry["fingerprint"]:
            by_fingerprint[entry["fingerprint"]] = entry  # a later entry wins, as in upstream's Map
    if not by_fingerprint:
        return ()
    current = context_hash(repo, feature)
    sidecar = feature.file(SIDECAR)
    out = []
    for fp, entry in by_fingerprint.items():
        reason = entry.get("reason")
        recorded = entry.get("contextHash")
        for name in EXCEPTION_FILES:
            out.append(
                Suppression(
                    "accepted-exception",
                    feature.file(name),
                    str(reason) if isinstance(reason, str) and reason else DEFAULT_REASON,
                    sidecar,
                    None,
                    fingerprint=fp,
                    context_hash=recorded if isinstance(recorded, str) else None,
                    current_context=current,
                )
            )
    return tuple(out)
