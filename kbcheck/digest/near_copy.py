"""Near-copies: an added note whose body is, all but a line or two, a note already in the knowledge base.

A backup restores a note beside the copy kept under another name, or an author copies a note to
rework it and leaves the first: the added file is no new material, whatever its ids say. The
measure is the note's **body lines**: below its frontmatter or metadata header, headings, blank
lines and lines without a letter or digit left out, each with its spacing collapsed and its case
folded, as a set. Two notes are near-copies when the lines they share are at least `SHARE` of the
larger set and the added note has at least `MIN_LINES` lines: a stub's few lines are too short to
match, and two notes filled in from one template share its headings (no body lines) and its
fixed prompts, not what was written under them.

The original of a pair is the note that was there at the base; of two added in the range, the
one added first, and on the same day the shorter path (a copy takes a suffix: `-copy`, `-no1`,
` (2)`). Candidates come from an index of each note's `KEPT` smallest line hashes (cached by
blob id): notes that share most of their lines share one of their smallest almost always, so only
those few are compared line by line.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from kbcheck.digest.metadata_header import without_header
from kbcheck.model.cards import split_frontmatter
from kbcheck.model.knowledge_base import BRIEF, GUIDE
from kbcheck.regex import lazy

if TYPE_CHECKING:
    from kbcheck.digest.chronology import AddedDays
    from kbcheck.model.knowledge_base import KnowledgeBase

#: the share of the larger note's lines both must hold, and the fewest lines a note to match has
SHARE = 0.8
MIN_LINES = 6
#: line hashes kept per note for the index
KEPT = 4
#: the cache namespace and key of a note's (line count, smallest line hashes)
_FACTS, _KEY = "item", "near-copy"
_SPACE = lazy(r"\s+")
_WORD = lazy(r"\w")
_HEADING = lazy(r" {0,3}#{1,6}(?:\s|$)")


def body_lines(text: str) -> set[str]:
    """The note's body lines, normalised (module docstring)."""
    body = without_header(split_frontmatter(text)[2])
    out: set[str] = set()
    for line in body.split("\n"):
        if _WORD.search(line) and not _HEADING.match(line):
            out.add(_SPACE.sub(" ", line).strip().casefold())
    return out


def _signature(text: str) -> tuple[int, list[int]]:
    lines = body_lines(text)
    return len(lines), sorted(zlib.crc32(line.encode("utf-8", "surrogateescape")) for line in lines)[:KEPT]


def near_copies(a: set[str], b: set[str]) -> bool:
    """Whether two notes' body lines make them near-copies (at least MIN_LINES in the first)."""
    return len(a) >= MIN_LINES and len(a & b) >= SHARE * max(len(a), len(b))


class NearCopies:
    """The notes of the knowledge base at head by their smallest line hashes, indexed when first asked."""

    def __init__(self, kb: KnowledgeBase, existed: Callable[[str], bool], added: AddedDays | None) -> None:
        self.kb = kb
        #: notes that were there at the base: originals whatever their dates
        self.existed = existed
        self.added = added
        self._index: dict[int, list[str]] | None = None
        self._lines: dict[str, set[str]] = {}
        self._sigs: dict[str, tuple[int, list[int]] | None] = {}

    def _sig(self, path: str) -> tuple[int, list[int]] | None:
        if path not in self._sigs:
            value = self.kb.facts.fact(_FACTS, path, _KEY, _signature)
            ok = isinstance(value, (tuple, list)) and len(value) == 2
            self._sigs[path] = (int(value[0]), [int(h) for h in value[1]]) if ok else None  # type: ignore[index]
        return self._sigs[path]

    def _built(self) -> dict[int, list[str]]:
        if self._index is None:
            self._index = {}
            for path in self.kb.paths_of_kind(GUIDE, BRIEF):
                sig = self._sig(path)
                if sig is not None and sig[0] >= MIN_LINES:
                    for line_hash in sig[1]:
                        self._index.setdefault(line_hash, []).append(path)
        return self._index

    def original_of(self, path: str) -> str | None:
        """The note the added note at `path` nearly copies, when that note is the original (module docstring)."""
        sig = self._sig(path)
        if sig is None or sig[0] < MIN_LINES:
            return None
        index = self._built()
        candidates = sorted({other for h in sig[1] for other in index.get(h, ()) if other != path})
        for other in candidates:
            theirs = self._sig(other)
            # the lines they share are at most the smaller count: too different in length, no copies
            if theirs is None or min(sig[0], theirs[0]) < SHARE * max(sig[0], theirs[0]):
                continue
            if near_copies(self._lines_of(path), self._lines_of(other)) and self._first(other, path):
                return other
        return None

    def _lines_of(self, path: str) -> set[str]:
        if path not in self._lines:
            text = self.kb.text(path)
            self._lines[path] = body_lines(text) if text is not None else set()
        return self._lines[path]

    def _first(self, other: str, path: str) -> bool:
        """Whether `other` is the original of the pair (module docstring)."""
        if self.existed(other):
            return True
        mine = self.added.of(path) if self.added is not None else None
        theirs = self.added.of(other) if self.added is not None else None
        if mine is not None and theirs is not None and mine != theirs:
            return theirs < mine
        return (len(other), other) < (len(path), path)


__all__ = ["KEPT", "MIN_LINES", "SHARE", "NearCopies", "body_lines", "near_copies"]
