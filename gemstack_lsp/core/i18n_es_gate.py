"""The Spanish of the cost gates' decisions (``core/cost/gates.py``, ``core/cost/environment.py``)
and of ``gemstack-lsp gate``'s usage errors. Templates follow ``core/i18n.py``; ``install``
registers them (``i18n_es_ui.install`` calls it).

The decision messages are the reference's English (its golden vectors); the English stays the
default and the JSON's ``reasonCode`` never changes, only the ``message`` a person reads.
"""

from __future__ import annotations

from gemstack_lsp.core import i18n

#: A gate decision's message (``Decision.message``), also the vocabulary ``gate``.
GATE_DECISIONS: list[tuple[str, str]] = [
    # ProviderCapabilityGate
    (
        'Provider "{id}" is not registered in provider registry.',
        'El proveedor "{id}" no está registrado en el registro de proveedores.',
    ),
    (
        'Provider "{id}" ({type}) is not allowed in {tier} environment: {again} runs only MOCK providers.',
        'El proveedor "{id}" ({type}) no está permitido en el entorno {tier}: {again} solo ejecuta proveedores MOCK.',
    ),
    (
        'Capability "{cap}" is not declared for provider "{id}".',
        'La capacidad "{cap}" no está declarada para el proveedor "{id}".',
    ),
    (
        'Adapter for provider "{id}" does not implement capability "{cap}".',
        'El adaptador del proveedor "{id}" no implementa la capacidad "{cap}".',
    ),
    (
        'Provider "{id}" capability "{cap}" verified successfully.',
        'Capacidad "{cap}" del proveedor "{id}" verificada correctamente.',
    ),
    # BillableActionGate
    ("Action ID is missing or invalid.", "Falta el ID de la acción o no es válido."),
    (
        'Billable action "{id}" is not declared in specification or active plan.',
        'La acción facturable "{id}" no está declarada en la especificación ni en el plan activo.',
    ),
    (
        'Action "{id}" has UNKNOWN cost classification. Fail-closed: execution denied.',
        'La acción "{id}" tiene clasificación de costo UNKNOWN. Cierre seguro (fail-closed): ejecución denegada.',
    ),
    (
        'Action "{id}" is FREE and authorized for execution.',
        'La acción "{id}" es FREE y está autorizada para ejecutarse.',
    ),
    (
        'Action "{id}" on provider "{provider}" requires explicit spending authorization.',
        'La acción "{id}" en el proveedor "{provider}" requiere una autorización de gasto explícita.',
    ),
    (
        'Action "{id}" estimated cost ({total}) exceeds authorized budget limit ({limit}).',
        'El costo estimado de la acción "{id}" ({total}) supera el límite de presupuesto autorizado ({limit}).',
    ),
    (
        'Action "{id}" authorized for execution within budget.',
        'Acción "{id}" autorizada para ejecutarse dentro del presupuesto.',
    ),
    # The fallback chain
    (
        'Fallback provider "{id}" failed authorization: {why:gate}',
        'El proveedor de respaldo "{id}" no superó la autorización: {why}',
    ),
    (
        'Every provider of the chain for action "{id}" failed or was denied; nothing runs.',
        'Todos los proveedores de la cadena de la acción "{id}" fallaron o fueron denegados; no se ejecuta nada.',
    ),
    # The tiers' commercial policy
    (
        "Commercial provider invocation is strictly denied in test environment.",
        "La invocación de proveedores comerciales está terminantemente prohibida en el entorno test.",
    ),
    (
        "Commercial invocation permitted in CI via explicit signed waiver.",
        "Invocación comercial permitida en CI mediante una dispensa firmada explícita.",
    ),
    (
        "Commercial provider invocation is denied in CI environment without explicit signed waiver.",
        "La invocación de proveedores comerciales está denegada en el entorno CI sin una dispensa firmada explícita.",
    ),
    (
        "Commercial provider actions in development require explicit authorization (--allow-billable).",
        "Las acciones de proveedores comerciales en development requieren una autorización explícita "
        "(--allow-billable).",
    ),
    (
        "Commercial execution authorized for development session.",
        "Ejecución comercial autorizada para la sesión de development.",
    ),
    (
        "Commercial execution permitted under managed environment.",
        "Ejecución comercial permitida en un entorno gestionado.",
    ),
]

#: ``gemstack-lsp gate``'s usage errors on stderr (after ``gemstack-lsp gate: ``).
GATE_CLI: list[tuple[str, str]] = [
    ("expected a subcommand: evaluate", "se esperaba un subcomando: evaluate"),
    ("--target {target} is not a folder", "--target {target} no es una carpeta"),
    ("--units must be a number of at least 0", "--units debe ser un número mayor o igual que 0"),
    ("--budget must be a number of at least 0", "--budget debe ser un número mayor o igual que 0"),
    ("no feature specs/{feature} in {root}", "no hay ninguna feature specs/{feature} en {root}"),
]


def install() -> None:
    for english, spanish in GATE_DECISIONS:
        i18n.register(i18n.GATE_DECISION, english, spanish)
    for english, spanish in GATE_CLI:
        i18n.register(i18n.CLI_MESSAGE, english, spanish)
