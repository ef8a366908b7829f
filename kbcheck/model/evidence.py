"""Is a claim number backed by its evidence? One verdict per claim, for KB005 and KB006.

The evidence for a claim is the citations of its block (and, for a nested
list item, of the items it sits in) together with those of its section.
A claim tied to a card field (`⭐` -> `stars`) is compared with the card when
exactly one card backs it: the block's cards if the block cites any, else
the section's. Deciding both rules here keeps "KB006 wins over KB005" true.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from kbcheck.model.cards import Card
from kbcheck.model.claims import ClaimNumber
from kbcheck.model.knowledge_base import Citation, KnowledgeBase

STALE, UNSOURCED, NOT_IN_CARDS = "stale", "unsourced", "not_in_cards"


@dataclass(frozen=True)
class Verdict:
    """Why a claim fails: stale against a card, no source, or absent from all cited cards."""

    claim: ClaimNumber
    reason: str
    cards: tuple[Card, ...] = ()
    field_value: float | None = None


def _same(a: float, b: float) -> bool:
    """Equal values, as written in different places (`1,771` and `1771.0`)."""
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _distinct_cards(kb: KnowledgeBase, citations: list[Citation]) -> list[Card]:
    cards: dict[str, Card] = {}
    for citation in citations:
        if citation.card_path and citation.card_path not in cards:
            card = kb.card(citation.card_path)
            if card is not None:
                cards[citation.card_path] = card
    return list(cards.values())


def claim_verdicts(kb: KnowledgeBase, path: str) -> list[Verdict]:
    """Every failing claim number in the document at `path`, computed once per run."""
    return kb.derived(_all_verdicts, path)


def _all_verdicts(kb: KnowledgeBase, path: str) -> list[Verdict]:
    return list(_verdicts(kb, path))


def _verdicts(kb: KnowledgeBase, path: str) -> Iterator[Verdict]:
    """Failing claims, skipping blocks with an uncertainty marker."""
    doc = kb.document(path)
    if doc is None:
        return
    block_citations = kb.resolve(path).block_citations
    # a living document cites thousands of cards: read those not yet known in one go
    kb.preload(c.card_path for citations in block_citations for c in citations if c.card_path)
    sections: dict[int, _Evidence] = {}
    for block in doc.blocks:
        if not block.claims or block.uncertain:
            continue
        own_citations = list(block_citations[block.index])
        for ancestor in doc.ancestors(block):
            own_citations.extend(block_citations[ancestor.index])
        if block.section not in sections:
            sections[block.section] = _Evidence(
                kb, [c for i in doc.sections[block.section].blocks for c in block_citations[i]]
            )
        around = sections[block.section]
        own = _Evidence(kb, own_citations)
        # the section speaks for a block only when the block itself cites nothing
        tied_cards = own.cards if own.citations else around.cards
        has_evidence = bool(own.citations or around.citations)
        only_cards = has_evidence and own.only_cards and around.only_cards
        for claim in block.claims:
            if claim.field is not None and len(tied_cards) == 1:
                current = tied_cards[0].number_field(claim.field)
                if current is not None and not _same(current, claim.value):
                    yield Verdict(claim, STALE, (tied_cards[0],), current)
                    continue
            if not has_evidence:
                yield Verdict(claim, UNSOURCED)
            elif only_cards and not own.holds(claim.value) and not around.holds(claim.value):
                cards = {c.path: c for c in own.cards + around.cards}
                yield Verdict(claim, NOT_IN_CARDS, tuple(cards.values()))


class _Evidence:
    """Citations of a block or a section, with their distinct cards and the numbers those hold."""

    __slots__ = ("cards", "citations", "numbers", "only_cards")

    def __init__(self, kb: KnowledgeBase, citations: list[Citation]) -> None:
        self.citations = citations
        self.only_cards = all(c.card_path for c in citations)
        self.cards = _distinct_cards(kb, citations)
        self.numbers: set[float] = set().union(*(kb.card_numbers(card) for card in self.cards)) if self.cards else set()

    def holds(self, value: float) -> bool:
        """A card number of equal value; `4.03万` is 40300.000000000004 as a float."""
        target = abs(value)
        return target in self.numbers or any(_same(target, number) for number in self.numbers)
