"""Diagnostics: analysis per repository root, published as pushes or answered as pulls.

One ``RootState`` per repository root. An edit marks its root dirty and, unless an analysis
is already running there, starts one at once on a worker thread (no fixed delay; an optional
``debounce_ms`` from the settings). Edits that arrive while it runs are coalesced: when it
finishes, a result made obsolete by newer buffers is discarded and the root is analysed once
more with the latest text. Results are kept per file and diffed against what the client has
(marksman): only files whose diagnostics changed are re-published, each with the version of
the buffer it was computed from, so versions never go backwards.

Clients that declare ``textDocument.diagnostic`` get pull reports (with result ids, answered
``unchanged`` when nothing moved) and never a push; the others get pushes.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.options import AnalysisOptions
from gemstack_lsp.core.repo import GemstackRepo
from gemstack_lsp.core.rules import analyze
from gemstack_lsp.core.text import Encoding
from gemstack_lsp.server import convert
from gemstack_lsp.server.settings import analysis_options

if TYPE_CHECKING:
    from gemstack_lsp.server.server import GemstackServer

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FileReport:
    """The diagnostics of one file from one analysis."""

    uri: str
    diagnostics: tuple[lsp.Diagnostic, ...]
    #: The buffer version they were computed from (``None`` for a file that is not open).
    version: int | None
    result_id: str


@dataclass
class RootState:
    """Analysis state of one repository root."""

    root: str
    dirty: bool = False
    task: asyncio.Task[None] | None = None
    #: Bumped on every request for analysis; ``completed`` is the last one covered by a result.
    requested: int = 0
    completed: int = 0
    reports: dict[str, FileReport] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    #: Push mode: what the client currently has, per URI (diff keys and version).
    published: dict[str, tuple[tuple[Any, ...], ...]] = field(default_factory=dict)
    published_version: dict[str, int] = field(default_factory=dict)
    #: Pull mode: the buffer versions the last delivered analysis saw.
    pulled_versions: dict[str, int] = field(default_factory=dict)
    analyses: int = 0
    discarded: int = 0
    done: asyncio.Condition | None = None


@dataclass(frozen=True)
class AnalysisResult:
    findings: list[Finding]
    reports: dict[str, FileReport]


def result_id(diagnostics: tuple[lsp.Diagnostic, ...]) -> str:
    h = hashlib.sha1(usedforsecurity=False)
    for d in diagnostics:
        h.update(repr(convert.diagnostic_key(d)).encode("utf-8", "surrogatepass"))
    return h.hexdigest()[:16]


def run_analysis(
    repo: GemstackRepo,
    options: AnalysisOptions,
    uri_of: Callable[[str], str],
    versions: dict[str, int],
    encoding: Encoding,
) -> AnalysisResult:
    """Analyse one snapshot and convert its findings to per-file reports (runs on a worker thread)."""
    findings = analyze(repo, options)
    uris: dict[str, str] = {}

    def view_of(path: str) -> convert.FileView:
        uri = uris.get(path)
        if uri is None:
            uri = uris[path] = uri_of(path)
        return convert.FileView(uri, repo.document(path).source)

    by_uri: dict[str, list[lsp.Diagnostic]] = {}
    for finding in findings:
        try:
            diagnostic = convert.to_diagnostic(finding, view_of, encoding)
        except Exception:  # a malformed finding must not hide the others
            log.exception("cannot convert finding %s", finding.code)
            continue
        by_uri.setdefault(view_of(finding.path).uri, []).append(diagnostic)
    reports = {}
    for uri, diags in by_uri.items():
        t = tuple(diags)
        reports[uri] = FileReport(uri, t, versions.get(uri), result_id(t))
    return AnalysisResult(findings, reports)


class Diagnostics:
    """Schedules analyses and delivers their diagnostics, push or pull."""

    def __init__(self, server: GemstackServer) -> None:
        self.server = server
        self.session = server.session
        self.roots: dict[str, RootState] = {}
        self.executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="gemstack-analysis")
        #: Observers called with (root, result) after each published analysis (lens, symbols...).
        self.listeners: list[Callable[[str, AnalysisResult], None]] = []

    @property
    def pull(self) -> bool:
        return self.session.client.pull_diagnostics

    def state(self, root: str) -> RootState:
        st = self.roots.get(root)
        if st is None:
            st = self.roots[root] = RootState(root)
        return st

    # --- scheduling --------------------------------------------------------------------

    def schedule(self, root: str) -> int:
        """Ask for an analysis of ``root``; returns the request number a pull can wait for."""
        st = self.state(root)
        st.requested += 1
        st.dirty = True
        if st.task is None or st.task.done():
            st.task = asyncio.get_running_loop().create_task(self._run(st))
        return st.requested

    def schedule_all(self) -> None:
        for root in self.session.roots():
            self.schedule(root)

    async def _run(self, st: RootState) -> None:
        loop = asyncio.get_running_loop()
        try:
            while st.dirty:
                settings = self.session.settings_for_root(st.root)
                if settings.debounce_ms:
                    await asyncio.sleep(settings.debounce_ms / 1000)
                st.dirty = False
                covers = st.requested
                buffers = self.session.buffers(st.root)
                versions = self.session.versions(st.root)
                repo = self.session.snapshot(st.root, buffers)
                uri_map = {d.rel: d.uri for d in self.session.documents.values() if d.root == st.root and d.rel}
                root = st.root

                def uri_of(rel: str, uri_map: dict[str, str] = uri_map, root: str = root) -> str:
                    return uri_map.get(rel) or convert.path_to_uri(os.path.join(root, rel))

                if not settings.diagnostics:
                    result = AnalysisResult([], {})
                else:
                    try:
                        result = await loop.run_in_executor(
                            self.executor,
                            run_analysis,
                            repo,
                            analysis_options(settings),
                            uri_of,
                            versions,
                            self.session.encoding,
                        )
                    except Exception:
                        log.exception("analysis of %s failed", st.root)
                        result = None
                st.analyses += 1
                if st.dirty:
                    # Newer buffers arrived meanwhile: this result is obsolete, analyse again.
                    st.discarded += 1
                    continue
                if result is not None:
                    try:
                        self._deliver(st, result, versions)
                    except Exception:  # a closed pipe, a bug in conversion: log, never loop
                        log.exception("delivering diagnostics of %s failed", st.root)
                st.completed = covers
                await self._notify(st)
        finally:
            st.task = None
            await self._notify(st)

    async def _notify(self, st: RootState) -> None:
        if st.done is None:
            st.done = asyncio.Condition()
        async with st.done:
            st.done.notify_all()

    async def current(self, root: str, request: int | None = None) -> RootState:
        """The state of ``root`` once an analysis covering request ``request`` has completed."""
        st = self.state(root)
        if request is None:
            request = st.requested if st.requested else self.schedule(root)
        if st.done is None:
            st.done = asyncio.Condition()
        async with st.done:
            while st.completed < request:
                if st.task is None and not st.dirty:
                    # Nothing will cover it (a failed analysis): ask again.
                    st.task = asyncio.get_running_loop().create_task(self._run(st))
                    st.dirty = True
                await st.done.wait()
        return st

    # --- delivery ----------------------------------------------------------------------

    def _deliver(self, st: RootState, result: AnalysisResult, versions: dict[str, int]) -> None:
        old = st.reports
        st.reports = result.reports
        st.findings = result.findings
        for listener in self.listeners:
            try:
                listener(st.root, result)
            except Exception:
                log.exception("diagnostics listener failed")
        if self.pull:
            changed = {
                uri
                for uri in set(old) | set(result.reports)
                if (old[uri].result_id if uri in old else None)
                != (result.reports[uri].result_id if uri in result.reports else None)
            }
            # A client re-pulls a document after its own edit to it; any other change (another
            # file's findings, a watched file, a command's write) needs a refresh request.
            not_by_edit = {u for u in changed if u not in versions or versions[u] == st.pulled_versions.get(u)}
            st.pulled_versions = dict(versions)
            if not_by_edit and self.session.client.diagnostic_refresh:
                self.server.workspace_diagnostic_refresh(None)
            return
        self._push(st, result.reports, versions)

    def _push(self, st: RootState, reports: dict[str, FileReport], versions: dict[str, int]) -> None:
        # Open buffers published before are re-stamped when their version moved, even when
        # their (possibly empty) diagnostics did not change.
        uris = set(reports) | set(st.published) | {u for u in versions if u in st.published_version}
        for uri in sorted(uris):
            report = reports.get(uri)
            diagnostics = report.diagnostics if report else ()
            keys = tuple(convert.diagnostic_key(d) for d in diagnostics)
            version = versions.get(uri)
            last = st.published_version.get(uri)
            if version is not None and last is not None and version < last:
                continue  # never go backwards
            if st.published.get(uri, ()) == keys and (version is None or version == last):
                # Unchanged (marksman). An edited buffer is still re-stamped with its new
                # version: a client that dropped an older push as outdated gets it again.
                continue
            self.server.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(uri=uri, diagnostics=list(diagnostics), version=version)
            )
            if keys:
                st.published[uri] = keys
            else:
                st.published.pop(uri, None)
            if version is not None:
                st.published_version[uri] = version

    def forget_version(self, uri: str) -> None:
        """A document closed: its next publication carries no version."""
        for st in self.roots.values():
            st.published_version.pop(uri, None)

    def clear_root(self, root: str) -> None:
        """Withdraw everything published for a root (its folder left the workspace)."""
        st = self.roots.pop(root, None)
        if st is None or self.pull:
            return
        for uri in st.published:
            self.server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    # --- pull --------------------------------------------------------------------------

    async def document_report(
        self, params: lsp.DocumentDiagnosticParams
    ) -> lsp.RelatedFullDocumentDiagnosticReport | lsp.RelatedUnchangedDocumentDiagnosticReport:
        uri = params.text_document.uri
        doc = self.session.documents.get(uri)
        root = doc.root if doc is not None else self.session.root_for_uri(uri)
        gemstack = doc.gemstack if doc is not None else root is not None
        if root is None or not gemstack:
            return lsp.RelatedFullDocumentDiagnosticReport(items=[], result_id="none")
        st = await self.current(root, self.state(root).requested or None)
        report = st.reports.get(uri)
        rid = report.result_id if report else "none"
        if params.previous_result_id == rid:
            return lsp.RelatedUnchangedDocumentDiagnosticReport(result_id=rid)
        return lsp.RelatedFullDocumentDiagnosticReport(items=list(report.diagnostics) if report else [], result_id=rid)

    async def workspace_report(self, params: lsp.WorkspaceDiagnosticParams) -> lsp.WorkspaceDiagnosticReport:
        previous = {p.uri: p.value for p in params.previous_result_ids}
        items: list[lsp.WorkspaceFullDocumentDiagnosticReport | lsp.WorkspaceUnchangedDocumentDiagnosticReport] = []
        for root in self.session.roots():
            st = await self.current(root, self.state(root).requested or None)
            uris = set(st.reports) | {u for u in previous if self.session.root_for_uri(u) == root}
            for uri in sorted(uris):
                report = st.reports.get(uri)
                rid = report.result_id if report else "none"
                version = self.session.documents[uri].version if uri in self.session.documents else None
                if previous.get(uri) == rid:
                    items.append(
                        lsp.WorkspaceUnchangedDocumentDiagnosticReport(uri=uri, version=version, result_id=rid)
                    )
                else:
                    items.append(
                        lsp.WorkspaceFullDocumentDiagnosticReport(
                            uri=uri,
                            version=version,
                            items=list(report.diagnostics) if report else [],
                            result_id=rid,
                        )
                    )
        return lsp.WorkspaceDiagnosticReport(items=items)

    # --- handlers ------------------------------------------------------------------------

    def did_open(self, params: lsp.DidOpenTextDocumentParams) -> None:
        td = params.text_document
        doc = self.session.open(td.uri, td.text, td.version, td.language_id)
        if doc.root is not None and doc.gemstack:
            self.schedule(doc.root)

    def did_change(self, params: lsp.DidChangeTextDocumentParams) -> None:
        before = self.session.documents.get(params.text_document.uri)
        previous = before.version if before is not None else None
        doc = self.session.change(params.text_document.uri, params.text_document.version, params.content_changes)
        if doc is not None and previous is not None and doc.version < previous:
            # The client restarted its versions (versions only ever rise within one history):
            # what was published for the higher ones describes an obsolete buffer, so the
            # new history starts afresh instead of being held back as "going backwards".
            log.info("%s went from version %s back to %s: its history starts afresh", doc.uri, previous, doc.version)
            self.forget_version(doc.uri)
        if doc is not None and doc.root is not None and doc.gemstack:
            self.schedule(doc.root)

    def did_close(self, params: lsp.DidCloseTextDocumentParams) -> None:
        doc = self.session.close(params.text_document.uri)
        if doc is not None and doc.root is not None and doc.gemstack:
            self.forget_version(doc.uri)
            self.schedule(doc.root)

    def did_save(self, params: lsp.DidSaveTextDocumentParams) -> None:
        # The buffer already counted; a save only matters to other tools.
        return None

    def did_change_watched_files(self, params: lsp.DidChangeWatchedFilesParams) -> None:
        self.session.forget_roots()
        roots: set[str] = set()
        for change in params.changes:
            where = self.session.where(change.uri)
            if where is None or where.root is None:
                continue
            # A file now linked out of its repository still changes that repository's findings.
            rel = where.rel if where.rel is not None else where.written_rel
            if rel is not None:
                self.session.forget_file(where.root.real, rel)
                if is_relevant(rel):
                    roots.add(where.root.real)
        for root in sorted(roots):
            self.schedule(root)

    def status(self) -> dict[str, Any]:
        """Counters for tests and benchmarks (``gemstack/status``)."""
        return {
            "roots": [
                {
                    "root": root,
                    "analyses": st.analyses,
                    "discarded": st.discarded,
                    "requested": st.requested,
                    "completed": st.completed,
                    "files": len(st.reports),
                    "findings": len(st.findings),
                }
                for root, st in self.roots.items()
            ],
            "encoding": self.session.encoding,
            "pull": self.pull,
        }


def is_relevant(rel: str) -> bool:
    from gemstack_lsp.server.session import is_gemstack_path

    return is_gemstack_path(rel)
