"""Rename a contract id, a test id, a task id, a billable action or a provider id, as plain data.

What is renamed is what navigation finds under the cursor (``target_at``). Every place that
names it is edited at once: the references navigation knows (the blocks of spec.md, plan.md
and tasks.md, test bindings, the test matrix, inherited contracts, task headers and task
metadata, the keys of ledgers and of ``.gemstack/providers.json`` for a provider) and the ids
in prose that navigation resolves (a contract id in backticks in plan.md's table, a test id
in a sentence; a plain word such as ``idempotent`` only in backticks, since in a sentence it
may be the English word). Contract, test, task and action ids are renamed in the feature that holds
them; providers across the repository.

Refused, with a message saying why (``RenameRefused``):

- an id of a derived file (the context capsule, closure.json): those are regenerated from
  the sources, never edited by a rename (their strings are not edited either: regenerate
  them after the rename);
- a new id of the wrong shape for its kind (``TEST-AREA-ID`` for a test, a kebab-case slug
  for a provider or an action, no spaces in a contract id, ``[A-Za-z0-9_-]`` in a task id);
- a new id that is already declared as the same kind in the same scope (a clash);
- an id whose edits change a frozen phase's artifact (a contract frozen by the spec phase, a
  test of a frozen spec): Gemstack changes a frozen artifact through an amendment, not an
  edit. The refusal carries ``frozen``: the server may offer the edit anyway behind an
  explicit confirmation (``allow_frozen``), see ``server/rename.py``. Its message says why and
  that the Gemstack way is an amendment; how to rename anyway depends on the editor, so the
  server ends the message with the words of the client that asked (``server/wording.py``).
"""

from __future__ import annotations

import re

from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.repo import CAPSULE_NAME, CLOSURE_NAME
from gemstack_lsp.core.text import Span
from gemstack_lsp.host import Snapshot
from gemstack_lsp.host.cancel import check_cancelled
from gemstack_lsp.ide.frozen import FrozenPhase, contract_freeze, document_freeze
from gemstack_lsp.ide.navigation import FEATURE_KINDS, Occurrence, occurrence_index, references, target_at
from gemstack_lsp.ide.prose import free_words

__all__ = [
    "ID_SHAPES",
    "RENAMEABLE",
    "RenameEdit",
    "RenamePlan",
    "RenameRefused",
    "RenameTarget",
    "plan_rename",
    "prepare_rename",
]

#: The kinds a rename accepts, in the order a bare string's kind is chosen.
RENAMEABLE = ("contract", "test", "task", "action", "provider")

#: The shape of a new id, per kind, and how it is described to the user.
ID_SHAPES: dict[str, tuple[re.Pattern[str], str]] = {
    "contract": (
        re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_.:\-]*[A-Za-z0-9_])?"),
        "letters, digits and _ . : - without spaces, starting and ending with a letter, a digit or _",
    ),
    "test": (re.compile(r"TEST-[A-Z0-9]+-[A-Z0-9]+"), "TEST-<AREA>-<ID> in capitals and digits (TEST-COST-A01)"),
    "task": (re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?"), "letters, digits, _ and - (T012)"),
    "action": (re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*"), "a lower-case kebab-case slug (search-images)"),
    "provider": (re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*"), "a lower-case kebab-case slug (ollama-local)"),
}

_LABELS = {
    "contract": "contract",
    "test": "test",
    "task": "task",
    "action": "billable action",
    "provider": "provider",
}

#: Files a rename never edits: they are derived from the sources.
DERIVED = frozenset({CAPSULE_NAME, CLOSURE_NAME})


class RenameRefused(Exception):
    """A rename that cannot be done; the message says why and what to do instead."""

    def __init__(self, message: str, frozen: FrozenPhase | None = None) -> None:
        super().__init__(message)
        #: Set when the only obstacle is a frozen phase (the edit may be confirmed explicitly).
        self.frozen = frozen


@record
class RenameTarget:
    """What the cursor may rename: its kind, its current id and the span of its characters."""

    kind: str
    value: str
    span: Span
    occurrence: Occurrence


@record
class RenameEdit:
    """One replacement. ``role`` is declaration, reference or prose (a change annotation)."""

    path: str
    span: Span
    new_text: str
    role: str
    #: Set when the edit changes an artifact of a frozen phase.
    frozen: FrozenPhase | None = None


@record
class RenamePlan:
    """Every edit of one rename, in repository order (file by file, in document order)."""

    target: RenameTarget
    new_name: str
    edits: tuple[RenameEdit, ...]

    @property
    def frozen(self) -> tuple[FrozenPhase, ...]:
        """The frozen phases the edits change (empty when none)."""
        return tuple(dict.fromkeys(e.frozen for e in self.edits if e.frozen is not None))


def _derived(path: str) -> bool:
    return path.rsplit("/", 1)[-1] in DERIVED


def _inner(text: str, span: Span, value: str) -> Span:
    """The span of the id's characters: a JSON string's without its quotes."""
    if span.end - span.start == len(value) + 2 and text[span.start] == '"' and text[span.end - 1] == '"':
        return Span(span.start + 1, span.end - 1)
    return span


def prepare_rename(snapshot: Snapshot, path: str, offset: int) -> RenameTarget | None:
    """The id under ``offset`` that a rename would change (``None``: nothing to rename there).

    Raises ``RenameRefused`` for something a rename will never change (an id of a derived
    file, a path, a capability id), so the client can say why at once.
    """
    occ = target_at(snapshot, path, offset)
    if occ is None:
        return None
    if _derived(path):
        name = path.rsplit("/", 1)[-1]
        raise RenameRefused(
            f"{name} is derived from the feature's sources and is never edited by a rename: rename the id "
            f"where it is declared (spec.md, plan.md or tasks.md), then regenerate {name}."
        )
    kind: str | None = occ.kind
    if occ.kind == "string":
        kinds = occurrence_index(snapshot).declared_kinds(occ.value)
        kind = next((k for k in RENAMEABLE if k in kinds), None)
    if kind not in RENAMEABLE:
        what = {"path": "A path", "capability": "A capability id"}.get(occ.kind, "This")
        raise RenameRefused(f"{what} cannot be renamed here: only contract, test, task, action and provider ids.")
    assert kind is not None
    text = snapshot.repo.document(path).text or ""
    span = _inner(text, occ.span, occ.value)
    if text[span.start : span.end] != occ.value:
        raise RenameRefused(
            f"The id {occ.value!r} is written with JSON escapes here: write it without escapes first, then rename it."
        )
    return RenameTarget(kind, occ.value, span, occ)


def _id_like(text: str, span: Span) -> bool:
    """Whether a word of prose is written as an id: in backticks, or with a character other than
    a letter (``TEST-A-B01``, ``T001``, ``no-free-lunch``). A plain word (a contract named
    ``idempotent``) is left alone in sentences: it may be the English word."""
    word = text[span.start : span.end]
    quoted = span.start > 0 and text[span.start - 1] == "`" and text[span.end : span.end + 1] == "`"
    return quoted or not word.isalpha()


def _where(snapshot: Snapshot, occ: Occurrence) -> str:
    source = snapshot.repo.document(occ.path).source
    line = source.line_of(occ.span.start) + 1 if source is not None else 1
    return f"{occ.path}:{line}"


def _check_new_name(snapshot: Snapshot, path: str, target: RenameTarget, new_name: str) -> None:
    pattern, shape = ID_SHAPES[target.kind]
    label = _LABELS[target.kind]
    if not pattern.fullmatch(new_name):
        raise RenameRefused(f"{new_name!r} is not a valid {label} id: a {label} id is {shape}.")
    index = occurrence_index(snapshot)
    probe = Occurrence(target.occurrence.path, target.occurrence.span, target.kind, new_name)
    scope = {o.path for o in references(snapshot, path, probe)} if target.kind in FEATURE_KINDS else None
    for other in index.by_value.get(new_name, ()):
        if not other.declaration or other.kind != target.kind:
            continue
        if scope is not None and other.path not in scope:
            continue
        raise RenameRefused(
            f"A {label} named {new_name!r} already exists ({_where(snapshot, other)}): renaming "
            f"{target.value!r} to it would merge two {label}s. Choose another id."
        )


def plan_rename(
    snapshot: Snapshot, path: str, offset: int, new_name: str, *, allow_frozen: bool = False
) -> RenamePlan | None:
    """The edits that rename the id under ``offset`` to ``new_name`` (``None``: no id there).

    Raises ``RenameRefused`` (see the module docstring). With ``allow_frozen`` the edits of
    frozen artifacts are planned anyway, each marked with its ``frozen`` phase.
    """
    key = ("ide.rename", path, offset, new_name, allow_frozen)
    return snapshot.derived(key, lambda snap: _plan(snap, path, offset, new_name, allow_frozen))


def _plan(snapshot: Snapshot, path: str, offset: int, new_name: str, allow_frozen: bool) -> RenamePlan | None:
    """``plan_rename``, computed under the snapshot's memo (every document's parse is shared)."""
    target = prepare_rename(snapshot, path, offset)
    if target is None:
        return None
    new_name = new_name.strip()
    if new_name == target.value:
        return RenamePlan(target, new_name, ())
    _check_new_name(snapshot, path, target, new_name)
    occ = target.occurrence
    probe = occ if occ.kind != "string" else Occurrence(occ.path, occ.span, target.kind, occ.value)
    found = [o for o in references(snapshot, path, probe) if not _derived(o.path)]
    edits: dict[tuple[str, int], RenameEdit] = {}
    for o in found:
        text = snapshot.repo.document(o.path).text or ""
        span = _inner(text, o.span, o.value)
        if text[span.start : span.end] != o.value:
            # Renaming every other mention would leave this one behind: refuse the whole rename.
            raise RenameRefused(
                f"The id {o.value!r} is written with JSON escapes at {_where(snapshot, o)}: write it without "
                "escapes first, then rename it."
            )
        role = "declaration" if o.declaration else "reference"
        edits[(o.path, span.start)] = RenameEdit(o.path, span, new_name, role)
    # Prose mentions in the Markdown documents of the scope.
    if target.kind in FEATURE_KINDS:
        feature = snapshot.repo.feature_of(found[0].path if found else path)
        docs = [feature.spec, feature.plan, feature.tasks] if feature is not None else [path]
    else:
        docs = [f for f in occurrence_index(snapshot).files if f.endswith(".md")]
    for doc in dict.fromkeys(docs):
        check_cancelled()  # a provider's rename reads every Markdown document of the repository
        text = snapshot.repo.document(doc).text or ""
        if target.value not in text:
            continue  # most documents of a large repository never name it
        for word in free_words(doc, text):
            if word.value == target.value and _id_like(text, word.span):
                edits.setdefault((doc, word.span.start), RenameEdit(doc, word.span, new_name, "prose"))
    planned: list[RenameEdit] = []
    blocked: FrozenPhase | None = None
    contract_frozen = None
    if target.kind == "contract":
        feature = snapshot.repo.feature_of(path)
        contract_frozen = contract_freeze(snapshot, feature, target.value) if feature is not None else None
    for key in sorted(edits):
        edit = edits[key]
        frozen = document_freeze(snapshot, edit.path)
        if frozen is not None:
            blocked = blocked or frozen
            edit = RenameEdit(edit.path, edit.span, edit.new_text, edit.role, frozen)
        planned.append(edit)
    if blocked is not None and not allow_frozen:
        raise RenameRefused(_frozen_message(target, contract_frozen or blocked), contract_frozen or blocked)
    order = {p: i for i, p in enumerate(occurrence_index(snapshot).files)}
    planned.sort(key=lambda e: (order.get(e.path, len(order)), e.path, e.span.start))
    return RenamePlan(target, new_name, tuple(planned))


def _frozen_message(target: RenameTarget, frozen: FrozenPhase) -> str:
    label = _LABELS[target.kind]
    what = (
        f"Contract {target.value!r} is frozen by the {frozen.phase} phase of {frozen.feature}"
        if target.kind == "contract"
        else f"Renaming {label} {target.value!r} changes {frozen.phase}.md, frozen in {frozen.feature}"
    )
    return (
        f"{what} ({frozen.reason}). Editing a frozen artifact breaks its recorded hash "
        f"(FROZEN_ARTIFACT_CHANGED). The Gemstack way is an amendment: propose the change as an amendment "
        f"of the {frozen.phase} phase and approve it, which records the new hash."
    )
