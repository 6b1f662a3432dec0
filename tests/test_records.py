"""Records behave as the frozen dataclasses they replaced: construction, defaults, equality,
hashing, repr, immutability and replace, with clear errors for a wrong call."""

from __future__ import annotations

import pytest

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
