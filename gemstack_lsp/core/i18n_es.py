"""The Spanish of every message the existing checks write, and of the catalogue.

Where the reference Gemstack CLI has its own Spanish wording for a message (its ``verify``
stages: closure evidence, frozen artifacts, state.json, the legacy notices), that wording is
used, word for word where the message says the same thing; the rest is translated faithfully.
Templates follow ``core/i18n.py``: ``{name}`` takes any text, ``{name:vocabulary}`` a value
translated through that vocabulary (``json``: a JSON parser's error; ``schema``: a JSON Schema
validator's message; ``kind``: "a number", "an array"...; ``detail``: why a file could not be
read; ``names``: "a, b and c"; ``stale``: what changed under a capsule).
"""

from __future__ import annotations

from gemstack_lsp.core import i18n

#: code -> [(English template, Spanish template), ...]
SPANISH: dict[str, list[tuple[str, str]]] = {
    # --- Context capsule ------------------------------------------------------------------
    "CONTEXT_CAPSULE_MISSING": [
        ("Context capsule not found at {path}", "No se encontró la context capsule en {path}"),
        (
            "Cannot generate context capsule: spec.md not found in {feature}",
            "No se puede generar la context capsule: no se encontró spec.md en {feature}",
        ),
    ],
    "CONTEXT_CAPSULE_LEGACY": [
        (
            '[LEGACY] No context-capsule.json was found in "{feature}" (legacy context-free mode).',
            '[LEGACY] No se detectó context-capsule.json en "{feature}" (Modo Legacy Context-Free).',
        ),
    ],
    "CONTEXT_CAPSULE_INVALID": [
        ("Context capsule cannot be read: {detail:detail}", "La context capsule no se puede leer: {detail}"),
        ("Context capsule cannot be read: {detail}", "La context capsule no se puede leer: {detail}"),
        (
            "Context capsule JSON parse error: the file starts with a BOM",
            "Error de análisis JSON de la context capsule: el archivo empieza con un BOM",
        ),
        ("Context capsule JSON parse error: {error:json}", "Error de análisis JSON de la context capsule: {error}"),
        ("Context capsule must be a JSON object", "La context capsule debe ser un objeto JSON"),
        ("Unsupported schema version: {version}", "Versión de esquema no soportada: {version}"),
        (
            "Capsule does not match context-capsule v1 at {where:where}: {message:schema}",
            "La cápsula no cumple context-capsule v1 en {where}: {message}",
        ),
        (
            "Recorded source path is not repository-relative: {path}",
            "La ruta de fuente registrada no es relativa al repositorio: {path}",
        ),
    ],
    "CONTEXT_CAPSULE_TOO_LARGE": [
        (
            "Capsule exceeds hard size limit ({size} > {limit} bytes).",
            "La cápsula supera el límite duro de tamaño ({size} > {limit} bytes).",
        ),
        (
            "CONTEXT_CAPSULE_TOO_LARGE: Critical invariants exceed capsule size budget ({size} > {limit} bytes).",
            "CONTEXT_CAPSULE_TOO_LARGE: Los invariantes críticos superan el presupuesto de tamaño de la cápsula "
            "({size} > {limit} bytes).",
        ),
    ],
    "CONTEXT_CAPSULE_SECRET_DETECTED": [
        (
            'CONTEXT_CAPSULE_SECRET_DETECTED: Forbidden credential property "{key}" detected. (at {where})',
            'CONTEXT_CAPSULE_SECRET_DETECTED: Se detectó la propiedad de credencial prohibida "{key}". (en {where})',
        ),
        (
            "CONTEXT_CAPSULE_SECRET_DETECTED: Forbidden credential token pattern detected. (at {where})",
            "CONTEXT_CAPSULE_SECRET_DETECTED: Se detectó un patrón de token de credencial prohibido. (en {where})",
        ),
        (
            'CONTEXT_CAPSULE_SECRET_DETECTED: Forbidden credential property "{key}" detected.',
            'CONTEXT_CAPSULE_SECRET_DETECTED: Se detectó la propiedad de credencial prohibida "{key}".',
        ),
        (
            "CONTEXT_CAPSULE_SECRET_DETECTED: Forbidden credential token pattern detected.",
            "CONTEXT_CAPSULE_SECRET_DETECTED: Se detectó un patrón de token de credencial prohibido.",
        ),
        (
            "Left out of the capsule: {what:leftout} ({where:lineref}) matches the {kind:secretkind} pattern of the "
            "capsule's secret scan. Nothing that looks like a credential is ever written; reword it to keep it.",
            "Se dejó fuera de la cápsula: {what} ({where}) coincide con el patrón de {kind} del análisis de secretos "
            "de la cápsula. Nunca se escribe nada con aspecto de credencial; reformúlalo para conservarlo.",
        ),
    ],
    "CONTEXT_CAPSULE_SOURCE_MISMATCH": [
        (
            "Recorded source file {path} cannot be hashed: {detail}",
            "No se puede calcular el hash del archivo fuente registrado {path}: {detail}",
        ),
        (
            "Recorded source file missing on disk: {path}",
            "Falta en disco el archivo fuente registrado: {path}",
        ),
        (
            "Context capsule of {feature} is STALE: {what:stale} since it was generated. Regenerate it. "
            "({feature2} is not the active feature: a warning, not an error.)",
            "La context capsule de {feature} está DESACTUALIZADA (STALE): {what} desde que se generó. "
            "Regénerala. ({feature2} no es la feature activa: es una advertencia, no un error.)",
        ),
        (
            "Context capsule of {feature} is STALE: {what:stale} since it was generated. Regenerate it.",
            "La context capsule de {feature} está DESACTUALIZADA (STALE): {what} desde que se generó. Regénerala.",
        ),
    ],
    "CONTEXT_CAPSULE_STALE": [
        (
            "Source file {path} was modified since capsule generation.",
            "El archivo fuente {path} se modificó después de generar la cápsula.",
        ),
        (
            "Capsule source_set_hash does not reconcile with recorded source files.",
            "El source_set_hash de la cápsula no concuerda con los archivos fuente registrados.",
        ),
        (
            "New source {path} ({role}) appeared since capsule generation.",
            "Apareció la fuente nueva {path} ({role}) después de generar la cápsula.",
        ),
        (
            'The project name changed since capsule generation (now "{name}", from package.json, pyproject.toml '
            "or Cargo.toml).",
            'El nombre del proyecto cambió después de generar la cápsula (ahora "{name}", según package.json, '
            "pyproject.toml o Cargo.toml).",
        ),
        (
            "Shipped feature spec {path} changed since capsule generation.",
            "La spec de la feature entregada {path} cambió después de generar la cápsula.",
        ),
        (
            "Context capsule of {feature} is STALE: {what:stale} since it was generated. Regenerate it. "
            "({feature2} is not the active feature: a warning, not an error.)",
            "La context capsule de {feature} está DESACTUALIZADA (STALE): {what} desde que se generó. "
            "Regénerala. ({feature2} no es la feature activa: es una advertencia, no un error.)",
        ),
        (
            "Context capsule of {feature} is STALE: {what:stale} since it was generated. Regenerate it.",
            "La context capsule de {feature} está DESACTUALIZADA (STALE): {what} desde que se generó. Regénerala.",
        ),
    ],
    "CONTEXT_CAPSULE_INVARIANT_DROPPED": [
        (
            'Normative constraint "{rule}" is missing from capsule.',
            'La restricción normativa "{rule}" falta en la cápsula.',
        ),
        ('Frozen contract "{id}" is missing from capsule.', 'El contrato congelado "{id}" falta en la cápsula.'),
    ],
    "CONTEXT_CAPSULE_AUTHORITY_CONFLICT": [
        (
            "Capsule acceptance signature does not match spec.md's gemstack-test-matrix.",
            "La firma de aceptación de la cápsula no coincide con la gemstack-test-matrix de spec.md.",
        ),
        (
            'Capsule records {path} with role "{role}", but that file is the feature\'s {expected} source.',
            'La cápsula registra {path} con el rol "{role}", pero ese archivo es la fuente {expected} de la feature.',
        ),
        (
            'Capsule claims active feature "{claimed}" but it belongs to {feature}.',
            'La cápsula afirma que la feature activa es "{claimed}", pero pertenece a {feature}.',
        ),
        (
            'Capsule claims frozen contract "{id}" that spec.md does not declare.',
            'La cápsula afirma un contrato congelado "{id}" que spec.md no declara.',
        ),
        (
            'Frozen contract "{id}": capsule says type {claimed}, spec.md declares {declared}.',
            'Contrato congelado "{id}": la cápsula dice tipo {claimed}, spec.md declara {declared}.',
        ),
        (
            'Frozen contract "{id}": capsule value differs from the value spec.md declares.',
            'Contrato congelado "{id}": el valor de la cápsula difiere del valor que declara spec.md.',
        ),
        (
            'Frozen contract "{id}": capsule values differ from the values spec.md declares.',
            'Contrato congelado "{id}": los valores de la cápsula difieren de los que declara spec.md.',
        ),
        (
            'Frozen contract "{id}": capsule entity differs from spec.md.',
            'Contrato congelado "{id}": la entidad de la cápsula difiere de spec.md.',
        ),
        (
            "Capsule claims {claimed} acceptance tests; spec.md declares {declared}.",
            "La cápsula afirma {claimed} pruebas de aceptación; spec.md declara {declared}.",
        ),
        (
            "Capsule acceptance ids differ from spec.md: {parts:id_parts}.",
            "Los ids de aceptación de la cápsula difieren de spec.md: {parts}.",
        ),
        (
            "Capsule claims {claimed} tasks; tasks.md lists {listed}.",
            "La cápsula afirma {claimed} tareas; tasks.md lista {listed}.",
        ),
        (
            "Capsule claims {claimed} completed tasks; tasks.md shows {checked} checked.",
            "La cápsula afirma {claimed} tareas completadas; tasks.md muestra {checked} marcadas.",
        ),
        (
            'Capsule lists task "{id}" that tasks.md does not declare.',
            'La cápsula lista la tarea "{id}", que tasks.md no declara.',
        ),
        (
            "Capsule claims task {id} is complete; tasks.md shows it unchecked.",
            "La cápsula afirma que la tarea {id} está completa; tasks.md la muestra sin marcar.",
        ),
        (
            'Capsule names task "{id}" in progress, but tasks.md does not declare it.',
            'La cápsula nombra la tarea "{id}" como en curso, pero tasks.md no la declara.',
        ),
        (
            'Capsule claims phase "{claimed}"; state.json says "{actual}".',
            'La cápsula afirma la fase "{claimed}"; state.json dice "{actual}".',
        ),
        (
            'Capsule claims lifecycle status "{claimed}"; state.json says "{actual}".',
            'La cápsula afirma el estado de ciclo de vida "{claimed}"; state.json dice "{actual}".',
        ),
    ],
    # --- Closure evidence: the reference's own Spanish (verify stage 5) --------------------
    "CLOSURE_MANIFEST_MISSING": [
        (
            'closure.json does not exist in {feature}. Run "gemstack collect" to produce the mechanical evidence.',
            'closure.json no existe en {feature}. Ejecuta "gemstack collect" para generar la evidencia mecánica.',
        ),
    ],
    "CLOSURE_MANIFEST_INVALID": [
        (
            "closure.json is not valid JSON: Unexpected token '\ufeff' (a UTF-8 byte-order mark)",
            "closure.json tiene formato JSON inválido: Token inesperado '\ufeff' (una marca de orden de bytes UTF-8)",
        ),
        ("closure.json is not valid JSON: {error:json}", "closure.json tiene formato JSON inválido: {error}"),
        (
            "closure.json does not match the gemstack-closure v1 schema at {where:where}: {message:schema}",
            "closure.json no cumple el esquema gemstack-closure v1 en {where}: {message}",
        ),
    ],
    "CLOSURE_EVIDENCE_STALE": [
        (
            "The closure evidence is out of date with the project's current state. "
            'Run "gemstack collect" again. (Recorded: {recorded}..., Current: {current}...)',
            "La evidencia de cierre está desactualizada respecto al estado actual del proyecto. "
            'Re-ejecuta "gemstack collect". (Registrado: {recorded}..., Actual: {current}...)',
        ),
    ],
    "CLOSURE_NOT_VERIFIED": [
        (
            'The manifest status is "{status}". Blockers: {blockers}',
            'Estado del manifiesto es "{status}". Bloqueadores: {blockers}',
        ),
    ],
    "CLOSURE_EVIDENCE_CONTRADICTED": [
        (
            'closure.json says "{status}" but {count} task(s) of tasks.md are not checked: {names}.',
            'closure.json dice "{status}", pero {count} tarea(s) de tasks.md no están marcadas: {names}.',
        ),
        (
            'closure.json says "{status}" but only {passed} of its {total} required canonical tests passed.',
            'closure.json dice "{status}", pero solo {passed} de sus {total} pruebas canónicas requeridas pasaron.',
        ),
        (
            'closure.json of {feature} records the evidence of another feature, "{other}".',
            'closure.json de {feature} registra la evidencia de otra feature, "{other}".',
        ),
    ],
    # --- Cost and providers ---------------------------------------------------------------
    "COST_LEDGER_INVALID": [
        ("Cost ledger file not found at: {path}", "No se encontró el archivo del ledger de costos en: {path}"),
        ("Failed to read cost ledger: {detail}", "No se pudo leer el ledger de costos: {detail}"),
        (
            "Cost ledger malformed JSON syntax: Unexpected token '\ufeff' (the file starts with a UTF-8 byte-order "
            "mark; save it as UTF-8 without a BOM)",
            "Sintaxis JSON mal formada en el ledger de costos: Token inesperado '\ufeff' (el archivo empieza con una "
            "marca de orden de bytes UTF-8; guárdalo como UTF-8 sin BOM)",
        ),
        (
            "Cost ledger malformed JSON syntax: {error:json}",
            "Sintaxis JSON mal formada en el ledger de costos: {error}",
        ),
        (
            'Secret violation at {path}: Forbidden credential property name detected: "{key}"',
            'Violación de secreto en {path}: se detectó un nombre de propiedad de credencial prohibido: "{key}"',
        ),
        (
            "Secret violation at {path}: Forbidden secret pattern detected matching {pattern} in a property name",
            "Violación de secreto en {path}: se detectó un patrón de secreto prohibido que coincide con {pattern} "
            "en un nombre de propiedad",
        ),
        (
            "Secret violation at {path}: Forbidden secret pattern detected matching {pattern}",
            "Violación de secreto en {path}: se detectó un patrón de secreto prohibido que coincide con {pattern}",
        ),
        ("Cost ledger root must be a JSON object", "La raíz del ledger de costos debe ser un objeto JSON"),
        ("Cost ledger version must be 1, got {value}", "La versión del ledger de costos debe ser 1, se obtuvo {value}"),
        (
            'Cost ledger requires non-empty string field "currency"',
            'El ledger de costos requiere el campo de texto no vacío "currency"',
        ),
        ('Cost ledger requires "providers" map', 'El ledger de costos requiere el mapa "providers"'),
        ('Provider "{id}" must be an object', 'El proveedor "{id}" debe ser un objeto'),
        (
            'Provider "{id}" has invalid type "{type}". Must be one of: {allowed}',
            'El proveedor "{id}" tiene un tipo inválido "{type}". Debe ser uno de: {allowed}',
        ),
        (
            'Provider "{id}" requires string field "pricing_model"',
            'El proveedor "{id}" requiere el campo de texto "pricing_model"',
        ),
        ('Provider "{id}" requires "capabilities" map', 'El proveedor "{id}" requiere el mapa "capabilities"'),
        (
            'Provider "{id}" capability "{cap}" must be an object',
            'La capacidad "{cap}" del proveedor "{id}" debe ser un objeto',
        ),
        (
            'Capability "{id}" has invalid cost_state "{state}". Must be one of: {allowed}',
            'La capacidad "{id}" tiene un cost_state inválido "{state}". Debe ser uno de: {allowed}',
        ),
        (
            'Capability "{id}" requires non-negative number "estimated_unit_cost"',
            'La capacidad "{id}" requiere el número no negativo "estimated_unit_cost"',
        ),
        (
            'Capability "{id}" has invalid freshness_date: "{date}"',
            'La capacidad "{id}" tiene un freshness_date inválido: "{date}"',
        ),
    ],
    "STALE_PROVIDER_COST_ASSUMPTION": [
        (
            "[{entry}] Capability entry missing required freshness_date",
            "[{entry}] A la entrada de capacidad le falta el freshness_date obligatorio",
        ),
        ('[{entry}] Invalid freshness_date: "{date}"', '[{entry}] freshness_date inválido: "{date}"'),
        (
            '[{entry}] Pricing assumption freshness date "{date}" is {age} days old (exceeds {limit} days limit)',
            '[{entry}] La fecha de vigencia del supuesto de precio "{date}" tiene {age} días de antigüedad (supera el '
            "límite de {limit} días)",
        ),
    ],
    "LEGACY_NO_PROVIDERS_DECLARED": [
        (
            "No cost or provider declarations were found (legacy provider-free mode): no ledger, no "
            ".gemstack/providers.json, no gemstack-billable-actions or gemstack-capabilities block.",
            "No se detectaron declaraciones de costos o proveedores (Modo Legacy Provider-Free): ningún ledger, "
            "ningún .gemstack/providers.json, ningún bloque gemstack-billable-actions ni gemstack-capabilities.",
        ),
    ],
    "PROVIDER_REGISTRY_INVALID": [
        (
            "Provider registry malformed JSON syntax: {error:json}",
            "Sintaxis JSON mal formada en el registro de proveedores: {error}",
        ),
        (
            "Invalid provider registry at {where:where}: {message:schema}",
            "Registro de proveedores inválido en {where}: {message}",
        ),
        (
            'Invalid provider ID format: "{id}". Must match slug pattern: /^[a-z0-9]+(-[a-z0-9]+)*$/',
            'Formato de ID de proveedor inválido: "{id}". Debe cumplir el patrón slug: /^[a-z0-9]+(-[a-z0-9]+)*$/',
        ),
        (
            'Invalid provider ID format: "{id}". Must match slug pattern: /^[a-z0-9]+(-[a-z0-9]+)*$/ (provider '
            '"{pid}")',
            'Formato de ID de proveedor inválido: "{id}". Debe cumplir el patrón slug: /^[a-z0-9]+(-[a-z0-9]+)*$/ '
            '(proveedor "{pid}")',
        ),
    ],
    "PROVIDER_DECLARATION_CONFLICT": [
        (
            'Provider "{id}" is declared as {other} in {other_path}, but as {first} in {first_path}.',
            'El proveedor "{id}" está declarado como {other} en {other_path}, pero como {first} en {first_path}.',
        ),
        (
            'Provider "{id}" is declared twice in gemstack-capabilities blocks with different {what}.',
            'El proveedor "{id}" está declarado dos veces en bloques gemstack-capabilities con distintos {what}.',
        ),
    ],
    "MOCK_PROVIDER_ESCAPE_VIOLATION": [
        (
            'Mock provider declared forbidden remote endpoint at field "{field}": {value} (provider "{id}")',
            'El proveedor mock declaró un endpoint remoto prohibido en el campo "{field}": {value} (proveedor "{id}")',
        ),
        (
            'Mock capability "{cap}" declared forbidden remote endpoint at "{field}". (provider "{id}")',
            'La capacidad mock "{cap}" declaró un endpoint remoto prohibido en "{field}". (proveedor "{id}")',
        ),
        (
            'Mock provider declared forbidden remote endpoint at field "{field}": {value}',
            'El proveedor mock declaró un endpoint remoto prohibido en el campo "{field}": {value}',
        ),
        (
            'Mock capability "{cap}" declared forbidden remote endpoint at "{field}".',
            'La capacidad mock "{cap}" declaró un endpoint remoto prohibido en "{field}".',
        ),
    ],
    "PROVIDER_CAPABILITY_UNDECLARED": [
        (
            'Capability "{cap}" is not declared for provider "{id}" (action "{action}").',
            'La capacidad "{cap}" no está declarada para el proveedor "{id}" (acción "{action}").',
        ),
    ],
    "PROVIDER_CAPABILITY_UNSUPPORTED": [
        (
            'Adapter "{adapter}" for provider "{id}" does not implement capability "{cap}" (action "{action}").',
            'El adaptador "{adapter}" del proveedor "{id}" no implementa la capacidad "{cap}" (acción "{action}").',
        ),
    ],
    "PROVIDER_FALLBACK_TO_BILLABLE": [
        (
            'Action "{action}" falls back from "{free}" to billable provider "{id}": if "{free2}" fails, the action '
            'would spend money. "{id2}" is gated again on its own and needs its own spending authorization.',
            'La acción "{action}" recurre de "{free}" al proveedor facturable "{id}": si "{free2}" falla, la acción '
            'gastaría dinero. "{id2}" vuelve a pasar por las compuertas por sí solo y necesita su propia '
            "autorización de gasto.",
        ),
    ],
    "UNKNOWN_PROVIDER_IDENTITY": [
        (
            'Invalid provider ID format: "{id}". Must match slug pattern: /^[a-z0-9]+(-[a-z0-9]+)*$/',
            'Formato de ID de proveedor inválido: "{id}". Debe cumplir el patrón slug: /^[a-z0-9]+(-[a-z0-9]+)*$/',
        ),
        (
            'Provider "{id}" is not registered in provider registry (action "{action}"). {detail:hint}',
            'El proveedor "{id}" no está registrado en el registro de proveedores (acción "{action}"). {detail}',
        ),
    ],
    "UNKNOWN_COST_CLASSIFICATION": [
        (
            'Action "{action}" has UNKNOWN cost classification on provider "{id}" ({why:why}). Fail-closed: '
            "execution denied until it is classified.",
            'La acción "{action}" tiene clasificación de costo UNKNOWN en el proveedor "{id}" ({why}). Cierre seguro '
            "(fail-closed): ejecución denegada hasta que se clasifique.",
        ),
    ],
    "UNDECLARED_BILLABLE_ACTION": [
        (
            'Billable action "{id}" is bound in plan.md but not declared in {spec}.',
            'La acción facturable "{id}" está vinculada en plan.md pero no está declarada en {spec}.',
        ),
        (
            'Billable action "{id}" is invoked by a task but not declared in {spec}.',
            'La acción facturable "{id}" es invocada por una tarea pero no está declarada en {spec}.',
        ),
    ],
    "BILLABLE_ACTIONS_INVALID": [
        (
            "Failed to parse gemstack-billable-actions JSON: {error:json}",
            "No se pudo analizar el JSON de gemstack-billable-actions: {error}",
        ),
        (
            "Found {n} gemstack-billable-actions blocks; exactly one is permitted per document.",
            "Se encontraron {n} bloques gemstack-billable-actions; se permite exactamente uno por documento.",
        ),
        ('Duplicate billable action id "{id}".', 'Id de acción facturable duplicado "{id}".'),
        (
            "Invalid billable action at {where:where}: {message:schema}",
            "Acción facturable inválida en {where}: {message}",
        ),
    ],
    "CAPABILITIES_INVALID": [
        (
            "Failed to parse gemstack-capabilities JSON: {error:json}",
            "No se pudo analizar el JSON de gemstack-capabilities: {error}",
        ),
        (
            "Found {n} gemstack-capabilities blocks; exactly one is permitted per document.",
            "Se encontraron {n} bloques gemstack-capabilities; se permite exactamente uno por documento.",
        ),
        (
            "Invalid provider declaration at {where:where}: {message:schema}",
            "Declaración de proveedor inválida en {where}: {message}",
        ),
    ],
    # --- Blocks (the reference's messages, section 9) ---------------------------------------
    "CONTRACT_PARSE_ERROR": [
        (
            "Multiple gemstack-contracts blocks detected ({n}). Exactly one is permitted.",
            "Se detectaron varios bloques gemstack-contracts ({n}). Se permite exactamente uno.",
        ),
        (
            "Multiple gemstack-inherited-contracts blocks detected ({n}). Exactly one is permitted.",
            "Se detectaron varios bloques gemstack-inherited-contracts ({n}). Se permite exactamente uno.",
        ),
        ("Malformed JSON in {kind} block: {error:json}", "JSON mal formado en el bloque {kind}: {error}"),
    ],
    "CONTRACT_INVALID_SHAPE": [
        (
            "{kind} content must be a JSON array of contract objects",
            "El contenido de {kind} debe ser un array JSON de objetos de contrato",
        ),
        ("Each contract must be a non-null object", "Cada contrato debe ser un objeto no nulo"),
        ("Contract missing valid string id", "Al contrato le falta un id de texto válido"),
        ('ENUM_SET "{id}" requires a values array', 'ENUM_SET "{id}" requiere un array values'),
        (
            'IDENTITY_TUPLE "{id}" requires a values array of dimensions',
            'IDENTITY_TUPLE "{id}" requiere un array values de dimensiones',
        ),
        (
            'ENUM_SET "{id}" contains empty or non-string member',
            'ENUM_SET "{id}" contiene un miembro vacío o que no es texto',
        ),
        (
            'IDENTITY_TUPLE "{id}" contains invalid dimension string',
            'IDENTITY_TUPLE "{id}" contiene un texto de dimensión inválido',
        ),
        ('ENUM_SET "{id}" contains duplicate value "{value}"', 'ENUM_SET "{id}" contiene el valor duplicado "{value}"'),
        (
            'IDENTITY_TUPLE "{id}" contains duplicate dimension "{value}"',
            'IDENTITY_TUPLE "{id}" contiene la dimensión duplicada "{value}"',
        ),
        ('PROVENANCE_RULE "{id}" requires an entity string', 'PROVENANCE_RULE "{id}" requiere un texto entity'),
        (
            'PROVENANCE_RULE "{id}" requires a values array of provenance fields',
            'PROVENANCE_RULE "{id}" requiere un array values de campos de procedencia',
        ),
        (
            'PROVENANCE_RULE "{id}" contains invalid field string',
            'PROVENANCE_RULE "{id}" contiene un texto de campo inválido',
        ),
        (
            'BOOLEAN_INVARIANT "{id}" requires native boolean value, got {type}',
            'BOOLEAN_INVARIANT "{id}" requiere un valor booleano nativo, se obtuvo {type}',
        ),
        (
            'BOUNDARY "{id}" value must be strictly "FORBIDDEN" or "REQUIRED", got "{value}"',
            'El valor de BOUNDARY "{id}" debe ser estrictamente "FORBIDDEN" o "REQUIRED", se obtuvo "{value}"',
        ),
        (
            'ROADMAP_LIMIT "{id}" value must be a number or string',
            'El valor de ROADMAP_LIMIT "{id}" debe ser un número o un texto',
        ),
    ],
    "CONTRACT_DUPLICATE_ID": [
        ('Duplicate contract ID detected: "{id}"', 'Se detectó un ID de contrato duplicado: "{id}"'),
    ],
    "CONTRACT_UNKNOWN_TYPE": [
        (
            'Unknown contract type: "{type}" on contract "{id}"',
            'Tipo de contrato desconocido: "{type}" en el contrato "{id}"',
        ),
    ],
    "TEST_MATRIX_PARSE_ERROR": [
        (
            "Multiple gemstack-test-matrix blocks detected ({n}). Exactly one is permitted.",
            "Se detectaron varios bloques gemstack-test-matrix ({n}). Se permite exactamente uno.",
        ),
        (
            "Failed to parse gemstack-test-matrix JSON: {error:json}",
            "No se pudo analizar el JSON de gemstack-test-matrix: {error}",
        ),
    ],
    "TEST_MATRIX_INVALID_SHAPE": [
        (
            "gemstack-test-matrix must be a JSON array of test objects",
            "gemstack-test-matrix debe ser un array JSON de objetos de prueba",
        ),
        (
            "Item at index {i} in gemstack-test-matrix must be a non-null object",
            "El elemento en el índice {i} de gemstack-test-matrix debe ser un objeto no nulo",
        ),
        (
            'Item at index {i} contains unknown field: "{field}"',
            'El elemento en el índice {i} contiene un campo desconocido: "{field}"',
        ),
        (
            'Item at index {i} missing required field: "{field}"',
            'Al elemento en el índice {i} le falta el campo obligatorio: "{field}"',
        ),
        (
            'Item at index {i} field "{field}" must be a non-empty string',
            'El campo "{field}" del elemento en el índice {i} debe ser un texto no vacío',
        ),
        (
            'Item at index {i} has invalid ID "{id}". Must match {pattern}',
            'El elemento en el índice {i} tiene un ID inválido "{id}". Debe cumplir {pattern}',
        ),
        (
            'Item "{id}" has invalid layer "{layer}". Must be one of: {allowed}',
            'El elemento "{id}" tiene una capa (layer) inválida "{layer}". Debe ser una de: {allowed}',
        ),
        (
            'Item "{id}" has invalid gate "{gate}". Must be one of: {allowed}',
            'El elemento "{id}" tiene una compuerta (gate) inválida "{gate}". Debe ser una de: {allowed}',
        ),
    ],
    "TEST_MATRIX_DUPLICATE_ID": [
        (
            'Duplicate test ID detected in gemstack-test-matrix: "{id}"',
            'Se detectó un ID de prueba duplicado en gemstack-test-matrix: "{id}"',
        ),
    ],
    "BINDINGS_PARSE_ERROR": [
        (
            "Multiple gemstack-test-bindings blocks detected. Exactly one is permitted.",
            "Se detectaron varios bloques gemstack-test-bindings. Se permite exactamente uno.",
        ),
        (
            "Multiple gemstack-test-bindings blocks detected ({n}). Exactly one is permitted.",
            "Se detectaron varios bloques gemstack-test-bindings ({n}). Se permite exactamente uno.",
        ),
        (
            "Failed to parse gemstack-test-bindings JSON: {error:json}",
            "No se pudo analizar el JSON de gemstack-test-bindings: {error}",
        ),
        ("gemstack-test-bindings must be a JSON array", "gemstack-test-bindings debe ser un array JSON"),
        ("Binding at index {i} must be an object", "La vinculación en el índice {i} debe ser un objeto"),
        ("Binding at index {i} missing test_id", "A la vinculación en el índice {i} le falta test_id"),
        (
            'Binding references unknown canonical ID: "{id}"',
            'La vinculación hace referencia a un ID canónico desconocido: "{id}"',
        ),
        ('Binding for "{id}" missing file', 'A la vinculación de "{id}" le falta file'),
        (
            'Binding file must be repository-relative POSIX path: "{file}"',
            'El file de la vinculación debe ser una ruta POSIX relativa al repositorio: "{file}"',
        ),
    ],
    "DUPLICATE_TEST_BINDING": [
        ('Duplicate test_id binding detected: "{id}"', 'Se detectó una vinculación de test_id duplicada: "{id}"'),
    ],
    "GATES_PARSE_ERROR": [
        (
            "Multiple gemstack-closure-gates blocks detected. Exactly one is permitted.",
            "Se detectaron varios bloques gemstack-closure-gates. Se permite exactamente uno.",
        ),
        (
            "Multiple gemstack-closure-gates blocks detected ({n}). Exactly one is permitted.",
            "Se detectaron varios bloques gemstack-closure-gates ({n}). Se permite exactamente uno.",
        ),
        (
            "Failed to parse gemstack-closure-gates JSON: {error:json}",
            "No se pudo analizar el JSON de gemstack-closure-gates: {error}",
        ),
        ("gemstack-closure-gates must be a JSON array", "gemstack-closure-gates debe ser un array JSON"),
        ("Gate at index {i} must be an object", "La compuerta en el índice {i} debe ser un objeto"),
        ("Gate at index {i} missing id", "A la compuerta en el índice {i} le falta id"),
        ('Duplicate gate id detected: "{id}"', 'Se detectó un id de compuerta duplicado: "{id}"'),
        (
            'Unsupported gate type: "{type}". Only PACKAGE_SCRIPT is supported in MVP.',
            'Tipo de compuerta no soportado: "{type}". Solo PACKAGE_SCRIPT está soportado en el MVP.',
        ),
        (
            'PACKAGE_SCRIPT gate "{id}" missing script name',
            'A la compuerta PACKAGE_SCRIPT "{id}" le falta el nombre del script',
        ),
        (
            'Gate "{id}" has invalid requirement: "{value}"',
            'La compuerta "{id}" tiene un requirement inválido: "{value}"',
        ),
        (
            'REQUIRED gate "{id}" requires explicit boolean waivable property',
            'La compuerta REQUIRED "{id}" requiere la propiedad booleana explícita waivable',
        ),
    ],
    "TASK_VALIDATION_MISSING": [
        (
            "Task {id} must explicitly declare validation_required",
            "La tarea {id} debe declarar explícitamente validation_required",
        ),
        (
            "Task {id} has validation_required=true but specifies no tests",
            "La tarea {id} tiene validation_required=true pero no especifica pruebas",
        ),
    ],
    "FROZEN_CONTRACT_VIOLATION": [
        (
            'Frozen contract "{id}" is contradicted in {phase} ({type}): type {expected} became {observed}.',
            'El contrato congelado "{id}" se contradice en {phase} ({type}): el tipo {expected} pasó a ser {observed}.',
        ),
        (
            'Frozen contract "{id}" is contradicted in {phase} ({type}): expected {expected}, observed {observed}.',
            'El contrato congelado "{id}" se contradice en {phase} ({type}): se esperaba {expected}, se observó '
            "{observed}.",
        ),
        (
            'Frozen contract "{id}" is contradicted in {phase} ({type}): {parts:delta}.',
            'El contrato congelado "{id}" se contradice en {phase} ({type}): {parts}.',
        ),
    ],
    "FROZEN_ARTIFACT_CHANGED": [
        (
            "The frozen artifact {name} of {feature} changed after state.json recorded its hash (recorded "
            "{recorded}..., now {actual}...). Regenerating the context capsule does not re-freeze the {phase} "
            "phase: undo the change to {name2}, or approve the {phase2} phase again in the Gemstack workflow so "
            "that it records the new hash in .gemstack/state.json (phase_hashes.{phase3}).",
            "El artefacto congelado {name} de {feature} fue mutado sin autorización después de que state.json "
            "registrara su hash (hash esperado: {recorded}..., actual: {actual}...). Regenerar la context capsule "
            "no vuelve a congelar la fase {phase}: deshaz el cambio en {name2}, o aprueba de nuevo la fase {phase2} "
            "en el flujo de Gemstack para que registre el nuevo hash en .gemstack/state.json "
            "(phase_hashes.{phase3}).",
        ),
        (
            "{name} changed after its phase was frozen: state.json records another hash (recorded {recorded}..., "
            "now {actual}...). Regenerating the context capsule does not re-freeze the {phase} phase: undo the "
            "change to {name2}, or approve the {phase2} phase again in the Gemstack workflow so that it records "
            "the new hash in .gemstack/state.json (phase_hashes.{phase3}).",
            "{name} fue mutado después de congelar su fase: state.json registra otro hash (hash esperado: "
            "{recorded}..., actual: {actual}...). Regenerar la context capsule no vuelve a congelar la fase "
            "{phase}: deshaz el cambio en {name2}, o aprueba de nuevo la fase {phase2} en el flujo de Gemstack "
            "para que registre el nuevo hash en .gemstack/state.json (phase_hashes.{phase3}).",
        ),
    ],
    # --- Documents and state ----------------------------------------------------------------
    "FENCE_UNSEEN_BY_REFERENCE": [
        (
            "The reference gemstack CLI would not read this {kind} block as shown: {issue:fences}.",
            "El CLI de referencia de gemstack no leería este bloque {kind} tal como se muestra: {issue}.",
        ),
        (
            "The reference gemstack CLI would read a {kind} block here (lines {lines}), but {why:mismatch}.",
            "El CLI de referencia de gemstack leería aquí un bloque {kind} (líneas {lines}), pero {why}.",
        ),
    ],
    "JSON_SYNTAX_ERROR": [
        (
            "{name} is not valid JSON: it starts with a UTF-8 byte-order mark, which JSON.parse refuses.",
            "{name} no es JSON válido: empieza con una marca de orden de bytes UTF-8, que JSON.parse rechaza.",
        ),
        ("{name} is not valid JSON: {error:json}", "{name} no es JSON válido: {error}"),
    ],
    "JSON_DUPLICATE_KEY": [
        (
            'Duplicate key "{key}" in this {kind} object: JSON.parse keeps only its last value.',
            'Clave duplicada "{key}" en este objeto {kind}: JSON.parse conserva solo su último valor.',
        ),
        (
            'state.json repeats the key "{key}"; JSON.parse keeps only the last value.',
            'state.json repite la clave "{key}"; JSON.parse conserva solo el último valor.',
        ),
        (
            'Duplicate key "{key}" in {name}: JSON.parse keeps only its last value.',
            'Clave duplicada "{key}" en {name}: JSON.parse conserva solo su último valor.',
        ),
    ],
    "ARTIFACT_ENCODING_INVALID": [
        (
            "UTF-8 BOM is forbidden in phase artifacts.",
            "El BOM de UTF-8 está prohibido en los artefactos de fase.",
        ),
        (
            "{name} starts with a UTF-8 byte-order mark; Gemstack artifacts must be UTF-8 without a BOM (the "
            "reference refuses to hash it).",
            "{name} empieza con una marca de orden de bytes UTF-8; los artefactos de Gemstack deben ser UTF-8 sin BOM "
            "(la referencia se niega a calcular su hash).",
        ),
        (
            "{name} is not valid UTF-8: byte {byte} at byte offset {offset} starts an invalid sequence (it reads as "
            "U+FFFD and changes the file's hash).",
            "{name} no es UTF-8 válido: el byte {byte} en el desplazamiento {offset} inicia una secuencia inválida "
            "(se lee como U+FFFD y cambia el hash del archivo).",
        ),
    ],
    "ARTIFACT_UNREADABLE": [
        (
            "{name} cannot be analysed: {reason:reason} ({detail:detail}); none of its features were checked.",
            "{name} no se puede analizar: {reason} ({detail}); no se comprobó ninguna de sus features.",
        ),
        (
            "{name} cannot be analysed: {reason:reason}; none of its features were checked.",
            "{name} no se puede analizar: {reason}; no se comprobó ninguna de sus features.",
        ),
        (
            "{name} cannot be analysed: {reason:reason} ({detail:detail}).",
            "{name} no se puede analizar: {reason} ({detail}).",
        ),
        ("{name} cannot be analysed: {reason:reason}.", "{name} no se puede analizar: {reason}."),
    ],
    "STATE_INVALID": [
        ("state.json is not valid JSON: {error:json}", ".gemstack/state.json tiene formato JSON inválido: {error}"),
        (
            "state.json should hold a JSON object, not {kind:kind}; it is ignored.",
            "state.json debería contener un objeto JSON, no {kind}; se ignora.",
        ),
        (
            '"{name}" should be a string or null, not {kind:kind}; it is ignored.',
            '"{name}" debería ser un texto o null, no {kind}; se ignora.',
        ),
        (
            '"{name}" should be an array of strings, not {kind:kind}; it is ignored.',
            '"{name}" debería ser un array de textos, no {kind}; se ignora.',
        ),
        (
            '"{name}" should hold only strings, not {kind:kind}; it is ignored.',
            '"{name}" debería contener solo textos, no {kind}; se ignora.',
        ),
        (
            '"phase_hashes" should be an object, not {kind:kind}; it is ignored.',
            '"phase_hashes" debería ser un objeto, no {kind}; se ignora.',
        ),
        (
            '"phase_hashes.{phase}" should be a hash string or null, not {kind:kind}; it is ignored.',
            '"phase_hashes.{phase}" debería ser un texto de hash o null, no {kind}; se ignora.',
        ),
        (
            'active_spec "{value}" {reason:spec_reason}, so no feature is active.',
            'active_spec "{value}" {reason}, así que no hay ninguna feature activa.',
        ),
        ('active_spec "{value}" {reason:spec_reason}.', 'active_spec "{value}" {reason}.'),
    ],
    "PATH_LOOKS_SECRET": [
        (
            "The name of the feature folder {path} looks like a secret ({kinds}). Paths are shown and linked as "
            "they are (never redacted), so every finding of this feature repeats it: rename the folder if it "
            "holds a real credential.",
            "El nombre de la carpeta de la feature {path} parece un secreto ({kinds}). Las rutas se muestran y "
            "enlazan tal cual (nunca se ocultan), así que cada hallazgo de esta feature lo repite: renombra la "
            "carpeta si contiene una credencial real.",
        ),
    ],
    "STATE_ACTIVE_SPEC_MISSING": [
        (
            'active_spec "{value}" has no spec.md ({path} does not exist).',
            'Desfase de estado: active_spec apunta a "{value}", pero "{path}" no existe.',
        ),
    ],
    "TASKS_UNREAD_BY_REFERENCE": [
        (
            "The reference reads no tasks in this file: none of its {count} checklist item(s) (the first, line "
            "{line}: `{shape}`) is in the form it parses. It reads a task only from a line starting `{form}`, "
            "followed by `{comment}`.",
            "La referencia no lee ninguna tarea en este archivo: ninguno de sus {count} elementos de lista de "
            "comprobación (el primero, línea {line}: `{shape}`) tiene la forma que analiza. Solo lee una tarea de una "
            "línea que empieza por `{form}`, seguida de `{comment}`.",
        ),
    ],
    "TASKS_LIFECYCLE_CONTRADICTED": [
        (
            "The header says {word}, but {unchecked} of {total} task box(es) are unchecked (the first, line {line}: "
            "{first}). Tick the tasks that are done, or set the header to the phase the boxes show.",
            "La cabecera dice {word}, pero {unchecked} de {total} casillas de tarea están sin marcar (la primera, "
            "línea {line}: {first}). Marca las tareas terminadas, o pon en la cabecera la fase que muestran las "
            "casillas.",
        ),
    ],
    "GEMSTACK_INTERNAL_ERROR": [
        (
            "The {family} checks failed on {path}: {error}",
            "Las comprobaciones de {family} fallaron en {path}: {error}",
        ),
        (
            "Parsing the {kind} block failed: {error}",
            "Falló el análisis del bloque {kind}: {error}",
        ),
    ],
}

#: Values of ``{name:vocabulary}`` placeholders: vocabulary -> [(English, Spanish), ...].
PHRASES: dict[str, list[tuple[str, str]]] = {
    # What jsonspan (our JSON.parse) and Python's json say about a syntax error.
    "json": [
        (
            "Unexpected end of JSON input (expected {expected:expected})",
            "Fin inesperado de la entrada JSON (se esperaba {expected})",
        ),
        ("Unexpected end of JSON input", "Fin inesperado de la entrada JSON"),
        ("Unexpected {what:what} after the JSON value", "{what} inesperado después del valor JSON"),
        ("Unexpected {what:what}, expected {expected:expected}", "{what} inesperado, se esperaba {expected}"),
        ("Trailing comma before '{c}'", "Coma final antes de '{c}'"),
        ("Unterminated string", "Texto sin terminar"),
        ("Bad control character U+{hex} in string", "Carácter de control U+{hex} no válido en un texto"),
        ("Bad Unicode escape in string", "Escape Unicode no válido en un texto"),
        ("Bad escaped character in string", "Carácter escapado no válido en un texto"),
        ("JSON nested deeper than {n} levels is not read", "No se lee JSON anidado a más de {n} niveles"),
        (
            "More than {n} JSON values: the document is not read (a limit that bounds memory)",
            "Más de {n} valores JSON: el documento no se lee (un límite que acota la memoria)",
        ),
        ("Expecting value", "Se esperaba un valor"),
        (
            "Expecting property name enclosed in double quotes",
            "Se esperaba un nombre de propiedad entre comillas dobles",
        ),
        ("Expecting ',' delimiter", "Se esperaba el delimitador ','"),
        ("Expecting ':' delimiter", "Se esperaba el delimitador ':'"),
        ("Unterminated string starting at", "Texto sin terminar que empieza en"),
        ("Invalid control character at", "Carácter de control no válido en"),
        ("Invalid \\escape", "Escape \\ no válido"),
        ("Invalid \\uXXXX escape", "Escape \\uXXXX no válido"),
        ("Extra data", "Datos adicionales"),
        (
            "Unexpected token {token} in JSON (NaN and Infinity are not JSON)",
            "Token inesperado {token} en JSON (NaN e Infinity no son JSON)",
        ),
    ],
    "what": [
        ("comment (comments are not allowed in JSON)", "comentario (en JSON no se permiten comentarios)"),
        (
            "single-quoted string (JSON strings use double quotes)",
            "texto entre comillas simples (los textos JSON usan comillas dobles)",
        ),
        ("{word} (not valid JSON)", "{word} (no es JSON válido)"),
        ("token '{word}'", "token '{word}'"),
        ("control character U+{hex}", "carácter de control U+{hex}"),
    ],
    "expected": [
        ("a value", "un valor"),
        ("a double-quoted property name", "un nombre de propiedad entre comillas dobles"),
        ("':' after the property name", "':' después del nombre de propiedad"),
        ("',' or '{close}'", "',' o '{close}'"),
    ],
    # What jsonschema says (the validators our schemas use).
    "schema": [
        ("{name} is a required property", "{name} es una propiedad obligatoria"),
        ("{value} is not of type {types}", "{value} no es del tipo {types}"),
        ("{value} is not one of {options}", "{value} no es uno de {options}"),
        ("{value} was expected", "se esperaba {value}"),
        (
            "{value} is not valid under any of the given schemas",
            "{value} no es válido con ninguno de los esquemas dados",
        ),
        ("{value} is too short", "{value} es demasiado corto"),
        ("{value} is too long", "{value} es demasiado largo"),
        ("{value} should be non-empty", "{value} no debería estar vacío"),
        ("{value} is less than the minimum of {n}", "{value} es menor que el mínimo de {n}"),
        ("{value} is greater than the maximum of {n}", "{value} es mayor que el máximo de {n}"),
        ("{value} does not match {pattern}", "{value} no cumple {pattern}"),
        ("{value} has non-unique elements", "{value} tiene elementos repetidos"),
        (
            "Additional properties are not allowed ({names} were unexpected)",
            "No se permiten propiedades adicionales ({names} no se esperaban)",
        ),
        (
            "Additional properties are not allowed ({names} was unexpected)",
            "No se permiten propiedades adicionales ({names} no se esperaba)",
        ),
    ],
    "kind": [
        ("null", "null"),
        ("an array", "un array"),
        ("an object", "un objeto"),
        ("a number", "un número"),
        ("a string", "un texto"),
        ("a boolean", "un booleano"),
    ],
    "reason": [
        ("it is not a regular file", "no es un archivo normal"),
        ("it is a symbolic link that leads outside the repository", "es un enlace simbólico que sale del repositorio"),
        ("it is too large to analyse", "es demasiado grande para analizarlo"),
        ("it could not be read", "no se pudo leer"),
    ],
    "detail": [
        ("is a directory", "es un directorio"),
        ("is {kind}", "es {kind}"),
        ("resolves to {path}", "apunta a {path}"),
        ("{n} bytes", "{n} bytes"),
        ("more than {n} bytes", "más de {n} bytes"),
        ("Permission denied", "Permiso denegado"),
        ("No such file or directory", "No existe el archivo o el directorio"),
        ("Too many levels of symbolic links", "Demasiados niveles de enlaces simbólicos"),
        ("Symlink loop from {path}", "Bucle de enlaces simbólicos desde {path}"),
        ("Is a directory", "Es un directorio"),
        ("Not a directory", "No es un directorio"),
    ],
    "spec_reason": [
        ("lies outside the repository", "está fuera del repositorio"),
        ("leads outside the repository", "lleva fuera del repositorio"),
        (
            "names the repository root, not a feature folder",
            "nombra la raíz del repositorio, no una carpeta de feature",
        ),
        ("is not a feature folder under specs/", "no es una carpeta de feature dentro de specs/"),
    ],
    "fences": [
        ("{a:fence}; {b:fences}", "{a}; {b}"),
        ("{a:fence}", "{a}"),
    ],
    "fence": [
        ("it is inside a {container:container}", "está dentro de {container}"),
        ("its opening fence is indented {n} space", "su cerca de apertura está sangrada {n} espacio"),
        ("its opening fence is indented {n} spaces", "su cerca de apertura está sangrada {n} espacios"),
        ("it uses a tilde fence", "usa una cerca de tildes"),
        ("its fence has {n} backticks, not 3", "su cerca tiene {n} comillas invertidas, no 3"),
        (
            'its info string "{info}" has words after {kind}',
            'su cadena de información "{info}" tiene palabras después de {kind}',
        ),
        (
            "it is unterminated, and the reference drops an unterminated block",
            "no está terminado, y la referencia descarta un bloque no terminado",
        ),
        (
            "it is unterminated, and the reference would close it at line {n} instead",
            "no está terminado, y la referencia lo cerraría en cambio en la línea {n}",
        ),
        (
            "{why:close}, and the reference drops it as unterminated",
            "{why}, y la referencia lo descarta como no terminado",
        ),
        (
            "{why:close}, so the reference reads on to line {n}",
            "{why}, así que la referencia sigue leyendo hasta la línea {n}",
        ),
    ],
    "close": [
        ("its closing fence line is not a bare ```", "su línea de cerca de cierre no es un ``` solo"),
        ("its closing fence is indented {n} space", "su cerca de cierre está sangrada {n} espacio"),
        ("its closing fence is indented {n} spaces", "su cerca de cierre está sangrada {n} espacios"),
        ("it is closed by a longer fence of {n} backticks", "lo cierra una cerca más larga de {n} comillas invertidas"),
        ("the reference does not end it at line {n}", "la referencia no lo termina en la línea {n}"),
    ],
    "container": [
        ("{a:container} > {b:container}", "{a} > {b}"),
        ("blockquote", "una cita"),
        ("list item", "un elemento de lista"),
    ],
    "mismatch": [
        (
            'Markdown reads its info string as "{info}", not {kind}',
            'Markdown lee su cadena de información como "{info}", no {kind}',
        ),
        (
            "in Markdown this line is content of the code block opened on line {n}",
            "en Markdown esta línea es contenido del bloque de código abierto en la línea {n}",
        ),
        (
            "in Markdown this line does not open a code block here",
            "en Markdown esta línea no abre aquí un bloque de código",
        ),
    ],
    "leftout": [
        ('a deferred item of "{h}"', 'un elemento diferido de "{h}"'),
        ('an open question of "{h}"', 'una pregunta abierta de "{h}"'),
        ("a relevant file name", "un nombre de archivo relevante"),
        ('the description of contract "{id}"', 'la descripción del contrato "{id}"'),
        ('the values of contract "{id}"', 'los valores del contrato "{id}"'),
        ('the entity of contract "{id}"', 'la entidad del contrato "{id}"'),
        ("the title of a shipped feature", "el título de una feature entregada"),
        ("a contract id of a shipped feature", "un id de contrato de una feature entregada"),
        ("the spec's title", "el título de la spec"),
        ("the project name", "el nombre del proyecto"),
    ],
    "lineref": [
        ("{path} line {n}", "{path} línea {n}"),
        ("{path}", "{path}"),
    ],
    "secretkind": [
        ("[redacted {kind}]", "[{kind} oculto]"),
        ('a forbidden property name "{key}"', 'un nombre de propiedad prohibido "{key}"'),
        ("AWS access key", "clave de acceso de AWS"),
        ("GitHub token", "token de GitHub"),
        ("API secret key", "clave secreta de API"),
        ("Google API key", "clave de API de Google"),
        ("Bearer token", "token Bearer"),
        ("private key", "clave privada"),
    ],
    "where": [
        ("root", "la raíz"),
        ("block", "el bloque"),
        ("{path}", "{path}"),
    ],
    "delta": [
        ("added {added}; missing {missing}", "añadidos {added}; faltan {missing}"),
        ("added {added}", "añadidos {added}"),
        ("missing {missing}", "faltan {missing}"),
        (
            "entity {a} became {b}; added {added}; missing {missing}",
            "la entidad {a} pasó a ser {b}; añadidos {added}; faltan {missing}",
        ),
        ("entity {a} became {b}; added {added}", "la entidad {a} pasó a ser {b}; añadidos {added}"),
        ("entity {a} became {b}; missing {missing}", "la entidad {a} pasó a ser {b}; faltan {missing}"),
        ("entity {a} became {b}", "la entidad {a} pasó a ser {b}"),
        ("length {a} became {b}", "la longitud {a} pasó a ser {b}"),
    ],
    "stale": [
        (
            "{changed:names} changed and {missing:names} is missing or unreadable",
            "hubo cambios en {changed} y falta o no se puede leer {missing}",
        ),
        (
            "{changed:names} changed and {missing:names} are missing or unreadable",
            "hubo cambios en {changed} y faltan o no se pueden leer {missing}",
        ),
        ("{missing:names} is missing or unreadable", "falta o no se puede leer {missing}"),
        ("{missing:names} are missing or unreadable", "faltan o no se pueden leer {missing}"),
        ("{changed:names} changed", "hubo cambios en {changed}"),
    ],
    "id_parts": [
        ("claims {extra}; omits {missing}", "afirma {extra}; omite {missing}"),
        ("claims {extra}", "afirma {extra}"),
        ("omits {missing}", "omite {missing}"),
    ],
    "names": [
        ("{a} and {b}", "{a} y {b}"),
        ("{a}", "{a}"),
    ],
    "hint": [
        (
            "Declare it in a gemstack-capabilities block, .gemstack/providers.json or a cost ledger.",
            "Decláralo en un bloque gemstack-capabilities, en .gemstack/providers.json o en un ledger de costos.",
        ),
        (
            "It is not a canonical provider id (a lower-case slug such as gemini-cloud).",
            "No es un id de proveedor canónico (un slug en minúsculas como gemini-cloud).",
        ),
    ],
    "why": [
        (
            'no entry for "{id}" / "{cap}" in any cost ledger (a fix creates {path})',
            'no hay ninguna entrada para "{id}" / "{cap}" en ningún ledger de costos (una corrección crea {path})',
        ),
        ('no entry for "{id}" / "{cap}" in {path}', 'no hay ninguna entrada para "{id}" / "{cap}" en {path}'),
        ('the ledger classifies "{id}" / "{cap}" as UNKNOWN', 'el ledger clasifica "{id}" / "{cap}" como UNKNOWN'),
    ],
}

#: Messages of related locations (``Related.message``).
RELATED: list[tuple[str, str]] = [
    ("classified here", "clasificado aquí"),
    ("first declared here", "declarado primero aquí"),
    ("gemstack-test-matrix in spec.md", "gemstack-test-matrix en spec.md"),
    ('"{id}" is frozen here, in {name}', '"{id}" está congelado aquí, en {name}'),
    ('"{id}" as declared in spec.md', '"{id}" tal como lo declara spec.md'),
    ("{path} as it is now", "{path} tal como está ahora"),
    ("the hash state.json recorded", "el hash que registró state.json"),
    ("the active feature, whose closure is checked", "la feature activa, cuyo cierre se comprueba"),
    ("the test matrix it is checked against", "la matriz de pruebas con la que se comprueba"),
    ("{id} is not checked", "{id} no está marcada"),
    ("{id} in tasks.md", "{id} en tasks.md"),
    ('status "{status}"', 'status "{status}"'),
    ("collected at commit {commit}; HEAD is {head} now", "recopilada en el commit {commit}; HEAD es ahora {head}"),
    (
        "the working tree was {was:tree} at collection; it is {now:tree} now",
        "el árbol de trabajo estaba {was} al recopilar; ahora está {now}",
    ),
    ('adapter "{id}" declared here', 'adaptador "{id}" declarado aquí'),
    ('provider "{id}" declared here', 'proveedor "{id}" declarado aquí'),
    ("declared as {type} here", "declarado como {type} aquí"),
    ('free or local provider "{id}"', 'proveedor gratuito o local "{id}"'),
    ("Recorded source file missing on disk: {path}", "Falta en disco el archivo fuente registrado: {path}"),
    (
        "Source file {path} was modified since capsule generation.",
        "El archivo fuente {path} se modificó después de generar la cápsula.",
    ),
    # A bare file name (the file a finding is related to): the same in both languages. Last, so
    # that every sentence ending in a file name is matched by its own template first.
    ("{name}.md", "{name}.md"),
    ("{name}.json", "{name}.json"),
]
PHRASES["tree"] = [("clean", "limpio"), ("dirty", "con cambios")]

#: Titles of fixes (code actions).
FIXES: list[tuple[str, str]] = [
    ("Regenerate the context capsule", "Regenerar la context capsule"),
    ("Verify the context capsule", "Verificar la context capsule"),
    ("Declare validation_required={value} for {id}", "Declarar validation_required={value} para {id}"),
    ("Move the Gemstack fence to column 0", "Mover la cerca de Gemstack a la columna 0"),
    ("Remove the duplicate contract", "Eliminar el contrato duplicado"),
    ('Restore the frozen declaration of "{id}"', 'Restaurar la declaración congelada de "{id}"'),
    (
        "Set freshness_date to {date} (after re-verifying the price)",
        "Poner freshness_date a {date} (tras volver a verificar el precio)",
    ),
    ("Add freshness_date ({date})", "Añadir freshness_date ({date})"),
    (
        'Add ledger entry for "{id}" / "{cap}" (cost_state UNKNOWN) in a new {path}',
        'Añadir una entrada de ledger para "{id}" / "{cap}" (cost_state UNKNOWN) en un nuevo {path}',
    ),
    (
        'Add ledger entry for "{id}" / "{cap}" (cost_state UNKNOWN)',
        'Añadir una entrada de ledger para "{id}" / "{cap}" (cost_state UNKNOWN)',
    ),
]

#: Messages the server shows (``window/showMessage``) after a command.
SERVER_MESSAGES: list[tuple[str, str]] = [
    (
        "Context capsule written: {path} ({size} bytes, {n} invariant{plural:plural_s}).{tail:regenerated}",
        "Context capsule escrita: {path} ({size} bytes, {n} invariante{plural}).{tail}",
    ),
    ("Context capsule of {feature}: {state} ({detail:findings})", "Context capsule de {feature}: {state} ({detail})"),
    ("Context capsule of {feature}: {state}", "Context capsule de {feature}: {state}"),
    ("Gemstack: {n} repository checked: {summary:totals}", "Gemstack: {n} repositorio comprobado: {summary}"),
    ("Gemstack: {n} repositories checked: {summary:totals}", "Gemstack: {n} repositorios comprobados: {summary}"),
    ("Plan written: {path}", "Plan escrito: {path}"),
    ("Plan deepened: {path}", "Plan profundizado: {path}"),
]
PHRASES["plural_s"] = [("", ""), ("s", "s")]
PHRASES["regenerated"] = [
    ("", ""),
    (
        " Left out 1 item that matches the capsule's secret scan (which and why: the server's output log)."
        "{tail:regenerated}",
        " Se dejó fuera 1 elemento que coincide con el análisis de secretos de la cápsula (cuál y por qué: el "
        "registro de salida del servidor).{tail}",
    ),
    (
        " Left out {n} items that match the capsule's secret scan (which and why: the server's output log)."
        "{tail:regenerated}",
        " Se dejaron fuera {n} elementos que coinciden con el análisis de secretos de la cápsula (cuáles y por qué: el "
        "registro de salida del servidor).{tail}",
    ),
    (
        " Condensed {parts} to stay within the size budget.{tail:regenerated}",
        " Se condensó {parts} para no salir del presupuesto de tamaño.{tail}",
    ),
    (
        " Still reported for this feature: {codes:codes} (see the Problems list).{tail:regenerated}",
        " Sigue informándose para esta feature: {codes} (ver la lista de Problemas).{tail}",
    ),
    # The swarm check's note (a feature whose swarm.json records the previous capsule).
    (
        " {feature}/swarm.json records the previous capsule (source_capsule_hash {previous}...), not this one "
        "({live}...): upstream `gemstack verify` will fail with SWARM_CONTEXT_STALE{when:swarm_when} until "
        "source_capsule_hash is updated (the SWARM_CONTEXT_STALE quick fix records the new hash; upstream has no "
        "command that does).",
        " {feature}/swarm.json registra la cápsula anterior (source_capsule_hash {previous}...), no esta "
        "({live}...): el `gemstack verify` de upstream fallará con SWARM_CONTEXT_STALE{when} hasta que se actualice "
        "source_capsule_hash (la corrección rápida de SWARM_CONTEXT_STALE registra el nuevo hash; upstream no tiene "
        "ningún comando que lo haga).",
    ),
]
PHRASES["swarm_when"] = [
    ("", ""),
    (" once {feature} is the active feature again", " cuando {feature} vuelva a ser la feature activa"),
]
PHRASES["codes"] = [("{a} and {n} more", "{a} y {n} más"), ("{a}", "{a}")]
PHRASES["findings"] = [("{a:finding}; {b:findings}", "{a}; {b}"), ("{a:finding}", "{a}")]
PHRASES["totals"] = [
    ("no findings", "sin hallazgos"),
    ("{a:total}, {b:totals}", "{a}, {b}"),
    ("{a:total}", "{a}"),
]
PHRASES["total"] = [
    ("{n} error", "{n} error(es)"),
    ("{n} warning", "{n} advertencia(s)"),
    ("{n} information", "{n} de información"),
    ("{n} hint", "{n} sugerencia(s)"),
]

#: Code-lens titles (the capsule state on a spec's title, the gate preview on a billable-actions block).
LENS_TITLES: list[tuple[str, str]] = [
    ("Capsule: VALID", "Cápsula: VALID"),
    ("Capsule: STALE ({names:codes} changed)", "Cápsula: STALE (hubo cambios en {names})"),
    ("Capsule: STALE", "Cápsula: STALE"),
    ("Capsule: MISSING", "Cápsula: MISSING"),
    ("Capsule: none (legacy, context-free)", "Cápsula: ninguna (legacy, sin contexto)"),
    ("{env}: no actions declared", "{env}: ninguna acción declarada"),
    ("{env}: all 1 action allowed", "{env}: la única acción está permitida"),
    ("{env}: all {n} actions allowed", "{env}: las {n} acciones están permitidas"),
    ("{env}: {d} of {n} action denied ({list:codes})", "{env}: {d} de {n} acción denegada ({list})"),
    ("{env}: {d} of {n} actions denied ({list:codes})", "{env}: {d} de {n} acciones denegadas ({list})"),
    (
        "Gate preview unavailable: the block is not valid JSON",
        "Vista previa de compuertas no disponible: el bloque no es JSON válido",
    ),
]

#: Notes the CLI prints beside findings (``context verify``'s legacy notice, the reference's words).
NOTES: list[tuple[str, str]] = [
    (
        '[LEGACY] No context-capsule.json was found in "{feature}" (legacy context-free mode).',
        '[LEGACY] No se detectó context-capsule.json en "{feature}" (Modo Legacy Context-Free).',
    ),
]

#: Front-end texts by key (``i18n.ui``).
UI: dict[str, tuple[str, str]] = {
    "summary.none": ("No findings ({checked}).", "Sin hallazgos ({checked})."),
    "summary": (
        "{errors}, {warnings}, {information} information, {hints} in {files} ({checked}).",
        "{errors}, {warnings}, {information} de información, {hints} en {files} ({checked}).",
    ),
    "checked.repository": ("{n} repository checked", "{n} repositorio comprobado"),
    "checked.repositories": ("{n} repositories checked", "{n} repositorios comprobados"),
    "count.error": ("{n} error", "{n} error"),
    "count.errors": ("{n} errors", "{n} errores"),
    "count.warning": ("{n} warning", "{n} advertencia"),
    "count.warnings": ("{n} warnings", "{n} advertencias"),
    "count.hint": ("{n} hint", "{n} sugerencia"),
    "count.hints": ("{n} hints", "{n} sugerencias"),
    "count.file": ("{n} file", "{n} archivo"),
    "count.files": ("{n} files", "{n} archivos"),
    "count.repository": ("{n} repository", "{n} repositorio"),
    "count.repositories": ("{n} repositories", "{n} repositorios"),
    "severity.error": ("error", "error"),
    "severity.warning": ("warning", "advertencia"),
    "severity.information": ("information", "información"),
    "severity.hint": ("hint", "sugerencia"),
    "context.unknown_subcommand": (
        "Unknown context subcommand: {sub}. Valid subcommands: generate, show, verify.",
        "Subcomando de context desconocido: {sub}. Subcomandos válidos: generate, show, verify.",
    ),
    "context.target_empty": ("--target cannot be empty", "--target no puede estar vacío"),
    "context.generating": (
        'Generating context capsule for "{feature}" in: {root}',
        'Generando la context capsule para "{feature}" en: {root}',
    ),
    "context.generation_failed": ("Generation failed: {message}", "La generación falló: {message}"),
    "context.condensed": (
        "Size budget: condensed {parts} content to stay within 32768 bytes.",
        "Presupuesto de tamaño: se condensó el contenido {parts} para no pasar de 32768 bytes.",
    ),
    "context.generated": (
        "Context capsule generated successfully: {target} ({size} bytes, {n} invariants).",
        "Context capsule generada correctamente: {target} ({size} bytes, {n} invariantes).",
    ),
    "context.auditing": (
        'Auditing context capsule for "{feature}" in: {root}',
        'Auditando la context capsule de "{feature}" en: {root}',
    ),
    "context.valid": (
        "[OK] Context capsule is VALID and FRESH for {feature}.",
        "[OK] Context capsule verificada y fresca (VALID) para {feature}.",
    ),
    "context.failed": (
        "[{state}] Context capsule validation failed.",
        "[{state}] La validación de la context capsule falló.",
    ),
    "context.secret_audit": (
        "The context capsule fails the secret audit ({n} secret(s) redacted).",
        "La context capsule no pasa la auditoría de secretos ({n} secreto(s) ocultado(s)).",
    ),
    "context.refuse_markdown": (
        "Refusing to write {file}: the context capsule fails the secret audit (at {where}); regenerate it from "
        "sources without credentials.",
        "No se escribe {file}: la context capsule no pasa la auditoría de secretos (en {where}); regénerala a partir "
        "de fuentes sin credenciales.",
    ),
    "context.markdown_written": (
        "Derived narrative written (no authority): {path}",
        "Narrativa derivada escrita (sin autoridad): {path}",
    ),
    "hover.waivable": ("waivable", "dispensable"),
    "hover.not_waivable": ("not waivable", "no dispensable"),
    "hover.documentation": ("Documentation", "Documentación"),
}


#: Notes appended to a finding of any code: (English, Spanish), one placeholder each.
SUFFIXES: list[tuple[str, str]] = [
    (
        " ({feature} is not the active feature: a warning, not an error.)",
        " ({feature} no es la feature activa: es una advertencia, no un error.)",
    ),
]


def install() -> None:
    """Register every table of this module (and of ``i18n_es_verify.py``) with ``core/i18n.py``."""
    from gemstack_lsp.core import i18n_es_config
    from gemstack_lsp.core import i18n_es_verify as verify

    i18n.register_table(SPANISH)
    i18n.register_table(i18n_es_config.SPANISH_CONFIG)
    i18n.register_table(verify.SPANISH_VERIFY)
    for vocabulary, pairs in verify.PHRASES_VERIFY.items():
        for english, spanish in pairs:
            i18n.register_phrase(vocabulary, english, spanish)
    for code in verify.PROBLEM_CODES:
        for english, spanish in verify.SPANISH_VERIFY[code]:
            i18n.register_phrase("amendment_problem", english, spanish)
    for english, spanish in SPANISH["FROZEN_CONTRACT_VIOLATION"]:
        i18n.register_phrase("frozen_violation", english, spanish)
    for english, spanish in verify.RELATED_VERIFY:
        i18n.register(i18n.RELATED, english, spanish)
    for english, spanish in verify.FIXES_VERIFY:
        i18n.register(i18n.FIX, english, spanish)
    for english, spanish in SUFFIXES:
        i18n.register_suffix(english, spanish)
    for vocabulary, pairs in PHRASES.items():
        for english, spanish in pairs:
            i18n.register_phrase(vocabulary, english, spanish)
    for english, spanish in RELATED:
        i18n.register(i18n.RELATED, english, spanish)
    for english, spanish in FIXES:
        i18n.register(i18n.FIX, english, spanish)
    for english, spanish in NOTES:
        i18n.register(i18n.NOTE, english, spanish)
    for english, spanish in SERVER_MESSAGES:
        i18n.register(i18n.SERVER_MESSAGE, english, spanish)
    for english, spanish in LENS_TITLES:
        i18n.register(i18n.LENS_TITLE, english, spanish)
    for key, (english, spanish) in UI.items():
        i18n.register_ui(key, english, spanish)
    from gemstack_lsp.core import i18n_es_ui

    i18n_es_ui.install()
    from gemstack_lsp.core.i18n_catalogue_es import CATALOGUE_ES
    from gemstack_lsp.core.i18n_catalogue_es_verify import CATALOGUE_ES_VERIFY

    catalogue = {**CATALOGUE_ES, **CATALOGUE_ES_VERIFY, **i18n_es_config.CATALOGUE_ES_CONFIG}
    for code, (summary, explanation) in catalogue.items():
        i18n.register_catalogue(code, summary, explanation)
