"""The Spanish of the front ends' own texts: code lenses, code-action titles, command errors,
rename and formatting refusals, inlay hints, completion items, hover labels and the CLI's
headers. Templates follow ``core/i18n.py``; ``install`` registers them (``i18n_es.install``
calls it).
"""

from __future__ import annotations

from gemstack_lsp.core import i18n

#: Code-lens titles beside ``i18n_es.LENS_TITLES``.
LENS_TITLES: list[tuple[str, str]] = [
    ("Regenerate", "Regenerar"),
    ("Generate capsule", "Generar la cápsula"),
    ("Verify", "Verificar"),
    ("Capsule: {state}", "Cápsula: {state}"),
]

#: Messages the server shows beside ``i18n_es.SERVER_MESSAGES``: ``window/showMessage`` and the
#: ``$/progress`` titles and reports.
SERVER_MESSAGES: list[tuple[str, str]] = [
    (
        "Context capsule not generated for {path}: {why:finding}",
        "No se generó la context capsule de {path}: {why}",
    ),
    ("Regenerating the context capsule", "Regenerando la context capsule"),
    ("Checking the Gemstack workspace", "Comprobando el espacio de trabajo de Gemstack"),
    ("Gemstack: analysing the workspace", "Gemstack: analizando el espacio de trabajo"),
    ("{done}/{total} features", "{done}/{total} features"),
    ("generated {path}", "generada {path}"),
    ("wrote {path}", "escrita {path}"),
    ("done", "hecho"),
]

#: ``gemstack-lsp check``'s usage errors on stderr (after ``gemstack-lsp check: ``).
CLI_MESSAGES: list[tuple[str, str]] = [
    ("cannot read {raw}: no such file or directory", "no se puede leer {raw}: no existe el archivo o la carpeta"),
    ("cannot read {raw}: permission denied", "no se puede leer {raw}: permiso denegado"),
    ("cannot read {raw}: it is a broken symbolic link", "no se puede leer {raw}: es un enlace simbólico roto"),
    (
        "{raw} is not inside a Gemstack repository (no .gemstack/ or specs/ folder found above it)",
        "{raw} no está dentro de un repositorio Gemstack (no se encontró ninguna carpeta .gemstack/ ni specs/ por "
        "encima)",
    ),
    ("unknown finding code or family: {codes}", "código o familia de hallazgos desconocidos: {codes}"),
    ("the configuration {raw} cannot be used", "la configuración {raw} no se puede usar"),
    (
        "cannot read the configuration {raw}: {why:os_hint}",
        "no se puede leer la configuración {raw}: {why}",
    ),
    (
        "internal error: {n} check(s) failed unexpectedly (see the {code} findings); the other checks ran. Please "
        "report it.",
        "error interno: {n} comprobación(es) fallaron inesperadamente (ver los hallazgos {code}); las demás "
        "comprobaciones se ejecutaron. Por favor, infórmalo.",
    ),
]

#: Code-action titles (the fixes' own titles are ``i18n.FIX`` templates).
ACTION_TITLES: list[tuple[str, str]] = [
    ("Write plan with the safe plan writer", "Escribir el plan con el escritor seguro de planes"),
    ("Ignore {code} here…", "Ignorar {code} aquí…"),
    ("Ignore {code} in this repository", "Ignorar {code} en este repositorio"),
]

#: ``workspace/executeCommand`` errors (``CommandError``), without their ``gemstack: `` prefix.
COMMAND_ERRORS: list[tuple[str, str]] = [
    ("expected a file URI or path, got {arg}", "se esperaba una URI de archivo o una ruta; se recibió {arg}"),
    ("not a file URI: {arg}", "no es una URI de archivo: {arg}"),
    ("only file: URIs are supported, got {arg}", "solo se admiten URIs file:; se recibió {arg}"),
    ("{arg} is in no repository of the workspace", "{arg} no está en ningún repositorio del espacio de trabajo"),
    (
        "{arg} is ambiguous between repositories; pass a URI",
        "{arg} es ambiguo entre varios repositorios; pasa una URI",
    ),
    (
        "{arg} lies outside the workspace; refusing to act on it",
        "{arg} está fuera del espacio de trabajo; no se actuará sobre él",
    ),
    ("{arg} is not in a Gemstack repository", "{arg} no está en un repositorio Gemstack"),
    (
        "{arg} leaves its repository ({where}); refusing to act on it",
        "{arg} sale de su repositorio ({where}); no se actuará sobre él",
    ),
    (
        "{arg} is not a feature folder (specs/<feature>) or a file in one",
        "{arg} no es una carpeta de feature (specs/<feature>) ni un archivo dentro de una",
    ),
    (
        "{command} needs the feature (specs/<feature> or a URI)",
        "{command} necesita la feature (specs/<feature> o una URI)",
    ),
    ("{command} needs a fix", "{command} necesita una corrección"),
    ("the fix carries no edits", "la corrección no contiene ninguna edición"),
    (
        "{rel} is not a Gemstack artifact; a fix edits only Gemstack files",
        "{rel} no es un artefacto de Gemstack; una corrección solo edita archivos de Gemstack",
    ),
    ("{command} needs the plan's URI", "{command} necesita la URI del plan"),
    ("{arg} is not a docs/plans/*gitnexus-plan*.md file", "{arg} no es un archivo docs/plans/*gitnexus-plan*.md"),
    (
        "{rel} is not open in the editor: the plan writer writes the editor's buffer",
        "{rel} no está abierto en el editor: el escritor de planes escribe el búfer del editor",
    ),
    (
        "{command} writes files, and this workspace is not trusted (Restricted Mode); trust the folder to regenerate "
        "capsules or write plans",
        "{command} escribe archivos y este espacio de trabajo no es de confianza (modo restringido); confía en la "
        "carpeta para regenerar cápsulas o escribir planes",
    ),
    (
        "{command} could not finish: {why:os_error}; nothing was written",
        "{command} no pudo terminar: {why}; no se escribió nada",
    ),
    (
        "{command}: the position must be {{line, character}} (whole numbers >= 0)",
        "{command}: la posición debe ser {{line, character}} (números enteros >= 0)",
    ),
    (
        "{command} takes [uri, {{line, character}}, newName]",
        "{command} recibe [uri, {{line, character}}, newName]",
    ),
    ("{command}: {why:refusal}", "{command}: {why}"),
    (
        "{command}: this editor cannot apply a workspace edit the server sends",
        "{command}: este editor no puede aplicar las ediciones del espacio de trabajo que envía el servidor",
    ),
]

PHRASES: dict[str, list[tuple[str, str]]] = {
    "os_error": [
        ("{what:os_hint} ({path})", "{what} ({path})"),
        ("{what:os_hint}", "{what}"),
    ],
    "os_hint": [
        ("the disk is full", "el disco está lleno"),
        ("the disk quota is exhausted", "la cuota de disco está agotada"),
        ("the file system is read-only", "el sistema de archivos es de solo lectura"),
        ("permission denied", "permiso denegado"),
        ("operation not permitted", "operación no permitida"),
        ("cannot open folder {path}: {why}", "no se puede abrir la carpeta {path}: {why}"),
        ("refusing to write through a symlink: {path}", "no se escribe a través de un enlace simbólico: {path}"),
        # Any other text is the OS's own (its strerror), quoted as it gives it.
        ("{what}", "{what}"),
    ],
    "rename_label": [
        ("contract", "contrato"),
        ("test", "prueba"),
        ("task", "tarea"),
        ("billable action", "acción facturable"),
        ("provider", "proveedor"),
    ],
    "rename_labels": [
        ("contracts", "contratos"),
        ("tests", "pruebas"),
        ("tasks", "tareas"),
        ("billable actions", "acciones facturables"),
        ("providers", "proveedores"),
    ],
    "id_shape": [
        (
            "letters, digits and _ . : - without spaces, starting and ending with a letter, a digit or _",
            "letras, dígitos y _ . : - sin espacios, que empieza y termina con una letra, un dígito o _",
        ),
        (
            "TEST-<AREA>-<ID> in capitals and digits (TEST-COST-A01)",
            "TEST-<ÁREA>-<ID> en mayúsculas y dígitos (TEST-COST-A01)",
        ),
        ("letters, digits, _ and - (T012)", "letras, dígitos, _ y - (T012)"),
        ("a lower-case kebab-case slug (search-images)", "un slug en minúsculas y kebab-case (search-images)"),
        ("a lower-case kebab-case slug (ollama-local)", "un slug en minúsculas y kebab-case (ollama-local)"),
    ],
    "policy_source": [
        ("{source} ([[overrides]] entry {n}): {reason}", "{source} (entrada {n} de [[overrides]]): {reason}"),
        ("{source} ([[overrides]] entry {n})", "{source} (entrada {n} de [[overrides]])"),
        ("{source}", "{source}"),
    ],
    # How to rename a frozen id anyway, by client (server/wording.py's rename_anyway).
    "rename_anyway": [
        (
            "run :GemstackRenameFrozen with the cursor on the id (a command of the gemstack Neovim plugin; it asks "
            "for the new name).",
            "ejecuta :GemstackRenameFrozen con el cursor sobre el id (un comando del plugin gemstack de Neovim; "
            "pide el nombre nuevo).",
        ),
        (
            "have your editor run the server command {command} with the document's URI, the id's position and "
            "the new name.",
            "haz que tu editor ejecute el comando del servidor {command} con la URI del documento, la posición del "
            "id y el nombre nuevo.",
        ),
    ],
    "frozen_reason": [
        ("the feature is completed in state.json", "la feature está completada en state.json"),
        ("state.json records its hash (phase_hashes.{phase})", "state.json registra su hash (phase_hashes.{phase})"),
        ("state.json lists it in completed_phases", "state.json la incluye en completed_phases"),
    ],
}

#: Why a finding is hidden (``core/policy.py``'s reasons), in hovers and ``check --show-suppressed``.
#: The reason a user wrote in a comment or an exception is quoted as written.
SUPPRESSION_REASONS: list[tuple[str, str]] = [
    ("not among the codes --select names", "no está entre los códigos que nombra --select"),
    ("switched off in {where:policy_source}", "desactivado en {where}"),
    ("accepted exception in {file}: {reason}", "excepción aceptada en {file}: {reason}"),
    ("`{form}` comment in {file}: {reason}", "comentario `{form}` en {file}: {reason}"),
    (
        "The accepted exception for this finding in {file} no longer applies: its contextHash was recorded for "
        "other phase hashes or contracts.",
        "La excepción aceptada para este hallazgo en {file} ya no se aplica: su contextHash se registró para "
        "otros hashes de fase o contratos.",
    ),
]

#: Refusals of a request (rename, formatting), shown by the editor as the request's error.
REFUSALS: list[tuple[str, str]] = [
    (
        "Rename works on the documents of a Gemstack repository.",
        "El renombrado funciona en los documentos de un repositorio Gemstack.",
    ),
    (
        "Rename is switched off in the gemstack settings (features.rename).",
        "El renombrado está desactivado en la configuración de gemstack (features.rename).",
    ),
    (
        "{path} lies outside the repository (a symbolic link): nothing was renamed.",
        "{path} está fuera del repositorio (un enlace simbólico): no se renombró nada.",
    ),
    ("{path} cannot be read: nothing was renamed.", "{path} no se puede leer: no se renombró nada."),
    (
        "there is no contract, test, task, action or provider id there",
        "ahí no hay ningún id de contrato, prueba, tarea, acción o proveedor",
    ),
    (
        "{name} is derived from the feature's sources and is never edited by a rename: rename the id where it is "
        "declared (spec.md, plan.md or tasks.md), then regenerate {again}.",
        "{name} se deriva de las fuentes de la feature y un renombrado nunca lo edita: renombra el id donde se "
        "declara (spec.md, plan.md o tasks.md) y después regenera {again}.",
    ),
    (
        "A path cannot be renamed here: only contract, test, task, action and provider ids.",
        "Aquí no se puede renombrar una ruta: solo ids de contrato, prueba, tarea, acción y proveedor.",
    ),
    (
        "A capability id cannot be renamed here: only contract, test, task, action and provider ids.",
        "Aquí no se puede renombrar un id de capacidad: solo ids de contrato, prueba, tarea, acción y proveedor.",
    ),
    (
        "This cannot be renamed here: only contract, test, task, action and provider ids.",
        "Esto no se puede renombrar aquí: solo ids de contrato, prueba, tarea, acción y proveedor.",
    ),
    (
        "The id {id} is written with JSON escapes here: write it without escapes first, then rename it.",
        "El id {id} está escrito aquí con escapes JSON: escríbelo primero sin escapes y después renómbralo.",
    ),
    (
        "The id {id} is written with JSON escapes at {where}: write it without escapes first, then rename it.",
        "El id {id} está escrito con escapes JSON en {where}: escríbelo primero sin escapes y después renómbralo.",
    ),
    (
        "{name} is not a valid {label:rename_label} id: a {again:rename_label} id is {shape:id_shape}.",
        "{name} no es un id válido de {label}: un id de {again} es {shape}.",
    ),
    (
        "A {label:rename_label} named {name} already exists ({where}): renaming {id} to it would merge two "
        "{labels:rename_labels}. Choose another id.",
        "Ya existe un {label} llamado {name} ({where}): renombrar {id} así fusionaría dos {labels}. Elige otro id.",
    ),
    (
        "Contract {id} is frozen by the {phase} phase of {feature} ({reason:frozen_reason}). Editing a frozen "
        "artifact breaks its recorded hash (FROZEN_ARTIFACT_CHANGED). The Gemstack way is an amendment: propose the "
        "change as an amendment of the {again} phase and approve it, which records the new hash. To rename anyway, "
        "{way:rename_anyway}",
        "El contrato {id} está congelado por la fase {phase} de {feature} ({reason}). Editar un artefacto congelado "
        "rompe su hash registrado (FROZEN_ARTIFACT_CHANGED). La vía de Gemstack es una enmienda: propón el cambio "
        "como enmienda de la fase {again} y apruébala, lo que registra el nuevo hash. Para renombrar de todos modos, "
        "{way}",
    ),
    (
        "Renaming {label:rename_label} {id} changes {phase}.md, frozen in {feature} ({reason:frozen_reason}). Editing "
        "a frozen artifact breaks its recorded hash (FROZEN_ARTIFACT_CHANGED). The Gemstack way is an amendment: "
        "propose the change as an amendment of the {again} phase and approve it, which records the new hash. To "
        "rename anyway, {way:rename_anyway}",
        "Renombrar {label} {id} cambia {phase}.md, congelado en {feature} ({reason}). Editar un artefacto congelado "
        "rompe su hash registrado (FROZEN_ARTIFACT_CHANGED). La vía de Gemstack es una enmienda: propón el cambio "
        "como enmienda de la fase {again} y apruébala, lo que registra el nuevo hash. Para renombrar de todos modos, "
        "{way}",
    ),
    (
        "{name} belongs to the frozen {phase} phase of {feature} ({reason:frozen_reason}): formatting it would change "
        "its recorded hash (FROZEN_ARTIFACT_CHANGED). The Gemstack way to change a frozen artifact is an amendment of "
        "the {again} phase; the document was not formatted.",
        "{name} pertenece a la fase congelada {phase} de {feature} ({reason}): formatearlo cambiaría su hash "
        "registrado (FROZEN_ARTIFACT_CHANGED). La vía de Gemstack para cambiar un artefacto congelado es una enmienda "
        "de la fase {again}; el documento no se formateó.",
    ),
]

#: Inlay-hint labels and tooltips.
INLAY_HINTS: list[tuple[str, str]] = [
    ("passed", "superada"),
    ("not verified", "sin verificar"),
    ("missing", "ausente"),
    ("failed", "fallida"),
    ("failed (supplemental)", "fallida (complementaria)"),
    ("Latest result in {path}", "Último resultado en {path}"),
    ("frozen · {phase}", "congelado · {phase}"),
    (
        "Frozen by the {phase} phase: {reason:frozen_reason}. Change it through an amendment.",
        "Congelado por la fase {phase}: {reason}. Cámbialo mediante una enmienda.",
    ),
    ("1 test bound", "1 prueba vinculada"),
    ("{n} tests bound", "{n} pruebas vinculadas"),
]

#: Completion labels, details and documentation (the static ones; the JSON Schemas' own titles
#: and descriptions stay English, see docs).
COMPLETION: list[tuple[str, str]] = [
    (
        "Frozen architecture contracts (spec.md, plan.md, tasks.md).",
        "Contratos de arquitectura congelados (spec.md, plan.md, tasks.md).",
    ),
    ("The canonical acceptance test matrix (spec.md).", "La matriz canónica de pruebas de aceptación (spec.md)."),
    (
        "Test ids bound to runnable test files (plan.md).",
        "Ids de prueba vinculados a archivos de prueba ejecutables (plan.md).",
    ),
    (
        "Project closure gates, package scripts (plan.md).",
        "Compuertas de cierre del proyecto, scripts del paquete (plan.md).",
    ),
    (
        "Billable provider actions (declared in spec.md, bound in plan.md).",
        "Acciones facturables de proveedores (declaradas en spec.md, vinculadas en plan.md).",
    ),
    (
        "The spec's frozen contracts restated by the plan (Gemstack 2.0, plan.md).",
        "Los contratos congelados de la spec, repetidos por el plan (Gemstack 2.0, plan.md).",
    ),
    (
        "A change to a base spec: contracts, requirements and tests added, modified or removed (spec.md).",
        "Un cambio a una spec base: contratos, requisitos y pruebas agregados, modificados o eliminados (spec.md).",
    ),
    (
        "A provider registry: providers and the capabilities they declare.",
        "Un registro de proveedores: los proveedores y las capacidades que declaran.",
    ),
    ("New contract", "Nuevo contrato"),
    ("New test-matrix entry", "Nueva entrada de la matriz de pruebas"),
    ("New test binding", "Nuevo vínculo de prueba"),
    ("New closure gate", "Nueva compuerta de cierre"),
    ("New billable action", "Nueva acción facturable"),
    ("New provider", "Nuevo proveedor"),
    ("Inherited contract", "Contrato heredado"),
    ("required", "obligatorio"),
    ("optional", "opcional"),
    ("Gemstack block", "Bloque de Gemstack"),
    ("gemstack task metadata", "metadatos de tarea de gemstack"),
    ("Insert a new item of a {kind} block.", "Inserta un elemento nuevo de un bloque {kind}."),
]

#: Front-end texts by key (``i18n.ui``): hover sections and the CLI's headers.
UI: dict[str, tuple[str, str]] = {
    "hover.cannot_silence": (
        "This finding cannot be silenced: fix its cause (see the configuration page, docs/configuration.md).",
        "Este hallazgo no se puede silenciar: corrige su causa (ver la página de configuración, "
        "docs/configuration.md).",
    ),
    "hover.silence_config": (
        'To silence it: `ignore = ["{code}"]` in `.gemstack/lsp.toml`.',
        'Para silenciarlo: `ignore = ["{code}"]` en `.gemstack/lsp.toml`.',
    ),
    "hover.silence_comment": (
        "To silence it: `<!-- gemstack-lsp-ignore {code} reason -->` on the line before it (Markdown), "
        'or `ignore = ["{code}"]` (or `[severity]`, `[[overrides]]` for some paths) in `.gemstack/lsp.toml`.',
        "Para silenciarlo: `<!-- gemstack-lsp-ignore {code} motivo -->` en la línea anterior (Markdown), "
        'o `ignore = ["{code}"]` (o `[severity]`, `[[overrides]]` para algunas rutas) en `.gemstack/lsp.toml`.',
    ),
    "hover.contract": ("**Frozen contract `{id}`** · `{type}`", "**Contrato congelado `{id}`** · `{type}`"),
    "hover.value": ("- value: `{value}`", "- valor: `{value}`"),
    "hover.values": ("- values: `{values}`", "- valores: `{values}`"),
    "hover.entity": ("- entity: `{entity}`", "- entidad: `{entity}`"),
    "hover.declared_in": ("- declared in `{where}`", "- declarado en `{where}`"),
    "hover.redeclared_agrees": ("- redeclared in `{where}`: agrees", "- redeclarado en `{where}`: coincide"),
    "hover.redeclared_disagrees": (
        "- redeclared in `{where}`: **disagrees**",
        "- redeclarado en `{where}`: **no coincide**",
    ),
    "hover.capsule_none": ("- context capsule: none", "- context capsule: ninguna"),
    "hover.capsule_holds": ("- context capsule: holds it", "- context capsule: lo contiene"),
    "hover.capsule_lacks": ("- context capsule: **does not hold it**", "- context capsule: **no lo contiene**"),
    "hover.test": ("**Acceptance test `{id}`**", "**Prueba de aceptación `{id}`**"),
    "hover.test_not_in_matrix": (
        "Not in the spec's `gemstack-test-matrix`.",
        "No está en el `gemstack-test-matrix` de la spec.",
    ),
    "hover.test_entry": (
        "- category `{category}` · layer `{layer}` · gate `{gate}`",
        "- categoría `{category}` · capa `{layer}` · compuerta `{gate}`",
    ),
    "hover.test_declared_in": ("- declared in `{where}`", "- declarada en `{where}`"),
    "hover.pass_criteria": ("Pass criteria: {criteria}", "Criterio de aceptación: {criteria}"),
    "hover.bound_to": ("Bound to: {files}", "Vinculada a: {files}"),
    "hover.no_binding": ("No test binding in plan.md.", "Ningún vínculo de prueba en plan.md."),
    "hover.named_by_tasks": ("Named by tasks: {tasks}", "Nombrada por las tareas: {tasks}"),
    "hover.ledger_none": ("- ledger: none valid at `{path}`", "- ledger: ninguno válido en `{path}`"),
    "hover.stale": ("stale", "caducado"),
    "hover.fresh": ("fresh ({days} days old)", "vigente ({days} días de antigüedad)"),
    "hover.estimated": (" · est. {cost} {currency}", " · est. {cost} {currency}"),
    "hover.ledger_entry": (
        "- `{provider}` / `{capability}`: cost_state `{state}`{cost} · freshness `{date}` {age} (`{where}`)",
        "- `{provider}` / `{capability}`: cost_state `{state}`{cost} · vigencia `{date}` {age} (`{where}`)",
    ),
    "hover.ledger_no_entry": (
        "- ledger `{path}`: **no entry** (treated as UNKNOWN, never FREE)",
        "- ledger `{path}`: **ninguna entrada** (se trata como UNKNOWN, nunca FREE)",
    ),
    "hover.provider": ("**Provider `{id}`** · `{type}`", "**Proveedor `{id}`** · `{type}`"),
    "hover.none": ("none", "ninguno"),
    "hover.no_capabilities": ("none", "ninguna"),
    "hover.capabilities": ("- capabilities: {caps}", "- capacidades: {caps}"),
    "hover.provider_declared_in": ("- declared in {sources}", "- declarado en {sources}"),
    "hover.capability": ("**Capability `{id}`**", "**Capacidad `{id}`**"),
    "hover.providers": ("- providers: {providers}", "- proveedores: {providers}"),
    "hover.action": ("**Billable action `{id}`** · `{category}`", "**Acción facturable `{id}`** · `{category}`"),
    "hover.action_capability": (
        "- capability `{capability}` · providers {providers}",
        "- capacidad `{capability}` · proveedores {providers}",
    ),
    "hover.action_declared_in": ("- declared in `{where}`", "- declarada en `{where}`"),
    "hover.gate_header": ("| environment | decision | reason |", "| entorno | decisión | motivo |"),
    "hover.current": (" (current)", " (actual)"),
    "hover.schema": ("(`{schema}` schema)", "(esquema `{schema}`)"),
    "statistics.none": ("No findings.", "Sin hallazgos."),
    "rename.same_name": ("{name} already has that name.", "{name} ya tiene ese nombre."),
    "rename.label": ("Rename {old} to {new} (frozen)", "Renombrar {old} a {new} (congelado)"),
    "rename.no_reason": ("no reason given", "no indicó el motivo"),
    "rename.not_applied": (
        "The editor did not apply the rename: {reason}.",
        "El editor no aplicó el renombrado: {reason}.",
    ),
    "rename.done": ("Renamed {old} to {new} in {n} places.", "Se renombró {old} a {new} en {n} lugares."),
    "rename.done_frozen": (
        "Renamed {old} to {new} in {n} places; this changed the frozen {files}: record it as an amendment.",
        "Se renombró {old} a {new} en {n} lugares; esto cambió lo congelado ({files}): regístralo como una enmienda.",
    ),
    "rename.frozen_file": ("{phase}.md of {feature}", "{phase}.md de {feature}"),
    "hover.hidden": (
        "**{code}** is not shown here: {reason}.\n\n{message}",
        "**{code}** no se muestra aquí: {reason}.\n\n{message}",
    ),
    "suppressed.line": ("{where}: suppressed {code} ({reason})", "{where}: suprimido {code} ({reason})"),
    "context.cannot_write": ("Cannot write {path}: {why}", "No se puede escribir {path}: {why}"),
    "plan.not_written": ("Plan not written: {why}", "Plan no escrito: {why}"),
    "plan.needs_receipt": (
        "Plan not written: Deepen needs the read-plan receipt ({why})",
        "Plan no escrito: Deepen necesita el recibo de read-plan ({why})",
    ),
}


def install() -> None:
    """Register every table of this module with ``core/i18n.py``."""
    for code, table in (
        (i18n.LENS_TITLE, LENS_TITLES),
        (i18n.SERVER_MESSAGE, SERVER_MESSAGES),
        (i18n.CLI_MESSAGE, CLI_MESSAGES),
        (i18n.ACTION_TITLE, ACTION_TITLES),
        (i18n.COMMAND_ERROR, COMMAND_ERRORS),
        (i18n.REFUSAL, REFUSALS),
        (i18n.INLAY_HINT, INLAY_HINTS),
        (i18n.COMPLETION, COMPLETION),
        (i18n.SUPPRESSION_REASON, SUPPRESSION_REASONS),
    ):
        for english, spanish in table:
            i18n.register(code, english, spanish)
    for english, spanish in REFUSALS:
        i18n.register_phrase("refusal", english, spanish)
    for vocabulary, pairs in PHRASES.items():
        for english, spanish in pairs:
            i18n.register_phrase(vocabulary, english, spanish)
    for key, (english, spanish) in UI.items():
        i18n.register_ui(key, english, spanish)
    from gemstack_lsp.core import i18n_es_cli, i18n_es_gate, i18n_es_plan

    i18n_es_cli.install()
    i18n_es_gate.install()
    i18n_es_plan.install()
