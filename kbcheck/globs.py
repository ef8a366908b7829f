"""Gitignore-style globs over `/`-separated repo-relative paths (via pathspec)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any


class GlobSet:
    """A set of gitignore-style patterns; `**` crosses folders."""

    __slots__ = ("_regexes", "_spec", "patterns")

    def __init__(self, patterns: Iterable[str]) -> None:
        self.patterns = tuple(patterns)
        self._spec: Any = None
        self._regexes: tuple[Any, ...] | None = None

    def match(self, path: str) -> bool:
        """True when any pattern matches the repo-relative path."""
        if not self.patterns:
            return False
        if self._spec is None:
            import pathspec

            self._spec = pathspec.PathSpec.from_lines("gitignore", self.patterns)
            active = [p for p in self._spec.patterns if p.include is not None]
            if all(p.include and getattr(p, "regex", None) is not None for p in active):
                # no negation: "any pattern matches" is the whole answer, and calling the
                # compiled regexes directly is several times cheaper per path (a full
                # check asks this for every file of the knowledge base)
                self._regexes = tuple(p.regex for p in active)
        if self._regexes is not None:
            norm = path[1:] if path.startswith("/") else path[2:] if path.startswith("./") else path
            return any(regex.match(norm) is not None for regex in self._regexes)
        return bool(self._spec.match_file(path))


@lru_cache(maxsize=256)
def globset(patterns: tuple[str, ...]) -> GlobSet:
    """A compiled, shared `GlobSet` for a tuple of patterns."""
    return GlobSet(patterns)


def matches(patterns: Iterable[str], path: str) -> bool:
    """True when the path matches any of the gitignore-style patterns."""
    return globset(tuple(patterns)).match(path)
