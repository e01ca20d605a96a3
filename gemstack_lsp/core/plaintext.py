"""Markdown as readable plain text, for clients whose hovers do not render Markdown.

Handles what the server's own hovers use: bold and italic markers, inline code, links,
headings, fenced code, horizontal rules, backslash escapes and pipe tables (laid out in
aligned columns). Anything else passes through unchanged.
"""

from __future__ import annotations

import re

from gemstack_lsp.core.printable import printable

_FENCE = re.compile(r"^\s*(```|~~~)")
_RULE = re.compile(r"^\s*([-*_])(\s*\1){2,}\s*$")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+")
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$")
_LINK = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")
_BOLD = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_ITALIC = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])")
_CODE = re.compile(r"(`+)(.+?)\1")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~])")

RULE_TEXT = "-" * 40


#: The longest line whose inline markup is rewritten. The markup expressions backtrack (code
#: spans cubically on a run of backticks), so a longer line, which only a repository's own text
#: can make, keeps its markers as written: the cost of a hover stays linear in its length.
INLINE_LIMIT = 400


def _inline(text: str) -> str:
    if len(text) > INLINE_LIMIT:
        return text
    # Inline code is literal (no emphasis inside it), but emphasis may span it
    # ("**Action `a1`**"): set the code aside, strip the markers, then put it back.
    codes: list[str] = []

    def aside(m: re.Match[str]) -> str:
        codes.append(m.group(2).strip() or m.group(2))
        return f"\x00{len(codes) - 1}\x00"

    text = _emphasis(_CODE.sub(aside, text))
    return re.sub("\x00(\\d+)\x00", lambda m: codes[int(m.group(1))], text)


def _emphasis(text: str) -> str:
    text = _LINK.sub(lambda m: m.group(1) if m.group(1) == m.group(2) else f"{m.group(1)} ({m.group(2)})", text)
    text = _BOLD.sub(r"\2", text)
    text = _ITALIC.sub(r"\1", text)
    return _ESCAPE.sub(r"\1", text)


def _cells(row: str) -> list[str]:
    """The cells of a pipe-table row (escaped pipes stay inside their cell)."""
    body = row.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    cells: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body) and body[i + 1] == "|":
            current.append("\\|")
            i += 2
            continue
        if ch == "|":
            cells.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    cells.append("".join(current))
    return [_inline(c.strip()) for c in cells]


def _table(rows: list[str]) -> list[str]:
    grid = [_cells(r) for r in rows if not _TABLE_SEPARATOR.match(r)]
    width = max(len(r) for r in grid)
    for r in grid:
        r.extend([""] * (width - len(r)))
    sizes = [max(len(r[c]) for r in grid) for c in range(width)]
    return ["  ".join(cell.ljust(sizes[c]) for c, cell in enumerate(r)).rstrip() for r in grid]


def _is_table_row(line: str) -> bool:
    return line.lstrip().startswith("|")


def markdown_to_plaintext(markdown: str) -> str:
    """``markdown`` as plain text a person reads without a Markdown renderer. Control
    characters and terminal escapes a repository put in it are escaped (``printable``)."""
    lines = printable(markdown, keep_lines=True).splitlines()
    out: list[str] = []
    i = 0
    in_fence = False
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            in_fence = not in_fence
            i += 1
            continue
        if in_fence:
            out.append("    " + line)
            i += 1
            continue
        if _is_table_row(line):
            j = i
            while j < len(lines) and _is_table_row(lines[j]):
                j += 1
            out.extend(_table(lines[i:j]))
            i = j
            continue
        if _RULE.match(line):
            out.append(RULE_TEXT)
        elif m := _HEADING.match(line):
            # ``(.*?)\s*#*\s*$`` as code: one expression was quadratic on a long `` #`` run.
            out.append(_inline(line[m.end() :].rstrip().rstrip("#").rstrip()))
        else:
            out.append(_inline(line))
        i += 1
    return "\n".join(out)
