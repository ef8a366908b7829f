"""A mapping that holds only its most recently stored values: what a run reads of every file.

A digest sweeps all of a knowledge base's notes more than once (the ids each
note is about, the names their titles coin, what they all repeat); holding
the text and the parse of each of 10k notes for the whole run took gigabytes.
Values past the bound are let go in the order they were stored and read
again when asked (from the cache, or from git). None, "this file has no
text", is small and is always kept: it stands for a notice said once.
"""

from __future__ import annotations

from typing import TypeVar

V = TypeVar("V")


class Recent(dict[str, V]):
    """A dict that keeps at most `limit` values other than None (no bound when `limit` is None)."""

    def __init__(self, limit: int | None) -> None:
        super().__init__()
        self.limit = limit
        self._order: dict[str, None] = {}

    def __setitem__(self, key: str, value: V) -> None:
        super().__setitem__(key, value)
        if self.limit is None:
            return
        self._order.pop(key, None)
        if value is None:
            return
        self._order[key] = None
        while len(self._order) > self.limit:
            oldest = next(iter(self._order))
            del self._order[oldest]
            super().__delitem__(oldest)

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        self._order.pop(key, None)

    def pop(self, key: str, *default: object) -> object:  # type: ignore[override]
        self._order.pop(key, None)
        return super().pop(key, *default)

    def clear(self) -> None:
        super().clear()
        self._order.clear()


__all__ = ["Recent"]
