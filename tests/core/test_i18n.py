"""The translation engine of ``core/i18n.py``: templates, vocabularies, the hook, the locale."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gemstack_lsp.core import i18n
from gemstack_lsp.core.findings import Finding, Fix, Related


def test_a_template_matches_and_renders() -> None:
    t = i18n.compile_template('Task {id} has {n} tests in "{file}".', 'La tarea {id} tiene {n} pruebas en "{file}".')
    assert t.match('Task T1 has 3 tests in "a b.js".') == {"id": "T1", "n": "3", "file": "a b.js"}
    assert t.render({"id": "T1", "n": "3", "file": "a b.js"}) == 'La tarea T1 tiene 3 pruebas en "a b.js".'
    assert t.match('Task T1 has 3 tests in "a.js"') is None  # the last literal must end the message
    assert t.match('A task T1 has 3 tests in "a.js".') is None  # the first must start it


def test_literal_braces_and_values_with_braces() -> None:
    t = i18n.compile_template("Value {{x}} is {value}", "El valor {{x}} es {value}")
    assert t.literals == ("Value {x} is ", "")
    assert t.match("Value {x} is {} and }{") == {"value": "{} and }{"}
    assert t.render({"value": "{}"}) == "El valor {x} es {}"


@pytest.mark.parametrize(
    ("english", "spanish"),
    [
        ("{a}{b}", "{a}{b}"),  # two placeholders must be separated
        ("{a} and {a}", "{a}"),  # a name is used once
        ("{a}", "{b}"),  # the Spanish names only the English placeholders
    ],
)
def test_templates_that_cannot_work_are_refused(english: str, spanish: str) -> None:
    with pytest.raises(ValueError):
        i18n.compile_template(english, spanish)


def test_vocabularies_translate_embedded_text_or_nothing() -> None:
    message = "closure.json is not valid JSON: Unterminated string"
    assert i18n.translate("CLOSURE_MANIFEST_INVALID", message, "es") == (
        "closure.json tiene formato JSON inválido: Texto sin terminar"
    )
    # An embedded English text no vocabulary knows: the whole message stays English.
    odd = "closure.json is not valid JSON: something no parser says"
    assert i18n.translate("CLOSURE_MANIFEST_INVALID", odd, "es") is None
    assert i18n.localize("CLOSURE_MANIFEST_INVALID", odd, "es") == odd


def test_nested_vocabularies() -> None:
    message = (
        "The reference gemstack CLI would not read this gemstack-contracts block as shown: it is inside a "
        "blockquote > list item; its fence has 4 backticks, not 3."
    )
    assert i18n.translate("FENCE_UNSEEN_BY_REFERENCE", message, "es") == (
        "El CLI de referencia de gemstack no leería este bloque gemstack-contracts tal como se muestra: está dentro "
        "de una cita > un elemento de lista; su cerca tiene 4 comillas invertidas, no 3."
    )


def test_english_is_the_message_itself() -> None:
    assert i18n.translate("ANY_CODE", "Anything at all.", "en") == "Anything at all."


def test_localize_finding_translates_message_related_and_fix_titles() -> None:
    finding = Finding(
        "TASK_VALIDATION_MISSING",
        "Task T1 must explicitly declare validation_required",
        "specs/a/tasks.md",
        related=(Related("specs/a/tasks.md", None, "T1 is not checked"),),
        fixes=(Fix("Declare validation_required=true for T1"),),
    )
    es = i18n.localize_finding(finding, "es")
    assert es.message == "La tarea T1 debe declarar explícitamente validation_required"
    assert es.related[0].message == "T1 no está marcada"
    assert es.fixes[0].title == "Declarar validation_required=true para T1"
    assert (es.code, es.path, es.fingerprint) == (finding.code, finding.path, finding.fingerprint)
    assert i18n.localize_finding(finding, "en") is finding


def test_the_registration_hook() -> None:
    code = "TEST_I18N_HOOK_CODE"
    spanish = {code: [("Worker {w} reviews its own task {t}.", "El trabajador {w} revisa su propia tarea {t}.")]}
    i18n.register_table(spanish)
    i18n.register_table({code + "_ONE": ("One {x}.", "Uno {x}.")})
    assert (
        i18n.translate(code, "Worker w1 reviews its own task T3.", "es")
        == "El trabajador w1 revisa su propia tarea T3."
    )
    assert i18n.translate(code + "_ONE", "One y.", "es") == "Uno y."
    i18n.register_phrase("test_vocab", "red", "rojo")
    i18n.register(code + "_V", "Colour: {c:test_vocab}.", "Color: {c}.")
    assert i18n.translate(code + "_V", "Colour: red.", "es") == "Color: rojo."
    assert i18n.translate(code + "_V", "Colour: blue.", "es") is None
    i18n.register_catalogue(code, "Resumen.", "Explicación.")
    assert i18n.catalogue_text(code, "es") == ("Resumen.", "Explicación.")


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        (None, "en"),
        ("", "en"),
        ("es", "es"),
        ("es-ES", "es"),
        ("es_MX.UTF-8", "es"),
        ("ES-es", "es"),
        ("es@euro", "es"),
        ("en-US", "en"),
        ("C.UTF-8", "en"),
        ("POSIX", "en"),
        ("est", "en"),
        ("pt-BR", "en"),
    ],
)
def test_language_of_locale(locale: str | None, language: str) -> None:
    assert i18n.language_of_locale(locale) == language


def test_cli_language_order() -> None:
    assert i18n.cli_language(None, {}) == "en"
    assert i18n.cli_language(None, {"LANG": "es_ES.UTF-8"}) == "es"
    assert i18n.cli_language(None, {"LANG": "es_ES.UTF-8", "LC_ALL": "C"}) == "en"
    assert i18n.cli_language(None, {"LANG": "en_US.UTF-8", "LC_MESSAGES": "es_ES"}) == "es"
    assert i18n.cli_language("en", {"LC_ALL": "es_ES.UTF-8"}) == "en"
    assert i18n.cli_language("es", {}) == "es"


def test_matching_reads_a_long_message_once() -> None:
    """A long message that almost matches the templates is answered by forward scans only
    (anchored literals, ``str.find``), never by backtracking; speed itself is measured in bench/."""
    long = "Frozen contract " + '"x" is contradicted in ' * 20_000 + "plan"
    assert i18n.translate("FROZEN_CONTRACT_VIOLATION", long, "es") is None


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60), st.sampled_from(["STATE_INVALID", "CONTRACT_PARSE_ERROR", "FENCE_UNSEEN_BY_REFERENCE"]))
def test_any_message_is_either_translated_whole_or_left_alone(message: str, code: str) -> None:
    out = i18n.translate(code, message, "es")
    assert out is None or isinstance(out, str)
    assert i18n.localize(code, message, "es") in (message, out)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters='"'), min_size=1, max_size=30))
def test_values_round_trip_through_a_template(value: str) -> None:
    message = f'Duplicate contract ID detected: "{value}"'
    assert (
        i18n.translate("CONTRACT_DUPLICATE_ID", message, "es") == f'Se detectó un ID de contrato duplicado: "{value}"'
    )


def test_the_messages_the_server_shows() -> None:
    """Regenerate's result message, as the server composes it, is shown whole in Spanish."""
    from gemstack_lsp.server.commands import regenerated_message

    remaining = [Finding(code, "m", "specs/a/spec.md") for code in ("A_CODE", "B_CODE", "C_CODE", "D_CODE")]
    data = b'{"canonical_invariants": [{"id": "INV-001"}, {"id": "INV-002"}]}'
    message = regenerated_message("specs/a/context-capsule.json", data, remaining, 2, ("history",))
    assert i18n.translate(i18n.SERVER_MESSAGE, message, "es") == (
        f"Context capsule escrita: specs/a/context-capsule.json ({len(data)} bytes, 2 invariantes). Se dejaron fuera "
        "2 elementos que coinciden con el análisis de secretos de la cápsula (cuáles y por qué: el registro de salida "
        "del servidor). Se condensó history para no salir del presupuesto de tamaño. Sigue informándose para esta "
        "feature: A_CODE, B_CODE, C_CODE y 1 más (ver la lista de Problemas)."
    )
    detail = "CONTEXT_CAPSULE_STALE: Source file specs/a/plan.md was modified since capsule generation."
    assert i18n.translate(i18n.SERVER_MESSAGE, f"Context capsule of specs/a: STALE ({detail})", "es") == (
        "Context capsule de specs/a: STALE (CONTEXT_CAPSULE_STALE: El archivo fuente specs/a/plan.md se modificó "
        "después de generar la cápsula.)"
    )
    # A sentence no template knows (a check added later): the message stays English, whole.
    assert i18n.translate(i18n.SERVER_MESSAGE, message + " Something new.", "es") is None


def test_a_modules_english_and_spanish_tables() -> None:
    """The shape the swarm checks use: ENGLISH and SPANISH, per code, template for template."""
    import types

    module = types.SimpleNamespace(
        ENGLISH={"TEST_I18N_ALIGNED": ("Wave {wave} has {count} workers.", "Worker ID must be a string.")},
        SPANISH={"TEST_I18N_ALIGNED": ("La ola {wave} tiene {count} workers.", "El ID del worker debe ser texto.")},
    )
    assert i18n.register_module(module)
    assert i18n.translate("TEST_I18N_ALIGNED", "Wave 2 has 9 workers.", "es") == "La ola 2 tiene 9 workers."
    assert (
        i18n.translate("TEST_I18N_ALIGNED", "Worker ID must be a string.", "es") == "El ID del worker debe ser texto."
    )
    assert not i18n.register_module(types.SimpleNamespace(SPANISH={"X": "y"}))


def test_a_note_appended_to_any_message_is_translated_apart() -> None:
    message = (
        'Frozen contract "c" is missing from capsule. (specs/008-x is not the active feature: a warning, not an error.)'
    )
    assert i18n.localize("CONTEXT_CAPSULE_INVARIANT_DROPPED", message, "es") == (
        'El contrato congelado "c" falta en la cápsula. (specs/008-x no es la feature activa: es una advertencia, '
        "no un error.)"
    )
    # The head must still be known: an unknown head keeps the whole message English.
    odd = "Something else. (specs/008-x is not the active feature: a warning, not an error.)"
    assert i18n.localize("CONTEXT_CAPSULE_INVARIANT_DROPPED", odd, "es") == odd


@pytest.mark.parametrize(
    ("code", "english", "spanish"),
    [
        (
            "AMENDMENT_REJECTED",
            'The amendments of a are rejected (AMENDMENT_MALFORMED): Amendment "AMD-1" lacks the required field '
            '"version". Until every problem is fixed, no frozen finding of this feature is lifted.',
            'Enmienda formal rechazada en a (código: AMENDMENT_MALFORMED): Enmienda "AMD-1" carece del campo '
            'obligatorio "version". Mientras no se corrijan todos los problemas, no se levanta ningún hallazgo de '
            "congelación de esta feature.",
        ),
        (
            "AMENDMENT_VERIFIED",
            '"c" differs from its frozen declaration (BOOLEAN_CONTRADICTION); the change is authorized by the signed '
            'amendment AMD-1 in amendments.json. (Frozen contract "c" is contradicted in plan (BOOLEAN_CONTRADICTION): '
            "expected true, observed false.)",
            '"c" difiere de su declaración congelada (BOOLEAN_CONTRADICTION); el cambio está autorizado por la '
            'enmienda firmada AMD-1 en amendments.json. (El contrato congelado "c" se contradice en plan '
            "(BOOLEAN_CONTRADICTION): se esperaba true, se observó false.)",
        ),
        (
            "DELTA_TARGET_NOT_FOUND",
            'Cannot remove test "TEST-GHOST": it does not exist in the base spec.',
            'No se puede eliminar la prueba "TEST-GHOST": no existe en la spec base.',
        ),
        (
            "GEMSTACK_MANIFEST_INVALID",
            'manifest.json cannot be read: "files" must be a list of {path, checksum} entries, not an object.',
            'Error leyendo manifest.json: "files" debe ser una lista de entradas {path, checksum}, no un objeto.',
        ),
        (
            "STATE_ACTIVE_SPEC_MISSING",
            'State drift: active_spec points to "specs/b", but "specs/b/spec.md" does not exist.',
            'Desfase de estado: active_spec apunta a "specs/b", pero "specs/b/spec.md" no existe.',
        ),
    ],
)
def test_the_verify_stage_messages_added_beside_this_work(code: str, english: str, spanish: str) -> None:
    """Messages of the 2.0 verify checks (written by those checks, copied here) and their Spanish."""
    assert i18n.localize(code, english, "es") == spanish


def test_regenerates_swarm_note_is_translated_with_the_rest() -> None:
    """The note the swarm check appends to Regenerate's message (a swarm.json left on the old capsule)."""
    message = (
        "Context capsule written: specs/010/context-capsule.json (100 bytes, 3 invariants). specs/010/swarm.json "
        "records the previous capsule (source_capsule_hash e3b0c44298fc...), not this one (36de3d0bcf22...): "
        "upstream `gemstack verify` will fail with SWARM_CONTEXT_STALE until source_capsule_hash is updated (the "
        "SWARM_CONTEXT_STALE quick fix records the new hash; upstream has no command that does)."
    )
    spanish = i18n.localize(i18n.SERVER_MESSAGE, message, "es")
    assert spanish.startswith("Context capsule escrita: specs/010/context-capsule.json (100 bytes, 3 invariantes).")
    assert "el `gemstack verify` de upstream fallará con SWARM_CONTEXT_STALE hasta que" in spanish
