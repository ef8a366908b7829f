"""Where a note says it belongs: the page named for its work, the living documents it links, and
the sections citing what it links.

A wiki keeps a page per named work (`beir.md` for the BEIR benchmark) beside
its topic pages; its source note lists the concept pages it feeds
(`[[few-shot-learning]]`) beside its authors' pages; a zettelkasten note links
the note an article already cites. Those are the author's own placement, so
they go first, in this order:

1. a living document named for the note's work: its file name or title is the
   coined short name of the note's title (`BEIR: A Heterogeneous Benchmark …`
   goes to `beir.md`; `evidence/discussed.py` says what a coined name is);
2. a living document the note links from its body (not from its own reference
   list), when the note's text (title and prose, lone link lines left out)
   holds at least half of the page's title words: a concept the note is about,
   not a co-author or an institution it merely names;
3. a section of a living document that cites a note or card this note links from
   its body.

Pages of the first two are ordered within each by the ranking's score of their
best section times 1 + the log of how often the note writes the page's title
words (its least written one), divided by 1 + the log of 1 + the notes and cards
the page lists (the page of a benchmark or a model every note evaluates on lists
them all: the note's own contribution goes to the narrower page it links), then by the order
the note links them; the section is the page's best by the ranking, else its
first that takes entries.
The ranking's other suggestions follow. A note's tags are no such place: a
wiki's tags name broad fields (`code-completion`), and its maintainers write a
note into the narrower pages it links (measured in `bench/suggest/RESULTS.md`).

**A topic still to write.** When the note also links a page that does not exist
yet (the digest proposes it: `digest/new_page.py`), its own topic may have no
page: a wiki links a paper's backbone (`transformer`), its tokenizer or its
authors' institution beside the concept it brings. Then only a page the note's
title names is a home (at least half of the page's title words in the title, a
word matching its longer forms: `Encode Position` names `positional-encoding`),
besides the page named for its work; the other places are left out and the new
page is the note's place.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING

from kbcheck.digest.gist import prose
from kbcheck.evidence.discussed import coined_names, compact_name
from kbcheck.model.document import REFERENCE, file_title
from kbcheck.model.knowledge_base import KNOWLEDGE
from kbcheck.suggest.rank import Suggestion
from kbcheck.suggest.reasons import Reason, reason
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
#: the shortest word whose longer forms a title's word matches (`title_names`)
_STEM_MIN = 5
#: the tiers of the note's own places (module docstring)
_WORK, _LINKED = 0, 1


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


def _title_words(title: str) -> set[str]:
    """A page's title words, a hyphenated word by its parts (`few-shot-learning`: few, shot, learning)."""
    words = set(_words(title))
    return {w for w in words if "-" not in w} or words


def _page_strength(kb: KnowledgeBase, page: str, written: Counter[str]) -> int | None:
    """How often the note writes the page's title words (the least written one), or None when it
    writes less than `TITLE_SHARE` of them."""
    parts = _title_words(file_title(kb.document(page), page))
    if not parts:
        return None
    held = [w for w in parts if written[w]]
    if len(held) < TITLE_SHARE * len(parts):
        return None
    return min(written[w] for w in held)


def title_names(title: str, page_title: str) -> bool:
    """Whether a note's title names a page: it holds at least `TITLE_SHARE` of the page's title
    words, a word of five letters or more also matching its longer forms (`encode`, `encoding`)."""
    page = _title_words(page_title)
    if not page:
        return False
    held = set(_words(title))

    def found(word: str) -> bool:
        stem = word[:-1] if word.endswith("e") else word
        return word in held or any(
            min(len(stem), len(other)) >= _STEM_MIN and (other.startswith(stem) or stem.startswith(
                other[:-1] if other.endswith("e") else other)) for other in held)

    return sum(map(found, page)) >= TITLE_SHARE * len(page)


def linked_placement(kb: KnowledgeBase, path: str, suggester: Suggester, top: int = SHOWN,
                     topic_unwritten: bool = False) -> list[Suggestion]:
    """The increment's suggested sections: its own places first (module docstring), then the ranking's;
    with `topic_unwritten` (the note links a page still to write), only the pages its title names."""
    named = _named_pages(kb, path, suggester)
    out = _places(kb, path, suggester, named)
    if topic_unwritten:
        title = file_title(kb.document(path), path)
        kept = {page for page in dict.fromkeys(s.living_doc for s in out)
                if page in named or title_names(title, file_title(kb.document(page), page))}
        out = [s for s in out if s.living_doc in kept]
    return out[:top]


def _places(kb: KnowledgeBase, path: str, suggester: Suggester, named: dict[str, Reason]) -> list[Suggestion]:
    """Every suggested section, the note's own places first (module docstring), then the ranking's;
    `named`: the pages named for the note's work."""
    ranked = suggester.suggest(path, top=_RANKED)
    links = body_links(kb, path)
    if not links and not named:
        return ranked
    best: dict[str, Suggestion] = {}
    for suggestion in ranked:
        best.setdefault(suggestion.living_doc, suggestion)
    written = _written(kb, path)
    order = {target: n for n, target in enumerate(links)}
    pages: dict[str, tuple[int, float, int, int, str]] = {}
    for target in [*named, *links]:
        if kb.kind_of(target) != KNOWLEDGE or target in pages:
            continue
        strength = _page_strength(kb, target, written)
        if strength is None and target not in named:
            continue
        strength = strength or 1
        score = best[target].score if target in best else 0.0
        # the ranking's word, weighed by how much the note writes about the page (damped: a page of
        # common words the note repeats does not outweigh the ranking)
        # breadth: the notes and cards the page lists (the page of a benchmark or a model every
        # note evaluates on lists them all; its links to other pages are topics, not uses)
        breadth = suggester.material_cited.get(target, 0)
        pages[target] = (_LINKED if target not in named else _WORK,
                         -score * (1 + math.log(strength)) / (1 + math.log1p(breadth)), -strength,
                         order.get(target, len(order)), target)
    first: list[Suggestion] = []
    for _tier, _rank, _strength, _order, page in sorted(pages.values()):
        found = best.get(page) or _first_section(suggester, page)
        if found is not None:
            first.append(replace(found, why=(named[page], *found.why)) if page in named else found)
    index = suggester.index
    for target in links:
        if kb.kind_of(target) == KNOWLEDGE:
            continue
        for number in index.by_target.get(f"path:{target}", ()):
            section = index.candidates[number]
            first.append(Suggestion(section.doc, section.heading, section.line, _score(ranked, section.doc,
                                    section.line), (reason("why.cites_linked", path=target),)))
    out: list[Suggestion] = []
    seen: set[tuple[str, int]] = set()
    for suggestion in [*first, *ranked]:
        key = (suggestion.living_doc, suggestion.line)
        if key not in seen:
            seen.add(key)
            out.append(suggestion)
    return out


def _named_pages(kb: KnowledgeBase, path: str, suggester: Suggester) -> dict[str, Reason]:
    """The living documents named for the note's work, each with the reason the digest shows."""
    out: dict[str, Reason] = {}
    for name in coined_names(file_title(kb.document(path), path)):
        for page in suggester.pages_by_name.get(compact_name(name), ()):
            if page != path:
                out.setdefault(page, reason("why.named_for_work", name=name))
    return out


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
    return Suggestion(section.doc, section.heading, section.line, 0.0, (reason("why.links_doc"),))


__all__ = ["TITLE_SHARE", "body_links", "linked_placement"]
