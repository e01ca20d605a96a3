"""Frozen records: the project's frozen dataclasses, made cheaply.

``@dataclass(frozen=True)`` compiles six methods per class (``__init__``, ``__repr__``,
``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``), some 65 µs each: 50 ms of
``check``'s start-up, paid before its worker processes can start; and its ``__init__`` sets each
field through ``object.__setattr__`` (the class's own ``__setattr__`` refuses), a call per
field, where spans, task comments and block items are made some thousand times per feature.

A ``record`` is the same dataclass (``fields``, ``replace``, ``asdict`` and pickling are the
dataclass module's) with only an ``__init__`` compiled, one with the same signature, defaults
and ``__post_init__`` call that stores the fields straight into the instance's dictionary; its
equality, hash, ``repr`` and freezing are shared functions over the class's field names, with
the dataclass's results.

Only the plain case is taken: every field in ``__init__`` with a value, a default or a default
factory, positional or keyword, no ``InitVar``, no keyword-only field, no ``__slots__``; any
other class is the dataclass module's own frozen dataclass.
"""

from __future__ import annotations

import dataclasses
import inspect
import operator
import re
import reprlib
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T")

_MISSING = dataclasses.MISSING


class _Factory:
    """The default of a parameter whose field has a default factory (shown as the dataclass shows it)."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()
#: Names the generated ``__init__`` uses itself: a class with a field so named keeps its own.
_RESERVED = frozenset({"self", "_dict_", "_FACTORY"})
_GLOBAL = re.compile(r"_[df]\d+")


def _dict_init(cls: type[Any]) -> Callable[..., None] | None:
    """The direct ``__init__`` of a dataclass (``None`` when it is not the plain case)."""
    if any(isinstance(v, dataclasses.InitVar) for v in getattr(cls, "__annotations__", {}).values()):
        return None
    fields = dataclasses.fields(cls)
    names: dict[str, Any] = {"_FACTORY": _FACTORY}
    args: list[str] = []
    body: list[str] = ["_dict_ = self.__dict__"]
    for n, f in enumerate(fields):
        if f.kw_only or not f.name.isidentifier() or f.name in _RESERVED or _GLOBAL.fullmatch(f.name):
            return None
        if not f.init:
            # A plain default stays the class attribute the dataclass made (as its own
            # ``__init__`` leaves it); a factory's value is the instance's.
            if f.default_factory is not _MISSING:
                names[f"_f{n}"] = f.default_factory
                body.append(f"_dict_[{f.name!r}] = _f{n}()")
            continue
        if f.default is not _MISSING:
            names[f"_d{n}"] = f.default
            args.append(f"{f.name}=_d{n}")
            body.append(f"_dict_[{f.name!r}] = {f.name}")
        elif f.default_factory is not _MISSING:
            names[f"_f{n}"] = f.default_factory
            args.append(f"{f.name}=_FACTORY")
            body.append(f"_dict_[{f.name!r}] = _f{n}() if {f.name} is _FACTORY else {f.name}")
        else:
            args.append(f.name)
            body.append(f"_dict_[{f.name!r}] = {f.name}")
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    source = f"def __init__(self, {', '.join(args)}):\n" + "".join(f"    {line}\n" for line in body)
    exec(source, names)
    init: Callable[..., None] = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__annotations__ = {f.name: f.type for f in fields if f.init} | {"return": None}
    return init


@overload
def record(cls: type[T], /) -> type[T]: ...


@overload
def record(*, eq: bool = True) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: type[T] | None = None, /, *, eq: bool = True) -> type[T] | Callable[[type[T]], type[T]]:
    """``@dataclass(frozen=True)`` (or ``frozen=True, eq=False``), made without compiling a
    method per class but the direct ``__init__`` (see the module's note). A class that is not the
    plain case is the dataclass module's own."""

    def make(c: type[T]) -> type[T]:
        if not _plain_case(c):
            return dataclasses.dataclass(c, frozen=True, eq=eq)
        # Bodies' own methods, as the dataclass module leaves them: looked at before it runs.
        own = dict(c.__dict__)
        made = dataclasses.dataclass(c, init=False, repr=False, eq=False)
        init = _dict_init(made)
        assert init is not None  # the plain case
        setattr(made, "__init__", init)  # noqa: B010
        _share_methods(made, own, eq)
        return made

    return make if cls is None else make(cls)


def _plain_case(cls: type[Any]) -> bool:
    """True when ``record`` can make ``cls`` (before the dataclass module has seen it): no
    ``__slots__``, ``InitVar``, keyword-only field, or field named as the direct ``__init__``'s
    own variables."""
    if "__slots__" in cls.__dict__:
        return False
    for name, annotation in inspect.get_annotations(cls).items():
        text = annotation if isinstance(annotation, str) else repr(annotation)
        if "InitVar" in text or "KW_ONLY" in text or name in _RESERVED or _GLOBAL.fullmatch(name):
            return False
        value = cls.__dict__.get(name)
        if isinstance(value, dataclasses.Field) and value.kw_only is True:
            return False
    return True


def _share_methods(cls: type[Any], own: dict[str, Any], eq: bool) -> None:
    """Give a record made with ``init=False, repr=False, eq=False`` (not frozen) what
    ``dataclass(frozen=True, eq=eq)`` would: ``__repr__``, ``__eq__`` and ``__hash__`` over
    its fields, as the dataclass module chooses them, and the frozen ``__setattr__`` and
    ``__delattr__``."""
    fields = dataclasses.fields(cls)
    shown = tuple(f.name for f in fields if f.repr)
    if "__repr__" not in own:

        @reprlib.recursive_repr()
        def __repr__(self: Any) -> str:
            return f"{self.__class__.__qualname__}(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in shown) + ")"

        __repr__.__qualname__ = f"{cls.__qualname__}.__repr__"
        setattr(cls, "__repr__", __repr__)  # noqa: B010 - made for this class
    if eq:
        compared = _getter(tuple(f.name for f in fields if f.compare))
        if "__eq__" not in own:

            def __eq__(self: Any, other: object) -> Any:
                if other.__class__ is self.__class__:
                    return compared(self) == compared(other)
                return NotImplemented

            setattr(cls, "__eq__", __eq__)  # noqa: B010
        explicit = own.get("__hash__", _MISSING)
        if explicit is _MISSING or (explicit is None and "__eq__" in own):
            hashed = _getter(tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash)))

            def __hash__(self: Any) -> int:
                return hash(hashed(self))

            setattr(cls, "__hash__", __hash__)  # noqa: B010
    names = frozenset(f.name for f in fields)

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    setattr(cls, "__setattr__", __setattr__)  # noqa: B010
    setattr(cls, "__delattr__", __delattr__)  # noqa: B010


def _getter(names: tuple[str, ...]) -> Callable[[Any], Any]:
    """The fields ``names`` of an instance, for comparing and hashing: a tuple (one value for one
    field, none for no field; the same for every instance of the class)."""
    if not names:
        return lambda _: ()
    return operator.attrgetter(*names)
