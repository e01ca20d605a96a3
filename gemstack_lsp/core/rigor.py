"""SDD rigor levels (Gemstack 2.0, ``sdd-rigor.js`` @ 443ae6c, run by ``gemstack spec validate``).

A spec declares its rigor in YAML front matter (``rigor: <level>`` between the leading ``---``
lines) or inline (``**Rigor**: `level``` / ``**Rigor Level**: level``, any case); the front
matter wins. Levels and what each requires of the active feature:

- ``quick``: a single artifact; plan.md and tasks.md are not required.
- ``fix``: a regression test in spec.md's test matrix (category ``REGRESSION``, an id containing
  ``REG``, or a description mentioning "regression" or "reproduce") - FIX_MISSING_REGRESSION_TEST.
- ``feature``: plan.md and tasks.md, non-empty - FEATURE_PLAN_MISSING, FEATURE_TASKS_MISSING.
- ``high-risk``: a ``## Threat Model`` (or ``## Modelo de Amenazas``) section in spec.md and a
  ``## Rollback Plan`` (``## Plan de Rollback``) section in plan.md -
  HIGH_RISK_MISSING_THREAT_MODEL, HIGH_RISK_MISSING_ROLLBACK_PLAN; and two distinct human
  approvals in the feature's ``.gemstack.json`` sidecar (``approvals: [{approver, signature,
  timestamp}, ...]``, an entry counting when both approver and signature are set, each approver
  once) - HIGH_RISK_INSUFFICIENT_APPROVALS.

Any other level is INVALID_RIGOR_LEVEL. The reference validates the active feature only; so
does this module, and only when the spec declares a level (undeclared, the reference assumes
``feature``, which every Gemstack 1.x spec would fail without plan.md; see ``docs/verify.md``).
The reference stops at the first unmet requirement of a level; this module reports them all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from gemstack_lsp.core.blocks import blocks_of
from gemstack_lsp.core.findings import Finding, Related
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jsonspan import JsonArray, JsonObject, JsonString
from gemstack_lsp.core.repo import Feature, GemstackRepo
from gemstack_lsp.core.suppressions import SIDECAR, read_sidecar
from gemstack_lsp.core.text import Span

RIGOR_LEVELS = ("quick", "fix", "feature", "high-risk")

#: The reference's wording of each message, keyed by code, with the same placeholders.
#: (sdd-rigor.js writes these in English, except the invalid-level one.)
SPANISH: Mapping[str, str] = {
    "INVALID_RIGOR_LEVEL": 'Nivel de rigor inválido "{level}". Niveles válidos: quick, fix, feature, high-risk',
    "FIX_MISSING_REGRESSION_TEST": (
        "Fix rigor requires at least one linked regression test in the test matrix (category REGRESSION or ID "
        "matching *REG*)"
    ),
    "FEATURE_PLAN_MISSING": "Feature rigor requires plan.md",
    "FEATURE_TASKS_MISSING": "Feature rigor requires tasks.md",
    "HIGH_RISK_MISSING_THREAT_MODEL": "High-risk rigor requires an explicit Threat Model section in spec.md",
    "HIGH_RISK_MISSING_ROLLBACK_PLAN": "High-risk rigor requires an explicit Rollback Plan section in plan.md",
    "HIGH_RISK_INSUFFICIENT_APPROVALS": (
        "High-risk rigor requires at least 2 distinct human approval signatures. Found: {found}"
    ),
}

#: JavaScript's ``\s`` (the reference's regular expressions use it), as a character class body.
_S = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_WHITESPACE = frozenset("\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff") | frozenset(
    chr(c) for c in range(0x2000, 0x200B)
)
_FRONTMATTER_RIGOR = re.compile(rf"^[{_S}]*rigor:[{_S}]*([A-Za-z0-9_-]+)", re.MULTILINE)
_INLINE_RIGOR = re.compile(rf"\*\*Rigor(?:[{_S}]+Level)?\*\*:[{_S}]*`?([A-Za-z0-9_-]+)`?", re.IGNORECASE)
_THREAT_MODEL = re.compile(
    rf"##[{_S}]+(?:[0-9.]+[{_S}]+)?(?:Threat[{_S}]+Model|Modelo[{_S}]+de[{_S}]+Amenazas)", re.IGNORECASE
)
_ROLLBACK_PLAN = re.compile(
    rf"##[{_S}]+(?:[0-9.]+[{_S}]+)?(?:Rollback[{_S}]+Plan|Plan[{_S}]+de[{_S}]+Rollback)", re.IGNORECASE
)


@record
class RigorDeclaration:
    """The level a spec declares (lower-cased) and the span of the word in spec.md."""

    level: str
    span: Span


def _frontmatter_body(text: str) -> tuple[int, int] | None:
    """The body of the leading ``---`` block as the reference's regular expression finds it
    (``^---\\s*[\\r\\n]+([\\s\\S]*?)[\\r\\n]+---``), scanned in linear time."""
    if not text.startswith("---"):
        return None
    i = 3
    last_break = -1
    while i < len(text) and text[i] in _WHITESPACE:
        if text[i] in "\r\n":
            last_break = i
        i += 1
    if last_break < 0:
        return None
    start = last_break + 1
    at = start
    while True:
        q = text.find("---", at)
        if q < 0:
            return None
        # The body ends before the line breaks that lead to this "---" (at least one).
        end = q
        while end > start and text[end - 1] in "\r\n":
            end -= 1
        if end < q:
            return start, end
        at = q + 1


def declared_rigor(text: str) -> RigorDeclaration | None:
    """The rigor level spec.md declares, or ``None`` when it declares none."""
    body = _frontmatter_body(text)
    if body is not None:
        match = _FRONTMATTER_RIGOR.search(text, body[0], body[1])
        if match is not None:
            return RigorDeclaration(match.group(1).lower(), Span(match.start(1), match.end(1)))
    match = _INLINE_RIGOR.search(text)
    if match is not None:
        return RigorDeclaration(match.group(1).lower(), Span(match.start(1), match.end(1)))
    return None


def _upper(value: object) -> str:
    return value.upper() if isinstance(value, str) else ""


def has_regression_test(matrix: JsonArray) -> bool:
    """The reference's test: an entry whose category is REGRESSION, whose id contains REG, or
    whose description mentions "regression" or "reproduce"."""
    for item in matrix.items:
        if not isinstance(item, JsonObject):
            continue
        values = {
            k: (v.value if isinstance(v, JsonString) else None)
            for k in ("category", "id", "description")
            if (v := item.get(k)) is not None
        }
        description = (values.get("description") or "").lower()
        if (
            _upper(values.get("category")) == "REGRESSION"
            or "REG" in _upper(values.get("id"))
            or "regression" in description
            or "reproduce" in description
        ):
            return True
    return False


def _approver_key(value: Any) -> tuple[str, Any]:
    """A value as a member of a JavaScript ``Set``: primitives by value (a JSON number is one
    double), objects and arrays by identity (never equal to another)."""
    if isinstance(value, bool):
        return ("boolean", value)
    if isinstance(value, int | float):
        return ("number", float(value))
    if isinstance(value, str):
        return ("string", value)
    return ("object", id(value))


def _js_truthy(value: Any) -> bool:
    if value is None or value is False:
        return False
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value != 0 and value == value
    if isinstance(value, str):
        return value != ""
    return True


def distinct_approvers(sidecar: Mapping[str, Any]) -> int:
    """How many distinct approvers the sidecar's ``approvals`` hold, as the reference counts them:
    entries whose ``approver`` and ``signature`` are both truthy, one per distinct approver."""
    approvals = sidecar.get("approvals")
    if not isinstance(approvals, list):
        return 0
    keys = {
        _approver_key(a["approver"])
        for a in approvals
        if isinstance(a, dict) and _js_truthy(a.get("approver")) and _js_truthy(a.get("signature"))
    }
    return len(keys)


def rigor_findings(repo: GemstackRepo, feature: Feature) -> list[Finding]:
    """The rigor findings of the active feature whose spec.md declares a level."""
    active = repo.active_feature()
    if active is None or active.name != feature.name:
        return []
    spec = repo.document(feature.spec)
    if spec.text is None:
        return []
    declared = declared_rigor(spec.text)
    if declared is None:
        return []
    at = declared.span
    level = declared.level
    if level not in RIGOR_LEVELS:
        return [
            Finding(
                "INVALID_RIGOR_LEVEL",
                f'Invalid rigor level "{level}". Valid levels: {", ".join(RIGOR_LEVELS)}.',
                feature.spec,
                at,
                subject=level,
            )
        ]
    plan = repo.document(feature.plan).text
    tasks = repo.document(feature.tasks).text
    out: list[Finding] = []
    if level == "fix":
        blocks = blocks_of(feature.spec, spec.text)
        root = blocks.test_matrix.root
        if not (isinstance(root, JsonArray) and has_regression_test(root)):
            fence = blocks.test_matrix.fence
            related = (Related(feature.spec, fence.open_span, "the test matrix"),) if fence is not None else ()
            out.append(
                Finding(
                    "FIX_MISSING_REGRESSION_TEST",
                    "Fix rigor requires at least one linked regression test in spec.md's test matrix (category "
                    'REGRESSION, an id containing "REG", or a description that mentions a regression or how to '
                    "reproduce it).",
                    feature.spec,
                    at,
                    subject=level,
                    related=related,
                )
            )
    elif level == "feature":
        for name, text, code in (
            ("plan.md", plan, "FEATURE_PLAN_MISSING"),
            ("tasks.md", tasks, "FEATURE_TASKS_MISSING"),
        ):
            if not text:
                out.append(
                    Finding(
                        code,
                        f"Feature rigor requires {name}: {feature.file(name)} is missing or empty.",
                        feature.spec,
                        at,
                        subject=level,
                    )
                )
    elif level == "high-risk":
        if _THREAT_MODEL.search(spec.text) is None:
            out.append(
                Finding(
                    "HIGH_RISK_MISSING_THREAT_MODEL",
                    'High-risk rigor requires an explicit Threat Model section in spec.md ("## Threat Model").',
                    feature.spec,
                    at,
                    subject=level,
                )
            )
        if not plan or _ROLLBACK_PLAN.search(plan) is None:
            out.append(
                Finding(
                    "HIGH_RISK_MISSING_ROLLBACK_PLAN",
                    'High-risk rigor requires an explicit Rollback Plan section in plan.md ("## Rollback Plan").',
                    feature.plan if plan else feature.spec,
                    None if plan else at,
                    subject=level,
                )
            )
        found = distinct_approvers(read_sidecar(repo, feature))
        if found < 2:
            sidecar = feature.file(SIDECAR)
            exists = repo.document(sidecar).text is not None
            out.append(
                Finding(
                    "HIGH_RISK_INSUFFICIENT_APPROVALS",
                    f"High-risk rigor requires at least 2 distinct human approval signatures (approvals with an "
                    f"approver and a signature in {sidecar}). Found: {found}.",
                    feature.spec,
                    at,
                    subject=level,
                    related=(Related(sidecar, None, "the approvals read"),) if exists else (),
                )
            )
    return out
