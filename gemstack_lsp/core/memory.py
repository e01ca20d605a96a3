"""Session memory: handoff.md at the repository root (Gemstack verify stage 2).

The reference (verify.js and memory-audit.js, Gemstack 2.0) requires ``handoff.md`` at the root
with five mandatory sections, found as plain substrings ("1. Objetivo" ... "5. Próximos
pasos"); the fourth, "4. Intentos fallidos", may never be removed (a constitution rule, reported
on its own beside the missing sections). Then it cross-audits the newest five commits with the
file: a commit whose abbreviated hash does not appear in handoff.md, and none of whose subject's
words of five or more letters does either, is unrecorded (a warning).

Git facts come from the reader (``recent_commits``: the disk reader asks Git with everything a
repository configures switched off, see ``gemstack_lsp.gitlog``); when the reader cannot tell,
the audit says so instead of guessing. A missing handoff.md is reported only in a repository
that ``gemstack init`` installed (it has ``.gemstack/manifest.json``), see ``docs/verify.md``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from gemstack_lsp.core.findings import Finding, Related
from gemstack_lsp.core.reader import GitCommit, ReadStatus, recent_commits_of
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.text import Span

HANDOFF_PATH = "handoff.md"
MANIFEST_PATH = ".gemstack/manifest.json"
MANDATORY_SECTIONS = (
    "1. Objetivo",
    "2. Estado actual",
    "3. Archivos y cambios",
    "4. Intentos fallidos",
    "5. Próximos pasos",
)
FAILED_ATTEMPTS = "4. Intentos fallidos"
#: How many of the newest commits the reference audits (``git log -n5``).
AUDITED_COMMITS = 5

#: The reference's wording of each message (Spanish), keyed by code, with the same placeholders.
SPANISH: Mapping[str, str] = {
    "HANDOFF_MISSING": "handoff.md no existe en la raíz. La memoria de sesión es obligatoria.",
    "HANDOFF_INCOMPLETE": "handoff.md está incompleto. Faltan secciones obligatorias: {sections}",
    "HANDOFF_FAILED_ATTEMPTS_REMOVED": (
        'Violación de la Constitución: La sección "4. Intentos fallidos" fue eliminada.'
    ),
    "MEMORY_UNRECORDED_COMMITS": "Detectados commits recientes no registrados en handoff.md: {hashes}",
    "MEMORY_GIT_AUDIT_UNAVAILABLE": "No se pudo consultar git log para la auditoría cruzada de handoff.md.",
}

# JavaScript's \s (the reference splits and strips with it): ASCII and Unicode white space.
_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_NOT_WORD = re.compile(rf"[^A-Za-z0-9_{_JS_SPACE}-]")
_SPACES = re.compile(rf"[{_JS_SPACE}]+")


def installed(repo: GemstackRepo) -> bool:
    """True when ``gemstack init`` installed the repository (its manifest exists)."""
    return repo.reader.read(MANIFEST_PATH).status is not ReadStatus.MISSING


def commit_recorded(commit: GitCommit, handoff: str) -> bool:
    """The reference's test: the hash, or a word of five or more letters of the subject (after
    dropping every character but ASCII letters, digits, ``_``, ``-`` and white space), appears in
    handoff.md, ignoring case."""
    lowered = handoff.lower()
    if commit.hash and commit.hash.lower() in lowered:
        return True
    words = [w for w in _SPACES.split(_NOT_WORD.sub("", commit.message)) if len(w) >= 5]
    return any(w.lower() in lowered for w in words)


def _line_span(text: str, needle: str) -> Span:
    """The line holding ``needle`` (the first line when it is absent)."""
    at = text.find(needle)
    start = text.rfind("\n", 0, at) + 1 if at >= 0 else 0
    end = text.find("\n", start)
    return Span(start, len(text) if end < 0 else end)


def handoff_findings(repo: GemstackRepo) -> list[Finding]:
    """HANDOFF_MISSING, HANDOFF_INCOMPLETE, HANDOFF_FAILED_ATTEMPTS_REMOVED, and the git-log
    cross-audit (MEMORY_UNRECORDED_COMMITS, MEMORY_GIT_AUDIT_UNAVAILABLE)."""
    doc = repo.document(HANDOFF_PATH)
    if not doc.exists:
        if not installed(repo):
            return []
        return [
            Finding(
                "HANDOFF_MISSING",
                "handoff.md does not exist at the repository root. Session memory is mandatory: create it with "
                "the sections " + ", ".join(MANDATORY_SECTIONS) + ".",
                HANDOFF_PATH,
                None,
                related=(Related(MANIFEST_PATH, None, "gemstack init installed this repository"),),
            )
        ]
    text = doc.text
    if text is None:
        return []  # Unreadable: the documents check says why.
    out: list[Finding] = []
    missing = [s for s in MANDATORY_SECTIONS if s not in text]
    first_line = _line_span(text, "\n") if text else Span(0, 0)
    if missing:
        out.append(
            Finding(
                "HANDOFF_INCOMPLETE",
                f"handoff.md is incomplete. Mandatory sections missing: {', '.join(missing)}",
                HANDOFF_PATH,
                first_line,
                data={"missing": missing},
            )
        )
    if FAILED_ATTEMPTS not in text:
        out.append(
            Finding(
                "HANDOFF_FAILED_ATTEMPTS_REMOVED",
                f'Constitution violation: the section "{FAILED_ATTEMPTS}" was removed. Failed attempts are '
                "session memory that must never be deleted.",
                HANDOFF_PATH,
                first_line,
            )
        )
    if not missing:
        out.extend(_cross_audit(repo, text))
    return out


def _cross_audit(repo: GemstackRepo, text: str) -> list[Finding]:
    commits = recent_commits_of(repo.reader, AUDITED_COMMITS)
    where = _line_span(text, "3. Archivos y cambios")
    if commits is None:
        if repo.reader.read(".git").status is ReadStatus.MISSING:
            return []  # Not a Git repository: the reference's git log fails and it audits nothing.
        return [
            Finding(
                "MEMORY_GIT_AUDIT_UNAVAILABLE",
                "The newest commits could not be read, so handoff.md was not cross-audited with git log "
                "(the reference would warn about commits it does not record).",
                HANDOFF_PATH,
                where,
            )
        ]
    unrecorded = [c for c in commits if not commit_recorded(c, text)]
    if not unrecorded:
        return []
    hashes = ", ".join(c.hash for c in unrecorded)
    return [
        Finding(
            "MEMORY_UNRECORDED_COMMITS",
            f"Recent commits not recorded in handoff.md: {hashes}. Record them (their hash, or a word of their "
            "subject) under the session's changes.",
            HANDOFF_PATH,
            where,
            data={"commits": [c.hash for c in unrecorded]},
        )
    ]
