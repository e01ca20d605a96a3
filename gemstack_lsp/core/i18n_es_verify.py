"""The Spanish of the messages of the Gemstack 2.0 verify-stage checks (amendments, rigor, spec
deltas, installation manifest, package.json scripts, session memory), added beside this work.

Those modules keep the reference's Spanish wording in ``SPANISH`` dicts keyed by code, without
their English; the templates here pair the English each check writes with that wording (or a
faithful translation where the English says more). The swarm and visual-QA checks keep both
languages in their own ``ENGLISH``/``SPANISH`` tables, which ``core/i18n.py`` finds by itself.
A template whose code no check produces is never used.
"""

from __future__ import annotations

SPANISH_VERIFY: dict[str, list[tuple[str, str]]] = {
    "AMENDMENT_FILE_INVALID": [
        ("amendments.json cannot be read: {error:json}", "Error leyendo amendments.json: {error}"),
        ("amendments.json cannot be read: {error}", "Error leyendo amendments.json: {error}"),
    ],
    "AMENDMENT_MALFORMED": [
        (
            'Amendment "{id}" lacks the required field "{field}".',
            'Enmienda "{id}" carece del campo obligatorio "{field}".',
        ),
    ],
    "AMENDMENT_REPLAY_DETECTED": [
        (
            'Amendment "{id}" was signed for feature "{other}", not for {feature}: an amendment cannot be replayed on '
            "another feature.",
            'La enmienda "{id}" se firmó para la feature "{other}", no para {feature}: una enmienda no puede '
            "reutilizarse en otra feature.",
        ),
    ],
    "AMENDMENT_SECRET_MISSING": [
        (
            'The signature of amendment "{id}" of contract "{contract}" is not the SHA-256 of '
            "amendment_id|contract_id|version|reason|approved_by, and no GEMSTACK_AMENDMENT_SECRET is set to check it "
            "as an HMAC-SHA256: set the secret the amendment was signed with.",
            'La firma de la enmienda "{id}" del contrato "{contract}" no es el SHA-256 de '
            "amendment_id|contract_id|version|reason|approved_by, y no hay ningún GEMSTACK_AMENDMENT_SECRET definido "
            "para comprobarla como HMAC-SHA256: define el secreto con el que se firmó la enmienda.",
        ),
    ],
    "AMENDMENT_SIGNATURE_INVALID": [
        (
            'Invalid cryptographic signature for amendment "{id}" of contract "{contract}": it is not the '
            "HMAC-SHA256, under GEMSTACK_AMENDMENT_SECRET, of amendment_id|contract_id|version|reason|approved_by.",
            'Firma criptográfica inválida para la enmienda "{id}" del contrato "{contract}": no es el HMAC-SHA256, '
            "con GEMSTACK_AMENDMENT_SECRET, de amendment_id|contract_id|version|reason|approved_by.",
        ),
    ],
    "UNAUTHORIZED_CONTRACT_MUTATION": [
        (
            'The frozen contract "{id}" was modified without a formal amendment record.',
            'El contrato congelado "{id}" fue modificado sin un registro formal de enmienda.',
        ),
        (
            'The frozen contract "{id}" was removed (plan.md does not declare it) without a formal amendment record.',
            'El contrato congelado "{id}" fue eliminado (plan.md no lo declara) sin un registro formal de enmienda.',
        ),
    ],
    "AMENDMENT_REJECTED": [
        (
            "The amendments of {feature} are rejected ({codes}): {problem:amendment_problem} Until every problem is "
            "fixed, no frozen finding of this feature is lifted.",
            "Enmienda formal rechazada en {feature} (código: {codes}): {problem} Mientras no se corrijan todos los "
            "problemas, no se levanta ningún hallazgo de congelación de esta feature.",
        ),
    ],
    "AMENDMENT_VERIFIED": [
        (
            'Amendment {id} of contract "{contract}" is verified: its {kind} signature matches, approved by {who}.',
            'La enmienda {id} del contrato "{contract}" está verificada: su firma {kind} coincide, aprobada por {who}.',
        ),
        (
            '"{id}" differs from its frozen declaration ({kind}); the change is authorized by the signed amendment '
            "{amendment} in amendments.json. ({inner:frozen_violation})",
            '"{id}" difiere de su declaración congelada ({kind}); el cambio está autorizado por la enmienda firmada '
            "{amendment} en amendments.json. ({inner})",
        ),
    ],
    "FROZEN_ARTIFACT_AMENDED": [
        (
            "spec.md of {feature} changed after its phase was frozen (the hash state.json recorded); the change is "
            "formally authorized by the signed amendment(s) {ids} in amendments.json.",
            "spec.md de {feature} cambió después de congelar su fase (el hash que registró state.json); el cambio está "
            "autorizado formalmente por la(s) enmienda(s) firmada(s) {ids} en amendments.json.",
        ),
        (
            "spec.md of {feature} changed after its phase was frozen; the change is formally authorized by the "
            "signed amendment(s) {ids} in amendments.json.",
            "spec.md de {feature} cambió después de congelar su fase; el cambio está autorizado formalmente por la(s) "
            "enmienda(s) firmada(s) {ids} en amendments.json.",
        ),
    ],
    "INVALID_RIGOR_LEVEL": [
        (
            'Invalid rigor level "{level}". Valid levels: {levels}.',
            'Nivel de rigor inválido "{level}". Niveles válidos: {levels}.',
        ),
    ],
    "FIX_MISSING_REGRESSION_TEST": [
        (
            "Fix rigor requires at least one linked regression test in spec.md's test matrix (category REGRESSION, "
            'an id containing "REG", or a description that mentions a regression or how to reproduce it).',
            "El rigor fix requiere al menos una prueba de regresión vinculada en la matriz de pruebas de spec.md "
            '(categoría REGRESSION, un id que contenga "REG", o una descripción que mencione una regresión o cómo '
            "reproducirla).",
        ),
    ],
    "FEATURE_PLAN_MISSING": [
        (
            "Feature rigor requires plan.md: {path} is missing or empty.",
            "El rigor feature requiere plan.md: {path} falta o está vacío.",
        ),
    ],
    "FEATURE_TASKS_MISSING": [
        (
            "Feature rigor requires tasks.md: {path} is missing or empty.",
            "El rigor feature requiere tasks.md: {path} falta o está vacío.",
        ),
    ],
    "HIGH_RISK_MISSING_THREAT_MODEL": [
        (
            'High-risk rigor requires an explicit Threat Model section in spec.md ("## Threat Model").',
            'El rigor high-risk requiere una sección explícita de modelo de amenazas en spec.md ("## Threat Model").',
        ),
    ],
    "HIGH_RISK_MISSING_ROLLBACK_PLAN": [
        (
            'High-risk rigor requires an explicit Rollback Plan section in plan.md ("## Rollback Plan").',
            'El rigor high-risk requiere una sección explícita de plan de rollback en plan.md ("## Rollback Plan").',
        ),
    ],
    "HIGH_RISK_INSUFFICIENT_APPROVALS": [
        (
            "High-risk rigor requires at least 2 distinct human approval signatures (approvals with an approver and "
            "a signature in {sidecar}). Found: {found}.",
            "El rigor high-risk requiere al menos 2 firmas de aprobación humana distintas (aprobaciones con approver "
            "y signature en {sidecar}). Encontradas: {found}.",
        ),
    ],
    "DELTA_PARSE_ERROR": [
        (
            "Malformed JSON in gemstack-spec-delta block: {error:json}",
            "JSON mal formado en el bloque gemstack-spec-delta: {error}",
        ),
    ],
    "INVALID_DELTA_SCHEMA": [
        ("A gemstack-spec-delta block must hold an object.", "Un bloque gemstack-spec-delta debe contener un objeto."),
    ],
    "DELTA_TARGET_NOT_FOUND": [
        (
            'Cannot {verb:delta_verb} {kind:delta_kind} "{id}": it does not exist in the base spec.',
            'No se puede {verb} {kind} "{id}": no existe en la spec base.',
        ),
        (
            'The base spec "{spec}" does not exist (expected specs/<feature>/spec.md).',
            'La spec base "{spec}" no existe (se esperaba specs/<feature>/spec.md).',
        ),
    ],
    "DELTA_ADD_CONFLICT": [
        (
            'Conflict adding {kind:delta_kind} "{id}": it already exists in the base spec.',
            'Conflicto al añadir {kind} "{id}": ya existe en la spec base.',
        ),
    ],
    "GEMSTACK_MANIFEST_INVALID": [
        ("manifest.json cannot be read: {detail:manifest}", "Error leyendo manifest.json: {detail}"),
    ],
    "GEMSTACK_FILE_MISSING": [
        (
            "Required file missing: {path} (installed by gemstack init, listed in .gemstack/manifest.json).",
            "Archivo requerido faltante: {path} (instalado por gemstack init, listado en .gemstack/manifest.json).",
        ),
    ],
    "GEMSTACK_FILES_MODIFIED": [
        (
            "{n} base file(s) modified locally (customisation allowed): {files}.",
            "{n} archivo(s) base modificado(s) localmente (personalización permitida): {files}.",
        ),
    ],
    "GITIGNORE_GEMSTACK_BLOCK_MISSING": [
        (
            '.gitignore is not configured with the Gemstack exclusions: it has no "# Gemstack" block '
            "(.gemstack/state.json and .gemstack/backups/ are local state).",
            '.gitignore no está configurado con las exclusiones de Gemstack: no tiene un bloque "# Gemstack" '
            "(.gemstack/state.json y .gemstack/backups/ son estado local).",
        ),
    ],
    "ENV_FILE_PRESENT": [
        (
            ".env file found in the working directory and .gitignore does not ignore it: it may hold secrets and be "
            "committed. Add .env to .gitignore.",
            "Se encontró un archivo .env en el directorio de trabajo y .gitignore no lo ignora: puede contener "
            "secretos y acabar en un commit. Añade .env a .gitignore.",
        ),
    ],
    "SCRIPT_STDERR_SUPPRESSED": [
        (
            'Silent false positive in script "{name}": it contains "{pattern}", which is not portable between '
            'PowerShell and Bash and masks failures. Use a cross-platform runner instead, such as "node --test '
            '<paths>" or "tsx --test <paths>".',
            'Falso positivo silencioso en el script "{name}": contiene "{pattern}", que no es portable entre '
            'PowerShell y Bash y oculta los fallos. Usa en su lugar un ejecutor multiplataforma, como "node --test '
            '<rutas>" o "tsx --test <rutas>".',
        ),
    ],
    "TEST_SCRIPT_FAILURE_IGNORED": [
        (
            'Test script "{name}" contains "|| true", which ignores test failures.',
            'El script de pruebas "{name}" contiene "|| true", que ignora los fallos de las pruebas.',
        ),
    ],
    "HANDOFF_MISSING": [
        (
            "handoff.md does not exist at the repository root. Session memory is mandatory: create it with the "
            "sections 1. Objetivo, 2. Estado actual, 3. Archivos y cambios, 4. Intentos fallidos, 5. Próximos pasos.",
            "handoff.md no existe en la raíz del repositorio. La memoria de sesión es obligatoria: créalo con las "
            "secciones 1. Objetivo, 2. Estado actual, 3. Archivos y cambios, 4. Intentos fallidos, 5. Próximos pasos.",
        ),
    ],
    "HANDOFF_INCOMPLETE": [
        (
            "handoff.md is incomplete. Mandatory sections missing: {sections}",
            "handoff.md está incompleto. Faltan secciones obligatorias: {sections}",
        ),
    ],
    "HANDOFF_FAILED_ATTEMPTS_REMOVED": [
        (
            'Constitution violation: the section "4. Intentos fallidos" was removed. Failed attempts are session '
            "memory that must never be deleted.",
            'Violación de la constitución: se eliminó la sección "4. Intentos fallidos". Los intentos fallidos son '
            "memoria de sesión que nunca debe borrarse.",
        ),
    ],
    "MEMORY_UNRECORDED_COMMITS": [
        (
            "Recent commits not recorded in handoff.md: {commits}. Record them (their hash, or a word of their "
            "subject) under the session's changes.",
            "Commits recientes no registrados en handoff.md: {commits}. Regístralos (su hash, o una palabra de su "
            "asunto) entre los cambios de la sesión.",
        ),
    ],
    "MEMORY_GIT_AUDIT_UNAVAILABLE": [
        (
            "The newest commits could not be read, so handoff.md was not cross-audited with git log (the reference "
            "would warn about commits it does not record).",
            "No se pudieron leer los commits más recientes, así que handoff.md no se cruzó con git log (la referencia "
            "advertiría de los commits que no registra).",
        ),
    ],
    "STATE_ACTIVE_SPEC_MISSING": [
        (
            'State drift: active_spec points to "{value}", but "{path}" does not exist.',
            'Desfase de estado: active_spec apunta a "{value}", pero "{path}" no existe.',
        ),
    ],
}

PHRASES_VERIFY: dict[str, list[tuple[str, str]]] = {
    "delta_kind": [("contract", "el contrato"), ("test", "la prueba")],
    "delta_verb": [("modify", "modificar"), ("remove", "eliminar")],
    "manifest": [
        (
            '"files" must be a list of {{path, checksum}} entries, not {kind:kind}.',
            '"files" debe ser una lista de entradas {{path, checksum}}, no {kind}.',
        ),
    ],
}

RELATED_VERIFY: list[tuple[str, str]] = [
    ("amendment {id}", "enmienda {id}"),
    ("the amendments", "las enmiendas"),
    ("the approvals read", "las aprobaciones leídas"),
    ("gemstack init installed this repository", "gemstack init instaló este repositorio"),
    ("the base spec, {path}", "la spec base, {path}"),
    ('assigned role "{role}"', 'rol asignado "{role}"'),
    ('first claimed by "{id}"', 'reclamado primero por "{id}"'),
    ("max_workers is {n}", "max_workers es {n}"),
    ("the author of the task", "el autor de la tarea"),
    ("the capsule hashes to {h}... now", "la cápsula tiene ahora el hash {h}..."),
    ("the image hashes to {h}... now", "la imagen tiene ahora el hash {h}..."),
    ("the tasks the feature declares", "las tareas que declara la feature"),
    ("the test matrix", "la matriz de pruebas"),
]

FIXES_VERIFY: list[tuple[str, str]] = [
    ("Add the Gemstack block to .gitignore", "Añadir el bloque de Gemstack a .gitignore"),
    (
        "Record the current capsule in swarm.json (source_capsule_hash {h}...)",
        "Registrar la cápsula actual en swarm.json (source_capsule_hash {h}...)",
    ),
]

#: The problems an AMENDMENT_REJECTED message quotes (the first failing amendment's message).
PROBLEM_CODES = (
    "AMENDMENT_MALFORMED",
    "AMENDMENT_REPLAY_DETECTED",
    "AMENDMENT_SECRET_MISSING",
    "AMENDMENT_SIGNATURE_INVALID",
    "UNAUTHORIZED_CONTRACT_MUTATION",
)
