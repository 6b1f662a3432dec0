"""Records behave as the frozen dataclasses they replaced: construction, defaults, equality,
hashing, repr, immutability and replace, with clear errors for a wrong call; the NamedTuple
stand-in builds what typing.NamedTuple builds."""

from __future__ import annotations

import pickle
import types
import typing
from collections.abc import Callable
from typing import Any

import pytest

from engram import records
from engram.model import Memory, Problem
from engram.records import FrozenRecordError, as_dict, field_types, record, replace


@record
class Point:
    x: int
    y: int = 0
    tags: tuple[str, ...] = ()


def test_construction_defaults_and_fields() -> None:
    assert Point(1) == Point(x=1, y=0, tags=())
    assert Point(1, 2).y == 2
    assert as_dict(Point(1, tags=("a",))) == {"x": 1, "y": 0, "tags": ("a",)}
    assert field_types(Point) == {"x": "int", "y": "int", "tags": "tuple[str, ...]"}


def test_equality_hash_and_repr_follow_the_fields() -> None:
    assert Point(1, 2) != Point(2, 1)
    assert len({Point(1, 2), Point(1, 2), Point(3)}) == 2
    assert repr(Point(1, 2)) == "Point(x=1, y=2, tags=())"
    assert Point(1) != (1, 0, ())  # not a tuple: another class never compares equal


def test_frozen_and_replace() -> None:
    point = Point(1)
    with pytest.raises(FrozenRecordError):
        point.x = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del point.y  # type: ignore[misc]
    moved = replace(point, y=7)
    assert (moved.x, moved.y, point.y) == (1, 7, 0)
    with pytest.raises(TypeError, match="no field 'z'"):
        replace(point, z=1)


@pytest.mark.parametrize("call, message", [
    (lambda: Point(), "missing argument 'x'"),
    (lambda: Point(1, 2, (), 4), "takes 3 arguments"),
    (lambda: Point(1, x=2), "multiple values for argument 'x'"),
    (lambda: Point(1, z=2), "unexpected keyword argument 'z'"),
])
def test_wrong_calls_are_type_errors(call: object, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        call()  # type: ignore[operator]


def test_model_values_keep_their_dataclass_shape() -> None:
    problem = Problem("a.md", 3, "id", "missing")
    assert str(problem) == "a.md:3: id: missing"
    assert repr(problem) == ("Problem(path='a.md', line=3, field='id', message='missing', "
                             "severity='error')")
    memory = Memory(id="m", type="rule", scope="workspace", rel_path="m.md", sha256="0")
    assert replace(memory, id="n").id == "n" and memory.id == "m"
    assert hash(memory) == hash(Memory(id="m", type="rule", scope="workspace",
                                       rel_path="m.md", sha256="0"))


# -- the NamedTuple stand-in ---------------------------------------------------------------------


def _labelled_pair(namespace: dict[str, Any]) -> None:
    """One class body, built on the stand-in and on typing's NamedTuple below."""
    namespace.update(
        __module__=__name__, __doc__="A pair with a label.",
        __annotations__={"key": "int", "name": "str", "label": "str",
                         "extra": "tuple[str, ...]"},
        label="none", extra=(),
        shout=property(lambda self: self.name.upper()),
        describe=lambda self: f"{self.key}:{self.label}")


# Module-level names, so both pickle by reference.
Ours: Any = types.new_class("Ours", (records.NamedTuple,), exec_body=_labelled_pair)
Theirs: Any = types.new_class("Theirs", (typing.NamedTuple,), exec_body=_labelled_pair)


def test_stand_in_is_not_typing_at_run_time() -> None:
    assert records.NamedTuple is not typing.NamedTuple
    assert type(Ours) is type and Ours.__mro__ == (Ours, tuple, object)


@pytest.mark.parametrize("args, kwargs", [
    ((1, "a"), {}), ((1, "a", "b"), {}), ((1, "a", "b", ("x",)), {}), ((), {"key": 1, "name": "a"}),
    ((1,), {"name": "a", "extra": ("y",)}), ((1, "a"), {"label": "c"}),
])
def test_stand_in_builds_what_typing_builds(args: tuple[object, ...],
                                             kwargs: dict[str, object]) -> None:
    ours, theirs = Ours(*args, **kwargs), Theirs(*args, **kwargs)  # type: ignore[arg-type]
    assert tuple(ours) == tuple(theirs) and ours == theirs and hash(ours) == hash(theirs)
    assert repr(ours).removeprefix("Ours") == repr(theirs).removeprefix("Theirs")
    assert (ours.key, ours.name, ours.label, ours.extra) == tuple(theirs)
    assert ours.shout == theirs.shout and ours.describe() == theirs.describe()
    assert ours._asdict() == theirs._asdict()
    assert ours._replace(label="z") == theirs._replace(label="z")
    assert type(ours._replace(label="z")) is Ours
    assert pickle.loads(pickle.dumps(ours)) == ours
    assert type(pickle.loads(pickle.dumps(ours))) is Ours


def test_stand_in_class_attributes_match_typing() -> None:
    assert Ours._fields == Theirs._fields
    assert Ours._field_defaults == Theirs._field_defaults
    assert Ours.__match_args__ == Theirs.__match_args__
    assert Ours.__doc__ == Theirs.__doc__
    assert Ours._make([1, "a", "b", ()]) == Theirs._make([1, "a", "b", ()])
    assert not hasattr(Ours(1, "a"), "__dict__")
    match Ours(1, "a"):
        case Ours(key, name):
            assert (key, name) == (1, "a")


@pytest.mark.parametrize("call", [
    lambda cls: cls(1), lambda cls: cls(1, "a", "b", (), 5), lambda cls: cls(1, "a", colour=1),
    lambda cls: cls(1, "a", key=2), lambda cls: cls._make([1]),
    lambda cls: cls(1, "a")._replace(x=1),
])
def test_stand_in_refuses_what_typing_refuses(call: Callable[[type], object]) -> None:
    for cls in (Ours, Theirs):
        with pytest.raises((TypeError, ValueError)):
            call(cls)


def test_stand_in_fields_are_read_only_and_ordered() -> None:
    with pytest.raises(AttributeError):
        Ours(1, "a").key = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        class Bad(records.NamedTuple):
            first: int = 0
            second: int
