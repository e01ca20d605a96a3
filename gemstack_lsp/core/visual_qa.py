"""Visual QA manifests (Gemstack 1.4, verify stage 5.4): ``specs/<feature>/visual-qa.json`` checked.

The reference's ``validateVisualManifest`` (``src/lib/visual-qa.js``) runs on the active
feature only; a missing manifest is legacy mode. Otherwise, in its order:

- ``VQA_UNREADABLE``: the manifest cannot be read;
- ``VQA_INVALID_MANIFEST``: ``JSON.parse`` fails, the root is not an object, ``version`` is set
  and is not ``"1.0.0"``, ``feature_id`` is not a non-empty string, ``scenarios`` is not an
  array, or a scenario lacks a ``scenario_id`` (or repeats one), a ``route`` or a ``viewport``;
- ``VQA_INVALID_VIEWPORT``: a viewport's ``width`` or ``height`` is not a positive integer, or
  its ``device_scale_factor`` is present and not a positive number. (The reference raises this
  code inside its schema pass, where verify reports it as ``VQA_INVALID_MANIFEST``; here it keeps
  its own code, see docs/swarm.md.) After any of these, nothing else is checked;
- ``VQA_BASELINE_MISSING``: a scenario declares no ``baseline``, or its ``image_path`` does not
  exist;
- ``VQA_BASELINE_TAMPERED``: the image's file hash (the reference's ``hashFile``: its bytes read
  as UTF-8 text, line endings normalised, SHA-256) is not the recorded ``image_sha256``; also a
  baseline path that leaves the repository, which is never read (the reference's own words for
  it: ``Error validating baseline path: [PATH_TRAVERSAL_DETECTED] ...``).

The image is read through the reader, as bytes; only paths inside the repository are read.
Where the reference's JavaScript would throw (a ``baseline`` without a string ``image_path``, an
``image_sha256`` that is not a string, an image that is a directory or starts with a byte-order
mark), its verify stops with an error: that is reported on the value, as ``VQA_INVALID_MANIFEST``
or ``VQA_UNREADABLE``. For a feature that is not the active one every finding is a warning.

``ENGLISH`` and ``SPANISH`` hold every message template, per code, index for index.
"""

from __future__ import annotations

import math
from typing import Any

from gemstack_lsp.core.findings import Finding, Related, Severity
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jscompat import js_double
from gemstack_lsp.core.jsonspan import JsonArray, JsonNode, JsonNull, JsonNumber, JsonObject, JsonResult, JsonString
from gemstack_lsp.core.jsonspan import parse_json as _parse_json
from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.reader import ReadStatus
from gemstack_lsp.core.repo import Document, Feature, GemstackRepo
from gemstack_lsp.core.swarm import capsule_file_hash, unreadable_detail, with_severity
from gemstack_lsp.core.text import Span
from gemstack_lsp.core.upgrade_e import items, js_text, js_truthy, members, opening, path_text, say

VISUAL_QA_NAME = "visual-qa.json"
SCHEMA_VERSION = "1.0.0"

_CRASH = "upstream `gemstack verify` stops with an error here"
_CRASH_ES = "el `gemstack verify` de referencia se detiene aquí con un error"

ENGLISH: dict[str, tuple[str, ...]] = {
    "VQA_UNREADABLE": (
        "visual-qa.json cannot be read: {detail}",
        'Baseline image file "{path}" is too large to check here ({detail}); its image_sha256 was not verified.',
        'Baseline image file "{path}" starts with a UTF-8 byte-order mark, which upstream\'s hasher refuses: '
        + _CRASH
        + ".",
    ),
    "VQA_INVALID_MANIFEST": (
        "Invalid JSON in visual-qa manifest: {detail}",
        "Visual manifest root must be a JSON object.",
        'Unsupported visual QA schema version: "{version}". Expected "1.0.0".',
        'Visual manifest must declare a valid "feature_id".',
        'Visual manifest must declare a "scenarios" array.',
        'Every visual QA scenario must declare an explicit "scenario_id".',
        'Duplicate scenario_id detected: "{scenario}".',
        'Scenario "{scenario}" is missing required "route".',
        'Scenario "{scenario}" is missing required "viewport" configuration.',
        "{where} is not a string: " + _CRASH + ".",
        "{where} is null (upstream reports: Cannot read properties of null (reading 'scenario_id')).",
    ),
    "VQA_INVALID_VIEWPORT": (
        'Scenario "{scenario}": Viewport width must be a positive integer.',
        'Scenario "{scenario}": Viewport height must be a positive integer.',
        'Scenario "{scenario}": Viewport device_scale_factor must be a positive number.',
    ),
    "VQA_BASELINE_MISSING": (
        'Scenario "{scenario}" does not declare a baseline.',
        'Baseline image file "{path}" does not exist on disk.',
        'Baseline image file "{path}" is not a file ({detail}): ' + _CRASH + ".",
    ),
    "VQA_BASELINE_TAMPERED": (
        'Baseline image "{path}" was modified on disk without explicit promotion. '
        "Recorded: {recorded}..., Actual: {actual}...",
        "Error validating baseline path: [PATH_TRAVERSAL_DETECTED] Path Traversal blocked: {path} "
        "(a baseline outside the repository is never read).",
    ),
}

SPANISH: dict[str, tuple[str, ...]] = {
    "VQA_UNREADABLE": (
        "No se puede leer visual-qa.json: {detail}",
        'La imagen de referencia "{path}" es demasiado grande para revisarla aquí ({detail}); no se verificó su '
        "image_sha256.",
        'La imagen de referencia "{path}" empieza con una marca de orden de bytes UTF-8, que el hasher de referencia '
        "rechaza: " + _CRASH_ES + ".",
    ),
    "VQA_INVALID_MANIFEST": (
        "JSON inválido en el manifiesto de visual-qa: {detail}",
        "La raíz del manifiesto visual debe ser un objeto JSON.",
        'Versión de esquema de visual QA no soportada: "{version}". Se esperaba "1.0.0".',
        'El manifiesto visual debe declarar un "feature_id" válido.',
        'El manifiesto visual debe declarar un arreglo "scenarios".',
        'Cada escenario de visual QA debe declarar un "scenario_id" explícito.',
        'scenario_id duplicado: "{scenario}".',
        'Al escenario "{scenario}" le falta la "route" obligatoria.',
        'Al escenario "{scenario}" le falta la configuración "viewport" obligatoria.',
        "{where} no es una cadena: " + _CRASH_ES + ".",
        "{where} es null (la referencia informa: Cannot read properties of null (reading 'scenario_id')).",
    ),
    "VQA_INVALID_VIEWPORT": (
        'Escenario "{scenario}": el width del viewport debe ser un entero positivo.',
        'Escenario "{scenario}": el height del viewport debe ser un entero positivo.',
        'Escenario "{scenario}": el device_scale_factor del viewport debe ser un número positivo.',
    ),
    "VQA_BASELINE_MISSING": (
        'El escenario "{scenario}" no declara una imagen de referencia (baseline).',
        'La imagen de referencia "{path}" no existe en disco.',
        'La imagen de referencia "{path}" no es un archivo ({detail}): ' + _CRASH_ES + ".",
    ),
    "VQA_BASELINE_TAMPERED": (
        'La imagen de referencia "{path}" fue modificada en disco sin una promoción explícita. '
        "Registrado: {recorded}..., Actual: {actual}...",
        "Error validando la ruta de la imagen de referencia: [PATH_TRAVERSAL_DETECTED] Path Traversal bloqueado: "
        "{path} (una imagen fuera del repositorio nunca se lee).",
    ),
}


def _say(code: str, index: int = 0, **values: object) -> str:
    return say(ENGLISH, code, index, **values)


#: The contract each code defends (the reference's ``contractId``, the fingerprint's subject).
CONTRACTS = {
    "VQA_UNREADABLE": "visual-evidence-subordinate",
    "VQA_INVALID_MANIFEST": "visual-evidence-subordinate",
    "VQA_INVALID_VIEWPORT": "deterministic-viewports",
    "VQA_BASELINE_MISSING": "visual-evidence-subordinate",
    "VQA_BASELINE_TAMPERED": "baseline-explicit-update-only",
}


def _finding(code: str, message: str, path: str, span: Span | None, **extra: Any) -> Finding:
    return Finding(code, message, path, span, subject=CONTRACTS[code], phase="visual-qa", **extra)


@per_text
def parse_visual_qa(text: str) -> JsonResult:
    """visual-qa.json's text parsed with spans (memoised by text)."""
    return _parse_json(text)


def baseline_path(image_path: str) -> str | None:
    """The repository-relative path ``path.join(root, image_path)`` names, or ``None`` when it
    leaves the repository (``..`` above the root). A leading slash stays inside, as with
    ``path.join``; backslashes are separators, as on Windows."""
    parts: list[str] = []
    for part in image_path.replace("\\", "/").split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return None
            parts.pop()
        else:
            parts.append(part)
    return "/".join(parts)


@record
class _Scenario:
    node: JsonNode
    index: int

    def get(self, key: str) -> JsonNode | None:
        obj = members(self.node)
        return obj.get(key) if obj is not None else None

    @property
    def id_text(self) -> str:
        return js_text(self.get("scenario_id"))

    @property
    def anchor(self) -> Span:
        node = self.get("scenario_id")
        return node.span if node is not None else opening(self.node)


def feature_visual_qa_findings(repo: GemstackRepo, feature: Feature, active: bool) -> list[Finding]:
    """The visual QA findings of one feature (``active``: it is state.json's active feature)."""
    path = feature.file(VISUAL_QA_NAME)
    doc = repo.document(path)
    if not doc.exists:
        return []
    severity = None if active else Severity.WARNING
    return [with_severity(f, severity) for f in _manifest_findings(repo, path, doc)]


def _manifest_findings(repo: GemstackRepo, path: str, doc: Document) -> list[Finding]:
    if doc.text is None:
        return [_finding("VQA_UNREADABLE", _say("VQA_UNREADABLE", detail=unreadable_detail(doc)), path, None)]
    code = "VQA_INVALID_MANIFEST"
    if doc.has_bom:
        detail = "Unexpected token '\ufeff' (a UTF-8 byte-order mark)"
        return [_finding(code, _say(code, 0, detail=detail), path, Span(0, 0))]
    parsed = parse_visual_qa(doc.text)
    if not parsed.ok or parsed.value is None:
        err = parsed.errors[0]
        return [_finding(code, _say(code, 0, detail=err.message), path, err.span)]
    root = parsed.value
    schema = _root_findings(path, root)
    if schema or not isinstance(root, JsonObject):
        return schema
    scenarios = [_Scenario(node, i) for i, node in enumerate(items(root.get("scenarios")))]
    schema = _scenario_findings(path, scenarios)
    if schema:
        return schema
    out: list[Finding] = []
    for scenario in scenarios:
        out.extend(_baseline_findings(repo, path, scenario))
    return out


def _root_findings(path: str, root: JsonNode) -> list[Finding]:
    code = "VQA_INVALID_MANIFEST"
    if not isinstance(root, JsonObject):
        return [_finding(code, _say(code, 1), path, root.span)]
    out = []
    version = root.get("version")
    if js_truthy(version) and not (isinstance(version, JsonString) and version.value == SCHEMA_VERSION):
        assert version is not None
        out.append(_finding(code, _say(code, 2, version=js_text(version)), path, version.span))
    feature_id = root.get("feature_id")
    if not (isinstance(feature_id, JsonString) and feature_id.value):
        out.append(_finding(code, _say(code, 3), path, feature_id.span if feature_id else opening(root)))
    scenarios = root.get("scenarios")
    if not isinstance(scenarios, JsonArray):
        out.append(_finding(code, _say(code, 4), path, scenarios.span if scenarios else opening(root)))
    return out


def _positive_integer(node: JsonNode | None) -> bool:
    if not isinstance(node, JsonNumber):
        return False
    value = js_double(node.value)
    return value > 0 and math.isfinite(value) and value == math.floor(value)


def _scenario_findings(path: str, scenarios: list[_Scenario]) -> list[Finding]:
    """The first problem of each scenario, as the reference's schema pass finds it."""
    code = "VQA_INVALID_MANIFEST"
    out: list[Finding] = []
    seen: set[str] = set()
    for s in scenarios:
        if isinstance(s.node, JsonNull):
            out.append(_finding(code, _say(code, 10, where=path_text("scenarios", s.index)), path, s.node.span))
            continue
        sid = s.get("scenario_id")
        if not (isinstance(sid, JsonString) and sid.value):
            out.append(_finding(code, _say(code, 5), path, sid.span if sid is not None else opening(s.node)))
            continue
        if sid.value in seen:
            out.append(_finding(code, _say(code, 6, scenario=sid.value), path, sid.span))
            continue
        seen.add(sid.value)
        route = s.get("route")
        if not (isinstance(route, JsonString) and route.value):
            span = route.span if route is not None else sid.span
            out.append(_finding(code, _say(code, 7, scenario=sid.value), path, span))
            continue
        viewport = s.get("viewport")
        if not js_truthy(viewport) or not isinstance(viewport, JsonObject | JsonArray):
            span = viewport.span if viewport is not None else sid.span
            out.append(_finding(code, _say(code, 8, scenario=sid.value), path, span))
            continue
        problem = _viewport_problem(viewport)
        if problem is not None:
            index, span = problem
            out.append(
                _finding("VQA_INVALID_VIEWPORT", _say("VQA_INVALID_VIEWPORT", index, scenario=sid.value), path, span)
            )
    return out


def _viewport_problem(viewport: JsonObject | JsonArray) -> tuple[int, Span] | None:
    obj = members(viewport)
    width = obj.get("width") if obj is not None else None
    height = obj.get("height") if obj is not None else None
    if not _positive_integer(width):
        return 0, width.span if width is not None else opening(viewport)
    if not _positive_integer(height):
        return 1, height.span if height is not None else opening(viewport)
    scale = obj.get("device_scale_factor") if obj is not None else None
    if scale is not None and not (isinstance(scale, JsonNumber) and js_double(scale.value) > 0):
        return 2, scale.span
    return None


def _baseline_findings(repo: GemstackRepo, path: str, s: _Scenario) -> list[Finding]:
    baseline = s.get("baseline")
    if not js_truthy(baseline):
        code = "VQA_BASELINE_MISSING"
        return [_finding(code, _say(code, 0, scenario=s.id_text), path, s.anchor)]
    assert baseline is not None
    obj = members(baseline)
    image = obj.get("image_path") if obj is not None else None
    if not isinstance(image, JsonString):
        where = path_text("scenarios", s.index, "baseline", "image_path")
        span = image.span if image is not None else opening(baseline)
        return [_finding("VQA_INVALID_MANIFEST", _say("VQA_INVALID_MANIFEST", 9, where=where), path, span)]
    rel = baseline_path(image.value)
    tampered = "VQA_BASELINE_TAMPERED"
    if rel is None:
        return [_finding(tampered, _say(tampered, 1, path=image.value), path, image.span)]
    doc = repo.document(rel) if rel else None
    status = doc.content.status if doc is not None else ReadStatus.NOT_A_FILE
    if status is ReadStatus.MISSING:
        code = "VQA_BASELINE_MISSING"
        return [_finding(code, _say(code, 1, path=image.value), path, image.span)]
    if status is ReadStatus.SYMLINK_OUTSIDE:
        return [_finding(tampered, _say(tampered, 1, path=image.value), path, image.span)]
    if doc is None or status is ReadStatus.NOT_A_FILE:
        code = "VQA_BASELINE_MISSING"
        detail = "EISDIR: illegal operation on a directory, read"
        return [_finding(code, _say(code, 2, path=image.value, detail=detail), path, image.span)]
    if doc.text is None:
        code = "VQA_UNREADABLE"
        detail = unreadable_detail(doc)
        severity = Severity.WARNING if status is ReadStatus.TOO_LARGE else None
        return [_finding(code, _say(code, 1, path=image.value, detail=detail), path, image.span, severity=severity)]
    if doc.has_bom:
        code = "VQA_UNREADABLE"
        return [_finding(code, _say(code, 2, path=image.value), path, image.span)]
    live = capsule_file_hash(doc.text)
    recorded = obj.get("image_sha256") if obj is not None else None
    if isinstance(recorded, JsonString) and recorded.value == live:
        return []
    if not isinstance(recorded, JsonString | JsonArray):
        where = path_text("scenarios", s.index, "baseline", "image_sha256")
        span = recorded.span if recorded is not None else opening(baseline)
        return [_finding("VQA_INVALID_MANIFEST", _say("VQA_INVALID_MANIFEST", 9, where=where), path, span)]
    shown = (
        recorded.value[:12]
        if isinstance(recorded, JsonString)
        else js_text(JsonArray(recorded.items[:12], recorded.span))
    )
    return [
        _finding(
            tampered,
            _say(tampered, 0, path=image.value, recorded=shown, actual=live[:12]),
            path,
            recorded.span,
            related=(Related(rel, None, f"the image hashes to {live[:12]}... now"),),
            data={"recorded": recorded.to_python(), "actual": live, "image": rel},
        )
    ]


__all__ = [
    "ENGLISH",
    "SPANISH",
    "VISUAL_QA_NAME",
    "baseline_path",
    "feature_visual_qa_findings",
    "parse_visual_qa",
]
