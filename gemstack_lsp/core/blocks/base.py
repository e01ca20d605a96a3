"""What every block parser shares: finding the one block of a kind, its JSON, and schema checks.

``read_block`` takes one document's fences of one kind, reports a second block (the reference
permits exactly one), parses the first block's JSON with spans (the body trimmed with
JavaScript's whitespace set, as the reference trims it before ``JSON.parse``) and reports a
syntax error on the offending token with the block's parse-error code and the reference's
fixed message prefix. A block parser then walks ``BlockSource.root`` and returns a
``BlockResult``. ``schema_issues`` validates a node against a JSON Schema and places each error
on the narrowest node.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jscompat import js_trim_end, js_trim_start
from gemstack_lsp.core.jsonspan import (
    NOT_PLAIN,
    JsonArray,
    JsonNode,
    JsonObject,
    JsonResult,
    JsonString,
    node_at,
    parse_json,
    parse_valid_json,
    plain_json,
    shifted,
    to_python_within,
)
from gemstack_lsp.core.markdown import Fence, ReferenceBlock, fences_of_kind
from gemstack_lsp.core.memo import active_memo, per_piece
from gemstack_lsp.core.text import Span

if TYPE_CHECKING:
    import jsonschema

T = TypeVar("T")


@record
class BlockResult(Generic[T]):
    """The outcome of parsing one kind of block in one document.

    ``present`` is False when the document has no block of the kind (the reference's "legacy"
    mode). ``fence`` is the block that was read (the first one when there are several), ``root``
    its JSON tree (partial when the JSON is broken). ``items`` holds the entries that passed
    every rule that concerns them.
    """

    kind: str
    items: tuple[T, ...] = ()
    findings: tuple[Finding, ...] = ()
    fence: Fence | None = None
    root: JsonNode | None = None
    present: bool = False

    @property
    def value_tree(self) -> JsonNode | None:
        """The block's JSON tree for reading values only (keys, strings, shape): its spans may
        be those of an earlier place of the same block (``blocks.MovedResult``); ``root`` has
        the spans of this one."""
        return self.root

    @property
    def plain_value(self) -> Any:
        """The block's JSON as plain values when it was read that way (``read_block(...,
        plain=True)``: valid JSON, no repeated key), without making its tree; ``NOT_PLAIN``
        otherwise (then read ``value_tree``)."""
        return NOT_PLAIN


@record
class BlockKindInfo:
    """How the reference names the errors of one block kind."""

    kind: str
    parse_code: str
    #: The message for more than one block; ``{n}`` is replaced by the count.
    multiple_message: str
    #: The fixed prefix of the message for a JSON syntax error.
    syntax_prefix: str


@record
class BlockSource:
    """One document's block of one kind, located and parsed, ready for its rules."""

    path: str
    info: BlockKindInfo
    fences: tuple[Fence, ...]
    json: JsonResult | None
    findings: tuple[Finding, ...]

    @property
    def present(self) -> bool:
        return bool(self.fences)

    @property
    def fence(self) -> Fence | None:
        return self.fences[0] if self.fences else None

    @property
    def root(self) -> JsonNode | None:
        return self.json.value if self.json is not None else None

    @property
    def parsed(self) -> bool:
        """True when the block's JSON parsed without a syntax error."""
        return self.json is not None and self.json.ok

    @functools.cached_property
    def plain(self) -> Any:
        """The block's JSON as plain values, for rules that read values only: the C parser's
        when the block was read that way (its tree is then made only when a span is asked
        for), else the tree's values, made once (each item's ``to_json`` reads them).
        ``NOT_PLAIN`` when the JSON did not parse."""
        if isinstance(self.json, _PlainJson):
            return self.json.plain
        if not self.parsed:
            return NOT_PLAIN
        root = self.root
        return root.to_python() if root is not None else NOT_PLAIN

    def span_at(self, path: tuple[str | int, ...]) -> Span | None:
        """The span of the value at ``path`` (the block's fence line when there is none)."""
        node = node_at(self.root, path)
        return node.span if node is not None else self.block_span

    def key_span_at(self, path: tuple[str | int, ...], key: str) -> Span | None:
        """The span of the key ``key`` (its last occurrence) of the object at ``path``."""
        node = node_at(self.root, path)
        member = node.member(key) if isinstance(node, JsonObject) else None
        return member.key.span if member is not None else self.span_at(path)

    @property
    def block_span(self) -> Span | None:
        """The opening fence line of the block that was read."""
        return self.fence.open_span if self.fence is not None else None

    def finding(
        self,
        code: str,
        message: str,
        at: JsonNode | JsonString | Span | None,
        subject: str | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> Finding:
        """A finding of this block, placed on a node, a span, or the opening fence line."""
        if at is None:
            span = self.block_span
        elif isinstance(at, Span):
            span = at
        else:
            span = at.span
        return Finding(code, message, self.path, span, subject=subject, data=dict(data or {}))

    def result(self, items: Iterable[T], findings: Iterable[Finding]) -> BlockResult[T]:
        """The parser's result: its items, this source's findings followed by ``findings``."""
        if isinstance(self.json, _PlainJson):
            return _PlainResult(self, tuple(items), self.findings + tuple(findings))
        return BlockResult(
            kind=self.info.kind,
            items=tuple(items),
            findings=self.findings + tuple(findings),
            fence=self.fence,
            root=self.root,
            present=self.present,
        )


def _trimmed(fence: Fence | ReferenceBlock) -> tuple[str, int]:
    """A block's body trimmed as the reference trims it, and how much was cut from its start."""
    body = fence.body
    stripped = js_trim_start(body)
    return js_trim_end(stripped), len(body) - len(stripped)


class BlockItem:
    """An item of an array block (a contract, a matrix entry, a binding) that makes its node and
    spans from its block when asked for: a block read as plain values has no tree until then.

    A subclass is a ``dataclass(frozen=True, eq=False)`` with the fields ``source`` (the block)
    and ``index`` (the item's place in its array), and names its values in ``_values``: items
    are equal when their values and their places are (the place, from the node, compared last).
    """

    __slots__ = ()
    if TYPE_CHECKING:  # what a subclass provides: its two fields, and its values
        source: BlockSource | None
        index: int

        def _values(self) -> tuple[Any, ...]: ...

    @property
    def node(self) -> JsonObject:
        assert self.source is not None
        root = self.source.root
        assert isinstance(root, JsonArray)
        node = root.items[self.index]
        assert isinstance(node, JsonObject)
        return node

    @property
    def span(self) -> Span:
        return self.node.span

    def member_span(self, key: str) -> Span:
        """The span of the value of ``key``, which the item has (its rules required it)."""
        node = self.node.get(key)
        assert node is not None
        return node.span

    def to_json(self) -> dict[str, Any]:
        """The item's object as ``JSON.parse`` gives it, in its keys' order: a copy of the values
        the block was read as (no tree is made)."""
        assert self.source is not None
        value = _copied(self.source.plain[self.index])
        assert isinstance(value, dict)
        return value

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, BlockItem)
        return self._values() == other._values() and self.node == other.node

    def __hash__(self) -> int:
        return hash(self._values())


def _copied(value: Any) -> Any:
    """A copy of plain JSON values: its objects and arrays new (an item's nesting is shallow)."""
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copied(v) for v in value]
    return value


def plain_items(
    src: BlockSource,
    code: str,
    not_array: str,
    check: Callable[[BlockSource, int, Any, set[str], list[Finding]], T | None],
) -> BlockResult[T]:
    """The reference's walk over an array block (contracts, matrix, bindings, gates), over its
    plain values (``BlockSource.plain``).

    Nothing when the JSON did not parse; one ``code`` finding ``not_array`` when the root is no
    array; else ``check(src, index, item, ids_seen, findings)`` on each item in order, which
    reads the item's values, appends its findings (placed by their paths, ``BlockSource.span_at``,
    so a clean block makes no tree) and returns the item when it passed every rule."""
    if not src.parsed:
        return src.result((), ())
    items = src.plain
    if not isinstance(items, list):
        return src.result((), [src.finding(code, not_array, src.span_at(()))])
    findings: list[Finding] = []
    out: list[T] = []
    seen: set[str] = set()
    for i, item in enumerate(items):
        checked = check(src, i, item, seen, findings)
        if checked is not None:
            out.append(checked)
    return src.result(out, findings)


def parse_fence_json(fence: Fence | ReferenceBlock) -> JsonResult:
    """The JSON of a block's body, trimmed as the reference trims it, with document spans."""
    stripped, lead = _trimmed(fence)
    base = fence.contiguous_base
    if base is not None:
        return _parse_at(stripped, base + lead)
    return parse_json(stripped, lambda i: fence.body_offset_to_doc(i + lead))


@per_piece
def _parse_at(text: str, base: int) -> JsonResult:
    """A block's JSON starting at document offset ``base``: parsed once while it is used, so an
    edit elsewhere in the document (or the reference's reading of the same block) reuses it.
    An edit above a block only moves it: valid JSON is parsed again (the fast parse, which
    makes spans only when they are read, costs less than moving every span of the last parse),
    broken JSON has the last parse of the same text shifted (the tolerant parse costs more)."""
    memo = active_memo()
    if memo is None:
        return parse_json(text, base)
    result = parse_valid_json(text, base)
    if result is not None:
        return result
    key = (_PARSED, text)
    known = memo.known_piece(key)
    result = shifted(known[1], base - known[0]) if known is not None else parse_json(text, base)
    memo.put_piece(key, (base, result))
    return result


_PARSED = f"{__name__}.parsed"


def read_block(
    path: str,
    text: str,
    info: BlockKindInfo,
    fences: Sequence[Fence] | None = None,
    *,
    plain: bool = False,
) -> BlockSource:
    """Locate and parse the block of ``info.kind`` in one document (see the module docstring).

    With ``plain``, a block whose JSON the C parser reads with no repeated key (nearly every
    block) is read as plain values (``BlockSource.plain``) and its tree with spans is made only
    when something asks for it (a finding's place, an item's span, a request): a clean
    analysis makes none. Any other block is parsed with spans at once, as without ``plain``."""
    found = tuple(fences) if fences is not None else fences_of_kind(text, info.kind)
    found = tuple(f for f in found if f.kind == info.kind)
    if not found:
        return BlockSource(path, info, (), None, ())
    findings: list[Finding] = []
    if len(found) > 1:
        findings.append(
            Finding(
                info.parse_code,
                info.multiple_message.replace("{n}", str(len(found))),
                path,
                found[1].open_span,
                data={"blocks": len(found)},
            )
        )
    fence = found[0]
    if plain:
        value = plain_json(_trimmed(fence)[0])
        if value is not NOT_PLAIN:
            return BlockSource(path, info, found, _PlainJson(fence, value), tuple(findings))
    result = parse_fence_json(fence)
    findings.extend(_json_findings(path, info, result, fence.close_span or fence.open_span))
    return BlockSource(path, info, found, result, tuple(findings))


class _PlainJson(JsonResult):
    """A block's valid JSON read as plain values (``plain``), its tree with spans parsed on
    first use (``parse_fence_json``): equal, hashed, printed and pickled as that tree's result."""

    plain: Any

    def __init__(self, fence: Fence | ReferenceBlock, plain: Any) -> None:
        d = self.__dict__
        d["_fence"] = fence
        d["_parsed"] = None
        d["plain"] = plain

    def _parse(self) -> JsonResult:
        parsed: JsonResult | None = self.__dict__["_parsed"]
        if parsed is None:
            parsed = self.__dict__["_parsed"] = parse_fence_json(self.__dict__["_fence"])
        return parsed

    @property
    def value(self) -> JsonNode | None:
        return self._parse().value

    @property
    def errors(self) -> tuple[Any, ...]:
        return ()

    @property
    def duplicate_keys(self) -> tuple[Any, ...]:
        return ()

    @property
    def ok(self) -> bool:
        return True

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, JsonResult):
            return NotImplemented
        return (self.value, self.errors, self.duplicate_keys) == (other.value, other.errors, other.duplicate_keys)

    def __hash__(self) -> int:
        return hash(self._parse())

    def __repr__(self) -> str:
        return repr(self._parse())

    def __reduce__(self) -> tuple[Any, ...]:
        return (JsonResult, (self.value, self.errors, self.duplicate_keys))


class _PlainResult(BlockResult[T]):
    """A parser's result over a block read as plain values: ``root`` (the tree with spans) is
    parsed on first use; equal in every field to the result over the parsed block."""

    def __init__(self, source: BlockSource, items: tuple[T, ...], findings: tuple[Finding, ...]) -> None:
        d = self.__dict__
        d["kind"] = source.info.kind
        d["items"] = items
        d["findings"] = findings
        d["fence"] = source.fence
        d["present"] = source.present
        d["_source"] = source

    @property
    def root(self) -> JsonNode | None:
        source: BlockSource = self.__dict__["_source"]
        return source.root

    @property
    def plain_value(self) -> Any:
        source: BlockSource = self.__dict__["_source"]
        return source.plain

    def _fields(self) -> tuple[Any, ...]:
        return (self.kind, self.items, self.findings, self.fence, self.root, self.present)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BlockResult):
            return NotImplemented
        return self._fields() == (other.kind, other.items, other.findings, other.fence, other.root, other.present)

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return repr(BlockResult(*self._fields()))

    def __reduce__(self) -> tuple[Any, ...]:
        return (BlockResult, self._fields())


def read_reference_block(path: str, block: ReferenceBlock, info: BlockKindInfo) -> BlockSource:
    """The block the reference reads (one of ``markdown.reference_blocks``), read as plain values
    when it can be (``read_block(..., plain=True)``), else parsed with spans.

    The source has no ``Fence``: a block parser's rules run on it through its ``*_of`` function
    (the capsule reads blocks as the reference does, not as Markdown shows them).
    """
    value = plain_json(_trimmed(block)[0])
    if value is not NOT_PLAIN:
        return BlockSource(path, info, (), _PlainJson(block, value), ())
    result = parse_fence_json(block)
    return BlockSource(path, info, (), result, tuple(_json_findings(path, info, result, block.close_span)))


def _json_findings(path: str, info: BlockKindInfo, result: JsonResult, end: Span) -> list[Finding]:
    """A block's JSON syntax error (``end``: where the input ends) and its repeated keys."""
    findings: list[Finding] = []
    for err in result.errors:
        span = err.span
        if span.start == span.end and "end of JSON input" in err.message:
            # Nothing to underline at the end of the input: point at the fence that ends it.
            span = end
        findings.append(Finding(info.parse_code, info.syntax_prefix + err.message, path, span))
    for dup in result.duplicate_keys:
        findings.append(
            Finding(
                "JSON_DUPLICATE_KEY",
                f'Duplicate key "{dup.key.value}" in this {info.kind} object: JSON.parse keeps only its last value.',
                path,
                dup.key.span,
            )
        )
    return findings


# ---------------------------------------------------------------------------------------------
# JSON Schema validation with spans


@record
class SchemaIssue:
    """One JSON Schema error, placed on the narrowest node that explains it."""

    path: tuple[str | int, ...]
    message: str
    validator: str
    span: Span


def _narrowest(root: JsonNode, error: jsonschema.ValidationError) -> Span:
    path = tuple(error.absolute_path)
    node = node_at(root, path) or root
    if error.validator == "additionalProperties" and isinstance(node, JsonObject):
        allowed = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        for m in node.members:
            if m.key.value not in allowed:
                return m.key.span
    if error.validator in ("propertyNames",) and isinstance(node, JsonObject) and node.members:
        return node.members[0].key.span
    return node.span


def schema_issues(root: JsonNode | None, schema: Mapping[str, Any]) -> list[SchemaIssue]:
    """Every error of ``root`` against ``schema`` (draft 2020-12), in document order."""
    if root is None:
        return []
    import jsonschema  # imported when a schema is first checked (start-up does not pay for it)

    validator = jsonschema.Draft202012Validator(schema)
    issues = [
        SchemaIssue(tuple(e.absolute_path), e.message, str(e.validator), _narrowest(root, e))
        for e in validator.iter_errors(to_python_within(root))
    ]
    issues.sort(key=lambda i: (i.span.start, i.span.end, i.message))
    return issues


def schema_checked_entries(
    source: BlockSource, schema: Mapping[str, Any], code: str, what: str
) -> tuple[list[JsonObject], list[Finding]]:
    """The entries of an array block that pass its JSON Schema, and one finding per schema error.

    Each error is ``Invalid <what> at <path>: <message>`` on the narrowest node; an entry with
    any error is left out, the others still count.
    """
    root = source.root
    issues = schema_issues(root, schema)
    findings = [
        source.finding(code, f"Invalid {what} at {'.'.join(str(p) for p in i.path) or 'block'}: {i.message}", i.span)
        for i in issues
    ]
    if not isinstance(root, JsonArray):
        return [], findings
    bad = {i.path[0] for i in issues if i.path and isinstance(i.path[0], int)}
    entries = [node for index, node in enumerate(root.items) if index not in bad and isinstance(node, JsonObject)]
    return entries, findings
