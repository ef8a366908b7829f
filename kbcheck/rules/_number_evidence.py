"""Where a claim number's source is, and whether it backs the number: one decision for KB005 and KB006.

A claim's evidence is taken from the nearest level that has any
(`docs/rules.md`): a link whose text holds the number; its block (with the
list items it sits in); its section, heading included; the heading and lead
text of each ancestor section, innermost first; the file's own sources (its
frontmatter, or its title heading). A sub-section headed as a source label
(`来源`, `出处`, `Source`, `Sources`) belongs to its parent's lead; one with no
parent (a wiki page's closing `## Sources`) is among the file's own sources. Web links
and links to documents of the knowledge base are sources without a card.

KB006 compares a number tied to a card field when that level holds exactly
one card; KB005 fires when no level has a source, or when every source at
the nearest level is a card and none of those cards holds the number.
Deciding both here keeps "KB006 wins over KB005" one decision.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from kbcheck.model.cards import Card
    from kbcheck.model.claims import ClaimNumber
    from kbcheck.model.document import Block, Document
    from kbcheck.model.knowledge_base import Citation, KnowledgeBase, Link, Resolved

Reason = Literal["stale", "unsourced", "not_in_cards"]
STALE: Reason = "stale"
UNSOURCED: Reason = "unsourced"
NOT_IN_CARDS: Reason = "not_in_cards"

#: a heading that names where the text around it comes from (`#### 来源`, `## Sources:`)
SOURCE_LABEL = re.compile(r"^[\s\d.、:：§#*_\-]*(?:来源|出处|sources?)(?![A-Za-z])", re.IGNORECASE)


@dataclass(frozen=True)
class NumberVerdict:
    """Why a claim number fails: stale against its one card, no source, or absent from every cited card."""

    claim: ClaimNumber
    reason: Reason
    cards: tuple[Card, ...] = ()
    field_value: float | None = None


@dataclass(frozen=True)
class Evidence:
    """The sources at the nearest level that has any."""

    citations: tuple[Citation, ...]
    links: tuple[Link, ...]

    @property
    def only_cards(self) -> bool:
        return not self.links and all(c.card_path for c in self.citations)

    def card_paths(self) -> list[str]:
        return list(dict.fromkeys(c.card_path for c in self.citations if c.card_path))


def number_verdicts(kb: KnowledgeBase, path: str) -> list[NumberVerdict]:
    """Every failing claim number of the document at `path`, computed once per run."""
    return kb.derived(_all_verdicts, path)


def _all_verdicts(kb: KnowledgeBase, path: str) -> list[NumberVerdict]:
    return list(_verdicts(kb, path))


def _same(a: float, b: float) -> bool:
    """Equal values, as written in different places (`1,771` and `1771.0`)."""
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _holds(kb: KnowledgeBase, cards: Sequence[Card], value: float) -> bool:
    """A card number of equal value; `4.03万` is 40300.000000000004 as a float."""
    target = abs(value)
    for card in cards:
        numbers = kb.card_numbers(card)
        if target in numbers or any(_same(target, n) for n in numbers):
            return True
    return False


def _verdicts(kb: KnowledgeBase, path: str) -> Iterator[NumberVerdict]:
    doc = kb.document(path)
    if doc is None:
        return
    resolved = kb.resolve(path)
    kb.preload(c.card_path for citations in resolved.block_citations for c in citations if c.card_path)
    levels = _Levels(doc, resolved)
    for block in doc.blocks:
        if not block.claims or block.uncertain:
            continue
        linked = dict(block.claim_links)
        nearest: Evidence | None = None
        for index, claim in enumerate(block.claims):
            evidence = levels.of_link(block, linked[index]) if index in linked else None
            if evidence is None:
                nearest = nearest or levels.nearest(block)
                evidence = nearest
            verdict = _judge(kb, claim, evidence)
            if verdict is not None:
                yield verdict


def _judge(kb: KnowledgeBase, claim: ClaimNumber, evidence: Evidence) -> NumberVerdict | None:
    if not evidence.citations and not evidence.links:
        return NumberVerdict(claim, UNSOURCED)
    cards = [card for card in (kb.card(p) for p in evidence.card_paths()) if card is not None]
    if claim.field is not None and len(cards) == 1:
        current = cards[0].number_field(claim.field)
        if current is not None and not _same(current, claim.value):
            return NumberVerdict(claim, STALE, (cards[0],), current)
    if evidence.only_cards and not _holds(kb, cards, claim.value):
        return NumberVerdict(claim, NOT_IN_CARDS, tuple(cards))
    return None


class _Levels:
    """The evidence levels of a document's blocks, each level's sources gathered once."""

    def __init__(self, doc: Document, resolved: Resolved) -> None:
        self.doc = doc
        self.resolved = resolved
        self.children: dict[int, list[int]] = {}
        for section in doc.sections:
            if section.parent is not None:
                self.children.setdefault(section.parent, []).append(section.index)
        self._sections: dict[int, Evidence] = {}
        self._file: Evidence | None = None

    def _gather(self, blocks: Sequence[int]) -> Evidence:
        citations = tuple(c for i in blocks for c in self.resolved.block_citations[i])
        links = tuple(link for i in blocks for link in self.resolved.block_links[i])
        return Evidence(citations, links)

    def of_link(self, block: Block, ref_index: int) -> Evidence | None:
        """The source a link around the number points at, when it resolves to one."""
        ref = block.refs[ref_index]
        at = (ref.line, ref.column)
        citations = tuple(c for c in self.resolved.block_citations[block.index] if (c.line, c.column) == at)
        links = tuple(link for link in self.resolved.block_links[block.index] if (link.line, link.column) == at)
        return Evidence(citations, links) if citations or links else None

    def section(self, index: int) -> Evidence:
        """A section's heading and lead text, with its source-label sub-sections."""
        if index not in self._sections:
            blocks = list(self.doc.sections[index].blocks)
            for child in self.children.get(index, ()):
                heading = self.doc.sections[child].heading
                if heading is not None and SOURCE_LABEL.match(heading):
                    blocks.extend(self._subtree_blocks(child))
            self._sections[index] = self._gather(blocks)
        return self._sections[index]

    def _subtree_blocks(self, index: int) -> list[int]:
        out = list(self.doc.sections[index].blocks)
        for child in self.children.get(index, ()):
            out.extend(self._subtree_blocks(child))
        return out

    def file(self) -> Evidence:
        if self._file is None:
            title = self.doc.title_block()
            blocks = [title.index] if title is not None else []
            for section in self.doc.sections:
                # a top-level `## Sources` section is the lead of the whole file
                if section.parent is None and section.heading is not None and SOURCE_LABEL.match(section.heading):
                    blocks.extend(self._subtree_blocks(section.index))
            own = self._gather(blocks)
            self._file = Evidence(tuple(self.resolved.own_citations) + own.citations,
                                  tuple(self.resolved.own_links) + own.links)
        return self._file

    def nearest(self, block: Block) -> Evidence:
        """The first level with any source: block, section, ancestor sections, the file."""
        own = self._gather([block.index, *(a.index for a in self.doc.ancestors(block))])
        if own.citations or own.links:
            return own
        section: int | None = block.section
        while section is not None:
            evidence = self.section(section)
            if evidence.citations or evidence.links:
                return evidence
            section = self.doc.sections[section].parent
        return self.file()
