"""The IDE layer: what the editor features show, as plain data computed from a snapshot.

Hover, completion, navigation (definition, references, document links), symbols (document
outlines, workspace symbols) and code lenses, each a function of a ``gemstack_lsp.host``
``Snapshot`` and a repository-relative path, returning frozen dataclasses whose spans are
``Span`` offsets into the document's text. Nothing here knows LSP: ``gemstack_lsp.server``
converts these values for the client. The indexes the features share (the occurrence index,
each document's outline and blocks, the repository facts completion offers, the list of
workspace symbols) are built once per revision through ``Snapshot.derived``; what is a pure
function of one document's text is ``per_text`` and so survives the edits of other files.
"""

from __future__ import annotations

from gemstack_lsp.ide.completion import Candidate, RepoFacts, complete, completions, repo_facts
from gemstack_lsp.ide.hover import HoverInfo, HoverOptions, code_hover, hover
from gemstack_lsp.ide.lens import LensInfo, code_lenses
from gemstack_lsp.ide.navigation import (
    Occurrence,
    OccurrenceIndex,
    definitions,
    document_links,
    occurrence_index,
    references,
    target_at,
)
from gemstack_lsp.ide.outline import OutlineItem, document_outline, outline
from gemstack_lsp.ide.symbols import SymbolEntry, all_symbols, workspace_symbols

__all__ = [
    "Candidate",
    "HoverInfo",
    "HoverOptions",
    "LensInfo",
    "Occurrence",
    "OccurrenceIndex",
    "OutlineItem",
    "RepoFacts",
    "SymbolEntry",
    "all_symbols",
    "code_hover",
    "code_lenses",
    "complete",
    "completions",
    "definitions",
    "document_links",
    "document_outline",
    "hover",
    "occurrence_index",
    "outline",
    "references",
    "repo_facts",
    "target_at",
    "workspace_symbols",
]
