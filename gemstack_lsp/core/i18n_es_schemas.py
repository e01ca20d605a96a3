"""The Spanish of the JSON Schemas' titles and descriptions (hover, completion documentation).

The schema files (``gemstack_lsp/schemas/*.json``) stay English and valid: editors and
validators that know nothing of this project read them too. ``core.schemas.localized_schema``
overlays this catalogue on them: every ``title`` and ``description`` of a subschema is looked up
here by its English text, so one wording used in several schemas is translated once, and a text
changed in a schema has no Spanish until it is translated again (``tests/core/test_schema_i18n.py``
fails on any title or description without its Spanish). Identifiers, codes, file names and
values (``FROZEN_CONTRACT_VIOLATION``, ``spec.md``, ``"REQUIRED"``) are kept as they are.
"""

from __future__ import annotations

#: (English title or description, its Spanish), in the order the schemas are read.
PAIRS: list[tuple[str, str]] = [
    (
        "Gemstack contract amendments (specs/<feature>/amendments.json)",
        "Enmiendas de contratos de Gemstack (specs/<feature>/amendments.json)",
    ),
    (
        "Signed records that authorize changes to frozen contracts (Gemstack 2.0, contract-amendments.js). A list of "
        "amendments, or a single amendment (read as a list of one). Checked for the active feature only.",
        "Registros firmados que autorizan cambios en contratos congelados (Gemstack 2.0, contract-amendments.js). Una "
        "lista de enmiendas, o una sola enmienda (leída como una lista de una). Solo se comprueba para la feature "
        "activa.",
    ),
    ("Amendment", "Enmienda"),
    ("One signed amendment of one frozen contract.", "Una enmienda firmada de un contrato congelado."),
    ("Amendment id", "Id de la enmienda"),
    ("The amendment's identifier (AMD-...). Signed.", "El identificador de la enmienda (AMD-...). Firmado."),
    ("Contract id", "Id del contrato"),
    (
        "The id of the frozen contract (in spec.md's gemstack-contracts) this amendment authorizes to change. Signed.",
        "El id del contrato congelado (en el gemstack-contracts de spec.md) que esta enmienda autoriza a cambiar. "
        "Firmado.",
    ),
    ("Version", "Versión"),
    ("The contract's new version. Signed.", "La nueva versión del contrato. Firmada."),
    ("Reason", "Motivo"),
    (
        "Why the contract changes. Signed (trimmed).",
        "Por qué cambia el contrato. Firmado (sin espacios en los extremos).",
    ),
    ("Approved by", "Aprobada por"),
    ("Who approved the change. Signed (trimmed).", "Quién aprobó el cambio. Firmado (sin espacios en los extremos)."),
    ("Feature id", "Id de la feature"),
    (
        "The feature folder's name the amendment was approved for (Gemstack 2.0.1); another feature's amendment is "
        "AMENDMENT_REPLAY_DETECTED.",
        "El nombre de la carpeta de la feature para la que se aprobó la enmienda (Gemstack 2.0.1); la enmienda de "
        "otra feature es AMENDMENT_REPLAY_DETECTED.",
    ),
    ("Signature", "Firma"),
    (
        "Hex HMAC-SHA256, keyed with GEMSTACK_AMENDMENT_SECRET, of "
        "amendment_id|contract_id|version|reason|approved_by; without a secret, the hex SHA-256 of that text.",
        "HMAC-SHA256 en hexadecimal, con la clave GEMSTACK_AMENDMENT_SECRET, de "
        "amendment_id|contract_id|version|reason|approved_by; sin secreto, el SHA-256 en hexadecimal de ese texto.",
    ),
    ("Gemstack context capsule v1", "Context capsule v1 de Gemstack"),
    (
        "Derived continuation context for one feature. Never an authority: the sources win.",
        "Contexto de continuación derivado para una feature. Nunca es una autoridad: las fuentes prevalecen.",
    ),
    ("Gemstack cost ledger, version 1", "Ledger de costos de Gemstack, versión 1"),
    (
        "cost-ledger.json (Upgrade C, seed section 9): the declared cost classification, unit estimate and freshness "
        "of every provider capability. It records assumptions, never credentials: a key named like a credential or a "
        "value shaped like a secret makes the ledger invalid (checked besides this schema). The rules are the "
        "reference gemstack CLI's (1.3.0); fields it does not validate are described but left open.",
        "cost-ledger.json (Upgrade C, sección 9 de la semilla): la clasificación de costos declarada, la estimación "
        "por unidad y la vigencia de cada capacidad de proveedor. Registra supuestos, nunca credenciales: una clave "
        "con nombre de credencial o un valor con forma de secreto invalida el ledger (se comprueba además de este "
        "esquema). Las reglas son las de la CLI gemstack de referencia (1.3.0); los campos que no valida se describen "
        "pero quedan abiertos.",
    ),
    ("Schema URI", "URI del esquema"),
    (
        "The ledger schema's URI, conventionally https://gemstack.dev/schemas/cost-ledger-v1.json. Not validated.",
        "La URI del esquema del ledger, por convención https://gemstack.dev/schemas/cost-ledger-v1.json. No se valida.",
    ),
    ("Ledger format version", "Versión del formato del ledger"),
    ("Must be the number 1.", "Debe ser el número 1."),
    ("Last update", "Última actualización"),
    (
        "When the ledger was last edited (ISO 8601 date-time). Informative; not validated.",
        "Cuándo se editó el ledger por última vez (fecha y hora ISO 8601). Informativo; no se valida.",
    ),
    ("Currency", "Moneda"),
    (
        "The currency of every estimated_unit_cost (an ISO 4217 code such as USD); a non-blank string.",
        "La moneda de cada estimated_unit_cost (un código ISO 4217 como USD); una cadena no vacía.",
    ),
    ("Providers", "Proveedores"),
    (
        "Provider id (a lower-case slug such as gemini-cloud) to the provider's type, pricing model and "
        "per-capability cost entries.",
        "Id del proveedor (un slug en minúsculas como gemini-cloud) a su tipo, modelo de precios y entradas de costo "
        "por capacidad.",
    ),
    ("Provider", "Proveedor"),
    (
        "One provider endpoint or adapter and the capabilities it is classified for.",
        "Un endpoint o adaptador de proveedor y las capacidades para las que está clasificado.",
    ),
    ("Provider type", "Tipo de proveedor"),
    (
        "COMMERCIAL (remote, metered), LOCAL (runs on the developer's hardware) or MOCK (in-memory, no network, no "
        "cost).",
        "COMMERCIAL (remoto, medido), LOCAL (se ejecuta en el hardware del desarrollador) o MOCK (en memoria, sin "
        "red, sin costo).",
    ),
    ("Pricing model", "Modelo de precios"),
    (
        "How the provider charges, e.g. PER_1K_TOKENS, PER_REQUEST or NONE; a non-blank string.",
        "Cómo cobra el proveedor, p. ej. PER_1K_TOKENS, PER_REQUEST o NONE; una cadena no vacía.",
    ),
    ("Capabilities", "Capacidades"),
    (
        "Capability id (dot-delimited, e.g. inference.generate_text) to its cost entry.",
        "Id de la capacidad (separado por puntos, p. ej. inference.generate_text) a su entrada de costo.",
    ),
    ("Endpoint URL", "URL del endpoint"),
    (
        "Where the provider is reached. A MOCK provider must not name a remote endpoint here (nor in endpoint, "
        "baseUrl, base_url, host, remoteUrl or remote_url).",
        "Dónde se alcanza al proveedor. Un proveedor MOCK no debe nombrar aquí un endpoint remoto (ni en endpoint, "
        "baseUrl, base_url, host, remoteUrl o remote_url).",
    ),
    ("Capability cost entry", "Entrada de costo de la capacidad"),
    (
        "The cost classification of one provider capability.",
        "La clasificación de costo de una capacidad de un proveedor.",
    ),
    ("Cost state", "Estado de costo"),
    (
        "FREE, BILLABLE, POTENTIALLY_BILLABLE or UNKNOWN. UNKNOWN is valid here but never authorizes execution.",
        "FREE, BILLABLE, POTENTIALLY_BILLABLE o UNKNOWN. UNKNOWN es válido aquí pero nunca autoriza la ejecución.",
    ),
    ("Estimated unit cost", "Costo unitario estimado"),
    (
        "The estimated cost of one unit, in the ledger's currency; a number, zero or more.",
        "El costo estimado de una unidad, en la moneda del ledger; un número, cero o más.",
    ),
    ("Assumption source", "Fuente del supuesto"),
    (
        "Where the estimate comes from (a price list and its date). Informative; not validated.",
        "De dónde sale la estimación (una lista de precios y su fecha). Informativo; no se valida.",
    ),
    ("Freshness date", "Fecha de vigencia"),
    (
        "When the estimate was last verified (YYYY-MM-DD). Must be a date JavaScript's Date.parse accepts (checked "
        "besides this schema); missing or older than the maximum age (90 days by default) yields "
        "STALE_PROVIDER_COST_ASSUMPTION.",
        "Cuándo se verificó la estimación por última vez (AAAA-MM-DD). Debe ser una fecha que Date.parse de "
        "JavaScript acepte (se comprueba además de este esquema); si falta o es más antigua que la antigüedad máxima "
        "(90 días por defecto) produce STALE_PROVIDER_COST_ASSUMPTION.",
    ),
    ("Requires human approval", "Requiere aprobación humana"),
    (
        "Whether a person must approve each use. Informative; not validated.",
        "Si una persona debe aprobar cada uso. Informativo; no se valida.",
    ),
    ("gemstack-billable-actions block", "Bloque gemstack-billable-actions"),
    (
        "The billable or provider actions a feature declares (in spec.md), or binds to concrete providers (in "
        "plan.md, same shape: each id must be declared in spec.md and its providers chain replaces the spec's). "
        "Defined by this project; the reference CLI does not parse it.",
        "Las acciones facturables o de proveedor que declara una feature (en spec.md), o que vincula a proveedores "
        "concretos (en plan.md, con la misma forma: cada id debe estar declarado en spec.md y su cadena de "
        "proveedores sustituye a la de la spec). Definido por este proyecto; la CLI de referencia no lo analiza.",
    ),
    ("Billable action", "Acción facturable"),
    (
        "An atomic operation requested from an external or commercial provider that can incur cost, consume quota or "
        "debit credits (seed section 5).",
        "Una operación atómica solicitada a un proveedor externo o comercial que puede generar costos, consumir cuota "
        "o debitar créditos (sección 5 de la semilla).",
    ),
    ("Action id", "Id de la acción"),
    (
        "The action's kebab-case identifier, unique within the block (e.g. generate-summary); tasks name it in <!-- "
        "gemstack:actions=... -->.",
        "El identificador kebab-case de la acción, único dentro del bloque (p. ej. generate-summary); las tareas lo "
        "nombran en <!-- gemstack:actions=... -->.",
    ),
    ("Description", "Descripción"),
    ("What the action does, in one sentence.", "Qué hace la acción, en una frase."),
    ("Billing category", "Categoría de facturación"),
    ("The operational category of seed section 7.1.", "La categoría operativa de la sección 7.1 de la semilla."),
    ("Capability id", "Id de la capacidad"),
    (
        "The dot-delimited capability the action needs from its provider (e.g. inference.generate_text).",
        "La capacidad separada por puntos que la acción necesita de su proveedor (p. ej. inference.generate_text).",
    ),
    ("Provider chain", "Cadena de proveedores"),
    (
        "Provider ids in fallback order: the first is the primary; each later one is tried only if the previous "
        "fails, and is gated again on its own.",
        "Ids de proveedores en orden de respaldo: el primero es el principal; cada uno posterior solo se prueba si el "
        "anterior falla, y pasa de nuevo por las compuertas por sí mismo.",
    ),
    ("Provider id", "Id del proveedor"),
    (
        "A registered provider id (a lower-case slug such as gemini-cloud).",
        "Un id de proveedor registrado (un slug en minúsculas como gemini-cloud).",
    ),
    ("Side effect", "Efecto secundario"),
    (
        "What the action changes, independently of cost (seed section 5, SideEffectClassification).",
        "Qué cambia la acción, con independencia del costo (sección 5 de la semilla, SideEffectClassification).",
    ),
    ("gemstack-capabilities block", "Bloque gemstack-capabilities"),
    (
        "A provider registry written as a block of spec.md or plan.md: which providers exist, their type, the "
        "capabilities they declare and the adapter that implements them. The ledgers' providers maps and "
        ".gemstack/providers.json are the other registries. Defined by this project; the reference CLI does not parse "
        "it.",
        "Un registro de proveedores escrito como bloque de spec.md o plan.md: qué proveedores existen, su tipo, las "
        "capacidades que declaran y el adaptador que las implementa. Los mapas providers de los ledgers y "
        ".gemstack/providers.json son los otros registros. Definido por este proyecto; la CLI de referencia no lo "
        "analiza.",
    ),
    ("Provider declaration", "Declaración de proveedor"),
    ("One provider identity and what it can do.", "Una identidad de proveedor y lo que puede hacer."),
    (
        "The canonical provider id: a lower-case slug matching ^[a-z0-9]+(-[a-z0-9]+)*$ (e.g. ollama-local).",
        "El id canónico del proveedor: un slug en minúsculas que cumple ^[a-z0-9]+(-[a-z0-9]+)*$ (p. ej. "
        "ollama-local).",
    ),
    (
        "COMMERCIAL (remote, metered), LOCAL (developer hardware) or MOCK (in-memory, no network, no cost).",
        "COMMERCIAL (remoto, medido), LOCAL (hardware del desarrollador) o MOCK (en memoria, sin red, sin costo).",
    ),
    (
        "The dot-delimited capability ids the provider declares. With an adapter, this is also what the adapter "
        "implements: a capability declared for the provider elsewhere but missing here is "
        "PROVIDER_CAPABILITY_UNSUPPORTED.",
        "Los ids de capacidad separados por puntos que declara el proveedor. Con un adaptador, es también lo que el "
        "adaptador implementa: una capacidad declarada para el proveedor en otro lugar pero ausente aquí es "
        "PROVIDER_CAPABILITY_UNSUPPORTED.",
    ),
    (
        "A dot-delimited capability id (e.g. inference.generate_text).",
        "Un id de capacidad separado por puntos (p. ej. inference.generate_text).",
    ),
    ("Adapter", "Adaptador"),
    (
        "The execution adapter (module or class name) that implements the listed capabilities.",
        "El adaptador de ejecución (nombre de módulo o de clase) que implementa las capacidades listadas.",
    ),
    (
        "Where the provider is reached. A MOCK provider must not name a remote endpoint "
        "(MOCK_PROVIDER_ESCAPE_VIOLATION).",
        "Dónde se alcanza al proveedor. Un proveedor MOCK no debe nombrar un endpoint remoto "
        "(MOCK_PROVIDER_ESCAPE_VIOLATION).",
    ),
    ("Endpoint", "Endpoint"),
    (
        "Alternative name of the endpoint; the same rule as url applies.",
        "Nombre alternativo del endpoint; se aplica la misma regla que a url.",
    ),
    ("Host", "Host"),
    (
        "The host the provider is reached at; a MOCK provider may only name localhost or 127.0.0.1.",
        "El host en el que se alcanza al proveedor; un proveedor MOCK solo puede nombrar localhost o 127.0.0.1.",
    ),
    ("Base URL", "URL base"),
    (
        "The base URL of the provider's API; the same rule as url applies.",
        "La URL base de la API del proveedor; se aplica la misma regla que a url.",
    ),
    ("gemstack-closure-gates block", "Bloque gemstack-closure-gates"),
    (
        "In plan.md: the package scripts that must (REQUIRED) or should (SUPPLEMENTAL) pass before a feature can "
        "close. A JSON array of gates with unique ids.",
        "En plan.md: los scripts del paquete que deben (REQUIRED) o deberían (SUPPLEMENTAL) pasar antes de que una "
        "feature pueda cerrarse. Un array JSON de compuertas con ids únicos.",
    ),
    ("Closure gate", "Compuerta de cierre"),
    ("One package script run as a closure gate.", "Un script del paquete ejecutado como compuerta de cierre."),
    ("Gate id", "Id de la compuerta"),
    ("Unique id of the gate within the block.", "Id único de la compuerta dentro del bloque."),
    ("Gate type", "Tipo de compuerta"),
    (
        "Only PACKAGE_SCRIPT (a script of package.json) is supported.",
        "Solo se admite PACKAGE_SCRIPT (un script de package.json).",
    ),
    ("Script", "Script"),
    (
        "The name of the package.json script to run (npm run <script>).",
        "El nombre del script de package.json que se ejecuta (npm run <script>).",
    ),
    ("Requirement", "Requisito"),
    (
        "REQUIRED gates block closure when they fail; SUPPLEMENTAL gates only warn.",
        "Las compuertas REQUIRED bloquean el cierre cuando fallan; las SUPPLEMENTAL solo advierten.",
    ),
    ("Waivable", "Dispensable"),
    (
        "Whether a failing gate may be waived. Required, as a JSON boolean, on REQUIRED gates.",
        "Si una compuerta que falla puede dispensarse. Obligatorio, como booleano JSON, en las compuertas REQUIRED.",
    ),
    ("closure.json (gemstack-closure v1)", "closure.json (gemstack-closure v1)"),
    (
        "specs/<feature>/closure.json: the mechanical closure evidence `gemstack collect` writes for a feature "
        "(Upgrade B). `gemstack verify` recomputes closure_context.closure_context_hash from the feature's sources "
        "and the Git state and requires status VERIFIED or VERIFIED_WITH_EXCEPTIONS; it never writes the file. Other "
        "members are informative and may grow in later versions.",
        "specs/<feature>/closure.json: la evidencia mecánica de cierre que `gemstack collect` escribe para una "
        "feature (Upgrade B). `gemstack verify` recalcula closure_context.closure_context_hash a partir de las "
        "fuentes de la feature y del estado de Git y exige el estado VERIFIED o VERIFIED_WITH_EXCEPTIONS; nunca "
        "escribe el archivo. Los demás miembros son informativos y pueden crecer en versiones posteriores.",
    ),
    ("Schema", "Esquema"),
    ('Always "gemstack-closure".', 'Siempre "gemstack-closure".'),
    ("The manifest format version; 1.", "La versión del formato del manifiesto; 1."),
    ("Feature", "Feature"),
    (
        "The active_spec of state.json when the evidence was collected, copied verbatim (specs/<feature>).",
        "El active_spec de state.json cuando se recogió la evidencia, copiado literalmente (specs/<feature>).",
    ),
    ("Generated at", "Generado el"),
    (
        "When collect wrote the manifest (an ISO 8601 timestamp).",
        "Cuándo escribió collect el manifiesto (una marca de tiempo ISO 8601).",
    ),
    ("Status", "Estado"),
    (
        "The verdict of collect: VERIFIED (no blockers) or BLOCKED; verify also accepts VERIFIED_WITH_EXCEPTIONS. "
        "Anything else is CLOSURE_NOT_VERIFIED.",
        "El veredicto de collect: VERIFIED (sin bloqueos) o BLOCKED; verify acepta también VERIFIED_WITH_EXCEPTIONS. "
        "Cualquier otro valor es CLOSURE_NOT_VERIFIED.",
    ),
    ("Closure context", "Contexto de cierre"),
    (
        "What the evidence was collected against. Only closure_context_hash is compared by verify; the other members "
        "explain it.",
        "Contra qué se recogió la evidencia. verify solo compara closure_context_hash; los demás miembros lo explican.",
    ),
    ("Closure context hash", "Hash del contexto de cierre"),
    (
        "SHA-256 (lowercase hex) of the compact JSON of {acceptance_signature, implementation_context_hash, "
        "phase_hashes, repository, required_gate_definition_hash, test_files_hash, version}, keys sorted one level "
        "deep. A different value now is CLOSURE_EVIDENCE_STALE.",
        "SHA-256 (hexadecimal en minúsculas) del JSON compacto de {acceptance_signature, implementation_context_hash, "
        "phase_hashes, repository, required_gate_definition_hash, test_files_hash, version}, con las claves ordenadas "
        "en un nivel. Un valor distinto ahora es CLOSURE_EVIDENCE_STALE.",
    ),
    ("Repository type", "Tipo de repositorio"),
    (
        '"git" when the root held a .git entry, else "non-git".',
        '"git" cuando la raíz tenía una entrada .git, si no "non-git".',
    ),
    ("Git commit", "Commit de Git"),
    (
        "git rev-parse HEAD at collection time (null outside Git or when Git failed). Part of the hash: any new "
        "commit makes the evidence stale.",
        "git rev-parse HEAD en el momento de la recogida (null fuera de Git o cuando Git falló). Parte del hash: "
        "cualquier commit nuevo deja la evidencia desactualizada.",
    ),
    ("Working tree clean", "Árbol de trabajo limpio"),
    (
        "Whether git status --porcelain printed nothing at collection time (null outside Git). Part of the hash.",
        "Si git status --porcelain no imprimió nada en el momento de la recogida (null fuera de Git). Parte del hash.",
    ),
    ("Relevant files digest", "Resumen de archivos relevantes"),
    (
        "An informative digest of the feature's relevant files; not part of the hash and never checked.",
        "Un resumen informativo de los archivos relevantes de la feature; no forma parte del hash y nunca se "
        "comprueba.",
    ),
    ("Acceptance signature", "Firma de aceptación"),
    (
        "The acceptance signature of the spec's gemstack-test-matrix (SHA-256 of its entries sorted by id).",
        "La firma de aceptación del gemstack-test-matrix de la spec (SHA-256 de sus entradas ordenadas por id).",
    ),
    ("Canonical summary", "Resumen canónico"),
    ("Counts of the matrix's canonical tests.", "Recuentos de las pruebas canónicas de la matriz."),
    ("Required total", "Total requerido"),
    ("REQUIRED tests in the matrix.", "Pruebas REQUIRED de la matriz."),
    ("Required passed", "Requeridas superadas"),
    ("REQUIRED tests that passed.", "Pruebas REQUIRED que pasaron."),
    ("Supplemental total", "Total suplementario"),
    ("SUPPLEMENTAL tests in the matrix.", "Pruebas SUPPLEMENTAL de la matriz."),
    ("Supplemental passed", "Suplementarias superadas"),
    (
        "SUPPLEMENTAL tests that passed (collect always writes 0).",
        "Pruebas SUPPLEMENTAL que pasaron (collect siempre escribe 0).",
    ),
    ("Physical summary", "Resumen físico"),
    ("What the test runner executed.", "Lo que ejecutó el ejecutor de pruebas."),
    ("Supporting total", "Total de apoyo"),
    ("Executed tests that are not canonical.", "Pruebas ejecutadas que no son canónicas."),
    ("Supporting passed", "De apoyo superadas"),
    ("Supporting tests that passed.", "Pruebas de apoyo que pasaron."),
    ("Total executed", "Total ejecutado"),
    ("Every test the runner executed.", "Cada prueba que ejecutó el ejecutor."),
    ("Total passed", "Total superado"),
    ("Tests that passed.", "Pruebas que pasaron."),
    ("Total failed", "Total fallido"),
    ("Tests that failed.", "Pruebas que fallaron."),
    ("Total skipped", "Total omitido"),
    ("Skipped, todo and cancelled tests.", "Pruebas omitidas, pendientes (todo) y canceladas."),
    ("Reconciliation", "Conciliación"),
    (
        "How executed tests reconcile with the matrix and bindings.",
        "Cómo se concilian las pruebas ejecutadas con la matriz y los vínculos.",
    ),
    ("Counts reconcile", "Los recuentos cuadran"),
    ("Whether the counts add up.", "Si los recuentos suman."),
    ("Phantom tests", "Pruebas fantasma"),
    ("Executed tests bound to no canonical id.", "Pruebas ejecutadas no vinculadas a ningún id canónico."),
    ("Orphan tests", "Pruebas huérfanas"),
    (
        "Canonical tests bound to a file that ran none of them.",
        "Pruebas canónicas vinculadas a un archivo que no ejecutó ninguna de ellas.",
    ),
    ("Missing canonical ids", "Ids canónicos ausentes"),
    ("Canonical ids that did not run.", "Ids canónicos que no se ejecutaron."),
    ("Task traceability summary", "Resumen de trazabilidad de tareas"),
    ("How tasks.md maps onto the matrix.", "Cómo se corresponde tasks.md con la matriz."),
    ("Tasks", "Tareas"),
    ("Tasks in tasks.md.", "Tareas de tasks.md."),
    ("Tasks with validation", "Tareas con validación"),
    ("Tasks with validation_required=true.", "Tareas con validation_required=true."),
    ("Documentation-only tasks", "Tareas solo de documentación"),
    ("Tasks with validation_required=false.", "Tareas con validation_required=false."),
    ("Unmapped canonical tests", "Pruebas canónicas sin asignar"),
    ("REQUIRED tests no task names.", "Pruebas REQUIRED que ninguna tarea nombra."),
    ("Required gates", "Compuertas requeridas"),
    ("Each REQUIRED closure gate's outcome.", "El resultado de cada compuerta de cierre REQUIRED."),
    ("Supplemental gates", "Compuertas suplementarias"),
    ("Each SUPPLEMENTAL closure gate's outcome.", "El resultado de cada compuerta de cierre SUPPLEMENTAL."),
    ("Exceptions", "Excepciones"),
    ("Accepted exceptions (collect always writes []).", "Excepciones aceptadas (collect siempre escribe [])."),
    ("Evidence sources", "Fuentes de la evidencia"),
    (
        "Where the evidence came from (the package test script and its runner).",
        "De dónde salió la evidencia (el script de pruebas del paquete y su ejecutor).",
    ),
    ("Blockers", "Bloqueos"),
    (
        "Why the closure is BLOCKED: objects {code, message, ...} (REQUIRED_GATE_FAILED, REQUIRED_TEST_FAILED, ...).",
        "Por qué el cierre está BLOCKED: objetos {code, message, ...} (REQUIRED_GATE_FAILED, REQUIRED_TEST_FAILED, "
        "...).",
    ),
    ("Blocker", "Bloqueo"),
    ("One reason the closure is blocked.", "Un motivo por el que el cierre está bloqueado."),
    ("Code", "Código"),
    ("The blocker code.", "El código del bloqueo."),
    ("Message", "Mensaje"),
    ("What blocks closure.", "Qué bloquea el cierre."),
    ("Warnings", "Advertencias"),
    (
        "Non-blocking observations (SUPPLEMENTAL_GATE_FAILED).",
        "Observaciones que no bloquean (SUPPLEMENTAL_GATE_FAILED).",
    ),
    ("gemstack-contracts block", "Bloque gemstack-contracts"),
    (
        "The frozen contracts of a phase artifact (spec.md, plan.md, tasks.md): a JSON array of contract objects. "
        "Contracts declared in spec.md are frozen; plan.md and tasks.md may add contracts but must not contradict an "
        "inherited one (FROZEN_CONTRACT_VIOLATION). Exactly one block per document.",
        "Los contratos congelados de un artefacto de fase (spec.md, plan.md, tasks.md): un array JSON de objetos de "
        "contrato. Los contratos declarados en spec.md están congelados; plan.md y tasks.md pueden añadir contratos "
        "pero no deben contradecir uno heredado (FROZEN_CONTRACT_VIOLATION). Exactamente un bloque por documento.",
    ),
    ("Non-blank string", "Cadena no vacía"),
    (
        "A string with at least one non-whitespace character.",
        "Una cadena con al menos un carácter que no es espacio en blanco.",
    ),
    ("Frozen contract", "Contrato congelado"),
    (
        "One frozen contract: a unique id, a type, and the fields that type needs. Extra keys (such as description) "
        "are allowed.",
        "Un contrato congelado: un id único, un tipo y los campos que ese tipo necesita. Se permiten claves "
        "adicionales (como description).",
    ),
    (
        "Unique, non-blank id of the contract within the block (CONTRACT_DUPLICATE_ID when repeated). Downstream "
        "phases redeclare a contract under the same id.",
        "Id único y no vacío del contrato dentro del bloque (CONTRACT_DUPLICATE_ID si se repite). Las fases "
        "posteriores vuelven a declarar un contrato con el mismo id.",
    ),
    ("Contract type", "Tipo de contrato"),
    (
        "ENUM_SET (a closed set of values), IDENTITY_TUPLE (the dimensions that identify a record), PROVENANCE_RULE "
        "(an entity and the provenance fields it must carry), BOOLEAN_INVARIANT (a true/false rule), BOUNDARY "
        "(FORBIDDEN or REQUIRED) or ROADMAP_LIMIT (a number or string limit).",
        "ENUM_SET (un conjunto cerrado de valores), IDENTITY_TUPLE (las dimensiones que identifican un registro), "
        "PROVENANCE_RULE (una entidad y los campos de procedencia que debe llevar), BOOLEAN_INVARIANT (una regla "
        "verdadero/falso), BOUNDARY (FORBIDDEN o REQUIRED) o ROADMAP_LIMIT (un límite numérico o de texto).",
    ),
    (
        "What the contract means, for people. Not compared between phases.",
        "Qué significa el contrato, para las personas. No se compara entre fases.",
    ),
    ("Values", "Valores"),
    (
        "ENUM_SET: the members of the set; IDENTITY_TUPLE: the identity dimensions; PROVENANCE_RULE: the provenance "
        "fields. Non-blank strings; compared between phases after trimming and sorting.",
        "ENUM_SET: los miembros del conjunto; IDENTITY_TUPLE: las dimensiones de identidad; PROVENANCE_RULE: los "
        "campos de procedencia. Cadenas no vacías; se comparan entre fases tras quitar los espacios de los extremos y "
        "ordenarlas.",
    ),
    ("Value", "Valor"),
    ("A non-blank member, dimension or field name.", "Un nombre no vacío de miembro, dimensión o campo."),
    (
        'BOOLEAN_INVARIANT: a JSON boolean; BOUNDARY: "FORBIDDEN" or "REQUIRED"; ROADMAP_LIMIT: a number or a string.',
        'BOOLEAN_INVARIANT: un booleano JSON; BOUNDARY: "FORBIDDEN" o "REQUIRED"; ROADMAP_LIMIT: un número o una '
        "cadena.",
    ),
    ("Entity", "Entidad"),
    (
        "PROVENANCE_RULE: the entity whose records must carry the provenance fields.",
        "PROVENANCE_RULE: la entidad cuyos registros deben llevar los campos de procedencia.",
    ),
    ("gemstack-inherited-contracts block", "Bloque gemstack-inherited-contracts"),
    (
        "In plan.md (Gemstack 2.0): the frozen contracts the plan inherits, restated from the feature's spec.md "
        "gemstack-contracts block, in the same shape (a JSON array of contract objects). Each entry must agree with "
        "the declaration it restates (FROZEN_CONTRACT_VIOLATION otherwise); an id the spec does not declare is an "
        "addition. The reference gemstack CLI does not read this block. Exactly one block per document.",
        "En plan.md (Gemstack 2.0): los contratos congelados que hereda el plan, repetidos del bloque "
        "gemstack-contracts del spec.md de la feature, con la misma forma (un array JSON de objetos de contrato). "
        "Cada entrada debe coincidir con la declaración que repite (si no, FROZEN_CONTRACT_VIOLATION); un id que la "
        "spec no declara es una adición. La CLI gemstack de referencia no lee este bloque. Exactamente un bloque por "
        "documento.",
    ),
    (
        "gemstack-lsp configuration (.gemstack/lsp.toml, or [tool.gemstack-lsp] in pyproject.toml)",
        "Configuración de gemstack-lsp (.gemstack/lsp.toml, o [tool.gemstack-lsp] en pyproject.toml)",
    ),
    (
        "One configuration for the editor and CI, read by the language server and `gemstack-lsp check` alike "
        "(docs/configuration.md). Keys may also be written in snake_case or camelCase. Written with "
        "draft-04-compatible keywords (definitions, no propertyNames), so taplo-based TOML editors read it.",
        "Una sola configuración para el editor y la CI, leída igual por el servidor de lenguaje y por `gemstack-lsp "
        "check` (docs/configuration.md). Las claves también pueden escribirse en snake_case o camelCase. Escrito con "
        "palabras clave compatibles con draft-04 (definitions, sin propertyNames), para que los editores TOML basados "
        "en taplo lo lean.",
    ),
    ("Environment tier", "Nivel de entorno"),
    (
        "The tier the provider gates are evaluated for, in the editor and in `gemstack-lsp check` (which "
        "--environment overrides).",
        "El nivel para el que se evalúan las compuertas de proveedores, en el editor y en `gemstack-lsp check` (que "
        "--environment sustituye).",
    ),
    ("Maximum ledger age (days)", "Antigüedad máxima del ledger (días)"),
    (
        "A ledger freshness_date older than this is STALE_PROVIDER_COST_ASSUMPTION (default 90; --max-ledger-age-days "
        "overrides it in check).",
        "Un freshness_date de ledger más antiguo que esto es STALE_PROVIDER_COST_ASSUMPTION (90 por defecto; "
        "--max-ledger-age-days lo sustituye en check).",
    ),
    ("Debounce (ms)", "Espera (ms)"),
    (
        "Editor only: the minimum delay before analysing after an edit (default 0).",
        "Solo en el editor: el retardo mínimo antes de analizar tras una edición (0 por defecto).",
    ),
    ("Log level", "Nivel de registro"),
    ("Editor only: the server's log level.", "Solo en el editor: el nivel de registro del servidor."),
    ("Editor features", "Funciones del editor"),
    ("Switch editor features off (editor only).", "Desactiva funciones del editor (solo en el editor)."),
    ("diagnostics", "diagnósticos"),
    (
        "Publish diagnostics. On by default (editor only).",
        "Publica diagnósticos. Activado por defecto (solo en el editor).",
    ),
    ("hover", "hover"),
    ("Hover. On by default (editor only).", "Hover. Activado por defecto (solo en el editor)."),
    ("code-actions", "acciones de código"),
    (
        "Code actions and quick fixes. On by default (editor only).",
        "Acciones de código y correcciones rápidas. Activado por defecto (solo en el editor).",
    ),
    ("code-lens", "code lens"),
    ("Code lenses. On by default (editor only).", "Code lenses. Activado por defecto (solo en el editor)."),
    ("completion", "completado"),
    ("Completion. On by default (editor only).", "Completado. Activado por defecto (solo en el editor)."),
    ("navigation", "navegación"),
    (
        "Go to definition, references, links. On by default (editor only).",
        "Ir a la definición, referencias, enlaces. Activado por defecto (solo en el editor).",
    ),
    ("The same as code-actions.", "Lo mismo que code-actions."),
    ("The same as code-lens.", "Lo mismo que code-lens."),
    ("Overrides", "Excepciones por ruta"),
    (
        "Per-path severity and ignore lists ([[overrides]]), applied in order.",
        "Listas de severidad y de ignorados por ruta ([[overrides]]), aplicadas en orden.",
    ),
    ("Level", "Nivel"),
    (
        "error, warning, information (or info), hint, or off (not reported).",
        "error, warning, information (o info), hint, u off (no se informa).",
    ),
    ("Severity per code or family", "Severidad por código o familia"),
    (
        "A finding code (STALE_PROVIDER_COST_ASSUMPTION) or a family (bindings, capsule, closure, config, contracts, "
        "cost, documents, gates, matrix, tasks) to its level. A code's entry wins over its family's. "
        "GEMSTACK_INTERNAL_ERROR, CONTEXT_CAPSULE_SECRET_DETECTED and ARTIFACT_UNREADABLE cannot be re-graded. (Keys "
        "are checked by gemstack-lsp itself: a misspelt code is a CONFIG_INVALID warning.)",
        "Un código de hallazgo (STALE_PROVIDER_COST_ASSUMPTION) o una familia (bindings, capsule, closure, config, "
        "contracts, cost, documents, gates, matrix, tasks) a su nivel. La entrada de un código prevalece sobre la de "
        "su familia. GEMSTACK_INTERNAL_ERROR, CONTEXT_CAPSULE_SECRET_DETECTED y ARTIFACT_UNREADABLE no se pueden "
        "reclasificar. (Las claves las comprueba el propio gemstack-lsp: un código mal escrito es una advertencia "
        "CONFIG_INVALID.)",
    ),
    ("Ignored codes or families", "Códigos o familias ignorados"),
    (
        "Findings of these codes or families are not reported (the same as level off).",
        "Los hallazgos de estos códigos o familias no se informan (lo mismo que el nivel off).",
    ),
    ("Override", "Excepción por ruta"),
    (
        "Applies to the files its globs match; entries apply in order and a later one wins.",
        "Se aplica a los archivos que cumplen sus globs; las entradas se aplican en orden y una posterior prevalece.",
    ),
    ("Paths", "Rutas"),
    (
        "Globs relative to the repository root: * stays in a path segment, ** crosses them, ? is one character; a "
        "glob naming a folder covers what it holds.",
        "Globs relativos a la raíz del repositorio: * se queda en un segmento de ruta, ** los cruza, ? es un "
        "carácter; un glob que nombra una carpeta cubre lo que contiene.",
    ),
    (
        "Why the team decided so; shown in the hover of a finding this entry hides.",
        "Por qué lo decidió el equipo; se muestra en el hover de un hallazgo que esta entrada oculta.",
    ),
    (
        "Gemstack installation manifest (.gemstack/manifest.json)",
        "Manifiesto de instalación de Gemstack (.gemstack/manifest.json)",
    ),
    (
        "Written by `gemstack init` (manifest.js): the files it installed and the SHA-256 of their bytes. `gemstack "
        "verify` stage 1 reports a listed file that is missing (GEMSTACK_FILE_MISSING) and counts the modified ones "
        "(GEMSTACK_FILES_MODIFIED).",
        "Escrito por `gemstack init` (manifest.js): los archivos que instaló y el SHA-256 de sus bytes. La etapa 1 de "
        "`gemstack verify` informa de un archivo listado que falta (GEMSTACK_FILE_MISSING) y cuenta los modificados "
        "(GEMSTACK_FILES_MODIFIED).",
    ),
    (
        "The Gemstack version that wrote the manifest (0.2.0 when loadManifest finds none).",
        "La versión de Gemstack que escribió el manifiesto (0.2.0 cuando loadManifest no encuentra ninguno).",
    ),
    ("Installed at", "Instalado el"),
    (
        "When the manifest was saved (ISO 8601, written by saveManifest).",
        "Cuándo se guardó el manifiesto (ISO 8601, escrito por saveManifest).",
    ),
    ("Installed files", "Archivos instalados"),
    (
        "One entry per installed file. Must be a list of objects with a string path inside the repository (else "
        "GEMSTACK_MANIFEST_INVALID).",
        "Una entrada por archivo instalado. Debe ser una lista de objetos con una ruta de texto dentro del "
        "repositorio (si no, GEMSTACK_MANIFEST_INVALID).",
    ),
    ("Path", "Ruta"),
    ("The repository-relative path of the installed file.", "La ruta relativa al repositorio del archivo instalado."),
    ("Checksum", "Suma de comprobación"),
    (
        "Lowercase hex SHA-256 of the file's bytes as installed; a different hash counts as a local customisation.",
        "SHA-256 en hexadecimal en minúsculas de los bytes del archivo tal como se instaló; un hash distinto cuenta "
        "como una personalización local.",
    ),
    ("gemstack-test-bindings block", "Bloque gemstack-test-bindings"),
    (
        "In plan.md: which test file runs each canonical test of the spec's matrix. A JSON array of bindings; each "
        "test id is bound once (DUPLICATE_TEST_BINDING).",
        "En plan.md: qué archivo de pruebas ejecuta cada prueba canónica de la matriz de la spec. Un array JSON de "
        "vínculos; cada id de prueba se vincula una sola vez (DUPLICATE_TEST_BINDING).",
    ),
    ("Test binding", "Vínculo de prueba"),
    (
        "A canonical test id bound to a repository-relative test file.",
        "Un id de prueba canónico vinculado a un archivo de pruebas relativo al repositorio.",
    ),
    ("Test id", "Id de la prueba"),
    (
        "The canonical test id (from the spec's gemstack-test-matrix) this binding covers.",
        "El id de prueba canónico (del gemstack-test-matrix de la spec) que cubre este vínculo.",
    ),
    ("Test id (alias)", "Id de la prueba (alias)"),
    (
        "Alias of test_id, used when test_id is absent or empty.",
        "Alias de test_id, usado cuando test_id falta o está vacío.",
    ),
    ("Runner", "Ejecutor"),
    (
        "The test runner that executes the file; defaults to node:test.",
        "El ejecutor de pruebas que ejecuta el archivo; por defecto node:test.",
    ),
    ("Test file", "Archivo de pruebas"),
    (
        "The repository-relative POSIX path of the test file (backslashes are read as slashes); never absolute and "
        "never starting with ../.",
        "La ruta POSIX relativa al repositorio del archivo de pruebas (las barras invertidas se leen como barras); "
        "nunca absoluta y nunca empieza por ../.",
    ),
    ("gemstack-test-matrix block", "Bloque gemstack-test-matrix"),
    (
        "The canonical acceptance tests of a feature, in spec.md: a JSON array of test objects with exactly six "
        "string fields. Its acceptance signature (sha256 of the sorted entries) is what later phases and the capsule "
        "refer to.",
        "Las pruebas de aceptación canónicas de una feature, en spec.md: un array JSON de objetos de prueba con "
        "exactamente seis campos de texto. Su firma de aceptación (sha256 de las entradas ordenadas) es a lo que se "
        "refieren las fases posteriores y la cápsula.",
    ),
    ("Canonical test", "Prueba canónica"),
    (
        "One acceptance test: exactly id, category, layer, description, pass_criteria and gate, each a non-empty "
        "string.",
        "Una prueba de aceptación: exactamente id, category, layer, description, pass_criteria y gate, cada uno una "
        "cadena no vacía.",
    ),
    (
        "Unique canonical test id matching ^TEST-[A-Z0-9]+-[A-Z0-9]+$ (e.g. TEST-CONTEXT-A01). Bound to a test file "
        "in plan.md and listed by tasks.",
        "Id de prueba canónico único que cumple ^TEST-[A-Z0-9]+-[A-Z0-9]+$ (p. ej. TEST-CONTEXT-A01). Se vincula a un "
        "archivo de pruebas en plan.md y lo listan las tareas.",
    ),
    ("Category", "Categoría"),
    (
        "The group the test belongs to (free text, non-empty).",
        "El grupo al que pertenece la prueba (texto libre, no vacío).",
    ),
    ("Layer", "Capa"),
    (
        "Where the test runs: UNIT, INTEGRATION, E2E or CLI.",
        "Dónde se ejecuta la prueba: UNIT, INTEGRATION, E2E o CLI.",
    ),
    ("What the test checks (non-empty).", "Qué comprueba la prueba (no vacío)."),
    ("Pass criteria", "Criterio de aceptación"),
    (
        "The observable outcome that makes the test pass (non-empty).",
        "El resultado observable que hace pasar la prueba (no vacío).",
    ),
    ("Gate", "Compuerta"),
    (
        "REQUIRED tests block closure when missing or failing; SUPPLEMENTAL tests only warn.",
        "Las pruebas REQUIRED bloquean el cierre cuando faltan o fallan; las SUPPLEMENTAL solo advierten.",
    ),
    (
        "Gemstack provider registry (.gemstack/providers.json)",
        "Registro de proveedores de Gemstack (.gemstack/providers.json)",
    ),
    (
        "The repository-wide provider registry, with the same provider shape as a cost ledger's providers map "
        "(reference gemstack-cli.md section 12.1). It is read after the ledgers; a provider declared with another "
        "type elsewhere is PROVIDER_DECLARATION_CONFLICT.",
        "El registro de proveedores de todo el repositorio, con la misma forma de proveedor que el mapa providers de "
        "un ledger de costos (sección 12.1 de gemstack-cli.md de referencia). Se lee después de los ledgers; un "
        "proveedor declarado con otro tipo en otro lugar es PROVIDER_DECLARATION_CONFLICT.",
    ),
    (
        "This schema's URI, https://gemstack.dev/schemas/providers.json. Not validated.",
        "La URI de este esquema, https://gemstack.dev/schemas/providers.json. No se valida.",
    ),
    (
        "Provider id (a lower-case slug) to its declaration.",
        "Id del proveedor (un slug en minúsculas) a su declaración.",
    ),
    ("One provider endpoint or adapter.", "Un endpoint o adaptador de proveedor."),
    (
        "COMMERCIAL, LOCAL or MOCK (upper-cased when read; COMMERCIAL when absent, fail-closed).",
        "COMMERCIAL, LOCAL o MOCK (se pasa a mayúsculas al leerlo; COMMERCIAL si falta, cerrado ante fallos).",
    ),
    (
        "How the provider charges (informative here; the ledger holds the cost entries).",
        "Cómo cobra el proveedor (aquí informativo; el ledger contiene las entradas de costo).",
    ),
    (
        "The capability ids the provider declares: a list of ids, or a map from id to an entry object.",
        "Los ids de capacidad que declara el proveedor: una lista de ids, o un mapa de id a un objeto de entrada.",
    ),
    ("A dot-delimited capability id.", "Un id de capacidad separado por puntos."),
    ("Capability entry", "Entrada de capacidad"),
    ("Free-form details of the capability.", "Detalles libres de la capacidad."),
    (
        "The execution adapter that implements the capabilities; a capability declared elsewhere but not listed here "
        "is PROVIDER_CAPABILITY_UNSUPPORTED.",
        "El adaptador de ejecución que implementa las capacidades; una capacidad declarada en otro lugar pero no "
        "listada aquí es PROVIDER_CAPABILITY_UNSUPPORTED.",
    ),
    (
        "Where the provider is reached; a MOCK provider must not name a remote endpoint (also checked in endpoint, "
        "baseUrl, base_url, host, remoteUrl, remote_url).",
        "Dónde se alcanza al proveedor; un proveedor MOCK no debe nombrar un endpoint remoto (también se comprueba en "
        "endpoint, baseUrl, base_url, host, remoteUrl, remote_url).",
    ),
    ("swarm.json (Gemstack swarm manifest 1.0.0)", "swarm.json (manifiesto de swarm de Gemstack 1.0.0)"),
    (
        "specs/<feature>/swarm.json: the swarm plan of a feature (Gemstack 1.4, Upgrade E): waves of concurrent "
        "tasks, each with one worker, one role, a write set and an independent review. `gemstack verify` (stage 5.3) "
        "checks it for the active feature, read-only. The swarm is subordinate to spec.md, plan.md, tasks.md and the "
        "frozen contracts.",
        "specs/<feature>/swarm.json: el plan de swarm de una feature (Gemstack 1.4, Upgrade E): olas de tareas "
        "concurrentes, cada una con un trabajador, un rol, un conjunto de escritura y una revisión independiente. "
        "`gemstack verify` (etapa 5.3) lo comprueba para la feature activa, en solo lectura. El swarm está "
        "subordinado a spec.md, plan.md, tasks.md y los contratos congelados.",
    ),
    ("Schema URL", "URL del esquema"),
    (
        "The manifest's schema, informative (upstream writes https://gemstack.dev/schemas/v1/swarm.json).",
        "El esquema del manifiesto, informativo (el original escribe https://gemstack.dev/schemas/v1/swarm.json).",
    ),
    (
        'The manifest format version. When set, it must be "1.0.0" (SWARM_INVALID_SCHEMA).',
        'La versión del formato del manifiesto. Si se indica, debe ser "1.0.0" (SWARM_INVALID_SCHEMA).',
    ),
    (
        "The feature this swarm implements (its folder name or specs/<feature>). Required, a non-empty string.",
        "La feature que implementa este swarm (el nombre de su carpeta o specs/<feature>). Obligatoria, una cadena no "
        "vacía.",
    ),
    ("Source capsule hash", "Hash de la cápsula de origen"),
    (
        "The file hash (SHA-256 of the text with line endings normalised) of the feature's context-capsule.json the "
        "swarm was planned from. When the feature has a capsule and this differs from its hash, verify reports "
        "SWARM_CONTEXT_STALE: regenerating the capsule makes it stale.",
        "El hash de archivo (SHA-256 del texto con los finales de línea normalizados) del context-capsule.json de la "
        "feature a partir del que se planificó el swarm. Cuando la feature tiene cápsula y este difiere de su hash, "
        "verify informa SWARM_CONTEXT_STALE: regenerar la cápsula lo deja desactualizado.",
    ),
    ("Maximum workers", "Máximo de trabajadores"),
    (
        "The most distinct workers a wave may name (4 when unset; never more than 8). More is "
        "SWARM_WORKER_LIMIT_EXCEEDED.",
        "El máximo de trabajadores distintos que puede nombrar una ola (4 si no se indica; nunca más de 8). Más es "
        "SWARM_WORKER_LIMIT_EXCEEDED.",
    ),
    ("Overrides spec", "Anula la spec"),
    (
        "Must not be true: a swarm cannot override the specifications (SWARM_AUTHORITY_CONFLICT).",
        "No debe ser true: un swarm no puede anular las especificaciones (SWARM_AUTHORITY_CONFLICT).",
    ),
    ("Alters contracts", "Altera contratos"),
    (
        "Must not be true: a swarm cannot alter frozen contracts (SWARM_AUTHORITY_CONFLICT).",
        "No debe ser true: un swarm no puede alterar contratos congelados (SWARM_AUTHORITY_CONFLICT).",
    ),
    ("Waves", "Olas"),
    (
        "The waves, in order. Tasks of one wave run concurrently, so their write sets must be disjoint.",
        "Las olas, en orden. Las tareas de una ola se ejecutan a la vez, así que sus conjuntos de escritura deben ser "
        "disjuntos.",
    ),
    ("Wave", "Ola"),
    ("A set of tasks that run at the same time.", "Un conjunto de tareas que se ejecutan al mismo tiempo."),
    ("Wave index", "Índice de la ola"),
    ("The wave's number, from 1 (shown in messages).", "El número de la ola, desde 1 (se muestra en los mensajes)."),
    (
        "The wave's state (PLANNED, COMPLETED, ...), informative.",
        "El estado de la ola (PLANNED, COMPLETED, ...), informativo.",
    ),
    ("The wave's concurrent tasks.", "Las tareas concurrentes de la ola."),
    ("Task", "Tarea"),
    ("One task of tasks.md assigned to one worker.", "Una tarea de tasks.md asignada a un trabajador."),
    ("Task id", "Id de la tarea"),
    (
        "The id of a task tasks.md declares (SWARM_TASK_ORPHANED otherwise).",
        "El id de una tarea que declara tasks.md (si no, SWARM_TASK_ORPHANED).",
    ),
    ("What the task does, informative.", "Qué hace la tarea, informativo."),
    ("Assigned role", "Rol asignado"),
    (
        "The worker's mechanical role. reviewer and security-auditor are read-only.",
        "El rol mecánico del trabajador. reviewer y security-auditor son de solo lectura.",
    ),
    ("Worker id", "Id del trabajador"),
    (
        "An explicit, stable worker name (not a random UUID or process id); non-empty (SWARM_ASSIGNMENT_INVALID).",
        "Un nombre de trabajador explícito y estable (no un UUID aleatorio ni un id de proceso); no vacío "
        "(SWARM_ASSIGNMENT_INVALID).",
    ),
    ("Write set", "Conjunto de escritura"),
    (
        "The repository-relative files the task may create or modify. No other task of the same wave may claim one of "
        "them (SWARM_WRITE_COLLISION).",
        "Los archivos relativos al repositorio que la tarea puede crear o modificar. Ninguna otra tarea de la misma "
        "ola puede reclamar uno de ellos (SWARM_WRITE_COLLISION).",
    ),
    ("The task's state, informative.", "El estado de la tarea, informativo."),
    ("Spawned children", "Hijos lanzados"),
    (
        "Must be empty: recursive subagent spawning is prohibited (SWARM_RECURSIVE_SPAWN_DENIED).",
        "Debe estar vacío: está prohibido lanzar subagentes de forma recursiva (SWARM_RECURSIVE_SPAWN_DENIED).",
    ),
    ("Review", "Revisión"),
    (
        "The independent review of the task: its reviewer is never its author (SWARM_SELF_REVIEW_DETECTED).",
        "La revisión independiente de la tarea: su revisor nunca es su autor (SWARM_SELF_REVIEW_DETECTED).",
    ),
    ("Reviewer role", "Rol del revisor"),
    ("The reviewer's role (reviewer, security-auditor).", "El rol del revisor (reviewer, security-auditor)."),
    ("Reviewer id", "Id del revisor"),
    (
        "The reviewing worker; never the task's worker_id (compared trimmed, ignoring case).",
        "El trabajador que revisa; nunca el worker_id de la tarea (se comparan sin espacios en los extremos, sin "
        "distinguir mayúsculas).",
    ),
    ("The review's verdict (APPROVED, ...), informative.", "El veredicto de la revisión (APPROVED, ...), informativo."),
    ("Review timestamp", "Fecha de la revisión"),
    ("When the review happened (ISO 8601), informative.", "Cuándo se hizo la revisión (ISO 8601), informativo."),
    ("Attestation", "Atestación"),
    ("What the reviewer attests, informative.", "Lo que atestigua el revisor, informativo."),
    (
        "visual-qa.json (Gemstack visual QA manifest 1.0.0)",
        "visual-qa.json (manifiesto de QA visual de Gemstack 1.0.0)",
    ),
    (
        "specs/<feature>/visual-qa.json: the visual acceptance scenarios of a feature (Gemstack 1.4, Upgrade E): "
        "routes, deterministic viewports and approved baseline images with their hashes. `gemstack verify` (stage "
        "5.4) checks it for the active feature, read-only and offline; visual evidence never outranks the "
        "specifications.",
        "specs/<feature>/visual-qa.json: los escenarios de aceptación visual de una feature (Gemstack 1.4, Upgrade "
        "E): rutas, viewports deterministas e imágenes de referencia aprobadas con sus hashes. `gemstack verify` "
        "(etapa 5.4) lo comprueba para la feature activa, en solo lectura y sin conexión; la evidencia visual nunca "
        "prevalece sobre las especificaciones.",
    ),
    (
        "The manifest's schema, informative (upstream writes https://gemstack.dev/schemas/v1/visual-qa.json).",
        "El esquema del manifiesto, informativo (el original escribe https://gemstack.dev/schemas/v1/visual-qa.json).",
    ),
    (
        'The manifest format version. When set, it must be "1.0.0" (VQA_INVALID_MANIFEST).',
        'La versión del formato del manifiesto. Si se indica, debe ser "1.0.0" (VQA_INVALID_MANIFEST).',
    ),
    (
        "The feature these scenarios verify. Required, a non-empty string.",
        "La feature que verifican estos escenarios. Obligatoria, una cadena no vacía.",
    ),
    ("Target base URL", "URL base del destino"),
    (
        "Where scenario routes are captured from, informative (verify never opens it).",
        "De dónde se capturan las rutas de los escenarios, informativo (verify nunca la abre).",
    ),
    ("Scenarios", "Escenarios"),
    (
        "The visual QA scenarios; scenario_id values are unique.",
        "Los escenarios de QA visual; los valores de scenario_id son únicos.",
    ),
    ("Scenario", "Escenario"),
    (
        "One visual acceptance case: a route seen at one viewport, compared with an approved baseline.",
        "Un caso de aceptación visual: una ruta vista en un viewport, comparada con una imagen de referencia aprobada.",
    ),
    ("Scenario id", "Id del escenario"),
    (
        "A unique, non-empty id (VQA_INVALID_MANIFEST when missing or repeated).",
        "Un id único y no vacío (VQA_INVALID_MANIFEST si falta o se repite).",
    ),
    ("What the scenario shows, informative.", "Qué muestra el escenario, informativo."),
    ("Route", "Ruta"),
    (
        "The route or URL path to capture; required, non-empty.",
        "La ruta o el camino de URL que se captura; obligatoria, no vacía.",
    ),
    ("Acceptance ids", "Ids de aceptación"),
    (
        "The test-matrix ids this scenario gives evidence for.",
        "Los ids de la matriz de pruebas de los que este escenario aporta evidencia.",
    ),
    ("Selectors", "Selectores"),
    (
        "The root element and the dynamic regions masked before comparison.",
        "El elemento raíz y las regiones dinámicas que se enmascaran antes de comparar.",
    ),
    ("Root", "Raíz"),
    ("The CSS selector of the captured element.", "El selector CSS del elemento capturado."),
    ("Mask", "Máscara"),
    (
        "CSS selectors of dynamic regions (timestamps, avatars) masked before comparison.",
        "Selectores CSS de regiones dinámicas (marcas de tiempo, avatares) que se enmascaran antes de comparar.",
    ),
    ("Tolerances", "Tolerancias"),
    ("How much difference the comparison accepts.", "Cuánta diferencia acepta la comparación."),
    ("Maximum difference", "Diferencia máxima"),
    (
        "The largest accepted share of differing pixels (0 when unset).",
        "La mayor proporción aceptada de píxeles distintos (0 si no se indica).",
    ),
    ("Anti-aliasing threshold", "Umbral de antialiasing"),
    (
        "The colour distance below which pixels count as equal.",
        "La distancia de color por debajo de la cual los píxeles cuentan como iguales.",
    ),
    ("Viewport", "Viewport"),
    (
        "A deterministic viewport (contract deterministic-viewports); VQA_INVALID_VIEWPORT otherwise.",
        "Un viewport determinista (contrato deterministic-viewports); si no, VQA_INVALID_VIEWPORT.",
    ),
    ("Profile name", "Nombre del perfil"),
    (
        "A canonical profile (desktop-standard 1920x1080@1, desktop-compact 1280x800@1, tablet-portrait 768x1024@2, "
        "mobile-portrait 375x667@2), informative.",
        "Un perfil canónico (desktop-standard 1920x1080@1, desktop-compact 1280x800@1, tablet-portrait 768x1024@2, "
        "mobile-portrait 375x667@2), informativo.",
    ),
    ("Width", "Ancho"),
    ("CSS pixels, a positive integer.", "Píxeles CSS, un entero positivo."),
    ("Height", "Alto"),
    ("Device scale factor", "Factor de escala del dispositivo"),
    ("When present, a positive number.", "Si está presente, un número positivo."),
    ("Color scheme", "Esquema de color"),
    ("light or dark, as captured.", "light o dark, tal como se capturó."),
    ("Baseline", "Imagen de referencia"),
    (
        "The approved reference image. Every scenario needs one (VQA_BASELINE_MISSING); it changes only by explicit "
        "promotion (`gemstack vqa promote`).",
        "La imagen de referencia aprobada. Cada escenario necesita una (VQA_BASELINE_MISSING); solo cambia por "
        "promoción explícita (`gemstack vqa promote`).",
    ),
    ("Image path", "Ruta de la imagen"),
    (
        "The image, relative to the repository root; it must exist inside the repository.",
        "La imagen, relativa a la raíz del repositorio; debe existir dentro del repositorio.",
    ),
    ("Image hash", "Hash de la imagen"),
    (
        "The image's file hash as upstream's hashFile computes it (its bytes read as UTF-8 text, line endings "
        "normalised, SHA-256); VQA_BASELINE_TAMPERED when the file no longer matches.",
        "El hash de archivo de la imagen tal como lo calcula hashFile del original (sus bytes leídos como texto "
        "UTF-8, finales de línea normalizados, SHA-256); VQA_BASELINE_TAMPERED cuando el archivo ya no coincide.",
    ),
    ("DOM hash", "Hash del DOM"),
    ("A digest of the captured DOM, informative.", "Un resumen del DOM capturado, informativo."),
    ("Who promoted the baseline.", "Quién promovió la imagen de referencia."),
    ("Approved at", "Aprobada el"),
    ("When it was promoted (ISO 8601).", "Cuándo se promovió (ISO 8601)."),
    ("gemstack-spec-delta block", "Bloque gemstack-spec-delta"),
    (
        "In spec.md (Gemstack 2.0): a change to a base spec. Gemstack applies it in order (removals, then "
        "modifications, then additions): removing or modifying an id the base spec does not have is "
        "DELTA_TARGET_NOT_FOUND, adding a contract or test id it already has is DELTA_ADD_CONFLICT. A block that is "
        "not a JSON object is INVALID_DELTA_SCHEMA.",
        "En spec.md (Gemstack 2.0): un cambio a una spec base. Gemstack lo aplica en orden (eliminaciones, luego "
        "modificaciones, luego adiciones): eliminar o modificar un id que la spec base no tiene es "
        "DELTA_TARGET_NOT_FOUND, agregar un id de contrato o de prueba que ya tiene es DELTA_ADD_CONFLICT. Un "
        "bloque que no es un objeto JSON es INVALID_DELTA_SCHEMA.",
    ),
    ("Base spec", "Spec base"),
    (
        "The feature whose spec.md the delta changes: specs/<feature>, specs/<feature>/spec.md or <feature>.",
        "La feature cuyo spec.md cambia el delta: specs/<feature>, specs/<feature>/spec.md o <feature>.",
    ),
    ("Added", "Agregados"),
    (
        "Contracts, requirements and tests the delta adds to the base spec (a contract or test id the base spec "
        "already has is DELTA_ADD_CONFLICT).",
        "Contratos, requisitos y pruebas que el delta agrega a la spec base (un id de contrato o de prueba que la "
        "spec base ya tiene es DELTA_ADD_CONFLICT).",
    ),
    ("Modified", "Modificados"),
    (
        "Contracts, requirements and tests of the base spec the delta changes, each named by its id "
        "(DELTA_TARGET_NOT_FOUND when the base spec has no such id).",
        "Contratos, requisitos y pruebas de la spec base que el delta cambia, cada uno nombrado por su id "
        "(DELTA_TARGET_NOT_FOUND cuando la spec base no tiene ese id).",
    ),
    ("Removed", "Eliminados"),
    (
        "Contracts, requirements and tests the delta removes from the base spec, each an id or an object with an id "
        "(DELTA_TARGET_NOT_FOUND when the base spec has no such id).",
        "Contratos, requisitos y pruebas que el delta elimina de la spec base, cada uno un id o un objeto con un id "
        "(DELTA_TARGET_NOT_FOUND cuando la spec base no tiene ese id).",
    ),
    ("Removed contracts", "Contratos eliminados"),
    (
        "Contract ids of the base spec's gemstack-contracts block.",
        "Ids de contrato del bloque gemstack-contracts de la spec base.",
    ),
    ("Removed requirements", "Requisitos eliminados"),
    (
        "Requirement ids (requirements have no machine-readable form in a spec, so they are not checked).",
        "Ids de requisito (los requisitos no tienen una forma legible por máquina en una spec, así que no "
        "se comprueban).",
    ),
    ("Removed tests", "Pruebas eliminadas"),
    (
        "Test ids of the base spec's gemstack-test-matrix block.",
        "Ids de prueba del bloque gemstack-test-matrix de la spec base.",
    ),
    ("Delta item", "Elemento del delta"),
    (
        "A contract, requirement or test in the shape of the base spec's blocks, named by its id.",
        "Un contrato, requisito o prueba con la forma de los bloques de la spec base, nombrado por su id.",
    ),
    ("Identifier", "Identificador"),
    (
        "The id of the contract, requirement or test in the base spec.",
        "El id del contrato, requisito o prueba en la spec base.",
    ),
    ("Changes", "Cambios"),
    (
        "Contracts, requirements and tests, each a list of items with an id.",
        "Contratos, requisitos y pruebas, cada uno una lista de elementos con un id.",
    ),
    ("Contracts", "Contratos"),
    (
        "Contracts in the shape of a gemstack-contracts entry.",
        "Contratos con la forma de una entrada de gemstack-contracts.",
    ),
    ("Requirements", "Requisitos"),
    (
        "Requirements, each with an id (not checked against the base spec).",
        "Requisitos, cada uno con un id (no se comprueban contra la spec base).",
    ),
    ("Tests", "Pruebas"),
    (
        "Tests in the shape of a gemstack-test-matrix entry.",
        "Pruebas con la forma de una entrada de gemstack-test-matrix.",
    ),
    ("Removals", "Eliminaciones"),
    (
        "Ids to remove: each an id string or an object with an id.",
        "Ids que eliminar: cada uno una cadena con el id o un objeto con un id.",
    ),
    ("The id to remove.", "El id que eliminar."),
]

#: English title or description -> its Spanish.
SCHEMA_TEXTS: dict[str, str] = dict(PAIRS)
