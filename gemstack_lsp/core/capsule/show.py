"""How a capsule is shown: the reference's summary block, its age, and the derived Markdown companion."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gemstack_lsp.core.jscompat import js_number
from gemstack_lsp.core.redact import excerpt

if TYPE_CHECKING:
    from gemstack_lsp.core.i18n import Language

MARKDOWN_BANNER = (
    "> **Derived, non-authoritative.** Generated from context-capsule.json, which is itself derived from "
    "spec.md, plan.md, tasks.md and .gemstack/state.json. It carries no authority: where it disagrees "
    "with those files, the files win. Do not edit; regenerate."
)


def _get(capsule: Mapping[str, Any], *path: str) -> Any:
    node: Any = capsule
    for key in path:
        if not isinstance(node, Mapping) or key not in node:
            return None
        node = node[key]
    return node


def _text(value: Any, default: str) -> str:
    if value is None or value == "" or value is False:
        return default
    if isinstance(value, bool):
        return "true"
    if isinstance(value, int | float):
        return js_number(value)
    return str(value)


def _count(value: Any) -> str:
    return str(len(value)) if isinstance(value, list) else "0"


def parse_iso(value: Any) -> dt.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        parsed = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)


def age_text(generated_at: Any, now: dt.datetime, language: Language = "en") -> str:
    """``3h 12m ago (2026-12-02T10:53:46.814Z)``, or ``unknown`` (in ``language``)."""
    from gemstack_lsp.core.i18n import ui

    when = parse_iso(generated_at)
    if when is None:
        return ui("show.unknown", language)
    seconds = int((now - when).total_seconds())
    if seconds < 0:
        return ui("show.future", language, when=generated_at)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        span = f"{days}d {hours}h"
    elif hours:
        span = f"{hours}h {minutes}m"
    else:
        span = f"{minutes}m"
    return ui("show.ago", language, span=span, when=generated_at)


def summary_lines(
    capsule: Mapping[str, Any], state: str | None = None, now: dt.datetime | None = None, language: Language = "en"
) -> list[str]:
    """The reference's ``context show`` block, then ``State`` and ``Age`` when known.

    In English the reference's own lines, byte for byte; in Spanish the same block with its
    labels (aligned the same way: one space after the longest) and words translated. Values
    (names, states, dates) are the capsule's own."""
    from gemstack_lsp.core.i18n import ui

    def text(value: Any, default: str) -> str:
        return _text(value, ui(f"show.{default}", language))

    rows = [
        ("schema_version", text(capsule.get("schema_version"), "undefined")),
        ("project", text(_get(capsule, "project", "name"), "unknown")),
        ("feature", text(_get(capsule, "project", "active_feature"), "unknown")),
        ("lifecycle", text(_get(capsule, "project", "lifecycle_status"), "unknown")),
        ("sources", ui("show.files", language, n=_count(_get(capsule, "provenance", "sources")))),
        ("invariants", ui("show.rules", language, n=_count(capsule.get("canonical_invariants")))),
        ("contracts", ui("show.contract_count", language, n=_count(capsule.get("frozen_contracts")))),
        ("acceptance", ui("show.tests", language, n=_text(_get(capsule, "acceptance_matrix", "total_required"), "0"))),
    ]
    if state is not None:
        rows.append(("state", state))
    if now is not None:
        rows.append(("age", age_text(capsule.get("generated_at"), now, language)))
    labels = {key: ui(f"show.label.{key}", language) for key, _ in rows}
    width = max(len(label) for label in labels.values()) + 1
    return [ui("show.title", language)] + [f"{labels[key]:<{width}}{value}" for key, value in rows]


def _md_list(items: Any) -> list[str]:
    if not isinstance(items, list) or not items:
        return ["- (none)"]
    return [f"- {item if isinstance(item, str) else _json_text(item)}" for item in items]


def _json_text(value: Any) -> str:
    """A value as the Markdown companion shows it (readable JSON, keys sorted; not the reference's form)."""
    import json

    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def render_markdown(capsule: Mapping[str, Any]) -> str:
    """The derived ``context-capsule.md``: a readable rendering of the JSON, marked non-authoritative."""
    out = [
        f"# Context capsule: {_text(_get(capsule, 'project', 'active_feature'), 'unknown')}",
        "",
        MARKDOWN_BANNER,
        "",
    ]
    project = capsule.get("project") if isinstance(capsule.get("project"), Mapping) else {}
    assert isinstance(project, Mapping)
    out += [
        "## Lifecycle",
        "",
        f"- Project: {_text(project.get('name'), 'unknown')}",
        f"- Phase: {_text(project.get('current_phase'), 'unknown')} "
        f"(status {_text(project.get('lifecycle_status'), 'unknown')}); "
        f"next permitted: {_text(project.get('next_permitted_phase'), 'unknown')}",
        f"- Generated: {_text(capsule.get('generated_at'), 'unknown')} by "
        f"{_text(_get(capsule, 'generator', 'name'), '?')} {_text(_get(capsule, 'generator', 'version'), '')}",
        f"- source_set_hash: `{_text(_get(capsule, 'provenance', 'source_set_hash'), 'none')}`",
        "",
        "## Sources",
        "",
    ]
    for s in _get(capsule, "provenance", "sources") or []:
        if isinstance(s, Mapping):
            out.append(f"- `{s.get('path')}` ({s.get('role')}) `{excerpt(str(s.get('hash')), 12)}…`")
    out += ["", "## Canonical invariants", ""]
    for inv in capsule.get("canonical_invariants") or []:
        if isinstance(inv, Mapping):
            out.append(f"- **{inv.get('id')}** [{inv.get('normative')}] ({inv.get('source_ref')}): {inv.get('rule')}")
    out += ["", "## Frozen contracts", ""]
    for c in capsule.get("frozen_contracts") or []:
        if isinstance(c, Mapping):
            detail = {k: v for k, v in c.items() if k not in ("id", "type")}
            out.append(f"- `{c.get('id')}` ({c.get('type')}): {_json_text(detail)}")
    matrix = capsule.get("acceptance_matrix") if isinstance(capsule.get("acceptance_matrix"), Mapping) else {}
    assert isinstance(matrix, Mapping)
    out += [
        "",
        "## Acceptance matrix",
        "",
        f"- {_text(matrix.get('total_required'), '0')} tests, signature `{_text(matrix.get('signature'), 'none')}`",
        *[f"- {i}" for i in matrix.get("canonical_ids") or []],
    ]
    tasks = capsule.get("tasks_state") if isinstance(capsule.get("tasks_state"), Mapping) else {}
    assert isinstance(tasks, Mapping)
    out += [
        "",
        "## Tasks",
        "",
        f"- {_text(tasks.get('completed'), '0')}/{_text(tasks.get('total'), '0')} complete; "
        f"in progress: {_text(tasks.get('in_progress'), 'none')}",
        f"- Active: {', '.join(str(t) for t in tasks.get('active_task_ids') or []) or 'none'}",
        "",
        "## Shipped features",
        "",
    ]
    for h in capsule.get("historical_context") or []:
        if isinstance(h, Mapping):
            guarantees = ", ".join(str(g) for g in h.get("key_guarantees") or [])
            out.append(f"- `{h.get('feature')}` {h.get('status')}: {h.get('title', '')} {guarantees}".rstrip())
    out += ["", "## Relevant files", "", *_md_list(capsule.get("relevant_files"))]
    out += ["", "## Deferred (do not implement)", "", *_md_list(capsule.get("deferred_items"))]
    out += ["", "## Unresolved blockers", "", *_md_list(capsule.get("unresolved_blockers")), ""]
    return "\n".join(out)
