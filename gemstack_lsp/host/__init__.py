"""The analysis host: it owns every input and every derived datum of one repository.

Inputs are file contents (from the disk, or an editor buffer overriding the disk); derived
data are parsed documents, blocks, per-feature findings and the indexes the IDE layer needs.
``AnalysisHost.snapshot()`` hands out an immutable ``Snapshot`` of one revision: everything a
request or an analysis reads comes from it, so a worker thread can serve a hover while the
event loop applies the next edit. Nothing here knows LSP.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gemstack_lsp.host.analysis import AnalysisHost
    from gemstack_lsp.host.snapshot import Snapshot

__all__ = ["AnalysisHost", "Snapshot"]


def __getattr__(name: str) -> Any:
    """``AnalysisHost`` and ``Snapshot``, imported on first use: the language server imports
    ``host.cancel`` and annotates with ``Snapshot`` before ``initialize``, and the analysis
    modules are loaded after its answer."""
    if name == "AnalysisHost":
        from gemstack_lsp.host.analysis import AnalysisHost

        return AnalysisHost
    if name == "Snapshot":
        from gemstack_lsp.host.snapshot import Snapshot

        return Snapshot
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
