"""The server's internal-error answers speak the client's language (issue 18, item 7): a
handler that fails is answered RequestFailed, a request an edit outdated ContentModified, in
English by default and in Spanish for a client whose ``initialize`` says ``locale: "es"``. The
error's own text (Python's) is quoted as it is."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from inprocess import InProcess, notification, request

from gemstack_lsp import ide
from gemstack_lsp.uris import path_to_uri

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "gemstack-reference" / "repo"
SPEC = "specs/009-context-capsule/spec.md"
REQUEST_FAILED = -32803
CONTENT_MODIFIED = -32801

Start = Callable[[str | None], Any]


@pytest.fixture
async def start(tmp_path: Path) -> AsyncIterator[Start]:
    servers: list[InProcess] = []

    async def started(locale: str | None) -> tuple[InProcess, str, str]:
        root = tmp_path / f"repo-{len(servers)}"
        shutil.copytree(FIXTURE, root)
        uri = path_to_uri(str(root / SPEC))
        text = (root / SPEC).read_text("utf-8")
        server = InProcess()
        servers.append(server)
        params: dict[str, Any] = {"processId": None, "rootUri": path_to_uri(str(root)), "capabilities": {}}
        if locale is not None:
            params["locale"] = locale
        server.send(request(1, "initialize", params))
        await server.answer(1)
        server.send(notification("initialized", {}))
        opened = {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}
        server.send(notification("textDocument/didOpen", opened))
        await server.published(uri, 1)
        return server, uri, text

    yield started
    for server in servers:
        await server.close()


def _hover(msg_id: int, uri: str) -> dict[str, Any]:
    return request(
        msg_id, "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 2}}
    )


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        (None, "gemstack-lsp could not answer textDocument/hover: RuntimeError: planted bug"),
        ("en-US", "gemstack-lsp could not answer textDocument/hover: RuntimeError: planted bug"),
        ("es-ES", "gemstack-lsp no pudo responder a textDocument/hover: RuntimeError: planted bug"),
    ],
)
async def test_a_failing_handler_is_answered_in_the_clients_language(
    start: Start, monkeypatch: pytest.MonkeyPatch, locale: str | None, expected: str
) -> None:
    server, uri, _ = await start(locale)

    def boom(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("planted bug")

    monkeypatch.setattr(ide, "hover", boom)
    server.send(_hover(2, uri))
    error = (await server.answer(2))["error"]
    assert error["code"] == REQUEST_FAILED
    assert error["message"] == expected


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        (None, "textDocument/hover: the document changed; ask again"),
        ("es", "textDocument/hover: el documento cambió; vuelve a pedirlo"),
    ],
)
async def test_an_outdated_request_is_answered_in_the_clients_language(
    start: Start, locale: str | None, expected: str
) -> None:
    server, uri, _ = await start(locale)
    change = {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": "# Other\n"}]}
    server.send(_hover(3, uri), notification("textDocument/didChange", change))
    error = (await server.answer(3))["error"]
    assert error["code"] == CONTENT_MODIFIED
    assert error["message"] == expected
