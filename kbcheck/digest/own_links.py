"""Where a note says it belongs: the living documents it links, and the sections citing what it links.

A wiki's source note lists the concept pages it feeds (`[[few-shot-learning]]`)
beside its authors' pages; a zettelkasten note links the note an article
already cites. Those links are the author's own placement, so they go first:

1. a living document the note links from its body (not from its own reference
   list), when the note's text (title and prose, lone link lines left out)
   holds at least half of the page's title words: a concept the note is about,
   not a co-author or an institution it merely names. Pages are ordered by the
   ranking's score of their best section times 1 + the log of how often the note
   writes the page's title words (its least written one), then by the order it
   links them; the section is the page's best by the ranking, else its first that
   takes entries;
2. a section of a living document that cites a note or card this note links from
   its body.

The ranking's other suggestions follow.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import TYPE_CHECKING

from kbcheck.digest.gist import prose
from kbcheck.model.document import REFERENCE, file_title
from kbcheck.model.knowledge_base import KNOWLEDGE
from kbcheck.suggest.rank import Suggestion
from kbcheck.suggest.terms import terms

if TYPE_CHECKING:
    from kbcheck.model.knowledge_base import KnowledgeBase
    from kbcheck.suggest import Suggester

#: the share of a linked page's title words the note must write for the link to place it
TITLE_SHARE = 0.5
#: suggestions an increment shows
SHOWN = 3
#: how deep in the ranking a linked page's best section is looked for
_RANKED = 60
WHY_LINKED_PAGE = "the note links this document"


def _words(text: str) -> list[str]:
    """Terms with hyphenated words also counted by their parts (`few-shot-learning`: few, shot, learning)."""
    out: list[str] = []
    for term in terms(text):
        out.append(term)
        if "-" in term:
            out += [part for part in term.split("-") if part]
    return out


def body_links(kb: KnowledgeBase, path: str) -> list[str]:
    """The files the note links from its body, in order; its own reference list left out (a paper
    note's `References` names the works it cites, not where it belongs)."""
    doc = kb.document(path)
    if doc is None:
        return []
    out: dict[str, None] = {}
    for block, links in zip(doc.blocks, kb.resolve(path).block_links):
        if doc.sections[block.section].role == REFERENCE:
            continue
        for link in links:
            if link.kind == "document" and link.target != path:
                out.setdefault(link.target, None)
    return list(out)


def _written(kb: KnowledgeBase, path: str) -> Counter[str]:
    """How often the note writes each word, in its title and prose."""
    doc = kb.document(path)
    text = " ".join([file_title(doc, path), *prose(doc, kb.text(path) or "")])
    return Counter(_words(text))


def _page_strength(kb: KnowledgeBase, page: str, written: Counter[str]) -> int | None:
    """How often the note writes the page's title words (the least written one), or None when it
    writes less than `TITLE_SHARE` of them."""
    title = set(_words(file_title(kb.document(page), page)))
    parts = {w for w in title if "-" not in w} or title
    if not parts:
        return None
    held = [w for w in parts if written[w]]
    if len(held) < TITLE_SHARE * len(parts):
        return None
    return min(written[w] for w in held)


def linked_placement(kb: KnowledgeBase, path: str, suggester: Suggester, top: int = SHOWN) -> list[Suggestion]:
    """The increment's suggested sections: its own links' places first (module docstring), then the ranking's."""
    ranked = suggester.suggest(path, top=_RANKED)
    links = body_links(kb, path)
    if not links:
        return ranked[:top]
    best: dict[str, Suggestion] = {}
    for suggestion in ranked:
        best.setdefault(suggestion.living_doc, suggestion)
    written = _written(kb, path)
    pages: list[tuple[float, int, int, str]] = []
    for order, target in enumerate(links):
        if kb.kind_of(target) != KNOWLEDGE:
            continue
        strength = _page_strength(kb, target, written)
        if strength is not None:
            score = best[target].score if target in best else 0.0
            # the ranking's word, weighed by how much the note writes about the page (damped: a page of
            # common words the note repeats does not outweigh the ranking)
            pages.append((-score * (1 + math.log(strength)), -strength, order, target))
    first: list[Suggestion] = []
    for _rank, _strength, _order, page in sorted(pages):
        found = best.get(page) or _first_section(suggester, page)
        if found is not None:
            first.append(found)
    index = suggester.index
    for target in links:
        if kb.kind_of(target) == KNOWLEDGE:
            continue
        for number in index.by_target.get(f"path:{target}", ()):
            section = index.candidates[number]
            first.append(Suggestion(section.doc, section.heading, section.line, _score(ranked, section.doc,
                                    section.line), (f"cites {target}, which the note links",)))
    out: list[Suggestion] = []
    seen: set[tuple[str, int]] = set()
    for suggestion in [*first, *ranked]:
        key = (suggestion.living_doc, suggestion.line)
        if key not in seen:
            seen.add(key)
            out.append(suggestion)
    return out[:top]


def _score(ranked: list[Suggestion], doc: str, line: int) -> float:
    return next((s.score for s in ranked if s.living_doc == doc and s.line == line), 0.0)


def _first_section(suggester: Suggester, page: str) -> Suggestion | None:
    """The page's first section that takes entries (its lead when it has no other)."""
    index = suggester.index
    numbers = index.numbers_of(page)
    chosen = next((n for n in numbers if index.candidates[n].heading), numbers[0] if numbers else None)
    if chosen is None:
        return None
    section = index.candidates[chosen]
    return Suggestion(section.doc, section.heading, section.line, 0.0, (WHY_LINKED_PAGE,))


__all__ = ["TITLE_SHARE", "body_links", "linked_placement"]
