"""Derived data of a document, keyed by the text it was computed from and owned by a host.

The parsers of the core (fences, blocks, tasks, state, ledgers, capsule extraction) are pure
functions of a document's text. ``per_text`` marks one: while a ``Memo`` is active (the
analysis host activates its own around every analysis and request), a call with a text seen
before returns the value computed then; with none active, the function simply runs. The
memo is not global: each host owns one and ``retain``s only the texts it still holds (the
current and the previous version of each file), so memory follows the repository's size,
never the number of edits.

Two more kinds of value live in a memo, both bounded the same way:

- ``per_piece`` values are keyed by a piece of a document (a fenced block's body and where it
  starts) rather than by a whole text. They are kept while they are used: ``retain`` forgets
  every piece value not looked up since the previous ``retain``, so an edit inside one block
  reuses the parse of every other block of the document, and nothing accumulates.
- ``recent(name)`` holds the last few (text, value) pairs a whole-text computation made, so an
  incremental computation (the fence scan of an edited document) can start from the value of
  the text the edit was made to. Texts the host no longer holds are forgotten by ``retain``.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import threading
from collections.abc import Callable, Collection, Iterator, Mapping
from contextvars import ContextVar
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

#: How many (text, value) pairs ``recent`` keeps per name.
RECENT = 4

_ACTIVE: ContextVar[Memo | None] = ContextVar("gemstack_memo", default=None)


class Memo:
    """Values computed from document texts: text -> {(function, path, other arguments): value}.

    A function that also takes the document's ``path`` is memoised per path as well (two
    copies of one text at two paths are two documents).
    """

    def __init__(self) -> None:
        self._by_text: dict[str, dict[tuple[Any, ...], Any]] = {}
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        #: Piece values: key -> value, and the keys looked up since the last ``retain``.
        self._pieces: dict[tuple[Any, ...], Any] = {}
        self._pieces_used: set[tuple[Any, ...]] = set()
        #: name -> the last (text, value) pairs computed, newest last.
        self._recent: dict[str, list[tuple[str, Any]]] = {}

    def piece(self, key: tuple[Any, ...], compute: Callable[[], R]) -> R:
        """The value of a piece of a document (``key`` holds the piece), computed once while used."""
        try:
            value: R = self._pieces[key]
        except KeyError:
            self.misses += 1
            value = compute()
            with self._lock:
                self._pieces[key] = value
                self._pieces_used.add(key)
            return value
        self.hits += 1
        with self._lock:
            self._pieces_used.add(key)
        return value

    def known_piece(self, key: tuple[Any, ...]) -> Any | None:
        """The piece value kept under ``key`` (marked used), or ``None``."""
        with self._lock:
            value = self._pieces.get(key)
            if value is not None:
                self._pieces_used.add(key)
            return value

    def put_piece(self, key: tuple[Any, ...], value: Any) -> None:
        """Keep ``value`` under ``key`` (used now: kept until a ``retain`` finds it unused)."""
        with self._lock:
            self._pieces[key] = value
            self._pieces_used.add(key)

    def recent(self, name: str) -> list[tuple[str, Any]]:
        """The last (text, value) pairs ``remember``-ed under ``name``, newest first."""
        return list(reversed(self._recent.get(name, ())))

    def remember(self, name: str, text: str, value: Any) -> None:
        """Keep ``value`` as the result for ``text`` among the last ``RECENT`` of ``name``."""
        with self._lock:
            kept = [pair for pair in self._recent.get(name, ()) if pair[0] is not text]
            kept.append((text, value))
            self._recent[name] = kept[-RECENT:]

    def lookup(self, text: str, key: tuple[Any, ...], compute: Callable[[], R]) -> R:
        entries = self._by_text.get(text)
        if entries is not None:
            try:
                value: R = entries[key]
            except KeyError:
                pass
            else:
                self.hits += 1
                return value
        self.misses += 1
        value = compute()
        with self._lock:
            self._by_text.setdefault(text, {})[key] = value
        return value

    def retain(self, live: Mapping[str, Collection[str]] | Collection[str]) -> int:
        """Forget every text not in ``live``, and, where ``live`` maps a text to the paths that
        hold it, the values computed for other paths; returns how many texts were dropped."""
        with self._lock:
            dead = [t for t in self._by_text if t not in live]
            for t in dead:
                del self._by_text[t]
            if isinstance(live, Mapping):
                for text, entries in self._by_text.items():
                    paths = live[text]
                    stale = [k for k in entries if k[1] is not None and k[1] not in paths]
                    for k in stale:
                        del entries[k]
            if len(self._pieces_used) < len(self._pieces):
                self._pieces = {k: v for k, v in self._pieces.items() if k in self._pieces_used}
            self._pieces_used = set()
            for name, pairs in list(self._recent.items()):
                kept = [pair for pair in pairs if pair[0] in live]
                if kept:
                    self._recent[name] = kept
                else:
                    del self._recent[name]
        return len(dead)

    def clear(self) -> None:
        with self._lock:
            self._by_text.clear()
            self._pieces.clear()
            self._pieces_used.clear()
            self._recent.clear()

    @property
    def texts(self) -> int:
        """How many distinct texts have entries."""
        return len(self._by_text)

    @property
    def pieces(self) -> int:
        """How many piece values are kept."""
        return len(self._pieces)

    @property
    def entries(self) -> int:
        """How many values are kept, over every text."""
        return sum(len(v) for v in list(self._by_text.values()))

    @contextlib.contextmanager
    def active(self) -> Iterator[Memo]:
        """Make this memo the one ``per_text`` functions use in the current context."""
        token = _ACTIVE.set(self)
        try:
            yield self
        finally:
            _ACTIVE.reset(token)


def active_memo() -> Memo | None:
    return _ACTIVE.get()


@contextlib.contextmanager
def ensure_memo() -> Iterator[Memo]:
    """The active memo, or a fresh one for the duration of the block (a one-off analysis)."""
    memo = _ACTIVE.get()
    if memo is not None:
        yield memo
        return
    with Memo().active() as fresh:
        yield fresh


def per_text(fn: Callable[P, R]) -> Callable[P, R]:
    """Memoise ``fn`` in the active ``Memo``, keyed by its ``text`` argument and the others."""
    sig = inspect.signature(fn)
    names = list(sig.parameters)
    index = names.index("text")
    path_index = names.index("path") if "path" in names else None
    qualname = f"{fn.__module__}.{fn.__qualname__}"

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        memo = _ACTIVE.get()
        if memo is None:
            return fn(*args, **kwargs)
        if len(args) > index:
            text = args[index]
            rest = args[:index] + args[index + 1 :]
        else:
            text = kwargs["text"]
            rest = args
        path = None
        if path_index is not None:
            path = args[path_index] if len(args) > path_index else kwargs.get("path")
        named = tuple(sorted((k, v) for k, v in kwargs.items() if k != "text")) if kwargs else ()
        key = (qualname, path, rest, named)
        return memo.lookup(text, key, lambda: fn(*args, **kwargs))  # type: ignore[arg-type]

    return wrapper


def per_piece(fn: Callable[P, R]) -> Callable[P, R]:
    """Memoise ``fn`` in the active ``Memo`` by all its (hashable) arguments, as a piece value:
    kept while it is used (see ``Memo.retain``). With no memo active, ``fn`` simply runs."""
    qualname = f"{fn.__module__}.{fn.__qualname__}"

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        memo = _ACTIVE.get()
        if memo is None:
            return fn(*args, **kwargs)
        key = (qualname, args, tuple(sorted(kwargs.items())) if kwargs else ())
        return memo.piece(key, lambda: fn(*args, **kwargs))

    return wrapper
