"""`gemstack-lsp serve`'s command line: the editors' forms skip the parser, and mean the same."""

from __future__ import annotations

import pytest

from gemstack_lsp import cli
from gemstack_lsp.commands import serve


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ([], (None, "warning")),
        (["--stdio"], (None, "warning")),
        (["--stdio", "--log-level", "debug"], (None, "debug")),
        (["--tcp", "127.0.0.1:2087"], ("127.0.0.1:2087", "warning")),
    ],
)
def test_serve_arguments(monkeypatch: pytest.MonkeyPatch, argv: list[str], expected: tuple[str | None, str]) -> None:
    calls: list[tuple[str | None, str]] = []
    monkeypatch.setattr(serve, "serve", lambda tcp, log_level: calls.append((tcp, log_level)) or 0)
    assert cli.main(["serve", *argv]) == 0
    assert calls == [expected]


def test_a_bad_serve_argument_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["serve", "--log-level", "loud"])
    assert exc.value.code == 2
    assert "--log-level" in capsys.readouterr().err
