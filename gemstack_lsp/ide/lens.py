"""Code lenses: the capsule state on a spec's title, the gate preview on billable-actions blocks.

On the first heading of ``specs/<feature>/spec.md``: the state of the feature's context capsule
as ``gemstack context verify`` would report it (VALID, STALE with the sources that changed,
INVALID with its first reason, MISSING, or legacy), then a "Regenerate" lens
(``gemstack.regenerateCapsule``) and a "Verify" lens (``gemstack.verifyCapsule``), both with
the feature path (``specs/<feature>``) as their argument.

On the opening fence of a ``gemstack-billable-actions`` block: how many of its actions the
gates would deny in the environment tier of the user's settings (no spending token assumed),
naming them.

``capsule_lenses`` and ``billable_lenses`` are plain data (``LensInfo``) computed from a
repository snapshot; ``code_lenses`` gives both, once per revision and environment.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from gemstack_lsp.core import kinds
from gemstack_lsp.core.capsule.verify import INVALID, LEGACY, MISSING, STALE, VALID, verify_capsule
from gemstack_lsp.core.cost.checks import preview_action
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.i18n import Language, localize
from gemstack_lsp.core.jsonspan import JsonArray
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.text import Span
from gemstack_lsp.host import Snapshot
from gemstack_lsp.ide.outline import document_blocks, document_outline, item_id

log = logging.getLogger(__name__)

__all__ = [
    "REGENERATE",
    "VERIFY",
    "LensInfo",
    "billable_lenses",
    "capsule_lenses",
    "capsule_state_title",
    "code_lenses",
]

REGENERATE = "gemstack.regenerateCapsule"
VERIFY = "gemstack.verifyCapsule"

#: Where a stale source is named by its file name only when it lies in the feature folder.
_MAX_NAMED = 3


@record
class LensInfo:
    """One lens: where it sits, its title, and the command it runs (``None``: informational)."""

    span: Span
    title: str
    command: str | None = None
    arguments: tuple[Any, ...] = ()


def _short(path: str, feature_path: str) -> str:
    return path[len(feature_path) + 1 :] if path.startswith(feature_path + "/") else path


def _names(items: list[str]) -> str:
    shown = ", ".join(items[:_MAX_NAMED])
    more = len(items) - _MAX_NAMED
    return shown + (f" and {more} more" if more > 0 else "")


def capsule_state_title(state: str, findings: Any, feature_path: str, language: Language = "en") -> str:
    """The words of the state lens for a verify result (English, but for INVALID's reason: the
    first finding's message, shortened after it is put in ``language``, with the whole title)."""
    if state == VALID:
        return "Capsule: VALID"
    if state == STALE:
        changed: list[str] = []
        for f in findings:
            if f.code not in ("CONTEXT_CAPSULE_STALE", "CONTEXT_CAPSULE_SOURCE_MISMATCH"):
                continue
            data = getattr(f, "data", None) or {}
            source = data.get("source") if isinstance(data, Mapping) else None
            name = _short(source, feature_path) if isinstance(source, str) else (f.subject or "sources")
            if name not in changed:
                changed.append(name)
        return f"Capsule: STALE ({_names(changed)} changed)" if changed else "Capsule: STALE"
    if state == INVALID:
        first = next(iter(findings), None)
        if first is None:
            reason = "cannot be trusted" if language == "en" else "no es fiable"
        else:
            reason = localize(first.code, first.message, language)
            if language != "en" and reason == first.message:
                language = "en"  # a message without Spanish keeps the whole title English
        if len(reason) > 80:
            reason = reason[:77] + "..."
        return f"{'Cápsula' if language == 'es' else 'Capsule'}: INVALID ({reason})"
    if state == MISSING:
        return "Capsule: MISSING"
    if state == LEGACY:
        return "Capsule: none (legacy, context-free)"
    return f"Capsule: {state}"


def capsule_lenses(snapshot: Snapshot, path: str, language: Language = "en") -> list[LensInfo]:
    """The capsule lenses of a feature's spec.md (none for any other file)."""
    repo = snapshot.repo
    feature = repo.feature_of(path)
    if feature is None or path != feature.spec:
        return []
    if not snapshot.is_gemstack():
        return []  # a spec-kit repository: no "Generate capsule" outside Gemstack
    items = document_outline(snapshot, path)
    heading = next((i for i in items if i.kind == "heading"), None)
    span = heading.selection if heading is not None else Span(0, 0)
    result = verify_capsule(repo, feature)
    title = capsule_state_title(result.state, result.findings, feature.path, language)
    exists = result.state not in (MISSING, LEGACY)
    return [
        LensInfo(span, title),
        LensInfo(span, "Regenerate" if exists else "Generate capsule", REGENERATE, (feature.path,)),
        LensInfo(span, "Verify", VERIFY, (feature.path,)),
    ]


def billable_lenses(snapshot: Snapshot, path: str, options: AnalysisOptions) -> list[LensInfo]:
    """One lens per ``gemstack-billable-actions`` block: the actions denied in ``options.environment``."""
    repo = snapshot.repo
    feature = repo.feature_of(path)
    if feature is None or not path.endswith(".md"):
        return []
    out: list[LensInfo] = []
    env = options.environment
    for block in document_blocks(snapshot, path):
        entry = kinds.block_kind(block.kind)
        if entry is None or not entry.gate_lens:
            continue
        root = block.result.value
        ids: list[str] = []
        if isinstance(root, JsonArray):
            for item in root.items:
                ident = item_id(block.kind, item)
                if ident is not None and ident.value and ident.value not in ids:
                    ids.append(ident.value)
        if not block.result.ok:
            out.append(LensInfo(block.fence.open_span, "Gate preview unavailable: the block is not valid JSON"))
            continue
        denied: list[str] = []
        for action_id in ids:
            decisions = preview_action(repo, action_id, env, feature_name=feature.name, options=options)
            refusal = next((d for d in decisions.values() if not d.authorized), None)
            if refusal is not None:
                denied.append(f"{action_id}: {refusal.reason_code}")
        total = len(ids)
        if total == 0:
            title = f"{env}: no actions declared"
        elif not denied:
            title = f"{env}: all {total} action{'s' if total != 1 else ''} allowed"
        else:
            title = f"{env}: {len(denied)} of {total} action{'s' if total != 1 else ''} denied ({_names(denied)})"
        out.append(LensInfo(block.fence.open_span, title))
    return out


def code_lenses(
    snapshot: Snapshot, path: str, options: AnalysisOptions, language: Language = "en"
) -> tuple[LensInfo, ...]:
    """Every lens of the document at ``path``: capsule lenses, then gate previews in
    ``options.environment`` (computed once per revision, options and language). Titles are
    English (the server puts them in the client's language) but for an INVALID capsule's reason."""

    def compute(snap: Snapshot) -> tuple[LensInfo, ...]:
        infos: list[LensInfo] = []
        computations: list[Callable[[], list[LensInfo]]] = [
            lambda: capsule_lenses(snap, path, language),
            lambda: billable_lenses(snap, path, options),
        ]
        for lenses in computations:
            try:
                infos += lenses()
            except Exception:  # one failing lens must not take the others (or the request) down
                log.exception("code lens failed for %s", path)
        return tuple(infos)

    return snapshot.derived(("ide.lenses", path, options, language), compute)
