"""End-to-end fixtures: the real server, driven by pytest-lsp's client.

``make_client(kind, root)`` starts a server against a workspace folder and initialises it with
the capabilities of a real client:

- ``vscode``: VS Code 1.65 — push diagnostics, UTF-16 positions, dynamic file watchers;
- ``neovim``: Neovim 0.11 — pull diagnostics, UTF-8 positions, static watchers.

The server is a fresh ``create_server()`` on a thread of the test process, connected to the
client by an in-memory byte stream (``tests/lsp/inprocess_server.py``): the same frames as over
stdio, without a start-up per test. A test whose fact is about the process (audit hooks, stderr,
exit codes, the environment read at start) gets ``tests/lsp/launch_server.py`` in a subprocess:
``make_client(..., subprocess=True)``, ``audit=True`` or ``watch=...``, or the
``subprocess_server`` marker; ``GEMSTACK_TEST_SERVER=subprocess`` runs every test that way.

The ``client_kind`` fixture is parametrised over both. ``Harness`` wraps the client with the
traps of pytest-lsp handled: a ``workspace/applyEdit`` handler, every push recorded in order,
and waits that never hang (``settle()`` asks the server for its status, which it answers only
once every pending analysis has been delivered, so no timers are involved).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from lsprotocol import types as lsp
from pygls.protocol import default_converter
from pytest_lsp import LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from gemstack_lsp.core.text import Encoding, Position, SourceText, Span
from gemstack_lsp.uris import path_to_uri
from tests.lsp.inprocess_server import InProcessServer, attach

HERE = Path(__file__).parent
LAUNCHER = HERE / "launch_server.py"
CLIENTS = {"vscode": "visual-studio-code@v1.65.2", "neovim": "neovim@v0.11.0"}
#: The clientInfo.name each client sends in initialize.
CLIENT_NAMES = {"vscode": "Visual Studio Code", "neovim": "Neovim"}
#: A bound on any single wait, so a broken server fails a test instead of hanging the suite.
WAIT = 60.0


class Harness:
    """A started client with the state a test reads: documents, pushes, edits, registrations."""

    def __init__(self, client: LanguageClient, root: Path, kind: str) -> None:
        self.client = client
        self.root = root
        self.kind = kind
        self.encoding: Encoding = "utf-16"
        self.pull = False
        self.capabilities: lsp.ServerCapabilities | None = None
        self.texts: dict[str, str] = {}
        self.versions: dict[str, int] = {}
        self.pushes: list[lsp.PublishDiagnosticsParams] = []
        self.applied: list[lsp.ApplyWorkspaceEditParams] = []
        self.registrations: list[lsp.Registration] = []
        self.result_ids: dict[str, str] = {}

    def uri(self, rel: str) -> str:
        return path_to_uri(os.path.realpath(self.root / rel))

    async def request(self, method: str, params: Any) -> Any:
        return await asyncio.wait_for(self.client.protocol.send_request_async(method, params), WAIT)

    async def settle(self) -> dict[str, Any]:
        """Wait until every analysis the server owes has been delivered; return its counters."""
        result = _plain(await self.request("gemstack/status", None))
        assert isinstance(result, dict)
        return result

    # --- documents ---------------------------------------------------------------------

    def open(self, rel: str, text: str | None = None, language_id: str = "markdown") -> str:
        uri = self.uri(rel)
        if text is None:
            text = (self.root / rel).read_text("utf-8")
        self.texts[uri] = text
        self.versions[uri] = 1
        self.client.text_document_did_open(
            lsp.DidOpenTextDocumentParams(
                text_document=lsp.TextDocumentItem(uri=uri, language_id=language_id, version=1, text=text)
            )
        )
        return uri

    def replace(self, rel: str, old: str, new: str, count: int = 1) -> None:
        """An incremental edit replacing the first occurrence of ``old``, in the client's encoding."""
        uri = self.uri(rel)
        text = self.texts[uri]
        start = text.index(old)
        self.edit(rel, Span(start, start + len(old)), new)

    def edit(self, rel: str, span: Span, new: str) -> None:
        uri = self.uri(rel)
        text = self.texts[uri]
        source = SourceText(text)
        a = source.position(span.start, self.encoding)
        b = source.position(span.end, self.encoding)
        self.versions[uri] += 1
        self.texts[uri] = text[: span.start] + new + text[span.end :]
        self.client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[
                    lsp.TextDocumentContentChangePartial(
                        range=lsp.Range(
                            start=lsp.Position(line=a.line, character=a.character),
                            end=lsp.Position(line=b.line, character=b.character),
                        ),
                        text=new,
                    )
                ],
            )
        )

    def close(self, rel: str) -> None:
        uri = self.uri(rel)
        self.texts.pop(uri, None)
        self.versions.pop(uri, None)
        self.client.text_document_did_close(
            lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri))
        )

    def position(self, rel: str, needle: str, delta: int = 0) -> lsp.Position:
        """The client-side position of ``needle`` (plus ``delta`` code points) in an open document."""
        text = self.texts[self.uri(rel)]
        p = SourceText(text).position(text.index(needle) + delta, self.encoding)
        return lsp.Position(line=p.line, character=p.character)

    def offset(self, rel: str, position: lsp.Position) -> int:
        text = self.texts[self.uri(rel)]
        return SourceText(text).offset(Position(position.line, position.character), self.encoding)

    # --- diagnostics -------------------------------------------------------------------

    async def diagnostics(self, rel: str) -> list[lsp.Diagnostic]:
        """The diagnostics the client now holds for a file: the last push, or a fresh pull."""
        uri = self.uri(rel)
        if self.pull:
            report = await self.request(
                lsp.TEXT_DOCUMENT_DIAGNOSTIC,
                lsp.DocumentDiagnosticParams(
                    text_document=lsp.TextDocumentIdentifier(uri=uri),
                    identifier="gemstack",
                    previous_result_id=None,
                ),
            )
            items: list[lsp.Diagnostic] = list(report.items)
            return items
        await self.settle()
        for push in reversed(self.pushes):
            if push.uri == uri:
                return list(push.diagnostics)
        return []

    async def workspace_diagnostics(self) -> dict[str, list[lsp.Diagnostic]]:
        """Every file's diagnostics: the pushes' latest state, or a workspace pull."""
        if self.pull:
            report = await self.request(
                lsp.WORKSPACE_DIAGNOSTIC, lsp.WorkspaceDiagnosticParams(previous_result_ids=[], identifier="gemstack")
            )
            return {item.uri: list(item.items) for item in report.items if item.items}
        await self.settle()
        latest: dict[str, list[lsp.Diagnostic]] = {}
        for push in self.pushes:
            latest[push.uri] = list(push.diagnostics)
        return {u: d for u, d in latest.items() if d}

    def text_range(self, rel: str, r: lsp.Range) -> str:
        text = self.texts[self.uri(rel)]
        return text[self.offset(rel, r.start) : self.offset(rel, r.end)]


def _plain(value: Any) -> Any:
    """pygls hands untyped results over as named tuples: turn them back into dicts and lists."""
    if hasattr(value, "_asdict"):
        return {k: _plain(v) for k, v in value._asdict().items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def client_converter() -> Any:
    """The test client's converter: pygls's default, and a CodeAction that carries a command
    told from a bare Command by its fields (lsprotocol would read it as a Command whose command
    is a stringified dict)."""
    converter = default_converter()

    def hook(obj: Any, _: Any) -> lsp.CodeAction | lsp.Command:
        if isinstance(obj, dict) and (
            "kind" in obj or "edit" in obj or "diagnostics" in obj or isinstance(obj.get("command"), dict)
        ):
            action: lsp.CodeAction = converter.structure(obj, lsp.CodeAction)
            return action
        command: lsp.Command = converter.structure(obj, lsp.Command)
        return command

    converter.register_structure_hook(lsp.Command | lsp.CodeAction, hook)
    converter.register_structure_hook(lsp.CodeAction | lsp.Command, hook)
    return converter


def _install_handlers(harness: Harness) -> None:
    client = harness.client

    @client.feature(lsp.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: lsp.ApplyWorkspaceEditParams) -> lsp.ApplyWorkspaceEditResult:
        harness.applied.append(params)
        return lsp.ApplyWorkspaceEditResult(applied=True)

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish(params: lsp.PublishDiagnosticsParams) -> None:
        harness.pushes.append(params)
        client.diagnostics[params.uri] = params.diagnostics

    @client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
    def register(params: lsp.RegistrationParams) -> None:
        harness.registrations.extend(params.registrations)

    @client.feature(lsp.WORKSPACE_DIAGNOSTIC_REFRESH)
    def refresh(params: None) -> None:
        client.diagnostic_refresh_count += 1


_OWN_HANDLERS = {
    lsp.WORKSPACE_APPLY_EDIT,
    lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
    lsp.CLIENT_REGISTER_CAPABILITY,
    lsp.WORKSPACE_DIAGNOSTIC_REFRESH,
}

MakeClient = Callable[..., Awaitable[Harness]]


@pytest.fixture
def gem_repo(reference_repo: Path) -> Path:
    """A writable copy of the reference repository (resolved, as the server reports paths)."""
    return Path(os.path.realpath(reference_repo))


def wants_subprocess(request: pytest.FixtureRequest) -> bool:
    """Whether this test's servers run in a subprocess (its marker, or the whole run's choice)."""
    return (
        request.node.get_closest_marker("subprocess_server") is not None
        or os.environ.get("GEMSTACK_TEST_SERVER") == "subprocess"
    )


async def connect(client: LanguageClient, root: Path, *, fake: bool, subprocess: bool) -> InProcessServer | None:
    """Start a server for ``client``: in this process (returned, to be stopped), or
    ``launch_server.py`` in a subprocess (``None``)."""
    if not subprocess:
        return await attach(client, fake=fake)
    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["GEMSTACK_TEST_FAKE"] = "1" if fake else "0"
    env["GEMSTACK_TEST_AUDIT"] = "0"
    await client.start_io(sys.executable, str(LAUNCHER), env=env, cwd=str(root))
    return None


async def disconnect(client: LanguageClient, server: InProcessServer | None) -> None:
    """Shut the session down (``shutdown``, ``exit``), stop the server and the client."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(client.shutdown_session(), WAIT)
    try:
        if server is not None:
            server.stop()
    finally:
        await client.stop()


@pytest_asyncio.fixture
async def make_client(request: pytest.FixtureRequest) -> AsyncIterator[MakeClient]:
    started: list[tuple[Harness, InProcessServer | None]] = []
    by_default = wants_subprocess(request)

    async def start(
        kind: str,
        root: Path,
        *,
        fake: bool = True,
        audit: bool = False,
        watch: Path | None = None,
        options: Any = None,
        tweak: Callable[[lsp.ClientCapabilities], None] | None = None,
        locale: str | None = None,
        subprocess: bool | None = None,
        client_name: str | None = None,
    ) -> Harness:
        client = LanguageClient(converter_factory=client_converter)
        register_lsp_features(client, {m: f for m, f in DEFAULT_CLIENT_FEATURES.items() if m not in _OWN_HANDLERS})
        harness = Harness(client, root, kind)
        _install_handlers(harness)
        if subprocess is None:
            # Audit hooks are process-wide: an audited server always has a process of its own.
            subprocess = by_default or audit or watch is not None
        server: InProcessServer | None = None
        if subprocess:
            env = dict(os.environ)
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            env["GEMSTACK_TEST_FAKE"] = "1" if fake else "0"
            env["GEMSTACK_TEST_AUDIT"] = "1" if audit else "0"
            if watch is not None:
                env["GEMSTACK_TEST_WATCH"] = str(watch)
            await client.start_io(sys.executable, str(LAUNCHER), env=env, cwd=str(root))
        else:
            server = await attach(client, fake=fake)
        started.append((harness, server))
        caps = client_capabilities(CLIENTS[kind])
        if tweak is not None:
            tweak(caps)
        result = await asyncio.wait_for(
            client.initialize_session(
                lsp.InitializeParams(
                    capabilities=caps,
                    root_uri=path_to_uri(root),
                    workspace_folders=[lsp.WorkspaceFolder(uri=path_to_uri(root), name=root.name)],
                    initialization_options=options,
                    locale=locale,
                    client_info=lsp.ClientInfo(name=CLIENT_NAMES[kind] if client_name is None else client_name),
                )
            ),
            WAIT,
        )
        harness.capabilities = result.capabilities
        enc = result.capabilities.position_encoding
        harness.encoding = "utf-8" if enc == lsp.PositionEncodingKind.Utf8 else "utf-16"
        harness.pull = bool(caps.text_document and caps.text_document.diagnostic is not None)
        return harness

    yield start
    for harness, server in started:
        await disconnect(harness.client, server)


@pytest.fixture(params=sorted(CLIENTS))
def client_kind(request: pytest.FixtureRequest) -> str:
    kind: str = request.param
    return kind
