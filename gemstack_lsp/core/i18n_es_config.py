"""The Spanish of the configuration and suppression messages (``core/config.py``,
``core/suppressions.py``, ``core/policy.py``) and of their catalogue entries."""

from __future__ import annotations

SPANISH_CONFIG: dict[str, list[tuple[str, str]]] = {
    "CONFIG_INVALID": [
        (
            "Arrays or tables nest more than {n} deep; the configuration is not used.",
            "Los arrays o tablas se anidan a más de {n} niveles; la configuración no se usa.",
        ),
        (
            "A number is longer than {n} digits; the configuration is not used.",
            "Un número tiene más de {n} dígitos; la configuración no se usa.",
        ),
        (
            "Not valid UTF-8 (byte {n}); the configuration is not used.",
            "No es UTF-8 válido (byte {n}); la configuración no se usa.",
        ),
        ("Larger than {n} bytes; the configuration is not used.", "Mayor de {n} bytes; la configuración no se usa."),
        (
            "Not valid TOML: {why}; the configuration is not used.",
            "No es TOML válido: {why}; la configuración no se usa.",
        ),
        (
            "Cannot be read as TOML ({why}); the configuration is not used.",
            "No se puede leer como TOML ({why}); la configuración no se usa.",
        ),
        (
            "Cannot be read ({why}); the configuration is not used.",
            "No se puede leer ({why}); la configuración no se usa.",
        ),
        (
            "{where}: {name} is not a finding code or family; skipped",
            "{where}: {name} no es un código ni una familia de hallazgos; se omite",
        ),
        (
            "{where}: {name} cannot be silenced or re-graded; skipped",
            "{where}: {name} no se puede silenciar ni cambiar de gravedad; se omite",
        ),
        (
            "{where}: {name} is neither a finding code nor a family ({families}); skipped",
            "{where}: {name} no es un código de hallazgo ni una familia ({families}); se omite",
        ),
        (
            "'{where}' must be a table of code or family = level; skipped",
            "'{where}' debe ser una tabla de código o familia = nivel; se omite",
        ),
        (
            "{where}: {word} for {name} is not one of {levels}; skipped",
            "{where}: {word} para {name} no es uno de {levels}; se omite",
        ),
        (
            "'{where}' must be an array of codes or families; skipped",
            "'{where}' debe ser un array de códigos o familias; se omite",
        ),
        ("{where} must be a table; skipped", "{where} debe ser una tabla; se omite"),
        (
            "{where} needs 'paths', a non-empty array of globs; the entry is skipped",
            "{where} necesita 'paths', un array no vacío de globs; la entrada se omite",
        ),
        (
            "{where}: unknown key {key} skipped (paths, severity, ignore, reason)",
            "{where}: clave desconocida {key} omitida (paths, severity, ignore, reason)",
        ),
        ("{where}: 'reason' must be a string; skipped", "{where}: 'reason' debe ser una cadena; se omite"),
        (
            "environment {value} is not one of {values}; skipped",
            "environment {value} no es uno de {values}; se omite",
        ),
        (
            "{key} must be a whole number from 0 to {n}; skipped",
            "{key} debe ser un número entero de 0 a {n}; se omite",
        ),
        ("log-level {value} is not one of {values}; skipped", "log-level {value} no es uno de {values}; se omite"),
        (
            "features: {key} = {value} is not a feature switch; skipped",
            "features: {key} = {value} no es un interruptor de funciones; se omite",
        ),
        ("unknown key {key} skipped", "clave desconocida {key} omitida"),
        (
            "{n} more key(s) or value(s) skipped (the first {m} are listed).",
            "{n} clave(s) o valor(es) más omitidos (se listan los primeros {m}).",
        ),
    ],
    "SUPPRESSION_INVALID": [
        (
            "More than {n} suppression comments in one file: this one and the rest are ignored. Use the -file "
            "form, or [[overrides]] in the configuration.",
            "Más de {n} comentarios de supresión en un archivo: este y los siguientes se ignoran. Usa la forma "
            "-file, o [[overrides]] en la configuración.",
        ),
        (
            "This suppression names no finding code: write the codes, then a reason.",
            "Esta supresión no nombra ningún código de hallazgo: escribe los códigos y luego un motivo.",
        ),
        (
            "This suppression names unknown finding code(s): {codes}.",
            "Esta supresión nombra código(s) de hallazgo desconocido(s): {codes}.",
        ),
        (
            "{codes} cannot be silenced by a comment (see docs/configuration.md).",
            "{codes} no se puede(n) silenciar con un comentario (ver docs/configuration.md).",
        ),
        (
            "This suppression has no reason: say why the finding is accepted, after the codes.",
            "Esta supresión no tiene motivo: di por qué se acepta el hallazgo, después de los códigos.",
        ),
    ],
    "SUPPRESSION_UNUSED": [
        (
            "This suppression silences nothing: no {codes} finding where it applies.",
            "Esta supresión no silencia nada: ningún hallazgo {codes} donde se aplica.",
        ),
        (
            "This suppression silences nothing: no {codes} finding in this file.",
            "Esta supresión no silencia nada: ningún hallazgo {codes} en este archivo.",
        ),
        (
            "This suppression silences nothing: no {codes} finding on the line or block it precedes.",
            "Esta supresión no silencia nada: ningún hallazgo {codes} en la línea o el bloque que precede.",
        ),
    ],
}

CATALOGUE_ES_CONFIG: dict[str, tuple[str, str]] = {
    "CONFIG_INVALID": (
        "El archivo de configuración del repositorio no se puede usar tal cual.",
        "Un error cuando .gemstack/lsp.toml (o [tool.gemstack-lsp] de pyproject.toml) no se puede usar en "
        "absoluto (no es UTF-8, no es TOML, supera un límite de tamaño, anidamiento o dígitos): el servidor "
        "mantiene la configuración válida anterior. Una advertencia por cada clave o valor que se omite.",
    ),
    "SUPPRESSION_INVALID": (
        "Un comentario de supresión no es válido.",
        "Un comentario <!-- gemstack-lsp-ignore CÓDIGOS motivo --> sin códigos, sin motivo, con un código "
        "desconocido o con uno que no se puede silenciar. No silencia nada.",
    ),
    "SUPPRESSION_UNUSED": (
        "Un comentario de supresión no silencia nada.",
        "No hay ningún hallazgo con esos códigos en la línea, el bloque o el archivo que cubre el comentario: "
        "quítalo, o corrige los códigos.",
    ),
}
