"""Feature modules load on their first message (``server/features.py``), and nothing shows it.

``initialize`` is answered before the hover, completion, navigation... modules are imported:
their methods, options and commands are declared by a table. These tests hold the table to
what each module registers, check that the capabilities are the same whether the modules are
loaded or not, that a first request or command loads its module and is answered, and that
creating the server imports none of them, nor the analysis (loaded after the answer).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

import pytest
from inprocess import Collector, InProcess, notification, request
from lsprotocol import types as lsp

from gemstack_lsp.server.app import create_server
from gemstack_lsp.server.features import LAZY_FEATURES, LazyFeature

#: A client that supports what the capabilities builder looks at (semantic tokens, pull
#: diagnostics, dynamic watchers, position encodings), and one that declares nothing.
RICH_CLIENT: dict[str, Any] = {
    "general": {"positionEncodings": ["utf-8", "utf-16"]},
    "workspace": {
        "workspaceFolders": True,
        "configuration": True,
        "didChangeWatchedFiles": {"dynamicRegistration": True},
        "semanticTokens": {"refreshSupport": True},
        "inlayHint": {"refreshSupport": True},
        "codeLens": {"refreshSupport": True},
    },
    "textDocument": {
        "diagnostic": {"dynamicRegistration": False, "relatedDocumentSupport": True},
        "semanticTokens": {
            "requests": {"full": {"delta": True}, "range": True},
            "tokenTypes": ["variable", "function"],
            "tokenModifiers": ["declaration"],
            "formats": ["relative"],
        },
        "completion": {"completionItem": {"snippetSupport": False}},
        "hover": {"contentFormat": ["markdown"]},
        "rename": {"prepareSupport": True},
    },
}
CLIENTS = [RICH_CLIENT, {}]


def test_the_table_declares_what_each_module_registers() -> None:
    for feature in LAZY_FEATURES:
        server = create_server()
        fm = server.protocol.fm
        methods, commands = set(fm.features), list(fm.commands)
        server.load_feature(feature)
        assert set(fm.features) - methods == {m for m, _ in feature.methods}, feature.module
        assert [c for c in fm.commands if c not in commands] == list(feature.commands), feature.module
        for method, options in feature.methods:
            assert fm.feature_options.get(method) == options, method


def test_every_module_is_declared_once() -> None:
    modules = [f.module for f in LAZY_FEATURES]
    assert len(modules) == len(set(modules))
    methods = [m for f in LAZY_FEATURES for m, _ in f.methods]
    assert len(methods) == len(set(methods))
    server = create_server()
    assert not set(methods) & set(server.protocol.fm.features)  # nothing is both eager and lazy


async def _initialize(running: InProcess, capabilities: dict[str, Any]) -> dict[str, Any]:
    running.send(request(1, "initialize", {"processId": None, "rootUri": None, "capabilities": capabilities}))
    answer = await running.answer(1)
    result: dict[str, Any] = answer["result"]
    return result


class _Loaded(InProcess):
    """An in-process server whose feature modules are all loaded before it starts."""

    def __init__(self) -> None:
        self.server = create_server(load_features=True)
        self.out = Collector()
        self.input = asyncio.StreamReader()
        self.task = asyncio.ensure_future(self.server.serve(self.input, self.out))


@pytest.mark.parametrize("capabilities", CLIENTS, ids=["rich", "bare"])
async def test_initialize_answers_the_same_capabilities_loaded_or_not(capabilities: dict[str, Any]) -> None:
    lazy, loaded = InProcess(), _Loaded()
    try:
        declared = await _initialize(lazy, capabilities)
        assert lazy.server.lazy_methods, "initialize loaded the feature modules"
        assert not loaded.server.lazy_methods
        assert declared == await _initialize(loaded, capabilities)
        assert declared["capabilities"]["executeCommandProvider"]["commands"][-1] == "gemstack.renameFrozenContract"
    finally:
        await lazy.close()
        await loaded.close()


async def test_a_first_request_or_command_loads_its_module_and_is_answered() -> None:
    running = InProcess()
    try:
        await _initialize(running, RICH_CLIENT)
        running.send(notification("initialized", {}))
        position = {"line": 0, "character": 0}
        doc = {"uri": "file:///nowhere/spec.md"}
        running.send(request(2, lsp.TEXT_DOCUMENT_HOVER, {"textDocument": doc, "position": position}))
        assert (await running.answer(2)).get("result", "no result") is None
        lazy = running.server.lazy_methods
        assert lsp.TEXT_DOCUMENT_HOVER not in lazy and lsp.TEXT_DOCUMENT_COMPLETION in lazy
        # A command of a module not loaded yet: loaded, then run (and refused: no arguments).
        assert "gemstack.renameFrozenContract" in running.server.lazy_commands
        running.send(request(3, lsp.WORKSPACE_EXECUTE_COMMAND, {"command": "gemstack.renameFrozenContract"}))
        message = (await running.answer(3))["error"]["message"]
        assert "takes [uri" in message and "is not defined" not in message  # the command's own refusal
        commands = running.server.lazy_commands
        assert lsp.TEXT_DOCUMENT_RENAME not in lazy and "gemstack.renameFrozenContract" not in commands
        assert "gemstack.checkWorkspace" in commands  # another module's
        # An unknown method is still unknown.
        running.send(request(4, "textDocument/noSuchThing", {}))
        assert (await running.answer(4))["error"]["code"] == -32601
    finally:
        await running.close()


def test_creating_the_server_imports_no_feature_module_and_no_analysis() -> None:
    modules = [f"gemstack_lsp.server.{f.module}" for f in LAZY_FEATURES]
    modules += ["gemstack_lsp.ide", "gemstack_lsp.ide.completion", "gemstack_lsp.ide.hover", "gemstack_lsp.ide.lens"]
    # Nor the analysis: it is loaded once initialize is answered (``lifecycle._preload_analysis``).
    modules += ["gemstack_lsp.host.analysis", "gemstack_lsp.core.rules", "gemstack_lsp.core.repo"]
    code = (
        "import sys\n"
        "from gemstack_lsp.server.app import create_server\n"
        "create_server()\n"
        f"print(sorted(set({modules!r}) & set(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


async def test_a_module_that_cannot_load_still_answers_its_request() -> None:
    running = InProcess()
    try:
        await _initialize(running, {})
        broken = LazyFeature("no_such_module", (("gemstack/broken", None),))
        running.server.declare(broken)
        running.send(request(2, "gemstack/broken", {}))
        answer = await running.answer(2)
        assert answer["error"]["code"] == -32603 and "no_such_module" in answer["error"]["message"]
    finally:
        await running.close()
