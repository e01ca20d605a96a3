"""Random repositories: Markdown with random Gemstack fences and JSON-ish bodies never crash analysis.

Hypothesis builds spec.md, plan.md, tasks.md and state.json from fragments chosen to hit the
parsers' edges (fence forms and containers, broken and valid JSON, non-ASCII, line ends, BOMs
and invalid bytes). ``analyze`` must never raise, never report GEMSTACK_INTERNAL_ERROR, and every
finding must lie inside its document.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corpus.cases.common import KINDS, PARSE_CODE, VALID_ENTRY
from gemstack_lsp.core.markdown import scan_fences
from gemstack_lsp.core.reader import MemoryReader
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.report import finding_range

FEATURE = "specs/001-demo"
#: Block finding codes and the kind of block each must lie in.
_IN_BLOCK = {
    **{code: kind for kind, code in PARSE_CODE.items()},
    "CONTRACT_INVALID_SHAPE": "gemstack-contracts",
    "CONTRACT_UNKNOWN_TYPE": "gemstack-contracts",
    "CONTRACT_DUPLICATE_ID": "gemstack-contracts",
    "TEST_MATRIX_INVALID_SHAPE": "gemstack-test-matrix",
    "TEST_MATRIX_DUPLICATE_ID": "gemstack-test-matrix",
    "DUPLICATE_TEST_BINDING": "gemstack-test-bindings",
}

_TEXT = st.text(alphabet="abcé─≠😀 \t#*-_>`~<!\\\"'[]{}:,", max_size=30)

_JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet='aé😀"\\ \t-_TESTDEMO0123456789', max_size=12)
    | st.sampled_from(["ENUM_SET", "BOUNDARY", "FORBIDDEN", "REQUIRED", "UNIT", "TEST-DEMO-A01", "PACKAGE_SCRIPT"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["id", "type", "value", "values", "entity", "test_id", "file", "gate", "layer", "x"]),
            inner,
            max_size=5,
        )
    ),
    max_leaves=12,
)

_JSON_TOKENS = st.sampled_from(
    [
        "[",
        "]",
        "{",
        "}",
        ",",
        ":",
        '"',
        '"id"',
        '"a"',
        "'x'",
        "NaN",
        "-Infinity",
        "1",
        "-0.5e3",
        "01",
        "true",
        "nul",
        "null",
        "// c",
        "/* c */",
        " ",
        "\t",
        "\n",
        "\\u12",
        "\\",
        "\x00",
        "é",
        "😀",
        "\u2028",
    ]
)


@st.composite
def json_body(draw: st.DrawFn) -> str:
    """Valid JSON, valid JSON cut short (typing), or a soup of JSON tokens."""
    how = draw(st.sampled_from(["valid", "entry", "truncated", "soup"]))
    if how == "entry":
        return "[\n" + VALID_ENTRY[draw(st.sampled_from(KINDS))] + "\n]"
    text = json.dumps(draw(_JSON_VALUES), indent=draw(st.sampled_from([None, 2])), ensure_ascii=draw(st.booleans()))
    if how == "valid":
        return text
    if how == "truncated":
        return text[: draw(st.integers(0, len(text)))]
    return "".join(draw(st.lists(_JSON_TOKENS, max_size=25)))


@st.composite
def fence_block(draw: st.DrawFn) -> list[str]:
    prefix = draw(st.sampled_from(["", " ", "   ", "    ", "\t", "> ", "- ", "1. ", ">   ", "> - "]))
    marker = draw(st.sampled_from(["```", "~~~", "````", "``"]))
    kind = draw(st.sampled_from([*KINDS, "gemstack-unknown", "json", ""]))
    info = kind + draw(st.sampled_from(["", "", " json", "\u00a0", "   ", "`"]))
    body = draw(json_body()).split("\n")
    body_prefix = draw(st.sampled_from([prefix, "", "  "]))
    close = draw(st.sampled_from([marker, "```", "~~~", "````", " ```", "", None]))
    lines = [prefix + marker + info, *[body_prefix + b for b in body]]
    if close is not None:
        lines.append(prefix + close)
    return lines


@st.composite
def markdown(draw: st.DrawFn) -> str:
    parts: list[str] = []
    for _ in range(draw(st.integers(0, 5))):
        choice = draw(st.sampled_from(["prose", "fence", "fence", "task", "comment", "blank"]))
        if choice == "prose":
            parts.append(draw(_TEXT))
        elif choice == "fence":
            parts.extend(draw(fence_block()))
        elif choice == "task":
            tid = draw(st.sampled_from(["T001", "UD-T002", "T 3", "T001"]))
            parts.append(
                f"{draw(st.sampled_from(['-', '*', ' -']))} [{draw(st.sampled_from([' ', 'x', 'X']))}] **{tid}: t**"
            )
        elif choice == "comment":
            kind = draw(
                st.sampled_from(
                    [
                        "validation_required=true",
                        "validation_required=false",
                        "tests=a, b",
                        "files=x",
                        "depends=",
                        "actions=a",
                    ]
                )
            )
            parts.append(f"  <!-- gemstack:{kind} -->")
        else:
            parts.append("")
    eol = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    return eol.join(parts) + draw(st.sampled_from(["", eol]))


@st.composite
def raw_file(draw: st.DrawFn, text: st.SearchStrategy[str]) -> bytes:
    data = draw(text).encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 9)) == 0:
        data = b"\xef\xbb\xbf" + data
    if data and draw(st.integers(0, 9)) == 0:
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b"\xff", b"\xe2\x82", b"\xc0\xaf", b"\xed\xa0\x80"])) + data[at:]
    return data


@st.composite
def repository(draw: st.DrawFn) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for name in ("spec.md", "plan.md", "tasks.md"):
        if draw(st.integers(0, 4)):
            files[f"{FEATURE}/{name}"] = draw(raw_file(markdown()))
    if draw(st.booleans()):
        state = (
            st.sampled_from(
                ['{"active_spec": "specs/001-demo"}', '{"active_spec": "../x"}', '{"active_spec": "specs/9"}', "{"]
            )
            | json_body()
        )
        files[".gemstack/state.json"] = draw(raw_file(state))
    files.setdefault("specs/README.md", b"")
    return files


@settings(
    max_examples=300, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(repository())
def test_random_repositories_never_crash_analysis(files: dict[str, bytes]) -> None:
    repo = GemstackRepo("/nowhere/repo", MemoryReader(files))
    findings = analyze(repo)
    internal = [f.message for f in findings if f.code == "GEMSTACK_INTERNAL_ERROR"]
    assert not internal, internal
    for f in findings:
        start, end = finding_range(repo, f)
        assert (start.line, start.character) <= (end.line, end.character)
        source = repo.document(f.path).source
        if f.span is not None and source is not None:
            assert f.span.end <= len(source.text), (f.code, f.span, len(source.text))
            kind = _IN_BLOCK.get(f.code)
            if kind is not None and f.path.endswith(".md"):
                # A block's finding lies inside a block of its kind (its fence lines included).
                fences = [x for x in scan_fences(source.text) if x.kind == kind]
                assert any(
                    x.span.start <= f.span.start and f.span.end <= max(x.span.end, x.open_span.end) for x in fences
                ), (
                    f.code,
                    f.span,
                )
