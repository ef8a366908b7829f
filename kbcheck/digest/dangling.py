"""Links a deletion or a move left dangling: the files at head that still link a note where the range
took it from.

A hand-written brief that reports "deleted: the ILP note" also says "the Dragon Book note still
links it": the check (KB009) reports that link only when the linking file is checked, and a digest
checks the files the range changed, so a link in a note the range did not touch goes unsaid. The
deleted item's caution names the files still linking it: a markdown link or path to it (read as
`KnowledgeBase.link_target` reads one: a note without its `.md`, a site page by its index), or a
wikilink by its name (`[[ilp-notes]]`, as a wiki links by name anywhere).
A moved note (a rename, or a deletion and an addition that are one note moved,
`kbcheck.digest.moves`) is read the same at its old path: a file still linking the old path
is no longer linking anything, and the moved item's caution says so; a folder's own page moved
out of a folder that keeps nothing else is the folder renamed, and a link into the old folder
is said on it too (`moved_folders`).

Only the files whose text could link a deleted note are parsed (`_Screen`): a link to
`ilp/ilp.md`, `[[ilp]]` or `ilp.html` holds the words of its name, as written or decoded as the
parser decodes a link (entities, then percent-escapes), and one to a folder's index page those of
the folder's name, unless it is written from inside that folder (`./`, `../`); the index page of
the repository's root or the site's is linked by `/` alone, so every file may link it. So a cold
digest with a deletion reads the bytes of the files whose links are not cached, not their parse.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING
from urllib.parse import unquote

from kbcheck.digest.model import DELETED
from kbcheck.digest.new_page import page_name
from kbcheck.digest.phrases import capped, say
from kbcheck.links.site import page_variants
from kbcheck.model.cards import PAPER, REPO
from kbcheck.model.knowledge_base import BRIEF, GUIDE, KNOWLEDGE
from kbcheck.regex import lazy

if TYPE_CHECKING:
    from kbcheck.digest.model import Item
    from kbcheck.model.knowledge_base import KnowledgeBase

#: the kinds of file whose links are read: every markdown file the knowledge base knows
_LINKING_KINDS = (KNOWLEDGE, GUIDE, BRIEF, PAPER, REPO)
#: a word of a file's name: letters and digits, as a link writes them whatever it escapes around them
_WORD = lazy(r"[^\W_]+")
#: the names of a folder's index page, which a link to the folder reaches
_INDEX_NAMES = ("index", "readme")
_PERCENT_ESCAPE = lazy(r"%[0-9A-Fa-f]{2}")


def _stem(path: str) -> str:
    name = posixpath.basename(path)
    return (name[:-3] if name.endswith(".md") else name).casefold()


def _words(name: str) -> tuple[str, ...]:
    """The words of a name, the longest first: the rarest, which rules most files out soonest."""
    return tuple(sorted(set(_WORD.findall(name.casefold())), key=len, reverse=True))


def _clues(path: str, site_root: str) -> tuple[str, tuple[tuple[str, ...], ...]]:
    """What a link to `path` must hold: (the folder whose index page it is, else ""; the words of
    the names it may be linked by, any one of them). An index page is linked by its own name or
    its folder's; the root's and the site root's by `/` alone, so every file may link them."""
    folder = posixpath.dirname(path)
    if _stem(path) not in _INDEX_NAMES:
        return "", (_words(_stem(path)),)
    everyone = folder in ("", site_root)
    return "." if everyone else folder, (_words(_stem(path)), _words(posixpath.basename(folder)))


class _Screen:
    """Which files could hold a link to one of the deleted notes (module docstring): one search
    for the first word of every name rules most files out; the rest hold every word of a name."""

    def __init__(self, deleted: Iterable[str], site_root: str = "") -> None:
        clues = [_clues(path, site_root) for path in deleted]
        self._names = [words for _folder, names in clues for words in names]
        folders = [folder for folder, _names in clues if folder]
        #: every file may link these: a name of no words, or the root's or the site root's index page
        self._everyone = "." in folders or not all(self._names)
        self._inside = tuple(folder + "/" for folder in folders if folder != ".")
        self._first = re.compile("|".join(re.escape(words[0]) for words in self._names if words))

    def may_link(self, path: str, text: str) -> bool:
        """Whether the file at `path` may link a deleted note. Its text is read as written and,
        where it holds escapes, decoded as the parser decodes a link: entities, then
        percent-escapes (`&#73;`, `%C3%89`, `%E7%AC%94`), each reading casefolded."""
        if self._everyone or path.startswith(self._inside):
            return True  # `./`, `../` from inside a folder reach its index page by no name
        decoded = html.unescape(text) if "&" in text else text
        decoded = unquote(decoded) if _PERCENT_ESCAPE.search(decoded) else decoded  # `50%` escapes nothing
        readings = [text.casefold()] + ([decoded.casefold()] if decoded != text else [])
        return any(self._first.search(reading) is not None
                   and any(all(word in reading for word in words) for words in self._names)
                   for reading in readings)


def moved_folders(kb: KnowledgeBase, moves: Iterable[tuple[str, str]]) -> dict[str, str]:
    """The folders a move took away: for each (old path, new path) of a folder's own page
    (`README.md`, `index.md`) moved to another folder that leaves nothing at head under the old one,
    old folder -> the old path. A link into that folder (`old/01_tensor.ipynb`) follows the page."""
    pages = {posixpath.dirname(old): old for old, new in moves
             if _stem(old) in _INDEX_NAMES and posixpath.dirname(old) not in ("", posixpath.dirname(new))}
    return {folder: old for folder, old in pages.items() if not kb.snapshot.paths_under((folder + "/",))}


def still_linking(kb: KnowledgeBase, deleted: Iterable[str],
                  moves: Iterable[tuple[str, str]] = ()) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(each deleted or moved-from path -> the files at head with a broken link to it; each moved
    folder page's old path -> the files with a broken link into its old folder, `moved_folders`),
    the files in the knowledge base's order."""
    moves = list(moves)
    paths = set(deleted) | {old for old, _new in moves}
    linked: dict[str, list[str]] = {}
    into_folder: dict[str, list[str]] = {}
    if not paths:
        return linked, into_folder
    folders = moved_folders(kb, moves)
    by_name: dict[str, str] = {}
    for path in sorted(paths):
        by_name.setdefault(_stem(path), path)
    site = kb.site
    screen = _Screen(paths, site.root)
    linking_paths = kb.paths_of_kind(*_LINKING_KINDS)
    # the files whose links are not cached are screened by their bytes; a warm run reads the cache
    unparsed = set(kb.facts.uncached([(path, kb.kind_of(path)) for path in linking_paths], exact=True))
    texts = kb.snapshot.read_many(path for path in linking_paths if path in unparsed)
    for linking in linking_paths:
        data = texts.get(linking)
        text = kb.facts.text_of(data) if data is not None else None
        if text is not None and not screen.may_link(linking, text):
            continue  # no link to a deleted note can be in it (a file with no text is read as before)
        for broken in kb.resolve(linking).broken_paths:
            name = page_name(broken.written)
            table = linked
            if name is not None:
                hit = by_name.get(_stem(name))
            elif broken.target is None:
                hit = None
            else:
                # as the renderer reads the link: the note without its `.md`, a site page by its index
                hit = next((p for p in (broken.target, *page_variants(broken.target, site)) if p in paths), None)
            if hit is None and broken.target is not None:
                table = into_folder
                hit = next((old for folder, old in folders.items() if broken.target.startswith(folder + "/")), None)
            if hit is not None and linking not in table.get(hit, ()):
                table.setdefault(hit, []).append(linking)
    return linked, into_folder


def old_place(item: Item) -> str | None:
    """Where the range took a note from: a deleted note's path, a moved one's old path; else None."""
    return item.path if item.change == DELETED else item.old_path


def still_linked_cautions(item: Item, lang: str) -> list[str]:
    """The cautions naming the files still linking the item's old place (`Item.still_linked`) and
    its old folder (`Item.linked_into_folder`)."""
    out: list[str] = []
    if item.still_linked:
        linkers = capped(lang, item.still_linked, 2)
        out.append(say(lang, "caution.still_linked", linkers=linkers) if item.change == DELETED
                   else say(lang, "caution.still_linked_old", old=item.old_path, linkers=linkers))
    if item.linked_into_folder and item.old_path is not None:
        out.append(say(lang, "caution.linked_into_old_folder", folder=posixpath.dirname(item.old_path) + "/",
                       linkers=capped(lang, item.linked_into_folder, 2)))
    return out


__all__ = ["moved_folders", "old_place", "still_linked_cautions", "still_linking"]
