"""Moves git does not see: a note deleted in one folder and added, much rewritten, in another.

Git pairs a deletion with an addition only when the contents are alike; a
template moved to another folder and filled in there is a deletion and an
addition to it, and the digest would call the note gone. A deleted and an
added markdown file of one range are one note moved when they share a name
that no other file in the tree at either end has: their file name, or for a
folder's own page (`README.md`, `index.md`, `_index.md`) their folder and file
name (`Tree Drafts/README.md`). The move is then a modification of the note at
its new path (`docs/output.md`, "Moves").
"""

from __future__ import annotations

import posixpath
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from kbcheck.evidence.discussed import SEPARATORS
from kbcheck.model.document import MARKDOWN_SUFFIXES
from kbcheck.regex import lazy

if TYPE_CHECKING:
    from kbcheck.git import Change


#: file names (without suffix, case ignored) that are a folder's own page: the folder names the note
INDEX_STEMS = frozenset({"readme", "index", "_index"})
#: a name of at least this many words names one work (`Introduction.md`, `2 - Setup.md` name none)
NAME_WORDS = 4
_NAME_WORD = lazy(r"[^\W\d_]+")
_CJK = lazy(r"[\u3400-\u4dbf\u4e00-\u9fff]")


def work_key(name: str) -> str | None:
    """A file name or a title as a key (casefolded, every run of separators one space), when it is
    long enough to name one work: `NAME_WORDS` words, a CJK word counted per two characters."""
    key = " ".join(SEPARATORS.split(name.casefold())).strip()
    words = sum(1 for word in _NAME_WORD.findall(key) if not _CJK.match(word))
    words += len(_CJK.findall(key)) // 2
    return key if words >= NAME_WORDS else None


def note_name(path: str) -> str:
    """What names a note: its file name, or for a folder's own page (`README.md`, `index.md`,
    `_index.md`) its folder and file name (`Tree Drafts/README.md`)."""
    name = posixpath.basename(path)
    if posixpath.splitext(name)[0].lower() in INDEX_STEMS:
        return "/".join(path.split("/")[-2:]) if "/" in path else ""
    return name


def note_folder(path: str) -> str:
    """The folder a note is filed in: its file's, or for a folder's own page the folder's parent
    (`classics/Attention/README.md` is filed in `classics`); "" at the top."""
    folder = posixpath.dirname(path)
    if posixpath.splitext(posixpath.basename(path))[0].lower() in INDEX_STEMS:
        folder = posixpath.dirname(folder)
    return folder


def paired_moves(changes: list[Change], base_paths: Callable[[], Iterable[str]],
                 head_paths: Callable[[], Iterable[str]]) -> list[Change]:
    """`changes` with each deletion and addition that are one note moved (a name only they hold, in
    the trees at `base` and `head`, listed only when a range both deletes and adds a note) made one
    rename, at the addition's place in the list."""
    deleted = [c.path for c in changes if c.status == "D" and c.path.lower().endswith(MARKDOWN_SUFFIXES)]
    added = [c.path for c in changes if c.status == "A" and c.path.lower().endswith(MARKDOWN_SUFFIXES)]
    if not deleted or not added:
        return changes
    trees = [*base_paths(), *head_paths()]
    moved = _pairs(deleted, added, trees)  # added path -> deleted path
    if not moved:
        return changes
    gone = set(moved.values())
    out: list[Change] = []
    for change in changes:
        if change.status == "D" and change.path in gone:
            continue
        if change.status == "A" and change.path in moved:
            change = replace(change, status="R", old_path=moved[change.path])
        out.append(change)
    return out


def _pairs(deleted: list[str], added: list[str], trees: list[str]) -> dict[str, str]:
    """Added path -> deleted path, for the names one deleted and one added file hold and no other
    file of either tree does (a path in both trees counts once)."""
    wanted = {note_name(p) for p in deleted} & {note_name(p) for p in added}
    wanted.discard("")
    if not wanted:
        return {}
    holders = Counter(note_name(p) for p in set(trees) if note_name(p) in wanted)
    gone = Counter(note_name(p) for p in deleted)
    new = Counter(note_name(p) for p in added)
    # one deleted file and one added file hold it, and nothing else in either tree does
    unique = {name for name in wanted if gone[name] == 1 and new[name] == 1 and holders[name] == 2}
    by_deleted = {note_name(p): p for p in deleted if note_name(p) in unique}
    return {p: by_deleted[note_name(p)] for p in added if note_name(p) in unique}


__all__ = ["INDEX_STEMS", "NAME_WORDS", "note_name", "paired_moves", "work_key"]
