"""Every message the test corpus and the fixtures produce has its Spanish (issue 18, item 7).

The corpus cases (``tests/corpus``), the fixture repositories (the reference's, the demo, the
upstream slices) and every case of the catalogue coverage table are analysed; each finding's
message, related messages and fix titles must match a template of ``core/i18n.py``. A check
added later whose messages have no Spanish fails here: register its ``SPANISH`` table with
``i18n.register_table`` (see the module docstring of ``gemstack_lsp/core/i18n.py``).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.core import i18n
from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.fs import DiskReader

ROOT = Path(__file__).parent.parent
FIXTURE_REPOS = [
    ROOT / "examples" / "demo",
    ROOT / "tests" / "fixtures" / "gemstack-reference" / "repo",
    ROOT / "tests" / "fixtures" / "upstream-realrepo" / "current-0x",
    ROOT / "tests" / "fixtures" / "upstream-013",
]
NOW = dt.datetime(2026, 12, 2, tzinfo=dt.UTC)


def _corpus_findings(tmp_path: Path) -> list[Finding]:
    from corpus.cases import ALL
    from corpus.harness import make_case

    out: list[Finding] = []
    for i, case in enumerate(ALL):
        root = make_case(tmp_path / "corpus" / str(i), case)
        out += analyze(GemstackRepo(str(root.resolve()), DiskReader(root)), AnalysisOptions(now=NOW))
    return out


def _fixture_findings() -> list[Finding]:
    out: list[Finding] = []
    for root in FIXTURE_REPOS:
        out += analyze(GemstackRepo(str(root), DiskReader(root)), AnalysisOptions(now=NOW))
    return out


def _catalogue_case_findings(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any) -> list[Finding]:
    """Every finding created while the catalogue coverage table runs, whichever analysis (``analyze``,
    a check's own entry point, a CLI command) made it: ``Finding.__post_init__`` is recorded."""
    import tests.test_catalogue_coverage as coverage

    recorded: list[Finding] = []
    original = Finding.__post_init__

    def recording(self: Finding) -> None:
        original(self)
        recorded.append(self)

    monkeypatch.setattr(Finding, "__post_init__", recording)
    for i, (_code, case) in enumerate(coverage.CASES):
        folder = tmp_path / "catalogue" / str(i)
        folder.mkdir(parents=True)
        case(folder, capsys)
    capsys.readouterr()
    monkeypatch.setattr(Finding, "__post_init__", original)
    return recorded


def test_every_produced_message_has_its_spanish(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    findings = _corpus_findings(tmp_path) + _fixture_findings()
    findings += _catalogue_case_findings(tmp_path, capsys, monkeypatch)
    codes = {f.code for f in findings}
    assert len(findings) > 500 and len(codes) >= 45  # the corpus really ran
    missing = i18n.missing_templates(findings)
    assert missing == [], "no Spanish template (register one with i18n.register):\n" + "\n".join(
        f"{code}: {message}" for code, message in missing
    )
    # And the translation is really Spanish: no message comes out unchanged but the few that are
    # the same words in both languages.
    same = {
        (f.code, f.message)
        for f in findings
        if i18n.localize(f.code, f.message, "es") == f.message and any(c.isalpha() for c in f.message)
    }
    assert same == set()


def test_every_catalogue_code_has_its_spanish() -> None:
    assert i18n.missing_catalogue() == []


# --- The front ends' own texts ---------------------------------------------------------------

#: UI texts that are the same words in both languages.
SAME_IN_BOTH = {"count.error", "severity.error", "hover.estimated"}


def test_every_front_end_text_by_key_has_its_spanish() -> None:
    keys = i18n.ui_keys()
    assert len(keys) > 60
    missing = sorted(k for k, forms in keys.items() if "es" not in forms)
    assert missing == []
    same = sorted(k for k, forms in keys.items() if forms["es"] == forms["en"] and k not in SAME_IN_BOTH)
    assert same == [], "a Spanish text identical to its English (a copy, not a translation?)"


def _snapshots() -> list[Any]:
    from gemstack_lsp.host import AnalysisHost

    out = []
    for root in FIXTURE_REPOS:
        host = AnalysisHost(str(root), DiskReader(root), AnalysisOptions(now=NOW))
        out.append(host.snapshot())
    return out


def test_lens_titles_and_inlay_hints_of_the_fixtures_have_their_spanish() -> None:
    from gemstack_lsp.ide.inlay_hints import inlay_hints
    from gemstack_lsp.ide.lens import code_lenses

    titles: list[str] = []
    hints: list[str] = []
    for snapshot in _snapshots():
        repo = snapshot.repo
        for feature in repo.features():
            for rel in (feature.spec, feature.plan, feature.tasks):
                if repo.document(rel).text is None:
                    continue
                titles += [lens.title for lens in code_lenses(snapshot, rel, snapshot.options)]
                for hint in inlay_hints(snapshot, rel):
                    hints.append(hint.label)
                    if hint.tooltip is not None:
                        hints.append(hint.tooltip)
    assert len(titles) > 10 and len(hints) > 5  # the fixtures really have lenses and hints
    assert i18n.missing_texts(i18n.LENS_TITLE, titles) == []
    assert i18n.missing_texts(i18n.INLAY_HINT, hints) == []
    # Every inlay hint's English form the module can write.
    assert (
        i18n.missing_texts(
            i18n.INLAY_HINT,
            ["passed", "not verified", "missing", "failed", "failed (supplemental)", "1 test bound", "3 tests bound"],
        )
        == []
    )


def test_static_completion_texts_have_their_spanish() -> None:
    from gemstack_lsp.ide.completion import BLOCK_DESCRIPTIONS, SNIPPETS

    texts = list(BLOCK_DESCRIPTIONS.values()) + [label for label, _ in SNIPPETS.values()]
    texts += [f"Insert a new item of a {kind} block." for kind in SNIPPETS]
    texts += ["required", "optional", "Gemstack block", "gemstack task metadata"]
    assert i18n.missing_texts(i18n.COMPLETION, texts) == []


def _help_texts() -> list[str]:
    """Every description and help text of every parser of the command line (as argparse keeps
    them in English), the subcommands' one-line help and argparse's own words included."""
    import argparse

    from gemstack_lsp.cli import build_parser
    from gemstack_lsp.commands import context

    texts: list[str] = []

    def walk(parser: argparse.ArgumentParser) -> None:
        if parser.description:
            texts.append(parser.description)
        for action in parser._actions:
            if isinstance(action.help, str) and action.help != argparse.SUPPRESS:
                texts.append(action.help)
            if isinstance(action, argparse._SubParsersAction):
                texts.extend(c.help for c in action._choices_actions if isinstance(c.help, str))
                for sub in action.choices.values():
                    walk(sub)

    walk(build_parser())
    parser = context._Parser(prog="gemstack-lsp context", description="generate, verify or show the context capsule")
    context.add_arguments(parser)  # `context` builds its own parser (run_argv)
    walk(parser)
    return [*texts, "usage: ", "positional arguments", "options"]


def test_every_help_text_of_the_command_line_has_its_spanish() -> None:
    texts = _help_texts()
    assert len(texts) > 40
    assert i18n.missing_texts(i18n.CLI_HELP, texts) == []
    for text in texts:
        assert i18n.localize(i18n.CLI_HELP, text, "es") != text, text


#: Exceptions whose message the client sees, and the catalogue that holds its Spanish.
_REFUSALS = {
    "CommandError": i18n.COMMAND_ERROR,
    "RestrictedMode": i18n.COMMAND_ERROR,
    "RequestRefused": i18n.REFUSAL,
    "RenameRefused": i18n.REFUSAL,
    "FormatRefused": i18n.REFUSAL,
}


def _literal_parts(node: Any) -> list[str] | None:
    """The literal text of a string or f-string argument (``None``: not a literal)."""
    import ast

    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
    return None


def test_every_refusal_and_command_error_written_in_the_source_has_its_spanish() -> None:
    """Each literal part of a message given to ``CommandError`` (and the refusals of rename and
    formatting) appears in a registered English template: a new English message without Spanish
    fails here."""
    import ast

    sources = sorted((ROOT / "gemstack_lsp" / "server").glob("*.py"))
    sources += [ROOT / "gemstack_lsp" / "ide" / "rename.py", ROOT / "gemstack_lsp" / "ide" / "formatting.py"]
    english = {code: [t.english for t in i18n.templates(code)] for code in set(_REFUSALS.values())}
    checked = 0
    missing: list[str] = []
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args):
                continue
            code = _REFUSALS.get(node.func.id)
            parts = _literal_parts(node.args[0]) if code is not None else None
            if code is None or parts is None:
                continue
            checked += 1
            for part in parts:
                words = part.replace("{", "{{").replace("}", "}}").strip(" :;.,()'\"")
                words = words.removeprefix("s. ")  # a plural ("{label}s. ..."): its own placeholder
                if len(words) >= 3 and not any(words in t or part.strip() in t for t in english[code]):
                    missing.append(f"{path.name}:{node.lineno}: {part!r}")
    assert checked > 20
    assert missing == [], "no Spanish template holds these texts:\n" + "\n".join(missing)


def test_code_action_titles_have_their_spanish() -> None:
    from gemstack_lsp.server.actions import REGENERATE_TITLE, VERIFY_TITLE
    from gemstack_lsp.server.ignore_actions import ignore_here_title, ignore_repository_title

    assert i18n.missing_texts(i18n.FIX, [REGENERATE_TITLE, VERIFY_TITLE]) == []
    titles = ["Write plan with the safe plan writer", ignore_here_title("X_Y"), ignore_repository_title("X_Y")]
    assert i18n.missing_texts(i18n.ACTION_TITLE, titles) == []


# --- Messages built in the source by other front ends (gates, plan writer, suppressions) ------


def _literal_template_parts(node: Any) -> list[str] | None:
    """The literal text of a string, f-string or concatenation of them (``None``: not a literal)."""
    import ast

    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _literal_template_parts(node.left), _literal_template_parts(node.right)
        return None if left is None or right is None else left + right
    return _literal_parts(node)


def _missing_literals(paths: list[Path], calls: dict[str, int], code: str) -> tuple[int, list[str]]:
    """(how many calls were checked, the literal parts of their message argument that no English
    template of ``code`` holds). ``calls``: the function name and the index of its message argument."""
    import ast

    english = [t.english for t in i18n.templates(code)]
    checked = 0
    missing: list[str] = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            index = calls.get(name or "")
            if index is None or len(node.args) <= index:
                continue
            parts = _literal_template_parts(node.args[index])
            if parts is None:
                continue
            checked += 1
            for part in parts:
                words = part.replace("{", "{{").replace("}", "}}").strip(" :;.,()'\"")
                if len(words) >= 3 and not any(words in t for t in english):
                    missing.append(f"{path.name}:{node.lineno}: {part!r}")
    return checked, missing


def test_every_gate_decision_written_in_the_source_has_its_spanish() -> None:
    """Each message a cost gate decides with (``_decision``, a tier's ``TierPolicy``) and each
    usage error of ``gate evaluate``: an English literal without Spanish fails here."""
    cost = ROOT / "gemstack_lsp" / "core" / "cost"
    checked, missing = _missing_literals(
        [cost / "gates.py", cost / "environment.py"], {"_decision": 2, "TierPolicy": 2}, i18n.GATE_DECISION
    )
    assert checked >= 18
    assert missing == [], "no Spanish template holds these texts:\n" + "\n".join(missing)
    checked, missing = _missing_literals(
        [ROOT / "gemstack_lsp" / "commands" / "gate.py"], {"_usage": 0}, i18n.CLI_MESSAGE
    )
    assert checked >= 5
    assert missing == [], "no Spanish template holds these texts:\n" + "\n".join(missing)


def test_every_plan_writer_refusal_written_in_the_source_has_its_spanish() -> None:
    """Each refusal of the safe plan writer (``ProvenanceError``, ``raise_error``), each path label
    its checks name, and its recovery notes: an English literal without Spanish fails here."""
    import ast

    from gemstack_lsp.provenance import snapshot, status

    sources = sorted((ROOT / "gemstack_lsp" / "provenance").glob("*.py"))
    checked, missing = _missing_literals(sources, {"ProvenanceError": 0, "raise_error": 0}, i18n.PLAN_MESSAGE)
    assert checked >= 80
    assert missing == [], "no Spanish template holds these texts:\n" + "\n".join(missing)
    for constant in (snapshot._CHANGED, status._UNMERGED):
        assert i18n.localize_plan_error(constant, "es") != constant
    # The labels a path check names (validate_repo_path(value, "cited path"), ...).
    labels: set[str] = set()
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "").endswith(("_repo_path", "_plan_path")):
                labels |= {a.value for a in node.args[1:] if isinstance(a, ast.Constant) and isinstance(a.value, str)}
    assert len(labels) >= 8
    assert i18n.missing_texts("@plan_label", sorted(labels)) == []
    # The recovery notes of a failed write: every literal that starts one is translated.
    notes = {
        node.value
        for node in ast.walk(ast.parse((ROOT / "gemstack_lsp" / "provenance" / "writeplan.py").read_text("utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("; ")
    }
    assert len(notes) == 3
    message = "Generated plan already exists; use --replace only for Deepen mode" + "".join(sorted(notes))
    spanish = i18n.localize_plan_error(message, "es")
    assert all(note not in spanish for note in notes) and "Generated plan" not in spanish


def _sentences_in(path: Path, function: str, checked_calls: frozenset[str]) -> list[str]:
    """The string literals (f-string parts too) with English words in ``function`` of ``path``:
    docstrings, and the arguments of ``checked_calls`` (whose templates other tests check), aside."""
    import ast
    import re

    tree = ast.parse(path.read_text("utf-8"))
    (func,) = [
        n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == function
    ]
    skip: set[int] = set()
    for node in ast.walk(func):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name in checked_calls:
                skip |= {id(n) for arg in node.args for n in ast.walk(arg)}
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and ast.get_docstring(node) is not None:
            skip.add(id(node.body[0].value))  # type: ignore[attr-defined]
    out = []
    for node in ast.walk(func):
        literal = isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
        if literal and re.search(r"[A-Za-z]{2,} [A-Za-z]{2,}", node.value):  # type: ignore[attr-defined]
            out.append(f"{path.name}:{node.lineno}: {node.value!r}")
    return out


#: Functions that show a person a message: every English sentence in them comes from a catalogue.
_NO_ENGLISH = [
    ("server/rename.py", "rename_frozen", {"CommandError"}),
    ("server/commands.py", "write_plan", {"CommandError"}),
    ("server/commands.py", "_register_one", {"CommandError", "RestrictedMode"}),
    ("server/commands.py", "_os_error", set()),
    ("ide/hover.py", "suppression_sections", set()),
    ("ide/hover.py", "action_section", set()),
    ("report_ci.py", "render_suppressed", set()),
    ("report_ci.py", "suppressed_json", set()),
    ("report_ci.py", "with_sarif_suppressions", set()),
    ("commands/gate.py", "evaluate", {"_usage"}),
    ("provenance/cli.py", "main", set()),
]
#: Texts in them that are checked otherwise: the OS hints (``os_hint`` phrases), data fields.
_NOT_MESSAGES = {
    "the disk is full",
    "the disk quota is exhausted",
    "the file system is read-only",
    "permission denied",
    "operation not permitted",
    "no read-plan receipt was taken when the plan was opened",  # a PLAN_MESSAGE template
}


def test_no_english_sentence_is_left_in_the_functions_that_show_messages() -> None:
    found: list[str] = []
    for rel, function, calls in _NO_ENGLISH:
        for item in _sentences_in(ROOT / "gemstack_lsp" / rel, function, frozenset(calls)):
            if item.split(": ", 1)[1].strip("'\"") not in _NOT_MESSAGES:
                found.append(item)
    # The `frozen` list of renameFrozenContract's result is data ("spec.md of 008-..."), not a message.
    found = [f for f in found if "'.md of '" not in f]
    assert found == [], "English left where a message is built (use i18n.ui or a template):\n" + "\n".join(found)
    for english in sorted(_NOT_MESSAGES):
        assert i18n.localize_plan_error(english, "es") != english or i18n.missing_texts("@os_hint", [english]) == []


def test_every_suppression_reason_written_in_the_source_has_its_spanish() -> None:
    """The reasons ``core/policy.py`` gives for hiding a finding (and for an exception that stopped
    applying): each literal is part of a ``SUPPRESSION_REASON`` template."""
    import ast

    path = ROOT / "gemstack_lsp" / "core" / "policy.py"
    english = [t.english for t in i18n.templates(i18n.SUPPRESSION_REASON)]
    english += [t.english for t in i18n.templates("@policy_source")]
    tree = ast.parse(path.read_text("utf-8"))
    literals: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "HiddenFinding" and len(node.args) > 2:
            literals += [(node.lineno, p) for p in _literal_template_parts(node.args[2]) or []]
        if isinstance(node, ast.FunctionDef) and node.name in ("describe", "_configured"):
            for sub in ast.walk(node):
                if isinstance(sub, ast.JoinedStr):
                    literals += [(sub.lineno, p) for p in _literal_parts(sub) or []]
        target = node.targets[0] if isinstance(node, ast.Assign) else None
        if isinstance(target, ast.Subscript) and getattr(target.value, "id", "") == "notes":
            literals += [(node.lineno, p) for p in _literal_template_parts(node.value) or []]
    assert len(literals) >= 8
    missing = []
    for line, part in literals:
        words = part.replace("{", "{{").replace("}", "}}").strip(" :;.,()'\"")
        if len(words) >= 3 and not any(words in t for t in english):
            missing.append(f"policy.py:{line}: {part!r}")
    assert missing == [], "no Spanish template holds these texts:\n" + "\n".join(missing)
