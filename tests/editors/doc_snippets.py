"""The editor setups exactly as docs/editors.md shows them, so that the tests run what the
documentation says (and a change to one without the other fails)."""

from __future__ import annotations

import re
from pathlib import Path

EDITORS_DOC = Path(__file__).resolve().parents[2] / "docs" / "editors.md"


def section(heading: str, doc: Path = EDITORS_DOC) -> str:
    """The text under the Markdown heading ``heading`` (e.g. ``### Helix``), up to the next
    heading of the same or a higher level."""
    level = len(heading) - len(heading.lstrip("#"))
    lines = doc.read_text("utf-8").splitlines()
    try:
        start = lines.index(heading) + 1
    except ValueError:
        raise AssertionError(f"{doc} has no heading {heading!r}") from None
    end = len(lines)
    for n in range(start, len(lines)):
        m = re.match(r"(#+) ", lines[n])
        if m and len(m.group(1)) <= level:
            end = n
            break
    return "\n".join(lines[start:end])


def snippet(heading: str, language: str, doc: Path = EDITORS_DOC) -> str:
    """The one fenced block of ``language`` under ``heading``; more or fewer is an error, so a
    test never picks the wrong one."""
    blocks = re.findall(rf"^```{re.escape(language)}\n(.*?)^```$", section(heading, doc), re.M | re.S)
    assert len(blocks) == 1, f"{doc}: {len(blocks)} ```{language} blocks under {heading!r}, expected one"
    return str(blocks[0])
