"""`gemstack-lsp`: the command line. Each subcommand lives in ``gemstack_lsp.commands``.

Start-up stays cheap: only the chosen subcommand's module is imported, so `check` never
loads pygls and `serve` never loads the CLI reporters.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
import traceback
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from gemstack_lsp import __version__

if TYPE_CHECKING:
    import argparse

    from gemstack_lsp.core.i18n import Language

#: subcommand -> (module under gemstack_lsp.commands, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("serve", "run the language server (stdio by default)"),
    "check": ("check", "analyse repositories and print every finding (text, JSON, SARIF, GitHub or GitLab)"),
    "context": ("context", "generate, verify or show the context capsule (Upgrade D)"),
    "gate": ("gate", "evaluate the provider and billable-action gates (Upgrade C)"),
    "plan": ("plan", "the safe plan writer: read-plan, snapshot, write-plan (evidence provenance v2)"),
}


def build_parser() -> argparse.ArgumentParser:
    """The whole command line's parser, in the run's language (``commands.parser``)."""
    from gemstack_lsp.commands.parser import Parser

    parser = Parser(prog="gemstack-lsp", description="Gemstack language server and checks.")
    parser.add_argument("--version", action="version", version=f"gemstack-lsp {__version__}")
    parser.add_argument(
        "--lang",
        choices=LANG_CHOICES,
        help="language of every message (default: LC_ALL, LC_MESSAGES or LANG; Spanish when it starts with es)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in SUBCOMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        importlib.import_module(f"gemstack_lsp.commands.{module}").add_arguments(p)
    return parser


#: The exit status of an internal error (findings are 1, so CI can tell a crash from a verdict).
EXIT_INTERNAL_ERROR = 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command: its exit status, ``EXIT_INTERNAL_ERROR`` when it raised.

    An unexpected exception is reported on stderr in one line (the command, the error and
    where it was raised) instead of a traceback; a reader that went away (``... | head``)
    ends the command quietly.
    """
    from gemstack_lsp.commands.output import EXIT_BROKEN_PIPE, prepare_streams, silence_stdout

    prepare_streams()
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        args_list, language = _language(args_list)
    except ValueError as exc:
        from gemstack_lsp.commands.output import say

        say(f"gemstack-lsp: {exc}", err=True)
        return 2
    from gemstack_lsp.core import i18n

    token = i18n.set_language(language)
    try:
        return _dispatch(args_list)
    except BrokenPipeError:
        silence_stdout()
        return EXIT_BROKEN_PIPE
    except Exception as exc:  # the last line of defence: never a traceback, always status 2
        return internal_error(args_list[0] if args_list else "", exc)
    finally:
        i18n.reset_language(token)


def run() -> NoReturn:
    """The ``gemstack-lsp`` program (the console script, ``python -m gemstack_lsp``): ``main``
    with the process's arguments, its status the process's.

    After ``check`` the process ends as soon as its output is flushed (``os._exit``, as mypy
    ends): the interpreter's teardown would free, one by one, every parse, finding and unit
    result of the repository just checked (some 30 ms at 500 features) and run nothing else, as
    ``check`` writes no file and leaves no process or thread behind. Every other command ends
    the usual way."""
    argv = sys.argv[1:]
    code = main(argv)
    try:
        command = _language(list(argv))[0][:1]
    except ValueError:
        command = []
    if command == ["check"]:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):  # a reader gone, a stream closed
                stream.flush()
        os._exit(code)
    sys.exit(code)


LANG_CHOICES = ("en", "es")


def _language(args_list: list[str]) -> tuple[list[str], Language]:
    """The arguments without ``--lang``, and the language of every message this run prints.

    ``--lang en|es`` (anywhere before a ``--``; not for ``plan``, whose arguments are the
    reference helper's) wins over ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` (a value starting with
    ``es`` is Spanish). Raises ``ValueError`` for a value that is neither (its message in the
    environment's language).
    """
    import os

    from gemstack_lsp.core import i18n

    flag: str | None = None
    rest: list[str] = []
    forward = bool(args_list) and args_list[0] == "plan"
    i = 0
    while i < len(args_list):
        arg = args_list[i]
        if forward or arg == "--":
            rest.extend(args_list[i:])
            break
        if arg == "--lang" or arg.startswith("--lang="):
            if arg == "--lang":
                if i + 1 >= len(args_list):
                    raise ValueError(i18n.ui("cli.lang_needs_value", i18n.cli_language(None, os.environ)))
                value = args_list[i + 1]
                i += 2
            else:
                value = arg.split("=", 1)[1]
                i += 1
            if value not in LANG_CHOICES:
                language = i18n.cli_language(None, os.environ)
                raise ValueError(i18n.ui("cli.lang_invalid", language, value=repr(value)))
            flag = value
            continue
        rest.append(arg)
        i += 1
    return rest, i18n.cli_language(flag, os.environ)


def internal_error(command: str, exc: BaseException) -> int:
    """Say on stderr that ``command`` failed on an internal error; returns ``EXIT_INTERNAL_ERROR``."""
    from gemstack_lsp.commands.output import say

    where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    at = f" ({where.filename.rsplit('/', 1)[-1]}:{where.lineno})" if where else ""
    name = f"gemstack-lsp {command}".strip()
    from gemstack_lsp.core import i18n

    error = f"{type(exc).__name__}: {exc}"
    say(i18n.ui("internal.cli", i18n.current_language(), name=name, error=error, at=at), err=True)
    return EXIT_INTERNAL_ERROR


def _dispatch(args_list: list[str]) -> int:
    # `plan` forwards its arguments verbatim: the reference helper's parser rules apply.
    if args_list and args_list[0] == "plan":
        from gemstack_lsp.commands import plan

        return plan.run_raw(args_list[1:])
    if args_list and args_list[0] in SUBCOMMANDS:
        # Build only the chosen subcommand's parser, keeping start-up small.
        name = args_list[0]
        module_name, help_text = SUBCOMMANDS[name]
        module = importlib.import_module(f"gemstack_lsp.commands.{module_name}")
        run_argv = getattr(module, "run_argv", None)
        if run_argv is not None:
            # The subcommand parses its own arguments (e.g. to report errors as JSON).
            code: int = run_argv(args_list[1:])
            return code
        from gemstack_lsp.commands.parser import Parser

        parser: argparse.ArgumentParser = Parser(prog=f"gemstack-lsp {name}", description=help_text)
        module.add_arguments(parser)
        args = parser.parse_args(args_list[1:])
        result: int = module.run(args)
        return result
    parser = build_parser()
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help()
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
