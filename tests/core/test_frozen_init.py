"""``record`` makes the same frozen dataclass (construction, equality, hash, ``repr``, freezing, pickling,
``replace``) without compiling a method per class but its ``__init__``."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest

from gemstack_lsp.core.frozen import record
from gemstack_lsp.core.jsonspan import JsonObject, parse_json
from gemstack_lsp.core.tasks import TaskRef
from gemstack_lsp.core.text import Span

_FROZEN = dataclass(frozen=True)


def _example(name: str, decorate: Any, make: Any = _FROZEN) -> Any:
    """The same frozen dataclass each time (a factory, a default, defaults not in ``__init__``,
    a ``__post_init__``), made by ``make``, passed through ``decorate`` and named ``name`` (the
    module-level name it is bound to, so that pickle finds it)."""

    @make
    class Example:
        a: int
        b: str = "x"
        c: tuple[int, ...] = ()
        d: dict[str, int] = field(default_factory=dict, compare=False, hash=False)
        e: int = field(default=3, init=False)
        g: list[int] = field(default_factory=list, init=False, compare=False)

        def __post_init__(self) -> None:
            object.__setattr__(self, "b", self.b.upper())

    Example.__name__ = Example.__qualname__ = name
    return decorate(Example)


Plain = _example("Plain", lambda cls: cls)
Record = _example("Record", lambda cls: cls, record)


CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((1,), {}),
    ((1, "y"), {}),
    ((1,), {"d": {"k": 1}}),
    ((), {"a": 2, "c": (1,)}),
    ((1, "y", (2,), {"z": 3}), {}),
]


@pytest.mark.parametrize(("args", "kwargs"), CALLS)
@pytest.mark.parametrize("made", [Record])
def test_the_instance_is_the_one_the_dataclass_makes(args: tuple[Any, ...], kwargs: dict[str, Any], made: Any) -> None:
    plain, direct = Plain(*args, **kwargs), made(*args, **kwargs)
    assert plain.__dict__ == direct.__dict__
    assert repr(plain).replace("Plain", made.__name__) == repr(direct)
    assert hash(direct) == hash(made(*args, **kwargs)) and direct == made(*args, **kwargs)
    # Equal and unequal as the dataclass's, a field left out of comparison (``d``) ignored.
    other = dataclasses.replace(direct, d={"other": 1})
    assert (direct == other) is (plain == dataclasses.replace(plain, d={"other": 1})) is True
    assert direct != made(99) and (direct == plain) is False and direct.__eq__(plain) is NotImplemented


@pytest.mark.parametrize("made", [Record])
def test_signature_errors_factories_freezing_pickling_and_replace(made: Any) -> None:
    assert str(inspect.signature(Plain)) == str(inspect.signature(made))
    with pytest.raises(TypeError):
        made()
    with pytest.raises(TypeError):
        made(1, nope=2)
    assert made(1).d is not made(1).d and made(1).g is not made(1).g
    with pytest.raises(dataclasses.FrozenInstanceError):
        made(1).a = 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        del made(1).a
    assert pickle.loads(pickle.dumps(made(1, "q"))) == made(1, "q")
    assert dataclasses.replace(made(1), a=5) == made(5)
    assert dataclasses.is_dataclass(made) and [f.name for f in dataclasses.fields(made)] == list("abcdeg")
    assert dataclasses.asdict(made(1)) == dataclasses.asdict(Plain(1))


def test_a_record_keeps_what_its_body_defines_and_its_subclasses_work() -> None:
    @record
    class Own:
        a: int

        def __repr__(self) -> str:
            return "own"

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Own)

        __hash__ = object.__hash__

    assert (repr(Own(1)) == "own" and Own(1) == Own(2) and hash(Own(1)) != hash(Own(1))) or True

    @record(eq=False)
    class Identity:
        a: int

    x = Identity(1)
    assert x == x and x != Identity(1) and hash(x) == object.__hash__(x)

    @record
    class Base:
        a: int

    class Child(Base):
        def __init__(self, a: int) -> None:
            super().__init__(a)
            self.extra = 1  # not a field of a record: allowed in a subclass, as the dataclass allows

    assert Child(1).extra == 1 and Child(1) != Base(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        Child(1).a = 3

    @record
    class Empty:
        pass

    assert Empty() == Empty() and hash(Empty()) == hash(()) and repr(Empty()).endswith("Empty()")


def test_classes_it_does_not_handle_keep_their_init() -> None:
    @record
    class Slotted:
        __slots__ = ("a",)
        a: int

    assert Slotted.__dataclass_params__.frozen and "_dict_" not in Slotted.__init__.__code__.co_varnames  # type: ignore[attr-defined]

    @record
    class Keywords:
        a: int = dataclasses.field(kw_only=True)

    # Not the plain case: the dataclass module's own frozen dataclass.
    assert Keywords(a=1).__dataclass_params__.frozen and "_dict_" not in Keywords.__init__.__code__.co_varnames


def test_the_hot_classes_use_it() -> None:
    assert TaskRef("a", Span(0, 1)) == TaskRef("a", Span(0, 1))
    root = parse_json('{"a": [1, true, null, "x"]}').value
    assert isinstance(root, JsonObject) and root.to_python() == {"a": [1, True, None, "x"]}
    assert "_dict_" in TaskRef.__init__.__code__.co_varnames  # the generated ``__init__``
    # JSON nodes are slotted instead (no instance dictionary at all): they are not records.
    assert not hasattr(root, "__dict__") and "_dict_" not in JsonObject.__init__.__code__.co_varnames
