"""The CLI's language (issue 18, item 7): English by default; Spanish with ``--lang es`` or a
Spanish ``LC_ALL``/``LC_MESSAGES``/``LANG``; the flag wins; every message of the run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.cli import main
from gemstack_lsp.core import i18n
from tests.conftest import REFERENCE_REPO

ROOT = Path(__file__).parent.parent
CLOSURE_EN = 'closure.json does not exist in specs/009-context-capsule. Run "gemstack collect"'
CLOSURE_ES = 'closure.json no existe en specs/009-context-capsule. Ejecuta "gemstack collect"'


@pytest.fixture
def no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def _check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main([*argv])
    return code, capsys.readouterr().out


def test_english_by_default(no_locale: None, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _check(capsys, "check", str(REFERENCE_REPO))
    assert code == 1
    assert CLOSURE_EN in out and CLOSURE_ES not in out
    assert out.splitlines()[-1].endswith("(1 repository checked).")
    assert ": error CLOSURE_MANIFEST_MISSING " in out


@pytest.mark.parametrize("argv", [["--lang", "es", "check"], ["check", "--lang", "es"], ["check", "--lang=es"]])
def test_lang_flag_anywhere(no_locale: None, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out = _check(capsys, *argv, str(REFERENCE_REPO))
    assert code == 1
    assert CLOSURE_ES in out and CLOSURE_EN not in out
    assert out.splitlines()[-1].endswith("(1 repositorio comprobado).")
    assert ": error CLOSURE_MANIFEST_MISSING " in out


@pytest.mark.parametrize("variable", ["LANG", "LC_ALL", "LC_MESSAGES"])
def test_spanish_locale(
    no_locale: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, variable: str
) -> None:
    monkeypatch.setenv(variable, "es_ES.UTF-8")
    _, out = _check(capsys, "check", str(REFERENCE_REPO))
    assert CLOSURE_ES in out


def test_the_flag_wins_over_the_locale(
    no_locale: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    _, out = _check(capsys, "check", "--lang", "en", str(REFERENCE_REPO))
    assert CLOSURE_EN in out and CLOSURE_ES not in out
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    _, out = _check(capsys, "check", "--lang", "es", str(REFERENCE_REPO))
    assert CLOSURE_ES in out


def test_json_messages_follow_the_language(no_locale: None, capsys: pytest.CaptureFixture[str]) -> None:
    _, english = _check(capsys, "check", "--format", "json", str(REFERENCE_REPO))
    _, spanish = _check(capsys, "--lang", "es", "check", "--format", "json", str(REFERENCE_REPO))
    en, es = json.loads(english), json.loads(spanish)
    assert [f["code"] for f in es["findings"]] == [f["code"] for f in en["findings"]]
    assert [f["fingerprint"] for f in es["findings"]] == [f["fingerprint"] for f in en["findings"]]
    for a, b in zip(en["findings"], es["findings"], strict=True):
        assert a["message"] != b["message"]
        assert a["severity"] == b["severity"]  # format words, not text
    assert es["summary"] == en["summary"]


def test_sarif_rules_in_spanish(no_locale: None, capsys: pytest.CaptureFixture[str]) -> None:
    _, out = _check(capsys, "--lang", "es", "check", "--format", "sarif", str(REFERENCE_REPO))
    log = json.loads(out)
    rules = {r["id"]: r for r in log["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["CONTEXT_CAPSULE_MISSING"]["shortDescription"]["text"] == "La feature no tiene context capsule."
    messages = [r["message"]["text"] for r in log["runs"][0]["results"]]
    assert any(m.startswith(CLOSURE_ES) for m in messages)


def test_a_bad_lang_is_a_usage_error(no_locale: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--lang", "fr", str(REFERENCE_REPO)]) == 2
    assert "--lang must be en or es" in capsys.readouterr().err
    assert main(["check", "--lang"]) == 2


def test_plan_keeps_its_arguments(no_locale: None, capsys: pytest.CaptureFixture[str]) -> None:
    """`plan` forwards its arguments verbatim to the reference helper's parser: --lang is not taken."""
    code = main(["plan", "read-plan", "--lang", "es"])
    captured = capsys.readouterr()
    assert code != 0 and "--lang" in captured.err + captured.out


def test_a_spanish_shell_in_a_real_process(tmp_path: Path) -> None:
    """The installed entry point in a subprocess with LANG=es_ES.UTF-8 (the environment a user has)."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    env["LANG"] = "es_ES.UTF-8"
    env["PYTHONPATH"] = str(ROOT)
    run = subprocess.run(
        [sys.executable, "-m", "gemstack_lsp", "check", str(REFERENCE_REPO)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=False,
    )
    assert run.returncode == 1
    assert CLOSURE_ES in run.stdout
    assert run.stdout.splitlines()[-1].startswith("1 error, ")


def test_statistics_follow_the_language(
    no_locale: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, english = _check(capsys, "check", "--statistics", str(REFERENCE_REPO))
    assert "warning      CONTEXT_CAPSULE_MISSING" in english and "advertencia" not in english
    _, spanish = _check(capsys, "check", "--lang", "es", "--statistics", str(REFERENCE_REPO))
    assert "advertencia  CONTEXT_CAPSULE_MISSING" in spanish and "warning" not in spanish
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    _, none = _check(capsys, "check", "--statistics", "--select", "CONFIG_INVALID", str(REFERENCE_REPO))
    assert none == "Sin hallazgos.\n"
    monkeypatch.setenv("LANG", "C.UTF-8")
    _, none = _check(capsys, "check", "--statistics", "--select", "CONFIG_INVALID", str(REFERENCE_REPO))
    assert none == "No findings.\n"


def test_text_output_in_spanish_with_the_locale(
    no_locale: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`check`'s text output: every message and the summary line in Spanish, nothing English left."""
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    _, out = _check(capsys, "check", str(REFERENCE_REPO))
    last = out.splitlines()[-1]
    assert last.startswith("1 error, 3 advertencias, 0 de información, 0 sugerencias en ")
    assert last.endswith("(1 repositorio comprobado).")
    assert ": advertencia CONTEXT_CAPSULE_MISSING No se encontró la context capsule en " in out
    for english in ("warning", "repository checked", "Context capsule not found", "does not exist in"):
        assert english not in out


# --- The gate's decisions (`gate evaluate`) ---------------------------------------------------


@pytest.fixture
def gate_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The repository of ``tests/test_cli_gate.py``: a two-provider chain and its ledger."""
    from tests.test_cli_gate import LEDGER, SPEC

    for name in ("GEMSTACK_ENV", "CI", "CONTINUOUS_INTEGRATION", "NODE_ENV"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "specs" / "001-sum").mkdir(parents=True)
    (tmp_path / "specs" / "001-sum" / "spec.md").write_text(SPEC, "utf-8")
    (tmp_path / "cost-ledger.json").write_text(json.dumps(LEDGER, indent=2), "utf-8")
    return tmp_path


def _gate(capsys: pytest.CaptureFixture[str], root: Path, *argv: str) -> tuple[int, dict[str, Any], str]:
    code = main([*[a for a in argv[:1] if a], "gate", "evaluate", "--target", str(root), *argv[1:]])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if captured.out else {}, captured.err


def test_gate_decisions_in_english_by_default(
    no_locale: None, gate_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _gate(capsys, gate_repo, "", *CHAIN)
    assert code == 1
    assert out["message"] == (
        'Fallback provider "gemini-cloud" failed authorization: Commercial provider invocation is strictly '
        "denied in test environment."
    )
    assert out["candidates"][0]["message"] == 'Provider "nope-cloud" is not registered in provider registry.'
    code, _, err = _gate(capsys, gate_repo, "", "--action", "summarize", "--units", "-1")
    assert code == 2 and "--units must be a number of at least 0" in err


def test_gate_decisions_in_spanish_with_lang_es(
    no_locale: None, gate_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _gate(capsys, gate_repo, "--lang=es", *CHAIN)
    assert code == 1
    assert out["reason_code"] == "PROVIDER_FALLBACK_UNAUTHORIZED"  # codes and fields never change
    # The fallback's denial quotes the candidate's own message: translated as a whole.
    assert out["message"] == (
        'El proveedor de respaldo "gemini-cloud" no superó la autorización: La invocación de proveedores '
        "comerciales está terminantemente prohibida en el entorno test."
    )
    assert out["candidates"][0]["message"] == (
        'El proveedor "nope-cloud" no está registrado en el registro de proveedores.'
    )
    code, _, err = _gate(capsys, gate_repo, "--lang=es", "--action", "summarize", "--units", "-1")
    assert code == 2 and "--units debe ser un número mayor o igual que 0" in err


CHAIN = ("--action", "summarize", "--provider", "nope-cloud", "--provider", "gemini-cloud", "--env", "test")


# --- The safe plan writer (`plan`) --------------------------------------------------------------


def _plan(capsysbinary: pytest.CaptureFixture[bytes], *argv: str) -> tuple[int, str]:
    code = main([*argv])
    return code, capsysbinary.readouterr().err.decode("utf-8")


def test_plan_refusals_follow_the_language(
    no_locale: None, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["plan", "read-plan", "--repo", str(tmp_path), "--generated-plan", "docs/plans/notes.md"]
    # Git's own words are quoted as Git gives them; ours around them are translated.
    code, err = _plan(capsysbinary, "--lang", "es", *argv)
    assert code == 1 and err.startswith("evidence-provenance: git rev-parse --show-toplevel falló (128): ")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, capture_output=True)
    code, err = _plan(capsysbinary, *argv)
    assert code == 1
    assert err == "evidence-provenance: Existing-plan reads are restricted to docs/plans/*gitnexus-plan*.md\n"
    code, err = _plan(capsysbinary, "--lang", "es", *argv)
    assert code == 1
    assert err == "evidence-provenance: Las lecturas de planes existentes se limitan a docs/plans/*gitnexus-plan*.md\n"
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    code, err = _plan(capsysbinary, "plan", "write-plan", "--generated-plan", "x")
    assert err == "evidence-provenance: --repo es obligatorio\n"
    # The helper on its own keeps the reference's English, whatever the locale.
    from gemstack_lsp.provenance.cli import main as helper

    assert helper(["write-plan", "--generated-plan", "x"]) == 1
    assert capsysbinary.readouterr().err == b"evidence-provenance: --repo is required\n"


# --- check --show-suppressed --------------------------------------------------------------------


def test_show_suppressed_follows_the_language(
    no_locale: None, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    root = Path(shutil.copytree(ROOT / "examples" / "demo", tmp_path / "demo"))
    monkeypatch.chdir(root)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    (root / ".gemstack").mkdir(exist_ok=True)
    (root / ".gemstack" / "lsp.toml").write_text(
        '[[overrides]]\npaths = ["specs/010-*/**"]\nreason = "a local model"\nignore = ["cost"]\n', "utf-8"
    )
    _, english = _check(capsys, "check", "--show-suppressed", ".")
    line = next(x for x in english.splitlines() if "STALE_PROVIDER_COST_ASSUMPTION" in x and "suppressed" in x)
    assert line.endswith(
        ": suppressed STALE_PROVIDER_COST_ASSUMPTION (switched off in .gemstack/lsp.toml ([[overrides]] entry 1): "
        "a local model)"
    )
    _, spanish = _check(capsys, "check", "--lang", "es", "--show-suppressed", ".")
    line = next(x for x in spanish.splitlines() if "STALE_PROVIDER_COST_ASSUMPTION" in x and "suprimido" in x)
    assert line.endswith(
        ": suprimido STALE_PROVIDER_COST_ASSUMPTION (desactivado en .gemstack/lsp.toml (entrada 1 de [[overrides]]): "
        "a local model)"
    )
    assert " suppressed " not in spanish and "switched off" not in spanish
    _, out = _check(capsys, "check", "--lang", "es", "--format", "json", "--show-suppressed", ".")
    hidden = json.loads(out)["suppressed"]
    _, out = _check(capsys, "check", "--format", "json", "--show-suppressed", ".")
    hidden_en = json.loads(out)["suppressed"]
    assert [h["code"] for h in hidden] == [h["code"] for h in hidden_en]
    for es, en in zip(hidden, hidden_en, strict=True):
        assert es["reason"].startswith("desactivado en ") and en["reason"].startswith("switched off in ")
        assert es["message"] != en["message"] and es["suppressed_by"] == en["suppressed_by"] == "config"
    _, out = _check(capsys, "check", "--lang", "es", "--format", "sarif", "--show-suppressed", ".")
    results = [r for r in json.loads(out)["runs"][0]["results"] if "suppressions" in r]
    assert len(results) == 3
    assert all(r["suppressions"][0]["justification"].startswith("desactivado en ") for r in results)


def test_os_errors_are_wrapped_in_the_runs_language(
    no_locale: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Our words around an OS error follow the language; the OS's own text is quoted as it is."""
    folder = tmp_path / "lsp.toml"
    folder.mkdir()
    main(["check", "--config", str(folder), str(REFERENCE_REPO)])
    english = capsys.readouterr().err
    assert f"gemstack-lsp check: cannot read the configuration {folder}: " in english
    main(["check", "--lang", "es", "--config", str(folder), str(REFERENCE_REPO)])
    spanish = capsys.readouterr().err
    assert f"gemstack-lsp check: no se puede leer la configuración {folder}: " in spanish
    assert "cannot read" not in spanish


# --- The command line's own texts: --help, argparse's errors, internal errors, context ------------


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``main(argv)``: its status (argparse's exit status on --help or a usage error), stdout, stderr."""
    try:
        code = main([*argv])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


HELP_EN = [
    "usage: gemstack-lsp [-h] [--version] [--lang {en,es}] COMMAND ...",
    "Gemstack language server and checks.",
    "positional arguments:",
    "options:",
    "show this help message and exit",
    "show program's version number and exit",
    "run the language server (stdio by default)",
]
HELP_ES = [
    "uso: gemstack-lsp [-h] [--version] [--lang {en,es}] COMMAND ...",
    "Servidor de lenguaje y comprobaciones de Gemstack.",
    "argumentos posicionales:",
    "opciones:",
    "muestra este mensaje de ayuda y termina",
    "muestra el número de versión del programa y termina",
    "ejecuta el servidor de lenguaje (stdio por defecto)",
]


def test_help_in_english_by_default(
    no_locale: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # no line wrapping: each text whole on its line
    code, out, _ = _run(capsys, "--help")
    assert code == 0
    for text in HELP_EN:
        assert text in out
    for text in HELP_ES:
        assert text not in out


@pytest.mark.parametrize("how", ["flag", "locale"])
def test_help_in_spanish(
    no_locale: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    if how == "locale":
        monkeypatch.setenv("LANG", "es_MX.UTF-8")
    code, out, _ = _run(capsys, *(["--lang", "es"] if how == "flag" else []), "--help")
    assert code == 0
    for text in HELP_ES:
        assert text in out
    for text in HELP_EN:
        assert text not in out


@pytest.mark.parametrize(
    ("argv", "english", "spanish"),
    [
        (
            ["check", "--help"],
            "exit 0 even when blockers are found",
            "termina con 0 aunque se encuentren bloqueantes",
        ),
        (
            ["context", "--help"],
            "print exactly one JSON document, errors included",
            "imprime exactamente un documento JSON, errores incluidos",
        ),
        (
            ["gate", "evaluate", "--help"],
            "explicitly authorize spending for this evaluation",
            "autoriza explícitamente el gasto para esta evaluación",
        ),
        (["serve", "--help"], "talk LSP over stdin/stdout (the default)", "habla LSP por stdin/stdout"),
    ],
)
def test_each_subcommands_help_follows_the_language(
    no_locale: None,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    english: str,
    spanish: str,
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = _run(capsys, *argv)
    assert code == 0 and english in out and spanish not in out and out.startswith("usage: ")
    code, out, _ = _run(capsys, "--lang", "es", *argv)
    assert code == 0 and spanish in out and english not in out and out.startswith("uso: ")
    assert "options:" not in out and "opciones:" in out


@pytest.mark.parametrize(
    ("argv", "english", "spanish"),
    [
        (
            ["check", "--format", "xml"],
            "gemstack-lsp check: error: argument --format: invalid choice: 'xml' (choose from 'text', 'json', "
            "'sarif', 'github', 'gitlab')",
            "gemstack-lsp check: error: argumento --format: opción no válida: 'xml' (elige entre 'text', 'json', "
            "'sarif', 'github', 'gitlab')",
        ),
        (
            ["gate", "evaluate"],
            "gemstack-lsp gate evaluate: error: the following arguments are required: --action",
            "gemstack-lsp gate evaluate: error: se requieren los siguientes argumentos: --action",
        ),
        (
            ["gate", "evaluate", "--action", "x", "--units", "many"],
            "gemstack-lsp gate evaluate: error: argument --units: invalid float value: 'many'",
            "gemstack-lsp gate evaluate: error: argumento --units: valor float no válido: 'many'",
        ),
        (
            ["context", "--bogus"],
            "gemstack-lsp context: error: unrecognized arguments: --bogus",
            "gemstack-lsp context: error: argumentos no reconocidos: --bogus",
        ),
        (
            ["bogus"],
            "gemstack-lsp: error: argument COMMAND: invalid choice: 'bogus' (choose from 'serve', 'check', "
            "'context', 'gate', 'plan')",
            "gemstack-lsp: error: argumento COMMAND: opción no válida: 'bogus' (elige entre 'serve', 'check', "
            "'context', 'gate', 'plan')",
        ),
    ],
)
def test_argparse_errors_follow_the_language(
    no_locale: None, capsys: pytest.CaptureFixture[str], argv: list[str], english: str, spanish: str
) -> None:
    code, _, err = _run(capsys, *argv)
    assert code == 2
    assert err.startswith("usage: ") and err.splitlines()[-1] == english
    code, _, err = _run(capsys, "--lang", "es", *argv)
    assert code == 2
    assert err.startswith("uso: ") and err.splitlines()[-1] == spanish


def test_a_usage_error_under_json_is_a_json_document_in_the_language(
    no_locale: None, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = _run(capsys, "context", "--json", "--bogus")
    assert json.loads(out)["error"] == "unrecognized arguments: --bogus"
    _, out, _ = _run(capsys, "--lang", "es", "context", "--json", "--bogus")
    assert json.loads(out)["error"] == "argumentos no reconocidos: --bogus"


def test_a_bad_lang_is_reported_in_the_environments_language(
    no_locale: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _run(capsys, "--lang", "fr", "check")[2] == "gemstack-lsp: --lang must be en or es, not 'fr'\n"
    assert _run(capsys, "check", "--lang")[2] == "gemstack-lsp: --lang needs a value: en or es\n"
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    assert _run(capsys, "--lang", "fr", "check")[2] == "gemstack-lsp: --lang debe ser en o es, no 'fr'\n"
    assert _run(capsys, "check", "--lang")[2] == "gemstack-lsp: --lang necesita un valor: en o es\n"


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "gemstack-lsp check: internal error: RuntimeError: planted bug ("),
        ("es", "gemstack-lsp check: error interno: RuntimeError: planted bug ("),
    ],
)
def test_the_crash_line_follows_the_language(
    no_locale: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, language: str, expected: str
) -> None:
    from gemstack_lsp.host import analysis

    def boom(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("planted bug")

    monkeypatch.setattr(analysis, "analyze_repository", boom)
    code, _, err = _run(capsys, "--lang", language, "check", str(REFERENCE_REPO))
    assert code == 2
    assert err.startswith(expected) and "Traceback" not in err
    ending = "). Please report it.\n" if language == "en" else "). Por favor, infórmalo.\n"
    assert err.endswith(ending) and err.count("\n") == 1


F9 = "specs/009-context-capsule"


def test_context_show_summary_in_english_by_default(
    no_locale: None, reference_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(capsys, "context", "generate", "--target", str(reference_repo))[0] == 0
    code, out, _ = _run(capsys, "context", "show", "--target", str(reference_repo))
    lines = out.splitlines()
    assert code == 0
    assert lines[:11] == [
        "=== Gemstack Context Capsule ===",
        "Schema Version: 1",
        "Project:        gemstack-fixture",
        f"Feature:        {F9}",
        "Lifecycle:      IMPLEMENTING",
        "Sources:        5 files",
        "Invariants:     39 rules",
        "Contracts:      8 contracts",
        "Acceptance:     20 tests",
        "State:          VALID",
        lines[10],
    ]
    assert lines[10].startswith("Age:            ") and " ago (" in lines[10]


def test_context_show_summary_in_spanish(
    no_locale: None, reference_repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _run(capsys, "context", "generate", "--target", str(reference_repo))[0] == 0
    monkeypatch.setenv("LC_ALL", "es_ES.UTF-8")
    code, out, _ = _run(capsys, "context", "show", "--target", str(reference_repo))
    lines = out.splitlines()
    assert code == 0
    assert lines[:11] == [
        "=== Context Capsule de Gemstack ===",
        "Versión del esquema: 1",
        "Proyecto:            gemstack-fixture",
        f"Feature activa:      {F9}",
        "Ciclo de vida:       IMPLEMENTING",
        "Fuentes:             5 archivos",
        "Invariantes:         39 reglas",
        "Contratos:           8 contratos",
        "Aceptación:          20 pruebas",
        "Estado:              VALID",  # the state is a code, not a word
        lines[10],
    ]
    assert lines[10].startswith("Antigüedad:          hace ") and lines[10].endswith("Z)")


@pytest.mark.parametrize(
    ("argv", "english", "spanish"),
    [
        (
            ["show", "specs/b", "--feature", "specs/a"],
            "[FAIL] Two features given: specs/b and --feature specs/a.",
            "[FAIL] Se indicaron dos features: specs/b y --feature specs/a.",
        ),
        (
            ["show", "--target", "/nonexistent-gemstack-folder"],
            "[FAIL] Target is not a folder: /nonexistent-gemstack-folder",
            "[FAIL] El destino no es una carpeta: /nonexistent-gemstack-folder",
        ),
    ],
)
def test_contexts_refusals_follow_the_language(
    no_locale: None, capsys: pytest.CaptureFixture[str], argv: list[str], english: str, spanish: str
) -> None:
    code, _, err = _run(capsys, "context", *argv)
    assert code == 1 and err == english + "\n"
    code, _, err = _run(capsys, "--lang", "es", "context", *argv)
    assert code == 1 and err == spanish + "\n"


def test_context_show_without_capsule_follows_the_language(
    no_locale: None, reference_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsule = reference_repo / F9 / "context-capsule.json"
    capsule.unlink(missing_ok=True)
    _, _, err = _run(capsys, "context", "show", "--target", str(reference_repo))
    assert err == f"[FAIL] Context capsule not found at: {capsule.resolve()}\n"
    _, _, err = _run(capsys, "--lang", "es", "context", "show", "--target", str(reference_repo))
    assert err == f"[FAIL] No se encontró la context capsule en: {capsule.resolve()}\n"


def test_why_context_cannot_work_on_a_feature_follows_the_language(
    no_locale: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".gemstack").mkdir()
    (tmp_path / "specs" / "empty").mkdir(parents=True)
    missing, empty = tmp_path / "specs/missing", tmp_path / "specs/empty"
    cases = [
        (
            ["--feature", "specs/missing"],
            f"[FAIL] Feature specs/missing does not exist: there is no folder {missing}.",
            f"[FAIL] La feature specs/missing no existe: no hay ninguna carpeta {missing}.",
        ),
        (
            ["--feature", "specs/empty"],
            f"[FAIL] Feature specs/empty is not a feature: {empty} holds neither spec.md nor context-capsule.json.",
            f"[FAIL] La feature specs/empty no es una feature: {empty} no contiene ni spec.md ni context-capsule.json.",
        ),
        (
            ["--feature", "."],
            "[FAIL] Feature path . names the repository root, not a feature folder.",
            "[FAIL] La ruta de la feature . nombra la raíz del repositorio, no una carpeta de feature.",
        ),
        (
            [],
            "[FAIL] No active feature found or specified via --feature.",
            "[FAIL] No se encontró ninguna feature activa ni se indicó con --feature.",
        ),
    ]
    for argv, english, spanish in cases:
        code, _, err = _run(capsys, "context", "verify", "--target", str(tmp_path), *argv)
        assert code == 1 and err == english + "\n"
        code, _, err = _run(capsys, "--lang", "es", "context", "verify", "--target", str(tmp_path), *argv)
        assert code == 1 and err == spanish + "\n"
    (tmp_path / ".gemstack" / "state.json").write_text('{"active_spec": "specs/gone"}', "utf-8")
    gone = tmp_path / "specs/gone"
    _, _, err = _run(capsys, "--lang", "es", "context", "verify", "--target", str(tmp_path))
    assert err == (
        "[FAIL] La feature specs/gone (active_spec de .gemstack/state.json) no existe: "
        f"no hay ninguna carpeta {gone}.\n"
    )


def test_checks_notes_on_stderr_follow_the_language(
    no_locale: None, reference_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A configuration's problems and a path that resolves outside its repository."""
    bad = tmp_path / "bad.toml"
    bad.write_text("a = [\n", "utf-8")
    _, _, english = _run(capsys, "check", "--config", str(bad), str(reference_repo))
    _, _, spanish = _run(capsys, "--lang", "es", "check", "--config", str(bad), str(reference_repo))
    assert f"gemstack-lsp check: {bad}: Not valid TOML: " in english and "Not valid TOML" not in spanish
    assert f"gemstack-lsp check: {bad}: No es TOML válido: " in spanish
    assert spanish.splitlines()[-1] == f"gemstack-lsp check: la configuración {bad} no se puede usar"
    outside = tmp_path / "outside"
    (outside / "specs").mkdir(parents=True)
    (outside / "specs" / "spec.md").write_text("# Outside\n", "utf-8")
    (reference_repo / "specs" / "evil").symlink_to(outside, target_is_directory=True)
    deep = str(reference_repo / "specs/evil/specs/spec.md")
    code, _, english = _run(capsys, "check", deep)
    assert code == 2 and f"gemstack-lsp check: {deep} is not checked: specs/evil/specs/spec.md resolves to " in english
    code, _, spanish = _run(capsys, "--lang", "es", "check", deep)
    assert code == 2 and f"gemstack-lsp check: {deep} no se comprueba: specs/evil/specs/spec.md apunta a " in spanish
    assert ", fuera del repositorio " in spanish and "outside" not in spanish.replace(str(outside), "")


def test_serves_bad_address_follows_the_language(no_locale: None, capsys: pytest.CaptureFixture[str]) -> None:
    from gemstack_lsp.commands import serve

    with pytest.raises(SystemExit, match=r"^gemstack-lsp serve: --tcp expects HOST:PORT, got 'nowhere'$"):
        serve._address("nowhere")
    token = i18n.set_language("es")
    try:
        with pytest.raises(SystemExit, match=r"^gemstack-lsp serve: --tcp espera HOST:PUERTO; se recibió 'nowhere'$"):
            serve._address("nowhere")
    finally:
        i18n.reset_language(token)
