"""The model's dataclasses as plain data (tuples, lists, dicts, str, int, float), and back.

The blob cache holds only plain data, so a cached fact can never run code
when it is loaded. How a dataclass is written follows from its field
definitions: a field added to `Block`, `Section`, `Document` or `Card` needs
no cache code (the model's layout version, part of every cache key, changes
with it). A dataclass becomes the tuple of its fields' values in field order;
lists, tuples, frozensets and dicts keep their shape with their items
converted; str, int, float, bool, bytes, None and `Any` stay as they are.
A class that lists its dataclass subclasses by name (`kinds`, as
`kbcheck.findings.Facts` does) is stored as the subclass's name, then its
fields; a name it does not list reads back as a ValueError (a cache miss).
"""

from __future__ import annotations

import dataclasses
import operator
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")
Convert = Callable[[Any], Any]

_ATOMS = (str, int, float, bool, bytes, type(None))


def _same(value: Any) -> Any:
    return value


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)  # each class's annotations read in its own module


@cache
def _converters(annotation: Any) -> tuple[Convert, Convert]:
    """(to plain, from plain) for one type; the identity both ways where nothing nests."""
    if annotation is Any or annotation in _ATOMS:
        return _same, _same
    if dataclasses.is_dataclass(annotation) and isinstance(annotation, type):
        return _dataclass_converters(annotation)
    if isinstance(annotation, type) and isinstance(getattr(annotation, "kinds", None), dict):
        return _kind_converters(annotation.kinds)  # type: ignore[attr-defined]  # checked just above
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        arms = [a for a in args if a is not type(None)]
        if len(arms) != 1:
            raise TypeError(f"only `X | None` unions can be cached, not {annotation!r}")
        dump, load = _converters(arms[0])
        if dump is _same:
            return _same, _same
        return (lambda v: None if v is None else dump(v)), (lambda v: None if v is None else load(v))
    if origin is tuple and args and not (len(args) == 2 and args[1] is Ellipsis):
        return _record_converters(args)
    if origin in (list, tuple, frozenset, set):
        item = args[0] if args else Any
        dump, load = _converters(item)
        if dump is _same:
            return _same, _same
        if origin is list:
            return (lambda v: [dump(x) for x in v]), (lambda v: [load(x) for x in v])
        return (lambda v: origin([dump(x) for x in v])), (lambda v: origin([load(x) for x in v]))
    if origin is dict:
        key_dump, key_load = _converters(args[0] if args else Any)
        value_dump, value_load = _converters(args[1] if args else Any)
        if key_dump is _same and value_dump is _same:
            return _same, _same
        return ((lambda v: {key_dump(k): value_dump(x) for k, x in v.items()}),
                (lambda v: {key_load(k): value_load(x) for k, x in v.items()}))
    raise TypeError(f"{annotation!r} cannot be cached as plain data")


def _record_converters(items: tuple[Any, ...]) -> tuple[Convert, Convert]:
    """A fixed-size tuple (`tuple[int, int]`): each place converted by its own type."""
    pairs = [_converters(item) for item in items]
    if all(dump is _same for dump, _ in pairs):
        return _same, _same
    dumps = tuple(dump for dump, _ in pairs)
    loads = tuple(load for _, load in pairs)

    def load(data: Any) -> tuple[Any, ...]:
        if not isinstance(data, tuple) or len(data) != len(loads):
            raise ValueError(f"not a cached tuple of {len(loads)}")
        return tuple(convert(item) for convert, item in zip(loads, data))

    return (lambda v: tuple(convert(item) for convert, item in zip(dumps, v))), load


def _dataclass_converters(cls: type) -> tuple[Convert, Convert]:
    hints = _hints(cls)
    names = tuple(f.name for f in dataclasses.fields(cls) if f.init)
    pairs = [_converters(hints[name]) for name in names]
    loads = tuple(load for _, load in pairs)
    size = len(loads)
    # only the fields that nest are converted: most are atoms, stored as they are
    nested = tuple((place, convert) for place, convert in enumerate(loads) if convert is not _same)
    nested_dumps = tuple((place, dump) for place, (dump, _) in enumerate(pairs) if dump is not _same)
    fields = operator.attrgetter(*names) if size > 1 else (lambda value: (getattr(value, names[0]),)) if size else (
        lambda value: ())

    def dump(value: Any) -> tuple[Any, ...]:
        if not nested_dumps:
            return fields(value)
        values = list(fields(value))
        for place, convert in nested_dumps:
            values[place] = convert(values[place])
        return tuple(values)

    def load(data: Any) -> Any:
        if not isinstance(data, tuple) or len(data) != size:
            raise ValueError(f"not a cached {cls.__name__}")
        if not nested:
            return cls(*data)
        values = list(data)
        for place, convert in nested:
            values[place] = convert(values[place])
        return cls(*values)

    return dump, load


def _kind_converters(kinds: dict[str, type]) -> tuple[Convert, Convert]:
    """One of several dataclasses, named: `(name, *fields)`."""

    def dump(value: Any) -> tuple[Any, ...]:
        kind: Any = type(value)
        return (kind.__name__, *_converters(kind)[0](value))

    def load(data: Any) -> Any:
        if not isinstance(data, tuple) or not data or data[0] not in kinds:
            raise ValueError("not a cached value of a known kind")
        return _converters(kinds[data[0]])[1](data[1:])

    return dump, load


def to_plain(value: T, cls: type[T]) -> Any:
    """A model value of type `cls` as plain data."""
    dump: Convert = _converters(cls)[0]  # type: ignore[arg-type]  # a class is hashable
    return dump(value)


def from_plain(data: Any, cls: type[T]) -> T:
    """The value `to_plain` wrote; ValueError or TypeError when the data has another shape."""
    load: Convert = _converters(cls)[1]  # type: ignore[arg-type]  # a class is hashable
    value: T = load(data)
    return value
