"""`kbcheck cache clear`: remove the parse cache under the git directory."""

from __future__ import annotations

from typing import TextIO

from kbcheck.commands import repository


def run_cache_clear(out: TextIO) -> int:
    from kbcheck.cache import clear_cache

    repo = repository()
    clear_cache(repo.common_dir)  # where every worktree's runs keep it
    print("kbcheck cache cleared", file=out)
    return 0


__all__ = ["run_cache_clear"]
