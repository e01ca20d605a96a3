"""The request model, in-process: views taken at dispatch, two lanes, edits outdate requests."""

from __future__ import annotations

import asyncio
import shutil
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from inprocess import InProcess, notification, request

from gemstack_lsp import ide
from gemstack_lsp.host.cancel import check_cancelled
from gemstack_lsp.server import navigation
from gemstack_lsp.uris import path_to_uri

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "gemstack-reference" / "repo"
SPEC = "specs/009-context-capsule/spec.md"
CONTENT_MODIFIED = -32801


class Gate:
    """Holds every workspace/symbol search until released (a slow background request)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.release = threading.Event()
        self.entered = threading.Event()
        self.stopped = 0
        original = ide.workspace_symbols

        def held(*args: Any, **kwargs: Any) -> Any:
            self.entered.set()
            self.release.wait(30)
            try:
                check_cancelled()
            except Exception:
                self.stopped += 1
                raise
            return original(*args, **kwargs)

        monkeypatch.setattr(navigation.ide, "workspace_symbols", held)


@pytest.fixture
async def opened(tmp_path: Path) -> AsyncIterator[tuple[InProcess, str, str]]:
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    uri = path_to_uri(str(root / SPEC))
    text = (root / SPEC).read_text("utf-8")
    server = InProcess()
    server.send(request(1, "initialize", {"processId": None, "rootUri": path_to_uri(str(root)), "capabilities": {}}))
    await server.answer(1)
    server.send(notification("initialized", {}))
    server.send(
        notification(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}
        )
    )
    await server.published(uri, 1)
    yield server, uri, text
    await server.close()


def change(uri: str, version: int, text: str) -> dict[str, Any]:
    return notification(
        "textDocument/didChange",
        {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
    )


def hover(msg_id: int, uri: str) -> dict[str, Any]:
    return request(
        msg_id, "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 2}}
    )


async def test_a_hover_is_answered_while_background_requests_wait(
    opened: tuple[InProcess, str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, uri, _ = opened
    gate = Gate(monkeypatch)
    server.send(*(request(10 + i, "workspace/symbol", {"query": "x"}) for i in range(5)))
    await asyncio.get_running_loop().run_in_executor(None, gate.entered.wait, 10)
    server.send(hover(20, uri))
    answer = await server.answer(20)
    assert "error" not in answer  # answered while the symbol searches are held
    assert not any(m.get("id") in range(10, 15) for m in server.out.messages if "method" not in m)
    gate.release.set()
    for i in range(5):
        assert "result" in await server.answer(10 + i)


async def test_an_edit_outdates_the_requests_that_read_the_text_before_it(
    opened: tuple[InProcess, str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, uri, text = opened
    gate = Gate(monkeypatch)
    server.send(request(30, "workspace/symbol", {"query": "capsule"}), request(31, "workspace/symbol", {"query": "x"}))
    await asyncio.get_running_loop().run_in_executor(None, gate.entered.wait, 10)
    server.send(change(uri, 2, text + "\nmore\n"))
    for msg_id in (30, 31):  # the running one and the queued one, both at once
        assert (await server.answer(msg_id))["error"]["code"] == CONTENT_MODIFIED
    await server.published(uri, 2)  # the edit itself is published meanwhile
    gate.release.set()
    server.send(request(32, "workspace/symbol", {"query": "capsule"}))
    assert (await server.answer(32))["result"]  # a new request reads the new text
    assert gate.stopped == 1  # the running search stopped at its check; the queued one never ran
    assert server.server.inflight.outdated == 2


async def test_a_request_dispatched_before_an_edit_reads_the_text_before_it(opened: tuple[InProcess, str, str]) -> None:
    server, uri, _ = opened
    # Both in one read: the hover is dispatched (its view taken) before the edit applies, and
    # the edit that follows outdates it before its handler even starts.
    server.send(hover(40, uri), change(uri, 3, "# Other\n"))
    assert (await server.answer(40))["error"]["code"] == CONTENT_MODIFIED
    await server.published(uri, 3)
    server.send(hover(41, uri))
    assert "error" not in await server.answer(41)


async def test_commands_are_never_outdated(opened: tuple[InProcess, str, str]) -> None:
    server = opened[0]
    pending = server.server.inflight
    assert pending.outdate(None) == 0
    from gemstack_lsp.server.requests import outdated_by_edits

    assert not outdated_by_edits("workspace/executeCommand") and not outdated_by_edits("gemstack/capsuleState")
    assert outdated_by_edits("textDocument/hover") and outdated_by_edits("workspace/symbol")


async def test_a_watcher_storm_is_one_change_and_requests_are_answered(opened: tuple[InProcess, str, str]) -> None:
    server, uri, _ = opened
    root = uri.rsplit("/specs/", 1)[0]
    changes = [{"uri": f"{root}/specs/009-context-capsule/gen/{i}.md", "type": 2} for i in range(20_000)]
    host = next(iter(server.server.session.hosts().values()))
    revision = host.revision
    server.send(notification("workspace/didChangeWatchedFiles", {"changes": changes}), hover(50, uri))
    assert "error" not in await server.answer(50, timeout=60)
    assert host.revision == revision + 1  # the storm was one change, not 20,000


async def test_ids_typed_into_an_open_buffer_are_found_by_workspace_queries(
    opened: tuple[InProcess, str, str],
) -> None:
    """The analysis does not re-index a feature whose document is being typed into
    (``Session._index_hook``): a workspace query reads that buffer itself."""
    server, uri, text = opened
    renamed = text.replace('"id": "zero-dependency-core"', '"id": "zero-dependency-kernel"', 1)
    server.send(change(uri, 2, renamed))
    await server.published(uri, 2)
    server.send(request(50, "workspace/symbol", {"query": "zero-dependency-kernel"}))
    names = {s["name"] for s in (await server.answer(50))["result"]}
    assert "zero-dependency-kernel" in names
    server.send(request(51, "workspace/symbol", {"query": "zero-dependency-core"}))
    old = [s for s in (await server.answer(51))["result"] if s["name"] == "zero-dependency-core"]
    assert all(s["location"]["uri"] != uri for s in old)  # other documents may still declare it
    at = renamed.index("zero-dependency-kernel") + 3
    line = renamed.count("\n", 0, at)
    character = at - (renamed.rfind("\n", 0, at) + 1)
    server.send(
        request(
            52,
            "textDocument/references",
            {
                "textDocument": {"uri": uri},
                "position": {"line": line, "character": character},
                "context": {"includeDeclaration": True},
            },
        )
    )
    assert any(loc["uri"] == uri for loc in (await server.answer(52))["result"] or [])
