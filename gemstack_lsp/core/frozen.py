"""A cheaper ``__init__`` for the frozen dataclasses an analysis makes by the thousand.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__``
(the class's own ``__setattr__`` refuses), a call per field; spans, JSON nodes, task comments
and block items are made some thousand times per feature, and those calls were several per
cent of ``check``. ``direct_init`` gives such a class an ``__init__`` with the same
signature, defaults and ``__post_init__`` call that stores the fields straight into the
instance's dictionary, as ``object.__setattr__`` would. Equality, hashing, ``repr``, pickling,
``dataclasses.replace`` and the frozen check on assignment are the dataclass's own, unchanged.

Only the plain case is taken: every field in ``__init__`` with a value, a default or a default
factory, positional or keyword, no ``InitVar``, no keyword-only field, no ``__slots__``; any
other class is returned as it is.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, TypeVar

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


def direct_init(cls: type[T]) -> type[T]:
    """``cls`` (a frozen dataclass) with an ``__init__`` that fills ``__dict__`` directly."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" in cls.__dict__ or not params.init:
        return cls
    if any(isinstance(v, dataclasses.InitVar) for v in getattr(cls, "__annotations__", {}).values()):
        return cls
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    names: dict[str, Any] = {"_FACTORY": _FACTORY}
    args: list[str] = []
    body: list[str] = ["_dict_ = self.__dict__"]
    for n, f in enumerate(fields):
        if f.kw_only or not f.name.isidentifier() or f.name in _RESERVED or _GLOBAL.fullmatch(f.name):
            return cls
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
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = cls.__init__.__doc__
    init.__annotations__ = dict(getattr(cls.__init__, "__annotations__", {}))
    setattr(cls, "__init__", init)  # noqa: B010 - a class's method replaced on purpose
    return cls
