"""textDocument/hover: what Gemstack knows about the thing under the cursor, as Markdown.

The word under the cursor is looked up in turn as a finding code (anywhere, a comment
included), a frozen contract id, an acceptance test id, a provider or capability id, a
billable action id and a key of a Gemstack block; diagnostics under the cursor add their
catalogue explanation. Each lookup reads the repository snapshot as the editor holds it and
returns plain text sections that ``hover`` joins; none of them computes findings.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from gemstack_lsp.core.findings import CATALOGUE, code_info
from gemstack_lsp.core.repo import Feature, GemstackRepo
from gemstack_lsp.core.text import Span
from gemstack_lsp.server import convert

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer

log = logging.getLogger(__name__)

_WORD = re.compile(r"[A-Za-z0-9_.:\-]+")


@dataclass(frozen=True)
class HoverContext:
    """Everything a lookup may need: the snapshot, the document, the word and where it is."""

    repo: GemstackRepo
    rel: str
    text: str
    offset: int
    word: str
    word_start: int
    word_end: int
    feature: Feature | None
    environment: str


def word_at(text: str, offset: int) -> tuple[str, int, int] | None:
    """The identifier-like word touching ``offset`` (ids, codes, dotted capability ids)."""
    start = offset
    while start > 0 and _WORD.fullmatch(text[start - 1]):
        start -= 1
    end = offset
    while end < len(text) and _WORD.fullmatch(text[end]):
        end += 1
    if start == end:
        return None
    word = text[start:end].strip(".:-")
    if not word:
        return None
    lead = text[start:end].find(word)
    return word, start + lead, start + lead + len(word)


# --- lookups -------------------------------------------------------------------------------


def finding_code_section(code: str) -> str | None:
    if code not in CATALOGUE:
        return None
    info = code_info(code)
    waivable = "waivable" if info.waivable else "not waivable"
    return (
        f"**{code}** · {info.severity.lsp_name} · {waivable}\n\n{info.summary}\n\n{info.explanation}\n\n"
        f"[Documentation]({info.docs_url})"
    )


def _fmt(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)


def _contracts_of(repo: GemstackRepo, path: str) -> list[Any] | None:
    from gemstack_lsp.core.capsule.extract import BlockError, read_contracts

    doc = repo.document(path)
    if doc.text is None:
        return None
    try:
        return read_contracts(doc.text)
    except BlockError:
        return None


def contract_section(ctx: HoverContext) -> str | None:
    if ctx.feature is None:
        return None
    declared = _contracts_of(ctx.repo, ctx.feature.spec) or []
    contract = next((c for c in declared if c.id == ctx.word), None)
    if contract is None:
        return None
    lines = [f"**Frozen contract `{contract.id}`** · `{contract.type}`", ""]
    raw = contract.raw
    if "value" in raw:
        lines.append(f"- value: `{_fmt(raw['value'])}`")
    if "values" in raw:
        lines.append(f"- values: `{_fmt(raw['values'])}`")
    if "entity" in raw:
        lines.append(f"- entity: `{_fmt(raw['entity'])}`")
    if isinstance(raw.get("description"), str):
        lines += ["", str(raw["description"]), ""]
    where = ctx.feature.spec
    if contract.span is not None:
        source = ctx.repo.document(where).source
        if source is not None:
            where += f":{source.line_of(contract.span.start) + 1}"
    lines.append(f"- declared in `{where}`")
    for path in (ctx.feature.plan, ctx.feature.tasks):
        other = _contracts_of(ctx.repo, path)
        if not other:
            continue
        again = next((c for c in other if c.id == contract.id), None)
        if again is None:
            continue
        agree = again.as_capsule_json() == contract.as_capsule_json()
        lines.append(f"- redeclared in `{path}`: {'agrees' if agree else '**disagrees**'}")
    capsule = _capsule_json(ctx.repo, ctx.feature)
    if capsule is not None:
        held = capsule.get("frozen_contracts")
        ids = {c.get("id") for c in held if isinstance(c, dict)} if isinstance(held, list) else set()
        lines.append(f"- context capsule: {'holds it' if contract.id in ids else '**does not hold it**'}")
    return "\n".join(lines)


def _capsule_json(repo: GemstackRepo, feature: Feature) -> dict[str, Any] | None:
    import json

    doc = repo.document(feature.capsule)
    if doc.text is None:
        return None
    try:
        data = json.loads(doc.text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def test_section(ctx: HoverContext) -> str | None:
    if ctx.feature is None or not ctx.word.startswith("TEST-"):
        return None
    from gemstack_lsp.core.capsule.extract import BlockError, read_test_matrix

    spec = ctx.repo.document(ctx.feature.spec)
    if spec.text is None:
        return None
    try:
        matrix = read_test_matrix(spec.text)
    except BlockError:
        matrix = None
    entry = next((e for e in matrix.entries if e.get("id") == ctx.word), None) if matrix else None
    lines = [f"**Acceptance test `{ctx.word}`**", ""]
    if entry is None:
        lines.append("Not in the spec's `gemstack-test-matrix`.")
    else:
        for key in ("category", "layer", "gate"):
            lines.append(f"- {key}: `{entry.get(key)}`")
        lines += ["", str(entry.get("description", "")), "", f"Pass criteria: {entry.get('pass_criteria', '')}"]
    bindings = _bindings_of(ctx.repo, ctx.feature, ctx.word)
    if bindings:
        lines += ["", "Bound to: " + ", ".join(f"`{b}`" for b in bindings)]
    tasks = _tasks_naming(ctx.repo, ctx.feature, ctx.word)
    if tasks:
        lines += ["", "Named by tasks: " + ", ".join(tasks)]
    return "\n".join(lines)


def _bindings_of(repo: GemstackRepo, feature: Feature, test_id: str) -> list[str]:
    import json

    from gemstack_lsp.core.markdown import reference_blocks

    plan = repo.document(feature.plan)
    if plan.text is None:
        return []
    out: list[str] = []
    for block in reference_blocks(plan.text, "gemstack-test-bindings"):
        try:
            data = json.loads(block.json_text)
        except ValueError:
            continue
        for item in data if isinstance(data, list) else ():
            if isinstance(item, dict) and item.get("test_id") == test_id:
                runner = f" ({item['runner']})" if isinstance(item.get("runner"), str) else ""
                out.append(f"{item.get('file')}{runner}")
    return out


def _tasks_naming(repo: GemstackRepo, feature: Feature, test_id: str) -> list[str]:
    from gemstack_lsp.core.tasks import parse_tasks

    doc = repo.document(feature.tasks)
    if doc.text is None:
        return []
    try:
        tasks = parse_tasks(doc.text)
    except Exception:
        return []
    return [t.id for t in tasks.tasks if any(ref.value == test_id for ref in t.tests)]


#: Lookups in order; the first sections found are shown, separated by rules.
LOOKUPS: list[Callable[[HoverContext], str | None]] = [
    lambda ctx: finding_code_section(ctx.word),
    contract_section,
    test_section,
]


def hover_markdown(ctx: HoverContext) -> list[str]:
    sections: list[str] = []
    for lookup in LOOKUPS:
        try:
            section = lookup(ctx)
        except Exception:  # one broken lookup must not hide the others
            log.exception("hover lookup failed")
            continue
        if section:
            sections.append(section)
    return sections


def register(server: GemstackServer) -> None:
    session = server.session
    engine = server.diagnostics

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def hover(params: lsp.HoverParams) -> lsp.Hover | None:
        uri = params.text_document.uri
        doc = session.documents.get(uri)
        if doc is None or doc.root is None or doc.rel is None:
            return None
        settings = session.settings_for(uri)
        if not settings.hover:
            return None
        if await server.checkpoint():
            return None
        server.stats["hover"] += 1
        source = doc.source
        offset = convert.to_offset(source, params.position, session.encoding)
        sections: list[str] = []
        # Diagnostics under the cursor: the catalogue explains their codes.
        st = engine.roots.get(doc.root)
        report = st.reports.get(uri) if st else None
        codes: list[str] = []
        for d in report.diagnostics if report else ():
            span = convert.to_span(source, d.range, session.encoding)
            if span.contains(offset) and isinstance(d.code, str) and d.code not in codes:
                codes.append(d.code)
        found = word_at(doc.text, offset)
        if found is not None or codes:
            word, start, end = found if found is not None else ("", offset, offset)
            ctx = HoverContext(
                repo=session.snapshot(doc.root),
                rel=doc.rel,
                text=doc.text,
                offset=offset,
                word=word,
                word_start=start,
                word_end=end,
                feature=_feature_of(doc.rel),
                environment=settings.environment,
            )
            sections = hover_markdown(ctx) if found is not None else []
            for code in codes:
                if code != word:
                    section = finding_code_section(code)
                    if section:
                        sections.append(section)
        if not sections:
            return None
        rng = None
        if found is not None:
            rng = convert.to_range(source, Span(found[1], found[2]), session.encoding)
        kind = lsp.MarkupKind.Markdown if session.client.markdown_hover else lsp.MarkupKind.PlainText
        return lsp.Hover(contents=lsp.MarkupContent(kind=kind, value="\n\n---\n\n".join(sections)), range=rng)


def _feature_of(rel: str) -> Feature | None:
    parts = rel.split("/")
    if len(parts) >= 2 and parts[0] == "specs":
        return Feature(parts[1])
    return None
