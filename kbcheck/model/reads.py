"""Which files a piece of work read, and which notices it said: what a result kept for later depends on.

A file's check reads more than the file: the cards it cites, the notes it
links, the ids those notes stand for. The fact store notes every file whose
facts are asked while a frame is open (`FactStore.reads`), and a value the
knowledge base keeps for the run (`KnowledgeBase.derived`, `resolve`) keeps
the files it read with it and notes them again each time it is served, so a
frame sees every file its work depended on, however much of it was served
from memory. `kbcheck.checked.FileReads` keeps a file's findings with that
list and serves them only while each of those files is unchanged
(docs/architecture.md, "Kept checks").

Besides files, a check asks questions of the listing: which card has an id,
which file a wikilink names, which ids are near an unknown one. Each is noted
as a `question` (a string that starts with NUL, which no path does), and
`KnowledgeBase.answer` answers it again when the kept result is asked for:
a note added with the name a wikilink was missing checks the linking note
again, and no other.

Notices are said through `say`: said again by a later file, a notice is not
repeated in the run's list, but the frame still records it, so the notices
kept with a file are all the ones its check would say.
"""

from __future__ import annotations

from collections.abc import Iterable

#: how a noted question starts: no path starts with NUL
QUESTION = "\0"


def question(kind: str, *args: str) -> str:
    """A question of the listing, noted as a read is (`KnowledgeBase.answer` answers it)."""
    return "\0".join(("", kind, *args))


class Frame:
    """What one piece of work read (paths) and said (notices, in order)."""

    __slots__ = ("paths", "said")

    def __init__(self) -> None:
        self.paths: set[str] = set()
        self.said: list[str] = []


class Reads:
    """A stack of open frames; what is read or said goes to the innermost, and to its outer ones when it closes."""

    def __init__(self) -> None:
        self._frames: list[Frame] = []

    def note(self, path: str) -> None:
        """The facts of `path` were read."""
        if self._frames:
            self._frames[-1].paths.add(path)

    def note_all(self, paths: Iterable[str]) -> None:
        """A value worked out from these files was served."""
        if self._frames:
            self._frames[-1].paths.update(paths)

    def said(self, notice: str) -> None:
        if self._frames:
            self._frames[-1].said.append(notice)

    def open(self) -> Frame:
        frame = Frame()
        self._frames.append(frame)
        return frame

    def close(self, frame: Frame) -> None:
        """Close the innermost frame (`frame`); its reads and notices count for the frame around it too."""
        assert self._frames and self._frames[-1] is frame, "frames close innermost first"
        self._frames.pop()
        if self._frames:
            outer = self._frames[-1]
            outer.paths |= frame.paths
            outer.said.extend(frame.said)


__all__ = ["QUESTION", "Frame", "Reads", "question"]
