"""Frozen records for the values every prompt builds, without the dataclasses module.

A frozen dataclass compiles six methods when its class is defined: about half a millisecond
per class, paid by every prompt before any work, and importing `dataclasses` (with `inspect`)
costs about as much again. A record class shares one set of generic methods instead. They
behave as a frozen dataclass's do: keyword or positional construction with defaults, equality
and hashing over the fields in order, the same repr, and no assignment after construction.

For the same reason the read path never imports `typing` at run time: this module gives it
`TYPE_CHECKING`, and stand-ins for `NamedTuple` and `Protocol` that type checkers see as
typing's own.
"""

from __future__ import annotations

from collections import _tuplegetter  # type: ignore[attr-defined]  # namedtuple's C accessor

# typing's own flag without importing typing (about 2 ms on every prompt): type checkers take
# any `if TYPE_CHECKING:` as true, and at run time it is false. Modules on the read path import
# it from here and keep their `typing` imports behind it.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any, TypeVar, dataclass_transform
    from typing import NamedTuple as NamedTuple
    from typing import Protocol as Protocol

    _T = TypeVar("_T")
else:
    def dataclass_transform(**_: object) -> Any:
        return lambda cls: cls

    class Protocol:
        """At run time a protocol is only documentation: nothing checks against it."""

    class _TupleMeta(type):
        def __new__(mcls, name, bases, namespace):
            if not bases:  # NamedTuple itself
                return super().__new__(mcls, name, bases, namespace)
            return _tuple_class(name, namespace)

    class NamedTuple(metaclass=_TupleMeta):
        """A stand-in for typing.NamedTuple: `class X(NamedTuple)` makes the same kind of tuple
        subclass, without typing and without collections.namedtuple compiling a constructor
        from source (about 0.1 ms per class); tests/test_records.py holds it to typing's."""


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


def _tuple_class(name: str, namespace: dict[str, Any]) -> type:
    fields = tuple(namespace.get("__annotations__", {}))
    defaults = {f: namespace[f] for f in fields if f in namespace}
    seen_default = False
    for field in fields:
        if field in defaults:
            seen_default = True
        elif seen_default:
            raise TypeError(f"Non-default namedtuple field {field} cannot follow default field"
                            f"{'s' if len(defaults) > 1 else ''} {', '.join(defaults)}")
    attrs = {key: value for key, value in namespace.items() if key not in defaults}
    attrs.update(__slots__=(), _fields=fields, _field_defaults=defaults, __match_args__=fields,
                 __new__=_tuple_new, __repr__=_tuple_repr, __getnewargs__=_tuple_getnewargs,
                 _make=classmethod(_tuple_make), _replace=_tuple_replace, _asdict=_tuple_asdict)
    for index, field in enumerate(fields):
        attrs[field] = _tuplegetter(index, f"Alias for field number {index}")
    return type(name, (tuple,), attrs)


def _tuple_new(cls: Any, *args: Any, **kwargs: Any) -> Any:
    fields: tuple[str, ...] = cls._fields
    if not kwargs and len(args) == len(fields):
        return tuple.__new__(cls, args)
    if len(args) > len(fields):
        raise TypeError(f"{cls.__name__}.__new__() takes {len(fields) + 1} positional arguments"
                        f" but {len(args) + 1} were given")
    values = list(args)
    for field in fields[len(args):]:
        if field in kwargs:
            values.append(kwargs.pop(field))
        elif field in cls._field_defaults:
            values.append(cls._field_defaults[field])
        else:
            raise TypeError(f"{cls.__name__}.__new__() missing required argument: {field!r}")
    for field in kwargs:
        problem = "multiple values for" if field in fields else "an unexpected keyword"
        raise TypeError(f"{cls.__name__}.__new__() got {problem} argument {field!r}")
    return tuple.__new__(cls, values)


def _tuple_make(cls: Any, iterable: Any) -> Any:
    result = tuple.__new__(cls, iterable)
    if len(result) != len(cls._fields):
        raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(result)}")
    return result


def _tuple_repr(self: Any) -> str:
    fields = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self, strict=True))
    return f"{type(self).__name__}({fields})"


def _tuple_getnewargs(self: Any) -> tuple[Any, ...]:
    return tuple(self)


def _tuple_replace(self: Any, **changes: Any) -> Any:
    values = [changes.pop(name, value) for name, value in zip(self._fields, self, strict=True)]
    if changes:
        raise TypeError(f"Got unexpected field names: {list(changes)!r}")
    return tuple.__new__(type(self), values)


def _tuple_asdict(self: Any) -> dict[str, Any]:
    return dict(zip(self._fields, self, strict=True))
