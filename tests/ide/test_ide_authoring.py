"""The authoring features at the IDE boundary, driven by fixtures (``authoring_fixture.py``):
semantic tokens, document highlights, folding ranges, selection ranges, rename, formatting
and inlay hints. Each ``tests/ide/authoring/<feature>/<case>.fixture`` is a repository with a
cursor; its ``.expect`` file is the answer rendered as text (``UPDATE_EXPECT=1`` rewrites it).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from authoring_fixture import Fixture, check_expect, fixtures, parse_fixture, where

from gemstack_lsp.core.text import SourceText, Span
from gemstack_lsp.ide.folding import document_folds
from gemstack_lsp.ide.formatting import FormatRefused, format_document
from gemstack_lsp.ide.highlight import document_highlights
from gemstack_lsp.ide.inlay_hints import InlayHintOptions, inlay_hints
from gemstack_lsp.ide.rename import RenameRefused, plan_rename, prepare_rename
from gemstack_lsp.ide.selection import selection_chains
from gemstack_lsp.ide.semantic_tokens import semantic_tokens


def _cursor(fx: Fixture) -> tuple[str, int]:
    assert fx.cursor_path is not None and fx.cursor is not None, f"{fx.name}: no {'$0'} cursor"
    return fx.cursor_path, fx.cursor


def render_semantic_tokens(fx: Fixture) -> str:
    snap = fx.snapshot()
    lines = []
    for path in sorted(fx.files):
        for tok in semantic_tokens(snap, path):
            mods = f" [{', '.join(tok.modifiers)}]" if tok.modifiers else ""
            lines.append(f"{where(snap, path, tok.span)} {tok.token_type}{mods}")
    return "\n".join(lines) + "\n"


def render_highlight(fx: Fixture) -> str:
    snap = fx.snapshot()
    path, offset = _cursor(fx)
    found = document_highlights(snap, path, offset)
    lines = [f"{where(snap, path, h.span)} {'write' if h.write else 'read'}" for h in found]
    return "\n".join(lines or ["(no highlights)"]) + "\n"


def render_folding(fx: Fixture) -> str:
    snap = fx.snapshot()
    lines = []
    for path in sorted(fx.files):
        source = SourceText(fx.files[path])
        for fold in document_folds(snap, path):
            first = source.line_text(fold.start_line).strip()[:50]
            lines.append(f"{path} {fold.start_line + 1}-{fold.end_line + 1} {fold.kind}: {first}")
    return "\n".join(lines or ["(no folds)"]) + "\n"


def render_selection(fx: Fixture) -> str:
    snap = fx.snapshot()
    path, offset = _cursor(fx)
    (chain,) = selection_chains(snap, path, [offset])
    return "\n".join(where(snap, path, s) for s in chain.spans) + "\n"


def render_rename(fx: Fixture) -> str:
    snap = fx.snapshot()
    path, offset = _cursor(fx)
    new_name = fx.options.get("new-name", "renamed")
    allow = fx.options.get("allow-frozen") == "true"
    lines = []
    try:
        target = prepare_rename(snap, path, offset)
    except RenameRefused as exc:
        return f"prepare refused: {exc}\n"
    if target is None:
        return "nothing to rename\n"
    lines.append(f"prepare: {target.kind} {where(snap, path, target.span)}")
    try:
        plan = plan_rename(snap, path, offset, new_name, allow_frozen=allow)
    except RenameRefused as exc:
        frozen = f" (frozen: {exc.frozen.phase})" if exc.frozen is not None else ""
        lines.append(f"refused{frozen}: {exc}")
        return "\n".join(lines) + "\n"
    assert plan is not None
    for edit in plan.edits:
        frozen = f", frozen {edit.frozen.phase}" if edit.frozen is not None else ""
        lines.append(f"{where(snap, edit.path, edit.span)} -> {edit.new_text} ({edit.role}{frozen})")
    return "\n".join(lines) + "\n"


def _apply(text: str, edits: list[tuple[Span, str]]) -> str:
    for span, new in sorted(edits, key=lambda e: e[0].start, reverse=True):
        text = text[: span.start] + new + text[span.end :]
    return text


def render_formatting(fx: Fixture) -> str:
    snap = fx.snapshot()
    out = []
    for path in sorted(fx.files):
        try:
            edits = format_document(snap, path)
        except FormatRefused as exc:
            out.append(f"//- {path}: refused: {exc}\n")
            continue
        if not edits:
            out.append(f"//- {path}: unchanged\n")
            continue
        formatted = _apply(fx.files[path], [(e.span, e.new_text) for e in edits])
        out.append(f"//- {path}: {len(edits)} edit(s)\n{formatted}")
        # Idempotent: the formatted text formats to itself.
        files = {**fx.files, path: formatted}
        again = Fixture(fx.name, files, None, None, {})
        assert format_document(again.snapshot(), path) == (), f"{path}: formatting is not idempotent"
    return "".join(out)


def render_inlay_hints(fx: Fixture) -> str:
    snap = fx.snapshot()
    off = {k.strip() for k in fx.options.get("off", "").split(",") if k.strip()}
    options = InlayHintOptions(
        test_results="test-results" not in off, frozen_contracts="frozen" not in off, bindings="bindings" not in off
    )
    lines = []
    for path in sorted(fx.files):
        source = SourceText(fx.files[path])
        for hint in inlay_hints(snap, path, None, options):
            pos = source.position(hint.offset, "utf-32")
            lines.append(f"{path} {pos.line + 1}:{pos.character + 1} {hint.kind}: {hint.label}")
    return "\n".join(lines or ["(no hints)"]) + "\n"


RENDERERS: dict[str, Callable[[Fixture], str]] = {
    "semantic_tokens": render_semantic_tokens,
    "highlight": render_highlight,
    "folding": render_folding,
    "selection": render_selection,
    "rename": render_rename,
    "formatting": render_formatting,
    "inlay_hints": render_inlay_hints,
}

CASES = [(feature, path) for feature in RENDERERS for path in fixtures(feature)]


@pytest.mark.parametrize(("feature", "fixture_path"), CASES, ids=[f"{f}/{p.stem}" for f, p in CASES])
def test_authoring_fixture(feature: str, fixture_path: Path) -> None:
    fx = parse_fixture(fixture_path.stem, fixture_path.read_text("utf-8"))
    check_expect(fixture_path, RENDERERS[feature](fx))


def test_every_feature_has_fixtures() -> None:
    assert {f for f, _ in CASES} == set(RENDERERS)


FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


@pytest.mark.parametrize(
    "path",
    sorted(
        [
            *FIXTURES.glob("upstream-state/*.json"),
            *FIXTURES.glob("**/cost-ledger.json"),
            *FIXTURES.glob("upstream-013/specs/*/*.md"),
            *FIXTURES.glob("gemstack-reference/repo/specs/*/*.md"),
        ]
    ),
    ids=lambda p: str(p.relative_to(FIXTURES)),
)
def test_upstream_files_are_already_in_the_layout(path: Path) -> None:
    """Files upstream Gemstack wrote are left exactly as they are: the layout is upstream's."""
    rel = ".gemstack/state.json" if path.parent.name == "upstream-state" else f"specs/x/{path.name}"
    fx = Fixture(path.name, {rel: path.read_text("utf-8")}, None, None, {})
    assert format_document(fx.snapshot(), rel) == ()
