"""Property tests: no Markdown or JSON-ish text makes the scanner, the JSON parser or blocks_of raise."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gemstack_lsp.core.blocks import blocks_of
from gemstack_lsp.core.jscompat import JS_WHITESPACE
from gemstack_lsp.core.jsonspan import iter_nodes, locate, parse_json
from gemstack_lsp.core.markdown import reference_blocks, reference_only_blocks, scan_fences

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

KINDS = [
    "gemstack-contracts",
    "gemstack-test-matrix",
    "gemstack-test-bindings",
    "gemstack-closure-gates",
    "gemstack-billable-actions",
    "gemstack-capabilities",
    "json",
    "",
]

markdown_line = st.one_of(
    st.sampled_from(
        [
            "```",
            "~~~",
            "````",
            "    ```",
            "> ```",
            "- ```",
            "1. ",
            "> ",
            "   ~~~ x",
            "",
            " ",
            "\t```",
            "<!--",
            "-->",
            "<div>",
            "# h",
            "---",
            "* * *",
            "[",
            "]",
            "{",
            "}",
            "  - a",
        ]
    ),
    st.builds(
        lambda p, k: p + k, st.sampled_from(["```", "~~~", " ```", "> ```", "- ```", "````"]), st.sampled_from(KINDS)
    ),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=20),
)
markdown = st.builds(
    lambda lines, eol: eol.join(lines),
    st.lists(markdown_line, max_size=30),
    st.sampled_from(["\n", "\r\n", "\r"]),
)

json_token = st.sampled_from(
    [
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        '"a"',
        '"≠"',
        '"😀"',
        '"\\u00e9"',
        '"\\x"',
        "1",
        "-0.5e3",
        "true",
        "null",
        "NaN",
        "'q'",
        "//",
        "/*",
        " ",
        "\n",
        "\t",
        '"',
        "\\",
        "01",
        "-",
        '"\x01"',
    ]
)
json_ish = st.one_of(
    st.builds("".join, st.lists(json_token, max_size=40)),
    st.text(max_size=60),
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=20,
)


@SETTINGS
@given(markdown)
def test_scan_fences_never_raises_and_maps_offsets_inside_the_text(text: str) -> None:
    for f in scan_fences(text):
        assert 0 <= f.open_span.start <= f.open_span.end <= len(text)
        for i in range(len(f.body) + 1):
            assert 0 <= f.body_offset_to_doc(i) <= len(text)
    for kind in KINDS[:6]:
        for b in reference_blocks(text, kind):
            assert b.open_line < b.close_line
    reference_only_blocks(text)


@SETTINGS
@given(json_ish, st.integers(0, 5))
def test_parse_json_never_raises_and_spans_stay_in_range(text: str, base: int) -> None:
    result = parse_json(text, base)
    assert len(result.errors) <= 1
    strict_ok = True
    try:
        json.loads(text, parse_constant=_reject)
    except (ValueError, RecursionError):
        strict_ok = False
    assert result.ok == strict_ok
    for node in iter_nodes(result.value):
        assert base <= node.span.start <= node.span.end <= base + len(text)
    for err in result.errors:
        assert base <= err.span.start <= err.span.end <= base + len(text)
    for offset in range(base, base + len(text) + 1):
        locate(result.value, offset)


def _reject(name: str) -> Any:
    raise ValueError(name)


@SETTINGS
@given(json_values)
def test_parse_json_agrees_with_json_loads(value: Any) -> None:
    for text in (json.dumps(value), json.dumps(value, indent=2, ensure_ascii=False)):
        result = parse_json(text)
        assert result.ok
        assert result.value is not None and result.value.to_python() == json.loads(text)


@SETTINGS
@given(markdown, st.sampled_from(["specs/x/spec.md", "specs/x/plan.md"]))
def test_blocks_of_never_raises(text: str, path: str) -> None:
    blocks = blocks_of(path, text)
    for f in blocks.findings:
        assert f.code != "GEMSTACK_INTERNAL_ERROR", f.message
        if f.span is not None:
            assert 0 <= f.span.start <= f.span.end <= len(text)


block_body = st.one_of(json_ish, json_values.map(json.dumps))


@SETTINGS
@given(st.sampled_from(KINDS[:6]), block_body, st.sampled_from(["", "> ", "  "]))
def test_blocks_of_never_raises_on_block_bodies(kind: str, body: str, prefix: str) -> None:
    lines = [f"{prefix}```{kind}", *(prefix + line for line in body.split("\n")), f"{prefix}```"]
    text = "# Doc\n\n" + "\n".join(lines) + "\n"
    blocks = blocks_of("specs/x/spec.md", text)
    for f in blocks.findings:
        assert f.code != "GEMSTACK_INTERNAL_ERROR", f.message


@SETTINGS
@given(markdown)
def test_reference_visibility_is_consistent(text: str) -> None:
    fences = scan_fences(text)
    warned = {f.span.start for f in blocks_of("specs/x/spec.md", text).fence_findings if f.span is not None}
    for kind in KINDS[:4]:
        refs = reference_blocks(text, kind)
        for f in fences:
            if f.kind != kind:
                continue
            if f.reference_visible:
                (ref,) = [r for r in refs if r.open_line == f.open_line]
                assert ref.close_line == f.close_line
                assert ref.json_text == f.body.strip(JS_WHITESPACE)
            else:
                assert f.open_span.start in warned
        for r in refs:
            seen = any(f.kind == kind and f.reference_visible and f.open_line == r.open_line for f in fences)
            assert seen or r.open_span.start in warned
