"""Heading patterns: kbcheck's own run on Python's `re`, configured ones on RE2.

A heading pattern runs on every heading of every file, and a configuration
comes with any pull request: a pattern that backtracks (`^(\\s*a+)+$`) would
let one heading stall a CI job for minutes. kbcheck's default patterns are
written to run in linear time on `re`; a pattern from the configuration is
compiled by RE2 (google-re2), whose matching time is linear in the text
whatever the pattern. RE2 has no lookarounds and no backreferences: a
configured pattern using them is refused with one line. Python's `\\uXXXX`
escapes are accepted and passed on as RE2's `\\x{XXXX}`. See
`docs/configuration.md`.

Whatever the engine, a heading is matched on its first `MAX_HEADING_CHARS`
characters only (a section title is never longer).
"""

from __future__ import annotations

import re
from typing import Any, Protocol

#: how much of a heading any pattern sees
MAX_HEADING_CHARS = 1000

# a `\u` escape preceded by an even number of backslashes (an escaped backslash is not an escape)
_PYTHON_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\u([0-9A-Fa-f]{4})")


class HeadingRegex(Protocol):
    """What kbcheck asks of a compiled heading pattern (`re.Pattern` and `LinearPattern` both are one)."""

    @property
    def pattern(self) -> str: ...

    def search(self, string: str, /) -> object | None: ...


class PatternError(ValueError):
    """A configured pattern RE2 cannot compile; the message is RE2's reason."""


class LinearPattern:
    """A pattern compiled by RE2: matching time linear in the text."""

    def __init__(self, pattern: str) -> None:
        import re2

        options = re2.Options()
        options.log_errors = False  # RE2 would print its own line to stderr besides the error
        self.pattern = pattern
        try:
            self._compiled: Any = re2.compile(_PYTHON_ESCAPE.sub(r"\1\\x{\2}", pattern), options)
        except re2.error as exc:
            reason = exc.args[0] if exc.args else exc
            raise PatternError(reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)) from None

    def search(self, string: str, /) -> object | None:
        found: object | None = self._compiled.search(string)
        return found

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LinearPattern) and other.pattern == self.pattern

    def __hash__(self) -> int:
        return hash(self.pattern)

    def __repr__(self) -> str:
        return f"LinearPattern({self.pattern!r})"


__all__ = ["MAX_HEADING_CHARS", "HeadingRegex", "LinearPattern", "PatternError"]
