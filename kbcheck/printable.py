"""Text every output can carry, and a terminal shows as written.

A file name that is not UTF-8 holds its bytes as lone surrogates
(`surrogateescape`): JSON, SARIF and GitLab reports must be valid UTF-8, so
such a byte is written as git writes it, `\\351`, in messages as in paths.
A control character in a file name, a trend line or a disable comment
(`ESC [2K` erases a line) is shown escaped (`\\x1b`) wherever kbcheck writes
to a terminal: the text report and the notices.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from kbcheck.regex import lazy

_UNDECODABLE = lazy("[\udc80-\udcff]")
#: C0 controls but tab and line feed, DEL, and C1 controls (a terminal reads `\x9b` as `ESC [`)
_TERMINAL_CONTROL = lazy("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def undecodable_as_octal(text: str) -> str:
    """`text` with each byte that was not UTF-8 written `\\NNN`."""
    if not _UNDECODABLE.search(text):
        return text
    return _UNDECODABLE.sub(lambda m: f"\\{ord(m.group()) - 0xDC00:03o}", text)


def printable_message(message: str) -> str:
    """A message (plain, or an `i18n.Text` that remembers its values) that every output can carry;
    a `Text` stays one, so that it is still said in the run's language."""
    from kbcheck.i18n import Text

    if not isinstance(message, Text):
        return undecodable_as_octal(message)
    if not _UNDECODABLE.search(message):
        return message
    values = {name: printable_message(value) if isinstance(value, str) else value
              for name, value in message.values.items()}
    return Text(message.msgid, values, message.plural, message.number)


def printable_data(data: Any) -> Any:
    """Every string of JSON-like data, undecodable bytes written `\\NNN`; the value of a `path`
    or `old_path` key quoted as a finding's path is (`printable_path`)."""
    if isinstance(data, str):
        return undecodable_as_octal(data)
    if isinstance(data, dict):
        return {printable_data(key): printable_path(value) if key in _PATH_KEYS and isinstance(value, str)
                else printable_data(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [printable_data(value) for value in data]
    return data


#: the keys of JSON data that hold a file name
_PATH_KEYS = frozenset({"path", "old_path"})


def for_terminal(text: str) -> str:
    """`text` with every control character but tab and line feed shown as `\\xNN`."""
    if not _TERMINAL_CONTROL.search(text):
        return text
    return _TERMINAL_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


_GIT_ESCAPES = {0x07: "\\a", 0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0B: "\\v", 0x0C: "\\f", 0x0D: "\\r",
                0x22: '\\"', 0x5C: "\\\\"}


def printable_path(path: str) -> str:
    """The path as is, or, when its bytes are not UTF-8, quoted as git quotes it (`core.quotePath`):
    `"inbox/caf\\351.md"`. Every output format can then carry it, and `git ls-files` shows the same."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        pass
    else:
        return path
    raw = path.encode("utf-8", "surrogateescape")
    out = []
    for byte in raw:
        if byte in _GIT_ESCAPES:
            out.append(_GIT_ESCAPES[byte])
        elif byte < 0x20 or byte >= 0x7F:
            out.append(f"\\{byte:03o}")
        else:
            out.append(chr(byte))
    return '"' + "".join(out) + '"'


def cells(text: str) -> int:
    """How many terminal cells `text` takes: wide and full-width (CJK) characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)
