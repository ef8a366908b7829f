"""A page the knowledge base lacks: where a new note's material goes when no page holds it yet.

A note that links a page which does not exist yet (`[[kv-cache]]` with no
`kv-cache.md`, or a relative link to a missing living document) names the page
its author meant to write: the digest proposes it, at the path the link would
resolve to (a wikilink: in the folder of the first `knowledge` glob), and the
pages that should link it: the living documents the note links that exist. Of
several, the pages fewest of the knowledge base's notes link come first: the
concept this note brings (`bridge-attention`, linked by it alone) before the field
every note names (`large-language-model`), as a wiki's maintainer writes a note
into the narrower page and lists it under the broad one's sources. A page named
for one of the note's authors (its frontmatter `authors`) is about that person:
no page for the note's material, and not proposed for it. A link the
knowledge base's page templates write too (`Source Name: [[YouTube]]` in the template a note was
made from) is the template's placeholder, left unfilled: no page anybody means to write.
"""

from __future__ import annotations

import posixpath
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kbcheck.evidence.discussed import compact_name
from kbcheck.globs import globset
from kbcheck.model.citations import scan_wikilinks
from kbcheck.model.knowledge_base import BRIEF, GUIDE, KNOWLEDGE, static_prefix
from kbcheck.page_templates import is_template_path
from kbcheck.regex import lazy

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


def _home(kb: KnowledgeBase) -> str | None:
    """The folder a new living document goes in: the first `knowledge` glob's fixed part."""
    for glob in kb.config.knowledge:
        prefix = static_prefix(glob)
        if prefix.endswith("/") or not prefix:
            return prefix
        return posixpath.dirname(prefix) + "/" if "/" in prefix else ""
    return None


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
        for broken in resolved.broken_paths:
            if _WIKILINK.match(broken.written):
                name = page_name(broken.written)
                target = f"{home}{name}.md" if name is not None and name not in self.placeholders else None
            else:
                target = broken.target
            if target is not None and self._living.match(target) and target not in wanted:
                wanted.append(target)
        if wanted:
            authors = _authors(kb, path)
            wanted = [target for target in wanted if _page_stem(target) not in authors]  # a page on someone
        if len(wanted) > 1:  # the narrowest first: the page fewest notes link is this note's own topic
            wanted.sort(key=lambda target: notes_linking(kb, target))
        if not wanted:
            return []
        linkers = list(dict.fromkeys(
            link.target for links in resolved.block_links for link in links
            if link.kind == "document" and kb.kind_of(link.target) == KNOWLEDGE))[:LINKERS_SHOWN]
        return [NewPage(target, tuple(linkers)) for target in wanted[:NEW_PAGES_SHOWN]]


def notes_linking(kb: KnowledgeBase, page: str) -> int:
    """How many of the knowledge base's notes link the page by its name (`[[name]]`, case aside),
    written or not: read once per run from the notes' text."""
    return kb.derived(_links_by_name, "")[posixpath.splitext(posixpath.basename(page))[0].casefold()]


def _links_by_name(kb: KnowledgeBase, _path: str) -> Counter[str]:
    notes = kb.paths_of_kind(GUIDE, BRIEF)
    kb.preload(notes)
    return Counter(name.casefold() for text in map(kb.text, notes) if text
                   for name in {name for _at, name in scan_wikilinks(text)})


def _page_stem(target: str) -> str:
    return compact_name(posixpath.splitext(posixpath.basename(target))[0])


def _authors(kb: KnowledgeBase, path: str) -> set[str]:
    """The note's authors (frontmatter `authors` or `author`), as page names compare: a page named
    for one of them is about that person, not a place for what the note says."""
    from kbcheck.digest.items import front_fields

    fields = front_fields(kb, path) or {}
    raw = fields.get("authors", fields.get("author"))
    names = raw if isinstance(raw, list) else [raw] if isinstance(raw, str) else []
    return {compact_name(str(name)) for name in names if isinstance(name, str) and name.strip()}


__all__ = ["NewPage", "NewPages", "notes_linking", "page_name"]
