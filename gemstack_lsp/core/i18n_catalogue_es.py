"""The catalogue's summaries and explanations in Spanish (hover, SARIF rule descriptions).

One entry per code of ``core/findings.py``'s catalogue; the test suite fails when a code has
none. Codes added later register theirs with ``i18n.register_catalogue``.
"""

from __future__ import annotations

CATALOGUE_ES: dict[str, tuple[str, str]] = {
    "CONTEXT_CAPSULE_MISSING": (
        "La feature no tiene context capsule.",
        "Una feature que adopta el Upgrade D debe llevar specs/<feature>/context-capsule.json. Ejecuta "
        "`gemstack-lsp context generate` (o la acción Regenerar del editor) para derivarla de las fuentes.",
    ),
    "CONTEXT_CAPSULE_INVALID": (
        "La context capsule no es JSON válido o no cumple su esquema.",
        "No se pudo analizar la cápsula, o su schema_version o su forma no son context-capsule v1. Una cápsula es "
        "un dato derivado: regénérala en lugar de editarla a mano.",
    ),
    "CONTEXT_CAPSULE_STALE": (
        "Una fuente cambió después de generar la cápsula.",
        "Un archivo fuente registrado (spec.md, plan.md, tasks.md, state.json, closure.json o un ledger) ya no "
        "tiene el hash que registró la cápsula, apareció una fuente nueva, o source_set_hash no concuerda. Regenera "
        "la cápsula. Se informa una vez por cápsula, en el título de la spec; un error para la feature activa, una "
        "advertencia para una entregada o inactiva.",
    ),
    "CONTEXT_CAPSULE_SOURCE_MISMATCH": (
        "Falta un archivo fuente registrado.",
        "La cápsula registra una fuente que ya no existe en disco (o falta una fuente obligatoria). Regenera la "
        "cápsula a partir de las fuentes actuales.",
    ),
    "CONTEXT_CAPSULE_SECRET_DETECTED": (
        "Se encontró una clave de credencial o un patrón de secreto.",
        "Las cápsulas nunca deben llevar credenciales. Se encontró un nombre de propiedad prohibido (apiKey, token, "
        "password, ...) o un valor con aspecto de clave de acceso, token bearer o clave privada. El valor nunca se "
        "muestra. Como advertencia de `context generate`: un texto derivado (la descripción de un contrato, un "
        "elemento diferido, una pregunta abierta, un título) coincidió con un patrón y se dejó fuera de la cápsula; "
        "reformúlalo para conservarlo.",
    ),
    "CONTEXT_CAPSULE_INVARIANT_DROPPED": (
        "Falta en la cápsula una regla normativa MUST/MUST NOT.",
        "Compresión sin pérdida de restricciones semánticas: cada línea normativa de spec.md debe aparecer entre "
        "canonical_invariants. Una regla de la spec no tiene equivalente en la cápsula.",
    ),
    "CONTEXT_CAPSULE_TOO_LARGE": (
        "La cápsula supera el límite duro de 64 KiB.",
        "Tras condensar el contenido de prioridad 3 y 2, la cápsula sigue por encima de 65.536 bytes. El contenido "
        "de prioridad 1 (invariantes, contratos, ids de aceptación) nunca se descarta, así que hay que dividir la "
        "feature o recortar su spec.",
    ),
    "CONTEXT_CAPSULE_AUTHORITY_CONFLICT": (
        "La cápsula afirma lo que sus fuentes contradicen.",
        "La cápsula declara un contrato congelado, una matriz de aceptación, un estado de tareas, una fase del ciclo "
        "de vida, una feature activa o un rol de fuente que difiere de la fuente sin cambios de la que se derivó. "
        "Las fuentes mandan; regenera la cápsula.",
    ),
    "CONTEXT_CAPSULE_LEGACY": (
        "No hay context capsule y no se requiere ninguna (modo legacy).",
        "La feature ni tiene cápsula ni adopta el Upgrade D: funciona en modo legacy, sin contexto (Modo Legacy "
        "Context-Free).",
    ),
    "UNDECLARED_BILLABLE_ACTION": (
        "La acción no está declarada en spec.md.",
        "Cada acción facturable o de proveedor que invoca un plan o una tarea debe estar declarada en el bloque "
        "gemstack-billable-actions de la spec.",
    ),
    "BILLABLE_ACTION_UNAUTHORIZED": (
        "La acción necesita una autorización de gasto que no se concedió.",
        "Una acción facturable en este nivel de entorno necesita autorización explícita (--allow-billable en "
        "development, un token de gasto en los demás).",
    ),
    "UNKNOWN_COST_CLASSIFICATION": (
        "El estado de costo es UNKNOWN o falta en el ledger.",
        "Ninguna entrada del ledger de costos clasifica este proveedor y esta capacidad, o es UNKNOWN. UNKNOWN nunca "
        "se trata como FREE: añade una entrada de ledger con un cost_state verificado.",
    ),
    "UNKNOWN_PROVIDER_IDENTITY": (
        "El id de proveedor no está registrado.",
        "El proveedor no está declarado en ningún registro (proveedores del ledger, .gemstack/providers.json, bloques "
        "gemstack-capabilities), o su identidad es ambigua.",
    ),
    "PROVIDER_CAPABILITY_UNDECLARED": (
        "El proveedor no declara la capacidad.",
        "La capacidad pedida a este proveedor no está declarada para él en la spec ni en el plan.",
    ),
    "PROVIDER_CAPABILITY_UNSUPPORTED": (
        "El adaptador no soporta la capacidad declarada.",
        "El adaptador del proveedor está declarado, pero sin implementar esta capacidad.",
    ),
    "ENV_COMMERCIAL_DENIED": (
        "Acción de proveedor comercial en el nivel test o ci.",
        "Los niveles de entorno test y ci deniegan las acciones de proveedores comerciales, haya las credenciales "
        "que haya.",
    ),
    "PROVIDER_FALLBACK_UNAUTHORIZED": (
        "Un proveedor de respaldo no pasó su propia evaluación de compuertas.",
        "Cada candidato de respaldo se vuelve a evaluar con ambas compuertas; la cadena se detiene en el primero no "
        "autorizado.",
    ),
    "STALE_PROVIDER_COST_ASSUMPTION": (
        "La estimación de costo del ledger es más antigua que el límite de vigencia.",
        "Falta el freshness_date de la entrada del ledger o es más antiguo que la edad máxima (90 días por defecto). "
        "Vuelve a verificar los precios del proveedor y actualiza freshness_date.",
    ),
    "BUDGET_THRESHOLD_EXCEEDED": (
        "El costo estimado supera el presupuesto configurado.",
        "unidades x estimated_unit_cost supera el límite de gasto de esta acción.",
    ),
    "MOCK_PROVIDER_ESCAPE_VIOLATION": (
        "Un proveedor MOCK llegaría a un endpoint remoto.",
        "Los proveedores declarados como MOCK deben seguir siendo locales; una URL remota o una llamada de red rompe "
        "la integridad del mock.",
    ),
    "COST_LEDGER_INVALID": (
        "cost-ledger.json no cumple su esquema o su sintaxis JSON.",
        "El ledger de costos debe ser JSON válido conforme a cost-ledger v1, y no debe contener credenciales.",
    ),
    "PROVIDER_DISALLOWED_IN_ENV": (
        "El proveedor no está permitido en este nivel de entorno.",
        'Los niveles test y ci solo ejecutan proveedores MOCK (seed sección 11, "Mock Required"): '
        "ProviderCapabilityGate rechaza ahí un proveedor LOCAL (uno comercial recibe ENV_COMMERCIAL_DENIED). Es una "
        "decisión de compuerta (gate evaluate, hover), no un hallazgo: depende del nivel de la ejecución. La "
        "referencia nunca lo produce.",
    ),
    "LEGACY_NO_PROVIDERS_DECLARED": (
        "No hay proveedores declarados (repositorio legacy).",
        "El repositorio no declara proveedores ni acciones facturables; las compuertas de seguridad de proveedores no "
        "tienen nada que comprobar (Modo Legacy Provider-Free).",
    ),
    "PROVIDER_FALLBACK_TO_BILLABLE": (
        "Una cadena de respaldo pasa de un proveedor gratuito o local a uno facturable.",
        "Cuando falla el primer proveedor, la cadena gastaría dinero; asegúrate de que es intencionado y está "
        "autorizado.",
    ),
    "PROVIDER_DECLARATION_CONFLICT": (
        "El mismo proveedor está declarado de forma distinta en dos registros.",
        "Dos registros (proveedores del ledger, .gemstack/providers.json, gemstack-capabilities) no coinciden en el "
        "tipo o las capacidades de un proveedor.",
    ),
    "BILLABLE_ACTIONS_INVALID": (
        "Un bloque gemstack-billable-actions está mal formado.",
        "El bloque debe ser un array JSON de acciones {id, description, category, capability_id, providers, "
        "side_effect?}.",
    ),
    "CAPABILITIES_INVALID": (
        "Un bloque gemstack-capabilities está mal formado.",
        "El bloque debe ser un array JSON de proveedores {provider_id, type, capabilities, adapter?}.",
    ),
    "PROVIDER_REGISTRY_INVALID": (
        ".gemstack/providers.json no cumple su esquema o su sintaxis JSON.",
        "El registro de proveedores debe ser un objeto JSON cuyo mapa providers tenga la forma de proveedor del "
        "ledger (type, capabilities como lista o mapa, adapter?).",
    ),
    "CONTRACT_PARSE_ERROR": (
        "No se puede analizar el bloque gemstack-contracts.",
        "Se permite exactamente un bloque gemstack-contracts de JSON estricto por documento.",
    ),
    "CONTRACT_INVALID_SHAPE": (
        "Un contrato congelado tiene una forma incorrecta.",
        "Los contratos son un array JSON de objetos con un id de texto, un tipo conocido y los campos que ese tipo "
        "necesita.",
    ),
    "CONTRACT_DUPLICATE_ID": (
        "Dos contratos comparten un id.",
        "Los ids de contrato son únicos dentro de un bloque.",
    ),
    "CONTRACT_UNKNOWN_TYPE": (
        "El tipo de contrato no es uno que Gemstack conozca.",
        "Tipos: ENUM_SET, IDENTITY_TUPLE, PROVENANCE_RULE, BOOLEAN_INVARIANT, BOUNDARY, ROADMAP_LIMIT.",
    ),
    "FROZEN_CONTRACT_VIOLATION": (
        "plan.md o tasks.md contradice un contrato congelado.",
        "Una fase posterior vuelve a declarar un contrato de spec.md con otro tipo o valor.",
    ),
    "FROZEN_ARTIFACT_CHANGED": (
        "Un artefacto de fase congelado cambió después de registrar su hash.",
        "state.json registra un hash de fase con el que el artefacto ya no coincide (el artefacto congelado fue "
        "mutado sin autorización). Regenerar la context capsule no vuelve a congelar la fase: deshaz el cambio, o "
        "aprueba de nuevo la fase en el flujo de Gemstack para que registre el nuevo hash en .gemstack/state.json "
        "(phase_hashes).",
    ),
    "TEST_MATRIX_PARSE_ERROR": (
        "No se puede analizar el bloque gemstack-test-matrix.",
        "Se permite exactamente un bloque gemstack-test-matrix de JSON estricto en spec.md.",
    ),
    "TEST_MATRIX_INVALID_SHAPE": (
        "Una entrada de la matriz de pruebas tiene una forma incorrecta.",
        "Las entradas son objetos con exactamente id, category, layer, description, pass_criteria y gate.",
    ),
    "TEST_MATRIX_DUPLICATE_ID": (
        "Dos entradas de la matriz de pruebas comparten un id.",
        "Los ids de prueba son únicos dentro de la matriz.",
    ),
    "BINDINGS_PARSE_ERROR": (
        "El bloque gemstack-test-bindings está mal formado.",
        "Las vinculaciones son un array JSON de {test_id, runner?, file} con un file relativo al repositorio.",
    ),
    "DUPLICATE_TEST_BINDING": (
        "Un id de prueba está vinculado dos veces.",
        "Cada id de prueba canónica se vincula a un único archivo de prueba.",
    ),
    "GATES_PARSE_ERROR": (
        "El bloque gemstack-closure-gates está mal formado.",
        "Las compuertas son un array JSON de {id, type: PACKAGE_SCRIPT, script, requirement, waivable}.",
    ),
    "TASK_VALIDATION_MISSING": (
        "Una tarea no declara su validación.",
        "Cada tarea debe llevar <!-- gemstack:validation_required=true|false --> y, si es true, al menos una prueba.",
    ),
    "CLOSURE_MANIFEST_MISSING": (
        "La feature activa no tiene closure.json.",
        "El spec.md de la feature activa declara una gemstack-test-matrix, así que `gemstack verify` exige su "
        "evidencia mecánica de cierre, specs/<feature>/closure.json; ejecuta `gemstack collect`. Se informa en la "
        "matriz de pruebas de la spec.",
    ),
    "CLOSURE_MANIFEST_INVALID": (
        "No se puede analizar closure.json, o no cumple su esquema.",
        "closure.json debe ser JSON válido (un error: `gemstack verify` se detiene ahí). Un manifiesto que se analiza "
        "pero no cumple el esquema gemstack-closure v1 es una advertencia: la referencia solo lee su closure_context "
        "y su status.",
    ),
    "CLOSURE_EVIDENCE_STALE": (
        "La evidencia de cierre ya no coincide con la feature.",
        "closure_context.closure_context_hash difiere del que se recalcula ahora a partir de spec.md, plan.md, "
        "tasks.md, la matriz de aceptación, los archivos de prueba vinculados, los archivos de las tareas, "
        "package.json y el commit de Git y la limpieza del árbol de trabajo. Cualquier commit nuevo deja "
        "desactualizada la evidencia confirmada; vuelve a ejecutar `gemstack collect`. Solo se comprueba para la "
        "feature activa.",
    ),
    "CLOSURE_NOT_VERIFIED": (
        "closure.json está al día pero no es VERIFIED.",
        "La evidencia coincide con la feature pero su status no es VERIFIED ni VERIFIED_WITH_EXCEPTIONS (collect "
        "escribe BLOCKED, con los bloqueadores). Solo se comprueba para la feature activa.",
    ),
    "CLOSURE_EVIDENCE_CONTRADICTED": (
        "closure.json dice VERIFIED pero su feature dice lo contrario.",
        "Un cierre VERIFIED mientras tasks.md aún tiene tareas sin marcar, mientras su propio canonical_summary "
        "cuenta menos pruebas pasadas que las requeridas, o que registra la evidencia de otra feature. Un error para "
        "la feature activa, una advertencia para las demás (comprobación de este proyecto; la referencia no la "
        "tiene).",
    ),
    "FENCE_UNSEEN_BY_REFERENCE": (
        "El CLI de referencia de gemstack no vería este bloque.",
        "La referencia solo reconoce un bloque cuya línea de apertura es exactamente ```gemstack-<nombre> en la "
        "columna 0 y que se cierra con una línea ``` sola. Este bloque está sangrado, usa tildes o una cerca más "
        "larga, lleva información extra o no está terminado, así que `gemstack verify` lo ignoraría o lo leería mal.",
    ),
    "JSON_SYNTAX_ERROR": (
        "Un archivo JSON que lee Gemstack no es JSON válido.",
        "En el token culpable de package.json (una advertencia, como advierte el verify de la referencia), "
        ".gemstack/manifest.json y specs/<feature>/amendments.json: JSON estricto, sin comentarios, sin comas "
        "finales, sin NaN ni Infinity, textos entre comillas dobles, sin marca de orden de bytes. Los archivos con "
        "código propio informan sus errores de sintaxis con él: el código de análisis de un bloque "
        "(CONTRACT_PARSE_ERROR, ...), STATE_INVALID, COST_LEDGER_INVALID, PROVIDER_REGISTRY_INVALID, "
        "CONTEXT_CAPSULE_INVALID, CLOSURE_MANIFEST_INVALID.",
    ),
    "JSON_DUPLICATE_KEY": (
        "Un objeto repite una clave.",
        "JSON.parse conserva el último valor de una clave repetida; el anterior se pierde sin aviso.",
    ),
    "ARTIFACT_ENCODING_INVALID": (
        "El archivo no es UTF-8 simple sin BOM.",
        "Los artefactos de fase de Gemstack deben ser UTF-8 sin marca de orden de bytes; la referencia rechaza un BOM "
        "y los bytes inválidos cambian el hash del archivo.",
    ),
    "ARTIFACT_UNREADABLE": (
        "No se puede leer el archivo.",
        "Falta el archivo, es un directorio, es un enlace simbólico que sale del repositorio, o es demasiado grande "
        "para analizarlo.",
    ),
    "STATE_INVALID": (
        ".gemstack/state.json está mal formado.",
        "Un error cuando state.json no es JSON válido (la referencia no puede leerlo y usa sus valores por defecto) o "
        "active_spec sale del repositorio. Una sugerencia cuando un campo que lee esta herramienta tiene un valor de "
        "tipo incorrecto (se ignora). Gemstack nunca comprueba los tipos de state.json: null en cualquier campo y los "
        "campos desconocidos son normales y no generan hallazgos.",
    ),
    "STATE_ACTIVE_SPEC_MISSING": (
        "state.json nombra una spec activa que no existe.",
        "La carpeta de active_spec no tiene spec.md (desfase de estado).",
    ),
    "PATH_LOOKS_SECRET": (
        "El nombre de la carpeta de una feature parece un secreto.",
        "El nombre de la carpeta coincide con un patrón de secreto de la auditoría de la cápsula o del ledger. "
        "Las rutas nunca se ocultan (un URI o una ubicación debe nombrar el archivo real, y una carpeta que solo "
        "parece una clave sigue funcionando), así que el nombre aparecería con cada hallazgo de la feature. El "
        "mensaje no lo cita; renombra la carpeta si contiene una credencial real.",
    ),
    "GEMSTACK_INTERNAL_ERROR": (
        "gemstack-lsp falló al comprobar este archivo.",
        "Una comprobación lanzó un error inesperado en este archivo. Los demás archivos y features se comprobaron "
        "igualmente; `gemstack-lsp check` sale con 2. Por favor, infórmalo junto con el archivo.",
    ),
    "TASKS_UNREAD_BY_REFERENCE": (
        "La referencia no lee ninguna tarea en este tasks.md.",
        "tasks.md tiene elementos de lista de comprobación, pero ninguno en la única forma que lee el analizador de "
        "tareas de la referencia, así que `gemstack verify`, `collect` y la cápsula ven 0 tareas aquí (sin "
        "declaraciones de validación, sin vinculaciones de pruebas, un tasks_state vacío). La referencia solo lee una "
        "tarea de un elemento de lista al principio de una línea, `- [ ] **T001: Título**` (el id hecho de letras, "
        "dígitos, `_` y `-`), con `<!-- gemstack:validation_required=true|false -->` y "
        "`<!-- gemstack:tests=... -->` en las líneas de debajo. Los encabezados como `### [ ] T001 — Título`, los "
        "elementos numerados como `- [x] 1.1 Título` y los ids con puntos (`**T0.1: ...**`) no se leen. Solo "
        "informativo: reescribe los elementos de esa forma si las tareas de la feature deben contar.",
    ),
    "TASKS_LIFECYCLE_CONTRADICTED": (
        "La cabecera del ciclo de vida dice que las tareas están completas, pero hay casillas sin marcar.",
        "Una línea de cabecera de tasks.md (`**Lifecycle Status**: `TASKS_COMPLETE``, o la palabra de una fase "
        "posterior como IMPLEMENTED, VERIFIED o SHIPPED) dice que el trabajo está hecho mientras las casillas de "
        "tarea de debajo siguen en `[ ]`. Una de las dos está mal: marca las tareas terminadas, o pon en la cabecera "
        "la fase que muestran las casillas.",
    ),
}
