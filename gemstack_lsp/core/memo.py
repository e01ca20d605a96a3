"""Derived data of a document, keyed by the text it was computed from and owned by a host.

The parsers of the core (fences, blocks, tasks, state, ledgers, capsule extraction) are pure
functions of a document's text. ``per_text`` marks one: while a ``Memo`` is active (the
analysis host activates its own around every analysis and request), a call with a text seen
before returns the value computed then; with none active, the function simply runs. The
memo is not global: each host owns one and ``retain``s only the texts it still holds (the
current and the previous version of each file), so memory follows the repository's size,
never the number of edits.
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
        return len(dead)

    def clear(self) -> None:
        with self._lock:
            self._by_text.clear()

    @property
    def texts(self) -> int:
        """How many distinct texts have entries."""
        return len(self._by_text)

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
        key = (qualname, path, rest, tuple(sorted((k, v) for k, v in kwargs.items() if k != "text")))
        return memo.lookup(text, key, lambda: fn(*args, **kwargs))  # type: ignore[arg-type]

    return wrapper
