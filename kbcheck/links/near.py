"""The file a broken path most likely meant: `did you mean` for KB009.

A name differs from the one meant by case, by `_`, `-` or spaces
(`point_pillars.md` for `pointpillars.md`), or by one letter
(`paper_note/` for `paper_notes/`), in the folder the path names; or the
file has that very name in another folder (a link written from the wrong
place). Each folder's names are indexed once, when a path into it is asked
about, with the names one letter shorter (a deletion neighbourhood): a
question costs a few lookups, never a comparison with every file.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from collections.abc import Callable

_LOOSE = re.compile(r"[\s_\-]+")


def loose(name: str) -> str:
    """A name as compared: case folded, without `_`, `-`, spaces or a `.md` ending."""
    name = name.casefold()
    return _LOOSE.sub("", name[:-3] if name.endswith(".md") else name)


def _shorter(key: str) -> set[str]:
    """The key with each one of its letters left out."""
    return {key[:i] + key[i + 1:] for i in range(len(key))} if len(key) > 3 else set()


def _digits(key: str) -> str:
    return "".join(c for c in key if c.isdigit())


class NearNames:
    """Near names in one tree: `entries` is every path in it, sorted."""

    def __init__(self, entries: list[str], exists: Callable[[str], bool]) -> None:
        self._entries = entries
        self._exists = exists
        #: folder -> loose key (or one letter shorter) -> the names in it
        self._folders: dict[str, dict[str, list[str]]] = {}
        self._by_name: dict[str, list[str]] | None = None
        self._by_loose_name: dict[str, list[str]] | None = None

    def _children(self, folder: str) -> dict[str, list[str]]:
        index = self._folders.get(folder)
        if index is None:
            prefix = folder + "/" if folder else ""
            start = bisect.bisect_left(self._entries, prefix)
            names: dict[str, None] = {}
            for path in self._entries[start:]:
                if not path.startswith(prefix):
                    break
                names[path[len(prefix):].split("/", 1)[0]] = None
            index = {}
            for name in names:
                key = loose(name)
                for variant in (key, *_shorter(key)):
                    index.setdefault(variant, []).append(name)
            self._folders[folder] = index
        return index

    def _near_in(self, folder: str, name: str) -> list[str]:
        """Names in `folder` that differ from `name` by case, separators or one letter (not a digit:
        `2301.12346` is another paper, not a typo of `2301.12345`); those differing by no letter first."""
        index = self._children(folder)
        key = loose(name)
        found = dict.fromkeys(index.get(key, ()))
        exact = [n for n in found if loose(n) == key]
        if exact:
            return exact
        for variant in _shorter(key):
            found.update(dict.fromkeys(index.get(variant, ())))
        digits = _digits(key)
        return [n for n in found if n != name and _digits(loose(n)) == digits]

    def meant(self, target: str) -> str | None:
        """The one existing path `target` most likely meant, else None."""
        parts = target.split("/")
        found = self._walk("", parts)
        if found is not None:
            return found
        return self._elsewhere(parts[-1])

    def _walk(self, folder: str, parts: list[str]) -> str | None:
        """Follow `parts` down from `folder`, taking the one near name where a name is missing."""
        for i, part in enumerate(parts):
            here = posixpath.join(folder, part) if folder else part
            if self._exists(here):
                folder = here
                continue
            near = self._near_in(folder, part)
            if len(near) != 1:
                return None
            folder = posixpath.join(folder, near[0]) if folder else near[0]
            if not self._exists(folder):
                return None
            rest = parts[i + 1:]
            return self._walk(folder, rest) if rest else folder
        return None

    def _elsewhere(self, name: str) -> str | None:
        """The one file anywhere with this name (a link written from the wrong folder)."""
        if "." not in name or name.startswith("."):
            return None
        if self._by_name is None:
            by_name: dict[str, list[str]] = {}
            for path in self._entries:
                by_name.setdefault(posixpath.basename(path).casefold(), []).append(path)
            self._by_name = by_name
        found = self._by_name.get(name.casefold(), [])
        return found[0] if len(found) == 1 else None

    def named(self, name: str) -> str | None:
        """The one markdown file whose name is `name` but for case and separators (a wikilink's
        `[[Point Pillars]]` for `pointpillars.md`), its folders too when the name has some."""
        if self._by_loose_name is None:
            by_loose: dict[str, list[str]] = {}
            for path in self._entries:
                if path.endswith(".md"):
                    by_loose.setdefault(loose(posixpath.basename(path)), []).append(path)
            self._by_loose_name = by_loose
        wanted = name.strip().strip("/")
        found = self._by_loose_name.get(loose(posixpath.basename(wanted)), [])
        if "/" in wanted:
            folder = loose(posixpath.dirname(wanted))
            found = [p for p in found if loose(posixpath.dirname(p)).endswith(folder)]
        return found[0] if len(found) == 1 else None
