"""The feature modules loaded on their first message, and what they declare meanwhile.

``initialize`` is answered with the capabilities of every feature, but its answer needs none
of their code: each module below is imported, and its ``register(server)`` run, when the
client first sends one of its methods or commands (``GemstackServer.handler_of``). Until then
this table says which methods and commands each one registers and with which options, so the
capabilities are the same as with every module loaded (``tests/server/test_lazy_features.py``
holds this table to what the modules register).

The diagnostics path (lifecycle, settings, the refresh requests) is not here: it is registered
when the server is created.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from lsprotocol import types as lsp


class LazyFeature(NamedTuple):
    """A feature module (under ``gemstack_lsp.server``): its methods with their options, its commands."""

    module: str
    methods: tuple[tuple[str, Any], ...]
    commands: tuple[str, ...] = ()


#: The semantic tokens legend (``ide.semantic_tokens.LEGEND_TYPES`` and ``LEGEND_MODIFIERS``).
SEMANTIC_TOKENS_LEGEND = lsp.SemanticTokensLegend(
    token_types=["variable", "function", "event", "method", "class", "property", "enumMember"],
    token_modifiers=["declaration", "readonly"],
)

#: In the order ``app.create_server`` registered them when every module was loaded up front.
LAZY_FEATURES: tuple[LazyFeature, ...] = (
    LazyFeature("hover", ((lsp.TEXT_DOCUMENT_HOVER, None),)),
    LazyFeature(
        "actions",
        (
            (
                lsp.TEXT_DOCUMENT_CODE_ACTION,
                lsp.CodeActionOptions(
                    code_action_kinds=[
                        lsp.CodeActionKind.QuickFix,
                        lsp.CodeActionKind.Source,
                        "source.gemstack.regenerateCapsule",
                        "source.gemstack.verifyCapsule",
                        "source.gemstack.writePlan",
                    ],
                    resolve_provider=False,
                ),
            ),
        ),
    ),
    LazyFeature(
        "commands",
        (),
        (
            "gemstack.regenerateCapsule",
            "gemstack.verifyCapsule",
            "gemstack.checkWorkspace",
            "gemstack.writePlan",
            "gemstack.applyFix",
        ),
    ),
    LazyFeature("capsule_state", (("gemstack/capsuleState", None),)),
    LazyFeature("lens", ((lsp.TEXT_DOCUMENT_CODE_LENS, lsp.CodeLensOptions(resolve_provider=False)),)),
    LazyFeature(
        "navigation",
        (
            (lsp.TEXT_DOCUMENT_DEFINITION, None),
            (lsp.TEXT_DOCUMENT_REFERENCES, None),
            (lsp.TEXT_DOCUMENT_DOCUMENT_LINK, None),
            (lsp.WORKSPACE_SYMBOL, None),
        ),
    ),
    LazyFeature(
        "completion",
        ((lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=['"', "`", ",", "=", ":"])),),
    ),
    LazyFeature("symbols", ((lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL, None),)),
    LazyFeature(
        "semantic_tokens",
        (
            (lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, SEMANTIC_TOKENS_LEGEND),
            (lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA, SEMANTIC_TOKENS_LEGEND),
            (lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, SEMANTIC_TOKENS_LEGEND),
        ),
    ),
    LazyFeature("highlight", ((lsp.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT, None),)),
    LazyFeature("folding", ((lsp.TEXT_DOCUMENT_FOLDING_RANGE, None),)),
    LazyFeature("selection_range", ((lsp.TEXT_DOCUMENT_SELECTION_RANGE, None),)),
    LazyFeature(
        "rename",
        ((lsp.TEXT_DOCUMENT_PREPARE_RENAME, None), (lsp.TEXT_DOCUMENT_RENAME, None)),
        ("gemstack.renameFrozenContract",),
    ),
    LazyFeature("formatting", ((lsp.TEXT_DOCUMENT_FORMATTING, None), (lsp.TEXT_DOCUMENT_RANGE_FORMATTING, None))),
    LazyFeature("inlay_hints", ((lsp.TEXT_DOCUMENT_INLAY_HINT, None),)),
)
