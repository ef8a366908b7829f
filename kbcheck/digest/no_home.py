"""A note nothing in the living documents relates to: nowhere to fold it, so a note to read.

An increment is material to write into a living document, and its gap says where the living
documents lack it. A note that cites no paper or repository has no id whose absence is a gap; when
nothing else relates it to a living document either, it has nowhere to go: no section holds its
distinctive words (the placement found none), it links no page still to write (no new page is
proposed), no living document links it, and it links none. A backup
bringing back old book notes, a storage-engine note or a C++ draft in a collection whose living
documents are about deep learning: a maintainer reads such a note (and may start a page for its
topic) but writes none of it up tonight. It is a `review` item, "nothing to fold into", as a
knowledge base with no living document at all makes every note one (`classify`, "Nowhere to
fold"). Only notes (guides) are read so: a card's collection says its scope by
`scope-categories`, and a brief is written for the living documents, an increment to them by
what it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kbcheck.digest.model import ADDED, INCREMENT, REVIEW, Item
from kbcheck.digest.phrases import field_changes, say
from kbcheck.model.knowledge_base import GUIDE, KNOWLEDGE

if TYPE_CHECKING:
    from kbcheck.model.knowledge_base import KnowledgeBase


def linked_by_living(kb: KnowledgeBase, documents: list[str]) -> set[str]:
    """Every file a living document links, from any section (its reference list too)."""
    out: set[str] = set()
    for path in documents:
        for links in kb.resolve(path).block_links:
            out.update(link.target for link in links if link.kind == "document" and link.target != path)
    return out


def _placed_nowhere(item: Item) -> bool:
    """A note placed as an increment that cites nothing, with no section and no page to write."""
    return (item.cls == INCREMENT and item.kind == GUIDE and not item.ids  # an absent id is the spec's gap
            and not item.suggested_sections and not item.new_pages)


def _no_home(kb: KnowledgeBase, item: Item, linked: set[str]) -> bool:
    """Whether an increment placed nowhere (`_placed_nowhere`) is a note nothing in the living documents
    relates to (module docstring); `linked`: the files the living documents link."""
    if item.path in linked:
        return False
    return not any(link.kind == "document" and kb.kind_of(link.target) == KNOWLEDGE
                   for links in kb.resolve(item.path).block_links for link in links)


def unfold(kb: KnowledgeBase, items: list[Item], documents: list[str], lang: str) -> None:
    """Make each placed increment nothing relates to a note to read (`review`, "nothing to fold into")."""
    candidates = [item for item in items if _placed_nowhere(item)]
    if not candidates:
        return
    linked = linked_by_living(kb, documents)
    for item in candidates:
        if _no_home(kb, item, linked):
            item.cls, item.unfolded, item.related = REVIEW, True, []
            item.reason = say(lang, "no_home") if item.change == ADDED else say(
                lang, "no_home.modified", what=field_changes(lang, item.changed_fields))


__all__ = ["linked_by_living", "unfold"]
