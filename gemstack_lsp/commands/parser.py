"""The command line's argument parser, in the run's language.

``Parser`` is an ``argparse.ArgumentParser`` that speaks the language ``cli.main`` chose
(``i18n.current_language()`` when the parser is made): its ``description`` and every
``help`` given to ``add_argument`` or ``add_parser``, argparse's own words (``usage:``,
``positional arguments``, ``options``, the help of ``-h`` and ``--version``) and its error
messages (``the following arguments are required: …``) are looked up in the Spanish catalogue
(``core/i18n_es_cli.py``). In English nothing changes: argparse prints what it always printed.
A text without Spanish stays English as a whole. Subparsers are ``Parser`` too.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from gemstack_lsp.core.i18n import Language


def _language() -> Language:
    from gemstack_lsp.core import i18n

    return i18n.current_language()


def help_text(text: str, language: Language) -> str:
    """A help text (or one of argparse's own words) in ``language``."""
    if language == "en" or text == argparse.SUPPRESS:
        return text
    from gemstack_lsp.core import i18n

    return i18n.localize(i18n.CLI_HELP, text, language)


def error_text(message: str, language: Language) -> str:
    """One of argparse's error messages in ``language``."""
    if language == "en":
        return message
    from gemstack_lsp.core import i18n

    return i18n.localize(i18n.ARGPARSE, message, language)


class _Formatter(argparse.HelpFormatter):
    """argparse's formatter with the usage line's prefix in the parser's language."""

    language: Language = "en"

    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
        if prefix is None and self.language != "en":
            prefix = help_text("usage: ", self.language)
        super().add_usage(usage, actions, groups, prefix)


def _formatter_for(language: Language) -> type[argparse.HelpFormatter]:
    return type("_Formatter", (_Formatter,), {"language": language})


class _SubParsers(argparse._SubParsersAction):  # type: ignore[type-arg]
    """Subparsers whose one-line ``help`` (the parent's list of commands) is translated too."""

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        if isinstance(kwargs.get("help"), str):
            kwargs["help"] = help_text(kwargs["help"], _language())
        return super().add_parser(name, **kwargs)


class Parser(argparse.ArgumentParser):
    """An argument parser in the run's language (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.language: Language = _language()
        if self.language != "en":
            if isinstance(kwargs.get("description"), str):
                kwargs["description"] = help_text(kwargs["description"], self.language)
            kwargs.setdefault("formatter_class", _formatter_for(self.language))
        super().__init__(*args, **kwargs)
        if self.language != "en":
            for group in (self._positionals, self._optionals):
                if group.title is not None:
                    group.title = help_text(group.title, self.language)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        if self.language != "en":
            if isinstance(kwargs.get("help"), str):
                kwargs["help"] = help_text(kwargs["help"], self.language)
            elif kwargs.get("action") == "version" and "help" not in kwargs:
                kwargs["help"] = help_text("show program's version number and exit", self.language)
        return super().add_argument(*args, **kwargs)

    def add_subparsers(self, **kwargs: Any) -> Any:
        kwargs.setdefault("action", _SubParsers)
        return super().add_subparsers(**kwargs)

    def error(self, message: str) -> NoReturn:
        super().error(error_text(message, self.language))
