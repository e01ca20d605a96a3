"""The Spanish of the safe plan writer (``gemstack_lsp/provenance``): its refusals, as
``gemstack-lsp plan`` prints them after ``evidence-provenance: `` and as the server's
``gemstack.writePlan`` shows them. Templates follow ``core/i18n.py``; ``install`` registers them
(``i18n_es_ui.install`` calls it); ``i18n.localize_plan_error`` applies them, recovery notes
included.

The helper run on its own (``python -m gemstack_lsp.provenance``) keeps the reference's English
byte for byte: only ``gemstack-lsp`` sets another language. What the OS or Git says (an errno
name and its text, Git's stderr) is quoted as they give it.
"""

from __future__ import annotations

from gemstack_lsp.core import i18n

#: A refusal's message (``ProvenanceError.message``), also the vocabulary ``plan``. Where two
#: forms overlap the more specific comes first (templates are tried in order).
PLAN_MESSAGES: list[tuple[str, str]] = [
    # The command line and the library's arguments
    ("Unsupported command: {command}", "Comando no admitido: {command}"),
    ("Unexpected positional argument: {token}", "Argumento posicional inesperado: {token}"),
    ("Duplicate option: {token}", "Opción duplicada: {token}"),
    ("Missing value for {token}", "Falta el valor de {token}"),
    ("{token} is not valid for {command}", "{token} no es válido para {command}"),
    ("--repo is required", "--repo es obligatorio"),
    ("--generated-plan is required", "--generated-plan es obligatorio"),
    ("{flag} is required", "{flag} es obligatorio"),
    ("cited must be a sequence of path strings", "cited debe ser una secuencia de rutas (cadenas)"),
    ("--schema-version must be an integer", "--schema-version debe ser un número entero"),
    ("replace must be a literal boolean", "replace debe ser un booleano literal"),
    ("{name} must be a string from the read-plan receipt", "{name} debe ser una cadena del recibo de read-plan"),
    (
        "--replace requires --expected-plan-path and --expected-plan-digest from read-plan",
        "--replace requiere --expected-plan-path y --expected-plan-digest de read-plan",
    ),
    (
        "--expected-plan-path and --expected-plan-digest require --replace",
        "--expected-plan-path y --expected-plan-digest requieren --replace",
    ),
    (
        "Unsupported evidence provenance schema {version}; schema 1 is legacy and must be conservatively re-anchored",
        "Esquema de procedencia de la evidencia no admitido: {version}; el esquema 1 es heredado (legacy) y debe "
        "volver a anclarse de forma conservadora",
    ),
    # Paths
    (
        "Generated-plan writes are restricted to docs/plans/YYYY-MM-DD-gitnexus-plan-<3-5-word-slug>.md",
        "Las escrituras de planes generados se limitan a docs/plans/YYYY-MM-DD-gitnexus-plan-<3-5-word-slug>.md",
    ),
    (
        "Generated-plan path has an invalid calendar date: {date}",
        "La ruta del plan generado tiene una fecha de calendario inválida: {date}",
    ),
    (
        "Existing-plan reads are restricted to docs/plans/*gitnexus-plan*.md",
        "Las lecturas de planes existentes se limitan a docs/plans/*gitnexus-plan*.md",
    ),
    ("directory entry name is not valid UTF-8", "el nombre de una entrada de directorio no es UTF-8 válido"),
    ("git status record is not valid UTF-8", "el registro de git status no es UTF-8 válido"),
    ("generated plan is not valid UTF-8", "el plan generado no es UTF-8 válido"),
    ("loaded plan is not valid UTF-8", "el plan cargado no es UTF-8 válido"),
    ("{label:plan_label} is not valid UTF-8", "{label} no es UTF-8 válido"),
    ("{label:plan_label} must not be empty", "{label} no puede ser una cadena vacía"),
    ("{label:plan_label} must not contain NUL", "{label} no debe contener NUL"),
    ("{label:plan_label} must use POSIX '/' separators", "{label} debe usar separadores POSIX '/'"),
    ("{label:plan_label} must already be Unicode NFC", "{label} ya debe estar en Unicode NFC"),
    ("{label:plan_label} must be repo-relative", "{label} debe ser una ruta relativa al repositorio"),
    (
        "{label:plan_label} must be a normalized repo-relative path without dot segments",
        "{label} debe ser una ruta normalizada relativa al repositorio, sin segmentos . ni ..",
    ),
    # The repository and Git
    ("--repo must be the Git worktree root ({top})", "--repo debe ser la raíz del worktree de Git ({top})"),
    (
        "The Git directory of {root} is not its own .git folder: {git_dir}",
        "El directorio de Git de {root} no es su propia carpeta .git: {git_dir}",
    ),
    (
        "{dot_git} does not belong to this worktree (it is a link, or names a Git directory that does not name it "
        "back); refusing to write into another repository's Git directory",
        "{dot_git} no pertenece a este worktree (es un enlace, o nombra un directorio de Git que no lo nombra a "
        "él); no se escribirá en el directorio de Git de otro repositorio",
    ),
    ("Cannot run git: {why}", "No se puede ejecutar git: {why}"),
    ("git {args} printed output that is not valid UTF-8", "git {args} imprimió una salida que no es UTF-8 válido"),
    ("git {args} failed ({status}): {detail}", "git {args} falló ({status}): {detail}"),
    ("Malformed git ls-tree record", "Registro de git ls-tree mal formado"),
    ("Malformed git ls-files record", "Registro de git ls-files mal formado"),
    ("Malformed porcelain-v2 status record", "Registro de estado porcelain-v2 mal formado"),
    ("Malformed porcelain-v2 rename record", "Registro de renombrado porcelain-v2 mal formado"),
    ("Unsupported porcelain-v2 record kind: {kind}", "Tipo de registro porcelain-v2 no admitido: {kind}"),
    ("Unsupported Git XY status: {xy}", "Estado XY de Git no admitido: {xy}"),
    ("Unsupported Git object mode: {mode}", "Modo de objeto de Git no admitido: {mode}"),
    ("Cannot read Git object {oid}", "No se puede leer el objeto de Git {oid}"),
    ("Conflicting {field} facts for {path}", "Datos de {field} contradictorios para {path}"),
    (
        "Unmerged paths cannot be canonicalized; resolve the index first",
        "Las rutas sin fusionar no se pueden canonicalizar; resuelve primero el índice",
    ),
    (
        "Unmerged index stages cannot be canonicalized for {path}",
        "Las etapas sin fusionar del índice no se pueden canonicalizar para {path}",
    ),
    ("Invalid symbolic HEAD ref: not valid UTF-8", "Referencia simbólica de HEAD inválida: no es UTF-8 válido"),
    ("Invalid symbolic HEAD ref: {ref}", "Referencia simbólica de HEAD inválida: {ref}"),
    (
        "git rev-parse --git-path returned an unexpected listing",
        "git rev-parse --git-path devolvió un listado inesperado",
    ),
    ("HEAD did not resolve to a full object ID", "HEAD no se resolvió en un ID de objeto completo"),
    (
        "Git control file must be a regular file or absent: {path}",
        "El archivo de control de Git debe ser un archivo normal o no existir: {path}",
    ),
    (
        "HEAD, index, or working-tree status changed while evidence was materialized",
        "HEAD, el índice o el estado del árbol de trabajo cambiaron mientras se materializaba la evidencia",
    ),
    ("{name} changed while evidence was materialized", "{name} cambió mientras se materializaba la evidencia"),
    (
        "Gitlink worktree is not its own repository: {path}",
        "El worktree del gitlink no es su propio repositorio: {path}",
    ),
    (
        "Cannot resolve checked-out gitlink HEAD at {path}",
        "No se puede resolver el HEAD del gitlink extraído en {path}",
    ),
    ("Invalid gitlink object ID at {path}", "ID de objeto de gitlink inválido en {path}"),
    (
        "Checked-out gitlink is dirty at {path}; commit or clean staged, unstaged, untracked, and ignored changes "
        "before snapshotting",
        "El gitlink extraído en {path} tiene cambios; confirma o limpia los cambios preparados, sin preparar, sin "
        "seguimiento e ignorados antes de tomar la instantánea",
    ),
    # The evidence inventory
    (
        "Canonical provenance fields must be NUL-free strings",
        "Los campos canónicos de procedencia deben ser cadenas sin NUL",
    ),
    ("Duplicate normalized path in evidence: {path}", "Ruta normalizada duplicada en la evidencia: {path}"),
    (
        "{path} changed before evidence materialization completed",
        "{path} cambió antes de que terminara la materialización de la evidencia",
    ),
    (
        "Refusing to traverse symlink parent for {path}",
        "No se atraviesa una carpeta padre que es un enlace simbólico para {path}",
    ),
    ("Cannot open {path}: {why}", "No se puede abrir {path}: {why}"),
    (
        "Absence anchoring exceeds {n} pinned directories",
        "El anclaje de ausencias supera los {n} directorios fijados",
    ),
    (
        "Git reported an embedded directory but found {kind:object_kind}: {path}",
        "Git informó de un directorio incrustado, pero se encontró {kind}: {path}",
    ),
    ("Unsupported filesystem object at {path}", "Objeto del sistema de archivos no admitido en {path}"),
    ("Directory inventory exceeds depth {n}", "El inventario del directorio supera la profundidad {n}"),
    ("Directory inventory exceeds {n} content bytes", "El inventario del directorio supera los {n} bytes de contenido"),
    ("Directory inventory exceeds {n} entries", "El inventario del directorio supera las {n} entradas"),
    # Reading a plan
    ("Loaded-plan parent does not exist: {path}", "La carpeta padre del plan cargado no existe: {path}"),
    (
        "Loaded-plan parent is not a real directory: {path}",
        "La carpeta padre del plan cargado no es un directorio real: {path}",
    ),
    ("Loaded plan does not exist: {path}", "El plan cargado no existe: {path}"),
    (
        "Loaded plan must be a regular file, never a symlink",
        "El plan cargado debe ser un archivo normal, nunca un enlace simbólico",
    ),
    (
        "Loaded plan changed while its no-follow descriptor opened",
        "El plan cargado cambió mientras se abría su descriptor sin seguir enlaces (no-follow)",
    ),
    ("Loaded plan exceeds {n} bytes", "El plan cargado supera los {n} bytes"),
    (
        "Loaded plan changed before its receipt was produced",
        "El plan cargado cambió antes de que se generara su recibo",
    ),
    # Writing a plan
    (
        "Safe generated-plan writes require descriptor-relative openat/linkat/renameat with O_DIRECTORY/O_NOFOLLOW; "
        "{platform} offers neither, so refusing an unanchored write",
        "Las escrituras seguras del plan generado requieren openat/linkat/renameat relativos a un descriptor con "
        "O_DIRECTORY/O_NOFOLLOW; {platform} no ofrece ninguno de los dos, así que se rechaza una escritura sin anclar",
    ),
    ("generated plan must be bytes", "el plan generado debe ser bytes"),
    ("Generated plan exceeds {n} bytes", "El plan generado supera los {n} bytes"),
    (
        "expectedPlanDigest from the read-plan receipt must be sha256:<64 lowercase hexadecimal characters>",
        "expectedPlanDigest del recibo de read-plan debe ser sha256:<64 caracteres hexadecimales en minúscula>",
    ),
    (
        "expectedPlanPath from the read-plan receipt must exactly match generatedPlanPath",
        "expectedPlanPath del recibo de read-plan debe coincidir exactamente con generatedPlanPath",
    ),
    (
        "Cannot safely write generated plan: checkout is read-only or its parent is not writable ({code})",
        "No se puede escribir el plan generado de forma segura: el checkout es de solo lectura o su carpeta padre "
        "no admite escritura ({code})",
    ),
    (
        "Generated-plan parent is not a real directory: {path}",
        "La carpeta padre del plan generado no es un directorio real: {path}",
    ),
    (
        "Generated-plan parent changed during the write; refusing to publish",
        "La carpeta padre del plan generado cambió durante la escritura; no se publica",
    ),
    (
        "Generated-plan parent and Git-admin backup vault must share a filesystem for atomic publication",
        "La carpeta padre del plan generado y la bóveda de copias de Git-admin deben estar en el mismo sistema de "
        "archivos para que la publicación sea atómica",
    ),
    ("Git-admin backup vault is not a real directory", "La bóveda de copias de Git-admin no es un directorio real"),
    (
        "Generated-plan {role} changed before it was preserved",
        "El artefacto {role} del plan generado cambió antes de conservarse",
    ),
    (
        "Generated-plan temporary path or content changed before publication",
        "La ruta temporal o el contenido del plan generado cambiaron antes de la publicación",
    ),
    (
        "Generated-plan destination must be a regular file, never a symlink",
        "El destino del plan generado debe ser un archivo normal, nunca un enlace simbólico",
    ),
    (
        "Generated plan already exists; use --replace only for Deepen mode",
        "El plan generado ya existe; usa --replace solo en el modo Deepen",
    ),
    (
        "Deepen mode requires an existing generated plan to replace",
        "El modo Deepen necesita un plan generado existente que reemplazar",
    ),
    (
        "Generated-plan destination changed while its no-follow descriptor opened",
        "El destino del plan generado cambió mientras se abría su descriptor sin seguir enlaces (no-follow)",
    ),
    (
        "Generated plan no longer matches the exact digest from the read-plan receipt",
        "El plan generado ya no coincide con el digest exacto del recibo de read-plan",
    ),
    (
        "Generated-plan destination reappeared before publication; it was left untouched",
        "El destino del plan generado reapareció antes de la publicación; se dejó intacto",
    ),
    (
        "Generated-plan publication requires hard links, which this filesystem refused ({code}); refusing to fall "
        "back to a replacing rename",
        "La publicación del plan generado requiere enlaces duros, que este sistema de archivos rechazó ({code}); no "
        "se recurrirá a un renombrado que reemplace",
    ),
    (
        "Published generated plan changed before verification completed",
        "El plan generado publicado cambió antes de que terminara la verificación",
    ),
    (
        "Git-admin artifact changed before fresh-root verification: {path}",
        "El artefacto de Git-admin cambió antes de la verificación desde una raíz nueva: {path}",
    ),
    # Recovery notes and the server's own words about a receipt
    (
        "the temporary file was incomplete and was removed",
        "el archivo temporal estaba incompleto y se eliminó",
    ),
    ("the read-plan receipt is still being taken", "el recibo de read-plan todavía se está tomando"),
    (
        "no read-plan receipt was taken when the plan was opened",
        "no se tomó ningún recibo de read-plan al abrir el plan",
    ),
]

#: The recovery notes a failed write appends (``_Session.verified_summary``), in order.
PLAN_TAILS: dict[str, str] = {
    "; preserved Git-admin artifacts: ": "; artefactos de Git-admin conservados: ",
    "; the intended plan was not preserved (no copy of it is left in the Git-admin vault)": (
        "; el plan previsto no se conservó (no queda ninguna copia en la bóveda de Git-admin)"
    ),
    "; preservation failures: ": "; fallos al conservar: ",
}

PHRASES: dict[str, list[tuple[str, str]]] = {
    "plan_label": [
        ("symbolic HEAD ref", "la referencia simbólica de HEAD"),
        ("directory entry name", "el nombre de una entrada de directorio"),
        ("git status path", "la ruta de git status"),
        ("rename source", "el origen del renombrado"),
        ("rename destination", "el destino del renombrado"),
        ("untracked path", "la ruta sin seguimiento"),
        ("cited path", "la ruta citada"),
        ("generated plan path", "la ruta del plan generado"),
        ("existing plan path", "la ruta del plan existente"),
    ],
    "object_kind": [
        ("regular", "un archivo normal"),
        ("symlink", "un enlace simbólico"),
        ("unsupported", "un objeto no admitido"),
    ],
}


def install() -> None:
    for english, spanish in PLAN_MESSAGES:
        i18n.register(i18n.PLAN_MESSAGE, english, spanish)
    for vocabulary, pairs in PHRASES.items():
        for english, spanish in pairs:
            i18n.register_phrase(vocabulary, english, spanish)
