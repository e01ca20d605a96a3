"""One language per message: English by default, the reference's Spanish when the user asks.

Checks write every message in English and never think about languages. The output boundary
(``gemstack-lsp check``'s report, the server's conversion to diagnostics, hovers) translates a
finding just before showing it: ``localize_finding(finding, "es")`` matches the finding's
English message against the English templates registered for its code and, when one matches,
renders that template's Spanish twin with the same values. A message no template matches stays
English as a whole, so no message ever mixes the two languages.

Templates
---------
A template is the message with each variable part written as a named placeholder::

    register(
        "CLOSURE_MANIFEST_MISSING",
        'closure.json does not exist in {feature}. Run "gemstack collect" to produce the mechanical evidence.',
        'closure.json no existe en {feature}. Ejecuta "gemstack collect" para generar la evidencia mecánica.',
    )

``{name}`` takes any text. ``{name:vocabulary}`` takes a value that is itself English text from a
known set (a JSON parser's error, a reason phrase) and is translated through that vocabulary's
templates (registered with ``register_phrase``); when it cannot be, the whole message stays
English. ``{{`` and ``}}`` are literal braces. Two placeholders must be separated by some text.

Matching is linear in the message's length: the template's first literal must start the message,
each placeholder takes the text up to the first occurrence of the literal that follows it, and
the last literal must end the message (anchored, one forward pass, no backtracking).

Registration hook (for the modules that add checks, and for the lead)
---------------------------------------------------------------------
- ``register(code, english_template, spanish_template)``: one message form of ``code``.
- ``register_table(SPANISH)``: a module's ``SPANISH`` dict, ``{code: [(english, spanish), ...]}``
  (a single ``(english, spanish)`` pair is accepted in place of the list).
- ``register_phrase(vocabulary, english, spanish)``: a value a placeholder may translate.
- ``register_catalogue(code, summary, explanation)``: the Spanish catalogue text of ``code``
  (hover, SARIF rule descriptions).
- ``register_aligned(ENGLISH, SPANISH)`` / ``register_module(module)``: two tables keyed by code
  whose templates correspond index for index. Every module of ``gemstack_lsp.core`` that defines
  both ``ENGLISH`` and ``SPANISH`` is registered this way on first use, without being named here.

Checks that want their Spanish available call ``register_table(SPANISH)`` at import time (the
Spanish of the existing checks lives in ``core/i18n_es.py``). ``missing_templates`` lists the
messages of a set of findings that have no Spanish yet; the test suite fails on any.

Choosing the language
---------------------
``language_of_locale`` maps a locale (LSP ``initialize``'s ``locale``, ``LANG``) to ``"es"`` when
it starts with ``es``, else ``"en"``. ``cli_language`` applies the CLI's rule: ``--lang`` wins,
then ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` (the first that is set). The CLI stores its choice
with ``set_language`` (a context variable) and its reporters read ``current_language``; the
server passes its session's language explicitly.
"""

from __future__ import annotations

import contextvars
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Literal, TypeAlias

from gemstack_lsp.core.findings import CATALOGUE, CodeInfo, Finding, code_info
from gemstack_lsp.core.frozen import record

Language: TypeAlias = Literal["en", "es"]
DEFAULT_LANGUAGE: Language = "en"

#: The code under which related-location messages and fix titles are registered.
RELATED = "@related"
FIX = "@fix"
#: The code under which the notes a command prints beside its findings are registered.
NOTE = "@note"
#: The code under which the messages the server shows (``window/showMessage``) are registered.
SERVER_MESSAGE = "@server"
#: The code under which code-lens titles are registered.
LENS_TITLE = "@lens"
#: The code under which code-action titles (beside the fixes' own) are registered.
ACTION_TITLE = "@action"
#: The code under which the errors of ``workspace/executeCommand`` (``CommandError``) are registered.
COMMAND_ERROR = "@command"
#: The code under which a request's refusals (rename, formatting) are registered.
REFUSAL = "@refusal"
#: The code under which inlay-hint labels and tooltips are registered.
INLAY_HINT = "@inlay"
#: The code under which completion labels, details and documentation are registered.
COMPLETION = "@completion"
#: The code under which the CLI's own messages on stderr (usage errors) are registered.
CLI_MESSAGE = "@cli"
#: The code under which the command line's ``--help`` texts (and argparse's own words) are registered.
CLI_HELP = "@help"
#: The code under which argparse's error messages are registered (their details: vocabulary ``argparse``).
ARGPARSE = "@argparse"
#: The code (and vocabulary) under which the cost gates' decision messages are registered.
GATE_DECISION = "@gate"
#: The code (and vocabulary) under which the safe plan writer's refusals are registered.
PLAN_MESSAGE = "@plan"
#: The code under which the reasons a finding is hidden (configuration, comment, exception) are registered.
SUPPRESSION_REASON = "@suppressed"
#: Every catalogue of front-end texts (templates by code), for the coverage test.
FRONT_END_CODES = (
    SERVER_MESSAGE,
    LENS_TITLE,
    ACTION_TITLE,
    COMMAND_ERROR,
    REFUSAL,
    INLAY_HINT,
    COMPLETION,
    NOTE,
    CLI_MESSAGE,
    CLI_HELP,
    ARGPARSE,
    GATE_DECISION,
    PLAN_MESSAGE,
    SUPPRESSION_REASON,
)
#: A vocabulary of its own: ``CODE: message``, the message translated by its code's templates.
FINDING_VOCABULARY = "finding"

_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)(?::([A-Za-z_][A-Za-z0-9_]*))?\}")
#: How deep vocabularies may nest (a phrase whose template has a phrase placeholder, ...).
_MAX_DEPTH = 8


@record
class _Slot:
    name: str
    vocabulary: str | None


@record
class Template:
    """One English message form and its Spanish twin, parsed for matching and rendering."""

    english: str
    spanish: str
    literals: tuple[str, ...]
    slots: tuple[_Slot, ...]
    #: The Spanish template as literal text and placeholder names, in order.
    spanish_parts: tuple[tuple[str, bool], ...]

    def match(self, message: str) -> dict[str, str] | None:
        """The placeholder values when ``message`` has this form (one forward pass), else ``None``."""
        lits = self.literals
        if not self.slots:
            return {} if message == lits[0] else None
        if not message.startswith(lits[0]):
            return None
        pos = len(lits[0])
        values: dict[str, str] = {}
        last = len(self.slots) - 1
        for i, slot in enumerate(self.slots):
            after = lits[i + 1]
            if i == last:
                end = len(message) - len(after)
                if end < pos or not message.endswith(after):
                    return None
                values[slot.name] = message[pos:end]
            else:
                found = message.find(after, pos)
                if found < 0:
                    return None
                values[slot.name] = message[pos:found]
                pos = found + len(after)
        return values

    def render(self, values: Mapping[str, str]) -> str:
        return "".join(values[text] if is_slot else text for text, is_slot in self.spanish_parts)


def _parse(template: str) -> tuple[list[str], list[_Slot]]:
    """Literal texts and placeholders of a template (``len(literals) == len(slots) + 1``)."""
    literals: list[str] = []
    slots: list[_Slot] = []
    current: list[str] = []
    pos = 0
    for m in _PLACEHOLDER.finditer(template):
        current.append(template[pos : m.start()])
        pos = m.end()
        if m.group(0) in ("{{", "}}"):
            current.append(m.group(0)[0])
            continue
        literals.append("".join(current))
        current = []
        slots.append(_Slot(m.group(1), m.group(2)))
    current.append(template[pos:])
    literals.append("".join(current))
    return literals, slots


def compile_template(english: str, spanish: str) -> Template:
    """Parse a pair of templates; raises ``ValueError`` when they cannot work together."""
    literals, slots = _parse(english)
    names = [s.name for s in slots]
    if len(set(names)) != len(names):
        raise ValueError(f"a placeholder is repeated in {english!r}")
    for i in range(1, len(slots)):
        if literals[i] == "":
            raise ValueError(f"two placeholders touch in {english!r}: text must separate them")
    es_literals, es_slots = _parse(spanish)
    unknown = {s.name for s in es_slots} - set(names)
    if unknown:
        raise ValueError(f"the Spanish template names unknown placeholders {sorted(unknown)}: {spanish!r}")
    parts: list[tuple[str, bool]] = []
    for i, slot in enumerate(es_slots):
        parts.append((es_literals[i], False))
        parts.append((slot.name, True))
    parts.append((es_literals[-1], False))
    return Template(english, spanish, tuple(literals), tuple(slots), tuple(p for p in parts if p != ("", False)))


_TEMPLATES: dict[str, list[Template]] = {}
_CATALOGUE_ES: dict[str, tuple[str, str]] = {}


def register(code: str, english: str, spanish: str) -> None:
    """Add (or replace) one message form of ``code`` with its Spanish."""
    template = compile_template(english, spanish)
    forms = _TEMPLATES.setdefault(code, [])
    forms[:] = [t for t in forms if t.english != english]
    forms.append(template)


def register_phrase(vocabulary: str, english: str, spanish: str) -> None:
    """Add a value a ``{name:vocabulary}`` placeholder may translate."""
    register(f"@{vocabulary}", english, spanish)


Pairs = Sequence[tuple[str, str]] | tuple[str, str]


def register_table(table: Mapping[str, Pairs]) -> None:
    """Register a module's ``SPANISH`` dict: ``{code: [(english, spanish), ...]}``."""
    for code, pairs in table.items():
        first = pairs[0]
        if isinstance(first, str):
            second = pairs[1]
            assert isinstance(second, str)
            register(code, first, second)
            continue
        for pair in pairs:
            assert not isinstance(pair, str)
            register(code, pair[0], pair[1])


def register_aligned(
    english: Mapping[str, Sequence[str] | str], spanish: Mapping[str, Sequence[str] | str], *, strict: bool = True
) -> list[tuple[str, str]]:
    """Register two tables keyed by code whose templates correspond index for index (a module's
    ``ENGLISH`` and ``SPANISH``; a single template may stand for a one-item list). Placeholders
    are ``str.format`` fields, which are this module's placeholders too.

    With ``strict`` a pair that cannot work as templates raises ``ValueError``; without, it is
    skipped (its message stays English) and returned as ``(code, english)``.
    """
    skipped: list[tuple[str, str]] = []
    for code, forms in english.items():
        es_forms = spanish.get(code)
        if es_forms is None:
            continue
        en_list = [forms] if isinstance(forms, str) else list(forms)
        es_list = [es_forms] if isinstance(es_forms, str) else list(es_forms)
        for en, es in zip(en_list, es_list, strict=False):
            try:
                register(code, en, es)
            except ValueError:
                if strict:
                    raise
                skipped.append((code, en))
    return skipped


def register_module(module: object, *, strict: bool = True) -> bool:
    """Register a check module's ``ENGLISH`` and ``SPANISH`` tables when it has both; True if it did."""
    english, spanish = getattr(module, "ENGLISH", None), getattr(module, "SPANISH", None)
    if isinstance(english, Mapping) and isinstance(spanish, Mapping):
        register_aligned(english, spanish, strict=strict)
        return True
    return False


_SUFFIXES: list[Template] = []


def register_suffix(english: str, spanish: str) -> None:
    """A note any finding's message may end with (``" ({feature} is not the active feature: ...)"``):
    one placeholder between two literals. A message that ends with it is translated head and
    note apart."""
    template = compile_template(english, spanish)
    if len(template.slots) != 1 or not template.literals[0] or not template.literals[1]:
        raise ValueError(f"a suffix has one placeholder between two literals: {english!r}")
    _SUFFIXES[:] = [t for t in _SUFFIXES if t.english != english]
    _SUFFIXES.append(template)


def _split_suffix(message: str) -> tuple[str, Template, dict[str, str]] | None:
    """(head, suffix template, its values) when ``message`` ends with a registered note."""
    for template in _SUFFIXES:
        first, last = template.literals
        if not message.endswith(last):
            continue
        end = len(message) - len(last)
        start = message.rfind(first, 0, end)
        if start < 0:
            continue
        return message[:start], template, {template.slots[0].name: message[start + len(first) : end]}
    return None


def register_catalogue(code: str, summary: str, explanation: str) -> None:
    """The Spanish summary and explanation of a catalogue code."""
    _CATALOGUE_ES[code] = (summary, explanation)


def templates(code: str) -> tuple[Template, ...]:
    _load()
    return tuple(_TEMPLATES.get(code, ()))


def translate(code: str, message: str, language: Language, _depth: int = 0) -> str | None:
    """``message`` of ``code`` in ``language``, or ``None`` when no template renders all of it."""
    if language == "en":
        return message
    _load()
    for template in _TEMPLATES.get(code, ()):
        values = template.match(message)
        if values is None:
            continue
        rendered: dict[str, str] = {}
        for slot in template.slots:
            value = values[slot.name]
            if slot.vocabulary is not None:
                if _depth >= _MAX_DEPTH:
                    break
                translated = (
                    _translate_coded(value, language, _depth + 1)
                    if slot.vocabulary == FINDING_VOCABULARY
                    else translate(f"@{slot.vocabulary}", value, language, _depth + 1)
                )
                if translated is None:
                    break
                value = translated
            rendered[slot.name] = value
        else:
            return template.render(rendered)
    return None


def _translate_coded(value: str, language: Language, depth: int) -> str | None:
    """``CODE: message`` with the message translated by the templates of ``CODE``."""
    code, sep, message = value.partition(": ")
    if not sep or not code or not all(c.isupper() or c.isdigit() or c == "_" for c in code):
        return None
    translated = translate(code, message, language, depth)
    return None if translated is None else f"{code}: {translated}"


def _translate_with_suffix(code: str, message: str, language: Language) -> str | None:
    translated = translate(code, message, language)
    if translated is not None:
        return translated
    split = _split_suffix(message)
    if split is None:
        return None
    head, suffix, values = split
    translated_head = translate(code, head, language)
    return None if translated_head is None else translated_head + suffix.render(values)


def localize(code: str, message: str, language: Language) -> str:
    """``message`` in ``language`` when a template covers it, else unchanged (English)."""
    if language == "en":
        return message
    _load()
    translated = _translate_with_suffix(code, message, language)
    return message if translated is None else translated


def localize_finding(finding: Finding, language: Language) -> Finding:
    """The finding with its message, related messages and fix titles in ``language``."""
    if language == "en":
        return finding
    return replace(
        finding,
        message=localize(finding.code, finding.message, language),
        related=tuple(replace(r, message=localize(RELATED, r.message, language)) for r in finding.related),
        fixes=tuple(replace(f, title=localize(FIX, f.title, language)) for f in finding.fixes),
    )


#: An OS error the plan writer quotes as the OS gives it: ``EACCES: permission denied, ...``.
_OS_CODED = re.compile(r"E[A-Z0-9]+: ")


def _plan_text(text: str, language: Language) -> str | None:
    """One refusal of the plan writer in ``language`` (the OS's own words stay as they are)."""
    if _OS_CODED.match(text):
        return text
    return translate(PLAN_MESSAGE, text, language)


def localize_plan_error(message: str, language: Language) -> str:
    """A refusal of the safe plan writer (``ProvenanceError.message``) in ``language``, with the
    recovery notes a failed write appends (what was preserved, what failed). Unchanged (English)
    when its head has no template; a preservation failure's detail that is the OS's text stays so.
    """
    if language == "en":
        return message
    _load(checks=False)
    from gemstack_lsp.core.i18n_es_plan import PLAN_TAILS

    found = sorted((at, marker) for marker in PLAN_TAILS if (at := message.find(marker)) >= 0)
    head = _plan_text(message[: found[0][0]] if found else message, language)
    if head is None:
        return message
    out = [head]
    for i, (at, marker) in enumerate(found):
        end = found[i + 1][0] if i + 1 < len(found) else len(message)
        value = message[at + len(marker) : end]
        out.append(PLAN_TAILS[marker])
        if marker == "; preservation failures: ":
            items = []
            for item in value.split(" | "):
                role, sep, detail = item.partition(": ")
                items.append(role + sep + (_plan_text(detail, language) or detail) if sep else item)
            value = " | ".join(items)
        out.append(value)
    return "".join(out)


def catalogue_text(code: str, language: Language) -> tuple[str, str]:
    """(summary, explanation) of a catalogue code in ``language`` (English when not translated)."""
    info: CodeInfo = code_info(code)
    if language == "es":
        _load()
        if code in _CATALOGUE_ES:
            return _CATALOGUE_ES[code]
    return info.summary, info.explanation


def missing_catalogue() -> list[str]:
    """Catalogue codes without Spanish summary and explanation."""
    _load()
    return [code for code in CATALOGUE if code not in _CATALOGUE_ES]


def missing_texts(code: str, texts: Iterable[str]) -> list[str]:
    """The texts of a front-end catalogue (``LENS_TITLE``, ``COMMAND_ERROR``, ...) without Spanish."""
    _load()
    out: list[str] = []
    for text in texts:
        if translate(code, text, "es") is None and text not in out:
            out.append(text)
    return out


def ui_keys() -> dict[str, dict[Language, str]]:
    """Every front-end text by key (both languages), for the coverage test."""
    _load(checks=False)
    return dict(_UI)


def missing_templates(findings: Iterable[Finding]) -> list[tuple[str, str]]:
    """(code, message) of each finding, related message and fix title without a Spanish form."""
    out: list[tuple[str, str]] = []
    for f in findings:
        candidates = [(f.code, f.message)]
        candidates += [(RELATED, r.message) for r in f.related]
        candidates += [(FIX, x.title) for x in f.fixes]
        for code, message in candidates:
            if _translate_with_suffix(code, message, "es") is None and (code, message) not in out:
                out.append((code, message))
    return out


# ---------------------------------------------------------------------------------------------
# Texts of the front ends (CLI report lines, hover labels), by key.

_UI: dict[str, dict[Language, str]] = {}


def register_ui(key: str, english: str, spanish: str) -> None:
    """A front-end text by key; placeholders are ``str.format`` fields."""
    _UI[key] = {"en": english, "es": spanish}


def ui(key: str, language: Language, **values: object) -> str:
    """The front-end text ``key`` in ``language`` with ``values`` filled in."""
    _load(checks=False)
    forms = _UI[key]
    return forms.get(language, forms["en"]).format(**values)


# ---------------------------------------------------------------------------------------------
# Which language


def language_of_locale(locale: str | None) -> Language:
    """``"es"`` for a locale whose language is Spanish (``es``, ``es-ES``, ``es_MX.UTF-8``), else English."""
    if not locale:
        return DEFAULT_LANGUAGE
    head = re.split(r"[-_.@]", locale.strip(), maxsplit=1)[0].lower()
    return "es" if head == "es" else "en"


def cli_language(flag: str | None, environ: Mapping[str, str]) -> Language:
    """The CLI's language: ``--lang`` wins, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` (first set)."""
    if flag:
        return language_of_locale(flag)
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            return language_of_locale(value)
    return DEFAULT_LANGUAGE


_CURRENT: contextvars.ContextVar[Language] = contextvars.ContextVar("gemstack_language", default=DEFAULT_LANGUAGE)


def set_language(language: Language) -> contextvars.Token[Language]:
    """Make ``language`` the CLI's language for the rest of this context (returns a reset token)."""
    return _CURRENT.set(language)


def reset_language(token: contextvars.Token[Language]) -> None:
    _CURRENT.reset(token)


def current_language() -> Language:
    return _CURRENT.get()


_LOADED: list[bool] = []


def _load(*, checks: bool = True) -> None:
    """Register the Spanish of the existing checks (``core/i18n_es.py``) on first use and, when
    ``checks`` (a Spanish translation is asked for), the ``ENGLISH``/``SPANISH`` tables of every
    check module of ``gemstack_lsp.core`` that has both (importing them costs a fraction of a
    second, which an English run never pays)."""
    if not _LOADED:
        _LOADED.append(True)
        from gemstack_lsp.core import i18n_es

        i18n_es.install()
    if checks and not _DISCOVERED:
        _DISCOVERED.append(True)
        _discover()


_DISCOVERED: list[bool] = []


def _discover() -> None:
    import importlib
    import pkgutil

    import gemstack_lsp.core as core

    for info in pkgutil.walk_packages(core.__path__, core.__name__ + "."):
        if info.name.rsplit(".", 1)[-1].startswith("i18n"):
            continue
        try:
            module = importlib.import_module(info.name)
        except Exception:  # a module that cannot be imported has no messages to show either
            continue
        # A pair that cannot be a template keeps its message English (the coverage test names it).
        register_module(module, strict=False)
