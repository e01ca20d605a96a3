"""A feature folder whose name looks like a secret: reported, never rewritten.

Paths are structure: every URI and location the tool prints names the real file, so a folder
that merely looks like a key (``task-management-service-api``) keeps working everywhere. A
folder whose name holds what an audit calls a secret would be printed with every finding in
it, so it is reported once, on the feature, without quoting the value (the message is
redacted like every other).
"""

from __future__ import annotations

from gemstack_lsp.core.feature import Feature
from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.secretpatterns import secret_spans

CODE = "PATH_LOOKS_SECRET"


def feature_path_findings(feature: Feature) -> list[Finding]:
    """``PATH_LOOKS_SECRET`` on the feature's spec.md when its folder name looks like a secret."""
    spans = secret_spans(feature.name)
    if not spans:
        return []
    kinds = sorted({span.kind for span in spans})
    return [
        Finding(
            CODE,
            f"The name of the feature folder {feature.path} looks like a secret ({', '.join(kinds)}). "
            "Paths are shown and linked as they are (never redacted), so every finding of this feature "
            "repeats it: rename the folder if it holds a real credential.",
            feature.spec,
        )
    ]
