"""Signed contract amendments (Gemstack 2.0, ``specs/<feature>/amendments.json``).

A frozen contract may change only through a signed amendment record. The reference's verify
(stage 4, commit 1bcc799) reads ``amendments.json`` of the active feature when its spec.md is
structured (it has a ``gemstack-contracts`` block): a single object counts as a one-element
list. When at least one amendment is declared it compares the spec's contracts with plan.md's
(with the spec's own when plan.md declares none) and validates the amendments
(``contract-amendments.js`` @ 443ae6c):

- every contract that plan.md modifies or drops needs an amendment naming it
  (``UNAUTHORIZED_CONTRACT_MUTATION``);
- every amendment has ``amendment_id``, ``contract_id``, ``version``, ``reason``,
  ``approved_by`` and ``signature`` (``AMENDMENT_MALFORMED``);
- its signature is the SHA-256 of ``amendment_id|contract_id|version|reason|approved_by``
  (reason and approver trimmed), or its HMAC-SHA256 when ``GEMSTACK_AMENDMENT_SECRET`` is set
  (``AMENDMENT_SIGNATURE_INVALID``).

When they all hold, the amended contracts' violations are no longer errors and a changed
spec.md hash is ``FROZEN_ARTIFACT_AMENDED`` instead of ``FROZEN_ARTIFACT_CHANGED``. Upstream's
2.0.1 tests (tests/adaptable-sdd-p1.test.js @ 1bcc799) add ``AMENDMENT_SECRET_MISSING`` and
``AMENDMENT_REPLAY_DETECTED`` (an amendment signed for another feature); both are read here as
described in ``docs/verify.md``. The secret is never read from the environment here: the CLI
and the server pass it in ``AnalysisOptions.amendment_secret``.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from gemstack_lsp.core import kinds
from gemstack_lsp.core.blocks import blocks_of
from gemstack_lsp.core.blocks.contracts import FrozenContract
from gemstack_lsp.core.findings import Finding, Related, Severity
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jscompat import js_string, js_trim, json_stringify
from gemstack_lsp.core.jsonspan import (
    JsonArray,
    JsonBool,
    JsonNode,
    JsonNull,
    JsonNumber,
    JsonObject,
    JsonString,
    parse_json,
)
from gemstack_lsp.core.markdown import reference_blocks
from gemstack_lsp.core.repo import Feature, GemstackRepo
from gemstack_lsp.core.state import STATE_PATH
from gemstack_lsp.core.text import Span, utf8

if TYPE_CHECKING:
    from gemstack_lsp.core.options import AnalysisOptions

AMENDMENTS_NAME = "amendments.json"
REQUIRED_FIELDS = ("amendment_id", "contract_id", "version", "reason", "approved_by", "signature")

#: The reference's wording of each message (Spanish), keyed by code, with the same placeholders.
SPANISH: Mapping[str, str] = {
    "AMENDMENT_FILE_INVALID": "[AMENDMENT_FILE_INVALID] Error leyendo amendments.json: {error}",
    "AMENDMENT_REJECTED": "[AMENDMENT_REJECTED] Enmienda formal rechazada: {error} (código: {code})",
    "AMENDMENT_VERIFIED": (
        "[AMENDMENT_VERIFIED] {count} enmienda(s) contractual(es) formalmente autorizada(s) con firma válida."
    ),
    "FROZEN_ARTIFACT_AMENDED": (
        "[FROZEN_ARTIFACT_AMENDED] Modificación en spec.md autorizada formalmente por enmienda firmada."
    ),
    "UNAUTHORIZED_CONTRACT_MUTATION": (
        'El contrato congelado "{contract_id}" fue {change} sin un registro formal de enmienda.'
    ),
    "AMENDMENT_MALFORMED": 'Enmienda "{amendment_id}" carece del campo obligatorio "{field}".',
    "AMENDMENT_SIGNATURE_INVALID": (
        'Firma criptográfica inválida para la enmienda "{amendment_id}" del contrato "{contract_id}".'
    ),
}


@record
class Amendment:
    """One declared amendment: its JSON node and the fields as the reference reads them."""

    index: int
    node: JsonNode

    def field(self, name: str) -> JsonNode | None:
        return self.node.get(name) if isinstance(self.node, JsonObject) else None

    def text(self, name: str) -> str | None:
        """The field's value when it is a string (the only kind an id or a name can match)."""
        value = self.field(name)
        return value.value if isinstance(value, JsonString) else None

    @property
    def label(self) -> str:
        """The amendment's id for messages (``UNKNOWN`` when it has none, as the reference says)."""
        value = self.field("amendment_id")
        return js_string(value.to_python()) if value is not None and _truthy(value) else "UNKNOWN"

    def span_of(self, name: str) -> Span:
        value = self.field(name)
        return value.span if value is not None else _head(self.node.span)


@record
class Verdict:
    """What the amendments of the active feature decide.

    ``valid`` is the reference's verdict; ``authorized`` maps each amended contract id to its
    amendment (empty unless valid). ``findings`` are the findings about the amendments and the
    unauthorized mutations they reveal.
    """

    feature: Feature
    valid: bool
    amendments: tuple[Amendment, ...]
    authorized: Mapping[str, Amendment]
    findings: tuple[Finding, ...]

    @property
    def path(self) -> str:
        return self.feature.file(AMENDMENTS_NAME)

    def names(self) -> str:
        return ", ".join(a.label for a in self.amendments)


def _truthy(node: JsonNode) -> bool:
    """JavaScript truthiness of a parsed value."""
    if isinstance(node, JsonNull):
        return False
    if isinstance(node, JsonBool):
        return node.value
    if isinstance(node, JsonString):
        return node.value != ""
    if isinstance(node, JsonNumber):
        value = node.to_python()
        return not (value == 0 or (isinstance(value, float) and math.isnan(value)))
    return True


def _head(span: Span) -> Span:
    """The first character of a span (where a whole object is meant, its opening brace)."""
    return Span(span.start, min(span.start + 1, span.end))


def _payload_part(amendment: Amendment, name: str, trim: bool) -> str:
    """``String(a[name] || '')``, trimmed for reason and approver, as the reference builds it."""
    value = amendment.field(name)
    if value is None or not _truthy(value):
        return ""
    text = js_string(value.to_python())
    return js_trim(text) if trim else text


def signature_payload(amendment: Amendment) -> str:
    """``amendment_id|contract_id|version|reason|approved_by``, as the reference signs it."""
    return "|".join(
        (
            _payload_part(amendment, "amendment_id", False),
            _payload_part(amendment, "contract_id", False),
            _payload_part(amendment, "version", False),
            _payload_part(amendment, "reason", True),
            _payload_part(amendment, "approved_by", True),
        )
    )


def compute_signature(payload: str, secret: str | None) -> str:
    """SHA-256 of the payload, or its HMAC-SHA256 under ``secret`` when one is given."""
    if secret:
        return hmac.new(utf8(secret), utf8(payload), hashlib.sha256).hexdigest()
    return hashlib.sha256(utf8(payload)).hexdigest()


def read_amendments(text: str) -> tuple[tuple[Amendment, ...], list[tuple[Span, str]]]:
    """The declared amendments (a single value counts as a list of one) and the syntax errors."""
    result = parse_json(text)
    if result.errors or result.value is None:
        return (), [(e.span, e.message) for e in result.errors]
    root = result.value
    items = root.items if isinstance(root, JsonArray) else (root,)
    return tuple(Amendment(i, node) for i, node in enumerate(items)), []


def file_findings(repo: GemstackRepo, feature: Feature) -> list[Finding]:
    """AMENDMENT_FILE_INVALID for an amendments.json the reference cannot parse (any feature)."""
    path = feature.file(AMENDMENTS_NAME)
    doc = repo.document(path)
    if doc.text is None:
        return []
    if doc.has_bom:
        message = "amendments.json cannot be read: it starts with a UTF-8 byte-order mark, which JSON.parse refuses."
        return [Finding("AMENDMENT_FILE_INVALID", message, path, Span(0, 0))]
    result = parse_json(doc.text)
    out = [
        Finding("AMENDMENT_FILE_INVALID", f"amendments.json cannot be read: {err.message}", path, err.span)
        for err in result.errors
    ]
    for dup in result.duplicate_keys:
        message = f'Duplicate key "{dup.key.value}" in amendments.json: JSON.parse keeps only its last value.'
        out.append(Finding("JSON_DUPLICATE_KEY", message, path, dup.key.span))
    return out


def _structured_spec(repo: GemstackRepo, feature: Feature) -> bool:
    doc = repo.document(feature.spec)
    return doc.text is not None and not doc.has_bom and bool(reference_blocks(doc.text, kinds.CONTRACTS))


def _contracts(repo: GemstackRepo, path: str) -> tuple[tuple[FrozenContract, ...], bool] | None:
    """A document's ``gemstack-contracts`` items and whether it has the block; ``None`` when the
    reference would stop at it (unreadable, or a block it refuses)."""
    doc = repo.document(path)
    if doc.text is None:
        return (), False
    blocks = blocks_of(path, doc.text)
    if any(f.effective_severity is Severity.BLOCKER for f in blocks.contracts.findings):
        return None
    return blocks.contracts.items, blocks.contracts.present


def verdict(repo: GemstackRepo, options: AnalysisOptions) -> Verdict | None:
    """The verdict on the active feature's amendments; ``None`` when the reference would not
    validate any (no active structured feature, no amendments, or a contracts block it refuses)."""
    feature = repo.active_feature()
    if feature is None or not _structured_spec(repo, feature):
        return None
    doc = repo.document(feature.file(AMENDMENTS_NAME))
    if doc.text is None or doc.has_bom:
        return None
    amendments, errors = read_amendments(doc.text)
    if errors or not amendments:
        return None
    spec = _contracts(repo, feature.spec)
    plan = _contracts(repo, feature.plan)
    if spec is None or plan is None:
        return None
    spec_items, _ = spec
    plan_items = plan[0] if plan[0] else spec_items
    findings = _mutation_findings(feature, spec_items, plan_items, amendments)
    findings += _amendment_findings(feature, amendments, options.amendment_secret)
    path = feature.file(AMENDMENTS_NAME)
    if findings:
        codes = ", ".join(dict.fromkeys(f.code for f in findings))
        first = findings[0]
        rejected = Finding(
            "AMENDMENT_REJECTED",
            f"The amendments of {feature.name} are rejected ({codes}): {first.message} Until every problem is "
            "fixed, no frozen finding of this feature is lifted.",
            path,
            _head(amendments[0].node.span) if len(amendments) == 1 else _root_head(doc.text),
            subject=feature.name,
            data={"code": first.code, "codes": [f.code for f in findings]},
        )
        return Verdict(feature, False, amendments, {}, (rejected, *findings))
    authorized: dict[str, Amendment] = {}
    for a in amendments:
        cid = a.text("contract_id")
        if cid is not None:
            authorized.setdefault(cid, a)
    verified = tuple(
        Finding(
            "AMENDMENT_VERIFIED",
            f'Amendment {a.label} of contract "{js_string(_value(a, "contract_id"))}" is verified: its '
            f"{'HMAC-SHA256' if options.amendment_secret else 'SHA-256'} signature matches, approved by "
            f"{js_string(_value(a, 'approved_by')).strip()}.",
            path,
            a.span_of("amendment_id"),
            severity=Severity.INFO,
            subject=a.text("contract_id"),
        )
        for a in amendments
    )
    return Verdict(feature, True, amendments, authorized, verified)


def _root_head(text: str) -> Span:
    start = len(text) - len(text.lstrip())
    return Span(start, min(start + 1, len(text)))


def _value(a: Amendment, name: str) -> object:
    node = a.field(name)
    return node.to_python() if node is not None else ""


def _mutation_findings(
    feature: Feature,
    spec_items: Sequence[FrozenContract],
    plan_items: Sequence[FrozenContract],
    amendments: Sequence[Amendment],
) -> list[Finding]:
    """UNAUTHORIZED_CONTRACT_MUTATION for each spec contract that plan.md modifies or drops
    without an amendment naming it (compared as ``JSON.stringify`` writes them)."""
    named = {a.text("contract_id") for a in amendments} - {None}
    current = {c.id: c for c in plan_items}
    out: list[Finding] = []
    for up in spec_items:
        if up.id in named:
            continue
        down = current.get(up.id)
        if down is None:
            out.append(
                Finding(
                    "UNAUTHORIZED_CONTRACT_MUTATION",
                    f'The frozen contract "{up.id}" was removed (plan.md does not declare it) without a formal '
                    "amendment record.",
                    feature.spec,
                    up.id_span,
                    subject=up.id,
                    phase="plan",
                )
            )
        elif json_stringify(up.to_json()) != json_stringify(down.to_json()):
            out.append(
                Finding(
                    "UNAUTHORIZED_CONTRACT_MUTATION",
                    f'The frozen contract "{up.id}" was modified without a formal amendment record.',
                    feature.plan,
                    down.id_span,
                    subject=up.id,
                    phase="plan",
                    related=(Related(feature.spec, up.id_span, f'"{up.id}" is frozen here, in spec.md'),),
                )
            )
    return out


def _amendment_findings(feature: Feature, amendments: Sequence[Amendment], secret: str | None) -> list[Finding]:
    """AMENDMENT_MALFORMED, AMENDMENT_REPLAY_DETECTED, AMENDMENT_SECRET_MISSING and
    AMENDMENT_SIGNATURE_INVALID for each amendment (every problem, not only the first)."""
    path = feature.file(AMENDMENTS_NAME)
    out: list[Finding] = []
    for a in amendments:
        missing = [
            name
            for name in REQUIRED_FIELDS
            if (value := a.field(name)) is None
            or (not _truthy(value) and not (isinstance(value, JsonNumber) and value.to_python() == 0))
        ]
        if not isinstance(a.node, JsonObject):
            out.append(
                Finding(
                    "AMENDMENT_MALFORMED",
                    f"Amendment #{a.index + 1} is not an object: an amendment is an object with "
                    + ", ".join(REQUIRED_FIELDS)
                    + ".",
                    path,
                    a.node.span,
                )
            )
            continue
        if missing:
            for name in missing:
                where = a.field(name)
                out.append(
                    Finding(
                        "AMENDMENT_MALFORMED",
                        f'Amendment "{a.label}" lacks the required field "{name}".',
                        path,
                        where.span if where is not None else _head(a.node.span),
                        subject=a.text("contract_id"),
                        data={"field": name},
                    )
                )
            continue
        feature_id = a.text("feature_id")
        if feature_id is not None and feature_id != feature.name:
            out.append(
                Finding(
                    "AMENDMENT_REPLAY_DETECTED",
                    f'Amendment "{a.label}" was signed for feature "{feature_id}", not for {feature.name}: '
                    "an amendment cannot be replayed on another feature.",
                    path,
                    a.span_of("feature_id"),
                    subject=a.text("contract_id"),
                )
            )
            continue
        signature = a.field("signature")
        given = signature.value if isinstance(signature, JsonString) else None
        expected = compute_signature(signature_payload(a), secret)
        if given is not None and hmac.compare_digest(utf8(given), utf8(expected)):
            continue
        contract = js_string(_value(a, "contract_id"))
        if secret:
            message = (
                f'Invalid cryptographic signature for amendment "{a.label}" of contract "{contract}": it is not '
                "the HMAC-SHA256, under GEMSTACK_AMENDMENT_SECRET, of amendment_id|contract_id|version|reason|"
                "approved_by."
            )
            out.append(Finding("AMENDMENT_SIGNATURE_INVALID", message, path, a.span_of("signature"), subject=contract))
        else:
            message = (
                f'The signature of amendment "{a.label}" of contract "{contract}" is not the SHA-256 of '
                "amendment_id|contract_id|version|reason|approved_by, and no GEMSTACK_AMENDMENT_SECRET is set "
                "to check it as an HMAC-SHA256: set the secret the amendment was signed with."
            )
            out.append(Finding("AMENDMENT_SECRET_MISSING", message, path, a.span_of("signature"), subject=contract))
    return out


def feature_findings(repo: GemstackRepo, feature: Feature, options: AnalysisOptions) -> list[Finding]:
    """The amendments findings of one feature: its file's syntax, and for the active feature the
    verdict (rejected: why; verified: each amendment)."""
    out = file_findings(repo, feature)
    active = repo.active_feature()
    if active is not None and active.name == feature.name:
        v = verdict(repo, options)
        if v is not None:
            out.extend(v.findings)
    return out


def amend_contract_violations(
    repo: GemstackRepo, feature: Feature, options: AnalysisOptions, findings: Iterable[Finding]
) -> list[Finding]:
    """FROZEN_CONTRACT_VIOLATION of an amended contract becomes an AMENDMENT_VERIFIED note naming
    the amendment, when the active feature's amendments are verified (as the reference drops them)."""
    findings = list(findings)
    if not any(f.code == "FROZEN_CONTRACT_VIOLATION" for f in findings):
        return findings
    active = repo.active_feature()
    if active is None or active.name != feature.name:
        return findings
    v = verdict(repo, options)
    if v is None or not v.valid:
        return findings
    out: list[Finding] = []
    for f in findings:
        amendment = v.authorized.get(f.subject or "") if f.code == "FROZEN_CONTRACT_VIOLATION" else None
        if amendment is None:
            out.append(f)
            continue
        kind = f.data.get("violationType", "a change")
        out.append(
            Finding(
                "AMENDMENT_VERIFIED",
                f'"{f.subject}" differs from its frozen declaration ({kind}); the change is authorized by the '
                f"signed amendment {amendment.label} in amendments.json. ({f.message})",
                f.path,
                f.span,
                severity=Severity.INFO,
                subject=f.subject,
                phase=f.phase,
                related=(
                    Related(v.path, amendment.span_of("amendment_id"), f"amendment {amendment.label}"),
                    *f.related,
                ),
                data={**f.data, "amendment": amendment.label},
            )
        )
    return out


def amend_frozen_artifacts(repo: GemstackRepo, options: AnalysisOptions, findings: Iterable[Finding]) -> list[Finding]:
    """FROZEN_ARTIFACT_CHANGED of spec.md becomes FROZEN_ARTIFACT_AMENDED when the active
    feature's amendments are verified (plan.md and tasks.md stay frozen, as in the reference)."""
    findings = list(findings)
    if not any(f.code == "FROZEN_ARTIFACT_CHANGED" and f.phase == "spec" for f in findings):
        return findings
    v = verdict(repo, options)
    if v is None or not v.valid:
        return findings
    out: list[Finding] = []
    for f in findings:
        if f.code != "FROZEN_ARTIFACT_CHANGED" or f.phase != "spec":
            out.append(f)
            continue
        where = " (the hash state.json recorded)" if f.path == STATE_PATH else ""
        out.append(
            replace(
                f,
                code="FROZEN_ARTIFACT_AMENDED",
                message=f"spec.md of {v.feature.name} changed after its phase was frozen{where}; the change is "
                f"formally authorized by the signed amendment(s) {v.names()} in amendments.json.",
                severity=Severity.INFO,
                fixes=(),
                related=(*f.related, Related(v.path, v.amendments[0].span_of("amendment_id"), "the amendments")),
            )
        )
    return out
