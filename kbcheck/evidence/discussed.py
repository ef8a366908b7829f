"""Whether a living document discusses a work its reference list holds, and how.

KB002 and the digest ask it of the same reference entry, so both read the
answer here (`docs/rules.md`, KB002; `docs/output.md`, the digest's status):

- `ENTRY`: the body cites it (its id, a link to its card or to its note);
- `ABOUT`: the page is named for the work: its file name or title is a coined
  name of the work (`repocoder.md`, titled `RepoCoder`, listing the note
  `RepoCoder: Repository-Level Code Completion …`); the whole page is its entry;
- `NAMED`: the body names it by its card's or note's title or short name, or by
  the entry's own link text;
- `NUMBERED`: the body cites the entry's number (`[4]`, `[2, 4]`, `[3-5]`);
- `OWN_SOURCE`: the entry is the only item of the page's top-level `## Sources`
  list: the page is drawn from it.

Any of them keeps KB002 quiet. The digest counts `ENTRY` and `ABOUT` as an entry
about the work: a page drawn from a paper, or naming it, without being about it
(an author's page, an institution's) holds nothing on what the work says.
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING

from kbcheck.evidence.labels import SOURCE_LABEL
from kbcheck.evidence.markers import entry_number, marked_numbers
from kbcheck.model.document import REFERENCE, file_title
from kbcheck.regex import lazy

if TYPE_CHECKING:
    from kbcheck.evidence.mentions import IdMentions
    from kbcheck.model.document import Document, Section
    from kbcheck.model.knowledge_base import KnowledgeBase

ENTRY, ABOUT, NAMED, NUMBERED, OWN_SOURCE = "entry", "about", "named", "numbered", "own-source"

#: shorter names ("RL", "KV") match too much prose to count as a discussion
_MIN_NAME = 3
#: the entries of a reference list
_ITEMS = ("list_item", "table_row")
#: where a title splits into a short name and the rest: `Name: subtitle`, `venue | title`
_SEPARATOR = lazy(r"\s*[:：|｜]\s*|\s+[-–—]\s+")
_TRAILER = lazy(r"(?:\s*[(（\[【][^()（）\[\]【】]*[)）\]】])+\s*$")
#: the shapes of a coined name: hyphenated (`Agent-World`), capitals inside (`AgentWorld`), letters and
#: digits (`GPT4o`); a dictionary word is none
_COINED_SHAPES = (r"[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+", r"[A-Z]?[a-z]+[A-Z][A-Za-z0-9]*", r"[A-Za-z]+[0-9][A-Za-z0-9]*")


def _coined(*shapes: str) -> re.Pattern[str]:
    """A coined name of these shapes, with the `+` or `++` of a next version (`CodeT5+`, `SPLADE++`)."""
    return lazy(r"(?<![\w-])(?:" + "|".join(shapes) + r")\+{0,2}(?![\w-])")


#: a coined name, or an acronym of four capitals or more (`BEIR`)
COINED = _coined(*_COINED_SHAPES, r"[A-Z]{4,}")
#: a coined name of a mixed shape: what a near name can clash with (an acronym is too short a name)
COINED_MIXED = _coined(*_COINED_SHAPES)
#: what separates the words of a name, a title or a file name
SEPARATORS = lazy(r"[\W_]+")


def compact_name(name: str) -> str:
    """A name as pages and titles write it alike: `DeepSeek-Coder`, `deepseek_coder` and
    `deepseek-coder.md`'s stem are all `deepseekcoder`; a next version's `+` is `plus`, as slugs
    spell it (`CodeT5+` is `codet5-plus.md`, another work than `codet5.md`)."""
    return SEPARATORS.sub("", name.replace("+", "plus")).casefold()


def coined_names(title: str) -> list[str]:
    """The coined names a work's title opens with: its short name (the part before `:`) when that
    is one coined name, else the title when it is one (`RepoCoder: …` gives `RepoCoder`)."""
    parts = name_parts(title)
    return [part for part in parts[1:2] or parts[:1] if COINED.fullmatch(part)]


def page_names(path: str, title: str) -> set[str]:
    """What a page is named (compacted): its file name and its title."""
    stem = posixpath.splitext(posixpath.basename(path))[0]
    return {name for name in (compact_name(stem), compact_name(title)) if len(name) >= _MIN_NAME}


class Discussions:
    """How one living document discusses each id of its reference list (module docstring)."""

    def __init__(self, kb: KnowledgeBase, path: str) -> None:
        self.kb, self.path = kb, path
        self.doc = kb.document(path)
        self._body: str | None = None
        self._names: set[str] | None = None
        self._work: dict[str, list[str]] = {}

    @property
    def body(self) -> str:
        """The text outside the reference list, casefolded (read once, when first asked)."""
        if self._body is None:
            doc = self.doc
            blocks = doc.blocks if doc is not None else []
            self._body = "\n".join(b.text for b in blocks if doc and doc.sections[b.section].role != REFERENCE).casefold()
        return self._body

    def how(self, where: IdMentions) -> str | None:
        """How the page discusses the id (`ENTRY` … `OWN_SOURCE`), None when it does not."""
        if where.body:
            return ENTRY
        doc = self.doc
        if doc is None or not where.references:
            return None
        if self.about(where):
            return ABOUT
        if any(_named(name, self.body) for name in self._work_names(where)):
            return NAMED
        if _numbered(doc, where, self.body):
            return NUMBERED
        if _own_source(doc, where):
            return OWN_SOURCE
        return None

    def about(self, where: IdMentions) -> bool:
        """Whether the page is named for the work an entry of its reference list names."""
        if self.doc is None or not where.references:
            return False
        if self._names is None:
            self._names = page_names(self.path, file_title(self.doc, self.path))
        return any(compact_name(name) in self._names for name in self._work_names(where) if COINED.fullmatch(name))

    def _work_names(self, where: IdMentions) -> list[str]:
        if where.id not in self._work:
            self._work[where.id] = work_names(self.kb, self.doc, self.path, where) if self.doc is not None else []
        return self._work[where.id]


def work_names(kb: KnowledgeBase, doc: Document, path: str, where: IdMentions) -> list[str]:
    """What the body may call an entry: its card's title and short name, the title and short name
    of the note it links (a source note standing for the id), the entry's link texts."""
    names: list[str] = []
    card_path = kb.paper_card_path(where.id) if where.kind == "arxiv" else None
    card = kb.card(card_path) if card_path else None
    if card is not None and card.fields.get("title"):
        names.extend(name_parts(str(card.fields["title"])))
    resolved = kb.resolve(path)
    for line, _column in where.references:
        block = doc.block_at(line)
        if block is None:
            continue
        for citation in resolved.block_citations[block.index]:
            if citation.note is not None and citation.id == where.id:
                names.extend(name_parts(note_title(kb, citation.note)))
        for ref in block.refs:
            if "://" not in ref.text and where.id not in ref.text:
                names.extend(name_parts(ref.text))
    return [name for name in dict.fromkeys(names) if len(name) >= _MIN_NAME and not name.isdigit()]


def note_title(kb: KnowledgeBase, path: str) -> str:
    """A linked note's title (frontmatter `title`, else its first heading); "" when it has none."""
    title = file_title(kb.document(path), path)
    return "" if title == posixpath.basename(path) else title


def name_parts(title: str) -> list[str]:
    """A title and its short names: `xDeepFM: Combining …` gives `xDeepFM` and `Combining …`;
    a trailing `(Gu et al., 2019)` or `[2016]` and book-title marks are not part of the name."""
    title = _TRAILER.sub("", " ".join(title.split())).strip("《》「」\"' ")
    parts = [title, *(part.strip("《》「」\"' ") for part in _SEPARATOR.split(title))]
    return list(dict.fromkeys(part for part in parts if part))


def _named(name: str, body: str) -> bool:
    """The name stands in the body, a Latin name as a whole word (`BERT` is not named by `RoBERTa`)."""
    name = name.casefold()
    if name not in body:  # a plain search first: most names are nowhere, and the bounded one is slower
        return False
    before = r"(?<![a-z0-9_-])" if name[0].isascii() and name[0].isalnum() else ""
    after = r"(?![a-z0-9_-])" if name[-1].isascii() and name[-1].isalnum() else ""
    return re.search(before + re.escape(name) + after, body) is not None


def _numbered(doc: Document, where: IdMentions, body: str) -> bool:
    """A numbered entry (`4. [Title](…)`, `[4] Title`) cited in the body by its number: `文献 [4]`,
    `[2, 4]`, `[1-5]` (the markers KB005 reads, `evidence/markers.py`)."""
    numbers: set[str] | None = None
    for line, _column in where.references:
        block = doc.block_at(line)
        number = entry_number(block) if block is not None else ""
        if number:
            if numbers is None:
                numbers = set(marked_numbers(body))
            if number in numbers:
                return True
    return False


def _own_source(doc: Document, where: IdMentions) -> bool:
    """The entry is the one source of the page: the only item of a top-level `## Sources` /
    `## 来源` list, as a wiki page drawn from one note ends. The whole page discusses it."""
    for line, _column in where.references:
        block = doc.block_at(line)
        if block is None:
            continue
        section = doc.sections[block.section]
        if section.heading is None or not SOURCE_LABEL.match(section.heading) or not _top_level(doc, section):
            continue
        entries = [item for item in (doc.blocks[i] for i in section.blocks)
                   if item.kind in _ITEMS and item.depth == 0
                   and (item.refs or any(child.refs for child in doc.descendants(item)))]
        if len(entries) == 1:
            return True
    return False


def _top_level(doc: Document, section: Section) -> bool:
    """A section of the whole file: no parent, or under the file's title heading only."""
    if section.parent is None:
        return True
    title = doc.title_block()
    return title is not None and title.section == section.parent


__all__ = ["ABOUT", "COINED", "ENTRY", "NAMED", "NUMBERED", "OWN_SOURCE", "SEPARATORS", "Discussions",
           "coined_names", "compact_name", "name_parts", "note_title", "page_names", "work_names"]
