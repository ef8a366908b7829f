"""Where a living document mentions each id: reference list, entries, meta sections.

KB002, KB003 and the digest all ask the same question of a living document,
so it is answered once here; and whether its reference list is a
bibliography at all, or a navigation index (`navigation_index`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kbcheck.model.document import OPEN_QUESTION, REFERENCE, TREND
from kbcheck.model.knowledge_base import KnowledgeBase

if TYPE_CHECKING:
    from kbcheck.model.document import Block
    from kbcheck.model.knowledge_base import Resolved

_LISTED = ("list_item", "table_row")


@dataclass
class IdMentions:
    """Every place one id appears in one living document."""

    kind: str
    id: str
    #: (line, column) of each reference-list entry naming it
    references: list[tuple[int, int]] = field(default_factory=list)
    #: (line, column, section name) of mentions in ordinary body sections
    entry: list[tuple[int, int, str]] = field(default_factory=list)
    #: (line, column, section name) of mentions in trend or open-question sections
    meta: list[tuple[int, int, str]] = field(default_factory=list)

    @property
    def body(self) -> list[tuple[int, int, str]]:
        """Mentions outside the reference section, in document order."""
        return sorted(self.entry + self.meta)

    @property
    def sections(self) -> list[str]:
        seen: dict[str, None] = {}
        for _line, _col, name in self.body:
            seen.setdefault(name, None)
        return list(seen)


def document_mentions(kb: KnowledgeBase, path: str) -> dict[str, IdMentions]:
    """Mentions of every cited id in the living document at `path`, keyed by id."""
    return kb.derived(_mentions, path)


def _mentions(kb: KnowledgeBase, path: str) -> dict[str, IdMentions]:
    doc = kb.document(path)
    if doc is None:
        return {}
    resolved = kb.resolve(path)
    out: dict[str, IdMentions] = {}
    for block, citations in zip(doc.blocks, resolved.block_citations):
        section = doc.sections[block.section]
        for citation in citations:
            entry = out.setdefault(citation.id, IdMentions(citation.kind, citation.id))
            if section.role == REFERENCE:
                if block.kind in _LISTED:
                    entry.references.append((citation.line, citation.column))
            elif section.role in (TREND, OPEN_QUESTION):
                entry.meta.append((citation.line, citation.column, section.name))
            else:
                entry.entry.append((citation.line, citation.column, section.name))
    return out


def navigation_index(kb: KnowledgeBase, path: str) -> bool:
    """Whether the document's reference list is a navigation index, not a bibliography: each of
    its entries links a note of the knowledge base (writing no id and no web address of its own),
    and the page has no body beyond it: outside its lead (the text under its title, or before
    any heading) it holds no paragraph, and every other list item or table row links a note
    too. Nothing on such a page discusses what it lists, by design."""
    doc = kb.document(path)
    if doc is None:
        return False
    resolved = kb.resolve(path)
    title = doc.title_block()
    lead = {title.section} if title is not None else set()
    entries = 0
    for block in doc.blocks:
        section = doc.sections[block.section]
        if block.kind == "heading" or block.parent is not None:
            continue
        in_references = section.role == REFERENCE
        if block.kind == "paragraph":
            if in_references or section.heading is None or block.section in lead:
                continue
            return False
        if block.kind not in _LISTED:
            continue
        unit = (block, *doc.descendants(block))
        if in_references and not any(resolved.block_citations[b.index] or resolved.block_links[b.index] for b in unit):
            continue  # an entry naming nothing (`- 见下`) says nothing either way
        if not _links_a_note(unit, resolved):
            return False
        entries += in_references
    return entries > 0


def _links_a_note(unit: tuple[Block, ...], resolved: Resolved) -> bool:
    """A list item (with its nested items) or a row that links a note of the knowledge base and
    cites nothing else: no id written, no card, no web address."""
    citations = [c for b in unit for c in resolved.block_citations[b.index]]
    links = [link for b in unit for link in resolved.block_links[b.index]]
    return (any(link.kind == "document" for link in links) and not any(link.kind == "url" for link in links)
            and all(c.note is not None for c in citations))
