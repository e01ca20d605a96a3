"""Completion inside Gemstack documents, driven by the JSON Schemas (as yaml-language-server does).

What is offered, by where the cursor is:

- after a fence (```` ```gem ````): the Gemstack block names;
- inside a Gemstack block or a JSON artifact (ledger, providers.json, capsule): the keys the
  schema allows at that object (with their descriptions), the enum values of the property
  (contract types, cost states, layers, gates, billing categories...), and identifiers the
  repository declares: provider and capability ids from the registries, test ids from the test
  matrix, categories already used in the matrix, environment tiers for any ``environment``
  value;
- in an empty slot of a block's top-level array: a snippet for a new contract, test-matrix
  entry, test binding, closure gate, billable action or provider;
- in tasks.md: the comment kinds after ``<!-- gemstack:``, test ids in ``tests=``, task ids in
  ``depends=``, billable actions in ``actions=``.

The JSON is usually incomplete while one types, so the text is parsed only up to the token
under the cursor: the partial tree ``jsonspan`` keeps from that prefix says where we are.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from gemstack_lsp.core import kinds
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jsonspan import JsonArray, JsonObject, JsonString, locate, parse_json
from gemstack_lsp.core.markdown import scan_fences
from gemstack_lsp.core.options import ENVIRONMENTS
from gemstack_lsp.core.schemas import annotation, localized_schema, schemas_at
from gemstack_lsp.core.tasks import COMMENT_KINDS, parse_tasks
from gemstack_lsp.core.text import SourceText, Span
from gemstack_lsp.host import Snapshot
from gemstack_lsp.host.cancel import check_cancelled
from gemstack_lsp.ide.navigation import REGISTRY_FILES, occurrence_index
from gemstack_lsp.ide.outline import gemstack_blocks

if TYPE_CHECKING:
    from gemstack_lsp.core.i18n import Language

__all__ = [
    "BLOCK_DESCRIPTIONS",
    "Candidate",
    "RepoFacts",
    "complete",
    "completions",
    "repo_facts",
    "schema_for_block",
    "schema_for_file",
]

#: One line per block kind, shown beside the fence-name completions (from ``core.kinds``).
BLOCK_DESCRIPTIONS = {k.name: k.description for k in kinds.BLOCKS}

#: Snippets for a new item of each block (VS Code snippet syntax), from ``core.kinds``.
SNIPPETS: dict[str, tuple[str, str]] = {k.name: k.snippet for k in kinds.BLOCKS if k.snippet is not None}


@record
class Candidate:
    """One completion, as plain data: what to show and what replaces ``span`` when chosen.

    ``kind`` is block, key, value, id, snippet or comment. ``snippet`` is True when
    ``insert`` uses snippet syntax (placeholders); ``plain`` is then its text without them.
    """

    label: str
    kind: str
    span: Span
    insert: str
    detail: str | None = None
    documentation: str | None = None
    snippet: bool = False
    plain: str | None = None
    filter: str | None = None
    #: Chosen by the text typed so far: the client must ask again as typing goes on.
    narrowed: bool = False


@record
class RepoFacts:
    """The identifiers of a repository completion may offer."""

    providers: tuple[str, ...] = ()
    capabilities: tuple[str, ...] = ()
    #: Per feature name: test ids of its matrix, actions declared in its spec.md.
    tests: Mapping[str, tuple[str, ...]] | None = None
    actions: Mapping[str, tuple[str, ...]] | None = None


def _collect_facts(snapshot: Snapshot) -> RepoFacts:
    repo = snapshot.repo
    index = occurrence_index(snapshot)
    providers: dict[str, None] = {}
    capabilities: dict[str, None] = {}
    tests: dict[str, tuple[str, ...]] = {}
    actions: dict[str, tuple[str, ...]] = {}
    paths = list(REGISTRY_FILES)
    for feature in repo.features():
        paths.extend([feature.spec, feature.plan, feature.ledger])
    for n, path in enumerate(paths):
        if n % 256 == 0:
            check_cancelled()
        feature_tests: list[str] = []
        feature_actions: list[str] = []
        for occ in index.by_file.get(path, ()):
            if occ.kind == "provider":
                providers.setdefault(occ.value)
            elif occ.kind == "capability":
                capabilities.setdefault(occ.value)
            elif occ.kind == "test" and occ.declaration:
                feature_tests.append(occ.value)
            elif occ.kind == "action" and occ.declaration:
                feature_actions.append(occ.value)
        owner = repo.feature_of(path)
        if owner is not None and path == owner.spec and repo.document(path).text is not None:
            tests[owner.name] = tuple(feature_tests)
            actions[owner.name] = tuple(feature_actions)
    return RepoFacts(tuple(providers), tuple(capabilities), tests, actions)


def repo_facts(snapshot: Snapshot) -> RepoFacts:
    """The provider, capability, test and action ids of a snapshot (collected once per revision)."""
    return snapshot.derived(("ide.repo-facts",), _collect_facts)


# ---------------------------------------------------------------------------------------------
# Schemas


def _schema(name: str, language: Language = "en") -> dict[str, Any] | None:
    try:
        return localized_schema(name, language)
    except (FileNotFoundError, OSError, ValueError):
        return None


def schema_for_block(kind: str, language: Language = "en") -> dict[str, Any] | None:
    """The JSON Schema of a block kind (its ``kinds.BLOCKS`` entry's schema file), its titles
    and descriptions in ``language``."""
    entry = kinds.block_kind(kind)
    return _schema(entry.schema, language) if entry is not None else None


def schema_for_file(path: str, language: Language = "en") -> dict[str, Any] | None:
    """The JSON Schema of a Gemstack JSON file (``kinds.ARTIFACT_SCHEMAS``), in ``language``."""
    name = kinds.artifact_schema(path)
    return _schema(name, language) if name else None


def _describe(schemas: list[Mapping[str, Any]]) -> str | None:
    """The documentation of a value whose applicable subschemas are ``schemas`` (the title and
    description hover shows for it)."""
    found = annotation(schemas)
    if found is None:
        return None
    title, description = found
    if title and description:
        return f"**{title}**\n\n{description}"
    return description or title


def _property_names(schemas: list[Mapping[str, Any]]) -> list[str]:
    """The keys the ``properties`` of an object's subschemas name, in schema order."""
    names: dict[str, None] = {}
    for s in schemas:
        p = s.get("properties")
        if isinstance(p, Mapping):
            names.update(dict.fromkeys(p))
    return list(names)


def _enum_values(schemas: list[Mapping[str, Any]]) -> list[Any]:
    values: list[Any] = []
    for s in schemas:
        for v in s.get("enum") or ():
            if v not in values:
                values.append(v)
        if "const" in s and s["const"] not in values:
            values.append(s["const"])
        if s.get("type") == "boolean":
            for v in (True, False):
                if v not in values:
                    values.append(v)
    return values


def _required(schemas: list[Mapping[str, Any]]) -> set[str]:
    req: set[str] = set()
    for s in schemas:
        r = s.get("required")
        if isinstance(r, list):
            req.update(x for x in r if isinstance(x, str))
    return req


# ---------------------------------------------------------------------------------------------
# Where is the cursor?

_WORD = re.compile(r'"?[A-Za-z0-9_.:\-/]*$')
_WORD_AFTER = re.compile(r'[A-Za-z0-9_.:\-/]*"?')
_FENCE_PREFIX = re.compile(r"^( {0,3})(`{3,}|~{3,})([A-Za-z0-9-]*)$")
_COMMENT_KIND_PREFIX = re.compile(r"<!--\s*gemstack:([a-z_]*)$")
_COMMENT_LIST_PREFIX = re.compile(r"<!--\s*gemstack:(tests|depends|actions)=([^>]*)$")


def _token(text: str, offset: int, start_limit: int, end_limit: int) -> Span:
    """The JSON token being typed at ``offset``: a (partial) string or bare word around the cursor."""
    m = _WORD.search(text, start_limit, offset)
    start = m.start() if m else offset
    if start < offset and text[start] != '"' and start > start_limit and text[start - 1] == '"':
        start -= 1
    end = offset
    if start < offset and text[start] == '"':
        m2 = _WORD_AFTER.match(text, offset, end_limit)
        if m2:
            end = m2.end()
    return Span(start, end)


def _json_candidates(
    text: str,
    offset: int,
    region: Span,
    schema: Mapping[str, Any] | None,
    block_kind: str | None,
    facts: RepoFacts,
    feature: str | None,
    indent: str,
    file_name: str = "",
) -> list[Candidate]:
    token = _token(text, offset, region.start, region.end)
    # A string the user started typing: the opening quote is before the cursor.
    quoted = token.start < offset and text[token.start] == '"'
    inside = _inside_string(text, token, offset) if quoted else None
    prefix_result = parse_json(text[region.start : token.start], region.start)
    loc = locate(prefix_result.value, token.start)
    if prefix_result.value is None:
        # Nothing typed yet in the block: offer the item snippet inside a fresh array.
        if block_kind in SNIPPETS and not text[region.start : token.start].strip():
            label, body = SNIPPETS[block_kind]
            return [_snippet(label, "[\n" + _indent(body, "  ") + "\n]", Span(offset, offset), indent, block_kind)]
        return []
    out: list[Candidate] = []
    schemas = schemas_at(schema, loc.path, prefix_result.value) if schema else []
    if loc.is_key and isinstance(loc.container, JsonObject):
        # A property name: the keys this object may have and does not have yet.
        present = set(loc.container.keys())
        obj_path = loc.path if loc.node is None else loc.path[:-1]
        obj_schemas = schemas_at(schema, obj_path, prefix_result.value) if schema else []
        required = _required(obj_schemas)
        for name in _property_names(obj_schemas):
            if name in present:
                continue
            key_schemas = schemas_at(schema, (*obj_path, name), prefix_result.value) if schema else []
            literal = json.dumps(name)
            span, insert, filter_text = (token, f"{literal}: ", name) if inside is None else inside.edit(literal, ": ")
            out.append(
                Candidate(
                    name,
                    "key",
                    span,
                    insert,
                    detail=("required" if name in required else "optional"),
                    documentation=_describe(key_schemas),
                    filter=filter_text,
                )
            )
        return _narrowed(out, text, inside, offset)
    if loc.node is not None and not isinstance(loc.node, JsonString):
        return []
    path = loc.path
    # An empty slot of the block's top-level array: a new item.
    if block_kind in SNIPPETS and len(path) == 1 and isinstance(path[0], int) and token.start == token.end:
        label, body = SNIPPETS[block_kind]
        out.append(_snippet(label, body, token, indent, block_kind))
        return out
    seen: set[str] = set()
    title = (annotation(schemas) or ("", ""))[0]
    for value in _enum_values(schemas):
        text_value = json.dumps(value)
        if text_value in seen or (inside is not None and not isinstance(value, str)):
            continue  # after a typed quote only strings fit
        seen.add(text_value)
        span, insert, filter_text = (
            (token, text_value, text_value.strip('"')) if inside is None else inside.edit(text_value)
        )
        out.append(
            Candidate(
                str(value) if not isinstance(value, bool) else text_value,
                "value",
                span,
                insert,
                detail=title or None,
                documentation=_describe(schemas),
                filter=filter_text,
            )
        )
    for ident, detail in _dynamic_ids(block_kind, path, facts, feature, text, region, file_name):
        literal = json.dumps(ident)
        if literal in seen:
            continue
        seen.add(literal)
        span, insert, filter_text = (token, literal, ident) if inside is None else inside.edit(literal)
        out.append(Candidate(ident, "id", span, insert, detail=detail, filter=filter_text))
    return _narrowed(out, text, inside, offset)


def _subsequence(typed: str, label: str) -> bool:
    it = iter(label)
    return all(ch in it for ch in typed)


def _narrowed(out: list[Candidate], text: str, inside: _InsideString | None, offset: int) -> list[Candidate]:
    """Inside a string, the items the typed text matches: a prefix first, then a subsequence
    (case-insensitive, as fuzzy matchers do). Items without a filterText that carry an edit
    are not filtered again by Neovim 0.11+ ("the server took care of filtering")."""
    if inside is None:
        return out
    typed = text[inside.span.start : offset].lower()
    if not typed:
        return out
    prefix = [c for c in out if c.label.lower().startswith(typed)]
    fuzzy = [c for c in out if c not in prefix and _subsequence(typed, c.label.lower())]
    return [replace(c, narrowed=True) for c in prefix + fuzzy]


@record
class _InsideString:
    """The cursor inside a JSON string the user started: what an item's edit replaces.

    The edit starts after the opening quote, so the typed quote stays outside it and the item
    never adds a second one. It ends at the closing quote when one is already there (an editor
    that pairs quotes typed it), else at the end of the word, and the item then closes the
    string itself. Editors that insert an item's text at the edit's start up to the cursor and
    ignore the rest of the range (Neovim, whose 0.7 also picks that start only from items
    without a filterText) give the same text as editors that apply the range: no filterText is
    set, so clients filter by the label, which the replaced text is a prefix of.
    """

    span: Span
    closed: bool

    def edit(self, literal: str, after: str = "") -> tuple[Span, str, str | None]:
        body = literal[1:-1]  # the JSON string's content, escapes kept
        if self.closed:
            return self.span, body, None
        return self.span, body + '"' + after, None


def _inside_string(text: str, token: Span, offset: int) -> _InsideString:
    start = token.start + 1
    closed = token.end > offset and text[token.end - 1] == '"'
    return _InsideString(Span(start, token.end - 1 if closed else token.end), closed)


def _dynamic_ids(
    block_kind: str | None,
    path: tuple[str | int, ...],
    facts: RepoFacts,
    feature: str | None,
    text: str,
    region: Span,
    file_name: str = "",
) -> Iterator[tuple[str, str]]:
    """Identifiers the repository declares that fit the value slot at ``path``.

    The block kind's registry entry says which members name which symbol (``kinds.Ref``); a
    member that declares its symbol in this very file (an action's ``id`` in spec.md) offers
    nothing, the same member where it binds (plan.md) offers what the spec declares.
    """
    last_key = next((p for p in reversed(path) if isinstance(p, str)), None)
    in_list = bool(path) and isinstance(path[-1], int)
    if last_key == "environment" or (last_key == "environments" and in_list):
        # Environment tiers, wherever a document names one (gate requests, waivers...).
        for tier in ENVIRONMENTS:
            yield tier, "environment tier"
        return
    entry = kinds.block_kind(block_kind) if block_kind is not None else None
    if entry is None or last_key is None:
        return
    # A member of one of the block's items: (index, key) or (index, key, index) for an array.
    member = len(path) == (3 if in_list else 2) and isinstance(path[0], int)
    if not member:
        return
    for ref in entry.refs:
        if not ref.complete or last_key not in ref.keys or ref.many != in_list:
            continue
        if ref.declared_in is not None and ref.declared_in == file_name:
            return
        yield from _declared_ids(ref.symbol, facts, feature)
        return
    if last_key in entry.complete_used and not in_list:
        # Free text: offer the values the block's items already use.
        used: dict[str, None] = {}
        root = parse_json(text[region.start : region.end], region.start).value
        if isinstance(root, JsonArray):
            for item in root.items:
                node = item.get(last_key) if isinstance(item, JsonObject) else None
                if isinstance(node, JsonString) and node.value:
                    used.setdefault(node.value)
        for value in used:
            yield value, f"{last_key} in use"


def _declared_ids(symbol: str, facts: RepoFacts, feature: str | None) -> Iterator[tuple[str, str]]:
    """The ids of ``symbol`` the repository declares (per feature for tests and actions)."""
    if symbol == "provider":
        for p in facts.providers:
            yield p, "provider"
    elif symbol == "capability":
        for c in facts.capabilities:
            yield c, "capability"
    elif symbol == "test":
        for t in (facts.tests or {}).get(feature or "", ()):
            yield t, "test (test matrix)"
    elif symbol == "action":
        for a in (facts.actions or {}).get(feature or "", ()):
            yield a, "billable action (spec.md)"


def _indent(text: str, prefix: str) -> str:
    return "\n".join(prefix + line if line else line for line in text.split("\n"))


_PLACEHOLDER = re.compile(r"\$\{\d+\|([^,|}]*)[^}]*\|\}|\$\{\d+:([^}]*)\}|\$\d+")


def _plain(snippet: str) -> str:
    """A snippet's text with every placeholder replaced by its default (or first choice)."""
    return _PLACEHOLDER.sub(lambda m: m.group(1) or m.group(2) or "", snippet)


def _snippet(label: str, body: str, span: Span, indent: str, kind: str) -> Candidate:
    lines = body.split("\n")
    text = "\n".join([lines[0], *(indent + line for line in lines[1:])])
    return Candidate(
        label,
        "snippet",
        span,
        text,
        detail=kind,
        documentation=f"Insert a new item of a {kind} block.",
        snippet=True,
        plain=_plain(text),
        filter=label,
    )


def _line_prefix(source: SourceText, offset: int) -> tuple[int, str]:
    line = source.line_of(offset)
    start = source.line_start(line)
    return line, source.text[start:offset]


def _fence_name_candidates(text: str, source: SourceText, offset: int) -> list[Candidate] | None:
    line, prefix = _line_prefix(source, offset)
    m = _FENCE_PREFIX.match(prefix)
    if m is None:
        return None
    for fence in scan_fences(text):
        if fence.close_line == line:
            return []
        if fence.open_line < line and (fence.close_line is None or fence.close_line > line):
            return []  # inside another block's body
    word = m.group(3)
    span = Span(offset - len(word), offset)
    return [
        Candidate(kind, "block", span, kind, detail="Gemstack block", documentation=BLOCK_DESCRIPTIONS[kind])
        for kind in kinds.BLOCK_NAMES
    ]


def _tasks_candidates(
    path: str, text: str, source: SourceText, offset: int, facts: RepoFacts
) -> list[Candidate] | None:
    _line, prefix = _line_prefix(source, offset)
    m = _COMMENT_KIND_PREFIX.search(prefix)
    if m is not None:
        span = Span(offset - len(m.group(1)), offset)
        return [Candidate(kind, "comment", span, f"{kind}=", detail="gemstack task metadata") for kind in COMMENT_KINDS]
    m = _COMMENT_LIST_PREFIX.search(prefix)
    if m is None:
        return None
    kind, listed = m.group(1), m.group(2)
    current = listed.rsplit(",", 1)[-1]
    typed = current.lstrip()
    span = Span(offset - len(typed), offset)
    already = {item.strip() for item in listed.split(",")}
    feature = path.split("/")[1] if path.startswith("specs/") and path.count("/") >= 2 else ""
    options: list[tuple[str, str]] = []
    if kind == "tests":
        options = [(t, "test (test matrix)") for t in (facts.tests or {}).get(feature, ())]
    elif kind == "actions":
        options = [(a, "billable action") for a in (facts.actions or {}).get(feature, ())]
    else:
        tasks = parse_tasks(text).tasks
        own = next((t.id for t in tasks if t.span.contains(offset)), None)
        options = [(t.id, t.title) for t in tasks if t.id != own]
    return [Candidate(v, "id", span, v, detail=d) for v, d in options if v not in already or v == typed]


def complete(snapshot: Snapshot, path: str, offset: int, language: Language = "en") -> list[Candidate]:
    """Every completion at ``offset`` of the document at ``path`` as of ``snapshot`` (the
    schemas' documentation in ``language``)."""
    text = snapshot.repo.document(path).text
    if text is None:
        return []
    return completions(path, text, offset, repo_facts(snapshot), language)


def completions(path: str, text: str, offset: int, facts: RepoFacts, language: Language = "en") -> list[Candidate]:
    """Every completion at ``offset`` of ``text``, the document at repository-relative ``path``,
    offering the identifiers of ``facts``; the schemas' titles and descriptions (details and
    documentation) are in ``language``, the server's own texts stay English here (the server
    translates them)."""
    source = SourceText(text)
    name = path.rsplit("/", 1)[-1]
    feature = path.split("/")[1] if path.startswith("specs/") and path.count("/") >= 2 else None
    line = source.line_of(offset)
    indent = re.match(r"[ \t]*", source.line_text(line))
    indent_text = indent.group(0) if indent else ""
    if name.endswith(".md"):
        fence_names = _fence_name_candidates(text, source, offset)
        if fence_names is not None:
            return fence_names
        if name == "tasks.md":
            task_items = _tasks_candidates(path, text, source, offset, facts)
            if task_items is not None:
                return task_items
        for block in gemstack_blocks(text):
            fence = block.fence
            if fence.open_line >= line:
                continue
            if fence.in_container or fence.indent:
                # The body is not a verbatim slice of the document (a list item, a blockquote,
                # an indented fence): the document text cannot be parsed in place.
                continue
            if fence.close_line is not None and fence.close_line <= line:
                continue
            body = fence.body_span
            region = Span(body.start, max(body.end, offset))
            return _json_candidates(
                text,
                offset,
                region,
                schema_for_block(block.kind, language),
                block.kind,
                facts,
                feature,
                indent_text,
                file_name=name,
            )
        return []
    if name.endswith(".json"):
        schema = schema_for_file(path, language)
        if schema is None:
            return []
        return _json_candidates(text, offset, Span(0, len(text)), schema, None, facts, feature, indent_text)
    return []
