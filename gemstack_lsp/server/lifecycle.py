"""The lifecycle, document, workspace and diagnostic handlers of the server.

``initialize`` and ``initialized`` set up settings (``settings_sync``) and file watchers and
start the workspace analysis; document notifications feed the diagnostics engine; workspace
folder and watched-file changes reach both the engine and the settings; pull diagnostics are
answered by the engine; ``gemstack/status`` reports the analysis counters.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from functools import partial
from typing import Any

from lsprotocol import types as lsp

from gemstack_lsp.server import settings_sync
from gemstack_lsp.server.server import GemstackServer
from gemstack_lsp.server.session import WATCHED_GLOBS

log = logging.getLogger(__name__)

#: Custom request answering analysis counters (tests and benchmarks).
STATUS_REQUEST = "gemstack/status"


def register(server: GemstackServer) -> None:
    """Install the lifecycle, document, workspace and diagnostic handlers."""
    session = server.session
    engine = server.diagnostics

    @server.feature(lsp.INITIALIZE)
    def initialize(params: lsp.InitializeParams) -> None:
        # Load the analysis modules once the answer is written (the answer needs none of them):
        # the first diagnostics need them a round trip from now. On the event loop, not on a
        # worker: a thread importing modules holds the interpreter's lock all the same, and the
        # analysis thread's keystrokes were measurably slower (about 5%) with the analysis
        # modules imported there.
        preload = partial(_preload_analysis, server.freeze_preloaded)
        try:
            asyncio.get_running_loop().call_soon(preload)
        except RuntimeError:  # no loop (a test calling the handler): now
            preload()
        settings_sync.initialize(server, params)

    @server.feature(lsp.INITIALIZED)
    async def initialized(params: lsp.InitializedParams) -> None:
        # Workspace-wide diagnostics first: files that are not open get theirs too.
        engine.schedule_all()
        if not session.client.dynamic_watchers:
            engine.start_disk_sweeps()  # another tool's writes are found by looking
        if session.client.dynamic_watchers:
            try:
                await server.client_register_capability_async(
                    lsp.RegistrationParams(
                        registrations=[
                            lsp.Registration(
                                id="gemstack-watched-files",
                                method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                                register_options=lsp.DidChangeWatchedFilesRegistrationOptions(
                                    watchers=[lsp.FileSystemWatcher(glob_pattern=g) for g in WATCHED_GLOBS]
                                ),
                            )
                        ]
                    )
                )
            except Exception as exc:  # a client that offers and then refuses
                log.info("registering file watchers failed: %s", exc)
        await settings_sync.initialized(server)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: lsp.DidOpenTextDocumentParams) -> None:
        engine.did_open(params)
        if "gitnexus-plan" in params.text_document.uri:
            from gemstack_lsp.server import commands

            commands.take_plan_receipt(server, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: lsp.DidChangeTextDocumentParams) -> None:
        engine.did_change(params)
        doc = server.session.documents.get(params.text_document.uri)
        if doc is not None and doc.root is not None:
            server.inflight.outdate(doc.root)  # requests read the text before this edit

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: lsp.DidCloseTextDocumentParams) -> None:
        engine.did_close(params)
        server.plan_receipts.pop(params.text_document.uri, None)
        server.plan_receipt_tasks.pop(params.text_document.uri, None)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE, lsp.SaveOptions(include_text=False))
    def did_save(params: lsp.DidSaveTextDocumentParams) -> None:
        engine.did_save(params)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def did_change_watched_files(params: lsp.DidChangeWatchedFilesParams) -> None:
        engine.did_change_watched_files(params)
        for change in params.changes:
            await settings_sync.project_file_changed(server, change.uri)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    async def did_change_workspace_folders(params: lsp.DidChangeWorkspaceFoldersParams) -> None:
        before = set(session.roots())
        for removed in params.event.removed:
            session.remove_folder(removed.uri)
        for added in params.event.added:
            session.add_folder(added.uri)
        after = set(session.roots())
        for root in sorted(before - after):
            engine.clear_root(root)
        for root in sorted(after - before):
            engine.schedule(root)
        await settings_sync.folders_changed(
            server, [f.uri for f in params.event.added], [f.uri for f in params.event.removed]
        )

    @server.feature(
        lsp.TEXT_DOCUMENT_DIAGNOSTIC,
        lsp.DiagnosticOptions(identifier="gemstack", inter_file_dependencies=True, workspace_diagnostics=True),
    )
    async def document_diagnostic(
        params: lsp.DocumentDiagnosticParams,
    ) -> lsp.RelatedFullDocumentDiagnosticReport | lsp.RelatedUnchangedDocumentDiagnosticReport:
        return await engine.document_report(params)

    @server.feature(lsp.WORKSPACE_DIAGNOSTIC)
    async def workspace_diagnostic(params: lsp.WorkspaceDiagnosticParams) -> lsp.WorkspaceDiagnosticReport:
        return await engine.workspace_report(params)

    @server.feature(STATUS_REQUEST)
    async def status(params: Any) -> dict[str, Any]:
        # Wait for pending analyses so the counters describe a settled server.
        for root in session.roots():
            if engine.state(root).requested:
                await engine.current(root, engine.state(root).requested)
        out = engine.status()
        out["stats"] = dict(server.stats)
        out["threads"] = threading.active_count()
        return out


def _preload_analysis(freeze: bool) -> None:
    """Import what the first analysis runs: the host, the rules, the workspace indexes and the
    suppressions (``initialize`` is answered without them). With ``freeze`` (the server a
    process serves), the collector is paused meanwhile and what the imports created is frozen,
    as for the server's own imports (``commands/serve.py``): those objects live as long as the
    process."""
    import gc

    if freeze:
        gc.disable()
    try:
        from gemstack_lsp.core import rules
        from gemstack_lsp.fs import DiskReader
        from gemstack_lsp.host.analysis import AnalysisHost
        from gemstack_lsp.ide import suppressed, symbols

        del DiskReader, AnalysisHost, suppressed, symbols
        rules.feature_checks()
    finally:
        if freeze:
            gc.freeze()
            gc.enable()
