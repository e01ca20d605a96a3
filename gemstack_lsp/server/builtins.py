"""The handlers of the methods the protocol itself answers (pygls builds them in; ours replace
them, so the JSON-RPC layer never runs pygls's dispatch):

- ``initialize``: the session learns the client; the capabilities are built by pygls's public
  ``ServerCapabilitiesBuilder`` from the registered features, then our position encoding is
  set, and push-only clients are never offered pull diagnostics;
- ``shutdown`` cancels every running request and refuses later ones; ``exit`` closes the
  writer and ends the process (0 after ``shutdown``, 1 without);
- the open buffers are the session's alone: ``didOpen``/``didChange``/``didClose`` only call the
  registered handlers; a change to a document that was never opened is a routine refusal,
  logged once per document;
- ``workspace/executeCommand`` runs the registered command with the arguments as they came
  (unknown: ``InvalidParams``); a work-done progress cancel cancels its token.

The registered handler of each method (``server.feature(...)``) runs after the built-in part.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp
from pygls.capabilities import ServerCapabilitiesBuilder
from pygls.exceptions import JsonRpcInvalidParams

from gemstack_lsp.server import convert, rpc

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackProtocol, GemstackServer

log = logging.getLogger(__name__)

#: How many never-opened documents are remembered (each is logged once).
UNKNOWN_KEPT = 1000


async def _awaited(value: Any) -> Any:
    return await value


def handlers(server: GemstackServer, protocol: GemstackProtocol) -> dict[str, Callable[[Any], Any]]:
    """The built-in handlers of ``server``, by method."""
    features = protocol.fm
    endpoint = protocol.endpoint
    unknown_documents: set[str] = set()

    def then(method: str, params: Any) -> Any:
        """The registered handler of ``method``, called with ``params`` (its result)."""
        handler = features.features.get(method)
        return handler(params) if handler is not None else None

    def initialize(params: lsp.InitializeParams) -> Any:
        server.session.initialize(params)
        server.process_id = params.process_id
        protocol.client_capabilities = params.capabilities
        outcome = then(lsp.INITIALIZE, params)
        if inspect.isawaitable(outcome):

            async def later() -> lsp.InitializeResult:
                await outcome
                return result_of(params)

            return later()
        return result_of(params)

    def result_of(params: lsp.InitializeParams) -> lsp.InitializeResult:
        session = server.session
        encoding = convert.encoding_kind(session.encoding)
        # The feature modules loaded on their first message are declared (``server/features.py``),
        # loaded or not; their commands come after the others, in the table's order.
        declared = server.declared
        options = {method: option for f in declared for method, option in f.methods if option is not None}
        commands = [c for f in declared for c in f.commands]
        capabilities = ServerCapabilitiesBuilder(
            params.capabilities,
            {*features.features, *table, *(method for f in declared for method, _ in f.methods)},
            {**options, **features.feature_options},
            [*(c for c in features.commands if c not in commands), *commands],
            lsp.TextDocumentSyncKind.Incremental,
            None,
            encoding,
        ).build()  # type: ignore[no-untyped-call]
        capabilities.position_encoding = encoding
        if not session.client.pull_diagnostics:
            # Push-only clients: never advertise pull, so no client gets both.
            capabilities.diagnostic_provider = None
        protocol.server_capabilities = capabilities
        return lsp.InitializeResult(
            capabilities=capabilities, server_info=lsp.ServerInfo(name=server.name, version=server.version)
        )

    def shutdown(params: Any) -> Any:
        outcome = then(lsp.SHUTDOWN, params)
        endpoint.cancel_running(but=rpc.current_id())
        endpoint.shutting_down = True
        return _awaited(outcome) if inspect.isawaitable(outcome) else None

    def exit_(params: Any) -> None:
        then(lsp.EXIT, params)
        code = 0 if endpoint.shutting_down else 1
        writer = endpoint.writer
        if writer is not None:
            try:
                writer.close()
            except Exception as exc:  # the pipe may be gone
                log.debug("closing the writer: %s", exc)
        raise SystemExit(code)

    def did_change(params: lsp.DidChangeTextDocumentParams) -> Any:
        uri = params.text_document.uri
        if uri not in server.session.documents:
            if uri not in unknown_documents:
                if len(unknown_documents) >= UNKNOWN_KEPT:
                    unknown_documents.clear()
                unknown_documents.add(uri)
                log.info("didChange for a document that is not open, ignored: %s", uri)
            return None
        return then(lsp.TEXT_DOCUMENT_DID_CHANGE, params)

    def set_trace(params: lsp.SetTraceParams) -> Any:
        protocol.trace = params.value
        return then(lsp.SET_TRACE, params)

    def execute_command(params: lsp.ExecuteCommandParams) -> Any:
        command = features.commands.get(params.command)
        if command is None and params.command in server.lazy_commands:
            server.load_feature(server.lazy_commands[params.command])
            command = features.commands.get(params.command)
        if command is None:
            raise JsonRpcInvalidParams(f"Invalid Params: Command name {params.command!r} is not defined")
        return command(*(params.arguments or ()))

    def progress_cancel(params: lsp.WorkDoneProgressCancelParams) -> Any:
        future = protocol.progress.tokens.get(params.token)
        if future is not None:
            future.cancel()
        return then(lsp.WINDOW_WORK_DONE_PROGRESS_CANCEL, params)

    def passing(method: str) -> Callable[[Any], Any]:
        return lambda params: then(method, params)

    table: dict[str, Callable[[Any], Any]] = {
        lsp.INITIALIZE: initialize,
        lsp.INITIALIZED: passing(lsp.INITIALIZED),
        lsp.SHUTDOWN: shutdown,
        lsp.EXIT: exit_,
        lsp.TEXT_DOCUMENT_DID_OPEN: passing(lsp.TEXT_DOCUMENT_DID_OPEN),
        lsp.TEXT_DOCUMENT_DID_CHANGE: did_change,
        lsp.TEXT_DOCUMENT_DID_CLOSE: passing(lsp.TEXT_DOCUMENT_DID_CLOSE),
        lsp.SET_TRACE: set_trace,
        lsp.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS: passing(lsp.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS),
        lsp.WORKSPACE_EXECUTE_COMMAND: execute_command,
        lsp.WINDOW_WORK_DONE_PROGRESS_CANCEL: progress_cancel,
    }
    return table
