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
    key = ("claim_verdicts", path)
    if key not in kb.memo:
        kb.memo[key] = list(_verdicts(kb, path))
    return kb.memo[key]  # type: ignore[no-any-return]


def _verdicts(kb: KnowledgeBase, path: str) -> Iterator[Verdict]:
    """Failing claims, skipping blocks with an uncertainty marker."""
    doc = kb.document(path)
    if doc is None:
        return
    block_citations = kb.resolve(path).block_citations
    section_citations: dict[int, list[Citation]] = {}
    for block in doc.blocks:
        if not block.claims or block.uncertain:
            continue
        own = list(block_citations[block.index])
        for ancestor in doc.ancestors(block):
            own.extend(block_citations[ancestor.index])
        if block.section not in section_citations:
            section_citations[block.section] = [
                c for i in doc.sections[block.section].blocks for c in block_citations[i]
            ]
        around = section_citations[block.section]
        evidence = own + around
        own_cards = _distinct_cards(kb, own)
        tied_cards = own_cards or _distinct_cards(kb, around)
        all_cards = _distinct_cards(kb, evidence)
        only_cards = bool(evidence) and all(c.card_path for c in evidence)
        for claim in block.claims:
            if claim.field is not None and len(tied_cards) == 1:
                current = tied_cards[0].number_field(claim.field)
                if current is not None and not _same(current, claim.value):
                    yield Verdict(claim, STALE, (tied_cards[0],), current)
                    continue
            if not evidence:
                yield Verdict(claim, UNSOURCED)
            elif only_cards and not any(_contains(card, claim.value) for card in all_cards):
                yield Verdict(claim, NOT_IN_CARDS, tuple(all_cards))


def _contains(card: Card, value: float) -> bool:
    target = abs(value)
    return any(_same(target, number) for number in card.numbers)
