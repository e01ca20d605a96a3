"""The refresh requests after analyses (``server/refresh.py``): one round per pause in the
typing, what the client declared and the settings allow, nothing after shutdown.

The listener runs against a stand-in server on a real event loop, with a short quiet time."""

from __future__ import annotations

import asyncio
from concurrent.futures import Future
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest
from lsprotocol import types as lsp

from gemstack_lsp.server import refresh

QUIET = 0.05


@dataclass
class FakeServer:
    """What the listener reads of a server, and the requests it sent."""

    sent: list[str] = field(default_factory=list)
    lens_refresh: bool = True
    tokens_refresh: bool = True
    hints_refresh: bool = True
    settings: Any = field(
        default_factory=lambda: SimpleNamespace(code_lens=True, semantic_tokens=True, inlay_hints=True)
    )
    shutting_down: bool = False
    listeners: list[Any] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.diagnostics = SimpleNamespace(listeners=self.listeners)
        self.endpoint = SimpleNamespace(shutting_down=False)
        self.session = SimpleNamespace(
            client=SimpleNamespace(code_lens_refresh=self.lens_refresh),
            settings_for_root=lambda root: self.settings,
        )
        self.client_capabilities = lsp.ClientCapabilities(
            workspace=lsp.WorkspaceClientCapabilities(
                semantic_tokens=lsp.SemanticTokensWorkspaceClientCapabilities(refresh_support=self.tokens_refresh),
                inlay_hint=lsp.InlayHintWorkspaceClientCapabilities(refresh_support=self.hints_refresh),
            )
        )

    def _sent(self, name: str) -> Future[Any]:
        self.sent.append(name)
        future: Future[Any] = Future()
        future.set_result(None)
        return future

    def workspace_code_lens_refresh(self, params: None) -> Future[Any]:
        return self._sent("lens")

    def workspace_semantic_tokens_refresh(self, params: None) -> Future[Any]:
        return self._sent("tokens")

    def workspace_inlay_hint_refresh(self, params: None) -> Future[Any]:
        return self._sent("hints")

    def analysed(self, root: str = "/r", changed: frozenset[str] = frozenset({"specs/a/spec.md"})) -> None:
        for listener in self.listeners:
            listener(root, changed)


@pytest.fixture(autouse=True)
def short_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(refresh, "QUIET", QUIET)


def wired(**kwargs: Any) -> FakeServer:
    server = FakeServer(**kwargs)
    refresh.register(server)  # type: ignore[arg-type]
    return server


async def settle() -> None:
    await asyncio.sleep(QUIET * 4)


async def test_a_burst_of_analyses_is_refreshed_once_it_is_quiet() -> None:
    server = wired()
    server.analysed()  # the repository's first analysis: tokens and hints, not lenses
    await settle()
    assert server.sent == ["tokens", "hints"]
    server.sent.clear()
    for _ in range(30):  # typing: one analysis per keystroke, each sooner than the quiet time
        server.analysed()
        await asyncio.sleep(QUIET / 5)
        assert server.sent == []  # nothing while the analyses keep coming
    await settle()
    assert server.sent == ["lens", "tokens", "hints"]  # one round for the whole burst
    await settle()
    assert server.sent == ["lens", "tokens", "hints"]  # and nothing more


async def test_each_repository_has_its_own_round() -> None:
    server = wired()
    server.analysed("/a")
    server.analysed("/b")
    await settle()
    assert server.sent == ["tokens", "hints", "tokens", "hints"]


async def test_an_analysis_that_changed_nothing_asks_for_nothing() -> None:
    server = wired()
    server.analysed(changed=frozenset())
    await settle()
    assert server.sent == []


async def test_only_what_the_client_declared_and_the_settings_allow() -> None:
    server = wired(lens_refresh=False, hints_refresh=False)
    server.analysed()
    server.analysed()
    await settle()
    assert server.sent == ["tokens"]
    server.sent.clear()
    server.settings.semantic_tokens = False  # read when the round is sent
    server.analysed()
    await settle()
    assert server.sent == []


async def test_nothing_is_asked_after_shutdown() -> None:
    server = wired()
    server.analysed()
    server.endpoint.shutting_down = True  # shutdown arrived before the quiet time ended
    await settle()
    assert server.sent == []


async def test_a_client_that_went_away_is_not_an_error() -> None:
    server = wired()

    def gone(params: None) -> Future[Any]:
        raise RuntimeError("the pipe is closed")

    server.workspace_semantic_tokens_refresh = gone  # type: ignore[method-assign]
    server.analysed()
    await settle()
    assert server.sent == []
