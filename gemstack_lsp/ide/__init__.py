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

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from gemstack_lsp.ide.completion import Candidate, RepoFacts, complete, completions, repo_facts
    from gemstack_lsp.ide.hover import HoverInfo, HoverOptions, code_hover, hover
    from gemstack_lsp.ide.lens import LensInfo, code_lenses

#: The names of the features no diagnostic needs, by module: loaded on first use, so the server
#: answers ``initialize`` without them (navigation, outlines and symbols index every document
#: and are loaded with the session).
_LAZY: dict[str, tuple[str, ...]] = {
    "completion": ("Candidate", "RepoFacts", "complete", "completions", "repo_facts"),
    "hover": ("HoverInfo", "HoverOptions", "code_hover", "hover"),
    "lens": ("LensInfo", "code_lenses"),
}
_MODULE_OF = {name: module for module, names in _LAZY.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    loaded = importlib.import_module(f"{__name__}.{module}")
    package = sys.modules[__name__]
    for exported in _LAZY[module]:
        if exported not in package.__dict__:  # a test's monkeypatch stays in place
            package.__dict__[exported] = getattr(loaded, exported)
    return package.__dict__[name]


class _Package(types.ModuleType):
    """``ide.hover`` is the function, as when it was imported eagerly: importing the submodule
    ``gemstack_lsp.ide.hover`` (which sets the package's attribute of that name) leaves it so."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and name in _MODULE_OF:
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

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
