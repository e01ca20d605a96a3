"""tasks.md validation declarations, and .gemstack/state.json."""

from __future__ import annotations

from corpus.cases.common import FEATURE, SPEC, STATE, TASKS, col, doc
from corpus.harness import Case

MISSING = "TASK_VALIDATION_MISSING"
SPEC_DOC = doc("# Demo", "", "Nothing frozen yet.")

CASES: list[Case] = [
    Case(
        "tasks-valid",
        {
            TASKS: doc(
                "# Tasks",
                "- [ ] **T001: Write it**",
                "  <!-- gemstack:validation_required=false -->",
                "- [x] **UD-T002: Test it**",
                "  <!-- gemstack:validation_required=true -->",
                "  <!-- gemstack:tests=TEST-DEMO-A01, TEST-DEMO-A02 -->",
            )
        },
    ),
    Case(
        "tasks-without-validation",
        {
            TASKS: doc(
                "# Tasks",
                "",
                "- [ ] **T001: No declaration**",
                "  Some words.",
                "* [X] **T002: Star bullet, none either**",
                "- [ ] **T003: Declared**",
                "  <!-- gemstack:validation_required=false -->",
            )
        },
        ((MISSING, TASKS, 2, 0), (MISSING, TASKS, 4, 0)),
    ),
    Case(
        "tasks-required-without-tests",
        {
            TASKS: doc(
                "- [ ] **T001: Needs tests**",
                "  <!-- gemstack:validation_required=true -->",
                "  <!-- gemstack:tests= , -->",
            )
        },
        ((MISSING, TASKS, 0, 0),),
    ),
    Case(
        # A malformed value is no declaration at all.
        "tasks-validation-typo",
        {TASKS: doc("- [ ] **T001: Typo**", "  <!-- gemstack:validation_required=yes -->")},
        ((MISSING, TASKS, 0, 0),),
    ),
    Case(
        # The declaration belongs to the task above it: the next header starts a new task.
        "tasks-declaration-under-next-header",
        {
            TASKS: doc(
                "- [ ] **T001: First**",
                "- [ ] **T002: Second**",
                "  <!-- gemstack:validation_required=false -->",
            )
        },
        ((MISSING, TASKS, 0, 0),),
    ),
    Case(
        # Not a task header: indented, or without the bold id.
        "tasks-not-headers",
        {
            ".gemstack/state.json": "{}",
            TASKS: doc("  - [ ] **T001: Indented**", "- [ ] T002: not bold", "- [ ] **T 3: space in id**"),
        },
        # The reference sees no task at all: an information finding on the first item says so
        # (in a Gemstack repository: .gemstack/ is there).
        (("TASKS_UNREAD_BY_REFERENCE", TASKS, 0, 0),),
    ),
    Case(
        # JavaScript's \s takes a no-break space: still a header.
        "tasks-nbsp-header",
        {TASKS: doc("-\u00a0[ ]\u00a0**T001: x**")},
        ((MISSING, TASKS, 0, 0),),
    ),
    Case(
        # One comment per line, validation_required tried first: the tests comment before it is lost.
        "tasks-two-comments-one-line",
        {
            TASKS: doc(
                "- [ ] **T001: x**",
                "  <!-- gemstack:tests=TEST-A-B --> <!-- gemstack:validation_required=true -->",
            )
        },
        ((MISSING, TASKS, 0, 0),),
    ),
    Case(
        # Comments count only on the lines after the header.
        "tasks-comment-on-header-line",
        {TASKS: doc("- [ ] **T001: x** <!-- gemstack:validation_required=false -->")},
        ((MISSING, TASKS, 0, 0),),
    ),
    Case(
        "tasks-later-comment-replaces",
        {
            TASKS: doc(
                "- [ ] **T001: x**",
                "  <!-- gemstack:validation_required=false -->",
                "  <!-- gemstack:validation_required=true -->",
            )
        },
        ((MISSING, TASKS, 0, 0),),
    ),
    Case(
        # U+2028 ends neither an LSP line nor the reference's line, but JavaScript's "." stops at
        # it: no header there. The next task is on line 2.
        "tasks-line-separator-in-title",
        {
            TASKS: doc(
                "- [ ] **T001: a\u2028b**",
                "  <!-- gemstack:validation_required=false -->",
                "- [ ] **T002: 😀 t**",
            )
        },
        ((MISSING, TASKS, 2, 0),),
    ),
    Case(
        # The reference knows no Markdown: a header inside a code block is a task too.
        "tasks-header-in-code-block",
        {TASKS: doc("```", "- [ ] **T001: x**", "```")},
        ((MISSING, TASKS, 1, 0),),
    ),
    Case(
        "tasks-lone-cr",
        {TASKS: "# T\r- [ ] **T001: x**\r  <!-- gemstack:validation_required=false -->\r- [ ] **T002: y**"},
        ((MISSING, TASKS, 3, 0),),
    ),
    Case(
        "tasks-crlf",
        {
            TASKS: doc(
                "# Tasks",
                "- [ ] **T001: One**",
                "- [ ] **T002: Two**",
                "  <!-- gemstack:validation_required=false -->",
                eol="\r\n",
            )
        },
        ((MISSING, TASKS, 1, 0),),
    ),
]

# ----------------------------------------------------------------------------------------------
# state.json

INVALID = "STATE_INVALID"
ACTIVE_MISSING = "STATE_ACTIVE_SPEC_MISSING"
ENCODING = "ARTIFACT_ENCODING_INVALID"

_ok_state = '{"active_spec": "specs/001-demo", "current_phase": "spec"}'
_nowhere = '{"active_spec": "specs/404-gone"}'
_outside = '{\n  "active_spec": "../elsewhere"\n}'
_not_feature = '{"active_spec": "docs/001-demo"}'
_wrong_types = '{"active_spec": 3, "current_phase": null, "completed_phases": ["spec", 2], "phase_hashes": []}'
_names_file = '{"active_spec": "specs/001-demo/spec.md"}'
_dup = '{"status": "A", "status": "B"}'

CASES += [
    Case("state-valid", {STATE: _ok_state, SPEC: SPEC_DOC}),
    Case("state-empty-object", {STATE: "{}"}),
    Case(
        "state-trailing-comma",
        {STATE: '{\n  "active_spec": "specs/001-demo",\n}\n', SPEC: SPEC_DOC},
        ((INVALID, STATE, 1, col('  "active_spec": "specs/001-demo",', ",")),),
    ),
    Case("state-truncated", {STATE: '{"active_spec": "specs/0', SPEC: SPEC_DOC}, ((INVALID, STATE, 0, 16),)),
    Case("state-empty-file", {STATE: ""}, ((INVALID, STATE, 0, 0),)),
    Case("state-array", {STATE: "[]"}, ((INVALID, STATE, 0, 0),)),
    Case("state-bom", {STATE: b"\xef\xbb\xbf" + _ok_state.encode(), SPEC: SPEC_DOC}, ((ENCODING, STATE, 0, 0),)),
    Case(
        # The invalid byte is inside a string: the JSON still parses (as U+FFFD), the encoding is reported.
        "state-invalid-utf8",
        {STATE: b'{\n  "status": "caf\xe9",\n  "active_spec": "specs/001-demo"\n}', SPEC: SPEC_DOC},
        ((ENCODING, STATE, 1, 16),),
    ),
    Case(
        "state-invalid-utf8-outside-string",
        {STATE: b'{\xff"a": 1}'},
        ((ENCODING, STATE, 0, 1), (INVALID, STATE, 0, 1)),
    ),
    Case(
        # NUL first (valid UTF-8, invalid JSON), then 0x80 at byte 128 on line 2 (from byte 14).
        "state-binary-garbage",
        {STATE: bytes(range(256))},
        ((INVALID, STATE, 0, 0), (ENCODING, STATE, 2, 114)),
    ),
    Case(
        # The reference cannot read a state.json with a BOM: no active feature, no hash check.
        "state-bom-hides-phase-hashes",
        {
            STATE: b'\xef\xbb\xbf{"active_spec": "specs/001-demo", "phase_hashes": {"spec": "00"}}',
            SPEC: doc("```gemstack-contracts", "[]", "```"),
        },
        ((ENCODING, STATE, 0, 0),),
    ),
    Case("state-double-bom", {STATE: b"\xef\xbb\xbf\xef\xbb\xbf{}"}, ((ENCODING, STATE, 0, 0), (INVALID, STATE, 0, 0))),
    Case("state-nul-in-string", {STATE: b'{"a": "\x00"}'}, ((INVALID, STATE, 0, 7),)),
    Case("state-crlf-wrong-type", {STATE: b'{\r\n  "active_spec": 3\r\n}'}, ((INVALID, STATE, 1, 17),)),
    Case("state-active-spec-nowhere", {STATE: _nowhere}, ((ACTIVE_MISSING, STATE, 0, col(_nowhere, '"specs/404')),)),
    Case(
        # A folder without spec.md is no active spec either.
        "state-active-spec-without-spec-md",
        {STATE: _ok_state, f"{FEATURE}/plan.md": "# Plan\n"},
        ((ACTIVE_MISSING, STATE, 0, col(_ok_state, '"specs/001')),),
    ),
    Case(
        # A path to a file is not a feature folder, and there is no spec.md beneath a file.
        "state-active-spec-names-a-file",
        {STATE: _names_file, SPEC: SPEC_DOC},
        ((INVALID, STATE, 0, col(_names_file, '"specs')), (ACTIVE_MISSING, STATE, 0, col(_names_file, '"specs'))),
    ),
    Case("state-active-spec-outside", {STATE: _outside}, ((INVALID, STATE, 1, 17),)),
    Case(
        "state-active-spec-not-a-feature",
        {STATE: _not_feature},
        ((INVALID, STATE, 0, col(_not_feature, '"docs')), (ACTIVE_MISSING, STATE, 0, col(_not_feature, '"docs'))),
    ),
    Case(
        "state-wrong-types",
        {STATE: _wrong_types},
        (
            # Hints: the reference never type-checks state.json; null is what Gemstack writes.
            (INVALID, STATE, 0, col(_wrong_types, "3")),
            (INVALID, STATE, 0, col(_wrong_types, "2]")),
            (INVALID, STATE, 0, col(_wrong_types, "[]")),
        ),
    ),
    Case("state-duplicate-key", {STATE: _dup}, (("JSON_DUPLICATE_KEY", STATE, 0, col(_dup, '"status"', 2)),)),
    Case("state-directory", {".gemstack/state.json/x": "{}"}, (("ARTIFACT_UNREADABLE", STATE, 0, 0),)),
    Case(
        # A recorded phase hash that no longer matches: once on the hash, once on spec.md's first line.
        "state-frozen-artifact-changed",
        {
            STATE: '{\n  "active_spec": "specs/001-demo",\n  "phase_hashes": {"spec": "00ff"}\n}',
            SPEC: doc("# Demo", "```gemstack-contracts", "[]", "```"),
        },
        (("FROZEN_ARTIFACT_CHANGED", STATE, 2, 27), ("FROZEN_ARTIFACT_CHANGED", SPEC, 0, 0)),
    ),
]
