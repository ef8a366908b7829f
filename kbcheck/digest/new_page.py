"""A page the knowledge base lacks: where a new note's material goes when no page holds it yet.

A note that links a page which does not exist yet (`[[kv-cache]]` with no
`kv-cache.md`, or a relative link to a missing living document) names the page
its author meant to write: the digest proposes it, at the path the link would
resolve to (a wikilink by name: in a folder of the `knowledge` globs, `_folder`), and the
pages that should link it: the living documents the note links that exist. Of
several, the page named for the note's work comes first (its title's coined name:
`H2O: …` links `[[h2o]]`, `evidence/discussed.py`), then the pages fewest of the
knowledge base's notes link: the
concept this note brings (`bridge-attention`, linked by it alone) before the field
every note names (`large-language-model`), as a wiki's maintainer writes a note
into the narrower page and lists it under the broad one's sources. A page named
for one of the note's authors (its frontmatter `authors`) is about that person:
no page for the note's material, and not proposed for it. A link the
knowledge base's page templates write too (`Source Name: [[YouTube]]` in the template a note was
made from) is the template's placeholder, left unfilled: no page anybody means to write.

A knowledge base with several page folders (`concepts/`, `entities/`) files a page
the way the note lists it: in the folder of the existing pages linked in the same
section (most of them), else in the folder the section's heading names (`## Entities
Extracted` lists pages for `entities/`), else in the first folder.
"""

from __future__ import annotations

import posixpath
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kbcheck.evidence.discussed import SEPARATORS, coined_names, compact_name
from kbcheck.globs import globset
from kbcheck.model.citations import scan_wikilinks
from kbcheck.model.document import file_title
from kbcheck.model.knowledge_base import BRIEF, GUIDE, KNOWLEDGE, static_prefix
from kbcheck.page_templates import is_template_path
from kbcheck.regex import lazy
from kbcheck.suggest.terms import terms

if TYPE_CHECKING:
    from kbcheck.model.knowledge_base import KnowledgeBase

#: pages proposed for one note, and pages named that should link each
NEW_PAGES_SHOWN, LINKERS_SHOWN = 2, 3
_WIKILINK = lazy(r"^\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]$")


@dataclass(frozen=True)
class NewPage:
    """A living document to create, and the existing pages that should link it."""

    path: str
    linked_from: tuple[str, ...]


def _glob_folder(glob: str) -> str:
    """The folder a `knowledge` glob's fixed part names (`wiki/concepts/*.md`: `wiki/concepts/`)."""
    prefix = static_prefix(glob)
    if prefix.endswith("/") or not prefix:
        return prefix
    return posixpath.dirname(prefix) + "/" if "/" in prefix else ""


def _home(kb: KnowledgeBase) -> str | None:
    """The folder a new living document goes in by default: the first `knowledge` glob's."""
    return _glob_folder(kb.config.knowledge[0]) if kb.config.knowledge else None


def page_name(written: str) -> str | None:
    """The page a wikilink names by its name alone (`[[kv-cache]]`, `[[kv-cache|KV]]`); None for a
    wikilink by path (`[[concepts/kv-cache]]`) and for any other link."""
    found = _WIKILINK.match(written)
    name = found.group(1).strip() if found else ""
    return name if name and "/" not in name else None


class NewPages:
    """The pages each note of one knowledge base proposes (module docstring); its templates read once."""

    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb
        self._home = _home(kb)
        self._folders = _folders(kb)
        self._living = globset(kb.config.knowledge)
        self._placeholders: frozenset[str] | None = None

    @property
    def placeholders(self) -> frozenset[str]:
        """The wikilink targets the knowledge base's page templates write, as a note copies them."""
        if self._placeholders is None:
            snapshot = self.kb.snapshot
            templates = [p for p in snapshot.every_path() if p.endswith(".md") and is_template_path(p)]
            # templates are mostly excluded from the check (`kbcheck init` proposes it): read either way
            texts = {**snapshot.read_many(templates), **snapshot.read_excluded(templates)}
            self._placeholders = frozenset(name for data in texts.values()
                                           for _at, name in scan_wikilinks(data.decode("utf-8", "replace")))
        return self._placeholders

    def of(self, path: str) -> list[NewPage]:
        """The living documents the note at `path` links that do not exist yet."""
        kb, home = self.kb, self._home
        if home is None:
            return []
        resolved = kb.resolve(path)
        wanted: list[str] = []
        names: set[str] = set()  # one name is one page, in the folder of its first link
        for broken in resolved.broken_paths:
            if _WIKILINK.match(broken.written):
                name = page_name(broken.written)
                target = (f"{self._folder(path, broken.line, home)}{name}.md"
                          if name is not None and name not in self.placeholders else None)
            else:
                target = broken.target
            if target is not None and self._living.match(target) and posixpath.basename(target) not in names:
                names.add(posixpath.basename(target))
                wanted.append(target)
        if wanted:
            authors = _authors(kb, path)
            wanted = [target for target in wanted if not _about_author(target, authors)]  # a page on someone
        if len(wanted) > 1:
            # the page named for the work first, then the narrowest: the page fewest notes link is
            # this note's own topic
            work = {compact_name(name) for name in coined_names(file_title(kb.document(path), path))}
            wanted.sort(key=lambda target: (_page_stem(target) not in work, notes_linking(kb, target)))
        if not wanted:
            return []
        linkers = list(dict.fromkeys(
            link.target for links in resolved.block_links for link in links
            if link.kind == "document" and kb.kind_of(link.target) == KNOWLEDGE))[:LINKERS_SHOWN]
        return [NewPage(target, tuple(linkers)) for target in wanted[:NEW_PAGES_SHOWN]]

    def _folder(self, path: str, line: int, home: str) -> str:
        """The folder a page the note links by name at `line` goes in (module docstring)."""
        document = self.kb.document(path)
        if len(self._folders) < 2 or document is None:
            return home
        section = document.section_at(line)
        resolved = self.kb.resolve(path)
        beside = Counter(posixpath.dirname(link.target) + "/" for i in section.blocks
                         for link in resolved.block_links[i]
                         if link.kind == "document" and self.kb.kind_of(link.target) == KNOWLEDGE)
        if beside:
            return max(self._folders, key=lambda folder: beside[folder])  # ties: the globs' order
        named = set(terms(section.heading or ""))
        return next((folder for folder in self._folders if set(terms(posixpath.basename(folder[:-1]))) & named),
                    home)


def _folders(kb: KnowledgeBase) -> list[str]:
    """The folders the `knowledge` globs name, in their order."""
    return list(dict.fromkeys(folder for folder in map(_glob_folder, kb.config.knowledge) if folder))


def notes_linking(kb: KnowledgeBase, page: str) -> int:
    """How many of the knowledge base's notes link the page by its name (`[[name]]`, case aside),
    written or not: read once per run from the notes' text."""
    return kb.derived(_links_by_name, "")[posixpath.splitext(posixpath.basename(page))[0].casefold()]


def _links_by_name(kb: KnowledgeBase, _path: str) -> Counter[str]:
    notes = kb.paths_of_kind(GUIDE, BRIEF)
    kb.preload(notes)
    return Counter(name.casefold() for text in map(kb.text, notes) if text
                   for name in {name for _at, name in scan_wikilinks(text)})


#: words after a person's name in a page that tells two people apart (`yue-wang-salesforce`)
_AFFILIATION_WORDS = 2


def _page_stem(target: str) -> str:
    return compact_name(posixpath.splitext(posixpath.basename(target))[0])


def _name_words(name: str) -> tuple[str, ...]:
    """A name's words, case and accents aside (`Michael Günther`: michael, gunther)."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", name) if not unicodedata.combining(ch))
    return tuple(word for word in SEPARATORS.split(plain.casefold()) if word)


def _about_author(target: str, authors: set[tuple[str, ...]]) -> bool:
    """Whether a page is named for one of the note's authors: their name, alone or (a name of two
    words or more) followed by a word or two that tell two people of that name apart (`sida-wang-meta`)."""
    words = _name_words(posixpath.splitext(posixpath.basename(target))[0])
    return any("".join(words) == "".join(name) or (len(name) >= 2 and words[:len(name)] == name
                                                    and len(words) - len(name) <= _AFFILIATION_WORDS)
               for name in authors)


def _authors(kb: KnowledgeBase, path: str) -> set[tuple[str, ...]]:
    """The note's authors (frontmatter `authors` or `author`), as page names compare: a page named
    for one of them is about that person, not a place for what the note says."""
    from kbcheck.digest.items import front_fields

    fields = front_fields(kb, path) or {}
    raw = fields.get("authors", fields.get("author"))
    names = raw if isinstance(raw, list) else [raw] if isinstance(raw, str) else []
    return {words for name in names if isinstance(name, str) and (words := _name_words(name))}


__all__ = ["NewPage", "NewPages", "notes_linking", "page_name"]
