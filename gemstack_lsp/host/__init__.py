"""The analysis host: it owns every input and every derived datum of one repository.

Inputs are file contents (from the disk, or an editor buffer overriding the disk); derived
data are parsed documents, blocks, per-feature findings and the indexes the IDE layer needs.
``AnalysisHost.snapshot()`` hands out an immutable ``Snapshot`` of one revision: everything a
request or an analysis reads comes from it, so a worker thread can serve a hover while the
event loop applies the next edit. Nothing here knows LSP.
"""

from __future__ import annotations

from gemstack_lsp.host.analysis import AnalysisHost
from gemstack_lsp.host.snapshot import Snapshot

__all__ = ["AnalysisHost", "Snapshot"]
