"""Indented JSON written a piece at a time: byte for byte what `json.dumps(value,
ensure_ascii=False, indent=2)` writes, without ever holding the whole document.

A file of 100k findings made the JSON reports hold every finding three times
over (the findings, their dicts, the encoder's chunks, then one string of them
all). Here a long list is `Items`: each item is made, written and let go, as
flake8's formatters stream.

Only the indentation is written here. The standard encoder indents in pure
Python, two to four times slower per finding than this walk (its C encoder
cannot indent, and per container it costs more than it saves): strings go
through its C `encode_basestring`, and what a report rarely holds (a float, a
key that is not a string, a value that is no JSON) is handed to `json.dumps`,
which writes or refuses it in its own words.
"""

from __future__ import annotations

import json
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
    _encode(value, "", out.write)
    out.write("\n")


def dumps(value: object, indent: str = "") -> str:
    """`json.dumps(value, ensure_ascii=False, indent=2)`, its lines after the first indented by `indent`."""
    parts: list[str] = []
    _encode(value, indent, parts.append)
    return "".join(parts)


def _encode(value: object, indent: str, put: Callable[[str], object]) -> None:
    """The pieces of one value, in the order and spacing of `json.dumps(indent=2)`; an item of
    an `Items` is made whole and put as one piece (an `Items` in it too)."""
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
    elif isinstance(value, dict):
        if not value:
            put("{}")
            return
        inner = indent + STEP
        opening = "{\n" + inner
        for key, item in value.items():
            put(opening + (encode_basestring(key) if isinstance(key, str) else _key(key)) + ": ")
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
        inner = indent + STEP
        opening = "[\n" + inner
        for item in value.items:
            put(opening + dumps(item, inner))
            opening = ",\n" + inner
        put("[]" if opening[0] == "[" else "\n" + indent + "]")
    else:  # a float, or no JSON at all
        put(json.dumps(value))


def _key(key: object) -> str:
    """A key that is not a string, as `json.dumps` writes it (a number or constant quoted), or its TypeError."""
    return json.dumps({key: 0})[1:-4]
