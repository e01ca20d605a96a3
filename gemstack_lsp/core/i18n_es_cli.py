"""The Spanish of the command line's own texts and of the internal-error answers.

- ``HELP``: the program's ``--help`` texts (every ``help=`` and ``description=`` of
  ``gemstack-lsp``'s parsers), looked up whole under ``i18n.CLI_HELP``;
- ``ARGPARSE``: argparse's own words (the usage prefix, the section titles, the help of
  ``-h`` and ``--version``) and its error messages, as templates under ``i18n.ARGPARSE`` (an
  ``argument --x: …`` error translates its detail through the ``argparse`` vocabulary);
- ``CONTEXT_PROBLEMS``: why ``context`` cannot work on the feature it was given;
- ``UI``: texts by key: ``context show``'s summary, ``context``'s own refusals, and the
  internal-error messages (the CLI's crash line, the server's answer to a request that failed).

Templates follow ``core/i18n.py``; ``install`` registers them (``i18n_es_ui.install`` calls it).
"""

from __future__ import annotations

from gemstack_lsp.core import i18n

#: The help texts of ``gemstack-lsp``'s parsers (English exactly as the parsers are given it).
HELP: list[tuple[str, str]] = [
    ("Gemstack language server and checks.", "Servidor de lenguaje y comprobaciones de Gemstack."),
    ("show this help message and exit", "muestra este mensaje de ayuda y termina"),
    ("show program's version number and exit", "muestra el número de versión del programa y termina"),
    (
        "language of every message (default: LC_ALL, LC_MESSAGES or LANG; Spanish when it starts with es)",
        "idioma de todos los mensajes (por defecto: LC_ALL, LC_MESSAGES o LANG; español cuando empieza por es)",
    ),
    (
        "language of the messages (default: LC_ALL, LC_MESSAGES or LANG; Spanish when it starts with es)",
        "idioma de los mensajes (por defecto: LC_ALL, LC_MESSAGES o LANG; español cuando empieza por es)",
    ),
    ("run the language server (stdio by default)", "ejecuta el servidor de lenguaje (stdio por defecto)"),
    ("talk LSP over stdin/stdout (the default)", "habla LSP por stdin/stdout (el valor por defecto)"),
    ("listen on a TCP address instead (debugging)", "escucha en una dirección TCP en su lugar (depuración)"),
    ("stderr log level", "nivel de registro en stderr"),
    (
        "analyse repositories and print every finding (text, JSON, SARIF, GitHub or GitLab)",
        "analiza repositorios e imprime cada hallazgo (texto, JSON, SARIF, GitHub o GitLab)",
    ),
    (
        "files or folders inside Gemstack repositories (default: the current directory)",
        "archivos o carpetas dentro de repositorios Gemstack (por defecto: el directorio actual)",
    ),
    (
        "output format: text, json, sarif, github (workflow commands), gitlab (Code Quality) (default: text)",
        "formato de salida: text, json, sarif, github (comandos de workflow), gitlab (Code Quality) "
        "(por defecto: text)",
    ),
    ("exit 0 even when blockers are found", "termina con 0 aunque se encuentren bloqueantes"),
    (
        "read this configuration file instead of the repository's .gemstack/lsp.toml (or pyproject.toml)",
        "lee este archivo de configuración en lugar del .gemstack/lsp.toml (o pyproject.toml) del repositorio",
    ),
    (
        "environment tier for the gates (overrides the configuration's 'environment')",
        "nivel de entorno para las compuertas (sustituye el 'environment' de la configuración)",
    ),
    (
        "maximum age of a ledger's freshness_date (overrides the configuration)",
        "antigüedad máxima del freshness_date de un ledger (sustituye la configuración)",
    ),
    (
        "report only these codes or families (comma-separated; may be repeated)",
        "informa solo de estos códigos o familias (separados por comas; se puede repetir)",
    ),
    (
        "do not report these codes or families (comma-separated; may be repeated; adds to the configuration)",
        "no informa de estos códigos o familias (separados por comas; se puede repetir; se suma a la configuración)",
    ),
    (
        "print the number of findings per code and severity instead",
        "imprime en su lugar el número de hallazgos por código y severidad",
    ),
    (
        "also list the findings the configuration or a suppression hid, with the reason (text, json; sarif as "
        "suppressed results)",
        "lista también los hallazgos que la configuración o una supresión ocultaron, con el motivo (text, json; "
        "sarif como resultados suprimidos)",
    ),
    (
        "generate, verify or show the context capsule (Upgrade D)",
        "genera, verifica o muestra la context capsule (Upgrade D)",
    ),
    ("generate, verify or show the context capsule", "genera, verifica o muestra la context capsule"),
    ("generate | verify | show (default: show)", "generate | verify | show (por defecto: show)"),
    ("feature folder (same as --feature)", "carpeta de la feature (igual que --feature)"),
    ("repository root (default: the current directory)", "raíz del repositorio (por defecto: el directorio actual)"),
    ("feature folder, e.g. specs/009-context-capsule", "carpeta de la feature, p. ej. specs/009-context-capsule"),
    (
        "print exactly one JSON document, errors included",
        "imprime exactamente un documento JSON, errores incluidos",
    ),
    ("show: also write the derived context-capsule.md", "show: escribe también el context-capsule.md derivado"),
    (
        "evaluate the provider and billable-action gates (Upgrade C)",
        "evalúa las compuertas de proveedores y de acciones facturables (Upgrade C)",
    ),
    (
        "evaluate the capability and billable-action gates for an action",
        "evalúa las compuertas de capacidades y de acciones facturables para una acción",
    ),
    ("the billable action id (declared in spec.md)", "el id de la acción facturable (declarada en spec.md)"),
    (
        "provider id; repeat for a fallback chain (default: the action's declared chain)",
        "id del proveedor; repítelo para una cadena de respaldo (por defecto: la cadena declarada de la acción)",
    ),
    (
        "capability id (default: the action's declared capability)",
        "id de la capacidad (por defecto: la capacidad declarada de la acción)",
    ),
    (
        "environment tier (default: from GEMSTACK_ENV, CI, NODE_ENV)",
        "nivel de entorno (por defecto: según GEMSTACK_ENV, CI, NODE_ENV)",
    ),
    (
        "explicitly authorize spending for this evaluation",
        "autoriza explícitamente el gasto para esta evaluación",
    ),
    ("requested units (default 1)", "unidades solicitadas (por defecto 1)"),
    ("maximum budget in the ledger's currency", "presupuesto máximo en la moneda del ledger"),
    (
        "treat provider P as failing at run time, to see what its fallbacks would do (repeatable)",
        "trata al proveedor P como fallido en ejecución, para ver qué harían sus respaldos (repetible)",
    ),
    ("a folder inside the repository (default: .)", "una carpeta dentro del repositorio (por defecto: .)"),
    (
        "the feature folder under specs/ (default: where declared)",
        "la carpeta de la feature bajo specs/ (por defecto: donde se declara)",
    ),
    (
        "the safe plan writer: read-plan, snapshot, write-plan (evidence provenance v2)",
        "el escritor seguro de planes: read-plan, snapshot, write-plan (evidence provenance v2)",
    ),
    ("read-plan | snapshot | write-plan and their flags", "read-plan | snapshot | write-plan y sus opciones"),
]

#: argparse's own words, looked up whole (``usage: `` is the usage line's prefix).
ARGPARSE_WORDS: dict[str, str] = {
    "usage: ": "uso: ",
    "positional arguments": "argumentos posicionales",
    "options": "opciones",
}

#: argparse's error messages (as ``ArgumentParser.error`` receives them).
ARGPARSE: list[tuple[str, str]] = [
    ("the following arguments are required: {names}", "se requieren los siguientes argumentos: {names}"),
    ("unrecognized arguments: {args}", "argumentos no reconocidos: {args}"),
    ("one of the arguments {names} is required", "se requiere uno de los argumentos {names}"),
    ("ambiguous option: {option} could match {matches}", "opción ambigua: {option} podría ser {matches}"),
    ("unexpected option string: {option}", "cadena de opción inesperada: {option}"),
    ("argument {name}: {detail:argparse}", "argumento {name}: {detail}"),
]

#: The detail of an ``argument --x: …`` error (the ``argparse`` vocabulary).
ARGPARSE_DETAILS: list[tuple[str, str]] = [
    ("invalid choice: {value} (choose from {choices})", "opción no válida: {value} (elige entre {choices})"),
    ("invalid {type} value: {value}", "valor {type} no válido: {value}"),
    ("expected one argument", "se esperaba un argumento"),
    ("expected at most one argument", "se esperaba como mucho un argumento"),
    ("expected at least one argument", "se esperaba al menos un argumento"),
    ("expected {n} argument", "se esperaba {n} argumento"),
    ("expected {n} arguments", "se esperaban {n} argumentos"),
    ("not allowed with argument {name}", "no se permite con el argumento {name}"),
    ("ignored explicit argument {value}", "se ignoró el argumento explícito {value}"),
    ("unknown parser {name} (choices: {choices})", "analizador desconocido {name} (opciones: {choices})"),
]

#: Why ``context`` cannot work on the feature it was given (``resolve_command_feature``), under
#: ``i18n.CLI_MESSAGE``. The forms naming state.json come first: they are the more specific.
CONTEXT_PROBLEMS: list[tuple[str, str]] = [
    ("Feature path is outside the target: {path}", "La ruta de la feature está fuera del destino: {path}"),
    ("Feature path {path} {reason:spec_reason}.", "La ruta de la feature {path} {reason}."),
    (
        'The active_spec "{value}" of .gemstack/state.json {reason:spec_reason}.',
        'El active_spec "{value}" de .gemstack/state.json {reason}.',
    ),
    (
        "Feature {feature} (active_spec of .gemstack/state.json) does not exist: there is no folder {folder}.",
        "La feature {feature} (active_spec de .gemstack/state.json) no existe: no hay ninguna carpeta {folder}.",
    ),
    (
        "Feature {feature} does not exist: there is no folder {folder}.",
        "La feature {feature} no existe: no hay ninguna carpeta {folder}.",
    ),
    (
        "Feature {feature} (active_spec of .gemstack/state.json) is not a feature: {folder} holds neither spec.md "
        "nor {capsule}.",
        "La feature {feature} (active_spec de .gemstack/state.json) no es una feature: {folder} no contiene ni "
        "spec.md ni {capsule}.",
    ),
    (
        "Feature {feature} is not a feature: {folder} holds neither spec.md nor {capsule}.",
        "La feature {feature} no es una feature: {folder} no contiene ni spec.md ni {capsule}.",
    ),
]

#: ``gemstack-lsp check``'s notes on stderr beside ``i18n_es_ui.CLI_MESSAGES``.
CHECK_MESSAGES: list[tuple[str, str]] = [
    (
        "{raw} is not checked: {where} resolves to {target}, outside the repository {root}",
        "{raw} no se comprueba: {where} apunta a {target}, fuera del repositorio {root}",
    ),
]

#: Texts by key (``i18n.ui``): English exactly as printed before they were translated.
UI: dict[str, tuple[str, str]] = {
    # `context show`'s summary: the reference's block (labels aligned one space after the longest).
    "show.title": ("=== Gemstack Context Capsule ===", "=== Context Capsule de Gemstack ==="),
    "show.label.schema_version": ("Schema Version:", "Versión del esquema:"),
    "show.label.project": ("Project:", "Proyecto:"),
    "show.label.feature": ("Feature:", "Feature activa:"),
    "show.label.lifecycle": ("Lifecycle:", "Ciclo de vida:"),
    "show.label.sources": ("Sources:", "Fuentes:"),
    "show.label.invariants": ("Invariants:", "Invariantes:"),
    "show.label.contracts": ("Contracts:", "Contratos:"),
    "show.label.acceptance": ("Acceptance:", "Aceptación:"),
    "show.label.state": ("State:", "Estado:"),
    "show.label.age": ("Age:", "Antigüedad:"),
    "show.undefined": ("undefined", "sin definir"),
    "show.unknown": ("unknown", "desconocido"),
    "show.files": ("{n} files", "{n} archivos"),
    "show.rules": ("{n} rules", "{n} reglas"),
    "show.contract_count": ("{n} contracts", "{n} contratos"),
    "show.tests": ("{n} tests", "{n} pruebas"),
    "show.ago": ("{span} ago ({when})", "hace {span} ({when})"),
    "show.future": ("in the future ({when})", "en el futuro ({when})"),
    # `context`'s own refusals.
    "context.two_features": (
        "Two features given: {positional} and --feature {option}.",
        "Se indicaron dos features: {positional} y --feature {option}.",
    ),
    "context.not_a_folder": ("Target is not a folder: {root}", "El destino no es una carpeta: {root}"),
    "context.no_feature": (
        "No active feature found or specified via --feature.",
        "No se encontró ninguna feature activa ni se indicó con --feature.",
    ),
    "context.feature_outside": (
        "Feature folder is outside the repository: {where}",
        "La carpeta de la feature está fuera del repositorio: {where}",
    ),
    "context.capsule_not_found": (
        "Context capsule not found at: {path}",
        "No se encontró la context capsule en: {path}",
    ),
    "context.not_an_object": ("Context capsule must be a JSON object", "La context capsule debe ser un objeto JSON"),
    # Internal errors.
    "internal.cli": (
        "{name}: internal error: {error}{at}. Please report it.",
        "{name}: error interno: {error}{at}. Por favor, infórmalo.",
    ),
    "internal.request": (
        "gemstack-lsp could not answer {method}: {error}",
        "gemstack-lsp no pudo responder a {method}: {error}",
    ),
    "internal.content_modified": (
        "{method}: the document changed; ask again",
        "{method}: el documento cambió; vuelve a pedirlo",
    ),
    "serve.tcp_address": (
        "gemstack-lsp serve: --tcp expects HOST:PORT, got {value}",
        "gemstack-lsp serve: --tcp espera HOST:PUERTO; se recibió {value}",
    ),
    "cli.lang_needs_value": ("--lang needs a value: en or es", "--lang necesita un valor: en o es"),
    "cli.lang_invalid": ("--lang must be en or es, not {value}", "--lang debe ser en o es, no {value}"),
}


def _literal(text: str) -> str:
    """``text`` as a template without placeholders (its braces doubled)."""
    return text.replace("{", "{{").replace("}", "}}")


def install() -> None:
    """Register every table of this module with ``core/i18n.py``."""
    for english, spanish in HELP:
        i18n.register(i18n.CLI_HELP, _literal(english), _literal(spanish))
    for english, spanish in ARGPARSE_WORDS.items():
        i18n.register(i18n.CLI_HELP, _literal(english), _literal(spanish))
    for english, spanish in CONTEXT_PROBLEMS + CHECK_MESSAGES:
        i18n.register(i18n.CLI_MESSAGE, english, spanish)
    for english, spanish in ARGPARSE:
        i18n.register(i18n.ARGPARSE, english, spanish)
    for english, spanish in ARGPARSE_DETAILS:
        i18n.register_phrase("argparse", english, spanish)
    for key, (english, spanish) in UI.items():
        i18n.register_ui(key, english, spanish)
