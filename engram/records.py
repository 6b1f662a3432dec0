"""Frozen records for the values every prompt builds, without the dataclasses module.

A frozen dataclass compiles six methods when its class is defined: about half a millisecond
per class, paid by every prompt before any work, and importing `dataclasses` (with `inspect`)
costs about as much again. A record class shares one set of generic methods instead. They
behave as a frozen dataclass's do: keyword or positional construction with defaults, equality
and hashing over the fields in order, the same repr, and no assignment after construction.
"""

from __future__ import annotations

from typing import Any, TypeVar, dataclass_transform

_T = TypeVar("_T")


class FrozenRecordError(AttributeError):
    """A field of a record was assigned or deleted after construction."""


def _values(self: Any) -> tuple[Any, ...]:
    return tuple(getattr(self, name) for name in type(self).__record_names__)


def _init(self: Any, *args: Any, **kwargs: Any) -> None:
    cls = type(self)
    names: tuple[str, ...] = cls.__record_names__
    if len(args) > len(names):
        raise TypeError(f"{cls.__name__}() takes {len(names)} arguments, got {len(args)}")
    state = self.__dict__  # written directly: the frozen __setattr__ refuses
    state.update(zip(names, args, strict=False))
    for name, value in kwargs.items():
        if name not in cls.__record_types__:  # a dict of the field names
            raise TypeError(f"{cls.__name__}() got an unexpected keyword argument {name!r}")
        if name in state:
            raise TypeError(f"{cls.__name__}() got multiple values for argument {name!r}")
        state[name] = value
    if len(state) < len(names):
        defaults = cls.__record_defaults__
        for name in names:
            if name not in state:
                if name not in defaults:
                    raise TypeError(f"{cls.__name__}() missing argument {name!r}")
                state[name] = defaults[name]


def _eq(self: Any, other: object) -> Any:  # bool, or NotImplemented for another class
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self: Any) -> int:
    return hash(_values(self))


def _repr(self: Any) -> str:
    fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in type(self).__record_names__)
    return f"{type(self).__qualname__}({fields})"


def _frozen(self: Any, name: str, value: Any = None) -> None:
    raise FrozenRecordError(f"cannot assign to field {name!r}")


@dataclass_transform(frozen_default=True)
def record(cls: type[_T]) -> type[_T]:
    """Make `cls` a frozen record of its annotated fields (in order; class values are the
    defaults)."""
    annotations = cls.__dict__.get("__annotations__", {})
    names = tuple(annotations)
    cls.__record_names__ = names  # type: ignore[attr-defined]
    cls.__record_types__ = dict(annotations)  # type: ignore[attr-defined]
    cls.__record_defaults__ = {  # type: ignore[attr-defined]
        n: cls.__dict__[n] for n in names if n in cls.__dict__}
    for method, function in (("__init__", _init), ("__eq__", _eq), ("__hash__", _hash),
                             ("__repr__", _repr), ("__setattr__", _frozen),
                             ("__delattr__", _frozen)):
        setattr(cls, method, function)
    return cls


def replace(obj: _T, **changes: Any) -> _T:
    """A copy of the record with some fields changed (dataclasses.replace for records)."""
    cls = type(obj)
    values = {name: getattr(obj, name) for name in cls.__record_names__}  # type: ignore[attr-defined]
    for name in changes:
        if name not in values:
            raise TypeError(f"{cls.__name__} has no field {name!r}")
    values.update(changes)
    return cls(**values)


def field_types(cls: type) -> dict[str, str]:
    """Field name -> its annotation as written, in order."""
    return dict(cls.__record_types__)  # type: ignore[attr-defined]


def as_dict(obj: Any) -> dict[str, Any]:
    return {name: getattr(obj, name) for name in type(obj).__record_names__}
