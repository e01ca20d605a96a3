"""Request handlers are functions of ``(view, params)``: they never see the server.

Issue 22 item 1: a request's view is taken on the event loop at dispatch, and the handler, run
on a worker, reads nothing but that view and its params. These tests hold every handler
registered with ``requests.request`` to it, and check that the view is frozen: a later edit or
setting does not change what a view taken before it answers.
"""

from __future__ import annotations

import dis
import inspect
from pathlib import Path
from types import CodeType

from lsprotocol import types as lsp

from gemstack_lsp.server.app import create_server
from gemstack_lsp.server.context import RequestView, take_view
from gemstack_lsp.uris import path_to_uri


def _codes(code: CodeType) -> list[CodeType]:
    out = [code]
    for const in code.co_consts:
        if isinstance(const, CodeType):
            out.extend(_codes(const))
    return out


def _globals_read(fn: object) -> set[str]:
    """The global and free names a function's code (and its nested functions') reads."""
    names: set[str] = set()
    for code in _codes(fn.__code__):  # type: ignore[attr-defined]
        names.update(code.co_freevars)
        for ins in dis.get_instructions(code):
            if ins.opname in {"LOAD_GLOBAL", "LOAD_NAME", "LOAD_DEREF"}:
                names.add(str(ins.argval))
    return names


def test_every_request_handler_takes_a_view_and_never_the_server() -> None:
    server = create_server(load_features=True)  # every feature module, not only those loaded so far
    handlers = dict(server.view_methods)
    assert lsp.TEXT_DOCUMENT_HOVER in handlers and lsp.WORKSPACE_SYMBOL in handlers
    assert len(handlers) >= 20  # every request handler of the server, not a sample
    for method, fn in handlers.items():
        first = next(iter(inspect.signature(fn).parameters.values()))
        assert first.name == "view", method
        assert first.annotation in ("RequestView", RequestView), method
        # No path to the server: not as a parameter, a closure or a global.
        assert "server" not in inspect.signature(fn).parameters, method
        assert not {"server", "GemstackServer", "session"} & _globals_read(fn), method


def test_a_view_is_frozen_against_later_edits(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / ".gemstack").mkdir(parents=True)
    (root / "specs" / "001-x").mkdir(parents=True)
    spec = root / "specs" / "001-x" / "spec.md"
    spec.write_text("# Spec\n\nfirst\n", encoding="utf-8")
    server = create_server()
    session = server.session
    session.add_folder(path_to_uri(root))
    uri = path_to_uri(spec)
    session.open(uri, "# Spec\n\nfirst\n", 1, "markdown")
    params = lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=2, character=1)
    )
    view = take_view(server, lsp.TEXT_DOCUMENT_HOVER, params)
    before = view.document(uri)
    assert before is not None and before.text == "# Spec\n\nfirst\n"
    assert view.versions[uri] == 1
    # The loop goes on: an edit of the buffer, a new version.
    session.change(uri, 2, [lsp.TextDocumentContentChangeWholeDocument(text="# Spec\n\nsecond\n")])
    after = view.document(uri)
    assert after is before and after.text == "# Spec\n\nfirst\n"
    assert view.versions[uri] == 1 and dict(view.root_versions)[str(root.resolve())] == {uri: 1}
    assert take_view(server, lsp.TEXT_DOCUMENT_HOVER, params).versions[uri] == 2
