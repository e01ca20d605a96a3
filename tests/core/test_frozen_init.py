"""``direct_init`` gives a frozen dataclass the same construction at a lower cost."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest

from gemstack_lsp.core.frozen import direct_init
from gemstack_lsp.core.jsonspan import JsonObject, parse_json
from gemstack_lsp.core.tasks import TaskRef
from gemstack_lsp.core.text import Span


def _example(name: str, decorate: Any) -> Any:
    """The same frozen dataclass each time (a factory, a default, defaults not in ``__init__``,
    a ``__post_init__``), passed through ``decorate`` and named ``name`` (the module-level
    name it is bound to, so that pickle finds it)."""

    @dataclass(frozen=True)
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
Direct = _example("Direct", direct_init)


CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((1,), {}),
    ((1, "y"), {}),
    ((1,), {"d": {"k": 1}}),
    ((), {"a": 2, "c": (1,)}),
    ((1, "y", (2,), {"z": 3}), {}),
]


@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_the_instance_is_the_one_the_dataclass_makes(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    plain, direct = Plain(*args, **kwargs), Direct(*args, **kwargs)
    assert plain.__dict__ == direct.__dict__
    assert repr(plain).replace("Plain", "Direct") == repr(direct)
    assert hash(direct) == hash(Direct(*args, **kwargs)) and direct == Direct(*args, **kwargs)


def test_signature_errors_factories_freezing_pickling_and_replace() -> None:
    assert str(inspect.signature(Plain)) == str(inspect.signature(Direct))
    with pytest.raises(TypeError):
        Direct()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Direct(1, nope=2)  # type: ignore[call-arg]
    assert Direct(1).d is not Direct(1).d and Direct(1).g is not Direct(1).g
    with pytest.raises(dataclasses.FrozenInstanceError):
        Direct(1).a = 2  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(Direct(1, "q"))) == Direct(1, "q")
    assert dataclasses.replace(Direct(1), a=5) == Direct(5)


def test_classes_it_does_not_handle_keep_their_init() -> None:
    @dataclass(frozen=True, slots=True)
    class Slotted:
        a: int

    @dataclass(frozen=True, kw_only=True)
    class KeywordOnly:
        a: int

    @dataclass
    class Mutable:
        a: int

    for cls in (Slotted, KeywordOnly, Mutable):
        before = cls.__init__
        assert direct_init(cls).__init__ is before


def test_the_hot_classes_use_it() -> None:
    assert TaskRef("a", Span(0, 1)) == TaskRef("a", Span(0, 1))
    root = parse_json('{"a": [1, true, null, "x"]}').value
    assert isinstance(root, JsonObject) and root.to_python() == {"a": [1, True, None, "x"]}
    assert "_dict_" in TaskRef.__init__.__code__.co_varnames  # the generated ``__init__``
    # JSON nodes are slotted instead (no instance dictionary at all): ``direct_init`` leaves them.
    assert not hasattr(root, "__dict__") and "_dict_" not in JsonObject.__init__.__code__.co_varnames
