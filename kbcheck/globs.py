"""Gitignore-style globs over `/`-separated repo-relative paths (via pathspec)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any


class GlobSet:
    """A set of gitignore-style patterns; `**` crosses folders."""

    __slots__ = ("patterns", "_spec")

    def __init__(self, patterns: Iterable[str]) -> None:
        self.patterns = tuple(patterns)
        self._spec: Any = None

    def match(self, path: str) -> bool:
        """True when any pattern matches the repo-relative path."""
        if not self.patterns:
            return False
        if self._spec is None:
            import pathspec

            self._spec = pathspec.PathSpec.from_lines("gitignore", self.patterns)
        return bool(self._spec.match_file(path))


@lru_cache(maxsize=256)
def globset(patterns: tuple[str, ...]) -> GlobSet:
    """A compiled, shared `GlobSet` for a tuple of patterns."""
    return GlobSet(patterns)


def matches(patterns: Iterable[str], path: str) -> bool:
    """True when the path matches any of the gitignore-style patterns."""
    return globset(tuple(patterns)).match(path)
