"""Where a living document mentions each id: reference list, entries, meta sections.

KB002, KB003 and the digest all ask the same question of a living document,
so it is answered once here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kbcheck.model.document import OPEN_QUESTION, REFERENCE, TREND
from kbcheck.model.knowledge_base import KnowledgeBase

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
