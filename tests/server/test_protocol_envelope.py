"""Every request gets an answer: a batch, a message that is not JSON-RPC 2.0, and a request
after ``shutdown`` are each answered with an error (in-process server)."""

from __future__ import annotations

import pytest
from inprocess import InProcess, frame, request

INVALID_REQUEST = -32600


@pytest.fixture
async def server() -> InProcess:  # type: ignore[misc]
    running = InProcess()
    running.send(request(1, "initialize", {"processId": None, "rootUri": None, "capabilities": {}}))
    assert "result" in await running.answer(1)
    yield running
    await running.close()


async def test_a_batch_is_answered_with_one_invalid_request_error(server: InProcess) -> None:
    server.send(frame([request(2, "shutdown"), request(3, "shutdown")]))
    answer = await server.answer(None)
    assert answer["error"]["code"] == INVALID_REQUEST and "batch" in answer["error"]["message"]
    server.send(request(4, "workspace/symbol", {"query": "x"}))
    assert (await server.answer(4))["result"] == []  # and the server reads on


async def test_a_request_that_is_not_json_rpc_2_is_refused_by_id(server: InProcess) -> None:
    server.send({"jsonrpc": "1.0", "id": 5, "method": "workspace/symbol", "params": {"query": "x"}})
    server.send({"id": 6, "method": "workspace/symbol", "params": {"query": "x"}})
    for msg_id in (5, 6):
        answer = await server.answer(msg_id)
        assert answer["error"]["code"] == INVALID_REQUEST and '"2.0"' in answer["error"]["message"]
    server.send({"jsonrpc": "1.0", "method": "initialized", "params": {}})  # a notification: dropped
    server.send(request(7, "workspace/symbol", {"query": "x"}))
    assert (await server.answer(7))["result"] == []


async def test_requests_after_shutdown_are_answered_invalid_request(server: InProcess) -> None:
    server.send(request(8, "shutdown"))
    assert (await server.answer(8))["result"] is None
    server.send(
        request(
            9, "textDocument/hover", {"textDocument": {"uri": "file:///x.md"}, "position": {"line": 0, "character": 0}}
        )
    )
    answer = await server.answer(9)
    assert answer["error"]["code"] == INVALID_REQUEST and "after shutdown" in answer["error"]["message"]


async def test_notifications_after_shutdown_are_dropped(server: InProcess) -> None:
    server.send(request(10, "shutdown"))
    assert (await server.answer(10))["result"] is None
    uri = "file:///nowhere/spec.md"
    server.send(
        {
            "jsonrpc": "2.0",
            "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": "# x"}},
        }
    )
    server.send(request(11, "workspace/symbol", {"query": "x"}))
    assert (await server.answer(11))["error"]["code"] == INVALID_REQUEST
    assert uri not in server.server.session.documents
