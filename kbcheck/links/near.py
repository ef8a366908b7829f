"""The file a broken path most likely meant: `did you mean` for KB009.

A name differs from the one meant by case, by `_`, `-` or spaces
(`point_pillars.md` for `pointpillars.md`), or by one letter
(`paper_note/` for `paper_notes/`), in the folder the path names; or the
file has that very name in another folder (a link written from the wrong
place). Each folder's names are grouped once, when a path into it is asked
about, by their digits and length; a group is indexed with its names one
letter shorter (a deletion neighbourhood) when a question falls in it. A
question costs a few lookups, never a comparison with every file, and the
memory held is that of the groups asked about: names that differ by one
letter have the same digits and lengths at most one apart, so a folder of
10k numbered cards is never expanded whole.
"""

from __future__ import annotations

import bisect
import posixpath
from collections.abc import Callable

from kbcheck.regex import lazy

_LOOSE = lazy(r"[\s_\-]+")


def loose(name: str) -> str:
    """A name as compared: case folded, without `_`, `-`, spaces or a `.md` ending."""
    name = name.casefold()
    return _LOOSE.sub("", name[:-3] if name.endswith(".md") else name)


def _shorter(key: str) -> set[str]:
    """The key with each one of its letters left out."""
    return {key[:i] + key[i + 1:] for i in range(len(key))} if len(key) > 3 else set()


def _digits(key: str) -> str:
    return "".join(c for c in key if c.isdigit())


def _group(digits: str, length: int) -> str:
    return f"{length}:{digits}"


#: key -> one name, or the names when several have it: most keys have one, and a string costs
#: a tenth of a list holding it
_Names = dict[str, "str | list[str]"]


def _put(index: _Names, key: str, name: str) -> None:
    held = index.get(key)
    if held is None:
        index[key] = name
    elif isinstance(held, str):
        index[key] = [held, name]
    else:
        held.append(name)


def _get(index: _Names, key: str) -> list[str]:
    held = index.get(key)
    if held is None:
        return []
    return [held] if isinstance(held, str) else held


class NearNames:
    """Near names in one tree: `entries` is every path in it, sorted."""

    def __init__(self, entries: list[str], exists: Callable[[str], bool]) -> None:
        self._entries = entries
        self._exists = exists
        #: folder -> its names by the length and digits of their loose key (`_group`)
        self._folders: dict[str, _Names] = {}
        #: (folder, group) -> loose key (or one letter shorter) -> the names with it
        self._neighbourhoods: dict[tuple[str, str], _Names] = {}
        self._by_name: _Names | None = None
        self._by_loose_name: _Names | None = None

    def _groups(self, folder: str) -> _Names:
        groups = self._folders.get(folder)
        if groups is None:
            prefix = folder + "/" if folder else ""
            start = bisect.bisect_left(self._entries, prefix)
            names: dict[str, None] = {}
            for path in self._entries[start:]:
                if not path.startswith(prefix):
                    break
                names[path[len(prefix):].split("/", 1)[0]] = None
            groups = {}
            for name in names:
                key = loose(name)
                _put(groups, _group(_digits(key), len(key)), name)
            self._folders[folder] = groups
        return groups

    def _neighbourhood(self, folder: str, digits: str, length: int) -> _Names:
        """The deletion neighbourhood of one group of a folder's names, built when first asked."""
        group = _group(digits, length)
        index = self._neighbourhoods.get((folder, group))
        if index is None:
            index = {}
            for name in _get(self._groups(folder), group):
                key = loose(name)
                for variant in (key, *_shorter(key)):
                    _put(index, variant, name)
            self._neighbourhoods[(folder, group)] = index
        return index

    def _near_in(self, folder: str, name: str) -> list[str]:
        """Names in `folder` that differ from `name` by case, separators or one letter (not a digit:
        `2301.12346` is another paper, not a typo of `2301.12345`); those differing by no letter first."""
        key = loose(name)
        digits = _digits(key)
        # only names with these digits and a length one off at most can be one letter away
        indexes = [self._neighbourhood(folder, digits, length) for length in (len(key), len(key) - 1, len(key) + 1)]
        found = dict.fromkeys(n for index in indexes for n in _get(index, key))
        exact = [n for n in found if loose(n) == key]
        if exact:
            return exact
        for variant in _shorter(key):
            for index in indexes:
                found.update(dict.fromkeys(_get(index, variant)))
        return [n for n in found if n != name]

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
            by_name: _Names = {}
            for path in self._entries:
                _put(by_name, posixpath.basename(path).casefold(), path)
            self._by_name = by_name
        found = _get(self._by_name, name.casefold())
        return found[0] if len(found) == 1 else None

    def named(self, name: str) -> str | None:
        """The one markdown file whose name is `name` but for case and separators (a wikilink's
        `[[Point Pillars]]` for `pointpillars.md`), its folders too when the name has some."""
        if self._by_loose_name is None:
            by_loose: _Names = {}
            for path in self._entries:
                if path.endswith(".md"):
                    _put(by_loose, loose(posixpath.basename(path)), path)
            self._by_loose_name = by_loose
        wanted = name.strip().strip("/")
        found = _get(self._by_loose_name, loose(posixpath.basename(wanted)))
        if "/" in wanted:
            folder = loose(posixpath.dirname(wanted))
            found = [p for p in found if loose(posixpath.dirname(p)).endswith(folder)]
        return found[0] if len(found) == 1 else None
