"""The cost ledger (``cost-ledger.json``, Upgrade C section 9): load, audit, validate, age.

Loading follows the reference (``gemstack-cli.md`` section 11.1): unreadable or malformed
JSON stops at once; then the secret audit (every violation is its own finding, and any stops
the load); then the schema (``schemas/cost-ledger-v1.schema.json`` run with jsonschema, every
error its own finding, messages and order as the reference's validator, plus the rules a schema
cannot say: a ``freshness_date`` JavaScript's ``Date.parse`` accepts); then the staleness
warnings. Every ``COST_LEDGER_INVALID`` finding points at the JSON that explains it (the key
named like a credential, the value shaped like one, the wrong value, or the key of the object
that lacks a member), and a secret value is never echoed.

Findings use the reference's fingerprint slots: ``subject`` is the contract id
(``upgrade-c-cost-states``, or ``secrets-forbidden-in-safety-artifacts`` for a secret) and
``phase`` is ``IMPLEMENTATION``; the location is the repository-relative path.
"""

from __future__ import annotations

import copy
import datetime as dt
import functools
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from gemstack_lsp.core import kinds, secretpatterns
from gemstack_lsp.core.cost.jsonedit import insert_member
from gemstack_lsp.core.feature import LEDGER_NAME
from gemstack_lsp.core.findings import Finding, Fix, TextEdit
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jscompat import (
    UNDEFINED,
    is_js_number,
    js_date_parse_ms,
    js_property_order,
    js_string,
    json_stringify,
)
from gemstack_lsp.core.jsonspan import (
    SCHEMA_DEPTH,
    JsonArray,
    JsonNode,
    JsonObject,
    JsonString,
    member_place,
    node_at,
    parse_json,
    plain_json,
    to_python_within,
)
from gemstack_lsp.core.memo import per_piece, per_text
from gemstack_lsp.core.schemas import load_schema
from gemstack_lsp.core.text import Span

_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
if TYPE_CHECKING:
    import jsonschema

COST_STATES: Final = ("FREE", "BILLABLE", "POTENTIALLY_BILLABLE", "UNKNOWN")
PROVIDER_TYPES: Final = ("COMMERCIAL", "LOCAL", "MOCK")
LEDGER_CONTRACT: Final = "upgrade-c-cost-states"
SECRETS_CONTRACT: Final = "secrets-forbidden-in-safety-artifacts"
PHASE: Final = "IMPLEMENTATION"
DEFAULT_MAX_AGE_DAYS: Final = 90
SCHEMA_FILE: Final = kinds.ARTIFACT_SCHEMAS[LEDGER_NAME]

#: Property names a ledger must never use (compared lower-cased, and lower-cased without - and _).
FORBIDDEN_KEYS: Final = frozenset(
    {
        "apikey", "api_key", "token", "accesstoken", "access_token", "bearertoken", "bearer_token",
        "secret", "clientsecret", "client_secret", "authorization", "private_key", "privatekey",
        "passwd", "password", "credentials",
    }
)  # fmt: skip

#: Secret value patterns: (Python regex, the reference's JavaScript source as its messages print it).
#: They live in ``core/secretpatterns.py`` with every other audit's (the redactor hides all).
SECRET_PATTERNS: Final[tuple[tuple[re.Pattern[str], str], ...]] = tuple(
    (p.pattern, p.source) for p in secretpatterns.LEDGER
)

#: The default body of a ledger entry added by a fix: UNKNOWN until someone classifies it.
UNCLASSIFIED_ENTRY: Final[Mapping[str, Any]] = MappingProxyType(
    {
        "cost_state": "UNKNOWN",
        "estimated_unit_cost": 0,
        "assumption_source": "UNVERIFIED: set cost_state, estimated_unit_cost and freshness_date "
        "from the provider's published pricing",
    }
)


# ---------------------------------------------------------------------------------------------
# The ledger model


class LedgerPlaces:
    """Where a valid ledger's providers and entries are written, found when a place is asked
    for (checking a valid ledger mostly asks for none): in the tree when loading made one, else
    by skipping through the text with the C scanner (``member_place``: a ledger loaded from
    plain values has no repeated key). Two are equal when made from the same text."""

    __slots__ = ("_root", "_text")

    def __init__(self, text: str, root: JsonObject | None = None) -> None:
        self._text = text
        self._root = root

    def place(self, *path: str) -> tuple[Span, Span]:
        """The spans of the key and the value of the member at ``path`` (the last one when a key
        repeats, as loading reads it); the member exists in a valid ledger."""
        if self._root is None:
            found = member_place(self._text, path)
            assert found is not None
            return found
        node: JsonNode | None = self._root
        member = None
        for key in path:
            assert isinstance(node, JsonObject)
            member = node.member(key)
            assert member is not None
            node = member.value
        assert member is not None
        return member.key.span, member.value.span

    def optional(self, *path: str) -> Span | None:
        """The span of the value at ``path`` when there is one."""
        if self._root is None:
            found = member_place(self._text, path)
            return found[1] if found is not None else None
        node = node_at(self._root, path)
        return node.span if node is not None else None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LedgerPlaces) and self._text == other._text

    def __hash__(self) -> int:
        return hash(self._text)

    def __getstate__(self) -> tuple[str, JsonObject | None]:
        return self._text, self._root

    def __setstate__(self, state: tuple[str, JsonObject | None]) -> None:
        self._text, self._root = state


@record
class LedgerCapability:
    """One ``providers.<id>.capabilities.<cap>`` entry of a valid ledger."""

    provider_key: str
    capability_id: str
    cost_state: str
    estimated_unit_cost: float | None
    freshness_date: str | None
    places: LedgerPlaces = field(repr=False)

    @property
    def key_span(self) -> Span:
        return self.places.place("providers", self.provider_key, "capabilities", self.capability_id)[0]

    @property
    def span(self) -> Span:
        return self.places.place("providers", self.provider_key, "capabilities", self.capability_id)[1]

    @property
    def cost_state_span(self) -> Span | None:
        return self.places.optional("providers", self.provider_key, "capabilities", self.capability_id, "cost_state")


@record
class LedgerProvider:
    """One provider of a valid ledger (``key`` as written in the file)."""

    key: str
    type: str
    pricing_model: str
    capabilities: Mapping[str, LedgerCapability]
    places: LedgerPlaces = field(repr=False)

    @property
    def key_span(self) -> Span:
        return self.places.place("providers", self.key)[0]

    @property
    def span(self) -> Span:
        return self.places.place("providers", self.key)[1]


@record
class CostLedger:
    """A loaded, valid ledger."""

    path: str
    currency: str
    providers: Mapping[str, LedgerProvider]

    def entry(self, provider_key: str, capability_id: str) -> LedgerCapability | None:
        provider = self.providers.get(provider_key)
        return provider.capabilities.get(capability_id) if provider is not None else None


@record
class LedgerResult:
    """The outcome of loading one ledger file: the ledger when valid, and every finding."""

    path: str
    exists: bool
    ledger: CostLedger | None
    findings: tuple[Finding, ...]
    #: The parsed tree when loading made it (a valid ledger is loaded from plain values).
    tree: JsonNode | None = field(default=None, compare=False, repr=False)
    text: str | None = None

    @functools.cached_property
    def root(self) -> JsonNode | None:
        """The parsed tree, whenever the text is syntactically valid JSON (even if the ledger is
        invalid): parsed on first use when loading did not need it."""
        if self.tree is not None or self.ledger is None or self.text is None:
            return self.tree
        return parse_json(self.text).value

    @property
    def valid(self) -> bool:
        return self.ledger is not None

    @property
    def providers_node(self) -> JsonObject | None:
        if isinstance(self.root, JsonObject):
            node = self.root.get("providers")
            if isinstance(node, JsonObject):
                return node
        return None


# ---------------------------------------------------------------------------------------------
# Secret audit (reference 11.2)


@record
class SecretViolation:
    """A credential-like key or a secret-shaped value; ``span`` covers the key or the value."""

    path: str
    reason: str
    span: Span


def audit_secrets(root: JsonNode | None) -> list[SecretViolation]:
    """Every credential-named key and secret-shaped string value, in the reference's walk order."""
    out: list[SecretViolation] = []
    # Depth-first without recursion (nesting depth is unbounded): a work list, last item first.
    # An item is a node to walk, or a violation already decided (a credential-named key), which
    # is reported before anything below it, as the reference walks.
    todo: list[tuple[JsonNode, str] | SecretViolation] = [(root, "")] if root is not None else []
    while todo:
        item = todo.pop()
        if isinstance(item, SecretViolation):
            out.append(item)
            continue
        node, path = item
        if isinstance(node, JsonString):
            for pattern, source in SECRET_PATTERNS:
                if pattern.search(node.value):
                    out.append(SecretViolation(path, f"Forbidden secret pattern detected matching {source}", node.span))
                    break
        elif isinstance(node, JsonArray):
            todo.extend((child, f"{path}[{i}]") for i, child in reversed(list(enumerate(node.items))))
        elif isinstance(node, JsonObject):
            last = {m.key.value: m for m in node.members}
            children: list[tuple[JsonNode, str] | SecretViolation] = []
            for key in js_property_order(last):
                member = last[key]
                child = f"{path}.{key}" if path else key
                lowered = key.lower()
                if lowered in FORBIDDEN_KEYS or lowered.replace("-", "").replace("_", "") in FORBIDDEN_KEYS:
                    message = f'Forbidden credential property name detected: "{key}"'
                    children.append(SecretViolation(child, message, member.key.span))
                else:
                    # A property name is a string the ledger holds too: a provider or
                    # capability id that looks like a credential is one.
                    matched = next((src for pattern, src in SECRET_PATTERNS if pattern.search(key)), None)
                    if matched is not None:
                        message = f"Forbidden secret pattern detected matching {matched} in a property name"
                        children.append(SecretViolation(child, message, member.key.span))
                children.append((member.value, child))
            todo.extend(reversed(children))
    return out


# ---------------------------------------------------------------------------------------------
# Schema (reference 11.3), run through jsonschema


@functools.cache
def _validator() -> jsonschema.Draft202012Validator:
    import jsonschema  # imported on first use (start-up does not pay for it)

    return jsonschema.Draft202012Validator(load_schema(SCHEMA_FILE))


@functools.cache
def _fast_check() -> Callable[[Any], Any] | None:
    """The ledger schema compiled to Python by fastjsonschema (from the same file jsonschema
    reads), or ``None`` when it cannot compile it (then every ledger goes to jsonschema)."""
    import fastjsonschema  # a light import, on first use

    try:
        # A copy: fastjsonschema rewrites the ``$ref``s of the schema it is given in place, and
        # the loaded schema is shared (hover and completion walk it).
        return fastjsonschema.compile(copy.deepcopy(load_schema(SCHEMA_FILE)))
    except fastjsonschema.JsonSchemaDefinitionException:
        return None


def _surely_valid(data: dict[str, Any]) -> bool:
    """True when the compiled schema accepts ``data`` (a ledger's plain values): a valid ledger
    costs microseconds and jsonschema is not even imported. ``False`` says nothing: the caller
    asks jsonschema, which finds and words the errors, so findings are jsonschema's alone
    (tests hold the two to agree)."""
    import fastjsonschema

    check = _fast_check()
    if check is None:
        return False
    try:
        check(data)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


@record
class SchemaIssue:
    """One reference schema message and where it points."""

    message: str
    span: Span
    order: tuple[int, ...]


def _key_span(root: JsonNode, path: tuple[str | int, ...]) -> Span | None:
    """The span of the key that holds the node at ``path`` (``None`` for the root)."""
    if not path:
        return None
    parent = node_at(root, path[:-1])
    if isinstance(parent, JsonObject) and isinstance(path[-1], str):
        member = parent.member(path[-1])
        if member is not None:
            return member.key.span
    return None


def _head(node: JsonNode) -> Span:
    return Span(node.span.start, min(node.span.start + 1, node.span.end))


_ROOT_FIELDS = {"version": 0, "currency": 1, "providers": 2}
_PROVIDER_FIELDS = {"type": 1, "pricing_model": 2, "capabilities": 3}
_CAP_FIELDS = {"cost_state": 1, "estimated_unit_cost": 2, "freshness_date": 3}


def validate_schema(root: JsonNode) -> list[SchemaIssue]:
    """Every schema error of a parsed ledger, with the reference's message, span and order."""
    data = to_python_within(root)  # the validator recurses: nesting below the schema's is cut
    if not isinstance(data, dict):
        return [SchemaIssue("Cost ledger root must be a JSON object", _head(root), (0,))]
    issues: dict[str, SchemaIssue] = {}
    provider_order = (
        {k: i for i, k in enumerate(js_property_order(data["providers"]))}
        if isinstance(data.get("providers"), dict)
        else {}
    )

    def value_of(path: tuple[str, ...]) -> Any:
        cur: Any = data
        for p in path:
            if not isinstance(cur, dict) or p not in cur:
                return UNDEFINED
            cur = cur[p]
        return cur

    def where(path: tuple[str, ...]) -> Span:
        node = node_at(root, path)
        if node is not None:
            return node.span
        # A missing member: point at the key of the object that lacks it (or its opening brace).
        owner = path[:-1]
        key = _key_span(root, owner)
        if key is not None:
            return key
        owner_node = node_at(root, owner)
        return _head(owner_node if owner_node is not None else root)

    def add(message: str, path: tuple[str, ...], order: tuple[int, ...]) -> None:
        if message not in issues:
            issues[message] = SchemaIssue(message, where(path), order)

    for error in () if _surely_valid(data) else _validator().iter_errors(data):
        path = tuple(str(p) for p in error.absolute_path)
        if error.validator == "required":
            # jsonschema reports each missing member; one pass over all of them keeps JS order.
            for missing in error.validator_value:
                if missing not in error.instance:
                    _describe_error((*path, str(missing)), value_of, add, provider_order, data)
            continue
        _describe_error(path, value_of, add, provider_order, data)

    for message, at, order in _date_issues(data, provider_order):
        add(message, at, order)
    return sorted(issues.values(), key=lambda i: i.order)


def _date_issues(
    data: dict[str, Any], provider_order: Mapping[str, int]
) -> Iterator[tuple[str, tuple[str, ...], tuple[int, ...]]]:
    """The rule the schema cannot state: freshness_date must satisfy Date.parse. Each
    (message, path, order) of a value that does not."""
    providers = data.get("providers")
    if not isinstance(providers, dict):
        return
    for pid, provider in providers.items():
        if not isinstance(provider, dict) or not isinstance(provider.get("capabilities"), dict):
            continue
        caps = provider["capabilities"]
        cap_order: dict[str, int] | None = None
        for cid, cap in caps.items():
            if isinstance(cap, dict) and "freshness_date" in cap and js_date_parse_ms(cap["freshness_date"]) is None:
                if cap_order is None:
                    cap_order = {k: i for i, k in enumerate(js_property_order(caps))}
                yield (
                    f'Capability "{pid}.{cid}" has invalid freshness_date: "{js_string(cap["freshness_date"])}"',
                    ("providers", pid, "capabilities", cid, "freshness_date"),
                    (1, provider_order.get(pid, 0), 3, cap_order.get(cid, 0), 3),
                )


def _describe_error(
    path: tuple[str, ...],
    value_of: Any,
    add: Any,
    provider_order: Mapping[str, int],
    data: Mapping[str, Any],
) -> None:
    """Turn one jsonschema error location into the reference's message."""
    if not path:
        return
    head = path[0]
    if len(path) == 1:
        if head == "version":
            add(f"Cost ledger version must be 1, got {json_stringify(value_of(path))}", path, (0, 0))
        elif head == "currency":
            add('Cost ledger requires non-empty string field "currency"', path, (0, 1))
        elif head == "providers":
            add('Cost ledger requires "providers" map', path, (0, 2))
        return
    if head != "providers":
        return
    pid = path[1]
    p_ord = provider_order.get(pid, 0)
    if len(path) == 2:
        add(f'Provider "{pid}" must be an object', path, (1, p_ord, 0))
        return
    fld = path[2]
    if len(path) == 3:
        if fld == "type":
            add(
                f'Provider "{pid}" has invalid type "{js_string(value_of(path))}". '
                f"Must be one of: {', '.join(PROVIDER_TYPES)}",
                path,
                (1, p_ord, 1),
            )
        elif fld == "pricing_model":
            add(f'Provider "{pid}" requires string field "pricing_model"', path, (1, p_ord, 2))
        elif fld == "capabilities":
            add(f'Provider "{pid}" requires "capabilities" map', path, (1, p_ord, 3, -1))
        return
    if fld != "capabilities":
        return
    cid = path[3]
    caps = value_of(path[:3])
    c_ord = {k: i for i, k in enumerate(js_property_order(caps))}.get(cid, 0) if isinstance(caps, dict) else 0
    if len(path) == 4:
        add(f'Provider "{pid}" capability "{cid}" must be an object', path, (1, p_ord, 3, c_ord, 0))
        return
    cap_field = path[4]
    if cap_field == "cost_state":
        add(
            f'Capability "{pid}.{cid}" has invalid cost_state "{js_string(value_of(path))}". '
            f"Must be one of: {', '.join(COST_STATES)}",
            path,
            (1, p_ord, 3, c_ord, 1),
        )
    elif cap_field == "estimated_unit_cost":
        add(
            f'Capability "{pid}.{cid}" requires non-negative number "estimated_unit_cost"',
            path,
            (1, p_ord, 3, c_ord, 2),
        )


# ---------------------------------------------------------------------------------------------
# Staleness (reference 11.4)


@record
class Staleness:
    is_stale: bool
    age_days: int | None
    message: str | None


def check_staleness(freshness_date: Any, now: dt.datetime, max_age_days: int = DEFAULT_MAX_AGE_DAYS) -> Staleness:
    """The reference's staleness of one capability entry: missing, unparsable, or older than the limit.

    ``freshness_date`` is the entry's value (``UNDEFINED`` when the key is absent); the age is
    ``floor((now - date) / 1 day)`` and is stale only when strictly above ``max_age_days``.
    """
    if freshness_date is UNDEFINED or freshness_date is None or freshness_date in ("", 0, False):
        return Staleness(True, None, "Capability entry missing required freshness_date")
    parsed = js_date_parse_ms(freshness_date)
    if parsed is None:
        return Staleness(True, None, f'Invalid freshness_date: "{js_string(freshness_date)}"')
    if now.tzinfo is None:
        now = now.replace(tzinfo=dt.UTC)
    now_ms = (now - _EPOCH) // dt.timedelta(milliseconds=1)
    diff_ms = now_ms - parsed
    age = diff_ms // 86_400_000
    if age > max_age_days:
        return Staleness(
            True,
            age,
            f'Pricing assumption freshness date "{js_string(freshness_date)}" is {age} days old '
            f"(exceeds {max_age_days} days limit)",
        )
    return Staleness(False, age, None)


# ---------------------------------------------------------------------------------------------
# Loading


def _finding(path: str, message: str, span: Span | None, contract: str = LEDGER_CONTRACT, **kw: Any) -> Finding:
    return Finding("COST_LEDGER_INVALID", message, path, span, subject=contract, phase=PHASE, **kw)


def load_ledger(
    path: str,
    text: str | None,
    *,
    now: dt.datetime,
    max_age_days: int = DEFAULT_MAX_AGE_DAYS,
    exists: bool = True,
    read_error: str | None = None,
    has_bom: bool = False,
) -> LedgerResult:
    """Load one ledger from its text (``None`` when it could not be read), reference order.

    ``path`` is repository-relative and is what findings point at; ``now`` is the injected clock.
    ``has_bom`` says the file began with a UTF-8 byte-order mark (already removed from ``text``),
    which ``JSON.parse`` in the reference refuses.
    """
    if not exists:
        return LedgerResult(path, False, None, (_finding(path, f"Cost ledger file not found at: {path}", None),))
    if text is None:
        detail = read_error or "unreadable"
        return LedgerResult(path, True, None, (_finding(path, f"Failed to read cost ledger: {detail}", None),))
    if has_bom:
        message = (
            "Cost ledger malformed JSON syntax: Unexpected token '\ufeff' (the file starts with a UTF-8 "
            "byte-order mark; save it as UTF-8 without a BOM)"
        )
        return LedgerResult(path, True, None, (_finding(path, message, Span(0, 0)),), None, text)
    return _loaded(path, text, now, max_age_days)


@per_piece
def _loaded(path: str, text: str, now: dt.datetime, max_age_days: int) -> LedgerResult:
    """A readable ledger, loaded: kept while used for (path, text) and the clock and age limit
    its staleness is judged by (a piece value: one analysis's clock is forgotten by the next
    ``retain``, so a server's advancing clock keeps no more than the current load), while
    parsing and validation, memoised by text alone, are shared."""
    checked = _validate_text(path, text)
    if checked.ledger is None:
        return checked
    data = plain_json(text)
    if isinstance(data, dict):  # no repeated key: the plain values are what the tree holds
        stale = _plain_staleness_findings(path, text, data, now, max_age_days)
        if stale is not None:
            return LedgerResult(path, True, checked.ledger, stale, checked.tree, text)
    root = checked.root
    assert isinstance(root, JsonObject)  # a valid ledger's
    warnings = tuple(_staleness_findings(path, text, root, now, max_age_days))
    return LedgerResult(path, True, checked.ledger, warnings, root, text)


@per_text
def _validate_text(path: str, text: str) -> LedgerResult:
    """Parse, audit and validate (everything but staleness), memoised by (path, text).

    A ledger with nothing to report is read as plain values by the C parser (``plain_json``)
    and its tree is not made (``LedgerPlaces`` makes it when a place is asked for); any other
    takes the tree, which places its findings, as every ledger did before."""
    data = plain_json(text)
    if isinstance(data, dict) and _plainly_valid(data):
        return LedgerResult(path, True, _build(path, data, LedgerPlaces(text)), (), None, text)
    parsed = parse_json(text)
    if parsed.errors or parsed.value is None:
        err = parsed.errors[0] if parsed.errors else None
        message = f"Cost ledger malformed JSON syntax: {err.message if err else 'Unexpected end of JSON input'}"
        return LedgerResult(path, True, None, (_finding(path, message, err.span if err else Span(0, 0)),), None, text)
    root = parsed.value

    secrets = audit_secrets(root)
    if secrets:
        findings = tuple(
            _finding(path, f"Secret violation at {v.path}: {v.reason}", v.span, SECRETS_CONTRACT) for v in secrets
        )
        return LedgerResult(path, True, None, findings, root, text)

    issues = validate_schema(root)
    if issues:
        return LedgerResult(path, True, None, tuple(_finding(path, i.message, i.span) for i in issues), root, text)

    assert isinstance(root, JsonObject)
    data = root.to_python()  # as loading reads it: the last of a repeated key wins
    return LedgerResult(path, True, _build(path, data, LedgerPlaces(text, root)), (), root, text)


def _plainly_valid(data: dict[str, Any]) -> bool:
    """True when a ledger read as plain values gets no finding from the audit and the schema:
    no credential-like key or secret-shaped value, no nesting as deep as the schema check cuts
    (``to_python_within``: it would see other values), the compiled schema accepts it and every
    freshness_date is one ``Date.parse`` reads. ``False`` says nothing (the tree path decides)."""
    strings: list[str] = []  # every key and string value
    todo: list[tuple[Any, int]] = [(data, 0)]
    while todo:
        value, depth = todo.pop()
        if isinstance(value, str):
            strings.append(value)
        elif isinstance(value, dict | list):
            if depth >= SCHEMA_DEPTH // 2:
                return False
            if isinstance(value, dict):
                for key in value:
                    lowered = key.lower()
                    if lowered in FORBIDDEN_KEYS or lowered.replace("-", "").replace("_", "") in FORBIDDEN_KEYS:
                        return False
                strings.extend(value)
                todo.extend((v, depth + 1) for v in value.values())
            else:
                todo.extend((v, depth + 1) for v in value)
    # One search of them all, a line each: no pattern crosses a line but Bearer's blank run,
    # and a match it makes across two strings only sends the ledger to the tree's audit.
    joined = "\n".join(strings)
    if any(secretpatterns.search(pattern, joined) for pattern in secretpatterns.LEDGER):
        return False
    return _surely_valid(data) and next(_date_issues(data, {}), None) is None


def _build(path: str, data: dict[str, Any], places: LedgerPlaces) -> CostLedger:
    """The ledger of a valid ledger's values (providers and entries in ``Object.keys`` order)."""
    providers: dict[str, LedgerProvider] = {}
    pdata = data["providers"]
    for pkey in js_property_order(pdata):
        provider = pdata[pkey]
        cdata = provider["capabilities"]
        caps: dict[str, LedgerCapability] = {}
        for cid in js_property_order(cdata):
            cap = cdata[cid]
            unit = cap.get("estimated_unit_cost")
            fresh = cap.get("freshness_date")
            caps[cid] = LedgerCapability(
                provider_key=pkey,
                capability_id=cid,
                cost_state=str(cap["cost_state"]),
                estimated_unit_cost=float(unit) if unit is not None and is_js_number(unit) else None,
                freshness_date=fresh if isinstance(fresh, str) else None,
                places=places,
            )
        ptype = provider.get("type")
        pricing = provider.get("pricing_model")
        providers[pkey] = LedgerProvider(
            key=pkey,
            type=ptype if isinstance(ptype, str) else "",
            pricing_model=pricing if isinstance(pricing, str) else "",
            capabilities=MappingProxyType(caps),
            places=places,
        )
    currency = data.get("currency")
    return CostLedger(path, currency if isinstance(currency, str) else "", MappingProxyType(providers))


def _members(obj: JsonObject) -> Iterator[Any]:
    """An object's members in ``Object.keys`` order, the last of a repeated key winning."""
    last = {m.key.value: m for m in obj.members}
    for key in js_property_order(last):
        yield last[key]


def _today(now: dt.datetime) -> str:
    return now.astimezone(dt.UTC).date().isoformat() if now.tzinfo else now.date().isoformat()


def _staleness_findings(
    path: str, text: str, root: JsonObject, now: dt.datetime, max_age_days: int
) -> Iterator[Finding]:
    providers = root.get("providers")
    assert isinstance(providers, JsonObject)
    today = _today(now)
    for pmember in _members(providers):
        pnode = pmember.value
        if not isinstance(pnode, JsonObject):
            continue
        caps = pnode.get("capabilities")
        if not isinstance(caps, JsonObject):
            continue
        for cmember in _members(caps):
            cnode = cmember.value
            if not isinstance(cnode, JsonObject):
                continue
            fresh_member = cnode.member("freshness_date")
            value = fresh_member.value.to_python() if fresh_member is not None else UNDEFINED
            staleness = check_staleness(value, now, max_age_days)
            if not staleness.is_stale:
                continue
            if fresh_member is None:
                span, new = insert_member(text, cnode, "freshness_date", today)
                fix = Fix(f"Add freshness_date ({today})", (TextEdit(path, span, new),), preferred=True)
                yield _stale(path, pmember.key.value, cmember.key.value, staleness, cmember.key.span, fix)
            else:
                yield _stale(path, pmember.key.value, cmember.key.value, staleness, fresh_member.value.span, today)


def _plain_staleness_findings(
    path: str, text: str, data: dict[str, Any], now: dt.datetime, max_age_days: int
) -> tuple[Finding, ...] | None:
    """``_staleness_findings`` of a valid ledger with no repeated key, from its plain values:
    the place of a stale date is found in the text (``member_place``) without a tree. ``None``
    when an entry that lacks its date is stale: the fix that adds it is the tree's work."""
    out: list[Finding] = []
    providers = data["providers"]
    for pkey in js_property_order(providers):
        caps = providers[pkey].get("capabilities") if isinstance(providers[pkey], dict) else None
        if not isinstance(caps, dict):
            continue
        for cid in js_property_order(caps):
            cap = caps[cid]
            if not isinstance(cap, dict):
                continue
            staleness = check_staleness(cap.get("freshness_date", UNDEFINED), now, max_age_days)
            if not staleness.is_stale:
                continue
            place = member_place(text, ("providers", pkey, "capabilities", cid, "freshness_date"))
            if place is None:
                return None
            out.append(_stale(path, pkey, cid, staleness, place[1], _today(now)))
    return tuple(out)


def _stale(path: str, provider: str, capability: str, staleness: Staleness, target: Span, fix: Fix | str) -> Finding:
    """The ``STALE_PROVIDER_COST_ASSUMPTION`` of one entry, at ``target``; ``fix`` is the fix, or
    the day to set an existing freshness_date (at ``target``) to."""
    if isinstance(fix, str):
        fix = Fix(
            f"Set freshness_date to {fix} (after re-verifying the price)",
            (TextEdit(path, target, json.dumps(fix)),),
        )
    return Finding(
        "STALE_PROVIDER_COST_ASSUMPTION",
        f"[{provider}.{capability}] {staleness.message}",
        path,
        target,
        subject=LEDGER_CONTRACT,
        phase=PHASE,
        fixes=(fix,),
        data={"provider_id": provider, "capability_id": capability},
    )


# ---------------------------------------------------------------------------------------------
# The "Add ledger entry" fix


#: The currency a ledger created by a fix starts with (the unit of estimates, not a cost claim).
NEW_LEDGER_CURRENCY: Final = "USD"


def add_entry_fix(
    ledger_path: str,
    result: LedgerResult | None,
    provider_id: str,
    capability_id: str,
    provider_type: str,
) -> Fix | None:
    """A fix that adds an UNKNOWN entry for (provider, capability) to a ledger, or creates the ledger.

    The entry is never classified for the user: it says UNKNOWN, so the gates keep denying
    until someone fills in the real cost state. ``None`` when the ledger exists but its JSON
    cannot take an insertion (a syntax error, or no ``providers`` map).
    """
    entry = dict(UNCLASSIFIED_ENTRY)
    title = f'Add ledger entry for "{provider_id}" / "{capability_id}" (cost_state UNKNOWN)'
    if result is None or not result.exists:
        doc = {
            "$schema": "https://gemstack.dev/schemas/cost-ledger-v1.json",
            "version": 1,
            "currency": NEW_LEDGER_CURRENCY,
            "providers": {
                provider_id: {
                    "type": provider_type,
                    "pricing_model": "UNKNOWN",
                    "capabilities": {capability_id: entry},
                }
            },
        }
        new = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
        return Fix(title + f" in a new {ledger_path}", (TextEdit(ledger_path, Span(0, 0), new),))
    providers = result.providers_node
    if providers is None or result.text is None:
        return None
    text = result.text
    pmember = providers.member(provider_id)
    if pmember is not None:
        caps = pmember.value.get("capabilities") if isinstance(pmember.value, JsonObject) else None
        if not isinstance(caps, JsonObject) or caps.member(capability_id) is not None:
            return None
        span, new = insert_member(text, caps, capability_id, entry)
    else:
        body = {"type": provider_type, "pricing_model": "UNKNOWN", "capabilities": {capability_id: entry}}
        span, new = insert_member(text, providers, provider_id, body)
    return Fix(title, (TextEdit(ledger_path, span, new),))
