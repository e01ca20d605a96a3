"""Files as bytes: BOMs, invalid UTF-8, line endings, size, symlinks, directories, garbage."""

from __future__ import annotations

from corpus.cases.common import CONTRACT, FEATURE, PLAN, SPEC, TASKS, doc
from corpus.harness import Case, Directory, Symlink

ENCODING = "ARTIFACT_ENCODING_INVALID"
UNREADABLE = "ARTIFACT_UNREADABLE"
PARSE = "CONTRACT_PARSE_ERROR"
UNSEEN = "FENCE_UNSEEN_BY_REFERENCE"
BOM = b"\xef\xbb\xbf"

_BROKEN = doc("# Demo", "", "```gemstack-contracts", "[", '  {"a": 1},', "]", "```")
#: Where _BROKEN's error is.
_BROKEN_AT = (4, 10)

CASES: list[Case] = [
    Case("spec-bom", {SPEC: BOM + _BROKEN.encode()}, ((ENCODING, SPEC, 0, 0), (PARSE, SPEC, *_BROKEN_AT))),
    Case("plan-bom-only", {PLAN: BOM + b"# Plan\n"}, ((ENCODING, PLAN, 0, 0),)),
    Case(
        # The rest of the file is still analysed after the bad byte.
        "spec-invalid-utf8-prose",
        {SPEC: b"# Demo\nCaf\xe9 ok\n" + _BROKEN.encode()},
        ((ENCODING, SPEC, 1, 3), (PARSE, SPEC, _BROKEN_AT[0] + 2, _BROKEN_AT[1])),
    ),
    Case(
        "spec-invalid-utf8-in-json-string",
        {SPEC: b'# Demo\n```gemstack-contracts\n["caf\xe9", NaN]\n```\n'},
        ((ENCODING, SPEC, 2, 5), (PARSE, SPEC, 2, 9)),
    ),
    Case(
        # After an emoji (two UTF-16 units) on the same line.
        "spec-invalid-utf8-after-emoji",
        {SPEC: "# 😀".encode() + b"\xff rest\n"},
        ((ENCODING, SPEC, 0, 4),),
    ),
    Case("spec-truncated-utf8-at-end", {SPEC: b"# Demo\nabc\xe2\x82"}, ((ENCODING, SPEC, 1, 3),)),
    Case("spec-bom-and-invalid-utf8", {SPEC: BOM + b"ab\n\xc0\xaf"}, ((ENCODING, SPEC, 0, 0), (ENCODING, SPEC, 1, 0))),
    Case("tasks-invalid-utf8", {TASKS: b"# T\xe2che\n"}, ((ENCODING, TASKS, 0, 3),)),
    # Line endings: \r\n and a lone \r end lines, as LSP counts them.
    Case(
        "spec-crlf",
        {SPEC: _BROKEN.replace("\n", "\r\n")},
        ((PARSE, SPEC, *_BROKEN_AT),),
    ),
    Case("spec-cr-only", {SPEC: _BROKEN.replace("\n", "\r")}, ((PARSE, SPEC, *_BROKEN_AT),)),
    Case(
        "spec-mixed-line-endings",
        {SPEC: "# Demo\r\n\n\r```gemstack-contracts\r\n[\n" + '  {"a": NaN}\r\n]\r```\n'},
        ((PARSE, SPEC, 5, 8),),
    ),
    Case(
        "spec-crlf-blockquote-non-ascii",
        {SPEC: doc("# Dé", "> ```gemstack-contracts", '> ["😀", 1,]', "> ```", eol="\r\n")},
        # `> ["😀", 1,]`: the comma after 1 is at 2 + 1 + 4 + 1 + 1 + 1 units.
        ((UNSEEN, SPEC, 1, 0), (PARSE, SPEC, 2, 10)),
    ),
    Case(
        "spec-crlf-valid",
        {SPEC: doc("# Demo", "```gemstack-contracts", "[", CONTRACT, "]", "```", eol="\r\n")},
    ),
    # Files that cannot be analysed: a finding on the file, and nothing read from it.
    Case(
        "spec-symlink-outside",
        {SPEC: Symlink("secret.md", outside=True)},
        ((UNREADABLE, SPEC, 0, 0),),
        outside={"secret.md": _BROKEN},
    ),
    Case(
        "spec-symlink-parent-escape",
        {SPEC: Symlink("../../../outside/secret.md")},
        ((UNREADABLE, SPEC, 0, 0),),
        outside={"secret.md": _BROKEN},
    ),
    Case(
        # A link that stays inside the repository is followed: the findings are the link's.
        "spec-symlink-inside",
        {SPEC: Symlink("../../docs/real.md"), "docs/real.md": _BROKEN},
        ((PARSE, SPEC, *_BROKEN_AT),),
    ),
    Case("spec-symlink-loop", {SPEC: Symlink("spec.md")}, ((UNREADABLE, SPEC, 0, 0),)),
    Case("spec-directory", {SPEC: Directory()}, ((UNREADABLE, SPEC, 0, 0),)),
    Case("plan-directory", {f"{PLAN}/inner.md": _BROKEN}, ((UNREADABLE, PLAN, 0, 0),)),
    Case("spec-too-large", {SPEC: b"x" * (16 * 1024 * 1024 + 1)}, ((UNREADABLE, SPEC, 0, 0),)),
    Case("spec-empty", {SPEC: b"", PLAN: b"", TASKS: b""}),
    Case("spec-only-newlines", {SPEC: "\n\n\r\n\r"}),
    Case("feature-without-spec", {PLAN: doc("# Plan", "```gemstack-contracts", "[", CONTRACT, "]", "```")}),
    Case("feature-empty-folder", {FEATURE: Directory()}),
    Case("hidden-feature-ignored", {"specs/.draft/spec.md": _BROKEN}),
    Case("file-directly-in-specs", {"specs/README.md": _BROKEN}),
    Case("no-specs-only-state", {".gemstack/state.json": "{}"}),
    # Binary garbage: only the encoding finding, at the first invalid byte.
    Case(
        # Bytes 0-127 are valid UTF-8 (with \n at 10 and \r at 13 ending lines); 0x80 at byte
        # 128 is the first invalid one: line 2, which starts at byte 14.
        "spec-binary-every-byte",
        {SPEC: bytes(range(256)) * 4},
        ((ENCODING, SPEC, 2, 114),),
    ),
    Case(
        "spec-binary-png",
        {SPEC: b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(200, 256))},
        ((ENCODING, SPEC, 0, 0),),
    ),
    Case("spec-nul-bytes", {SPEC: b"\x00" * 4096}),
    Case(
        "spec-garbage-fence-body",
        {SPEC: b"```gemstack-contracts\n\x00\x01\x02\n```\n"},
        ((PARSE, SPEC, 1, 0),),
    ),
]
