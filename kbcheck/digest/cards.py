"""Card cautions: what a writer must know before quoting a paper card.

Three signals the sample brief checks by hand: the card holds nothing beyond
its tldr (no numbers or conclusions to quote), the paper is barely cited yet,
and the influential-citation count does not fit the total.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kbcheck.digest.items import ITEM_FACTS
from kbcheck.digest.phrases import say
from kbcheck.model.cards import PAPER, Card

if TYPE_CHECKING:
    from kbcheck.config import Config
    from kbcheck.model.knowledge_base import KnowledgeBase

#: the cache key of `abstract_only`
_ABSTRACT_ONLY_KEY = "abstract-only"
#: below this many total citations a zero influential count is normal, whatever the threshold
_HIGH_TOTAL_FLOOR = 50


def _norm(text: str) -> str:
    return " ".join(text.split()).strip().lower()


def abstract_only(kb: KnowledgeBase, card: Card) -> bool:
    """True when the card's text adds nothing to its tldr: no prose, or prose that repeats it.

    It depends on the card's text alone, so it is cached by blob id: a warm digest
    then decodes no card's parse to tell."""
    key = "\0".join((_ABSTRACT_ONLY_KEY, kb.facts.settings.key, card.kind, card.path))
    cached = kb.facts.fact(ITEM_FACTS, card.path, key, lambda _text: _abstract_only(kb, card))
    return cached if isinstance(cached, bool) else _abstract_only(kb, card)


def _abstract_only(kb: KnowledgeBase, card: Card) -> bool:
    doc = kb.document(card.path)
    prose = [_norm(b.text) for b in doc.blocks if b.kind != "heading" and b.text.strip()] if doc else []
    tldr = card.fields.get("tldr")
    summary = _norm(tldr) if isinstance(tldr, str) else ""
    return all(summary and text in summary for text in prose)


def high_total(config: Config) -> int:
    """A total citation count at which zero influential citations is a mismatch worth saying."""
    return max(_HIGH_TOTAL_FLOOR, 10 * config.low_citation_threshold)


def card_cautions(kb: KnowledgeBase, path: str, config: Config, lang: str) -> list[str]:
    """The cautions of the paper card at `path` (none for other kinds or unreadable cards)."""
    if kb.kind_of(path) != PAPER:
        return []
    card = kb.card(path)
    if card is None:
        return []
    cautions: list[str] = []
    if abstract_only(kb, card):
        cautions.append(say(lang, "caution.abstract_only"))
    total = card.number_field("s2_citations")
    influential = card.number_field("s2_influential")
    if total is not None and total < config.low_citation_threshold:
        cautions.append(say(lang, "caution.low_citations", n=_show(total), threshold=config.low_citation_threshold))
    if total is not None and influential is not None:
        if influential > total:
            cautions.append(say(lang, "caution.influential_exceeds", influential=_show(influential), total=_show(total)))
        elif influential == 0 and total >= high_total(config):
            cautions.append(say(lang, "caution.influential_zero", total=_show(total)))
    return cautions


def _show(number: float) -> str:
    return str(int(number)) if number == int(number) else str(number)
