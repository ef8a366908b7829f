"""`kbcheck suggest PATH…`: the sections of the living documents a note most likely belongs to.

The index of sections is built once per run (each document's summary cached
by blob id), so the digest asks it for every increment at the cost of one.
"""

from __future__ import annotations

from typing import Any

from kbcheck.model.knowledge_base import KNOWLEDGE, KnowledgeBase
from kbcheck.suggest.index import Resolver, SectionIndex, build_index
from kbcheck.suggest.rank import Suggestion, make_query, rank

DEFAULT_TOP = 3


class Suggester:
    """One index of a knowledge base's sections, asked for as many notes as needed."""

    def __init__(self, kb: KnowledgeBase, boilerplate: set[str] | None = None,
                 common_terms: set[str] | None = None) -> None:
        self.kb = kb
        self.resolver = Resolver(kb)
        self._index: SectionIndex | None = None
        #: targets (`repo:…`, `arxiv:…`) too common among the notes to tie a note to a section
        self.boilerplate = boilerplate or set()
        #: terms most notes hold (a shared header): they place no note
        self.common_terms = common_terms or set()

    @property
    def index(self) -> SectionIndex:
        if self._index is None:
            self._index = build_index(self.kb, self.resolver)
        return self._index

    def suggest(self, path: str, top: int = DEFAULT_TOP) -> list[Suggestion]:
        """The best `top` sections for the note at `path` (none for a living document or unreadable file)."""
        if self.kb.kind_of(path) == KNOWLEDGE:
            return []
        query = make_query(self.kb, self.resolver, path)
        if query is None:
            return []
        query.targets -= self.boilerplate - query.own
        if self.common_terms:
            query.terms = {t: n for t, n in query.terms.items() if t not in self.common_terms}
        return rank(self.kb, self.index, query, top)


def suggestion_json(suggestion: Suggestion) -> dict[str, Any]:
    return {"living_doc": suggestion.living_doc, "section": suggestion.section, "line": suggestion.line,
            "score": suggestion.score, "why": list(suggestion.why)}


__all__ = ["DEFAULT_TOP", "Suggester", "Suggestion", "suggestion_json"]
