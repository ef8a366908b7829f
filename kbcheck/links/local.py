"""Paths kept out of git on purpose: a link into them is local by design, not broken.

A folder the repository ignores (`raw/` in `.gitignore`, holding the PDFs and
converted papers a note's frontmatter and links point to) is on the writer's
disk and on nobody else's, by choice. What git ignores is asked of git
(`git check-ignore`, which reads every `.gitignore` as git does, for paths
that need not exist); the configuration's `local-paths` globs add to it.
Answers are kept per path, so a run asks git once for each new target, and
through one `check-ignore` process for the whole run.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from kbcheck.globs import globset

if TYPE_CHECKING:
    from kbcheck import git
    from kbcheck.sources import Snapshot


class LocalPaths:
    """Which targets are local by design, and the pattern that makes each so."""

    def __init__(self, snapshot: Snapshot, globs: Iterable[str]) -> None:
        self._repo: git.Repository | None = getattr(snapshot, "repo", None)
        self._globs = tuple(globs)
        self._configured = globset(self._globs)
        self._known: dict[str, str | None] = {}
        self._checker: git.IgnoreChecker | None = None

    def why(self, targets: Iterable[str]) -> dict[str, str]:
        """target -> the pattern that keeps it out of git, for those of `targets` that are local."""
        targets = list(targets)
        wanted = [t for t in dict.fromkeys(targets) if t and t not in self._known]
        for target in wanted:
            self._known[target] = next((g for g in self._globs if globset((g,)).match(target)), None) \
                if self._configured.match(target) else None
        ask = [t for t in wanted if self._known[t] is None and not t.startswith(":") and "\n" not in t]
        if ask and self._repo is not None:
            self._known.update(self._ignored(ask))
        return {t: why for t in targets if (why := self._known.get(t))}

    def _ignored(self, paths: list[str]) -> dict[str, str]:
        from kbcheck import git

        assert self._repo is not None
        if self._checker is None:
            self._checker = git.IgnoreChecker(self._repo)
        return self._checker.ignored(paths)
