"""What ``gemstack init`` installs, and the repository hygiene verify checks around it.

Verify stage 1 (verify.js @ 1bcc799, manifest.js and gitignore.js @ c6da2f1):
- ``.gemstack/manifest.json`` lists the files init installed (``files[].path``) with the SHA-256
  of their bytes (``files[].checksum``). A listed file that no longer exists is an error; one
  whose bytes changed is a local customisation (information, counted once); a manifest the
  reference cannot walk (``files`` not a list, an entry without a path, a path leaving the
  repository) is an error.
- ``.gitignore`` must contain the Gemstack block (the text ``# Gemstack``; init appends
  ``# Gemstack``, ``.gemstack/state.json`` and ``.gemstack/backups/``).

Verify stage 6: a ``.env`` file in the working directory is a warning, and ``package.json``
scripts must not swallow failures (see ``scripts.py``).

The absence checks (no manifest, no Gemstack block) apply to repositories ``gemstack init``
installed, i.e. that have a manifest; see ``docs/verify.md`` for why.
"""

from __future__ import annotations

import fnmatch
import hashlib
import posixpath
from collections.abc import Mapping

from gemstack_lsp.core.findings import Finding, Fix, Related, TextEdit
from gemstack_lsp.core.jscompat import js_string
from gemstack_lsp.core.jsonspan import JsonArray, JsonNode, JsonNull, JsonObject, JsonString, parse_json, type_name
from gemstack_lsp.core.memory import MANIFEST_PATH, installed
from gemstack_lsp.core.reader import ReadStatus
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.text import Span

GITIGNORE_PATH = ".gitignore"
GITIGNORE_MARKER = "# Gemstack"
GITIGNORE_BLOCK = "\n# Gemstack\n.gemstack/state.json\n.gemstack/backups/\n"
ENV_NAME = ".env"

#: The reference's wording of each message (Spanish), keyed by code, with the same placeholders.
SPANISH: Mapping[str, str] = {
    "GEMSTACK_FILE_MISSING": "Archivo requerido faltante: {path}",
    "GEMSTACK_FILES_MODIFIED": "{count} archivos base modificados localmente (personalización permitida).",
    "GEMSTACK_MANIFEST_INVALID": "Error leyendo manifest.json: {error}",
    "GITIGNORE_GEMSTACK_BLOCK_MISSING": ".gitignore no está configurado con las exclusiones de Gemstack.",
    "ENV_FILE_PRESENT": "Archivo .env detectado en el directorio de trabajo. Verifica que esté en .gitignore.",
}


def _falsy(node: JsonNode | None) -> bool:
    if node is None or isinstance(node, JsonNull):
        return True
    value = node.to_python() if not isinstance(node, JsonObject | JsonArray) else None
    return (
        value is False or value == "" or (isinstance(value, int | float) and not isinstance(value, bool) and value == 0)
    )


def _inside(repo: GemstackRepo, raw: str) -> str | None:
    """The repository-relative path a manifest path names, ``None`` when it leaves the repository."""
    value = raw.replace("\\", "/")
    if value.startswith("/"):
        base = repo.root.replace("\\", "/").rstrip("/") + "/"
        if not value.startswith(base):
            return None
        value = value[len(base) :]
    rel = posixpath.normpath(value) if value else "."
    if rel == ".." or rel.startswith("../"):
        return None
    return rel


def manifest_findings(repo: GemstackRepo) -> list[Finding]:
    """GEMSTACK_FILE_MISSING, GEMSTACK_FILES_MODIFIED and GEMSTACK_MANIFEST_INVALID for the manifest."""
    doc = repo.document(MANIFEST_PATH)
    if doc.text is None or doc.has_bom:
        return []  # Absent, unreadable or not JSON: other findings (or none, see the module doc).
    parsed = parse_json(doc.text)
    root = parsed.value
    if parsed.errors or root is None:
        return []  # JSON_SYNTAX_ERROR, from the documents check.
    if isinstance(root, JsonNull):
        return [
            Finding(
                "GEMSTACK_MANIFEST_INVALID",
                'manifest.json cannot be read: it is null, not an object with a "files" list.',
                MANIFEST_PATH,
                root.span,
            )
        ]
    if not isinstance(root, JsonObject):
        return []  # `manifest.files` of a number, string or list is undefined: no file is checked.
    files = root.get("files")
    if _falsy(files):
        return []
    assert files is not None
    if not isinstance(files, JsonArray):
        return [
            Finding(
                "GEMSTACK_MANIFEST_INVALID",
                f'manifest.json cannot be read: "files" must be a list of {{path, checksum}} entries, not '
                f"{'an object' if isinstance(files, JsonObject) else 'a ' + type_name(files)}.",
                MANIFEST_PATH,
                files.span,
            )
        ]
    out: list[Finding] = []
    modified: list[str] = []
    for entry in files.items:
        path_node = entry.get("path") if isinstance(entry, JsonObject) else None
        if not isinstance(entry, JsonObject) or not isinstance(path_node, JsonString):
            out.append(
                Finding(
                    "GEMSTACK_MANIFEST_INVALID",
                    'manifest.json cannot be read: each entry of "files" is an object with a string "path".',
                    MANIFEST_PATH,
                    (path_node or entry).span,
                )
            )
            continue
        rel = _inside(repo, path_node.value)
        if rel is None:
            out.append(
                Finding(
                    "GEMSTACK_MANIFEST_INVALID",
                    f'manifest.json cannot be read: "{path_node.value}" leads outside the repository.',
                    MANIFEST_PATH,
                    path_node.span,
                )
            )
            continue
        content = repo.reader.read(rel)
        if content.status is ReadStatus.MISSING:
            out.append(
                Finding(
                    "GEMSTACK_FILE_MISSING",
                    f"Required file missing: {path_node.value} (installed by gemstack init, listed in "
                    ".gemstack/manifest.json).",
                    MANIFEST_PATH,
                    path_node.span,
                    subject=path_node.value,
                )
            )
            continue
        if content.status is ReadStatus.NOT_A_FILE or content.status is ReadStatus.SYMLINK_OUTSIDE:
            why = "is not a regular file" if content.status is ReadStatus.NOT_A_FILE else "leads outside the repository"
            out.append(
                Finding(
                    "GEMSTACK_MANIFEST_INVALID",
                    f"manifest.json cannot be read: {path_node.value} {why}.",
                    MANIFEST_PATH,
                    path_node.span,
                )
            )
            continue
        if not content.ok or content.data is None:
            continue  # Too large or unreadable: its checksum cannot be compared.
        checksum = entry.get("checksum")
        recorded = js_string(checksum.to_python()) if checksum is not None else None
        if recorded != hashlib.sha256(content.data).hexdigest():
            modified.append(path_node.value)
    if modified:
        shown = ", ".join(modified[:5]) + (f" and {len(modified) - 5} more" if len(modified) > 5 else "")
        member = root.member("files")
        out.append(
            Finding(
                "GEMSTACK_FILES_MODIFIED",
                f"{len(modified)} base file(s) modified locally (customisation allowed): {shown}.",
                MANIFEST_PATH,
                member.key.span if member is not None else files.span,
                data={"modified": modified},
            )
        )
    return out


def gitignore_findings(repo: GemstackRepo) -> list[Finding]:
    """GITIGNORE_GEMSTACK_BLOCK_MISSING when an installed repository's .gitignore lacks ``# Gemstack``."""
    if not installed(repo):
        return []
    doc = repo.document(GITIGNORE_PATH)
    if doc.text is not None and GITIGNORE_MARKER in doc.text:
        return []
    if doc.text is None and doc.exists:
        return []  # Unreadable: not a question of its contents.
    message = (
        '.gitignore is not configured with the Gemstack exclusions: it has no "# Gemstack" block '
        "(.gemstack/state.json and .gemstack/backups/ are local state)."
    )
    fixes: tuple[Fix, ...] = ()
    if doc.text is not None:
        end = len(doc.text)
        block = GITIGNORE_BLOCK if doc.text.endswith("\n") or not doc.text else "\n" + GITIGNORE_BLOCK
        fixes = (Fix("Add the Gemstack block to .gitignore", (TextEdit(GITIGNORE_PATH, Span(end, end), block),)),)
    return [
        Finding(
            "GITIGNORE_GEMSTACK_BLOCK_MISSING",
            message,
            GITIGNORE_PATH,
            None,
            fixes=fixes,
            related=(Related(MANIFEST_PATH, None, "gemstack init installed this repository"),),
        )
    ]


def _ignores_root_file(gitignore: str, name: str) -> bool:
    """Whether ``.gitignore``'s patterns ignore the root file ``name`` (the last matching pattern
    wins; negations un-ignore; directory-only patterns never match a file)."""
    ignored = False
    for raw in gitignore.splitlines():
        line = raw.rstrip()
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        pattern = line[1:] if negate else line
        if pattern.endswith("/"):
            continue
        pattern = pattern.removeprefix("**/").removeprefix("/")
        if "/" in pattern:
            continue  # Names a file in a folder, not at the root.
        if fnmatch.fnmatchcase(name, pattern):
            ignored = not negate
    return ignored


def env_findings(repo: GemstackRepo) -> list[Finding]:
    """ENV_FILE_PRESENT for a root ``.env`` that .gitignore does not ignore (its content is never read)."""
    entries = repo.reader.list_dir("") or []
    if not any(e.name == ENV_NAME and not e.is_dir for e in entries):
        return []
    gitignore = repo.document(GITIGNORE_PATH).text
    if gitignore is not None and _ignores_root_file(gitignore, ENV_NAME):
        return []
    return [
        Finding(
            "ENV_FILE_PRESENT",
            ".env file found in the working directory and .gitignore does not ignore it: it may hold secrets "
            "and be committed. Add .env to .gitignore.",
            ENV_NAME,
            None,
        )
    ]
