"""An analysis goes to the analysis thread as seldom as it can: the first trip computes the
open documents' units and converts their files, and brings the revision's findings back when
the edit outdated nothing else (a keystroke's usual case: one trip); otherwise the rest is
computed in slices, each trip converting what it computed."""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from inprocess import InProcess, notification, request

from gemstack_lsp.uris import path_to_uri

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "gemstack-reference" / "repo"
SPEC = "specs/009-context-capsule/spec.md"


async def test_a_keystroke_costs_one_trip_to_the_analysis_thread(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    uri = path_to_uri(str(root / SPEC))
    text = (root / SPEC).read_text("utf-8")
    server = InProcess()
    trips: Counter[str] = Counter()
    executor = server.server.diagnostics.executor
    submit = executor.submit

    def counted(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        # ``_stoppable(obsolete, work, ...)``: the work's name; else the function's.
        work = args[1] if getattr(fn, "__name__", "") == "_stoppable" else fn
        trips[getattr(work, "__name__", repr(work))] += 1
        return submit(fn, *args, **kwargs)

    executor.submit = counted  # type: ignore[method-assign]
    try:
        server.send(
            request(1, "initialize", {"processId": None, "rootUri": path_to_uri(str(root)), "capabilities": {}})
        )
        await server.answer(1)
        server.send(notification("initialized", {}))
        server.send(
            notification(
                "textDocument/didOpen",
                {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}},
            )
        )
        await server.published(uri, 1)
        await _settled(server, 2)
        before = trips.copy()
        # The first analysis: the open feature's units, then the other features in slices.
        assert before["first"] == 1 and before["rest"] >= 1, before
        at = text.index("Gemstack")
        for version in range(2, 12):
            text = text[:at] + "x" + text[at:]
            server.send(
                notification(
                    "textDocument/didChange",
                    {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
                )
            )
            await server.published(uri, version)
            await _settled(server, 100 + version)
        made = trips - before
        assert made == Counter({"first": 10}), made
    finally:
        executor.submit = submit  # type: ignore[method-assign]
        await server.close()


async def _settled(server: InProcess, msg_id: int) -> None:
    """Wait until every analysis owed has been delivered (``gemstack/status`` answers then)."""
    server.send(request(msg_id, "gemstack/status", None))
    answer = await server.answer(msg_id)
    assert "result" in answer, answer
