"""textDocument/hover: what Gemstack knows about the thing under the cursor, as Markdown.

The word under the cursor is looked up in turn as a finding code (anywhere, a comment
included), a frozen contract id, an acceptance test id, a provider or capability id, a
billable action id and a key of a Gemstack block; diagnostics under the cursor add their
catalogue explanation. Each lookup reads the repository snapshot as the editor holds it and
returns plain text sections that ``hover`` joins; none of them computes findings.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
from collections.abc import Callable, Sequence
from typing import Any

from gemstack_lsp.core.blocks import DocumentBlocks, blocks_of
from gemstack_lsp.core.cost.view import CostView
from gemstack_lsp.core.findings import CATALOGUE, code_info
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.i18n import (
    GATE_DECISION,
    SUPPRESSION_REASON,
    Language,
    catalogue_text,
    localize,
    localize_finding,
    ui,
)
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.policy import SUPPRESSION_CODES, is_silenceable
from gemstack_lsp.core.repo import Feature, GemstackRepo
from gemstack_lsp.core.text import Span
from gemstack_lsp.host import Snapshot
from gemstack_lsp.ide import suppressed

__all__ = [
    "LOOKUPS",
    "HoverContext",
    "HoverInfo",
    "HoverOptions",
    "code_hover",
    "finding_code_section",
    "hover",
    "hover_markdown",
    "word_at",
]

log = logging.getLogger(__name__)

_WORD = re.compile(r"[A-Za-z0-9_.:\-]+")


@record
class HoverOptions:
    """The user's settings a hover depends on."""

    #: The environment tier marked "current" in a billable action's gate table.
    environment: str = "development"
    max_ledger_age_days: int = 90
    #: The language of the catalogue's texts (the client's locale; ``core/i18n.py``).
    language: Language = "en"


@record
class HoverInfo:
    """A hover: Markdown sections (shown separated by rules) and the span of the word hovered."""

    sections: tuple[str, ...]
    span: Span | None

    @property
    def markdown(self) -> str:
        return "\n\n---\n\n".join(self.sections)


@record
class HoverContext:
    """Everything a lookup may need: the snapshot, the document, the word and where it is."""

    snapshot: Snapshot
    rel: str
    text: str
    offset: int
    word: str
    word_start: int
    word_end: int
    feature: Feature | None
    environment: str
    max_ledger_age_days: int = 90
    language: Language = "en"

    @property
    def repo(self) -> GemstackRepo:
        return self.snapshot.repo


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


def finding_code_section(code: str, language: Language = "en") -> str | None:
    """The catalogue's entry for ``code``, in ``language``."""
    if code not in CATALOGUE:
        return None
    info = code_info(code)
    summary, explanation = catalogue_text(code, language)
    waivable = ui("hover.waivable" if info.waivable else "hover.not_waivable", language)
    severity = ui(f"severity.{info.severity.lsp_name}", language)
    documentation = ui("hover.documentation", language)
    return (
        f"**{code}** · {severity} · {waivable}\n\n{summary}\n\n{explanation}\n\n"
        f"{silence_hint(code, language)}\n\n"
        f"[{documentation}]({info.docs_url})"
    )


def silence_hint(code: str, language: Language = "en") -> str:
    """How a team silences findings of ``code`` (or why it cannot), in ``language``."""
    if not is_silenceable(code):
        return ui("hover.cannot_silence", language)
    if code in SUPPRESSION_CODES:
        return ui("hover.silence_config", language, code=code)
    return ui("hover.silence_comment", language, code=code)


def suppression_sections(snapshot: Snapshot, rel: str, offset: int, language: Language = "en") -> list[str]:
    """Why findings under the cursor are hidden (or why an accepted exception stopped applying),
    in ``language`` (the reason's wording; a user's own reason text is quoted as written)."""
    text = snapshot.repo.document(rel).text or ""
    line_end = text.find("\n")
    first_line = Span(0, len(text) if line_end < 0 else line_end)
    found = suppressed.outcome(snapshot, rel, snapshot.findings_in(rel))
    out: list[str] = []
    for h in found.hidden:
        span = h.finding.span if h.finding.span is not None else first_line
        if span.contains(offset):
            reason = localize(SUPPRESSION_REASON, h.reason, language)
            message = localize_finding(h.finding, language).message
            out.append(ui("hover.hidden", language, code=h.finding.code, reason=reason, message=message))
    for f in found.visible:
        note = found.notes.get(f.fingerprint)
        span = f.span if f.span is not None else first_line
        if note and span.contains(offset):
            out.append(f"**{f.code}**: {localize(SUPPRESSION_REASON, note, language)}")
    return out


def _fmt(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _document_blocks(snapshot: Snapshot, path: str) -> DocumentBlocks | None:
    def compute(snap: Snapshot) -> DocumentBlocks | None:
        text = snap.repo.document(path).text
        return blocks_of(path, text) if text is not None else None

    return snapshot.derived(("ide.hover.blocks", path), compute)


def _blocks(ctx: HoverContext, path: str) -> DocumentBlocks | None:
    return _document_blocks(ctx.snapshot, path)


def _line(repo: GemstackRepo, path: str, offset: int) -> str:
    source = repo.document(path).source
    return f"{path}:{source.line_of(offset) + 1}" if source is not None else path


def _contract_claim(c: Any) -> tuple[Any, ...]:
    return (c.type, c.value if c.has_value else None, c.normalized_values(), c.entity)


def contract_section(ctx: HoverContext) -> str | None:
    """A frozen contract: type, value(s), description, declaration, redeclarations, capsule."""
    if ctx.feature is None:
        return None
    spec = _blocks(ctx, ctx.feature.spec)
    declared = spec.contracts.items if spec is not None else ()
    contract = next((c for c in declared if c.id == ctx.word), None)
    if contract is None:
        return None
    lang = ctx.language
    lines = [ui("hover.contract", lang, id=contract.id, type=contract.type), ""]
    if contract.has_value:
        lines.append(ui("hover.value", lang, value=_fmt(contract.value)))
    if contract.values is not None:
        lines.append(ui("hover.values", lang, values=_fmt(list(contract.values))))
    if contract.entity is not None:
        lines.append(ui("hover.entity", lang, entity=contract.entity))
    lines.append(ui("hover.declared_in", lang, where=_line(ctx.repo, ctx.feature.spec, contract.id_span.start)))
    for path in (ctx.feature.plan, ctx.feature.tasks):
        other = _blocks(ctx, path)
        again = next((c for c in other.contract_items if c.id == contract.id), None) if other else None
        if again is None:
            continue
        agree = _contract_claim(again) == _contract_claim(contract)
        where = _line(ctx.repo, path, again.id_span.start)
        lines.append(ui("hover.redeclared_agrees" if agree else "hover.redeclared_disagrees", lang, where=where))
    capsule = _capsule_json(ctx.repo, ctx.feature)
    if capsule is None:
        lines.append(ui("hover.capsule_none", lang))
    else:
        held = capsule.get("frozen_contracts")
        ids = {c.get("id") for c in held if isinstance(c, dict)} if isinstance(held, list) else set()
        lines.append(ui("hover.capsule_holds" if contract.id in ids else "hover.capsule_lacks", lang))
    if contract.description:
        lines += ["", contract.description]
    return "\n".join(lines)


def _capsule_json(repo: GemstackRepo, feature: Feature) -> dict[str, Any] | None:
    doc = repo.document(feature.capsule)
    if doc.text is None:
        return None
    try:
        data = json.loads(doc.text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def test_section(ctx: HoverContext) -> str | None:
    """An acceptance test id: its matrix entry, its bindings, the tasks that name it."""
    if ctx.feature is None or not ctx.word.startswith("TEST-"):
        return None
    spec = _blocks(ctx, ctx.feature.spec)
    entry = next((e for e in spec.test_matrix.items if e.id == ctx.word), None) if spec else None
    lang = ctx.language
    lines = [ui("hover.test", lang, id=ctx.word), ""]
    if entry is None:
        lines.append(ui("hover.test_not_in_matrix", lang))
    else:
        lines.append(ui("hover.test_entry", lang, category=entry.category, layer=entry.layer, gate=entry.gate))
        lines.append(ui("hover.test_declared_in", lang, where=_line(ctx.repo, ctx.feature.spec, entry.id_span.start)))
        lines += ["", entry.description, "", ui("hover.pass_criteria", lang, criteria=entry.pass_criteria)]
    plan = _blocks(ctx, ctx.feature.plan)
    bindings = [b for b in plan.test_bindings.items if b.test_id == ctx.word] if plan else []
    if bindings:
        files = ", ".join(f"`{b.file}` ({b.runner})" if b.runner else f"`{b.file}`" for b in bindings)
        lines += ["", ui("hover.bound_to", lang, files=files)]
    else:
        lines += ["", ui("hover.no_binding", lang)]
    tasks = _tasks_naming(ctx.snapshot, ctx.feature, ctx.word)
    if tasks:
        lines += ["", ui("hover.named_by_tasks", lang, tasks=", ".join(tasks))]
    return "\n".join(lines)


def _tasks_naming(snapshot: Snapshot, feature: Feature, test_id: str) -> list[str]:
    from gemstack_lsp.core.tasks import TaskList, parse_tasks

    def compute(snap: Snapshot) -> TaskList | None:
        text = snap.repo.document(feature.tasks).text
        return parse_tasks(text) if text is not None else None

    tasks = snapshot.derived(("ide.hover.tasks", feature.tasks), compute)
    if tasks is None:
        return []
    return [t.id for t in tasks.tasks if any(ref.value == test_id for ref in t.tests)]


def _cost_view(ctx: HoverContext) -> tuple[CostView, AnalysisOptions]:
    """The cost sources of the snapshot (loaded once per revision and ledger age limit)."""
    opts = dataclasses.replace(ctx.snapshot.options, max_ledger_age_days=ctx.max_ledger_age_days)

    def compute(snap: Snapshot) -> tuple[CostView, AnalysisOptions]:
        return CostView(snap.repo, opts.clock(), opts.max_ledger_age_days), opts

    return ctx.snapshot.derived(("ide.hover.cost-view", opts.max_ledger_age_days), compute)


def _ledger_lines(ctx: HoverContext, fc: Any, provider: str | None, capability: str | None) -> list[str]:
    from gemstack_lsp.core.cost.ledger import check_staleness

    lang = ctx.language
    ledger = fc.ledger.ledger if fc.ledger is not None else None
    if ledger is None:
        return [ui("hover.ledger_none", lang, path=fc.ledger_path)]
    out: list[str] = []
    now = _cost_view(ctx)[1].clock()
    for key, entry in ledger.providers.items():
        if provider is not None and key != provider:
            continue
        for cap_id, cap in entry.capabilities.items():
            if capability is not None and cap_id != capability:
                continue
            fresh = check_staleness(
                cap.freshness_date if cap.freshness_date is not None else None, now, ctx.max_ledger_age_days
            )
            age = ui("hover.stale", lang) if fresh.is_stale else ui("hover.fresh", lang, days=fresh.age_days)
            cost = (
                ""
                if cap.estimated_unit_cost is None
                else ui("hover.estimated", lang, cost=cap.estimated_unit_cost, currency=ledger.currency)
            )
            out.append(
                ui(
                    "hover.ledger_entry",
                    lang,
                    provider=key,
                    capability=cap_id,
                    state=cap.cost_state,
                    cost=cost,
                    date=cap.freshness_date,
                    age=age,
                    where=_line(ctx.repo, ledger.path, cap.key_span.start),
                )
            )
    if not out:
        out.append(ui("hover.ledger_no_entry", lang, path=ledger.path))
    return out


def provider_section(ctx: HoverContext) -> str | None:
    """A provider id or a capability id: registry declaration, ledger entries, freshness."""
    if ctx.feature is None:
        return None
    view, _ = _cost_view(ctx)
    fc = view.feature(ctx.feature)
    provider = fc.registry.get(ctx.word)
    if provider is not None:
        lang = ctx.language
        lines = [ui("hover.provider", lang, id=provider.id, type=provider.type), ""]
        caps = ", ".join(f"`{c}`" for c in sorted(provider.capabilities)) or ui("hover.no_capabilities", lang)
        lines.append(ui("hover.capabilities", lang, caps=caps))
        sources = ", ".join(f"`{_line(ctx.repo, d.path, d.id_span.start)}`" for d in provider.declarations)
        lines.append(ui("hover.provider_declared_in", lang, sources=sources))
        lines += _ledger_lines(ctx, fc, provider.id, None)
        return "\n".join(lines)
    users = [p for p in fc.registry.providers.values() if ctx.word in p.capabilities]
    if not users:
        return None
    lines = [ui("hover.capability", ctx.language, id=ctx.word), ""]
    lines.append(ui("hover.providers", ctx.language, providers=", ".join(f"`{p.id}` ({p.type})" for p in users)))
    lines += _ledger_lines(ctx, fc, None, ctx.word)
    return "\n".join(lines)


def action_section(ctx: HoverContext) -> str | None:
    """A billable action: its declaration and the gates' decision in every environment tier."""
    if ctx.feature is None:
        return None
    from gemstack_lsp.core.cost.checks import preview_chain

    view, opts = _cost_view(ctx)
    fc = view.feature(ctx.feature)
    action = fc.action(ctx.word)
    if action is None:
        return None
    chains = preview_chain(ctx.repo, action.id, None, feature_name=ctx.feature.name, options=opts)
    lang = ctx.language
    providers = " → ".join(f"`{p.id}`" for p in action.providers) or ui("hover.none", lang)
    lines = [
        ui("hover.action", lang, id=action.id, category=action.category),
        "",
        ui("hover.action_capability", lang, capability=action.capability_id, providers=providers),
        ui("hover.action_declared_in", lang, where=_line(ctx.repo, action.path, action.id_span.start)),
        "",
        ui("hover.gate_header", lang),
        "|---|---|---|",
    ]
    for tier, chain in chains.items():
        d = chain.decision
        mark = ui("hover.current", lang) if tier == ctx.environment else ""
        message = localize(GATE_DECISION, d.message, lang).replace("|", "\\|")
        lines.append(f"| {tier}{mark} | {d.decision} | `{d.reason_code}`: {message} |")
    if action.description:
        lines += ["", action.description]
    return "\n".join(lines)


def key_section(ctx: HoverContext) -> str | None:
    """A key of a Gemstack block or JSON artifact: its schema's title and description (in the
    hover's language), from the subschemas that apply to the document as it is (the walker
    completion reads too)."""
    from gemstack_lsp.core import jsonspan, kinds, schemas

    root: Any = None
    schema: str | None = None
    artifact = kinds.artifact_schema(ctx.rel)
    if artifact is not None:
        root = jsonspan.parse_json(ctx.text).value
        schema = artifact
    elif ctx.rel.endswith(".md"):
        blocks = _blocks(ctx, ctx.rel)
        for result in blocks.results if blocks is not None else ():
            if result.fence is not None and result.root is not None and result.root.span.contains(ctx.offset):
                root, schema = result.root, kinds.BY_NAME[result.kind].schema
                break
    if root is None or schema is None:
        return None
    where = jsonspan.locate(root, ctx.offset)
    if not where.is_key or where.node is None or not where.path:
        return None
    described = schemas.describe(schema, where.path, ctx.language, root)
    schema = schema.removesuffix(".schema.json")
    if described is None:
        return None
    title, description = described
    key = where.path[-1]
    head = f"**`{key}`**" + (f" · {title}" if title else "")
    return f"{head}\n\n{description}".rstrip() + "\n\n" + ui("hover.schema", ctx.language, schema=schema)


def _swarm_section(ctx: HoverContext) -> str | None:
    from gemstack_lsp.ide.swarm_hover import swarm_section

    return swarm_section(ctx)


#: Lookups in order; the first sections found are shown, separated by rules.
LOOKUPS: list[Callable[[HoverContext], str | None]] = [
    lambda ctx: finding_code_section(ctx.word, ctx.language),
    key_section,
    lambda ctx: _swarm_section(ctx),
    contract_section,
    test_section,
    action_section,
    provider_section,
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


def feature_of(rel: str) -> Feature | None:
    """The feature whose folder holds the repository-relative path ``rel``."""
    parts = rel.split("/")
    if len(parts) >= 2 and parts[0] == "specs":
        return Feature(parts[1])
    return None


def code_hover(text: str, offset: int, language: Language = "en") -> HoverInfo | None:
    """The hover of a document outside every Gemstack repository: only finding codes mean
    something there (a CI log, a note)."""
    found = word_at(text, offset)
    section = finding_code_section(found[0], language) if found else None
    if section is None or found is None:
        return None
    return HoverInfo((section,), Span(found[1], found[2]))


def hover(
    snapshot: Snapshot,
    rel: str,
    offset: int,
    options: HoverOptions,
    codes: Sequence[str] = (),
) -> HoverInfo | None:
    """The hover at ``offset`` of the document at ``rel`` as of ``snapshot``.

    ``codes`` are the finding codes of the diagnostics under the cursor (as the client has
    them): the catalogue explains each after the sections of the word itself.
    """
    text = snapshot.repo.document(rel).text
    if text is None:
        return None
    found = word_at(text, offset)
    if found is None and not codes:
        return None
    sections: list[str] = []
    word = found[0] if found is not None else ""
    if found is not None:
        ctx = HoverContext(
            snapshot=snapshot,
            rel=rel,
            text=text,
            offset=offset,
            word=word,
            word_start=found[1],
            word_end=found[2],
            feature=feature_of(rel),
            environment=options.environment,
            max_ledger_age_days=options.max_ledger_age_days,
            language=options.language,
        )
        sections = hover_markdown(ctx)
    try:
        sections.extend(suppression_sections(snapshot, rel, offset, options.language))
    except Exception:  # the explanation of a hidden finding must not cost the hover
        log.exception("hover: suppressions failed")
    seen: list[str] = []
    for code in codes:
        if code != word and code not in seen:
            seen.append(code)
            section = finding_code_section(code, options.language)
            if section:
                sections.append(section)
    if not sections:
        return None
    return HoverInfo(tuple(sections), Span(found[1], found[2]) if found is not None else None)
