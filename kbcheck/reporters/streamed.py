"""Indented JSON written a piece at a time: byte for byte what `json.dumps(value,
ensure_ascii=False, indent=2)` writes, without ever holding the whole document.

A file of 100k findings made the JSON reports hold every finding three times
over (the findings, their dicts, the encoder's chunks, then one string of them
all). Here a long list is `Items`: each item is made, written and let go, as
flake8's formatters stream. The encoder is the standard library's for strings
(`encode_basestring`) and numbers; only the indentation is written here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from json.encoder import encode_basestring  # the C one where there is one
from typing import TextIO

#: one level of indentation (`indent=2`)
STEP = "  "


class Items:
    """A list of a JSON document whose items are made only as they are written."""

    __slots__ = ("items",)

    def __init__(self, items: Iterable[object]) -> None:
        self.items = items


def write_json(value: object, out: TextIO) -> None:
    """Write `value` as indented JSON and a line break; each `Items` in it one item at a time."""
    _write(value, out, "")
    out.write("\n")


def dumps(value: object, indent: str = "") -> str:
    """`json.dumps(value, ensure_ascii=False, indent=2)`, its lines after the first indented by `indent`."""
    parts: list[str] = []
    _encode(value, indent, parts.append)
    return "".join(parts)


def _write(value: object, out: TextIO, indent: str) -> None:
    if isinstance(value, Items):
        inner = indent + STEP
        opening = "[\n" + inner
        for item in value.items:  # an item is small: made whole (an `Items` in it too)
            out.write(opening + dumps(item, inner))
            opening = ",\n" + inner
        out.write("[]" if opening[0] == "[" else "\n" + indent + "]")
    elif isinstance(value, dict) and _streams(value):
        inner = indent + STEP
        opening = "{\n" + inner
        for key, item in value.items():
            out.write(opening + encode_basestring(_key(key)) + ": ")
            opening = ",\n" + inner
            _write(item, out, inner)
        out.write("\n" + indent + "}")
    elif isinstance(value, list | tuple) and _streams(value):
        inner = indent + STEP
        opening = "[\n" + inner
        for item in value:
            out.write(opening)
            opening = ",\n" + inner
            _write(item, out, inner)
        out.write("\n" + indent + "]")
    else:
        out.write(dumps(value, indent))


def _streams(value: object) -> bool:
    """Whether a container holds an `Items` somewhere (it is then written piece by piece)."""
    if isinstance(value, Items):
        return True
    if isinstance(value, dict):
        return any(_streams(item) for item in value.values())
    if isinstance(value, list | tuple):
        return any(_streams(item) for item in value)
    return False


def _encode(value: object, indent: str, put: Callable[[str], object]) -> None:
    """The pieces of one value, in the order and spacing of `json.dumps(indent=2)`."""
    if isinstance(value, str):
        put(encode_basestring(value))
    elif value is None:
        put("null")
    elif value is True:
        put("true")
    elif value is False:
        put("false")
    elif isinstance(value, int):
        put(int.__repr__(value))
    elif isinstance(value, float):
        put(_float(value))
    elif isinstance(value, dict):
        if not value:
            put("{}")
            return
        inner = indent + STEP
        opening = "{\n" + inner
        for key, item in value.items():
            put(opening + encode_basestring(key if isinstance(key, str) else _key(key)) + ": ")
            opening = ",\n" + inner
            _encode(item, inner, put)
        put("\n" + indent + "}")
    elif isinstance(value, list | tuple):
        if not value:
            put("[]")
            return
        inner = indent + STEP
        opening = "[\n" + inner
        for item in value:
            put(opening)
            opening = ",\n" + inner
            _encode(item, inner, put)
        put("\n" + indent + "]")
    elif isinstance(value, Items):
        _encode(list(value.items), indent, put)
    else:
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


def _key(key: object) -> str:
    """A key as `json` writes it: a string as is, a number or constant as its JSON text."""
    if isinstance(key, str):
        return key
    if isinstance(key, float):
        return _float(key)
    if key is True or key is False or key is None:
        return {True: "true", False: "false", None: "null"}[key]
    if isinstance(key, int):
        return int.__repr__(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")
