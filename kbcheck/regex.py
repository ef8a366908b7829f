"""Regular expressions compiled the first time they are used, not when their module is imported.

kbcheck's modules keep about two hundred patterns as constants, and a hook
that checks one note uses few of them: compiled at import they cost it a
sixth of a second. `lazy(pattern, flags)` stands in for `re.compile`: the
stand-in compiles on first use, then holds the compiled pattern's own bound
methods, so every later call costs what it costs on a compiled pattern.
Its `pattern` is there without compiling (patterns built from others read it).
"""

from __future__ import annotations

import re
from typing import Any, AnyStr, cast

#: what a compiled pattern offers that kbcheck's code asks of one
_FORWARDED = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner",
              "flags", "groups", "groupindex")


class _OnFirstUse:
    """A pattern and its flags, compiled at the first lookup of anything but `pattern`."""

    def __init__(self, pattern: str | bytes, flags: int) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str) -> Any:  # only called for what the instance does not hold yet
        if name.startswith("__") or name == "_flags":
            raise AttributeError(name)
        compiled = re.compile(self.pattern, self._flags)
        for forwarded in _FORWARDED:
            setattr(self, forwarded, getattr(compiled, forwarded))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r})"


def lazy(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """`re.compile(pattern, flags)`, done on first use (a bad pattern fails there, and tests use them all)."""
    return cast("re.Pattern[AnyStr]", _OnFirstUse(pattern, flags))


__all__ = ["lazy"]
