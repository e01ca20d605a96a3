"""Diagnostics: each repository's analysis host brought up to date, published as pushes or pulls.

One ``RootState`` per repository root. An edit marks its root dirty and, unless an analysis is
already running there, starts one at once (no fixed delay; an optional ``debounce_ms`` from the
settings). An analysis takes the host's snapshot and works in two phases:

1. the units of the open documents (the feature of each, most recently edited first, and the
   repository unit) are brought up to date and their files published: the document the user
   is looking at gets its diagnostics first, whatever the size of the workspace;
2. every other stale unit is computed in the background, in short slices on the analysis
   thread, with ``$/progress`` when there are many (the initial pass); the slices stop as soon
   as a newer edit arrives, whose analysis then starts over from phase 1. Units computed
   before the interruption are kept by the host: no work is lost, only obsolete work is
   dropped.

Each trip to the analysis thread computes and converts together (``_Trip``), and the first
trip also brings back the revision's findings when nothing else is stale: a keystroke that
outdates only the open documents' units costs one trip (a trip's thread hand-overs alone are
some 120 µs of CPU).

A result for an older revision is never published. Results are kept per file and compared with
what the client has (marksman): only files whose findings changed are converted and sent, each
with the version of the buffer it was computed from, so versions never go backwards.

Clients that declare ``textDocument.diagnostic`` get pull reports (with result ids, answered
``unchanged`` when nothing moved) and never a push; the others get pushes.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.i18n import SERVER_MESSAGE, Language, localize
from gemstack_lsp.core.text import Encoding
from gemstack_lsp.host.cancel import Cancelled, cancellation
from gemstack_lsp.server import convert, settings_sync
from gemstack_lsp.server.settings import analysis_options, is_project_file
from gemstack_lsp.uris import path_to_uri

if TYPE_CHECKING:
    from gemstack_lsp.host import AnalysisHost, Snapshot
    from gemstack_lsp.server.server import GemstackServer

log = logging.getLogger(__name__)

#: A watcher notification naming more files than this is taken as "anything may have changed".
WATCHER_STORM = 1000

#: How long one background slice of analysis may run before it lets the loop look for edits.
SLICE_SECONDS = 0.04
#: A pass with at least this many stale units reports ``$/progress``.
PROGRESS_UNITS = 20
#: How often a client without file watching has the disk looked at for outside changes.
DISK_SWEEP_SECONDS = 4.0


@record
class FileReport:
    """The diagnostics of one file from one analysis."""

    uri: str
    diagnostics: tuple[lsp.Diagnostic, ...]
    #: The buffer version they were computed from (``None`` for a file that is not open).
    version: int | None
    result_id: str
    #: What makes each diagnostic the same for diffing (``convert.diagnostic_key``), made with
    #: the diagnostics on the analysis thread: publishing compares them on the event loop.
    keys: tuple[tuple[Any, ...], ...] = ()


@dataclass
class RootState:
    """Analysis state of one repository root."""

    root: str
    dirty: bool = False
    task: asyncio.Task[None] | None = None
    #: Bumped on every request for analysis; ``completed`` is the last one covered by a whole
    #: result, ``first_done`` the last one whose open documents are published.
    requested: int = 0
    completed: int = 0
    first_done: int = 0
    #: The snapshot whose findings were last delivered.
    snapshot: Snapshot | None = None
    #: Per repository-relative path, the finding group delivered; per URI, its report.
    groups: dict[str, tuple[Finding, ...]] = field(default_factory=dict)
    reports: dict[str, FileReport] = field(default_factory=dict)
    #: Push mode: what the client currently has, per URI (diff keys and version).
    published: dict[str, tuple[tuple[Any, ...], ...]] = field(default_factory=dict)
    published_version: dict[str, int] = field(default_factory=dict)
    #: Pull mode: the buffer versions the last delivered analysis saw.
    pulled_versions: dict[str, int] = field(default_factory=dict)
    #: Open documents, most recently edited last (phase 1 takes them in reverse).
    recent: list[str] = field(default_factory=list)
    #: Files whose findings changed since the last whole analysis (for the listeners).
    changed: set[str] = field(default_factory=set)
    analyses: int = 0
    discarded: int = 0
    done: asyncio.Condition | None = None
    #: Set by the next edit: the running analysis's work on the analysis thread stops at its
    #: next checkpoint (between units) instead of finishing for a revision nobody will see.
    obsolete: threading.Event = field(default_factory=threading.Event)

    @property
    def findings(self) -> list[Finding]:
        """Every finding last delivered, sorted by path and position, as published: the
        repository's configuration and suppressions applied (what `check` prints)."""
        from gemstack_lsp.ide import suppressed

        out: list[Finding] = []
        for path in sorted(self.groups):
            group = self.groups[path]
            out.extend(suppressed.outcome(self.snapshot, path, group).visible if self.snapshot is not None else group)
        return out


def result_id(keys: Iterable[tuple[Any, ...]]) -> str:
    """The pull model's result id of diagnostics with these ``convert.diagnostic_key`` keys."""
    h = hashlib.sha1(usedforsecurity=False)
    for key in keys:
        h.update(repr(key).encode("utf-8", "surrogatepass"))
    return h.hexdigest()[:16]


def convert_groups(
    snap: Snapshot,
    groups: Mapping[str, tuple[Finding, ...]],
    uri_of: Callable[[str], str],
    versions: Mapping[str, int],
    encoding: Encoding,
    language: Language = "en",
) -> dict[str, FileReport]:
    """The reports of some files of a snapshot (runs on the analysis thread), in ``language``."""
    from gemstack_lsp.ide import suppressed

    views: dict[str, convert.FileView] = {}

    def view_of(path: str) -> convert.FileView:
        view = views.get(path)
        if view is None:
            view = views[path] = convert.FileView(uri_of(path), snap.document(path).source)
        return view

    out: dict[str, FileReport] = {}
    for path, group in groups.items():
        diagnostics = []
        # The repository's configuration and suppressions, applied where findings leave the
        # analysis (the same function as `gemstack-lsp check`).
        try:
            shown = suppressed.outcome(snap, path, group).visible
        except Exception:  # a broken policy must not hide the findings
            log.exception("applying the configuration to %s failed", path)
            shown = group
        for finding in shown:
            try:
                diagnostics.append(convert.to_diagnostic(finding, view_of, encoding, language))
            except Exception:  # a malformed finding must not hide the others
                log.exception("cannot convert finding %s", finding.code)
        t = tuple(diagnostics)
        keys = tuple(convert.diagnostic_key(d) for d in t)
        uri = uri_of(path)
        out[path] = FileReport(uri, t, versions.get(uri), result_id(keys), keys)
    return out


def changed_groups(new: Mapping[str, tuple[Finding, ...]], old: Mapping[str, tuple[Finding, ...]]) -> set[str]:
    """The paths whose findings are not the very same tuple in ``new`` and in ``old`` (a path
    missing from one has none there): an unchanged file keeps its group's tuple from one
    revision to the next. One pass over ``new`` and a set difference (half the time of
    comparing over the union of both, 0.1 ms at 2,000 files)."""
    changed = {p for p, group in new.items() if old.get(p, ()) is not group}
    changed.update(p for p in old.keys() - new.keys() if old[p])
    return changed


@record
class _Step:
    """What one trip to the analysis thread did (``_Trip.first`` or ``_Trip.rest``)."""

    #: The units still pending.
    remaining: list[str]
    #: The files whose findings this trip changed, and their reports.
    changed: dict[str, tuple[Finding, ...]]
    reports: dict[str, FileReport]
    #: The revision's findings by path, once nothing is pending.
    groups: Mapping[str, tuple[Finding, ...]] | None


@record
class _Trip:
    """The work of one analysis that runs on the analysis thread, a trip at a time: compute
    some units, then convert the files whose findings changed (compared with what the loop
    last delivered, ``delivered``: the loop changes it only between trips, while no trip runs)."""

    host: AnalysisHost
    snap: Snapshot
    st: RootState
    #: The buffer versions last published (push) or pulled, by URI.
    seen: Mapping[str, int]
    versions: Mapping[str, int]
    uri_of: Callable[[str], str]
    encoding: Encoding
    language: Language

    def first(self, units: list[str], open_paths: set[str]) -> _Step:
        """The open documents' units, computed; the files among theirs and the open ones that
        changed; what is left pending, and the revision's findings when nothing is (a
        keystroke's usual case: its analysis is then one trip)."""
        self.snap.compute(units)
        changed, reports = self._converted(open_paths | set(self.host.paths_of(units)))
        pending = self.snap.pending()
        groups = None if pending or self.st.dirty else self.snap.findings_by_path()
        return _Step(pending, changed, reports, groups)

    def rest(self, pending: list[str]) -> _Step:
        """One slice of the units still pending."""
        computed = _slice(self.st, self.snap, pending)
        remaining = pending[len(computed) :]
        changed, reports = self._converted(set(self.host.paths_of(computed))) if computed else ({}, {})
        groups = None if remaining or self.st.dirty else self.snap.findings_by_path()
        return _Step(remaining, changed, reports, groups)

    def _converted(self, paths: set[str]) -> tuple[dict[str, tuple[Finding, ...]], dict[str, FileReport]]:
        delivered = self.st.groups
        changed: dict[str, tuple[Finding, ...]] = {}
        for path in paths:
            group = self.host.group(path)
            uri = self.uri_of(path)
            moved = uri in self.versions and self.versions[uri] != self.seen.get(uri)
            if group is not delivered.get(path, ()) or moved:
                changed[path] = group
        if not changed:
            return changed, {}
        return changed, convert_groups(self.snap, changed, self.uri_of, self.versions, self.encoding, self.language)


def _slice(st: RootState, snap: Snapshot, pending: list[str]) -> list[str]:
    """Compute pending units for at most ``SLICE_SECONDS`` (on the analysis thread); stops
    at once when an edit marked the root dirty."""
    deadline = time.monotonic() + SLICE_SECONDS
    done: list[str] = []
    for key in pending:
        snap.compute([key])
        done.append(key)
        if st.dirty or time.monotonic() > deadline:
            break
    return done


def _stoppable(obsolete: threading.Event, fn: Callable[..., Any], *args: Any) -> Any:
    """Run ``fn(*args)`` on the analysis thread, stopping at its next checkpoint (``Cancelled``)
    once ``obsolete`` is set by a newer edit."""
    with cancellation(obsolete):
        return fn(*args)


class Diagnostics:
    """Schedules analyses and delivers their diagnostics, push or pull."""

    def __init__(self, server: GemstackServer) -> None:
        self.server = server
        self.session = server.session
        self.roots: dict[str, RootState] = {}
        #: The analysis thread: one, so analyses never compete with each other.
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gemstack-analysis")
        self._sweeper: asyncio.Task[None] | None = None
        #: The looks at the disk a change notification started (``_sweep_now``), while they run:
        #: what they find belongs to that notification, so ``current`` waits for them.
        self._sweeps: set[asyncio.Task[None]] = set()
        #: Called with (root, the files whose findings changed) after each whole analysis
        #: that changed any (lenses depend on other files' findings).
        self.listeners: list[Callable[[str, frozenset[str]], None]] = []

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
        st.obsolete.set()
        if st.task is None or st.task.done():
            st.task = asyncio.get_running_loop().create_task(self._run(st))
        return st.requested

    def schedule_all(self) -> None:
        for root in self.session.roots():
            self.schedule(root)

    def _uri_map(self, root: str) -> Callable[[str], str]:
        open_uris = {d.rel: d.uri for d in self.session.documents.values() if d.root == root and d.rel}

        def uri_of(rel: str) -> str:
            return open_uris.get(rel) or path_to_uri(os.path.join(root, rel))

        return uri_of

    def _first_units(self, st: RootState, snap: Snapshot) -> list[str]:
        """The units of the open documents of ``st.root``, most recently edited first, then
        the repository unit."""
        features: list[str] = []
        for uri in reversed(st.recent):
            doc = self.session.documents.get(uri)
            if doc is None or doc.root != st.root or doc.rel is None:
                continue
            feature = snap.repo.feature_of(doc.rel)
            if feature is not None and feature.name not in features:
                features.append(feature.name)
        known = snap.unit_set()
        return [k for k in features if k in known] + [""]

    async def _run(self, st: RootState) -> None:
        loop = asyncio.get_running_loop()
        try:
            while st.dirty:
                settings = self.session.settings_for_root(st.root)
                if settings.debounce_ms:
                    await asyncio.sleep(settings.debounce_ms / 1000)
                st.dirty = False
                st.obsolete = threading.Event()
                covers = st.requested
                host = self.session.host(st.root)
                host.set_options(analysis_options(settings))
                snap = host.snapshot()
                versions = self.session.versions(st.root)
                uri_of = self._uri_map(st.root)
                st.analyses += 1
                if not settings.diagnostics:
                    self._deliver(st, snap, {}, versions, complete=True)
                    st.first_done = st.completed = covers
                    await self._notify(st)
                    continue
                try:
                    finished = await self._analyse(st, snap, versions, uri_of, covers, loop)
                except Cancelled:
                    finished = False  # a newer edit made this analysis obsolete
                except RuntimeError as error:
                    if "after shutdown" in str(error) or "after interpreter shutdown" in str(error):
                        log.debug("analysis of %s stopped: the server is shutting down", st.root)
                        return
                    log.exception("analysis of %s failed", st.root)
                    finished = True
                except Exception:
                    log.exception("analysis of %s failed", st.root)
                    finished = True
                if not finished:
                    st.discarded += 1  # newer buffers arrived meanwhile: analyse again
                    continue
                st.first_done = max(st.first_done, covers)
                st.completed = covers
                changed, st.changed = frozenset(st.changed), set()
                if changed:
                    for listener in self.listeners:
                        try:
                            listener(st.root, changed)
                        except Exception:
                            log.exception("diagnostics listener failed")
                await self._notify(st)
        finally:
            st.task = None
            await self._notify(st)

    async def _analyse(
        self,
        st: RootState,
        snap: Snapshot,
        versions: dict[str, int],
        uri_of: Callable[[str], str],
        covers: int,
        loop: asyncio.AbstractEventLoop,
    ) -> bool:
        """One analysis of a snapshot; ``False`` when a newer edit made it obsolete.

        Each trip to the analysis thread computes and converts together (``_Trip``): a trip
        costs some 120 µs of CPU in thread hand-overs alone. A keystroke makes one when the
        edit outdated nothing beyond the open documents' units (the usual case: the first
        trip then brings the revision's findings back too), where it made four."""
        host = self.session.host(st.root)
        trip = _Trip(
            host,
            snap,
            st,
            st.pulled_versions if self.pull else st.published_version,
            versions,
            uri_of,
            self.session.encoding,
            self.session.language,
        )

        # Phase 1: what the user is looking at.
        first = self._first_units(st, snap)
        open_paths = {d.rel for d in self.session.documents.values() if d.root == st.root and d.rel}
        step = await loop.run_in_executor(self.executor, _stoppable, st.obsolete, trip.first, first, open_paths)
        if st.dirty or not snap.current:
            return False
        if step.changed:
            self._deliver(st, snap, step.reports, versions, complete=False, groups=step.changed)
        st.first_done = max(st.first_done, covers)
        await self._notify(st)

        # Phase 2: everything else, in slices that stop at the next edit; the trip that finds
        # nothing left brings the revision's findings back with it.
        pending, groups = step.remaining, step.groups
        total = len(pending)
        progress = await self._begin_progress(total) if pending else None
        try:
            while groups is None:
                if st.dirty:
                    return False
                step = await loop.run_in_executor(self.executor, _stoppable, st.obsolete, trip.rest, pending)
                pending, groups = step.remaining, step.groups
                if st.dirty or not snap.current:
                    return False
                if step.changed:
                    self._deliver(st, snap, step.reports, versions, complete=False, groups=step.changed)
                self._report_progress(progress, total - len(pending), total)
        finally:
            self._end_progress(progress)
        changed_paths = changed_groups(groups, st.groups)
        reports = (
            await loop.run_in_executor(
                self.executor,
                convert_groups,
                snap,
                {p: groups.get(p, ()) for p in changed_paths},
                uri_of,
                versions,
                self.session.encoding,
                self.session.language,
            )
            if changed_paths
            else {}  # the slices delivered them all (a keystroke's usual case)
        )
        if st.dirty:
            return False
        self._deliver(st, snap, reports, versions, complete=True, groups={p: groups.get(p, ()) for p in changed_paths})
        return True

    async def _notify(self, st: RootState) -> None:
        if st.done is None:
            st.done = asyncio.Condition()
        async with st.done:
            st.done.notify_all()

    async def current(self, root: str, request: int | None = None, *, whole: bool = True) -> RootState:
        """The state of ``root`` once an analysis covering request ``request`` has delivered
        (``whole``: the entire repository; else the open documents' features).

        A look at the disk that a change notification started is part of that change: it is
        awaited first, and what it scheduled is waited for too."""
        swept = False
        while self._sweeps:
            swept = True
            await asyncio.gather(*self._sweeps, return_exceptions=True)
        st = self.state(root)
        if request is None:
            request = st.requested if st.requested else self.schedule(root)
        elif swept:
            request = max(request, st.requested)
        if st.done is None:
            st.done = asyncio.Condition()
        async with st.done:
            while (st.completed if whole else st.first_done) < request:
                if st.task is None and not st.dirty:
                    # Nothing will cover it (a failed analysis): ask again.
                    st.dirty = True
                    st.task = asyncio.get_running_loop().create_task(self._run(st))
                await st.done.wait()
        return st

    # --- progress ----------------------------------------------------------------------

    async def _begin_progress(self, units: int) -> str | None:
        if units < PROGRESS_UNITS or not self.session.client.work_done_progress:
            return None
        token = f"gemstack-analysis-{uuid.uuid4().hex[:8]}"
        try:
            await asyncio.wait_for(
                self.server.work_done_progress.create_async(token),
                timeout=5,
            )
        except Exception as exc:  # a client that offers progress and then refuses it
            log.info("work done progress refused: %s", exc)
            return None
        self.server.work_done_progress.begin(
            token,
            lsp.WorkDoneProgressBegin(
                title=localize(SERVER_MESSAGE, "Gemstack: analysing the workspace", self.session.language),
                message=localize(SERVER_MESSAGE, f"0/{units} features", self.session.language),
            ),
        )
        return token

    def _report_progress(self, token: str | None, done: int, total: int) -> None:
        if token is None or total == 0:
            return
        self.server.work_done_progress.report(
            token,
            lsp.WorkDoneProgressReport(
                message=localize(SERVER_MESSAGE, f"{done}/{total} features", self.session.language),
                percentage=min(100, 100 * done // total),
            ),
        )

    def _end_progress(self, token: str | None) -> None:
        if token is not None:
            done = localize(SERVER_MESSAGE, "done", self.session.language)
            self.server.work_done_progress.end(token, lsp.WorkDoneProgressEnd(message=done))

    # --- delivery ----------------------------------------------------------------------

    def _deliver(
        self,
        st: RootState,
        snap: Snapshot,
        reports: dict[str, FileReport],
        versions: dict[str, int],
        *,
        complete: bool,
        groups: Mapping[str, tuple[Finding, ...]] | None = None,
    ) -> None:
        """Record and send the reports of some files (``complete``: the analysis is whole)."""
        st.snapshot = snap
        old: dict[str, FileReport | None] = {p: st.reports.get(r.uri) for p, r in reports.items()}
        for path, report in reports.items():
            group = groups.get(path, ()) if groups is not None else ()
            if group is not st.groups.get(path, ()):
                st.changed.add(path)
            if report.diagnostics:
                st.reports[report.uri] = report
                st.groups[path] = group
            else:
                st.reports.pop(report.uri, None)
                st.groups.pop(path, None)
        if not reports and complete and groups is None:
            # Diagnostics switched off: withdraw everything.
            withdrawn = dict(st.reports)
            old = dict(withdrawn)
            st.reports.clear()
            st.groups.clear()
            reports = {uri: FileReport(uri, (), None, "none") for uri in withdrawn}
        try:
            if self.pull:
                self._pulled(st, old, reports, versions)
            else:
                self._push(st, reports, versions)
        except Exception:  # a closed pipe, a bug in conversion: log, never loop
            log.exception("delivering diagnostics of %s failed", st.root)

    def reports_by_uri(self, root: str) -> dict[str, FileReport]:
        return dict(self.state(root).reports)

    def _pulled(
        self,
        st: RootState,
        old: Mapping[str, FileReport | None],
        reports: Mapping[str, FileReport],
        versions: dict[str, int],
    ) -> None:
        def rid(report: FileReport | None) -> str:
            return report.result_id if report is not None and report.diagnostics else "none"

        changed = {r.uri for p, r in reports.items() if rid(old.get(p)) != rid(r)}
        # A client re-pulls a document after its own edit to it; any other change (another
        # file's findings, a watched file, a command's write) needs a refresh request.
        not_by_edit = {u for u in changed if u not in versions or versions[u] == st.pulled_versions.get(u)}
        st.pulled_versions.update(versions)
        if not_by_edit and self.session.client.diagnostic_refresh:
            self.server.workspace_diagnostic_refresh(None)

    def _push(self, st: RootState, reports: Mapping[str, FileReport], versions: dict[str, int]) -> None:
        # Open buffers published before are re-stamped when their version moved, even when
        # their (possibly empty) diagnostics did not change.
        for report in sorted(reports.values(), key=lambda r: r.uri):
            uri = report.uri
            keys = report.keys
            version = versions.get(uri)
            last = st.published_version.get(uri)
            if version is not None and last is not None and version < last:
                continue  # never go backwards
            if st.published.get(uri, ()) == keys and (version is None or version == last):
                continue  # unchanged (marksman)
            self.server.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(uri=uri, diagnostics=list(report.diagnostics), version=version)
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
            st.pulled_versions.pop(uri, None)
            if uri in st.recent:
                st.recent.remove(uri)

    def clear_root(self, root: str) -> None:
        """Withdraw everything published for a root (its folder left the workspace)."""
        st = self.roots.pop(root, None)
        self.session.drop_host(root)
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
        # An open document waits for its own feature, not for the whole workspace.
        st = await self.current(root, self.state(root).requested or None, whole=doc is None)
        report = self.reports_by_uri(root).get(uri)
        rid = report.result_id if report else "none"
        if params.previous_result_id == rid:
            return lsp.RelatedUnchangedDocumentDiagnosticReport(result_id=rid)
        del st
        return lsp.RelatedFullDocumentDiagnosticReport(items=list(report.diagnostics) if report else [], result_id=rid)

    async def workspace_report(self, params: lsp.WorkspaceDiagnosticParams) -> lsp.WorkspaceDiagnosticReport:
        previous = {p.uri: p.value for p in params.previous_result_ids}
        items: list[lsp.WorkspaceFullDocumentDiagnosticReport | lsp.WorkspaceUnchangedDocumentDiagnosticReport] = []
        for root in self.session.roots():
            await self.current(root, self.state(root).requested or None)
            by_uri = self.reports_by_uri(root)
            uris = set(by_uri) | {u for u in previous if self.session.root_for_uri(u) == root}
            for uri in sorted(uris):
                report = by_uri.get(uri)
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

    def _touch(self, uri: str, root: str) -> None:
        st = self.state(root)
        if uri in st.recent:
            st.recent.remove(uri)
        st.recent.append(uri)

    def did_open(self, params: lsp.DidOpenTextDocumentParams) -> None:
        td = params.text_document
        doc = self.session.open(td.uri, td.text, td.version, td.language_id)
        if doc.root is not None and doc.gemstack:
            self._touch(doc.uri, doc.root)
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
            self._touch(doc.uri, doc.root)
            self.schedule(doc.root)

    def did_close(self, params: lsp.DidCloseTextDocumentParams) -> None:
        doc = self.session.close(params.text_document.uri)
        if doc is not None and doc.root is not None and doc.gemstack:
            self.forget_version(doc.uri)
            self.schedule(doc.root)

    def did_save(self, params: lsp.DidSaveTextDocumentParams) -> None:
        # The buffer already counted; a save only matters to other tools, and for a client
        # that cannot watch files it is a moment to look at the disk.
        if not self.session.client.dynamic_watchers:
            self._sweep_now()

    def did_change_watched_files(self, params: lsp.DidChangeWatchedFilesParams) -> None:
        self.session.forget_roots()
        uris = list(dict.fromkeys(change.uri for change in params.changes))
        if len(uris) > WATCHER_STORM:
            # A storm (a checkout, a build writing thousands of files): one change of every
            # repository instead of thousands, so the loop stays free and no request waits.
            log.info("%d files changed at once: every repository is read again", len(uris))
            for root in self.session.hosts():
                self.session.forget_file(root, None)
                self.schedule(root)
            self._sweep_now()
            return
        roots: set[str] = set()
        for uri in uris:
            where = self.session.where(uri)
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
        # Watchers can be coarse or name a link's target rather than the link: look at what
        # every repository read, once, for changes nobody reported.
        self._sweep_now()

    # --- clients without file watching ---------------------------------------------------

    def start_disk_sweeps(self) -> None:
        """For a client that cannot watch files: look at the disk every few seconds."""
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(DISK_SWEEP_SECONDS)
            await self._sweep()

    def _sweep_now(self) -> None:
        task = asyncio.get_running_loop().create_task(self._sweep())
        self._sweeps.add(task)
        task.add_done_callback(self._sweeps.discard)

    async def _sweep(self) -> None:
        loop = asyncio.get_running_loop()
        for root, host in self.session.hosts().items():
            try:
                changed = await loop.run_in_executor(self.executor, host.files.sweep)
            except Exception:
                log.exception("looking at the disk of %s failed", root)
                continue
            if changed:
                for rel in changed:
                    host.file_changed(rel)
                self.schedule(root)
                for rel in changed:
                    if is_project_file(rel):
                        # A client without file watching: the configuration applies without restart too.
                        await settings_sync.project_file_changed(self.server, path_to_uri(f"{root}/{rel}"))

    def status(self) -> dict[str, Any]:
        """Counters for tests and benchmarks (``gemstack/status``)."""
        hosts = self.session.hosts()
        return {
            "roots": [
                {
                    "root": root,
                    "analyses": st.analyses,
                    "discarded": st.discarded,
                    "requested": st.requested,
                    "completed": st.completed,
                    "files": len(st.reports),
                    "findings": sum(len(g) for g in st.groups.values()),
                    "host": hosts[root].sizes() | vars(hosts[root].stats) if root in hosts else {},
                }
                for root, st in self.roots.items()
            ],
            "encoding": self.session.encoding,
            "pull": self.pull,
        }


def is_relevant(rel: str) -> bool:
    from gemstack_lsp.server.session import is_gemstack_path

    return is_gemstack_path(rel)
