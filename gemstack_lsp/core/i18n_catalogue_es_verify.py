"""The catalogue in Spanish for the Gemstack 1.4/2.0 verify stages (swarm, visual QA, amendments,
rigor, spec deltas, installation manifest, package.json scripts, session memory).

Kept apart from ``i18n_catalogue_es.py`` because those checks are added beside this one; an
entry whose code the catalogue does not hold is never shown.
"""

from __future__ import annotations

CATALOGUE_ES_VERIFY: dict[str, tuple[str, str]] = {
    "SWARM_UNREADABLE": (
        "swarm.json existe pero no se puede leer.",
        "specs/<feature>/swarm.json (el manifiesto de swarm de Gemstack 1.4) es un directorio, un enlace simbólico "
        "que sale del repositorio, o es demasiado grande para analizarlo. `gemstack verify` (etapa 5.3) informa el "
        "mismo código. Se comprueba para la feature activa como hace upstream (un error); para cualquier otra "
        "feature, una advertencia.",
    ),
    "SWARM_INVALID_SCHEMA": (
        "swarm.json no es un manifiesto de swarm válido.",
        'El manifiesto debe ser JSON con una raíz objeto, version ausente o "1.0.0", un feature_id de texto no '
        "vacío y un array waves (la referencia se detiene en el primero de estos fallos; aquí se listan todos). "
        "También un valor de un tipo con el que el `gemstack verify` de upstream se detiene con un TypeError: una "
        "ola o tarea null, tasks o write_set que no son arrays, una entrada de write_set, worker_id, reviewer_id o "
        "task_id que no es texto, un source_capsule_hash que no es ni texto ni array. Entonces no se comprueba nada "
        "más del manifiesto.",
    ),
    "SWARM_AUTHORITY_CONFLICT": (
        "El manifiesto de swarm reclama autoridad sobre las especificaciones.",
        "overrides_spec o alter_contracts es true. Un swarm está subordinado a spec.md, plan.md, tasks.md y los "
        "contratos congelados (contrato swarm-authority-subordinate).",
    ),
    "SWARM_WORKER_LIMIT_EXCEEDED": (
        "Una ola tiene más workers de los permitidos.",
        "Una ola nombra más valores distintos de worker_id que max_workers (4 si no se indica) o que el límite duro "
        "de 8. Se informa en el primer worker que supera el límite.",
    ),
    "SWARM_RECURSIVE_SPAWN_DENIED": (
        "Un worker afirma haber lanzado workers hijos.",
        "spawned_children es una lista (o un texto) no vacía: el lanzamiento recursivo de subagentes está prohibido.",
    ),
    "SWARM_WRITE_COLLISION": (
        "Dos tareas de una misma ola escriben el mismo archivo.",
        "Las tareas concurrentes deben declarar conjuntos de escritura disjuntos (contrato "
        "exclusive-task-write-ownership). Una ruta reclamada dos veces en una ola (las barras invertidas se leen como "
        "barras, incluida la misma tarea) es una colisión; mueve una tarea a una ola posterior.",
    ),
    "SWARM_ASSIGNMENT_INVALID": (
        "El id de worker o el rol de una tarea no es válido.",
        "Cada tarea necesita un worker_id de texto no vacío y un assigned_role entre implementer, reviewer, "
        "security-auditor y coordinator.",
    ),
    "SWARM_SELF_REVIEW_DETECTED": (
        "Una tarea la revisa su propio autor.",
        "review.reviewer_id es igual al worker_id de la tarea (sin espacios, sin distinguir mayúsculas). El autor de "
        "una tarea no puede revisarla (contrato author-not-reviewer, no dispensable).",
    ),
    "SWARM_TASK_ORPHANED": (
        "Una tarea del swarm no está declarada en tasks.md.",
        "tasks.md declara ids de tarea (la referencia lee el primer TASK-..., UE-T000 o T000 de cada línea) pero no "
        "este task_id. Solo se comprueba cuando tasks.md existe y declara al menos un id.",
    ),
    "SWARM_CONTEXT_STALE": (
        "swarm.json se planificó a partir de otra context capsule.",
        "source_capsule_hash no es el hash de archivo del context-capsule.json de la feature (finales de línea "
        "normalizados, SHA-256). Regenerar la cápsula lo deja desactualizado: el `gemstack verify` de upstream falla "
        "con este código hasta que el manifiesto registre el nuevo hash. Upstream no tiene ningún comando que lo "
        "actualice (`gemstack swarm plan` escribe un marcador); la corrección rápida registra el hash de la cápsula "
        "actual y no cambia nada más. Solo se comprueba cuando la feature tiene cápsula.",
    ),
    "SWARM_WRITE_SET_VIOLATION": (
        "Un rol de solo lectura declara archivos que escribir.",
        "Una tarea cuyo assigned_role es reviewer o security-auditor lista archivos en su write_set; esos roles son "
        "estrictamente de solo lectura. Una advertencia de este proyecto: la referencia aplica la regla a los "
        "archivos que un worker modificó, en tiempo de ejecución, y su verify no la comprueba.",
    ),
    "VQA_UNREADABLE": (
        "No se puede leer visual-qa.json o una imagen de referencia.",
        "specs/<feature>/visual-qa.json (QA visual de Gemstack 1.4) no se puede leer, o no se puede calcular el hash "
        "de una imagen de referencia: un archivo que empieza con una marca de orden de bytes UTF-8 (el hasher de "
        "upstream lo rechaza y verify se detiene), o uno demasiado grande para analizarlo (una advertencia: su hash "
        "no se verifica).",
    ),
    "VQA_INVALID_MANIFEST": (
        "visual-qa.json no es un manifiesto de QA visual válido.",
        'El manifiesto debe ser JSON con una raíz objeto, version ausente o "1.0.0", un feature_id de texto no '
        "vacío y un array scenarios; cada escenario necesita un scenario_id único, una route y un objeto viewport. "
        "También un image_path o image_sha256 de la referencia que no es texto (el verify de upstream se detiene con "
        "un TypeError). Entonces no se comprueba nada más.",
    ),
    "VQA_INVALID_VIEWPORT": (
        "El viewport de un escenario no es determinista.",
        "width y height deben ser enteros positivos y device_scale_factor, si está, un número positivo (contrato "
        "deterministic-viewports). El verify de upstream lo informa como VQA_INVALID_MANIFEST, porque lo lanza su "
        "pasada de esquema; el código aquí es el que asigna su validateViewport.",
    ),
    "VQA_BASELINE_MISSING": (
        "Falta la imagen de referencia de un escenario.",
        "El escenario no declara referencia, o baseline.image_path (relativo a la raíz del repositorio) no existe o "
        "no es un archivo.",
    ),
    "VQA_BASELINE_TAMPERED": (
        "Una imagen de referencia ya no coincide con su hash registrado.",
        "El hash de archivo de la imagen (sus bytes leídos como texto UTF-8, finales de línea normalizados, SHA-256, "
        "como lo calcula el hashFile de upstream) no es baseline.image_sha256: las referencias solo cambian por "
        "promoción explícita (`gemstack vqa promote`). También una ruta de referencia fuera del repositorio, que "
        "nunca se lee.",
    ),
    "AMENDMENT_FILE_INVALID": (
        "No se puede analizar amendments.json.",
        "specs/<feature>/amendments.json es JSON estricto: una lista de registros de enmienda, o un registro. El "
        "verify de la referencia informa `[AMENDMENT_FILE_INVALID]` para la feature activa y entonces no valida "
        "ninguna.",
    ),
    "AMENDMENT_REJECTED": (
        "Las enmiendas de la feature activa se rechazan.",
        "Al menos una enmienda declarada no pasa la validación (se listan los códigos, cada uno también en su propio "
        "lugar), así que los hallazgos de congelación siguen siendo errores: FROZEN_CONTRACT_VIOLATION de cada "
        "contrato y FROZEN_ARTIFACT_CHANGED de spec.md. Upstream imprime esta línea con el código del primer fallo.",
    ),
    "UNAUTHORIZED_CONTRACT_MUTATION": (
        "Un contrato congelado cambió sin una enmienda que lo nombre.",
        "Una vez declaradas enmiendas, cada contrato de spec.md que el gemstack-contracts de plan.md modifica "
        "(comparado como lo escribe JSON.stringify) o elimina debe estar nombrado por el contract_id de una enmienda.",
    ),
    "AMENDMENT_MALFORMED": (
        "A una enmienda le falta un campo obligatorio.",
        "Cada enmienda necesita amendment_id, contract_id, version, reason, approved_by y signature, todos no vacíos "
        "(0 cuenta como presente, como en la referencia).",
    ),
    "AMENDMENT_SIGNATURE_INVALID": (
        "La firma de una enmienda no coincide con ella.",
        "La firma es el HMAC-SHA256 en hexadecimal, con la clave GEMSTACK_AMENDMENT_SECRET, de "
        "amendment_id|contract_id|version|reason|approved_by (reason y approver sin espacios); sin secreto, el "
        "SHA-256 en hexadecimal del mismo texto. Cambiar cualquiera de esos campos la invalida.",
    ),
    "AMENDMENT_SECRET_MISSING": (
        "No se puede comprobar una enmienda: no hay secreto de firma.",
        "La firma no es el SHA-256 sin clave de la enmienda, y GEMSTACK_AMENDMENT_SECRET no está definido, así que no "
        "se puede comprobar como HMAC-SHA256: define el secreto en el entorno de gemstack-lsp check y del editor. El "
        "secreto nunca se muestra.",
    ),
    "AMENDMENT_REPLAY_DETECTED": (
        "Una enmienda firmada para otra feature.",
        "El feature_id de la enmienda nombra otra feature que la carpeta en la que está: una enmienda aprobada para "
        "una feature no puede autorizar un cambio en otra (Gemstack 2.0.1).",
    ),
    "AMENDMENT_VERIFIED": (
        "Una enmienda firmada autoriza el cambio de un contrato congelado.",
        "Todas las enmiendas de la feature activa están bien formadas y correctamente firmadas, y cada contrato "
        "cambiado está enmendado. Se muestra en cada enmienda, y en lugar de los hallazgos FROZEN_CONTRACT_VIOLATION "
        "de los contratos que enmienda (la referencia deja de informarlos).",
    ),
    "FROZEN_ARTIFACT_AMENDED": (
        "spec.md cambió después de congelarse, con la autorización de una enmienda firmada.",
        "El phase_hashes.spec de state.json ya no coincide con spec.md, y las enmiendas de la feature activa están "
        "verificadas, así que el cambio está formalmente autorizado (en lugar de FROZEN_ARTIFACT_CHANGED). Las "
        "enmiendas no cubren plan.md ni tasks.md.",
    ),
    "INVALID_RIGOR_LEVEL": (
        "spec.md declara un nivel de rigor desconocido.",
        "Los niveles de rigor de Gemstack 2.0 son quick, fix, feature y high-risk, declarados en el front matter "
        "(`rigor: fix`) o en línea (`**Rigor**: fix`). Se comprueba para la feature activa, como hace `gemstack spec "
        "validate`.",
    ),
    "FIX_MISSING_REGRESSION_TEST": (
        "Un fix no declara ninguna prueba de regresión.",
        "El rigor `fix` requiere una prueba de regresión en la gemstack-test-matrix de spec.md: categoría "
        "REGRESSION, un id que contenga REG, o una descripción que mencione una regresión o cómo reproducir el "
        "error.",
    ),
    "FEATURE_PLAN_MISSING": (
        "Una spec de rigor feature no tiene plan.md.",
        "El rigor `feature` requiere los tres artefactos SDD: spec.md, plan.md y tasks.md (no vacíos). El rigor "
        "`quick` no necesita más que la spec.",
    ),
    "FEATURE_TASKS_MISSING": (
        "Una spec de rigor feature no tiene tasks.md.",
        "El rigor `feature` requiere los tres artefactos SDD: spec.md, plan.md y tasks.md (no vacíos).",
    ),
    "HIGH_RISK_MISSING_THREAT_MODEL": (
        "Una spec de alto riesgo no tiene modelo de amenazas.",
        "El rigor `high-risk` requiere una sección `## Threat Model` (o `## Modelo de Amenazas`) en spec.md.",
    ),
    "HIGH_RISK_MISSING_ROLLBACK_PLAN": (
        "Un plan de alto riesgo no tiene plan de rollback.",
        "El rigor `high-risk` requiere una sección `## Rollback Plan` (o `## Plan de Rollback`) en plan.md. (Sus dos "
        "aprobaciones humanas están en el sidecar .gemstack.json de la feature.)",
    ),
    "HIGH_RISK_INSUFFICIENT_APPROVALS": (
        "Una feature de alto riesgo tiene menos de dos aprobaciones humanas distintas.",
        "El rigor `high-risk` requiere al menos 2 firmas de aprobación humana distintas en el sidecar "
        ".gemstack.json de la feature: `approvals: [{approver, signature, timestamp}, ...]`. Una aprobación cuenta "
        "cuando tiene approver y signature; las aprobaciones de un mismo approver cuentan una vez. Un sidecar "
        "ausente o ilegible no tiene aprobaciones (así lo lee `gemstack spec validate`).",
    ),
    "DELTA_PARSE_ERROR": (
        "Un bloque gemstack-spec-delta no es JSON válido.",
        "Un delta de spec (Gemstack 2.0) es JSON estricto: {base_spec, added, modified, removed}, cada uno de los "
        "tres últimos con listas contracts, requirements y tests.",
    ),
    "INVALID_DELTA_SCHEMA": (
        "Un bloque gemstack-spec-delta no contiene un objeto.",
        "La referencia rechaza un delta que no es un objeto (null, un texto, un número).",
    ),
    "DELTA_TARGET_NOT_FOUND": (
        "Un delta de spec modifica o elimina algo que su spec base no tiene.",
        "Aplicado en el orden de la referencia (eliminaciones, modificaciones, adiciones), cada id de contrato o de "
        "prueba eliminado o modificado debe existir en la spec que nombra base_spec (specs/<feature>/spec.md): su "
        "gemstack-contracts y su gemstack-test-matrix. También se informa cuando base_spec no nombra ninguna spec.",
    ),
    "DELTA_ADD_CONFLICT": (
        "Un delta de spec añade un id que su spec base ya tiene.",
        "Un contrato o una prueba añadidos deben tener un id nuevo; cambia uno existente en `modified`.",
    ),
    "GEMSTACK_MANIFEST_INVALID": (
        "No se puede recorrer .gemstack/manifest.json.",
        'El manifiesto de instalación que escribe `gemstack init` lista archivos como {path, checksum}. Su "files" '
        "debe ser una lista de objetos con un path de texto dentro del repositorio; si no, el verify de la referencia "
        "(etapa 1) se detiene con `Error leyendo manifest.json`. Los errores de sintaxis son JSON_SYNTAX_ERROR.",
    ),
    "GEMSTACK_FILE_MISSING": (
        "Falta un archivo que instaló gemstack init.",
        "Una ruta listada en .gemstack/manifest.json no existe (verify etapa 1, un error por archivo). Ejecuta de "
        "nuevo `gemstack init`, o restaura el archivo.",
    ),
    "GEMSTACK_FILES_MODIFIED": (
        "Se personalizaron archivos que instaló gemstack init.",
        "El SHA-256 de los bytes de estos archivos ya no coincide con el checksum que registró "
        ".gemstack/manifest.json. La personalización local está permitida; `gemstack init` puede sobrescribirla.",
    ),
    "GITIGNORE_GEMSTACK_BLOCK_MISSING": (
        ".gitignore no tiene bloque de Gemstack.",
        "En un repositorio que instaló gemstack init, .gitignore debe contener el bloque `# Gemstack` que deja "
        ".gemstack/state.json y .gemstack/backups/ fuera del control de versiones (verify etapa 1).",
    ),
    "ENV_FILE_PRESENT": (
        "Un archivo .env que .gitignore no ignora.",
        "Un archivo .env en la raíz del repositorio suele contener credenciales; verify (etapa 6) advierte de ello. "
        "Esta herramienta solo advierte cuando .gitignore no lo ignora (la referencia te pide comprobarlo). Su "
        "contenido nunca se lee.",
    ),
    "SCRIPT_STDERR_SUPPRESSED": (
        "Un script de package.json oculta sus errores con 2>nul.",
        "`2>nul` (o `2> nul`) en cualquier script oculta los fallos y no es portable entre PowerShell y Bash (verify "
        "etapa 6, un error). Usa un ejecutor multiplataforma: `node --test <rutas>` o `tsx --test <rutas>`.",
    ),
    "TEST_SCRIPT_FAILURE_IGNORED": (
        "Un script de pruebas ignora los fallos con || true.",
        "Un script de package.json cuyo nombre contiene `test` y cuyo comando contiene `|| true` siempre tiene éxito, "
        "así que las pruebas que fallan pasan (verify etapa 6, una advertencia).",
    ),
    "HANDOFF_MISSING": (
        "handoff.md no existe.",
        "La memoria de sesión es obligatoria: handoff.md en la raíz del repositorio (verify etapa 2). Se informa en "
        "los repositorios que instaló gemstack init (tienen .gemstack/manifest.json).",
    ),
    "HANDOFF_INCOMPLETE": (
        "A handoff.md le faltan secciones obligatorias.",
        "handoff.md debe contener las cinco secciones `1. Objetivo`, `2. Estado actual`, `3. Archivos y cambios`, "
        "`4. Intentos fallidos` y `5. Próximos pasos` (buscadas como texto plano, como las busca la referencia).",
    ),
    "HANDOFF_FAILED_ATTEMPTS_REMOVED": (
        "Se eliminó la sección de intentos fallidos de handoff.md.",
        "La sección `4. Intentos fallidos` es memoria de sesión inmutable (una regla de la constitución): lo que se "
        "intentó y falló nunca debe borrarse. Se informa además de HANDOFF_INCOMPLETE, como hace la referencia.",
    ),
    "MEMORY_UNRECORDED_COMMITS": (
        "Hay commits recientes que no se registraron en handoff.md.",
        "De los cinco commits más recientes (git log --oneline), estos no aparecen en handoff.md ni por su hash "
        "abreviado ni por ninguna palabra de cinco o más letras de su asunto (auditoría cruzada de memoria de "
        "Gemstack 2.0).",
    ),
    "MEMORY_GIT_AUDIT_UNAVAILABLE": (
        "No se pudo cruzar handoff.md con git log.",
        "El repositorio es un repositorio Git pero no se pudieron leer sus commits más recientes (falta Git, aún no "
        "hay commits, o Git rechaza el repositorio), así que la auditoría cruzada de memoria no se ejecutó. A Git se "
        "le pregunta en modo de solo lectura, con hooks, fsmonitor, paginadores, diffs externos y comprobación de "
        "firmas desactivados.",
    ),
}
