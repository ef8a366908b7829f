"""Gitignore-style globs over `/`-separated repo-relative paths (via pathspec).

pathspec turns each glob into a regular expression. A set without negations
(`!`) matches when any of its expressions does, and an expression anchored at
the root opens with literal text (`docs/ACL2025/ai_safety` for
`docs/ACL2025/ai_safety/**/*.md`): a path that does not start with it cannot
match, so that expression is neither compiled nor tried for it. A configuration
of a few hundred folder globs (what `kbcheck init` writes for a large
collection) costs a string comparison per glob, not a regex compiled at start-up
and run on every file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

#: the start of an expression: `^`, then literal characters or escaped ones, up to the first construct
_LITERAL_START = re.compile(r"\^((?:[^\\.^$*+?{}\[\]|()]|\\[^A-Za-z0-9])*)")
_ESCAPE = re.compile(r"\\(.)")


@lru_cache(maxsize=1024)
def _to_regex(glob: str) -> tuple[str | None, bool | None]:
    """pathspec's expression for one gitignore glob and whether it includes (None: a blank or a comment);
    kept, as the configuration's check and the glob set both translate each glob."""
    from pathspec.patterns.gitignore.basic import GitIgnoreBasicPattern  # what PathSpec's "gitignore" reads

    regex, include = GitIgnoreBasicPattern.pattern_to_regex(glob)
    return regex, include


def glob_error(glob: str) -> str | None:
    """Why pathspec refuses a glob, or None. Only an expression holding a bracket (`[z-a]`) can fail
    to compile: the rest of what pathspec writes is escaped text and fixed constructs."""
    try:
        regex, _include = _to_regex(glob)
        if regex is not None and "[" in regex:
            re.compile(regex)
    except (ValueError, re.error) as exc:  # pathspec's pattern error is a ValueError
        return str(exc)
    return None


def _literal_start(regex: str) -> str:
    found = _LITERAL_START.match(regex)
    return _ESCAPE.sub(r"\1", found.group(1)) if found else ""


class GlobSet:
    """A set of gitignore-style patterns; `**` crosses folders."""

    __slots__ = ("_compiled", "_regexes", "_spec", "_starts", "patterns")

    def __init__(self, patterns: Iterable[str]) -> None:
        self.patterns = tuple(patterns)
        self._spec: Any = None
        #: with no negation: each expression, the literal text it opens with, and its compiled form once needed
        self._regexes: list[str] | None = None
        self._starts: list[str] = []
        self._compiled: list[re.Pattern[str] | None] = []

    def _prepare(self) -> list[str]:
        parts = [_to_regex(glob) for glob in self.patterns]
        if any(include is False for _regex, include in parts):
            import pathspec

            # a negation undoes an earlier match: pathspec decides, in order
            self._spec = pathspec.PathSpec.from_lines("gitignore", self.patterns)
            self._regexes = []
            return self._regexes
        self._regexes = [regex for regex, include in parts if include and regex is not None]
        self._starts = [_literal_start(regex) for regex in self._regexes]
        self._compiled = [None] * len(self._regexes)
        return self._regexes

    def match(self, path: str) -> bool:
        """True when any pattern matches the repo-relative path."""
        if not self.patterns:
            return False
        regexes = self._regexes if self._regexes is not None else self._prepare()
        if self._spec is not None:
            return bool(self._spec.match_file(path))
        norm = path[1:] if path.startswith("/") else path[2:] if path.startswith("./") else path
        for index, start in enumerate(self._starts):
            if not norm.startswith(start):
                continue
            compiled = self._compiled[index]
            if compiled is None:
                compiled = self._compiled[index] = re.compile(regexes[index])
            if compiled.search(norm) is not None:  # as pathspec does: `*/` is the expression `/`
                return True
        return False


@lru_cache(maxsize=256)
def globset(patterns: tuple[str, ...]) -> GlobSet:
    """A compiled, shared `GlobSet` for a tuple of patterns."""
    return GlobSet(patterns)


def matches(patterns: Iterable[str], path: str) -> bool:
    """True when the path matches any of the gitignore-style patterns."""
    return globset(tuple(patterns)).match(path)
