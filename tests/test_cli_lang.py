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
