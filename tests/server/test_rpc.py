"""The JSON-RPC layer is ours (``server/rpc.py``): pygls's private names are never touched, and
every request gets an answer (invalid params, an unknown method, a failing handler)."""

from __future__ import annotations

import ast
import inspect
import logging
from pathlib import Path
from typing import Any

import pygls
import pytest
from inprocess import InProcess, notification, request

from gemstack_lsp.server import server as server_module

ROOT = Path(__file__).resolve().parents[2]


def _pygls_private_names() -> set[str]:
    """Every ``_name`` pygls defines: methods, functions and attributes (not dunders)."""
    names: set[str] = set()
    for path in Path(pygls.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            name = None
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = node.name
            elif isinstance(node, ast.Attribute):
                name = node.attr
            if name and name.startswith("_") and not name.startswith("__"):
                names.add(name)
    return names


def _our_private_uses(names: set[str]) -> list[str]:
    """``x._name`` in our package and benchmarks where ``_name`` is one of pygls's, except on
    ``self``/``cls`` of a class that is not pygls's (our own attributes may share a name)."""
    pygls_subclasses = {
        cls.__name__
        for cls in vars(server_module).values()
        if inspect.isclass(cls) and any(base.__module__.startswith("pygls") for base in cls.__mro__[1:])
    }
    found: list[str] = []
    for base in (ROOT / "gemstack_lsp", ROOT / "bench", ROOT / "tests" / "lsp", ROOT / "tests" / "server"):
        for path in base.rglob("*.py"):
            tree = ast.parse(path.read_text("utf-8"))
            for cls in [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]:
                for node in ast.walk(cls):
                    node.owner = cls.name  # type: ignore[attr-defined]
            for node in ast.walk(tree):
                if not isinstance(node, ast.Attribute) or node.attr not in names:
                    continue
                on_self = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
                owner = getattr(node, "owner", None)
                if on_self and owner not in pygls_subclasses:
                    continue
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.attr}")
    return found


def test_no_private_name_of_pygls_is_used() -> None:
    assert _our_private_uses(_pygls_private_names()) == []


def test_our_pygls_subclasses_override_no_private_method() -> None:
    for cls in vars(server_module).values():
        if not inspect.isclass(cls) or cls.__module__ != server_module.__name__:
            continue
        pygls_bases = [b for b in cls.__mro__[1:] if b.__module__.startswith("pygls")]
        if not pygls_bases:
            continue
        own = {n for n in vars(cls) if n.startswith("_") and not n.startswith("__")}
        assert own == set(), (cls.__name__, own)


@pytest.fixture
async def server() -> Any:
    running = InProcess()
    running.send(request(1, "initialize", {"processId": None, "rootUri": None, "capabilities": {}}))
    assert "result" in await running.answer(1)
    running.send(notification("initialized", {}))
    yield running
    await running.close()


async def test_invalid_params_are_refused_with_the_reason(server: InProcess) -> None:
    position = {"line": -1, "character": 0}
    server.send(request(2, "textDocument/hover", {"textDocument": {"uri": "file:///x.md"}, "position": position}))
    server.send(request(3, "workspace/symbol"))  # params omitted
    server.send(request(4, "textDocument/hover", {"position": {"line": 0, "character": 0}}))
    for msg_id in (2, 3, 4):
        answer = await server.answer(msg_id)
        assert answer["error"]["code"] == -32602, answer
        assert "Invalid params for" in answer["error"]["message"]
    assert "textDocument" in (await server.answer(4))["error"]["message"]


async def test_a_notification_with_invalid_params_is_logged_once(
    server: InProcess, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="gemstack_lsp"):
        for _ in range(3):
            server.send(notification("textDocument/didOpen", {"textDocument": {"uri": 5}}))
        server.send(request(5, "workspace/symbol", {"query": "x"}))
        assert (await server.answer(5))["result"] == []
    assert sum("invalid params" in r.getMessage() for r in caplog.records) == 1


async def test_an_unknown_method_and_a_failing_handler_are_answered(server: InProcess) -> None:
    @server.server.feature("test/boom")
    def boom(params: Any) -> None:
        raise RuntimeError("deliberate")

    server.send(request(6, "no/suchMethod", {}))
    assert (await server.answer(6))["error"]["code"] == -32601
    server.send(request(7, "test/boom", {}))
    answer = await server.answer(7)
    assert answer["error"]["code"] == -32603 and "deliberate" in answer["error"]["message"]
    server.send(notification("no/suchNotification", {}))
    server.send(request(8, "workspace/symbol", {"query": "x"}))
    assert (await server.answer(8))["result"] == []


async def test_messages_that_are_no_requests_are_answered_with_a_null_id(server: InProcess) -> None:
    server.send(b"Content-Length: 1\r\n\r\n7")
    assert (await server.answer(None))["error"]["code"] == -32600
    server.send({"jsonrpc": "2.0", "id": {"an": "object"}, "method": "shutdown"})
    server.send(request(9, "workspace/symbol", {"query": "x"}))
    assert (await server.answer(9))["result"] == []
    assert sum(m.get("id") is None and "error" in m for m in server.out.messages) == 2


async def test_a_request_to_the_client_is_answered_and_structured(server: InProcess) -> None:
    from lsprotocol import types as lsp

    future = server.server.protocol.send_request_async(
        lsp.WORKSPACE_CONFIGURATION, lsp.ConfigurationParams(items=[lsp.ConfigurationItem(section="gemstack")])
    )
    sent = next(m for m in server.out.messages if m.get("method") == lsp.WORKSPACE_CONFIGURATION)
    server.send({"jsonrpc": "2.0", "id": sent["id"], "result": [{"severity": "error"}]})
    assert list(await future) == [{"severity": "error"}]  # structured as lsprotocol types it (a sequence)
    failing = server.server.protocol.send_request_async(lsp.WORKSPACE_CONFIGURATION, lsp.ConfigurationParams(items=[]))
    sent = [m for m in server.out.messages if m.get("method") == lsp.WORKSPACE_CONFIGURATION][-1]
    server.send({"jsonrpc": "2.0", "id": sent["id"], "error": {"code": -32603, "message": "no"}})
    with pytest.raises(Exception, match="no"):
        await failing


def test_the_malloc_arena_limit_yields_to_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert server_module.limit_malloc_arenas() is False
    monkeypatch.delenv("MALLOC_ARENA_MAX")
    assert isinstance(server_module.limit_malloc_arenas(), bool)  # True on glibc, False elsewhere


def test_serving_raises_the_youngest_gc_threshold() -> None:
    import gc

    before = gc.get_threshold()
    try:
        server_module.tune_gc()
        assert gc.get_threshold() == (server_module.GC_THRESHOLD, *before[1:])
    finally:
        gc.set_threshold(*before)
